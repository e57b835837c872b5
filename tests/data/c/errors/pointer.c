// expect: error=unsupported
// error-contains: to a pointer to `struct T`
struct T { int a; int b; };
int main(void) { unsigned char buf[8] = {0}; struct T *t = (struct T *)buf; return t->a; }
