/*
 * A Reversi brain (seed 001 protocol) that plays legal moves until its Nth turn, then
 * misbehaves in the way named by argv[1]. Used by the referee's verdict tests.
 *
 *   reversi_misbehave MODE [N=2] [SIZE=8] [ARG]
 *
 * MODE: fine, loop, sleep (ARG ms, then answers), sleepforever, hog, forkbomb, longline,
 * closeout, escapee, write (ARG = path), connect, segv, illegal, malformed, outofturn,
 * exit, debugflood, stderrflood, nonutf8, handshake-silent, handshake-wrong, crash-start,
 * selfstarve (a child spins on its core while the bot, at nice 19, spins too), ponder (every turn: answer, then spin until input arrives), slow (every turn: sleep ARG ms),
 * longdebug (a 100 KB DEBUG line, then a legal answer), offboard (answers "107 6"),
 * occupied (DEBUG "move N: oops", then the centre square, which is taken), closein (answers,
 * then closes its stdin and keeps running), sigkill (SIGKILL to itself: arbiter cannot tell it
 * from a kill by another process)
 *
 * write and connect exit with code 3 when the sandbox refuses them, as a bot that cannot do
 * without its file or connection would.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int n = 8, board[16][16], me;
static const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

static int flips(int r, int c, int p, int apply) {
    if (board[r][c]) return 0;
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int rr = r + dr[d], cc = c + dc[d], k = 0;
        while (rr >= 0 && rr < n && cc >= 0 && cc < n && board[rr][cc] == 3 - p) {
            rr += dr[d]; cc += dc[d]; k++;
        }
        if (k && rr >= 0 && rr < n && cc >= 0 && cc < n && board[rr][cc] == p) {
            total += k;
            if (apply)
                for (int j = 1; j <= k; j++) board[r + dr[d] * j][c + dc[d] * j] = p;
        }
    }
    if (apply && total) board[r][c] = p;
    return total;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "fine";
    int when = argc > 2 ? atoi(argv[2]) : 2;
    if (argc > 3) n = atoi(argv[3]);
    const char *arg = argc > 4 ? argv[4] : "";
    int h = n / 2, turn = 0, close_input = 0;
    board[h - 1][h - 1] = board[h][h] = 2;
    board[h - 1][h] = board[h][h - 1] = 1;
    if (!strcmp(mode, "crash-start")) abort();
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        int r, c;
        if (sscanf(line, "START %d", &me) == 1) {
            if (!strcmp(mode, "handshake-silent")) { for (;;) pause(); }
            puts(!strcmp(mode, "handshake-wrong") ? "HELLO" : "OK");
            fflush(stdout);
        } else if (sscanf(line, "PLACE %d %d", &r, &c) == 2) {
            flips(r, c, 3 - me, 1);
        } else if (!strncmp(line, "TURN", 4)) {
            int br = -1, bc = -1;
            for (int i = 0; i < n && br < 0; i++)
                for (int j = 0; j < n; j++)
                    if (flips(i, j, me, 0)) { br = i; bc = j; break; }
            if (++turn == when) {
                if (!strcmp(mode, "loop")) { volatile unsigned long x = 0; for (;;) x++; }
                if (!strcmp(mode, "selfstarve")) {
                    /* A child spins on the bot's core while the bot lowers its own priority
                     * and spins too: ready, yet kept off the CPU by its own tree. */
                    if (fork() == 0) { volatile unsigned long y = 0; for (;;) y++; }
                    setpriority(PRIO_PROCESS, 0, 19);
                    volatile unsigned long x = 0;
                    for (;;) x++;
                }
                if (!strcmp(mode, "sleep")) sleep_ms(atol(arg));
                if (!strcmp(mode, "sleepforever")) for (;;) pause();
                if (!strcmp(mode, "hog")) {
                    for (size_t total = 0; total < (size_t)4 << 30; total += 1 << 20) {
                        char *p = malloc(1 << 20);
                        if (!p) abort();
                        memset(p, 1, 1 << 20);
                    }
                }
                if (!strcmp(mode, "forkbomb")) {
                    for (int i = 0; i < 200; i++) if (fork() == 0) { for (;;) pause(); }
                    for (;;) pause();
                }
                if (!strcmp(mode, "longline")) {
                    static char chunk[1 << 16];
                    memset(chunk, '7', sizeof chunk);
                    for (int i = 0; i < (1 << 14); i++) fwrite(chunk, 1, sizeof chunk, stdout);
                    fflush(stdout);
                    for (;;) pause();
                }
                if (!strcmp(mode, "closeout")) { fclose(stdout); close(1); for (;;) pause(); }
                if (!strcmp(mode, "escapee")) {
                    if (fork() == 0) {
                        setsid();
                        if (fork() == 0) { for (;;) pause(); }
                        _exit(0);
                    }
                    sleep_ms(100);
                    abort();
                }
                if (!strcmp(mode, "write")) {
                    FILE *f = fopen(arg, "w");
                    if (f) { fputs("escaped\n", f); fclose(f); }
                    else { printf("DEBUG write refused\n"); fflush(stdout); exit(3); }
                }
                if (!strcmp(mode, "connect")) {
                    int s = socket(AF_INET, SOCK_STREAM, 0);
                    struct sockaddr_in a = {0};
                    a.sin_family = AF_INET;
                    a.sin_port = htons(atoi(arg) ? atoi(arg) : 9);
                    a.sin_addr.s_addr = htonl(0x7f000001);
                    int ok = s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0;
                    printf("DEBUG connect %s\n", ok ? "succeeded" : "refused");
                    fflush(stdout);
                    /* A bot that cannot do without its connection gives up. */
                    if (!ok) exit(3);
                }
                if (!strcmp(mode, "segv")) { volatile int *p = NULL; *p = 1; }
                if (!strcmp(mode, "sigkill")) kill(getpid(), SIGKILL);
                if (!strcmp(mode, "illegal")) { br = 0; bc = 0; }
                if (!strcmp(mode, "malformed")) { puts("move e5 please"); fflush(stdout); continue; }
                if (!strcmp(mode, "exit")) exit(0);
                if (!strcmp(mode, "debugflood")) {
                    for (;;) { fputs("DEBUG flooding flooding flooding flooding flooding\n", stdout); }
                }
                if (!strcmp(mode, "stderrflood")) {
                    static char chunk[1 << 16];
                    memset(chunk, 'e', sizeof chunk);
                    for (int i = 0; i < 2048; i++) fwrite(chunk, 1, sizeof chunk, stderr);
                }
                if (!strcmp(mode, "nonutf8")) { fputs("\xff\xfe 3\n", stdout); fflush(stdout); continue; }
                if (!strcmp(mode, "longdebug")) {
                    fputs("DEBUG ", stdout);
                    for (int i = 0; i < 100000; i++) putchar('d');
                    putchar('\n');
                }
                if (!strcmp(mode, "offboard")) { puts("107 6"); fflush(stdout); continue; }
                if (!strcmp(mode, "occupied")) {
                    printf("DEBUG move %d: oops\n%d %d\n", turn, h - 1, h - 1);
                    fflush(stdout);
                    continue;
                }
                if (!strcmp(mode, "closein")) close_input = 1;
            }
            if (!strcmp(mode, "slow")) sleep_ms(atol(arg));
            flips(br, bc, me, 1);
            printf("%d %d\n", br, bc);
            if (turn == when && !strcmp(mode, "outofturn")) printf("%d %d\n", br, bc);
            fflush(stdout);
            if (close_input) { close(0); for (;;) pause(); }
            if (!strcmp(mode, "ponder")) {
                /* Think on the opponent's time: burn CPU until the next command arrives. */
                struct pollfd p = {0, POLLIN, 0};
                volatile unsigned long x = 0;
                while (poll(&p, 1, 0) == 0) x++;
            }
        } else if (!strncmp(line, "END", 3)) {
            return 0;
        }
    }
    return 0;
}
