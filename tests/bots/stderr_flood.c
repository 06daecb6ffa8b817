/* Writes argv[1] MB (default 20) to stderr, ending with "END-OF-FLOOD\n",
   then says "done <bytes>" on stdout and echoes one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long mb = argc > 1 ? atol(argv[1]) : 20, total = 0;
    static char buf[1 << 20];
    memset(buf, 'e', sizeof buf);
    for (long i = 0; i < mb; i++) {
        size_t off = 0;
        while (off < sizeof buf) {
            ssize_t w = write(2, buf + off, sizeof buf - off);
            if (w <= 0) return 1;
            off += (size_t)w;
            total += w;
        }
    }
    const char *end = "END-OF-FLOOD\n";
    if (write(2, end, strlen(end)) < 0) return 1;
    total += (long)strlen(end);
    printf("done %ld\n", total);
    fflush(stdout);
    char line[256];
    if (fgets(line, sizeof line, stdin)) { fputs(line, stdout); fflush(stdout); }
    return 0;
}
