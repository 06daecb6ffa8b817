/* gobang_random.c - a random Gomoku bot for the `gobang` protocol (seed 003).
 *
 * Protocol: print READY; read BLACK or WHITE; then moves both ways as `MOVE H8` (column
 * letter A = left, row number 1 = bottom). Black moves right after BLACK. 15 x 15 board.
 * No end command: the referee kills the bot when the game is over (EOF also ends it).
 *
 * Plays any empty point at random (it knows no renju: a random bot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 15

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
int main(void) {
    char line[1024];
    srand((unsigned)time(NULL));
    printf("READY\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin)) {
        char letter;
        int number, x, y;
        if (strncmp(line, "BLACK", 5) == 0) {
            think(&x, &y);
            board[x][y] = 1;
            printf("MOVE %c%d\n", 'A' + x, N - y);
            fflush(stdout);
        } else if (strncmp(line, "WHITE", 5) == 0) {
            /* wait for black's first move */
        } else if (sscanf(line, " MOVE %c%d", &letter, &number) == 2) {
            x = letter - 'A';
            y = N - number;
            if (inside(x, y)) board[x][y] = 2;
            think(&x, &y);
            if (x < 0) continue;
            board[x][y] = 1;
            printf("MOVE %c%d\n", 'A' + x, N - y);
            fflush(stdout);
        }
        /* anything else: ignore */
    }
    return 0;
}
