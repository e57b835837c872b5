// The boundary between Rust and CaDiCaL's C API: every call into the solver runs inside a
// `try`, so that a C++ exception (in practice `std::bad_alloc` when an allocation fails under
// a memory limit) becomes a status code instead of unwinding into Rust, which aborts the
// process ("Rust cannot catch foreign exceptions").
//
// Each function returns BITMC_OK, BITMC_NO_MEMORY (std::bad_alloc or std::length_error: a
// container could not grow) or BITMC_EXCEPTION (anything else, its text copied to `what` when
// it is a std::exception). Results go through out-parameters. After a non-OK status the solver
// may be inconsistent: the Rust side never calls it again except to release it.

#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>

extern "C" {
struct CCaDiCaL;
CCaDiCaL *ccadical_init(void);
void ccadical_release(CCaDiCaL *);
void ccadical_add(CCaDiCaL *, int lit);
void ccadical_assume(CCaDiCaL *, int lit);
int ccadical_solve(CCaDiCaL *);
int ccadical_val(CCaDiCaL *, int lit);
int ccadical_failed(CCaDiCaL *, int lit);
void ccadical_set_terminate(CCaDiCaL *, void *state, int (*terminate)(void *));
void ccadical_freeze(CCaDiCaL *, int lit);
void ccadical_melt(CCaDiCaL *, int lit);
int ccadical_frozen(CCaDiCaL *, int lit);
void ccadical_set_option(CCaDiCaL *, const char *name, int val);
}

namespace {

const int BITMC_OK = 0;
const int BITMC_NO_MEMORY = 1;
const int BITMC_EXCEPTION = 2;

// The text of the last exception other than an allocation failure, per thread (a solver is
// used by one thread at a time).
thread_local char last_what[256];

template <typename F> int guarded(F f) {
  try {
    f();
    return BITMC_OK;
  } catch (const std::bad_alloc &) {
    return BITMC_NO_MEMORY;
  } catch (const std::length_error &) {
    return BITMC_NO_MEMORY;
  } catch (const std::exception &e) {
    std::strncpy(last_what, e.what(), sizeof last_what - 1);
    last_what[sizeof last_what - 1] = 0;
    return BITMC_EXCEPTION;
  } catch (...) {
    std::strncpy(last_what, "an unknown C++ exception", sizeof last_what - 1);
    return BITMC_EXCEPTION;
  }
}

} // namespace

extern "C" {

const char *bitmc_cadical_last_exception(void) { return last_what; }

int bitmc_cadical_init(CCaDiCaL **out) {
  return guarded([&] { *out = ccadical_init(); });
}

int bitmc_cadical_release(CCaDiCaL *s) {
  return guarded([&] { ccadical_release(s); });
}

int bitmc_cadical_add_clause(CCaDiCaL *s, const int *lits, unsigned long len) {
  return guarded([&] {
    for (unsigned long i = 0; i < len; i++)
      ccadical_add(s, lits[i]);
    ccadical_add(s, 0);
  });
}

int bitmc_cadical_solve(CCaDiCaL *s, const int *assumptions, unsigned long len, int *out) {
  return guarded([&] {
    for (unsigned long i = 0; i < len; i++)
      ccadical_assume(s, assumptions[i]);
    *out = ccadical_solve(s);
  });
}

int bitmc_cadical_val(CCaDiCaL *s, int lit, int *out) {
  return guarded([&] { *out = ccadical_val(s, lit); });
}

int bitmc_cadical_failed(CCaDiCaL *s, int lit, int *out) {
  return guarded([&] { *out = ccadical_failed(s, lit); });
}

int bitmc_cadical_set_terminate(CCaDiCaL *s, void *state, int (*terminate)(void *)) {
  return guarded([&] { ccadical_set_terminate(s, state, terminate); });
}

int bitmc_cadical_set_option(CCaDiCaL *s, const char *name, int val) {
  return guarded([&] { ccadical_set_option(s, name, val); });
}

int bitmc_cadical_freeze(CCaDiCaL *s, int lit) {
  return guarded([&] { ccadical_freeze(s, lit); });
}

// Melts `lit` if it is frozen (CaDiCaL requires it to be).
int bitmc_cadical_melt(CCaDiCaL *s, int lit) {
  return guarded([&] {
    if (ccadical_frozen(s, lit))
      ccadical_melt(s, lit);
  });
}

} // extern "C"
