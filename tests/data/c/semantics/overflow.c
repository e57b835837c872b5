// expect: unreach-call=true no-overflow=false
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000) {
    x = x * 3;
  }
  return 0;
}
