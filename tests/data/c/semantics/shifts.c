// expect: unreach-call=false
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);
extern void reach_error(void);
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  int x = __VERIFIER_nondet_int();
  long long w = __VERIFIER_nondet_longlong();
  unsigned int s = __VERIFIER_nondet_uint() % 32u;
  mix(u << s);
  mix(u >> s);
  mix(x >> s);
  mix((unsigned char)u << 24);
  mix((unsigned int)(w >> (s + 5)));
  mix((unsigned int)((unsigned long long)w >> s));
  mix((unsigned int)(w << (s % 8)));
  mix(1u << s);
  mix(x >> 31);
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
