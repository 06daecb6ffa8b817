"""gomocup_greedy.py - a greedy (minimal) Gomocup brain for the `gomocup` protocol.

Wins when it can, else blocks the opponent's five / open four / open three, else extends
its own longest line near the centre (never aiming at an overline).

Protocol: START n -> OK; INFO ... (ignored); BEGIN -> x,y; TURN x,y -> x,y;
BOARD / x,y,f lines / DONE -> x,y; RESTART -> OK; TAKEBACK x,y -> OK; ABOUT -> name=...;
END -> exit. x = column, y = row, 0-based from the top-left. Lines may end in CR LF.
"""
import sys

NAME = "gomocup_greedy"
N = 15
board = [[0] * N for _ in range(N)]  # board[x][y]: 0 empty, 1 ours, 2 the opponent's


# ---- the brain: a one-ply threat evaluation ----
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def inside(x, y):
    return 0 <= x < N and 0 <= y < N


def run_value(length, open_ends, own):
    """Value of a run of stones; our own overlines are worth nothing (they do not win under
    renju or the standard rule, so we never aim for them)."""
    if length == 5:
        return 10000000
    if length > 5:
        return 0 if own else 10000000
    if open_ends == 0:
        return 0
    if length == 4:
        return 500000 if open_ends == 2 else 20000
    if length == 3:
        return 15000 if open_ends == 2 else 800
    if length == 2:
        return 400 if open_ends == 2 else 40
    return 10 * open_ends


def point_value(x, y, who):
    """What a stone of `who` (1 us, 2 the opponent) on the empty (x, y) would make."""
    total = 0
    for dx, dy in DIRS:
        length, open_ends = 1, 0
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while inside(cx, cy) and board[cx][cy] == who:
                cx += s * dx
                cy += s * dy
                length += 1
            if inside(cx, cy) and board[cx][cy] == 0:
                open_ends += 1
        total += run_value(length, open_ends, who == 1)
    return total


def near_stone(x, y):
    return any(inside(x + i, y + j) and board[x + i][y + j] != 0
               for i in range(-2, 3) for j in range(-2, 3))


def think():
    """Win if we can, else block (the opponent's value counts 9/10), else build, near the centre."""
    c = N // 2
    best, move = -1, None
    for y in range(N):
        for x in range(N):
            if board[x][y] != 0 or not near_stone(x, y):
                continue
            v = point_value(x, y, 1) + point_value(x, y, 2) * 9 // 10
            v += N - abs(x - c) - abs(y - c)
            if v > best:
                best, move = v, (x, y)
    if move is None:
        if board[c][c] == 0:
            return c, c
        empty = [(x, y) for y in range(N) for x in range(N) if board[x][y] == 0]
        return empty[0] if empty else None
    return move


# ---- the protocol ----
def answer():
    move = think()
    if move is None:
        print("ERROR no empty point", flush=True)
        return
    x, y = move
    board[x][y] = 1
    print("%d,%d" % (x, y), flush=True)


def clear(size):
    global N, board
    N = size
    board = [[0] * N for _ in range(N)]


def main():
    lines = iter(sys.stdin.readline, "")
    for line in lines:
        line = line.strip()  # CR LF or LF
        if not line:
            continue
        cmd, _, rest = line.partition(" ")
        cmd = cmd.upper()
        if cmd == "START":
            try:
                size = int(rest)
            except ValueError:
                size = 0
            if 5 <= size <= 32:
                clear(size)
                print("OK", flush=True)
            else:
                print("ERROR unsupported size", flush=True)
        elif cmd == "RESTART":
            clear(N)
            print("OK", flush=True)
        elif cmd == "INFO":
            pass  # timeout_turn, rule, time_left...: a simple brain needs none of them
        elif cmd == "BEGIN":
            answer()
        elif cmd == "TURN":
            x, y = (int(v) for v in rest.split(","))
            if inside(x, y):
                board[x][y] = 2
            answer()
        elif cmd == "BOARD":
            clear(N)
            for row in lines:
                row = row.strip()
                if row.upper() == "DONE":
                    break
                parts = row.split(",")
                if len(parts) == 3:
                    x, y, f = (int(v) for v in parts)
                    if inside(x, y) and f in (1, 2):
                        board[x][y] = f
            answer()
        elif cmd == "TAKEBACK":
            x, y = (int(v) for v in rest.split(","))
            if inside(x, y):
                board[x][y] = 0
            print("OK", flush=True)
        elif cmd == "ABOUT":
            print('name="%s", version="1.0", author="arbiter samples", country="-"' % NAME, flush=True)
        elif cmd == "END":
            break
        else:
            print("UNKNOWN " + line, flush=True)


if __name__ == "__main__":
    main()
