/* Double fork + setsid: the grandchild leaves the bot's process group and
   session, is re-parented, and keeps the stdout pipe open. The bot prints the
   grandchild's pid and exits. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    int p[2];
    if (pipe(p)) return 1;
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        setsid();
        pid_t grandchild = fork();
        if (grandchild < 0) _exit(1);
        if (grandchild > 0) {
            if (write(p[1], &grandchild, sizeof grandchild) < 0) _exit(1);
            _exit(0);
        }
        for (;;) pause();
    }
    pid_t gc = 0;
    if (read(p[0], &gc, sizeof gc) != (ssize_t)sizeof gc) return 1;
    printf("escaped %d\n", (int)gc);
    fflush(stdout);
    return 0;
}
