// expect: unreach-call=false
// witness: 2, 0, 2, 2, 2, 2, 2147483651, 2147483651, 2147483651, 2147483650, 2147483650, 2147483650, 2147483650, 2147483648, 2147483648
// A two-worker token ring with product updates; the bug needs six rounds and an odd product.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned w1 = __VERIFIER_nondet_uint(), w2 = __VERIFIER_nondet_uint();
  int p1 = 0, p2 = 0, tok = 1, rounds = 0;
  while (__VERIFIER_nondet_uint()) {
    if (tok == 1) { w1 = w1 * w2 + 1; if (w1 & 1) p1 = 1; tok = 2; }
    else { w2 = w2 * w1; p2 = p1; tok = 1; rounds++; }
    if (rounds == 6 && p2 && tok == 2) reach_error();
  }
  return 0;
}
