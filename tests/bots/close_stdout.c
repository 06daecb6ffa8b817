/* Says one line, closes stdout, keeps running. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    printf("bye\n");
    fflush(stdout);
    close(1);
    for (;;) pause();
}
