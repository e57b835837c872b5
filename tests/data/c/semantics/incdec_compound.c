// expect: unreach-call=false
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern signed char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int g;
int main(void) {
  int i = __VERIFIER_nondet_int();
  unsigned char uc = __VERIFIER_nondet_uchar();
  signed char sc = __VERIFIER_nondet_char();
  _Bool bo = __VERIFIER_nondet_bool();
  int a = i++;
  int b = ++i;
  int c = i--;
  int d = --i;
  mix(a); mix(b); mix(c); mix(d);
  uc += 10; mix(uc);
  sc++; mix(sc);
  sc -= 100; mix(sc);
  bo++; mix(bo);
  bo--; mix(bo);
  g = i;
  g += 5; mix(g); g *= 3; mix(g); g -= 1; mix(g); g <<= 2; mix(g); g >>= 1; mix(g);
  g |= 1; mix(g); g &= 0x7f7f; mix(g); g ^= 3; mix(g); g %= 7; mix(g); g /= 2; mix(g);
  uc *= uc; mix(uc);
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
