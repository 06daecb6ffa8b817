/* Allocates and touches 1 GB in 1 MB chunks; reports allocation failure the
   way libc does (perror: "Cannot allocate memory"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (int i = 0; i < 1024; i++) {
        char *p = malloc(1 << 20);
        if (!p) { perror("malloc"); return 1; }
        memset(p, i & 0xff, 1 << 20);
    }
    printf("survived\n");
    return 0;
}
