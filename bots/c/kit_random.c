/* Plays any game-kit game through the kit's line protocol (docs/game-kit.md): a random legal
 * move from the LEGAL line. Position lines are read and skipped. Seeded from ARBITER_SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1 << 20)

static char line[MAX_LINE];
static char legal[MAX_LINE];

/* The k-th space-separated word of s (0-based) into out. */
static void word(const char *s, int k, char *out, size_t cap) {
    while (*s == ' ') s++;
    for (; k > 0 && *s; k--) {
        while (*s && *s != ' ') s++;
        while (*s == ' ') s++;
    }
    size_t n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\n' && n + 1 < cap) { out[n] = s[n]; n++; }
    out[n] = 0;
}

int main(void) {
    const char *seed = getenv("ARBITER_SEED");
    srand(seed ? (unsigned)strtoul(seed, NULL, 10) : 1u);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "START", 5) == 0) {
            puts("OK");
        } else if (strncmp(line, "POSITION ", 9) == 0) {
            int k = atoi(line + 9);
            for (int i = 0; i < k && fgets(line, sizeof line, stdin); i++) {}
        } else if (strncmp(line, "LEGAL", 5) == 0) {
            strcpy(legal, line + 5);
        } else if (strncmp(line, "TURN", 4) == 0) {
            int n = 0;
            for (char *p = legal; *p; p++)
                if (*p != ' ' && *p != '\n' && (p == legal || p[-1] == ' ')) n++;
            char mv[256];
            word(legal, n > 0 ? rand() % n : 0, mv, sizeof mv);
            printf("DEBUG %d legal moves\n%s\n", n, mv);
        } else if (strncmp(line, "END", 3) == 0) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}
