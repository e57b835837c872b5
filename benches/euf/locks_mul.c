// expect: unreach-call=true
// Two locks taken and released on guards computed from products, quotients and remainders.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint(), c;
  int l1 = 0, l2 = 0, p1, p2;
  while (1) {
    c = a * b;
    p1 = (c / (b | 1)) > 100;
    p2 = (a % (b | 1)) == 5;
    if (p1) l1 = 1;
    if (p2) l2 = 1;
    if (p1) { if (l1 != 1) reach_error(); l1 = 0; }
    if (p2) { if (l2 != 1) reach_error(); l2 = 0; }
    a = c + a * a;
    b = b * c + 1;
  }
  return 0;
}
