// expect: unreach-call=true
// A phase machine over 1000 iterations whose guards compare quotients and remainders.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
  unsigned i = 0;
  int phase = 0;
  while (i < 1000) {
    unsigned d = a / (b | 1), r = a % (b | 1);
    if (phase == 0) { if (d > r) phase = 1; }
    else if (phase == 1) { phase = 2; }
    else { if (r * d == a) phase = 0; else phase = 1; }
    a = a * 5 + d; b = b * r + 3;
    i++;
    if (phase == 3) reach_error();
  }
  return 0;
}
