// expect: error=unsupported
// error-contains: through a pointer to `unsigned char`
int main(void) { int x = 1; unsigned char *p; p = (unsigned char *)&x; return *p; }
