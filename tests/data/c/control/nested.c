// expect: unreach-call=false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g;
static int s = 3;
int sq(int v) { g++; return v * v; }
int clamp(int v, int lo, int hi) { if (v < lo) return lo; if (v > hi) return hi; return v; }
int classify(int v) {
  switch (v & 7) {
  case 0:
  case 1: return 1;
  default: v += 2;
  case 2:
    switch (v % 3) { case 0: return 7; case 1: break; default: return 8; }
    return 9;
  case 3: { int k = 0; while (k < v) { k += 3; if (k == 9) continue; } return k; }
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int acc = 0, i = 0;
  do {
    if (i == 2) { i++; continue; }
    acc += clamp(sq(i + (x & 3)), 0, 10) + classify(x + i);
    i++;
  } while (i < 5);
  int t = x > 0 ? sq(y & 15) : (y < 0 ? -1 : g);
  s += t;
  for (int j = 0, k = 10; j < k; j += 2, k--) acc ^= j * k;
  if (((unsigned)(acc + s + g) * 2654435761u) >> 31) reach_error();
  return 0;
}
