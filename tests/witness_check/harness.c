/* The replay harness of the witness checks (tests/witness_check/replay.rs): a program's
 * __VERIFIER_nondet_* calls return the values of a witness, in order.
 *
 * Build (the program and this file in one command; -x c so that a .i file is preprocessed
 * and -Dmain applies to it):
 *   gcc -std=gnu11 -O0 -w [-m32] -Dmain=__witness_program_main -x c program.c -x none harness.c
 * Run:
 *   WITNESS_VALUES="-1,4294967295,7" ./prog
 *
 * WITNESS_VALUES: comma-separated decimal integers, signed or unsigned, as the witness writes
 * them (\result == -1 for an int). A call returns the next value converted to its return type.
 *
 * WITNESS_ASSUMPTIONS (optional): for each assumption of the witness that the program was
 * instrumented with (`__witness_assumption(k, (EXPR));` before a statement, k from 0), how many
 * values come before it on the witness's path. Assumption k is checked the first time its
 * statement is reached with that many values used; when it is false the run ends (106). When
 * there are assumptions, the line "witness-harness: assumptions passed P of A" comes before the
 * last line.
 *
 * Exit codes, each after a line "witness-harness: <event> after N of M values" on stderr:
 *   100  the program ended: return from main, exit(n), abort() (and so an UBSan report under
 *        UBSAN_OPTIONS=abort_on_error=1: the caller reads stderr for "runtime error:")
 *   101  an error function was called: reach_error, __VERIFIER_error, __assert_fail (assert),
 *        a failed __VERIFIER_assert (unless the program defines its own)
 *   102  a failed __VERIFIER_assume
 *   103  the program asked for a value beyond the witness's (the witness is incomplete)
 *   104  WITNESS_VALUES or WITNESS_ASSUMPTIONS is malformed
 *   105  an instrumented invariant check failed (__witness_failed(k) reports "the check of
 *        invariant k failed"; see invariants.rs)
 *   106  an instrumented assumption is false where the witness's path passes it ("assumption k
 *        does not hold", k from 1)
 */

#undef main

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern int __witness_program_main();

static uint64_t *values;
static size_t n_values, used;

static uint64_t *assume_at;
static unsigned char *assume_passed;
static size_t n_assume, n_passed;

static void finish(const char *event, int code) {
    char buf[200];
    int n;
    if (n_assume > 0) {
        n = snprintf(buf, sizeof buf, "witness-harness: assumptions passed %zu of %zu\n",
                     n_passed, n_assume);
        if (n > 0) {
            ssize_t r = write(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
            (void)r;
        }
    }
    n = snprintf(buf, sizeof buf, "witness-harness: %s after %zu of %zu values\n", event,
                 used, n_values);
    if (n > 0) {
        ssize_t r = write(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        (void)r;
    }
    _exit(code);
}

/* Parses the comma-separated decimals of the environment variable `name` into *out
 * (allocated), their number into *count. */
static void parse_list(const char *name, uint64_t **out, size_t *count) {
    const char *s = getenv(name);
    size_t cap = 16, n = 0;
    uint64_t *list = malloc(cap * sizeof *list);
    char event[80];
    snprintf(event, sizeof event, "malformed %s", name);
    *out = list;
    *count = 0;
    if (s == NULL) return;
    while (*s == ' ') s++;
    if (*s == '\0') return;
    for (;;) {
        char *end;
        errno = 0;
        uint64_t v;
        if (*s == '-') {
            long long x = strtoll(s, &end, 10);
            v = (uint64_t)x;
        } else {
            v = (uint64_t)strtoull(s, &end, 10);
        }
        if (end == s || errno != 0 || (*s != '-' && (*s < '0' || *s > '9'))) {
            finish(event, 104);
        }
        if (n == cap) {
            cap *= 2;
            list = realloc(list, cap * sizeof *list);
            *out = list;
        }
        list[n++] = v;
        *count = n;
        s = end;
        while (*s == ' ') s++;
        if (*s == '\0') return;
        if (*s != ',') finish(event, 104);
        s++;
        while (*s == ' ') s++;
    }
}

static void on_exit_handler(void) { finish("the program ended", 100); }

static void on_abort(int sig) {
    (void)sig;
    finish("the program aborted", 100);
}

/* Called by the instrumented program before the statement of assumption k (from 0). */
void __witness_assumption(int k, int holds) {
    if (k < 0 || (size_t)k >= n_assume || assume_passed[k] || used != assume_at[k]) return;
    assume_passed[k] = 1;
    n_passed++;
    if (!holds) {
        char event[64];
        snprintf(event, sizeof event, "assumption %d does not hold", k + 1);
        finish(event, 106);
    }
}

static uint64_t next_value(void) {
    if (used >= n_values) finish("a value was asked for beyond the witness's", 103);
    return values[used++];
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    parse_list("WITNESS_VALUES", &values, &n_values);
    parse_list("WITNESS_ASSUMPTIONS", &assume_at, &n_assume);
    assume_passed = calloc(n_assume + 1, 1);
    signal(SIGABRT, on_abort);
    atexit(on_exit_handler);
    __witness_program_main();
    finish("the program ended", 100);
}

/* ---- error, assume and assert functions (a program's own definitions win) ---- */

__attribute__((weak, noreturn)) void reach_error(void) { finish("reach_error was called", 101); }
__attribute__((weak, noreturn)) void __VERIFIER_error(void) {
    finish("__VERIFIER_error was called", 101);
}
__attribute__((weak)) void __VERIFIER_assert(int cond) {
    if (!cond) finish("__VERIFIER_assert failed", 101);
}
__attribute__((weak)) void __VERIFIER_assume(int cond) {
    if (!cond) finish("__VERIFIER_assume failed", 102);
}
__attribute__((noreturn)) void __assert_fail(const char *a, const char *f, unsigned int l,
                                             const char *fn) {
    (void)a, (void)f, (void)l, (void)fn;
    finish("__assert_fail was called", 101);
}
__attribute__((noreturn)) void __assert_perror_fail(int e, const char *f, unsigned int l,
                                                    const char *fn) {
    (void)e, (void)f, (void)l, (void)fn;
    finish("__assert_perror_fail was called", 101);
}
__attribute__((noreturn)) void __assert(const char *a, const char *f, int l) {
    (void)a, (void)f, (void)l;
    finish("__assert was called", 101);
}

/* Called by the instrumented invariant checks with the invariant's number (from 1). */
__attribute__((noreturn)) void __witness_failed(int which) {
    char event[64];
    snprintf(event, sizeof event, "the check of invariant %d failed", which);
    finish(event, 105);
}

/* ---- nondet functions: the next value converted to the return type ---- */

_Bool __VERIFIER_nondet_bool(void) { return next_value() != 0; }
_Bool __VERIFIER_nondet__Bool(void) { return next_value() != 0; }

#include "nondet_functions.h"

char *__VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)next_value(); }
