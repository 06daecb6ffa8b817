/* Reads 4-byte big-endian length-prefixed frames and writes them back. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
static int full_read(void *p, size_t n) {
    size_t off = 0;
    while (off < n) {
        ssize_t r = read(0, (char *)p + off, n - off);
        if (r <= 0) return -1;
        off += (size_t)r;
    }
    return 0;
}
static int full_write(const void *p, size_t n) {
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(1, (const char *)p + off, n - off);
        if (w <= 0) return -1;
        off += (size_t)w;
    }
    return 0;
}
int main(void) {
    for (;;) {
        unsigned char h[4];
        if (full_read(h, 4)) return 0;
        uint32_t len = ((uint32_t)h[0] << 24) | ((uint32_t)h[1] << 16) | ((uint32_t)h[2] << 8) | h[3];
        char *body = malloc(len ? len : 1);
        if (!body || full_read(body, len)) return 1;
        if (full_write(h, 4) || full_write(body, len)) return 1;
        free(body);
    }
}
