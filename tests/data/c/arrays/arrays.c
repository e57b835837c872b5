// expect: unreach-call=false valid-index=true
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int g[4] = {1, 2};
int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
int sum(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * (i + 1); return s; }
int main(void) {
  unsigned int i = __VERIFIER_nondet_uint() % 4u;
  unsigned int j = __VERIFIER_nondet_uint() % 4u;
  int a[] = {5, 6, 7, 8};
  a[i] = a[j] + g[i];
  a[a[0] % 4] += 3;
  m[i % 2][j % 3] = (int)i;
  g[j]++;
  int t = m[1][i % 3u] + sum(g, 4);
  if ((sum(a, 4) + t) % 2) reach_error();
  return 0;
}
