/* gomocup_random.c - a random Gomocup brain for the `gomocup` protocol.
 *
 * Protocol: START n -> OK; INFO ... (ignored); BEGIN -> x,y; TURN x,y -> x,y;
 * BOARD / x,y,f lines / DONE -> x,y; RESTART -> OK; TAKEBACK x,y -> OK; ABOUT -> name=...;
 * END -> exit. x = column, y = row, 0-based from the top-left. Lines may end in CR LF.
 *
 * Plays any empty point at random.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 32
#define NAME "gomocup_random"

int N = 15;
/* board[x][y]: 0 empty, 1 ours, 2 the opponent's */
int board[MAXN][MAXN];

int inside(int x, int y) { return x >= 0 && x < N && y >= 0 && y < N; }

/* ---- the brain: any empty point ---- */
void think(int *bx, int *by) {
    int x, y, n = 0, k;
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++)
            if (board[x][y] == 0) n++;
    *bx = -1; *by = -1;
    if (n == 0) return;
    k = rand() % n;
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++)
            if (board[x][y] == 0 && k-- == 0) { *bx = x; *by = y; return; }
}

/* ---- the protocol ---- */
void answer(void) {
    int x, y;
    think(&x, &y);
    if (x < 0) {
        printf("ERROR no empty point\n");
    } else {
        board[x][y] = 1;
        printf("%d,%d\n", x, y);
    }
    fflush(stdout);
}

int main(void) {
    char line[1024];
    srand((unsigned)time(NULL));
    while (fgets(line, sizeof(line), stdin)) {
        int x, y, f, n;
        line[strcspn(line, "\r\n")] = 0; /* CR LF or LF */
        if (line[0] == 0) continue;
        if (strncmp(line, "START", 5) == 0) {
            if (sscanf(line + 5, "%d", &n) == 1 && n >= 5 && n <= MAXN) {
                N = n;
                memset(board, 0, sizeof(board));
                printf("OK\n");
            } else {
                printf("ERROR unsupported size\n");
            }
            fflush(stdout);
        } else if (strncmp(line, "RESTART", 7) == 0) {
            memset(board, 0, sizeof(board));
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(line, "INFO", 4) == 0) {
            /* timeout_turn, rule, time_left...: a simple brain needs none of them */
        } else if (strncmp(line, "BEGIN", 5) == 0) {
            answer();
        } else if (strncmp(line, "TURN", 4) == 0) {
            if (sscanf(line + 4, "%d,%d", &x, &y) == 2 && inside(x, y)) board[x][y] = 2;
            answer();
        } else if (strncmp(line, "BOARD", 5) == 0) {
            memset(board, 0, sizeof(board));
            while (fgets(line, sizeof(line), stdin)) {
                line[strcspn(line, "\r\n")] = 0;
                if (strncmp(line, "DONE", 4) == 0) break;
                if (sscanf(line, "%d,%d,%d", &x, &y, &f) == 3 && inside(x, y) && (f == 1 || f == 2))
                    board[x][y] = f;
            }
            answer();
        } else if (strncmp(line, "TAKEBACK", 8) == 0) {
            if (sscanf(line + 8, "%d,%d", &x, &y) == 2 && inside(x, y)) board[x][y] = 0;
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(line, "ABOUT", 5) == 0) {
            printf("name=\"%s\", version=\"1.0\", author=\"arbiter samples\", country=\"-\"\n", NAME);
            fflush(stdout);
        } else if (strncmp(line, "END", 3) == 0) {
            break;
        } else {
            printf("UNKNOWN %s\n", line);
            fflush(stdout);
        }
    }
    return 0;
}
