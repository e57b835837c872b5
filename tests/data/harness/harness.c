/* Test harness for the semantics oracle (fallback copy; fixtures/harness/harness.c, when
 * present, follows the same contract and is preferred).
 *
 * Compiled together with a fixture:
 *   gcc -std=gnu11 -O0 -fwrapv [-m32] -w -Dmain=bitmc_fixture_main fixture.c harness.c
 * The nondet sequence comes from BITMC_NONDET (comma-separated unsigned 64-bit decimals);
 * each __VERIFIER_nondet_<T>() returns the next value truncated to T.
 * Exit codes: 100 normal termination, 101 error reached, 102 assume failed,
 * 103 nondet sequence exhausted. */
#include <stdlib.h>
#include <unistd.h>

#undef main
extern int bitmc_fixture_main(void);

static const char *bitmc_next_pos;
static int bitmc_started;

static unsigned long long bitmc_next(void) {
    if (!bitmc_started) {
        bitmc_started = 1;
        bitmc_next_pos = getenv("BITMC_NONDET");
        if (!bitmc_next_pos) bitmc_next_pos = "";
    }
    while (*bitmc_next_pos == ',' || *bitmc_next_pos == ' ') bitmc_next_pos++;
    if (*bitmc_next_pos == 0) _exit(103);
    unsigned long long v = 0;
    while (*bitmc_next_pos >= '0' && *bitmc_next_pos <= '9') {
        v = v * 10 + (unsigned long long)(*bitmc_next_pos - '0');
        bitmc_next_pos++;
    }
    return v;
}

_Bool __VERIFIER_nondet_bool(void) { return (_Bool)(bitmc_next() & 1); }
char __VERIFIER_nondet_char(void) { return (char)bitmc_next(); }
signed char __VERIFIER_nondet_schar(void) { return (signed char)bitmc_next(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)bitmc_next(); }
short __VERIFIER_nondet_short(void) { return (short)bitmc_next(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)bitmc_next(); }
int __VERIFIER_nondet_int(void) { return (int)bitmc_next(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)bitmc_next(); }
unsigned __VERIFIER_nondet_unsigned(void) { return (unsigned)bitmc_next(); }
long __VERIFIER_nondet_long(void) { return (long)bitmc_next(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)bitmc_next(); }
long long __VERIFIER_nondet_longlong(void) { return (long long)bitmc_next(); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return bitmc_next(); }
unsigned int __VERIFIER_nondet_u32(void) { return (unsigned int)bitmc_next(); }
unsigned char __VERIFIER_nondet_u8(void) { return (unsigned char)bitmc_next(); }
unsigned short __VERIFIER_nondet_u16(void) { return (unsigned short)bitmc_next(); }
__SIZE_TYPE__ __VERIFIER_nondet_size_t(void) { return (__SIZE_TYPE__)bitmc_next(); }

__attribute__((weak)) void __VERIFIER_assume(int c) { if (!c) _exit(102); }
__attribute__((weak)) void __VERIFIER_assert(int c) { if (!c) _exit(101); }
__attribute__((weak)) void reach_error(void) { _exit(101); }
__attribute__((weak)) void __VERIFIER_error(void) { _exit(101); }
void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
    (void)a; (void)f; (void)l; (void)fn;
    _exit(101);
}
void abort(void) { _exit(100); }
void exit(int code) { (void)code; _exit(100); }
void __VERIFIER_atomic_begin(void) {}
void __VERIFIER_atomic_end(void) {}

int main(void) {
    bitmc_fixture_main();
    _exit(100);
}
