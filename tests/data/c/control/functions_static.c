// expect: unreach-call=false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); } }
static int counter(void) { static int c = 10; return c++; }
int add(int a, int b) { return a + b; }
void inc(int *p) { (*p)++; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int a = counter();
  int b = counter();
  inc(&x);
  __VERIFIER_assert(a == 10 && b == 11);
  __VERIFIER_assert(add(x, 1) != 5);
  return 0;
}
