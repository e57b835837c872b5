// expect: unreach-call=false
// Integer promotions, usual arithmetic conversions, conversions at assignment and cast.
// The digest at the end makes the outcome depend on every computed bit.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern short __VERIFIER_nondet_short(void);
extern void reach_error(void);
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  int x = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  long l = __VERIFIER_nondet_long();
  short s = __VERIFIER_nondet_short();
  mix(a + b);
  mix((unsigned char)(a + b));
  mix(x < u);
  mix(l < u);
  mix(s < u);
  mix((short)(x * 3));
  mix((signed char)u);
  mix(s * s);
  mix(-a);
  mix(~b);
  mix(a - b < 0);
  mix((long long)x * u);
  mix((unsigned long long)l >> 7);
  mix((_Bool)(u & 6));
  mix(x / 3 + x % 5);
  mix(u / 7u + u % 9u);
  mix((int)(unsigned short)x);
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
