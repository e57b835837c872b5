// expect: unreach-call=true
// A flag toggled beside a 2x2 product recurrence; the property ties it to the counter's parity.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint(), c = 1, d = 0;
  unsigned i = 0;
  int flag = 0;
  while (__VERIFIER_nondet_uint()) {
    unsigned na = a * c + b * d, nb = a * d + b * c;
    a = na; b = nb;
    c = c * d + 1; d = d * a;
    flag = !flag;
    i++;
    if (flag != (int)(i & 1)) reach_error();
  }
  return 0;
}
