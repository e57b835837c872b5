// expect: unreach-call=false
#include <limits.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
enum color { RED, GREEN = 5, BLUE, NEG = -3 };
typedef enum { A, B, C } abc;
typedef unsigned long long u64;
unsigned int digest;
void mix(unsigned int v) { digest = (digest ^ v) * 16777619u; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  enum color c = (enum color)(x % 7);
  abc e = (abc)(x & 1);
  mix(c); mix(e == B); mix(BLUE); mix(NEG); mix(c < 0);
  mix('a'); mix('\n'); mix('\x7f'); mix('\377'); mix('\0'); mix(L'z' == 'z');
  mix(0x7fffffff + 0u); mix(017); mix(0b101); mix(10u); mix(4294967295u); mix((unsigned)2147483648);
  mix(sizeof(int)); mix(sizeof(long)); mix(sizeof(long long)); mix(sizeof(char)); mix(sizeof x);
  mix(sizeof(short[3])); mix(sizeof(u64));
  mix(INT_MIN / 2); mix(LONG_MAX == INT_MAX); mix(-1 < 0u); mix(-1L < 0u); mix(-1LL < 0u);
  mix(x + 'A'); mix((char)(x + 200)); mix((unsigned short)(-x));
  if ((digest ^ (digest >> 16)) & 1) reach_error();
  return 0;
}
