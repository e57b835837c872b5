// expect: unreach-call=true
// A send/acknowledge protocol whose messages are products and whose check compares remainders.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned key = __VERIFIER_nondet_uint(), nonce = __VERIFIER_nondet_uint(), msg;
  int state = 0, sent = 0, acked = 0;
  while (__VERIFIER_nondet_uint()) {
    switch (state) {
    case 0: msg = key * nonce; sent = 1; state = 1; break;
    case 1: if ((msg % 13) == (key % 13)) { acked = 1; state = 2; } else state = 0; break;
    case 2: if (!sent) reach_error(); nonce = nonce * msg + 1; sent = 0; acked = 0; state = 0; break;
    }
    if (acked && !sent) reach_error();
  }
  return 0;
}
