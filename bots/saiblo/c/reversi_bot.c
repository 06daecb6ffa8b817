/* A Reversi AI over the Saiblo SDK (seed 001's brain protocol inside Saiblo messages), or over
 * plain lines with --lines (arbiter's in-process referee).
 *
 * usage: reversi_bot [--lines] [--size N] [first|random[:SEED]|greedy]
 * build: cc -O2 -o reversi_bot reversi_bot.c saiblo.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saiblo.h"

static int n = 16;
static int cell[16][16];
static const int DR[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, DC[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

static int flips(int r, int c, int me, int apply) {
    if (cell[r][c]) return 0;
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int y = r + DR[d], x = c + DC[d], run = 0;
        while (y >= 0 && y < n && x >= 0 && x < n && cell[y][x] == 3 - me) {
            y += DR[d];
            x += DC[d];
            run++;
        }
        if (run && y >= 0 && y < n && x >= 0 && x < n && cell[y][x] == me) {
            total += run;
            if (apply)
                for (int k = 1; k <= run; k++) cell[r + k * DR[d]][c + k * DC[d]] = me;
        }
    }
    return total;
}

static void play(int r, int c, int me) {
    if (r < 0 || r >= n || c < 0 || c >= n) return;
    flips(r, c, me, 1);
    cell[r][c] = me;
}

int main(int argc, char **argv) {
    const char *strategy = "first";
    unsigned long long rng = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lines")) saiblo_plain_lines(1);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) n = atoi(argv[++i]);
        else strategy = argv[i];
    }
    if (n < 4 || n > 16 || n % 2) n = 16;
    if (!strncmp(strategy, "random:", 7)) rng = strtoull(strategy + 7, NULL, 10) * 2 + 1;
    int h = n / 2, me = 1;
    cell[h - 1][h - 1] = cell[h][h] = 2;
    cell[h - 1][h] = cell[h][h - 1] = 1;
    const char *line;
    char out[32];
    while ((line = saiblo_read_line()) != NULL) {
        int a, b;
        if (sscanf(line, "START %d", &a) == 1) {
            me = a;
            saiblo_write_line("OK");
        } else if (sscanf(line, "PLACE %d %d", &a, &b) == 2) {
            play(a, b, 3 - me);
        } else if (!strncmp(line, "TURN", 4)) {
            int best = -1, br = 0, bc = 0, count = 0;
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int f = flips(r, c, me, 0);
                    if (!f) continue;
                    count++;
                    int take;
                    if (!strcmp(strategy, "greedy")) take = f > best;
                    else if (!strncmp(strategy, "random", 6)) {
                        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                        take = (rng >> 33) % (unsigned)count == 0; /* reservoir sampling */
                    } else take = best < 0;
                    if (take) best = f, br = r, bc = c;
                }
            if (best < 0) saiblo_write_line("DEBUG no legal move");
            else play(br, bc, me);
            snprintf(out, sizeof out, "%d %d", br, bc);
            saiblo_write_line(out);
        } else if (!strncmp(line, "END", 3)) {
            break;
        }
    }
    return 0;
}
