/* gomocup_random.c - a random Gomocup brain for the `gomocup` protocol.
 *
 * Protocol: START n -> OK; INFO rule r (bit 4 = renju; other INFO ignored); BEGIN -> x,y;
 * TURN x,y -> x,y; BOARD / x,y,f lines / DONE -> x,y; RESTART -> OK; TAKEBACK x,y -> OK;
 * ABOUT -> name=...; END -> exit. x = column, y = row, 0-based from the top-left. Lines may
 * end in CR LF.
 *
 * Plays any empty point at random; as black under renju, any point not forbidden.
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

int dx4[4] = {1, 0, 1, 1};
int dy4[4] = {0, 1, 1, -1};
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

/* Black moves first, so we are black when we have as many stones as the opponent. */
int we_are_black(void) {
    int x, y, count[3] = {0, 0, 0};
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++) count[board[x][y]]++;
    return count[1] == count[2];
}

/* ---- the brain: any empty point (as black under renju: any allowed one) ---- */
void think(int *bx, int *by) {
    int x, y, n = 0, k, as_black = we_are_black();
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++) n += allowed(x, y, as_black);
    if (n == 0) { /* only forbidden points are left: any empty point */
        as_black = 0;
        for (y = 0; y < N; y++)
            for (x = 0; x < N; x++) n += allowed(x, y, as_black);
    }
    *bx = -1; *by = -1;
    if (n == 0) return;
    k = rand() % n;
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++)
            if (allowed(x, y, as_black) && k-- == 0) { *bx = x; *by = y; return; }
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
            /* only the rule matters here (a bitmask: 4 = renju); timeout_turn, time_left... not */
            if (sscanf(line + 4, " rule %d", &n) == 1) renju = (n & 4) != 0;
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
