/* reversi_random.c - a random Reversi bot for arbiter's `reversi` protocol (seed 001).
 *
 * The protocol does not send the board size: arbiter sets ARBITER_SIZE for every bot, and a
 * command-line argument overrides it:
 *     ./reversi_random 8        (even, 4..16; default $ARBITER_SIZE, else 16)
 * Commands: START 1|2 -> OK, PLACE r c (opponent moved), TURN -> "r c", END f -> exit.
 * Also speaks `reversi-board`: BOARD n s cells sets the board (size n, n*n cells row-major,
 * 0 empty, 1 black, 2 white) for games that start from an opening.
 * Plays a uniformly random legal move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 16

int N = 16;
int board[MAXN][MAXN]; /* 0 empty, 1 black, 2 white */
int me, op;
int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
int dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

int inside(int r, int c) { return r >= 0 && r < N && c >= 0 && c < N; }

/* Number of discs a disc of `who` on (r, c) would flip; flips them if doit. */
int flips(int r, int c, int who, int doit) {
    int total = 0, d;
    if (!inside(r, c) || board[r][c] != 0) return 0;
    for (d = 0; d < 8; d++) {
        int k = 0, rr = r + dr[d], cc = c + dc[d];
        while (inside(rr, cc) && board[rr][cc] == 3 - who) {
            rr += dr[d]; cc += dc[d]; k++;
        }
        if (k > 0 && inside(rr, cc) && board[rr][cc] == who) {
            total += k;
            if (doit) {
                int i;
                for (i = 1; i <= k; i++) board[r + i * dr[d]][c + i * dc[d]] = who;
            }
        }
    }
    if (doit && total > 0) board[r][c] = who;
    return total;
}

void init_board(void) {
    int m = N / 2;
    memset(board, 0, sizeof(board));
    board[m - 1][m - 1] = 2; board[m][m] = 2;
    board[m - 1][m] = 1; board[m][m - 1] = 1;
}

int main(int argc, char **argv) {
    char line[4096];
    const char *size = getenv("ARBITER_SIZE");
    if (argc > 1) N = atoi(argv[1]);
    else if (size) N = atoi(size);
    if (N < 4 || N > MAXN || N % 2) N = 16;
    srand((unsigned)time(NULL));
    init_board();
    while (fgets(line, sizeof(line), stdin)) {
        int a, b;
        if (strncmp(line, "START", 5) == 0) {
            sscanf(line + 5, "%d", &me);
            op = 3 - me;
            init_board();
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(line, "BOARD", 5) == 0) {
            static char cells[MAXN * MAXN + 1];
            int n, s, r, c;
            if (sscanf(line + 5, "%d %d %256s", &n, &s, cells) == 3 && n >= 4 && n <= MAXN &&
                (int)strlen(cells) == n * n) {
                N = n;
                memset(board, 0, sizeof(board));
                for (r = 0; r < N; r++)
                    for (c = 0; c < N; c++) board[r][c] = cells[r * N + c] - '0';
            }
        } else if (strncmp(line, "PLACE", 5) == 0) {
            if (sscanf(line + 5, "%d %d", &a, &b) == 2) flips(a, b, op, 1);
        } else if (strncmp(line, "TURN", 4) == 0) {
            int mr[MAXN * MAXN], mc[MAXN * MAXN], n = 0, r, c;
            for (r = 0; r < N; r++)
                for (c = 0; c < N; c++)
                    if (flips(r, c, me, 0) > 0) { mr[n] = r; mc[n] = c; n++; }
            if (n == 0) { /* cannot happen: the referee never asks when we must pass */
                printf("DEBUG no legal move\n");
                fflush(stdout);
                continue;
            }
            a = rand() % n;
            flips(mr[a], mc[a], me, 1);
            printf("%d %d\n", mr[a], mc[a]);
            fflush(stdout);
        } else if (strncmp(line, "END", 3) == 0) {
            break;
        }
        /* anything else: ignore */
    }
    return 0;
}
