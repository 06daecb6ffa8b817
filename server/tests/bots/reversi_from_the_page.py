# A Reversi bot written from /protocols/reversi-board alone (which carries /protocols/reversi):
# its tables, its transcripts and the rules for every bot (flush every line; the board's side
# in ARBITER_SIZE).
import os
import sys

n = int(os.environ.get("ARBITER_SIZE", "8"))
board = [[0] * n for _ in range(n)]
h = n // 2
board[h - 1][h - 1] = board[h][h] = 2
board[h - 1][h] = board[h][h - 1] = 1
me = 1
DIRS = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]


def flips(r, c, who):
    if board[r][c]:
        return []
    out = []
    for dr, dc in DIRS:
        line = []
        y, x = r + dr, c + dc
        while 0 <= y < n and 0 <= x < n and board[y][x] == 3 - who:
            line.append((y, x))
            y, x = y + dr, x + dc
        if line and 0 <= y < n and 0 <= x < n and board[y][x] == who:
            out += line
    return out


def play(r, c, who):
    for y, x in flips(r, c, who):
        board[y][x] = who
    board[r][c] = who


def say(line):
    print(line, flush=True)


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "START":
        me = int(words[1])
        say("OK")
    elif words[0] == "BOARD":
        n = int(words[1])
        cells = words[3]
        board = [[int(cells[r * n + c]) for c in range(n)] for r in range(n)]
    elif words[0] == "PLACE":
        play(int(words[1]), int(words[2]), 3 - me)
    elif words[0] == "TURN":
        moves = [(len(flips(r, c, me)), r, c) for r in range(n) for c in range(n)]
        _, r, c = max(m for m in moves if m[0] > 0)
        play(r, c, me)
        say("DEBUG from the page")
        say(f"{r} {c}")
    elif words[0] == "END":
        break
