/* duel_greedy.c - a greedy bot for the 2048 duel, arbiter's `duel` protocol.
 *
 * Protocol: START s R (seat 0 = first, columns 0..3; 1 = second, columns 4..7; R rounds);
 * RANDOM v0 .. v(R-1) -> OK; PLACE r t o -> "ROW COL"; SLIDE r t o -> up|down|left|right;
 * OPPONENT d (ROW COL, a direction or skip); SKIP r; END f -> exit. (t, o: own and
 * opponent's remaining ms; this bot reads neither.)
 * The bot keeps its own copy of the board and implements the rules to know its legal moves.
 *
 * Places on its own random cell (next(p, r)) when it has one, else where it helps the
 * opponent least; slides in the direction that leaves the most tile value (4^level, ours
 * minus theirs), i.e. the biggest merges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 4
#define COLS 8
#define MAXR 10000

/* lv[r][c]: tile level (0 = empty); ow[r][c]: owner 0 (first, columns 0..3) or 1 (second,
 * columns 4..7); an empty cell belongs to the owner of its half. */
int lv[ROWS][COLS], ow[ROWS][COLS];
int me, R;
long arr[MAXR];
char line[1 << 20];
const char *dirname[4] = {"up", "down", "left", "right"};

int half(int c) { return c < COLS / 2 ? 0 : 1; }

void clear_board(void) {
    int r, c;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++) { lv[r][c] = 0; ow[r][c] = half(c); }
}

/* A placed tile has level 1 and belongs to the half it lands in, whoever placed it. */
void place(int r, int c) {
    if (r < 0 || r >= ROWS || c < 0 || c >= COLS) return;
    lv[r][c] = 1; ow[r][c] = half(c);
}

/* next(p, round): p's empty cells in row-major order (reversed for the second player),
 * element arr[round] % count. Returns 0 when p's half is full. */
int next_cell(int p, int round, int *nr, int *nc) {
    int cells[ROWS * COLS], n = 0, r, c, k;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++)
            if (lv[r][c] == 0 && half(c) == p) cells[n++] = r * COLS + c;
    if (n == 0 || round < 0 || round >= R) return 0;
    k = (int)(arr[round] % n);
    if (p == 1) k = n - 1 - k;
    *nr = cells[k] / COLS; *nc = cells[k] % COLS;
    return 1;
}

/* Whether p may place on (r, c) in this round. */
int can_place(int p, int round, int r, int c) {
    int nr, nc;
    if (r < 0 || r >= ROWS || c < 0 || c >= COLS || lv[r][c] != 0) return 0;
    if (half(c) != p) return 1;
    return next_cell(p, round, &nr, &nc) && nr == r && nc == c;
}

/* Slides p's tiles in direction d (0 up, 1 down, 2 left, 3 right) on (L, O); returns whether
 * anything changed. Tiles go front first; a tile slides through empty cells of p's own half
 * only, then merges with an equal tile of either owner that was not made by this slide. */
int slide(int L[ROWS][COLS], int O[ROWS][COLS], int p, int d) {
    int changed = 0, line_no, nlines = (d < 2) ? COLS : ROWS, len = (d < 2) ? ROWS : COLS;
    for (line_no = 0; line_no < nlines; line_no++) {
        int rr[COLS], cc[COLS], k, i, merged[COLS];
        for (k = 0; k < len; k++) {
            merged[k] = 0;
            if (d == 0) { rr[k] = k; cc[k] = line_no; }
            else if (d == 1) { rr[k] = ROWS - 1 - k; cc[k] = line_no; }
            else if (d == 2) { rr[k] = line_no; cc[k] = k; }
            else { rr[k] = line_no; cc[k] = COLS - 1 - k; }
        }
        for (i = 1; i < len; i++) {
            int level = L[rr[i]][cc[i]], pos = i;
            if (level == 0 || O[rr[i]][cc[i]] != p) continue;
            while (pos > 0 && L[rr[pos - 1]][cc[pos - 1]] == 0 && half(cc[pos - 1]) == p) pos--;
            if (pos > 0 && L[rr[pos - 1]][cc[pos - 1]] == level && !merged[pos - 1]) {
                L[rr[pos - 1]][cc[pos - 1]] = level + 1;
                O[rr[pos - 1]][cc[pos - 1]] = p;
                merged[pos - 1] = 1;
                L[rr[i]][cc[i]] = 0; O[rr[i]][cc[i]] = half(cc[i]);
                changed = 1;
                continue;
            }
            if (pos != i) {
                L[rr[pos]][cc[pos]] = level; O[rr[pos]][cc[pos]] = p;
                L[rr[i]][cc[i]] = 0; O[rr[i]][cc[i]] = half(cc[i]);
                changed = 1;
            }
        }
    }
    return changed;
}

/* Whether p's slide in direction d would change the board (tried on a copy). */
int can_slide(int p, int d) {
    int L[ROWS][COLS], O[ROWS][COLS];
    memcpy(L, lv, sizeof(L)); memcpy(O, ow, sizeof(O));
    return slide(L, O, p, d);
}

int parse_dir(const char *s) {
    int d;
    for (d = 0; d < 4; d++)
        if (strncmp(s, dirname[d], strlen(dirname[d])) == 0) return d;
    if (s[0] >= '0' && s[0] <= '3') return s[0] - '0';
    return -1;
}

/* ---- the brain: greedy ---- */
/* Tiles weighted 4^level, ours minus theirs: the final count compares the highest level
 * first, and a merge (two tiles of level k into one of k+1) gains 4^(k+1) - 2 * 4^k. */
long long value(int L[ROWS][COLS], int O[ROWS][COLS]) {
    long long v = 0;
    int r, c;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++)
            if (L[r][c] > 0) v += (O[r][c] == me ? 1 : -1) * (1LL << (2 * L[r][c]));
    return v;
}

/* Our own random cell when there is one; otherwise (our half is full) the opponent's empty
 * cell that helps them least: the one with the fewest level-1 tiles next to it. */
void think_place(int round, int *br, int *bc) {
    int r, c, best = 99;
    if (next_cell(me, round, br, bc)) return;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++) {
            int k = 0;
            if (!can_place(me, round, r, c)) continue;
            if (r > 0 && lv[r - 1][c] == 1) k++;
            if (r < ROWS - 1 && lv[r + 1][c] == 1) k++;
            if (c > 0 && lv[r][c - 1] == 1) k++;
            if (c < COLS - 1 && lv[r][c + 1] == 1) k++;
            if (k < best) { best = k; *br = r; *bc = c; }
        }
}

/* The slide that leaves the best value (most / biggest merges). */
int think_slide(void) {
    int d, best_d = -1;
    long long best = 0;
    for (d = 0; d < 4; d++) {
        int L[ROWS][COLS], O[ROWS][COLS];
        long long v;
        memcpy(L, lv, sizeof(L)); memcpy(O, ow, sizeof(O));
        if (!slide(L, O, me, d)) continue;
        v = value(L, O);
        if (best_d < 0 || v > best) { best = v; best_d = d; }
    }
    return best_d < 0 ? 0 : best_d;
}

/* ---- the protocol ---- */
int main(void) {
    clear_board();
    while (fgets(line, sizeof(line), stdin)) {
        int r, c, round;
        if (strncmp(line, "START", 5) == 0) {
            sscanf(line + 5, "%d %d", &me, &R);
            if (R > MAXR) R = MAXR;
            clear_board();
        } else if (strncmp(line, "RANDOM", 6) == 0) {
            char *p = line + 6, *end;
            int i;
            for (i = 0; i < R; i++) {
                arr[i] = strtol(p, &end, 10);
                if (end == p) break;
                p = end;
            }
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(line, "OPPONENT", 8) == 0) {
            char *p = line + 8;
            while (*p == ' ') p++;
            if (sscanf(p, "%d %d", &r, &c) == 2) place(r, c);
            else if (strncmp(p, "skip", 4) != 0 && parse_dir(p) >= 0) slide(lv, ow, 1 - me, parse_dir(p));
        } else if (strncmp(line, "PLACE", 5) == 0) {
            sscanf(line + 5, "%d", &round);
            think_place(round, &r, &c);
            place(r, c);
            printf("%d %d\n", r, c);
            fflush(stdout);
        } else if (strncmp(line, "SLIDE", 5) == 0) {
            int d = think_slide();
            slide(lv, ow, me, d);
            printf("%s\n", dirname[d]);
            fflush(stdout);
        } else if (strncmp(line, "END", 3) == 0) {
            break;
        }
        /* SKIP and anything else: nothing to do */
    }
    return 0;
}
