// expect: unreach-call=false
// oracle: skip divides by a nondet value that may be zero
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  unsigned int ua = __VERIFIER_nondet_uint();
  if (b == 0) return 0;
  if (a == -2147483647 - 1 && b == -1) return 0;
  int q = a / b, r = a % b;
  if (q * b + r != a) reach_error();
  if (a == -7 && b == 2 && (q != -3 || r != -1)) reach_error();
  unsigned int uq = ua / 3u, ur = ua % 3u;
  if (uq * 3u + ur != ua) reach_error();
  if (a == 7 && b == -2 && r == 1) reach_error();
  return 0;
}
