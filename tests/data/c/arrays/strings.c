// expect: unreach-call=false
extern void reach_error(void);
char g[] = "hi\n";
int main(void) {
  char s[] = "abc";
  unsigned char t[5] = "xy";
  if (sizeof(s) == 4 && s[3] == 0 && s[1] == 'b' && t[1] == 'y' && t[4] == 0 && g[2] == 10 && sizeof(g) == 4) reach_error();
  return 0;
}
