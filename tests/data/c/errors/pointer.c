// expect: error=unsupported
// error-contains: to a pointer to `struct T`
struct T { int a; int b; };
struct U { int a; int b; };
// A constraint violation (no cast) that gcc only warns about.
int main(void) { struct U u = {0}; struct T *t = &u; return t->a; }
