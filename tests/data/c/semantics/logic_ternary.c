// expect: unreach-call=false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int calls;
int f(int v) { calls++; return v; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int r1 = (x > 0) && f(y);
  int r2 = (x > 0) || f(y);
  int r3 = x ? f(1) : f(2);
  int k = (x, y, 7);
  int m = x > y ? x : y;
  int n = (x & 1) ? (y > 3 ? f(x) : 5) : (unsigned char)y;
  mix(r1); mix(r2); mix(r3); mix(k); mix(m); mix(n); mix(calls);
  mix(!x); mix(!!y); mix(x && y); mix(x || !y);
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
