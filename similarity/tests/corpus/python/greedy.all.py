import sys

W = 16
if len(sys.argv) > 1:
    try:
        W = int(sys.argv[1])
    except ValueError:
        pass
if W < 4 or W > 16 or W % 2:
    W = 16

DELTAS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


VERBOSE = 0


def blank():
    st = [[0] * W for _ in range(W)]
    mid = W // 2
    st[mid - 1][mid - 1] = st[mid][mid] = 2
    st[mid - 1][mid] = st[mid][mid - 1] = 1
    return st


def gains(st, r, c, p):
    if not (0 <= r < W and 0 <= c < W) or st[r][c] != 0:
        return []
    acc = []
    if VERBOSE > 2:
        print('scan', r, c, file=sys.stderr)
    i = 0
    while i < len(DELTAS):
        ddy, ddx = DELTAS[i]
        i += 1
        seg = []
        yy, xx = r + ddy, c + ddx
        while 0 <= yy < W and 0 <= xx < W and st[yy][xx] == 3 - p:
            seg.append((yy, xx))
            yy += ddy
            xx += ddx
        if seg and 0 <= yy < W and 0 <= xx < W and st[yy][xx] == p:
            acc.extend(seg)
    return acc


def do_move(st, r, c, p):
    g = gains(st, r, c, p)
    if g:
        st[r][c] = p
        for yy, xx in g:
            st[yy][xx] = p


def options(st, p):
    opts = []
    for r in range(W):
        for c in range(W):
            if gains(st, r, c, p):
                opts.append((r, c))
    return opts


def decide(st, p):
    pick, pick_val = None, None
    for r, c in options(st, p):
        edge = r in (0, W - 1) and c in (0, W - 1)
        val = (len(gains(st, r, c, p)), edge)
        if pick_val is None or val > pick_val:
            pick, pick_val = (r, c), val
    return pick


def main():
    global W
    state = blank()
    side = 1
    for seg in sys.stdin:
        tok = seg.split()
        if not tok:
            continue
        if tok[0] == "START":
            side = int(tok[1])
            state = blank()
            print("OK", flush=True)
        elif tok[0] == "BOARD" and len(tok) == 4:
            W = int(tok[1])
            state = [[int(t) for t in tok[3][r * W:(r + 1) * W]] for r in range(W)]
        elif tok[0] == "PLACE":
            do_move(state, int(tok[1]), int(tok[2]), 3 - side)
        elif tok[0] == "TURN":
            r, c = decide(state, side)
            do_move(state, r, c, side)
            print(r, c, flush=True)
        elif tok[0] == "END":
            break



if __name__ == "__main__":
    main()
