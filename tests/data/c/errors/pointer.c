// expect: error=unsupported
// error-contains: pointer
int main(void) { int x = 1; int *p; p = &x; return *p; }
