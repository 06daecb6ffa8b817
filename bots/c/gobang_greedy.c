/* gobang_greedy.c - a greedy Gomoku bot for the `gobang` protocol (seed 003).
 *
 * Protocol: print READY; read BLACK or WHITE; then moves both ways as `MOVE H8` (column
 * letter A = left, row number 1 = bottom). Black moves right after BLACK. 15 x 15 board.
 * No end command: the referee kills the bot when the game is over (EOF also ends it).
 * The protocol does not tell the rule: run it with `--renju` for renju games.
 *
 * Wins when it can, else blocks the opponent's five / open four / open three, else extends
 * its own longest line near the centre (never aiming at an overline). As black under renju
 * it never plays a forbidden point (see forbidden() below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 15

int N = 15;
/* board[x][y]: 0 empty, 1 ours, 2 the opponent's */
int board[MAXN][MAXN];
int black = 0; /* 1 after BLACK */

/* ---- the brain: a one-ply threat evaluation ---- */
int dx4[4] = {1, 0, 1, 1};
int dy4[4] = {0, 1, 1, -1};

int inside(int x, int y) { return x >= 0 && x < N && y >= 0 && y < N; }

/* ---- renju: the points black may not play ----
 * Under renju black loses by playing a point that makes an overline (six or more in a row),
 * two fours or two threes, unless the move also makes exactly five (a five always wins).
 * Seen along one line through the point, with our stone on it:
 * - a four: one more stone makes exactly five (.XXXX., X.XXX, XX.XX ...); X.XXX.X holds two;
 * - a three: one more stone makes a straight four (four in a row, both ends open, each end
 *   making exactly five), like .XXX.. or .XX.X.
 * This test is conservative: it counts every three as real (the full rule drops a three
 * whose straight-four points are all forbidden themselves), so it may refuse a few legal
 * points but never lets us play a forbidden one. It reads our stones (1) as black. */
int renju = 0;

int forbidden(int x, int y) {
    int d, k, s, overline = 0, fours = 0, threes = 0;
    for (d = 0; d < 4; d++) {
        /* c[5 + k]: the cell k steps away along direction d; 1 ours, 0 empty, -1 else */
        int c[11], run = 1, n, q, lo = -1, hi = -1, nq = 0, three = 0;
        for (k = -5; k <= 5; k++) {
            int cx = x + k * dx4[d], cy = y + k * dy4[d];
            c[5 + k] = k == 0 ? 1 : !inside(cx, cy) ? -1 : board[cx][cy] == 1 ? 1
                     : board[cx][cy] == 0 ? 0 : -1;
        }
        for (k = 6; k <= 10 && c[k] == 1; k++) run++;
        for (k = 4; k >= 0 && c[k] == 1; k--) run++;
        if (run == 5) return 0; /* exactly five: always allowed */
        if (run > 5) { overline = 1; continue; }
        /* fours: a 5-cell frame c[s..s+4] through the point holding four of ours and one
         * empty cell q, with none of ours just outside it (else q would make six) */
        for (s = 1; s <= 5; s++) {
            for (n = 0, q = -1, k = s; k < s + 5; k++) {
                if (c[k] == 1) n++; else if (c[k] == 0) q = k;
            }
            if (n == 4 && q >= 0 && c[s - 1] != 1 && c[s + 5] != 1 && q != lo && q != hi) {
                if (lo < 0) lo = q; else hi = q;
                nq++;
            }
        }
        /* two completions 5 apart finish the same straight four (.XXXX.): one four */
        if (nq > 0) { fours += (nq == 1 || (nq == 2 && hi - lo == 5)) ? 1 : 2; continue; }
        /* threes: a 4-cell frame c[s..s+3] through the point holding three of ours and one
         * empty cell, with both ends empty and none of ours beyond them */
        for (s = 2; s <= 5; s++) {
            for (n = 0, q = -1, k = s; k < s + 4; k++) {
                if (c[k] == 1) n++; else if (c[k] == 0) q = k;
            }
            if (n == 3 && q >= 0 && c[s - 1] == 0 && c[s + 4] == 0
                && c[s - 2] != 1 && c[s + 5] != 1)
                three = 1;
        }
        threes += three;
    }
    return overline || fours >= 2 || threes >= 2;
}

/* May we play the empty (x, y)? Not on a forbidden point when we are black under renju. */
int allowed(int x, int y, int as_black) {
    return board[x][y] == 0 && !(renju && as_black && forbidden(x, y));
}

/* Value of a run of `len` stones with `open` free ends. Our own overlines are worth nothing
 * (under renju or the standard rule six in a row does not win, so we never aim for it). */
long run_value(int len, int open, int own) {
    if (len == 5) return 10000000L;
    if (len > 5) return own ? 0 : 10000000L;
    if (open == 0) return 0;
    if (len == 4) return open == 2 ? 500000L : 20000L;
    if (len == 3) return open == 2 ? 15000L : 800L;
    if (len == 2) return open == 2 ? 400L : 40L;
    return 10L * open;
}

/* What a stone of `who` (1 = us, 2 = the opponent) on the empty (x, y) would make. */
long point_value(int x, int y, int who) {
    long total = 0;
    int d, s;
    for (d = 0; d < 4; d++) {
        int len = 1, open = 0;
        for (s = -1; s <= 1; s += 2) {
            int cx = x + s * dx4[d], cy = y + s * dy4[d];
            while (inside(cx, cy) && board[cx][cy] == who) { cx += s * dx4[d]; cy += s * dy4[d]; len++; }
            if (inside(cx, cy) && board[cx][cy] == 0) open++;
        }
        total += run_value(len, open, who == 1);
    }
    return total;
}

int near_stone(int x, int y) {
    int i, j;
    for (i = -2; i <= 2; i++)
        for (j = -2; j <= 2; j++)
            if (inside(x + i, y + j) && board[x + i][y + j] != 0) return 1;
    return 0;
}

/* Win if we can, else block (the opponent's value counts 9/10), else build, near the centre. */
void think(int *bx, int *by) {
    long best = -1;
    int x, y, c = N / 2, as_black = black;
    *bx = -1; *by = -1;
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++) {
            long v;
            if (!allowed(x, y, as_black) || !near_stone(x, y)) continue;
            v = point_value(x, y, 1) + point_value(x, y, 2) * 9 / 10;
            v += N - abs(x - c) - abs(y - c);
            if (v > best) { best = v; *bx = x; *by = y; }
        }
    if (*bx < 0) { /* empty board (or nothing allowed near): the centre, else any allowed
                    * empty point, else (only forbidden points left) any empty point */
        if (allowed(c, c, as_black)) { *bx = c; *by = c; return; }
        for (; as_black >= 0; as_black--)
            for (y = 0; y < N; y++)
                for (x = 0; x < N; x++)
                    if (allowed(x, y, as_black)) { *bx = x; *by = y; return; }
    }
}

/* ---- the protocol ---- */
int main(int argc, char **argv) {
    char line[1024];
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--renju") == 0) renju = 1; /* the protocol does not say the rule */
    srand((unsigned)time(NULL));
    printf("READY\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin)) {
        char letter;
        int number, x, y;
        if (strncmp(line, "BLACK", 5) == 0) {
            black = 1;
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
