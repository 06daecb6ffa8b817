// Positional Reversi bot: a static weight per square, corners best, X-squares worst.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE_MAX 16
#define EMPTY 0

static int side = 16;
static int cells[SIDE_MAX * SIDE_MAX];
static int colour_self;

static int weight(int row, int col)
{
    int last = side - 1;
    int edge_r = row == 0 || row == last;
    int edge_c = col == 0 || col == last;
    int near_r = row == 1 || row == last - 1;
    int near_c = col == 1 || col == last - 1;
    if (edge_r && edge_c) return 100;
    if ((near_r && near_c) || (edge_r && near_c) || (near_r && edge_c)) return -25;
    if (edge_r || edge_c) return 10;
    return 1;
}

static int ray(int row, int col, int drow, int dcol, int who)
{
    int len = 0;
    row += drow;
    col += dcol;
    while (row >= 0 && row < side && col >= 0 && col < side) {
        int v = cells[row * side + col];
        if (v == who) return len;
        if (v == EMPTY) return 0;
        len++;
        row += drow;
        col += dcol;
    }
    return 0;
}

static int legal(int row, int col, int who, int apply)
{
    int any = 0;
    if (cells[row * side + col] != EMPTY) return 0;
    for (int drow = -1; drow <= 1; drow++) {
        for (int dcol = -1; dcol <= 1; dcol++) {
            if (!drow && !dcol) continue;
            int len = ray(row, col, drow, dcol, who);
            any += len;
            for (int j = 1; apply && j <= len; j++)
                cells[(row + j * drow) * side + col + j * dcol] = who;
        }
    }
    if (apply && any) cells[row * side + col] = who;
    return any > 0;
}

static void fresh(void)
{
    int h = side / 2;
    memset(cells, 0, sizeof cells);
    cells[(h - 1) * side + (h - 1)] = 2;
    cells[h * side + h] = 2;
    cells[(h - 1) * side + h] = 1;
    cells[h * side + (h - 1)] = 1;
}

int main(int argc, char **argv)
{
    char buffer[1024];
    if (argc == 2) side = atoi(argv[1]);
    if (side < 4 || side > SIDE_MAX || (side & 1)) side = 16;
    fresh();
    while (fgets(buffer, sizeof buffer, stdin) != NULL) {
        char *cmd = strtok(buffer, " \r\n");
        if (cmd == NULL) continue;
        if (strcmp(cmd, "START") == 0) {
            char *who = strtok(NULL, " \r\n");
            colour_self = who && who[0] == '2' ? 2 : 1;
            fresh();
            fputs("OK\n", stdout);
        } else if (strcmp(cmd, "PLACE") == 0) {
            char *a = strtok(NULL, " \r\n"), *b = strtok(NULL, " \r\n");
            if (a && b) legal(atoi(a), atoi(b), 3 - colour_self, 1);
        } else if (strcmp(cmd, "TURN") == 0) {
            int top = -1000, tr = 0, tc = 0;
            for (int row = 0; row < side; row++)
                for (int col = 0; col < side; col++)
                    if (legal(row, col, colour_self, 0) && weight(row, col) > top) {
                        top = weight(row, col);
                        tr = row;
                        tc = col;
                    }
            legal(tr, tc, colour_self, 1);
            fprintf(stdout, "%d %d\n", tr, tc);
        } else if (strcmp(cmd, "END") == 0) {
            break;
        }
        fflush(stdout);
    }
    return EXIT_SUCCESS;
}
