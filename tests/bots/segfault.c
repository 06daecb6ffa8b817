/* Dereferences a null pointer. */
#include <stdio.h>
int main(void) {
    printf("about to crash\n");
    fflush(stdout);
    volatile int *p = (volatile int *)0;
    *p = 42;
    return 0;
}
