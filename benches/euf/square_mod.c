// expect: unreach-call=true
// A counter machine whose escape needs a square that is 2 modulo 4 (none is): the arithmetic matters.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  int st = 0;
  while (__VERIFIER_nondet_uint()) {
    unsigned sq = x * x;
    if (sq % 4 == 2) st = 5;
    else if (st < 3) st++;
    else st = 0;
    x = x + __VERIFIER_nondet_uint();
    if (st == 5) reach_error();
  }
  return 0;
}
