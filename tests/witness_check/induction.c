/* The harness of the independent invariant check (tests/witness_check/induction.rs): many
 * concrete runs of a program whose loop conditions were instrumented with the witness's
 * invariants, each run in a child process, with random nondet values.
 *
 * Build (as the replay harness):
 *   gcc -std=gnu11 -O0 -w [-m32] [-fwrapv | -fsanitize=signed-integer-overflow
 *       -fno-sanitize-recover=all] -Dmain=__witness_program_main -x c program.c -x none induction.c
 * Run:
 *   INDUCTION_START=K INDUCTION_TRIALS=N INDUCTION_SEED=S INDUCTION_POOL="3,-1,100" ./prog
 *
 * Each loop condition of the program starts with
 *   ((__induction_arm(k) && (__induction_havoc(&x, sizeof x, sizeof x, "x"), ..., 1)),
 *    __induction_pre(), __induction_head(k, (INVARIANT)))
 * With START = 0 a run goes from the initial state and every arrival at a loop head checks
 * that head's invariant. With START = k, the first arrival at head k replaces the values of
 * every variable in scope there by random ones ("havoc"), keeps the run only when the
 * invariant holds for them (the assumption), and runs until the next arrival at any loop head,
 * which must satisfy that head's invariant (the assertion), or until the program ends or
 * reaches an error. So a run with START = k is one step of 1-induction over the loop heads.
 *
 * Values (nondet calls and havocked bytes) come from a generator seeded per run: small
 * numbers, boundaries of the integer types, the pool (the program's and the invariants'
 * constants and their neighbours), uniform 64-bit numbers; in a third of the runs only numbers
 * from -3 to 10 and the pool, in another third only -1 to 5 (so that equalities between
 * variables hold often).
 *
 * Child exit codes: 100 the program ended (return, exit, abort); 101 an error function was
 * called; 102 a failed __VERIFIER_assume; 110 the run reached the next loop head and its
 * invariant holds; 111 it does not (a counterexample to induction); 112 an invariant failed on
 * a run from the initial state; 113 the havocked values do not satisfy the invariant; UBSan's
 * report ends a run with 1 (UBSAN_OPTIONS=exitcode=1); 114 a run with more loop-head
 * arrivals than allowed (20,000,000 from the initial state, 100,000 before the start). A run
 * longer than 1 s is killed. INDUCTION_SECONDS bounds the time of all runs together.
 *
 * The parent prints one line "induction: C0 C1 ..." with the number of runs per outcome
 * (ended, error, assume, inductive, cti, init-fail, not-assumed, overflow, timeout, other,
 * not-reached: with a start, a run that never arrived there)
 * and the number of runs made,
 * and for the first run of each failing kind a line "induction-run: KIND head K seed S: VALUES"
 * with the havocked variables and values.
 */

#undef main

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern int __witness_program_main();

static uint64_t rng_state;
static int64_t *pool;
static size_t n_pool;
static int start_head, state; /* 0 before the start, 1 havocked, 2 in the segment */
static long arrivals, max_arrivals; /* loop-head arrivals of the run, and the most allowed */
static char log_buf[4096];
static size_t log_len;

static uint64_t next_raw(void) {
    rng_state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int small_run; /* a run whose values are all small: equalities hold more often */

static uint64_t next_value(void) {
    if (small_run == 2) {
        uint64_t r = next_raw() % 100;
        return r < 90 ? next_raw() % 6 : (uint64_t)-1;
    }
    if (small_run == 1) {
        uint64_t r = next_raw() % 100;
        if (r < 75) return next_raw() % 11;
        if (r < 85) return (uint64_t) - (int64_t)(next_raw() % 4);
        if (n_pool > 0) return (uint64_t)pool[next_raw() % n_pool];
        return next_raw() % 101;
    }
    static const uint64_t special[] = {0,          1,          2,          0x7f,       0x80,
                                       0xff,       0x7fff,     0x8000,     0xffff,     0x7fffffff,
                                       0x80000000, 0xffffffff, 0x7fffffffffffffffULL,
                                       0x8000000000000000ULL, ~0ULL};
    uint64_t r = next_raw() % 100;
    if (r < 30) return next_raw() % 11;
    if (r < 40) return (uint64_t)-(int64_t)(next_raw() % 11);
    if (r < 50) return special[next_raw() % (sizeof special / sizeof special[0])];
    if (r < 80 && n_pool > 0) return (uint64_t)pool[next_raw() % n_pool];
    if (r < 90) return next_raw() % 1000;
    return next_raw();
}

static void note(const char *fmt, const char *name, uint64_t v) {
    if (log_len + 80 < sizeof log_buf) {
        int n = snprintf(log_buf + log_len, sizeof log_buf - log_len, fmt, name,
                         (long long)v);
        if (n > 0) log_len += (size_t)n;
    }
}

/* Whether this arrival at head k starts the segment (then the caller havocs). */
int __induction_arm(int k) {
    if (start_head == k && state == 0) {
        state = 1;
        return 1;
    }
    return 0;
}

/* Fill the object at p (size bytes, elements of elem bytes) with values. */
void __induction_havoc(void *p, unsigned long size, unsigned long elem, const char *name) {
    unsigned char *b = p;
    if (elem == 0 || elem > 8) elem = 1;
    for (unsigned long off = 0; off + elem <= size; off += elem) {
        uint64_t v = next_value();
        memcpy(b + off, &v, elem); /* little endian: the low bytes */
        if (off == 0) note(" %s=%lld", name, elem == 8 ? v : v & ((1ULL << (8 * elem)) - 1));
    }
}

/* Called before an invariant is evaluated in the segment: a marker on descriptor 4 tells the
 * parent that an overflow report that ends the run came from the invariant's evaluation. */
void __induction_pre(void) {
    if (state != 0 && write(4, "I", 1) < 0) _exit(2);
}

int __induction_head(int k, int ok) {
    if (state != 0 && write(4, "D", 1) < 0) _exit(2);
    if (state == 0 && ++arrivals > max_arrivals) _exit(114);
    if (state == 1) {
        state = 2;
        if (!ok) _exit(113);
        return 1;
    }
    if (state == 2) {
        char buf[40];
        int n = snprintf(buf, sizeof buf, " -> head %d", k);
        if (n > 0 && log_len + (size_t)n < sizeof log_buf) {
            memcpy(log_buf + log_len, buf, (size_t)n);
            log_len += (size_t)n;
        }
        if (ok) _exit(110);
        if (write(3, log_buf, log_len) < 0) _exit(111);
        _exit(111);
    }
    if (!ok) {
        char buf[40];
        int n = snprintf(buf, sizeof buf, " head %d from the initial state", k);
        if (n > 0 && log_len + (size_t)n < sizeof log_buf) {
            memcpy(log_buf + log_len, buf, (size_t)n);
            log_len += (size_t)n;
        }
        if (write(3, log_buf, log_len) < 0) _exit(112);
        _exit(112);
    }
    return 1;
}

static void stop(int code) {
    if (code != 100 && code != 102) {
        if (write(3, log_buf, log_len) < 0) _exit(code);
    }
    _exit(code);
}

static void on_exit_handler(void) { stop(100); }
static void on_abort(int sig) {
    (void)sig;
    stop(100);
}

static void parse_pool(void) {
    const char *s = getenv("INDUCTION_POOL");
    size_t cap = 16;
    pool = malloc(cap * sizeof *pool);
    while (s && *s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s) break;
        if (n_pool == cap) pool = realloc(pool, (cap *= 2) * sizeof *pool);
        pool[n_pool++] = v;
        s = *end == ',' ? end + 1 : end;
    }
}

int main(void) {
    const char *e;
    int trials = (e = getenv("INDUCTION_TRIALS")) ? atoi(e) : 100;
    uint64_t seed = (e = getenv("INDUCTION_SEED")) ? strtoull(e, NULL, 10) : 1;
    start_head = (e = getenv("INDUCTION_START")) ? atoi(e) : 0;
    /* From the initial state, long runs count (loops of a million iterations); towards a
     * start, a run that has not arrived after 100,000 loop iterations is given up. */
    max_arrivals = start_head == 0 ? 20000000 : 100000;
    double budget = (e = getenv("INDUCTION_SECONDS")) ? atof(e) : 1e9;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    parse_pool();
    enum { ENDED, ERROR, ASSUME, INDUCTIVE, CTI, INIT_FAIL, NOT_ASSUMED, OVERFLOW, TIMEOUT,
           OTHER, NOT_REACHED, KINDS };
    static const char *names[KINDS] = {"ended", "error", "assume", "inductive", "cti",
                                       "init-fail", "not-assumed", "overflow", "timeout",
                                       "other", "not-reached"};
    long counts[KINDS] = {0};
    int reported[KINDS] = {0};
    int t;
    for (t = 0; t < trials; t++) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec) > budget)
            break;
        int fds[2], marks[2];
        if (pipe(fds) != 0 || pipe(marks) != 0) return 2;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) return 2;
        if (pid == 0) {
            close(fds[0]);
            close(marks[0]);
            dup2(fds[1], 3);
            dup2(marks[1], 4);
            rng_state = seed * 1000003ULL + (uint64_t)t;
            small_run = (int)(next_raw() % 3);
            alarm(1);
            signal(SIGABRT, on_abort);
            atexit(on_exit_handler);
            __witness_program_main();
            stop(100);
        }
        close(fds[1]);
        close(marks[1]);
        char buf[4096];
        size_t len = 0;
        ssize_t r;
        while ((r = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0) len += (size_t)r;
        buf[len] = '\0';
        close(fds[0]);
        /* The markers: how many invariants the segment began, and the last event. */
        char mark[64], last = 0;
        long begun = 0;
        while ((r = read(marks[0], mark, sizeof mark)) > 0) {
            for (ssize_t i = 0; i < r; i++) begun += mark[i] == 'I';
            last = mark[r - 1];
        }
        close(marks[0]);
        int status;
        waitpid(pid, &status, 0);
        int kind = OTHER;
        if (WIFEXITED(status)) {
            switch (WEXITSTATUS(status)) {
            case 100: kind = ENDED; break;
            case 101: kind = ERROR; break;
            case 102: kind = ASSUME; break;
            case 110: kind = INDUCTIVE; break;
            case 111: kind = CTI; break;
            case 112: kind = INIT_FAIL; break;
            case 113: kind = NOT_ASSUMED; break;
            case 114: kind = TIMEOUT; break;
            case 1:
                /* An overflow while an invariant was evaluated: in the assumption, the
                 * sampled state is not one the invariant describes; in the assertion, no
                 * verdict. */
                kind = last != 'I' ? OVERFLOW : begun == 1 ? NOT_ASSUMED : OTHER;
                break;
            default: kind = ENDED; /* exit(n) of the program */
            }
        } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            kind = TIMEOUT;
        }
        /* With a start, a run that ended without arriving there did not test it. */
        if (start_head != 0 && begun == 0 && (kind == ENDED || kind == ASSUME || kind == TIMEOUT))
            kind = NOT_REACHED;
        counts[kind]++;
        if ((kind == ERROR || kind == CTI || kind == INIT_FAIL || kind == OVERFLOW)
            && !reported[kind]) {
            reported[kind] = 1;
            printf("induction-run: %s head %d seed %d:%s\n", names[kind], start_head, t, buf);
        }
    }
    printf("induction:");
    for (int k = 0; k < KINDS; k++) printf(" %ld", counts[k]);
    printf(" %d\n", t);
    return 0;
}

/* ---- error, assume and assert functions (a program's own definitions win) ---- */

__attribute__((weak, noreturn)) void reach_error(void) { stop(101); }
__attribute__((weak, noreturn)) void __VERIFIER_error(void) { stop(101); }
__attribute__((weak)) void __VERIFIER_assert(int cond) {
    if (!cond) stop(101);
}
__attribute__((weak)) void __VERIFIER_assume(int cond) {
    if (!cond) stop(102);
}
__attribute__((noreturn)) void __assert_fail(const char *a, const char *f, unsigned int l,
                                             const char *fn) {
    (void)a, (void)f, (void)l, (void)fn;
    stop(101);
}
__attribute__((noreturn)) void __assert_perror_fail(int e, const char *f, unsigned int l,
                                                    const char *fn) {
    (void)e, (void)f, (void)l, (void)fn;
    stop(101);
}
__attribute__((noreturn)) void __assert(const char *a, const char *f, int l) {
    (void)a, (void)f, (void)l;
    stop(101);
}

/* ---- nondet functions: the next value converted to the return type ---- */

_Bool __VERIFIER_nondet_bool(void) { return next_value() & 1; }
_Bool __VERIFIER_nondet__Bool(void) { return next_value() & 1; }

#include "nondet_functions.h"
