/* Tries system calls a contained bot must not use (and a few it must keep),
   printing "<name> ok" or "<name> errno N" for each. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *name, long rc) {
    if (rc < 0) printf("%s errno %d\n", name, errno);
    else printf("%s ok\n", name);
}

static void *thread_main(void *arg) { return arg; }

int main(void) {
    report("socket_unix", socket(AF_UNIX, SOCK_STREAM, 0));
    report("socket_udp6", socket(AF_INET6, SOCK_DGRAM, 0));
    unsigned char params[120];
    memset(params, 0, sizeof params);
    report("io_uring_setup", syscall(SYS_io_uring_setup, 1, params));
    report("unshare_user", unshare(CLONE_NEWUSER));
    report("mount", mount("none", "/mnt", "tmpfs", 0, 0));
    report("signal_parent", kill(getppid(), 0));
    pthread_t t;
    int e = pthread_create(&t, 0, thread_main, 0);
    if (e == 0) { pthread_join(t, 0); printf("thread ok\n"); }
    else printf("thread errno %d\n", e);
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid > 0) waitpid(pid, 0, 0);
    report("fork", pid);
    /* Last: once traced (no sandbox, as root) any signal would stop us. */
    fflush(stdout);
    report("ptrace_traceme", ptrace(PTRACE_TRACEME, 0, 0, 0));
    fflush(stdout);
    return 0;
}
