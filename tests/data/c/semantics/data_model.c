// expect: unreach-call=false
// expect(lp64): unreach-call=false
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int main(void) {
  long l = __VERIFIER_nondet_long();
  unsigned long ul = __VERIFIER_nondet_ulong();
  unsigned int u = __VERIFIER_nondet_uint();
  mix(l < u); mix((unsigned)(l + u)); mix((unsigned)(ul >> 20)); mix(sizeof(l + u));
  mix((unsigned)((l * 3) >> 33 % (sizeof(long) * 8))); mix(ul > 4294967295ul); mix(-l < 0);
  mix((unsigned)(long long)(l * u));
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
