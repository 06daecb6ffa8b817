/* A hostile contest bot for referee/tests/hostile.rs. Before it plays, it tries everything a
 * student's bot should not be able to do from inside the sandbox, and writes one line per
 * attempt to stderr ("ATTACK what: blocked (why)" or "ATTACK what: GOT ..."). Then it
 * crashes at its first move, so that the replay keeps its stderr for the test to read.
 *
 * Built with -D SERVER_PID=... -D SERVER_PORT=... -D OUTSIDE_SOCKET="..." -D ABSTRACT_NAME="..."
 * -D CONTEST_DIR="..." by the test, which knows them; a real attacker would guess them. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static void show(const char *what, const char *buf, size_t n) {
    fprintf(stderr, "ATTACK %s: GOT %zu bytes: ", what, n);
    for (size_t i = 0; i < n && i < 160; i++) {
        unsigned char c = (unsigned char)buf[i];
        fputc(c >= 32 && c < 127 ? c : '.', stderr);
    }
    fputc('\n', stderr);
}

static void try_read(const char *what, const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "ATTACK read %s (%s): blocked (%s)\n", what, path, strerror(errno));
        return;
    }
    static char buf[1 << 16];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (n < 0) {
        fprintf(stderr, "ATTACK read %s (%s): blocked (%s)\n", what, path, strerror(errno));
        return;
    }
    /* A binary holds its strings somewhere: show the part around a marker if there is one. */
    char *m = memmem(buf, (size_t)n, "SECRET", 6);
    char label[512];
    snprintf(label, sizeof label, "read %s (%s)", what, path);
    if (m) show(label, m, (size_t)(buf + n - m));
    else show(label, buf, (size_t)n);
}

static void try_dir(const char *what, const char *path, const char *self) {
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "ATTACK list %s (%s): blocked (%s)\n", what, path, strerror(errno));
        return;
    }
    struct dirent *e;
    int others = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (self && !strcmp(full, self)) continue;
        others++;
        try_read(what, full);
    }
    closedir(d);
    fprintf(stderr, "ATTACK list %s (%s): %d other entries\n", what, path, others);
}

static void try_procs(void) {
    DIR *d = opendir("/proc");
    if (!d) return;
    struct dirent *e;
    char pids[256] = "";
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        strncat(pids, e->d_name, sizeof pids - strlen(pids) - 2);
        strcat(pids, " ");
        if (getpid() == atoi(e->d_name)) continue;
        char p[64];
        snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
        try_read("cmdline of another process", p);
        snprintf(p, sizeof p, "/proc/%s/environ", e->d_name);
        try_read("environ of another process", p);
        snprintf(p, sizeof p, "/proc/%s/maps", e->d_name);
        try_read("maps of another process", p);
    }
    closedir(d);
    fprintf(stderr, "ATTACK processes visible: %s(self %d)\n", pids, getpid());
}

static void try_calls(void) {
    struct rlimit low = {3, 3};
    int r = prlimit(SERVER_PID, RLIMIT_NOFILE, &low, NULL);
    fprintf(stderr, "ATTACK prlimit on the server: %s\n", r == 0 ? "GOT it" : strerror(errno));
    r = prlimit(getppid(), RLIMIT_NOFILE, &low, NULL);
    fprintf(stderr, "ATTACK prlimit on the parent %d: %s\n", getppid(), r == 0 ? "GOT it" : strerror(errno));
    r = setpriority(PRIO_PROCESS, SERVER_PID, 19);
    fprintf(stderr, "ATTACK setpriority on the server: %s\n", r == 0 ? "GOT it" : strerror(errno));
    r = kill(SERVER_PID, SIGSTOP);
    fprintf(stderr, "ATTACK kill SIGSTOP to the server: %s\n", r == 0 ? "GOT it" : strerror(errno));
    r = kill(-1, SIGKILL);
    fprintf(stderr, "ATTACK kill -1: %s\n", r == 0 ? "sent (only our own namespace)" : strerror(errno));
    long p = syscall(SYS_pidfd_open, SERVER_PID, 0);
    fprintf(stderr, "ATTACK pidfd_open on the server: %s\n", p >= 0 ? "GOT it" : strerror(errno));
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    r = sched_setaffinity(SERVER_PID, sizeof set, &set);
    fprintf(stderr, "ATTACK sched_setaffinity on the server: %s\n", r == 0 ? "GOT it" : strerror(errno));
    long x = syscall(0x40000000 | 39); /* getpid through the x32 ABI */
    fprintf(stderr, "ATTACK x32 syscall: %s\n", x >= 0 ? "GOT it" : strerror(errno));
    char log[256];
    long k = syscall(SYS_syslog, 3, log, sizeof log);
    fprintf(stderr, "ATTACK kernel log: %s\n", k > 0 ? "GOT it" : strerror(errno));
}

static void try_sockets(void) {
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strncpy(a.sun_path, OUTSIDE_SOCKET, sizeof a.sun_path - 1);
    int r = s < 0 ? -1 : connect(s, (struct sockaddr *)&a, sizeof a);
    fprintf(stderr, "ATTACK connect to the outside UNIX socket: %s\n", r == 0 ? "GOT it" : strerror(errno));
    if (s >= 0) close(s);
    s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un b = {.sun_family = AF_UNIX};
    size_t len = strlen(ABSTRACT_NAME);
    memcpy(b.sun_path + 1, ABSTRACT_NAME, len);
    r = s < 0 ? -1 : connect(s, (struct sockaddr *)&b, (socklen_t)(sizeof(sa_family_t) + 1 + len));
    fprintf(stderr, "ATTACK connect to the outside abstract socket: %s\n", r == 0 ? "GOT it" : strerror(errno));
    if (s >= 0) close(s);
    s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(SERVER_PORT)};
    inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
    r = s < 0 ? -1 : connect(s, (struct sockaddr *)&in, sizeof in);
    fprintf(stderr, "ATTACK connect to the contest server over TCP: %s\n", r == 0 ? "GOT it" : strerror(errno));
}

static void try_disk(void) {
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    long long total = 0;
    signal(SIGXFSZ, SIG_IGN);
    for (int i = 0; i < 40; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/fill%d", dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) break;
        int full = 0;
        for (int j = 0; j < 32; j++) { /* 32 MB a file, under the file-size limit */
            ssize_t n = write(fd, chunk, sizeof chunk);
            if (n <= 0) { full = 1; break; }
            total += n;
        }
        close(fd);
        if (full) break;
    }
    fprintf(stderr, "ATTACK disk written: %lld MB\n", total >> 20);
}

int main(int argc, char **argv) {
    char self[4096];
    snprintf(self, sizeof self, "%s", argv[0]);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", argv[0]);
    try_dir("the artefact store", dirname(dir), self);
    try_read("the database", CONTEST_DIR "/contest.db");
    try_read("the contest configuration", CONTEST_DIR "/contest.toml");
    try_dir("the contest directory", CONTEST_DIR, NULL);
    try_read("/etc/shadow", "/etc/shadow");
    try_read("the host's passwd", "/etc/passwd");
    try_procs();
    try_read("my own environment", "/proc/self/environ");
    /* The keeper (pid 1) is root's copy of the referee: its root and working directory are
     * the host's as it saw them before entering the jail, if anything let them through. */
    try_dir("the keeper's root", "/proc/1/root/tmp", NULL);
    try_dir("the keeper's working directory", "/proc/1/cwd", NULL);
    try_read("the host's shadow through the keeper's root", "/proc/1/root/etc/shadow");
    /* A link in its own scratch to a host file: the path resolves inside the jail. */
    {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        char link[4096];
        snprintf(link, sizeof link, "%s/shadow-link", tmp);
        unlink(link);
        if (symlink("/etc/shadow", link) == 0) try_read("/etc/shadow through a link", link);
        else fprintf(stderr, "ATTACK link to /etc/shadow: blocked (%s)\n", strerror(errno));
        snprintf(link, sizeof link, "%s/db-link", tmp);
        unlink(link);
        if (symlink(CONTEST_DIR "/contest.db", link) == 0) try_read("the database through a link", link);
        else fprintf(stderr, "ATTACK link to the database: blocked (%s)\n", strerror(errno));
    }
    try_calls();
    try_sockets();
    try_disk();
    fflush(stderr);
    char line[256];
    setvbuf(stdout, 0, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "START", 5)) printf("OK\n");
        else if (!strncmp(line, "TURN", 4)) {
            fprintf(stderr, "ATTACK done\n");
            return 3;
        }
    }
    return 0;
}
