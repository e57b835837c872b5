// expect: error=unsupported
// error-contains: floating point
int main(void) { double d = 1.5; return (int)d; }
