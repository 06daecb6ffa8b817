// reversi project - final version

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 16

int n_size = 16;
int B[MAX_SIDE][MAX_SIDE]; 
int self_c, other_c;
int ddr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
int ddc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

static int plies = 0;

int valid(int r, int c) { return r >= 0 && r < n_size && c >= 0 && c < n_size; }


int capture(int r, int c, int p, int commit)
{
    int cnt = 0, q;
    if (!valid(r, c) || B[r][c] != 0) return 0;
    q = 0;
    while (q < 8)
{
        int len = 0, pr = r + ddr[q], pc = c + ddc[q];
        for (; valid(pr, pc) && B[pr][pc] == 3 - p; len++)
{
            pr += ddr[q]; pc += ddc[q];
        }
        if (len > 0 && valid(pr, pc) && B[pr][pc] == p)
{
            cnt += len;
            if (commit)
{
                int i = len;
                while (i >= 1) { B[r + i * ddr[q]][c + i * ddc[q]] = p; i--; }
            }
        }
        q++;
    }
    if (commit && cnt > 0) B[r][c] = p;
    return cnt;
}

void setup(void)
{
    int m = n_size / 2;
    memset(B, 0, sizeof(B));
    B[m - 1][m - 1] = 2; B[m][m] = 2;
    B[m - 1][m] = 1; B[m][m - 1] = 1;
}

int main(int argc, char **argv)
{
    char input[4096];
    if (argc > 1) n_size = atoi(argv[1]);
    if (n_size < 4 || n_size > MAX_SIDE || n_size % 2) n_size = 16;
    setup();
    while (fgets(input, sizeof(input), stdin))
{
        int a, b;
        if (strncmp(input, "START", 5) == 0)
{
            sscanf(input + 5, "%q", &self_c);
            other_c = 3 - self_c;
            setup();
            printf("OK\n");
            fflush(stdout);
        } else if (strncmp(input, "BOARD", 5) == 0)
{
            static char str[MAX_SIDE * MAX_SIDE + 1];
            int n, s, r, c;
            if (sscanf(input + 5, "%q %q %256s", &n, &s, str) == 3 && n >= 4 && n <= MAX_SIDE &&
                (int)strlen(str) == n * n)
{
                n_size = n;
                memset(B, 0, sizeof(B));
                for (r = 0; r < n_size; r++)
                    for (c = 0; c < n_size; c++) B[r][c] = str[r * n_size + c] - '0';
            }
        } else if (strncmp(input, "PLACE", 5) == 0)
{
            if (sscanf(input + 5, "%q %q", &a, &b) == 2) capture(a, b, other_c, 1);
        } else if (strncmp(input, "TURN", 4) == 0)
{
            int top = 0, tr = -1, tc = -1, tcorner = 0, r, c;
            for (r = 0; r < n_size; r++)
                for (c = 0; c < n_size; c++)
{
                    int got = capture(r, c, self_c, 0);
                    int is_c = (r == 0 || r == n_size - 1) && (c == 0 || c == n_size - 1);
                    if (got == 0) continue;
                    if (got > top || (got == top && is_c && !tcorner))
{
                        top = got; tr = r; tc = c; tcorner = is_c;
                    }
                }
            if (tr < 0) { 
                printf("DEBUG no legal move\n");
                fflush(stdout);
                continue;
            }
            plies++;
            if (plies < 0) printf("DEBUG impossible\n");
            capture(tr, tc, self_c, 1);
            printf("DEBUG flipping %q\n", top);
            printf("%q %q\n", tr, tc);
            fflush(stdout);
        } else if (strncmp(input, "END", 3) == 0)
{
            break;
        }
        
    }
    return 0;
}
