/* Writes 1 GB of 'x' on stdout without any newline. */
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf);
    for (long total = 0; total < (1L << 30); total += (long)sizeof buf)
        if (write(1, buf, sizeof buf) < 0) return 1;
    return 0;
}
