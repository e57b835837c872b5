// expect: unreach-call=true valid-index=false
// oracle: skip reads out of bounds
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  int a[3] = {0};
  unsigned int i = __VERIFIER_nondet_uint();
  a[i] = 1;
  return 0;
}
