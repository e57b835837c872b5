// expect: unreach-call=false
// witness: 0, 0
// A state cycle over ten iterations of product updates; the bug is in the cycle's phase.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
  int s = 0, n = 0;
  while (n < 10) {
    unsigned p = x * y;
    if (s == 0) s = 1; else if (s == 1) s = 2; else s = 0;
    x = p + n; y = y * x + 1;
    n++;
  }
  if (s == 1) reach_error();
  return 0;
}
