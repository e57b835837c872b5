// expect: unreach-call=false
#include <assert.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
uint32_t rotl(uint32_t v, unsigned r) { return (v << (r & 31)) | (v >> ((32 - r) & 31)); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  uint8_t b = (uint8_t)x;
  int64_t w = (int64_t)x * 3;
  size_t n = sizeof(w);
  bool t = x > 0;
  int16_t h = (int16_t)(x >> 3);
  uint32_t r = rotl((uint32_t)x, b);
  if (w == INT_MAX) return 0;
  assert((r ^ (uint32_t)h ^ (uint32_t)n ^ t) % 3 != 0);
  return 0;
}
