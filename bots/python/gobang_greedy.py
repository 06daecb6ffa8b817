"""gobang_greedy.py - a greedy Gomoku bot for the `gobang` protocol (seed 003).

Wins when it can, else blocks the opponent's five / open four / open three, else extends
its own longest line near the centre (never aiming at an overline).

Protocol: print READY; read BLACK or WHITE; then moves both ways as `MOVE H8` (column
letter A = left, row number 1 = bottom). Black moves right after BLACK. 15 x 15 board.
No end command: the referee kills the bot when the game is over (EOF also ends it).
"""
import sys

NAME = "gobang_greedy"
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
def main():
    print("READY", flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line == "BLACK":
            x, y = think()
            board[x][y] = 1
            print("MOVE %s%d" % (chr(ord("A") + x), N - y), flush=True)
        elif line == "WHITE":
            pass  # wait for black's first move
        elif line.startswith("MOVE"):
            text = line[4:].strip()
            x, y = ord(text[0]) - ord("A"), N - int(text[1:])
            if inside(x, y):
                board[x][y] = 2
            move = think()
            if move is None:
                continue
            x, y = move
            board[x][y] = 1
            print("MOVE %s%d" % (chr(ord("A") + x), N - y), flush=True)
        # anything else: ignore


if __name__ == "__main__":
    main()
