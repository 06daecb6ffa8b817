/* Exits at once with code 3, saying nothing. */
int main(void) { return 3; }
