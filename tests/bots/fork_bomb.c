/* Bounded fork bomb: forks argv[1] (default 200) children that sleep, reports
   how many forks succeeded, then sleeps. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 200, ok = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) { for (;;) pause(); }
        if (pid > 0) ok++; else failed++;
    }
    printf("forked %d failed %d\n", ok, failed);
    fflush(stdout);
    for (;;) pause();
}
