/* Two-ply minimax Reversi bot over a flat board with a border ring (10x10 style). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT = 3, MAXW = 18 };

static char sq[MAXW * MAXW];
static int width, n;
static int dirs[8];

static int idx(int r, int c) { return (r + 1) * width + (c + 1); }

static void setup(int size)
{
    n = size;
    width = size + 2;
    int d[8] = {-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1};
    memcpy(dirs, d, sizeof d);
    for (int i = 0; i < width * width; i++) {
        int r = i / width, c = i % width;
        sq[i] = (r == 0 || c == 0 || r == width - 1 || c == width - 1) ? OUT : 0;
    }
    sq[idx(n / 2 - 1, n / 2 - 1)] = sq[idx(n / 2, n / 2)] = 2;
    sq[idx(n / 2 - 1, n / 2)] = sq[idx(n / 2, n / 2 - 1)] = 1;
}

static int make(char *b, int at, int p)
{
    int flipped = 0;
    if (b[at]) return 0;
    for (int k = 0; k < 8; k++) {
        int q = at + dirs[k];
        while (b[q] == 3 - p) q += dirs[k];
        if (b[q] != p || q == at + dirs[k]) continue;
        for (q -= dirs[k]; q != at; q -= dirs[k]) { b[q] = (char)p; flipped++; }
    }
    if (flipped) b[at] = (char)p;
    return flipped;
}

static int material(const char *b, int p)
{
    int score = 0;
    for (int i = 0; i < width * width; i++) score += (b[i] == p) - (b[i] == 3 - p);
    return score;
}

static int reply_value(const char *b, int p)
{
    int worst = 1 << 20, any = 0;
    char copy[MAXW * MAXW];
    for (int i = 0; i < width * width; i++) {
        memcpy(copy, b, sizeof copy);
        if (!make(copy, i, 3 - p)) continue;
        any = 1;
        int v = material(copy, p);
        if (v < worst) worst = v;
    }
    return any ? worst : material(b, p);
}

static int search(int p)
{
    int best = -(1 << 20), move = -1;
    char copy[MAXW * MAXW];
    for (int i = 0; i < width * width; i++) {
        memcpy(copy, sq, sizeof copy);
        if (!make(copy, i, p)) continue;
        int v = reply_value(copy, p);
        if (v > best) { best = v; move = i; }
    }
    return move;
}

int main(int argc, char **argv)
{
    int size = 16, me = 1;
    char cmd[16];
    if (argc > 1 && sscanf(argv[1], "%d", &size) != 1) size = 16;
    if (size < 4 || size > 16 || size % 2) size = 16;
    setup(size);
    for (;;) {
        if (scanf("%15s", cmd) != 1) break;
        if (cmd[0] == 'S') {
            if (scanf("%d", &me) != 1) break;
            setup(size);
            printf("OK\n");
        } else if (cmd[0] == 'P') {
            int r, c;
            if (scanf("%d %d", &r, &c) != 2) break;
            make(sq, idx(r, c), 3 - me);
        } else if (cmd[0] == 'T') {
            int m = search(me);
            if (m < 0) { printf("DEBUG no move\n"); fflush(stdout); continue; }
            make(sq, m, me);
            printf("%d %d\n", m / width - 1, m % width - 1);
        } else if (cmd[0] == 'E') {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
