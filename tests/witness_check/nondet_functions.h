/* The __VERIFIER_nondet_* functions of the witness checks' harnesses (harness.c and
 * induction.c), each the next value of the including file's `next_value()` converted to
 * its return type. */

#include <stddef.h>
#include <stdint.h>

#define NONDET(name, type) \
    type __VERIFIER_nondet_##name(void) { return (type)next_value(); }


NONDET(char, char)
NONDET(schar, signed char)
NONDET(uchar, unsigned char)
NONDET(short, short)
NONDET(sshort, short)
NONDET(ushort, unsigned short)
NONDET(int, int)
NONDET(sint, int)
NONDET(uint, unsigned int)
NONDET(unsigned, unsigned int)
NONDET(unsigned_int, unsigned int)
NONDET(long, long)
NONDET(slong, long)
NONDET(ulong, unsigned long)
NONDET(unsigned_long, unsigned long)
NONDET(longlong, long long)
NONDET(slonglong, long long)
NONDET(ulonglong, unsigned long long)
NONDET(size_t, size_t)
NONDET(ssize_t, ptrdiff_t)
NONDET(ptrdiff_t, ptrdiff_t)
NONDET(intptr_t, intptr_t)
NONDET(uintptr_t, uintptr_t)
NONDET(u8, uint8_t)
NONDET(u16, uint16_t)
NONDET(u32, uint32_t)
NONDET(u64, uint64_t)
NONDET(s8, int8_t)
NONDET(s16, int16_t)
NONDET(s32, int32_t)
NONDET(s64, int64_t)
NONDET(i64, int64_t)
NONDET(int8_t, int8_t)
NONDET(int16_t, int16_t)
NONDET(int32_t, int32_t)
NONDET(int64_t, int64_t)
NONDET(uint8_t, uint8_t)
NONDET(uint16_t, uint16_t)
NONDET(uint32_t, uint32_t)
NONDET(uint64_t, uint64_t)
NONDET(loff_t, long long)
NONDET(sector_t, unsigned long)
NONDET(pthread_t, unsigned long)
NONDET(char16_t, uint16_t)
NONDET(char32_t, uint32_t)
NONDET(wchar_t, int)
