// expect: unreach-call=false
// witness: 1844051967, 3886022655
// A state machine over 60 iterations of product and quotient updates; the bug needs all 60.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
  int s = 0, n = 0;
  while (n < 60) {
    unsigned p = x * y;
    if (s == 0) s = 1;
    else if (s == 1) { if (p % 3 == 0) s = 2; else s = 0; }
    else s = 3;
    if (s == 3) s = 0;
    x = p + x / (y | 1); y = y * 7 + p;
    n++;
    if (n == 45 && s == 4) reach_error();
    if (n == 47 && s > 2) reach_error();
  }
  if (s > 2) reach_error();
  if (n == 60 && s == 1) reach_error();
  return 0;
}
