// expect: unreach-call=false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int acc = 0;
  switch (x % 5) {
    case 0: acc += 1;
    case 1: acc += 10; break;
    case 2: { acc = 100; break; }
    case -1: acc = -1;
    default: acc += 1000;
  }
  int n = 0;
loop:
  n++;
  if (n < (x & 3)) goto loop;
  if (((acc + n) % 3) == 1) reach_error();
  return 0;
}
