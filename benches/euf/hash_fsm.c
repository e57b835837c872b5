// expect: unreach-call=true
// A three-state machine whose one guard reads a remainder of a product chain.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned h = __VERIFIER_nondet_uint(), k = __VERIFIER_nondet_uint();
  int s = 0;
  while (__VERIFIER_nondet_uint()) {
    h = h * k + __VERIFIER_nondet_uint();
    k = k * h;
    if (s == 0) s = 1;
    else if (s == 1) { if (h % 7 == 3) s = 2; else s = 0; }
    else s = 0;
    if (s == 3) reach_error();
  }
  return 0;
}
