"""gobang_random.py - a random Gomoku bot for the `gobang` protocol (seed 003).

Plays any empty point at random; as black under renju, any point not forbidden.

Protocol: print READY; read BLACK or WHITE; then moves both ways as `MOVE H8` (column
letter A = left, row number 1 = bottom). Black moves right after BLACK. 15 x 15 board.
No end command: the referee kills the bot when the game is over (EOF also ends it).
The protocol does not tell the rule: run it with `--renju` for renju games.
"""
import random
import sys

NAME = "gobang_random"
N = 15
board = [[0] * N for _ in range(N)]  # board[x][y]: 0 empty, 1 ours, 2 the opponent's
black = False  # True after BLACK
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def inside(x, y):
    return 0 <= x < N and 0 <= y < N


# ---- renju: the points black may not play ----
# Under renju black loses by playing a point that makes an overline (six or more in a row),
# two fours or two threes, unless the move also makes exactly five (a five always wins).
# Seen along one line through the point, with our stone on it:
# - a four: one more stone makes exactly five (.XXXX., X.XXX, XX.XX ...); X.XXX.X holds two;
# - a three: one more stone makes a straight four (four in a row, both ends open, each end
#   making exactly five), like .XXX.. or .XX.X.
# This test is conservative: it counts every three as real (the full rule drops a three whose
# straight-four points are all forbidden themselves), so it may refuse a few legal points but
# never lets us play a forbidden one. It reads our stones (1) as black.
renju = False


def forbidden(x, y):
    overline, fours, threes = False, 0, 0
    for dx, dy in DIRS:
        # c[5 + k]: the cell k steps away along (dx, dy); 1 ours, 0 empty, -1 else
        c = []
        for k in range(-5, 6):
            cx, cy = x + k * dx, y + k * dy
            if k == 0:
                c.append(1)
            elif not inside(cx, cy) or board[cx][cy] == 2:
                c.append(-1)
            else:
                c.append(board[cx][cy])
        run = 1
        for step in (1, -1):
            k = 5 + step
            while 0 <= k <= 10 and c[k] == 1:
                run += 1
                k += step
        if run == 5:
            return False  # exactly five: always allowed
        if run > 5:
            overline = True
            continue
        # fours: a 5-cell frame c[s..s+4] through the point holding four of ours and one
        # empty cell q, with none of ours just outside it (else q would make six)
        completions = set()
        for s in range(1, 6):
            frame = c[s:s + 5]
            if frame.count(1) == 4 and 0 in frame and c[s - 1] != 1 and c[s + 5] != 1:
                completions.add(s + frame.index(0))
        if completions:
            # two completions 5 apart finish the same straight four (.XXXX.): one four
            q = sorted(completions)
            fours += 1 if len(q) == 1 or (len(q) == 2 and q[1] - q[0] == 5) else 2
            continue
        # threes: a 4-cell frame c[s..s+3] through the point holding three of ours and one
        # empty cell, with both ends empty and none of ours beyond them
        if any(c[s:s + 4].count(1) == 3 and 0 in c[s:s + 4] and c[s - 1] == 0 and c[s + 4] == 0
               and c[s - 2] != 1 and c[s + 5] != 1 for s in range(2, 6)):
            threes += 1
    return overline or fours >= 2 or threes >= 2


def allowed(x, y, as_black):
    """May we play the empty (x, y)? Not on a forbidden point when we are black under renju."""
    return board[x][y] == 0 and not (renju and as_black and forbidden(x, y))


# ---- the brain: any empty point (as black under renju: any allowed one) ----
def think():
    as_black = black
    points = [(x, y) for y in range(N) for x in range(N) if allowed(x, y, as_black)]
    if not points:  # only forbidden points are left: any empty point
        points = [(x, y) for y in range(N) for x in range(N) if board[x][y] == 0]
    return random.choice(points) if points else None


# ---- the protocol ----
def main():
    global renju, black
    renju = "--renju" in sys.argv[1:]  # the protocol does not say the rule
    print("READY", flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line == "BLACK":
            black = True
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
