// A checksum over four nondeterministic bytes; the assertion fails for some inputs, and
// `bitmc verify examples/checksum.c` shows which.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

void __VERIFIER_assert(int cond) {
    if (!cond) {
        reach_error();
    }
}

int main(void) {
    unsigned char buf[4];
    for (int i = 0; i < 4; i++)
        buf[i] = __VERIFIER_nondet_uchar();
    unsigned int sum = 0;
    for (int i = 0; i < 4; i++)
        sum = sum * 31 + buf[i];
    __VERIFIER_assert(sum != 1000000);
    return 0;
}
