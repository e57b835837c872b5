// expect: unreach-call=true
// A round-robin token over three workers that update products; the property is about the token.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned w1 = __VERIFIER_nondet_uint(), w2 = __VERIFIER_nondet_uint(), w3 = __VERIFIER_nondet_uint();
  int p1 = 0, p2 = 0, p3 = 0, tok = 1;
  while (__VERIFIER_nondet_uint()) {
    if (tok == 1) { w1 = w1 * w2 + w3; if (w1 % 5 == 1) p1 = !p1; tok = 2; }
    else if (tok == 2) { w2 = w2 * w3 + w1; if (w2 / 3 > w1) p2 = !p2; tok = 3; }
    else if (tok == 3) { w3 = w3 * w1 + w2; p3 = p1 ^ p2; tok = 1; }
    if (tok < 1 || tok > 3) reach_error();
    if (p3 != 0 && p3 != 1) reach_error();
  }
  return 0;
}
