#include "saiblo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t read_exact(char *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        size_t r = fread(buf + got, 1, n - got, stdin);
        if (r == 0) break;
        got += r;
    }
    return got;
}

int saiblo_receive(char **body, size_t *len) {
    char head[9];
    size_t got = read_exact(head, 8);
    if (got == 0) return 0;
    if (got < 8) return -1;
    head[8] = 0;
    size_t n = 0;
    for (int i = 0; i < 8; i++) {
        if (head[i] < '0' || head[i] > '9') return -1;
        n = n * 10 + (size_t)(head[i] - '0');
    }
    char *buf = malloc(n + 1);
    if (!buf) return -1;
    if (read_exact(buf, n) < n) {
        free(buf);
        return -1;
    }
    buf[n] = 0;
    *body = buf;
    *len = n;
    return 1;
}

int saiblo_send(const char *data, size_t len) {
    unsigned char head[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16),
                             (unsigned char)(len >> 8), (unsigned char)len};
    if (fwrite(head, 1, 4, stdout) != 4 || fwrite(data, 1, len, stdout) != len) return -1;
    return fflush(stdout) == 0 ? 0 : -1;
}

static int plain = 0;
static char *msg = NULL;     /* the current message */
static size_t msg_len = 0, msg_pos = 0;
static char *line = NULL;    /* the line handed out */
static size_t line_cap = 0;
static char *debug = NULL;   /* DEBUG lines waiting for the next answer */
static size_t debug_len = 0;

void saiblo_plain_lines(int on) { plain = on; }

static void keep(const char *s, size_t n) {
    if (n + 1 > line_cap) {
        line_cap = n + 64;
        line = realloc(line, line_cap);
        if (!line) exit(1);
    }
    memcpy(line, s, n);
    line[n] = 0;
}

const char *saiblo_read_line(void) {
    if (plain) {
        ssize_t r = getline(&line, &line_cap, stdin);
        if (r < 0) return NULL;
        while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r')) line[--r] = 0;
        return line;
    }
    while (!msg || msg_pos >= msg_len) {
        free(msg);
        msg = NULL;
        if (saiblo_receive(&msg, &msg_len) != 1) return NULL;
        msg_pos = 0;
    }
    const char *start = msg + msg_pos;
    const char *nl = memchr(start, '\n', msg_len - msg_pos);
    size_t n = nl ? (size_t)(nl - start) : msg_len - msg_pos;
    msg_pos += n + (nl ? 1 : 0);
    if (n > 0 && start[n - 1] == '\r') n--;
    keep(start, n);
    return line;
}

void saiblo_write_line(const char *text) {
    size_t n = strlen(text);
    if (plain) {
        fwrite(text, 1, n, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        return;
    }
    int is_debug = strncmp(text, "DEBUG", 5) == 0 && (text[5] == 0 || text[5] == ' ');
    debug = realloc(debug, debug_len + n + 2);
    if (!debug) exit(1);
    memcpy(debug + debug_len, text, n);
    debug_len += n;
    debug[debug_len++] = '\n';
    if (!is_debug) {
        saiblo_send(debug, debug_len);
        debug_len = 0;
    }
}
