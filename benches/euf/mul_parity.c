// expect: unreach-call=true
// A mode cycle whose one guard compares a quotient of a product; the data grow by products.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
  int mode = 0, steps = 0;
  while (__VERIFIER_nondet_uint()) {
    unsigned p = x * y;
    unsigned q = p / (x | 1);
    if (mode == 0 && q > y) mode = 1;
    else if (mode == 1) mode = 2;
    else if (mode == 2) mode = 0;
    x = q * 3 + p;
    y = y * y;
    steps++;
    if (mode > 2 || mode < 0) reach_error();
  }
  return 0;
}
