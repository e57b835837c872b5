extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int  x;
	x =  	__VERIFIER_nondet_int();
  	 int   y =		__VERIFIER_nondet_int(  )  ;
	if (x == 3  &&  y == -4)   reach_error();
	return 0;
}
