/* Double fork + setsid: the grandchild leaves the bot's process group and
   session, is re-parented, and keeps the stdout pipe open. The bot prints the
   grandchild's pid and exits.
   With the argument "noenv" the grandchild also re-executes itself with an
   empty environment (argument "hold"), so that only the pipe it holds still
   ties it to the bot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "hold") == 0) {
        for (;;) pause();
    }
    int noenv = argc > 1 && strcmp(argv[1], "noenv") == 0;
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
        if (noenv) {
            char *args[] = {argv[0], "hold", NULL};
            char *env[] = {NULL};
            execve("/proc/self/exe", args, env);
        }
        for (;;) pause();
    }
    pid_t gc = 0;
    if (read(p[0], &gc, sizeof gc) != (ssize_t)sizeof gc) return 1;
    printf("escaped %d\n", (int)gc);
    fflush(stdout);
    return 0;
}
