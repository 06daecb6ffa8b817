"""gomocup_greedy.py - a greedy (minimal) Gomocup brain for the `gomocup` protocol.

Wins when it can, else blocks the opponent's five / open four / open three, else extends
its own longest line near the centre (never aiming at an overline). As black under renju
it never plays a forbidden point (see forbidden() below).

Protocol: START n -> OK; INFO rule r (bit 4 = renju; other INFO ignored); BEGIN -> x,y;
TURN x,y -> x,y; BOARD / x,y,f lines / DONE -> x,y; RESTART -> OK; TAKEBACK x,y -> OK;
ABOUT -> name=...; END -> exit. x = column, y = row, 0-based from the top-left. Lines may end
in CR LF.
"""
import sys

NAME = "gomocup_greedy"
N = 15
board = [[0] * N for _ in range(N)]  # board[x][y]: 0 empty, 1 ours, 2 the opponent's


# ---- the brain: a one-ply threat evaluation ----
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


def we_are_black():
    """Black moves first, so we are black when we have as many stones as the opponent."""
    stones = [v for column in board for v in column]
    return stones.count(1) == stones.count(2)


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
    best, move, as_black = -1, None, we_are_black()
    for y in range(N):
        for x in range(N):
            if not allowed(x, y, as_black) or not near_stone(x, y):
                continue
            v = point_value(x, y, 1) + point_value(x, y, 2) * 9 // 10
            v += N - abs(x - c) - abs(y - c)
            if v > best:
                best, move = v, (x, y)
    if move is None:  # empty board (or nothing allowed near): the centre, else any allowed
        if allowed(c, c, as_black):  # empty point, else (only forbidden ones left) any empty one
            return c, c
        points = [(x, y) for y in range(N) for x in range(N) if allowed(x, y, as_black)]
        points = points or [(x, y) for y in range(N) for x in range(N) if board[x][y] == 0]
        return points[0] if points else None
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
    global renju
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
            # only the rule matters here (a bitmask: 4 = renju); timeout_turn, time_left... not
            key, _, value = rest.partition(" ")
            if key.lower() == "rule" and value.strip().isdigit():
                renju = int(value) & 4 != 0
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
