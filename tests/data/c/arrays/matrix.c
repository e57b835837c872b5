// expect: unreach-call=false valid-index=true
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
unsigned char img[3][4];
int hist[8];
void fill(unsigned char m[3][4], int seed) {
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      m[r][c] = (unsigned char)(seed * (r + 1) + c * 37);
}
int total(int *h, int n) { int s = 0; for (int i = 0; i < n; i++) s += h[i] * (i + 3); return s; }
void bump(int *p) { *p += 2; }
int main(void) {
  unsigned char seed = __VERIFIER_nondet_uchar();
  fill(img, seed);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      hist[img[r][c] % 8]++;
  int k = seed % 8;
  bump(&hist[k]);
  int local[2][2] = {{1}, {2, 3}};
  local[seed % 2][(seed >> 1) % 2] += hist[0];
  if ((total(hist, 8) + local[1][0] * 5 + local[0][1] + sizeof(img)) % 2) reach_error();
  return 0;
}
