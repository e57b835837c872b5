// expect: unreach-call=false
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n < 40);
  unsigned int s = 0, i;
  for (i = 0; i < n; i++) {
    if (i == 3) continue;
    if (i == 25) break;
    s += i * i;
  }
  int j = n;
  do { j += 2; } while (j < 7);
  while (1) { if (j-- < 5) break; }
  if ((s ^ j) & 1) reach_error();
  return 0;
}
