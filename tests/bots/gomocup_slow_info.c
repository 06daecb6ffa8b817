/* gomocup_slow_info.c - a Gomocup brain that sets itself up on INFO max_memory, as Rapfi does.
 *
 * Usage: gomocup_slow_info SETUP_MS [about|unknown|silent] [MARGIN_MS]
 *
 * On `INFO max_memory N` it allocates and touches a buffer (at most 32 MB) and then sleeps
 * SETUP_MS milliseconds: a strong brain's hash table set-up. Like Rapfi it starts its own clock
 * only when it reads its first BEGIN / TURN / BOARD, and then thinks (sleeps) for
 * timeout_turn - MARGIN_MS (default 150 ms); later moves are instant. Moves: the first empty
 * point in row-major order. ABOUT is answered with a name line, with `UNKNOWN`, or not at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 32

static int n = 15, board[MAXN][MAXN], first = 1;
static long timeout_turn = 5000, margin_ms = 150;
static char *hash;

static void sleep_ms(long ms) {
    struct timespec t;
    if (ms <= 0) return;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&t, &t) != 0) {}
}

static void move(void) {
    int x, y;
    if (first) {
        sleep_ms(timeout_turn - margin_ms);
        first = 0;
    }
    for (y = 0; y < n; y++)
        for (x = 0; x < n; x++)
            if (!board[x][y]) {
                board[x][y] = 1;
                printf("%d,%d\n", x, y);
                fflush(stdout);
                return;
            }
}

int main(int argc, char **argv) {
    char line[256];
    long setup_ms = argc > 1 ? atol(argv[1]) : 0;
    const char *about = argc > 2 ? argv[2] : "about";
    if (argc > 3) margin_ms = atol(argv[3]);
    int x, y, f;
    long long v;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (sscanf(line, "START %d", &n) == 1) {
            if (n > MAXN) n = MAXN;
            memset(board, 0, sizeof board);
            printf("OK\n");
        } else if (sscanf(line, "INFO max_memory %lld", &v) == 1) {
            size_t size = v / 8 < (32 << 20) ? (size_t)(v / 8) : (size_t)32 << 20;
            free(hash);
            hash = malloc(size);
            if (hash) memset(hash, 0, size);
            sleep_ms(setup_ms);
        } else if (sscanf(line, "INFO timeout_turn %ld", &timeout_turn) == 1) {
        } else if (strncmp(line, "INFO", 4) == 0) {
        } else if (strcmp(line, "ABOUT") == 0) {
            if (strcmp(about, "about") == 0) printf("name=\"slow_info\", version=\"1\"\n");
            else if (strcmp(about, "unknown") == 0) printf("UNKNOWN\n");
        } else if (strcmp(line, "BEGIN") == 0) {
            move();
        } else if (sscanf(line, "TURN %d,%d", &x, &y) == 2) {
            if (x >= 0 && y >= 0 && x < n && y < n) board[x][y] = 2;
            move();
        } else if (strcmp(line, "BOARD") == 0) {
            while (fgets(line, sizeof line, stdin) && strncmp(line, "DONE", 4) != 0)
                if (sscanf(line, "%d,%d,%d", &x, &y, &f) == 3 && x >= 0 && y >= 0 && x < n
                    && y < n)
                    board[x][y] = f;
            move();
        } else if (strcmp(line, "END") == 0) {
            return 0;
        } else if (line[0]) {
            printf("UNKNOWN %s\n", line);
        }
        fflush(stdout);
    }
    return 0;
}
