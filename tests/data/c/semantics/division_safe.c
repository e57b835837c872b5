// expect: unreach-call=false div-by-zero=true no-overflow=true
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (b != 0 && b != -1) {
    int q = a / b;
    int r = a % b;
    if (a == -7 && b == 2 && q == -3 && r == -1) reach_error();
  }
  int t = (b > 0) ? a / b : 0;
  if (b > 1000) return t;
  return 0;
}
