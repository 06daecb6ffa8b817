/* c-nim: Nim as an arbiter game-kit module in plain C, without libc: the ABI of
 * docs/game-kit.md by hand (a bump allocator, a small JSON reader, an answer writer).
 *
 *   clang --target=wasm32 -O2 -nostdlib -Wall -Wextra -Wl,--no-entry -o c-nim.wasm nim.c
 *
 * Rules: heaps of stones (default 3, 4, 5; config {"heaps": [...]}: 1 to 8 heaps of 1 to 20
 * stones). A move takes one or more stones from one heap; whoever takes the last stone wins.
 * Notation: the heap's letter and the count, `b2` = two stones from heap b. Each seat is told
 * `HEAPS 3 4 5`. The seed is read and unused: Nim has no chance.
 */
#include <stddef.h>
#include <stdint.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* clang may turn loops and struct copies into calls of these; there is no libc to link. */
void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}
void *memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

static int same(const char *a, const char *b, uint32_t n) {
    while (n--)
        if (*a++ != *b++) return 0;
    return 1;
}

/* ---- The allocator: the host asks for one request buffer per call and gives it back after
 * the call, so a bump allocator over the memory after the static data is enough. It grows the
 * memory when a request is larger than what is there; a free of the last block takes it back. */

extern unsigned char __heap_base; /* defined by wasm-ld: the first byte after the data */
static uintptr_t heap_top;

EXPORT("arbiter_abi_version") int32_t abi_version(void) { return 1; }

EXPORT("arbiter_alloc") void *arbiter_alloc(int32_t len) {
    if (len < 0) return 0;
    if (!heap_top) heap_top = (uintptr_t)&__heap_base;
    uintptr_t p = (heap_top + 7) & ~(uintptr_t)7;
    uintptr_t end = p + (uint32_t)len;
    uintptr_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end < p) return 0;
    if (end > have) {
        size_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
    }
    heap_top = end;
    return (void *)p;
}

EXPORT("arbiter_free") void arbiter_free(void *ptr, int32_t len) {
    if ((uintptr_t)ptr + (uint32_t)len == heap_top) heap_top = (uintptr_t)ptr;
}

/* ---- The game. */

#define MAX_HEAPS 8
#define MAX_STONES 20
#define MAX_STATES 65536

typedef struct {
    uint8_t used, heaps, seat, over;
    uint8_t heap[MAX_HEAPS];
    uint8_t width;                 /* the largest start heap: the view's columns */
    uint8_t last_heap, last_take;  /* last_take 0: no move yet */
} Nim;

/* Handle h is states[h]; freed handles are reused first. */
static Nim states[MAX_STATES + 1];
static uint32_t free_handles[MAX_STATES], free_count, next_handle = 1;

static uint32_t new_handle(void) {
    if (free_count) return free_handles[--free_count];
    if (next_handle > MAX_STATES) return 0;
    return next_handle++;
}

static Nim *lookup(uint64_t h) {
    if (h == 0 || h > MAX_STATES || !states[h].used) return 0;
    return &states[h];
}

static int stones_left(const Nim *g) {
    int n = 0;
    for (int i = 0; i < g->heaps; i++) n += g->heap[i];
    return n;
}

/* ---- The answer: one static buffer, valid until the next call as the ABI asks. */

static char out[1 << 16];
static uint32_t out_len;
static int out_full;

static void put_char(char c) {
    if (out_len < sizeof out) out[out_len++] = c;
    else out_full = 1;
}
static void put(const char *s) {
    while (*s) put_char(*s++);
}
static void put_u64(uint64_t v) {
    char digits[20];
    int n = 0;
    do digits[n++] = (char)('0' + v % 10), v /= 10;
    while (v);
    while (n) put_char(digits[--n]);
}
/* Text inside a JSON string: quotes, backslashes and control bytes escaped; bytes above ASCII
 * become '?' (an echoed move may be cut in the middle of a UTF-8 sequence). */
static void put_escaped(const char *s, uint32_t len) {
    for (uint32_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') put_char('\\'), put_char((char)c);
        else if (c < 0x20 || c >= 0x7f) put_char('?');
        else put_char((char)c);
    }
}
static void put_error(const char *why) {
    out_len = 0;
    put("{\"error\":\"");
    put(why);
    put("\"}");
}

/* ---- A minimal JSON reader: enough to find the request's fields and skip the rest. */

typedef struct {
    const unsigned char *p, *end;
} Reader;

static int peek(Reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
    return r->p < r->end ? *r->p : -1;
}
static int eat(Reader *r, char c) {
    if (peek(r) != c) return 0;
    r->p++;
    return 1;
}
static int word(Reader *r, const char *w) {
    peek(r);
    const unsigned char *p = r->p;
    for (; *w; w++, p++)
        if (p >= r->end || *p != (unsigned char)*w) return 0;
    r->p = p;
    return 1;
}

/* A string into buf (at most cap - 1 bytes kept, NUL-terminated; *len the full length, so that
 * a caller sees a cut). Escapes decode to their character; \uXXXX outside ASCII to '?'. */
static int read_string(Reader *r, char *buf, uint32_t cap, uint32_t *len) {
    if (!eat(r, '"')) return 0;
    uint32_t n = 0;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = *r->p++;
        if (c < 0x20) return 0;
        if (c == '\\') {
            if (r->p >= r->end) return 0;
            c = *r->p++;
            switch (c) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                uint32_t u = 0;
                for (int i = 0; i < 4; i++) {
                    if (r->p >= r->end) return 0;
                    unsigned char h = *r->p++;
                    uint32_t d = h >= '0' && h <= '9'   ? h - '0'
                                 : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                 : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                        : 16;
                    if (d == 16) return 0;
                    u = u * 16 + d;
                }
                c = u > 0 && u < 0x80 ? (unsigned char)u : '?';
                break;
            }
            default: return 0;
            }
        }
        if (buf && n + 1 < cap) buf[n] = (char)c;
        n++;
    }
    if (!eat(r, '"')) return 0;
    if (buf) buf[n + 1 < cap ? n : cap - 1] = 0;
    if (len) *len = n;
    return 1;
}

/* A JSON number; 1 = valid JSON. *whole says whether it is a whole number >= 0 that fits in 64
 * bits, and then *v holds it. */
static int read_number(Reader *r, uint64_t *v, int *whole) {
    peek(r);
    const unsigned char *p = r->p, *e = r->end;
    int neg = 0, ok = 1, digits = 0;
    uint64_t n = 0;
    if (p < e && *p == '-') neg = 1, p++;
    if (p < e && *p == '0') p++, digits = 1;
    else
        while (p < e && *p >= '0' && *p <= '9') {
            uint64_t d = (uint64_t)(*p++ - '0');
            if (n > (UINT64_MAX - d) / 10) ok = 0;
            n = n * 10 + d;
            digits++;
        }
    if (!digits) return 0;
    if (p < e && *p == '.') {
        p++, ok = 0;
        if (p >= e || *p < '0' || *p > '9') return 0;
        while (p < e && *p >= '0' && *p <= '9') p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++, ok = 0;
        if (p < e && (*p == '+' || *p == '-')) p++;
        if (p >= e || *p < '0' || *p > '9') return 0;
        while (p < e && *p >= '0' && *p <= '9') p++;
    }
    r->p = p;
    *whole = ok && !neg;
    *v = n;
    return 1;
}

/* Skips one value of any kind; nesting deeper than 64 is refused rather than followed down
 * the stack. */
static int skip(Reader *r, int depth) {
    uint64_t v;
    int whole;
    if (depth > 64) return 0;
    switch (peek(r)) {
    case '"': return read_string(r, 0, 0, 0);
    case '{':
        r->p++;
        if (eat(r, '}')) return 1;
        do {
            if (!read_string(r, 0, 0, 0) || !eat(r, ':') || !skip(r, depth + 1)) return 0;
        } while (eat(r, ','));
        return eat(r, '}');
    case '[':
        r->p++;
        if (eat(r, ']')) return 1;
        do
            if (!skip(r, depth + 1)) return 0;
        while (eat(r, ','));
        return eat(r, ']');
    case 't': return word(r, "true");
    case 'f': return word(r, "false");
    case 'n': return word(r, "null");
    default: return read_number(r, &v, &whole);
    }
}

/* ---- Requests. */

typedef struct {
    char op[16], move[16];
    uint32_t op_len, move_len;
    int has_op, has_move, has_state, has_seat;
    uint64_t state, seat, seed;
    const unsigned char *config, *config_end; /* the config's text, or 0 */
    const char *bad;                          /* why the request is unusable, or 0 */
} Request;

/* A field that must be a whole number (null counts as absent, as the Rust SDK reads it). */
static int field_number(Reader *r, int *has, uint64_t *v, const char *bad, Request *q) {
    int whole;
    if (word(r, "null")) return 1;
    if (!read_number(r, v, &whole)) return 0;
    if (!whole && !q->bad) q->bad = bad;
    *has = whole;
    return 1;
}

static int field_string(Reader *r, int *has, char *buf, uint32_t cap, uint32_t *len,
                        const char *bad, Request *q) {
    if (word(r, "null")) return 1;
    if (peek(r) != '"') {
        if (!q->bad) q->bad = bad;
        return skip(r, 1);
    }
    if (!read_string(r, buf, cap, len)) return 0;
    *has = 1;
    return 1;
}

/* 1 when the request is JSON (its fields in q, or q->bad set); 0 when it is not. */
static int parse_request(const unsigned char *text, uint32_t len, Request *q) {
    Reader r = {text, text + len};
    int ignored = 0;
    if (!eat(&r, '{')) return 0;
    if (!eat(&r, '}')) {
        do {
            char key[16];
            uint32_t klen;
            if (!read_string(&r, key, sizeof key, &klen) || !eat(&r, ':')) return 0;
            int ok;
#define KEY(k) (klen == sizeof(k) - 1 && same(key, k, klen))
            if (KEY("op"))
                ok = field_string(&r, &q->has_op, q->op, sizeof q->op, &q->op_len,
                                  "op must be a string", q);
            else if (KEY("move"))
                ok = field_string(&r, &q->has_move, q->move, sizeof q->move, &q->move_len,
                                  "move must be a string", q);
            else if (KEY("state"))
                ok = field_number(&r, &q->has_state, &q->state, "state must be a whole number", q);
            else if (KEY("seat"))
                ok = field_number(&r, &q->has_seat, &q->seat, "seat must be a whole number", q);
            else if (KEY("seed"))
                ok = field_number(&r, &ignored, &q->seed, "seed must be a whole number", q);
            else if (KEY("config")) {
                peek(&r);
                q->config = r.p;
                ok = skip(&r, 1);
                q->config_end = r.p;
            } else
                ok = skip(&r, 1); /* unknown fields are ignored, as the ABI asks */
#undef KEY
            if (!ok) return 0;
        } while (eat(&r, ','));
        if (!eat(&r, '}')) return 0;
    }
    return peek(&r) == -1;
}

/* The config: null or an object; "heaps" a list of 1..8 whole numbers 1..20; other keys are
 * ignored. Returns 0 or why not. */
static const char *read_config(const Request *q, Nim *g) {
    static const char bad_heaps[] = "heaps must be a list of 1 to 8 whole numbers from 1 to 20";
    g->heaps = 3;
    g->heap[0] = 3, g->heap[1] = 4, g->heap[2] = 5;
    if (!q->config) return 0;
    Reader r = {q->config, q->config_end};
    if (word(&r, "null")) return 0;
    if (!eat(&r, '{')) return "config must be an object";
    if (eat(&r, '}')) return 0;
    do {
        char key[16];
        uint32_t klen;
        read_string(&r, key, sizeof key, &klen);
        eat(&r, ':');
        if (klen == 5 && same(key, "heaps", 5)) {
            int n = 0;
            if (!eat(&r, '[')) return bad_heaps;
            if (!eat(&r, ']')) {
                do {
                    uint64_t v;
                    int whole;
                    if (!read_number(&r, &v, &whole) || !whole || v < 1 || v > MAX_STONES ||
                        n == MAX_HEAPS)
                        return bad_heaps;
                    g->heap[n++] = (uint8_t)v;
                } while (eat(&r, ','));
                if (!eat(&r, ']')) return bad_heaps;
            }
            if (n == 0) return bad_heaps;
            g->heaps = (uint8_t)n;
        } else {
            skip(&r, 1); /* the request parsed, so this is a valid value */
        }
    } while (eat(&r, ','));
    return 0;
}

/* "b2" -> heap 1, two stones; 0 when the text is no move of this position. */
static const char *read_move(const Nim *g, const Request *q, int *heap, int *take) {
    const char *m = q->move;
    uint32_t n = q->move_len;
    if (n < 2 || n > 3 || m[0] < 'a' || m[0] >= 'a' + g->heaps || m[1] < '1' || m[1] > '9')
        return "is not a move like b2 (two stones from heap b)";
    int t = m[1] - '0';
    if (n == 3) {
        if (m[2] < '0' || m[2] > '9') return "is not a move like b2 (two stones from heap b)";
        t = t * 10 + (m[2] - '0');
    }
    *heap = m[0] - 'a';
    *take = t;
    if (t > g->heap[*heap]) return "takes more stones than the heap has";
    return 0;
}

static const char *const seat_names[2] = {"first", "second"};

static void put_outcome(const Nim *g) {
    /* Over means the seat that moved last took the last stone. */
    int w = 1 - g->seat;
    put("{\"winner\":");
    put_u64((uint64_t)w);
    put(w ? ",\"scores\":[0,1]" : ",\"scores\":[1,0]");
    put(",\"reason\":\"");
    put(seat_names[w]);
    put(" took the last stone\"}");
}

static void op_status(const Nim *g) {
    put("{\"ok\":{\"to_move\":");
    if (g->over) put("null");
    else put_u64(g->seat);
    put(",\"forced\":null,\"scores\":");
    if (!g->over) put("[0,0]");
    else put(g->seat ? "[1,0]" : "[0,1]");
    put(",\"outcome\":");
    if (g->over) put_outcome(g);
    else put("null");
    put("}}");
}

static void op_legal(const Nim *g) {
    put("{\"ok\":[");
    int first = 1;
    for (int h = 0; h < g->heaps && !g->over; h++)
        for (int t = 1; t <= g->heap[h]; t++) {
            if (!first) put_char(',');
            first = 0;
            put_char('"');
            put_char((char)('a' + h));
            put_u64((uint64_t)t);
            put_char('"');
        }
    put("]}");
}

static void op_play(Nim *g, const Request *q) {
    int heap = 0, take = 0;
    const char *why = 0;
    if (!q->has_move) {
        put_error("play needs a move");
        return;
    }
    if (g->over) why = "the game is over";
    else if (q->move_len >= sizeof q->move)
        why = "is not a move like b2 (two stones from heap b)";
    else why = read_move(g, q, &heap, &take);
    if (why) {
        put("{\"illegal\":\"");
        if (!g->over) {
            /* Name the move, cut to what was kept, as the Rust games do. */
            put_char('\\'), put_char('"');
            put_escaped(q->move, q->move_len < sizeof q->move ? q->move_len : sizeof q->move - 1);
            put("\\\" ");
        }
        put(why);
        put("\"}");
        return;
    }
    g->heap[heap] = (uint8_t)(g->heap[heap] - take);
    g->last_heap = (uint8_t)heap, g->last_take = (uint8_t)take;
    g->seat ^= 1;
    g->over = stones_left(g) == 0;
    put("{\"ok\":null}");
}

static void op_tell(const Nim *g) {
    put("{\"ok\":\"HEAPS");
    for (int h = 0; h < g->heaps; h++) put_char(' '), put_u64(g->heap[h]);
    put("\"}");
}

static void put_at(int col, int row) {
    put("{\"at\":[");
    put_u64((uint64_t)col);
    put_char(',');
    put_u64((uint64_t)row);
    put("],");
}

/* A cells board: heap h is row h (labelled a, b, ...), its stones neutral discs from the left;
 * the stones the last move took are marked where they were. */
static void op_view(const Nim *g) {
    put("{\"ok\":{\"board\":{\"grid\":\"cells\",\"cols\":");
    put_u64(g->width);
    put(",\"rows\":");
    put_u64(g->heaps);
    put(",\"col_labels\":[],\"row_labels\":[");
    for (int h = 0; h < g->heaps; h++) {
        if (h) put_char(',');
        put_char('"'), put_char((char)('a' + h)), put_char('"');
    }
    put("]},\"pieces\":[");
    int first = 1;
    for (int h = 0; h < g->heaps; h++)
        for (int s = 0; s < g->heap[h]; s++) {
            if (!first) put_char(',');
            first = 0;
            put_at(s, h);
            put("\"shape\":\"disc\",\"seat\":null}");
        }
    put("],\"highlights\":[");
    for (int t = 0; t < g->last_take; t++) {
        if (t) put_char(',');
        put_at(g->heap[g->last_heap] + t, g->last_heap);
        put("\"mark\":\"last\"}");
    }
    put("],\"lines\":[],\"text\":[\"");
    if (g->over) put(seat_names[1 - g->seat]), put(" took the last stone");
    else put(seat_names[g->seat]), put(" to move");
    put("\"]}}");
}

static void op_new(const Request *q) {
    Nim g;
    memset(&g, 0, sizeof g);
    const char *why = read_config(q, &g);
    if (why) {
        put_error(why);
        return;
    }
    for (int h = 0; h < g.heaps; h++)
        if (g.heap[h] > g.width) g.width = g.heap[h];
    uint32_t h = new_handle();
    if (!h) {
        put_error("too many states (drop some)");
        return;
    }
    g.used = 1;
    states[h] = g;
    put("{\"ok\":{\"state\":");
    put_u64(h);
    put("}}");
}

#define OP(name) (q.op_len == sizeof(name) - 1 && same(q.op, name, q.op_len))

static void handle(const unsigned char *text, uint32_t len) {
    Request q;
    memset(&q, 0, sizeof q);
    if (!parse_request(text, len, &q)) {
        put_error("request is not valid JSON (or not an object)");
        return;
    }
    if (q.bad) {
        put_error(q.bad);
        return;
    }
    if (!q.has_op) {
        put_error("the request has no op");
        return;
    }
    if (OP("info")) {
        put("{\"ok\":{\"name\":\"c-nim\",\"version\":\"1.0.0\",\"seats\":2,\"abi\":1}}");
        return;
    }
    if (OP("new")) {
        op_new(&q);
        return;
    }
    int known = OP("clone") || OP("drop") || OP("status") || OP("legal") || OP("play") ||
                OP("tell") || OP("view");
    if (!known) {
        put("{\"error\":\"unknown op \\\"");
        put_escaped(q.op, q.op_len < sizeof q.op ? q.op_len : sizeof q.op - 1);
        put("\\\"\"}");
        return;
    }
    if (!q.has_state) {
        put_error("this op needs a state");
        return;
    }
    Nim *g = lookup(q.state);
    if (!g) {
        put("{\"error\":\"no state ");
        put_u64(q.state);
        put("\"}");
        return;
    }
    if (OP("clone")) {
        uint32_t h = new_handle();
        if (!h) {
            put_error("too many states (drop some)");
            return;
        }
        states[h] = *g;
        put("{\"ok\":{\"state\":");
        put_u64(h);
        put("}}");
    } else if (OP("drop")) {
        g->used = 0;
        free_handles[free_count++] = (uint32_t)q.state;
        put("{\"ok\":null}");
    } else if (OP("status")) {
        op_status(g);
    } else if (OP("legal")) {
        op_legal(g);
    } else if (OP("play")) {
        op_play(g, &q);
    } else if (OP("tell")) {
        if (!q.has_seat || q.seat > 1) put_error("tell needs a seat of the game");
        else op_tell(g);
    } else {
        op_view(g);
    }
}

EXPORT("arbiter_call") int64_t arbiter_call(const unsigned char *request, int32_t len) {
    out_len = 0;
    out_full = 0;
    handle(request, len < 0 ? 0 : (uint32_t)len); /* JSON request -> JSON answer in out */
    if (out_full) put_error("the answer did not fit in 64 KiB");
    return (int64_t)(((uint64_t)(uintptr_t)out << 32) | out_len);
}
