/* Reversi player: minimise the opponent's mobility after our move. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

typedef struct {
    int size;
    unsigned char cell[256];
} Game;

static const int STEP[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static int at(const Game *g, int y, int x) {
    if (y < 0 || x < 0 || y >= g->size || x >= g->size) return -1;
    return g->cell[y * g->size + x];
}

static int turn_over(Game *g, int y, int x, int colour, int commit) {
    int gained = 0;
    if (at(g, y, x) != 0) return 0;
    for (int s = 0; s < 8; s++) {
        int dy = STEP[s][0], dx = STEP[s][1];
        int run = 1;
        while (at(g, y + run * dy, x + run * dx) == 3 - colour) run++;
        if (run == 1 || at(g, y + run * dy, x + run * dx) != colour) continue;
        gained += run - 1;
        if (commit)
            for (int t = 1; t < run; t++) g->cell[(y + t * dy) * g->size + x + t * dx] = (unsigned char)colour;
    }
    if (commit && gained) g->cell[y * g->size + x] = (unsigned char)colour;
    return gained;
}

static int mobility(Game *g, int colour) {
    int count = 0;
    for (int i = 0; i < g->size * g->size; i++)
        if (turn_over(g, i / g->size, i % g->size, colour, 0)) count++;
    return count;
}

static void start(Game *g, int size) {
    g->size = size;
    memset(g->cell, 0, sizeof g->cell);
    int h = size / 2;
    g->cell[(h - 1) * size + h - 1] = g->cell[h * size + h] = 2;
    g->cell[(h - 1) * size + h] = g->cell[h * size + h - 1] = 1;
}

static int pick(Game *g, int colour) {
    int chosen = -1, score = 1 << 30;
    for (int i = 0; i < g->size * g->size; i++) {
        Game trial = *g;
        if (!turn_over(&trial, i / g->size, i % g->size, colour, 1)) continue;
        int reply = mobility(&trial, 3 - colour);
        if (reply < score) { score = reply; chosen = i; }
    }
    return chosen;
}

int main(int argc, char *argv[]) {
    Game g;
    int size = argc > 1 ? atoi(argv[1]) : 16, colour = 1;
    char word[32];
    if (size < 4 || size > 16 || size % 2 != 0) size = 16;
    start(&g, size);
    while (scanf("%31s", word) == 1) {
        if (!strcmp(word, "START")) {
            if (scanf("%d", &colour) != 1) return 1;
            start(&g, size);
            puts("OK");
        } else if (!strcmp(word, "PLACE")) {
            int y, x;
            if (scanf("%d %d", &y, &x) != 2) return 1;
            turn_over(&g, y, x, 3 - colour, 1);
        } else if (!strcmp(word, "TURN")) {
            int i = pick(&g, colour);
            if (i < 0) { puts("DEBUG pass"); fflush(stdout); continue; }
            turn_over(&g, i / g.size, i % g.size, colour, 1);
            printf("%d %d\n", i / g.size, i % g.size);
        } else if (!strcmp(word, "END")) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}
