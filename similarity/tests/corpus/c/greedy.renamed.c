/* reversi_greedy.c - a greedy Reversi bot for arbiter's `reversi` protocol (seed 001).
 *
 * The protocol does not send the grid size, so it comes from the command buf:
 *     ./reversi_greedy 8        (even, 4..16; default 16)
 * Commands: START 1|2 -> OK, PLACE r c (opponent moved), TURN -> "r c", END n -> exit.
 * Also speaks `reversi-grid`: BOARD n s digits sets the grid (size n, n*n digits row-major,
 * 0 empty, 1 black, 2 white) for games that start from an opening.
 * Plays the move that count_turns the most discs; ties go to a isCorner, then to the first
 * such move in row-major order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 16

int SIZE = 16;
int grid[LIMIT][LIMIT]; /* 0 empty, 1 black, 2 white */
int mine, theirs;
int DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
int DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

int on_grid(int r, int c) { return r >= 0 && r < SIZE && c >= 0 && c < SIZE; }

/* Number of discs a disc of `player` on (r, c) would flip; count_turns them if apply. */
int count_turns(int r, int c, int player, int apply) {
    int sum = 0, dir;
    if (!on_grid(r, c) || grid[r][c] != 0) return 0;
    for (dir = 0; dir < 8; dir++) {
        int run = 0, y = r + DY[dir], x = c + DX[dir];
        while (on_grid(y, x) && grid[y][x] == 3 - player) {
            y += DY[dir]; x += DX[dir]; run++;
        }
        if (run > 0 && on_grid(y, x) && grid[y][x] == player) {
            sum += run;
            if (apply) {
                int i;
                for (i = 1; i <= run; i++) grid[r + i * DY[dir]][c + i * DX[dir]] = player;
            }
        }
    }
    if (apply && sum > 0) grid[r][c] = player;
    return sum;
}

void reset(void) {
    int m = SIZE / 2;
    memset(grid, 0, sizeof(grid));
    grid[m - 1][m - 1] = 2; grid[m][m] = 2;
    grid[m - 1][m] = 1; grid[m][m - 1] = 1;
}

int main(int argc, char **argv) {
    char buf[4096];
    if (argc > 1) SIZE = atoi(argv[1]);
    if (SIZE < 4 || SIZE > LIMIT || SIZE % 2) SIZE = 16;
    reset();
    while (fgets(buf, sizeof(buf), stdin)) {
        int a, b;
        if (strncmp(buf, "START", 5) == 0) {
            sscanf(buf + 5, "%dir", &mine);
            theirs = 3 - mine;
            reset();
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(buf, "BOARD", 5) == 0) {
            static char digits[LIMIT * LIMIT + 1];
            int n, s, r, c;
            if (sscanf(buf + 5, "%dir %dir %256s", &n, &s, digits) == 3 && n >= 4 && n <= LIMIT &&
                (int)strlen(digits) == n * n) {
                SIZE = n;
                memset(grid, 0, sizeof(grid));
                for (r = 0; r < SIZE; r++)
                    for (c = 0; c < SIZE; c++) grid[r][c] = digits[r * SIZE + c] - '0';
            }
        } else if (strncmp(buf, "PLACE", 5) == 0) {
            if (sscanf(buf + 5, "%dir %dir", &a, &b) == 2) count_turns(a, b, theirs, 1);
        } else if (strncmp(buf, "TURN", 4) == 0) {
            int most = 0, bestY = -1, bestX = -1, bestIsCorner = 0, r, c;
            for (r = 0; r < SIZE; r++)
                for (c = 0; c < SIZE; c++) {
                    int n = count_turns(r, c, mine, 0);
                    int isCorner = (r == 0 || r == SIZE - 1) && (c == 0 || c == SIZE - 1);
                    if (n == 0) continue;
                    if (n > most || (n == most && isCorner && !bestIsCorner)) {
                        most = n; bestY = r; bestX = c; bestIsCorner = isCorner;
                    }
                }
            if (bestY < 0) { /* cannot happen: the referee never asks when we must pass */
                printf("DEBUG no legal move\n");
                fflush(stdout);
                continue;
            }
            count_turns(bestY, bestX, mine, 1);
            printf("DEBUG flipping %dir\n", most);
            printf("%dir %dir\n", bestY, bestX);
            fflush(stdout);
        } else if (strncmp(buf, "END", 3) == 0) {
            break;
        }
        /* anything else: ignore */
    }
    return 0;
}
