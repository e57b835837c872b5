// expect: unreach-call=true
// Euclid's remainder loop inside a busy/done handshake; the property is about the handshake.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint(), t;
  int busy = 0, done = 0;
  while (__VERIFIER_nondet_uint()) {
    if (!busy && !done) busy = 1;
    if (busy) {
      if (b != 0) { t = a % b; a = b; b = t; }
      else { busy = 0; done = 1; }
    }
    if (busy && done) reach_error();
    if (done) { a = a * b + __VERIFIER_nondet_uint(); b = a * a; done = 0; }
  }
  return 0;
}
