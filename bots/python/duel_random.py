"""duel_random.py - a random bot for the 2048 duel, arbiter's `duel` protocol.

Protocol: START s R (seat 0 = first, columns 0..3; 1 = second, columns 4..7; R rounds);
RANDOM v0 .. v(R-1) -> OK; PLACE r t o -> "ROW COL"; SLIDE r t o -> up|down|left|right;
OPPONENT d (ROW COL, a direction or skip); SKIP r; END f -> exit. (t, o: own and
opponent's remaining ms; this bot reads neither.)
The bot keeps its own copy of the board and implements the rules to know its legal moves.

Places on a random legal cell and slides in a random direction that changes the board.
"""
import random
import sys

ROWS, COLS = 4, 8
DIRECTIONS = ["up", "down", "left", "right"]

# level[r][c]: tile level (0 = empty); owner[r][c]: 0 (first, columns 0..3) or 1 (second,
# columns 4..7); an empty cell belongs to the owner of its half.
level = [[0] * COLS for _ in range(ROWS)]
owner = [[c // 4 for c in range(COLS)] for _ in range(ROWS)]
me = 0
array = []


def half(c):
    return 0 if c < COLS // 2 else 1


def place(r, c):
    """A placed tile has level 1 and belongs to the half it lands in, whoever placed it."""
    level[r][c] = 1
    owner[r][c] = half(c)


def next_cell(p, rnd):
    """next(p, round): p's empty cells row-major (reversed for the second player),
    element array[round] % count; None when p's half is full."""
    cells = [(r, c) for r in range(ROWS) for c in range(COLS) if level[r][c] == 0 and half(c) == p]
    if p == 1:
        cells.reverse()
    if not cells or not 0 <= rnd < len(array):
        return None
    return cells[array[rnd] % len(cells)]


def legal_places(p, rnd):
    out = [(r, c) for r in range(ROWS) for c in range(COLS) if level[r][c] == 0 and half(c) != p]
    own = next_cell(p, rnd)
    if own is not None:
        out.append(own)
    return out


def line_cells(d, k):
    """The cells of line k for direction d, front first."""
    if d == 0:
        return [(i, k) for i in range(ROWS)]
    if d == 1:
        return [(ROWS - 1 - i, k) for i in range(ROWS)]
    if d == 2:
        return [(k, i) for i in range(COLS)]
    return [(k, COLS - 1 - i) for i in range(COLS)]


def slide(L, O, p, d):
    """Slides p's tiles in direction d (0 up, 1 down, 2 left, 3 right) on (L, O); returns
    whether anything changed. Tiles go front first, through empty cells of p's own half only,
    then merge with an equal tile of either owner not made by this same slide."""
    changed = False
    for k in range(COLS if d < 2 else ROWS):
        cells = line_cells(d, k)
        merged = [False] * len(cells)
        for i in range(1, len(cells)):
            r, c = cells[i]
            lvl = L[r][c]
            if lvl == 0 or O[r][c] != p:
                continue
            pos = i
            while pos > 0:
                nr, nc = cells[pos - 1]
                if L[nr][nc] == 0 and half(nc) == p:
                    pos -= 1
                else:
                    break
            if pos > 0:
                nr, nc = cells[pos - 1]
                if L[nr][nc] == lvl and not merged[pos - 1]:
                    L[nr][nc], O[nr][nc] = lvl + 1, p
                    merged[pos - 1] = True
                    L[r][c], O[r][c] = 0, half(c)
                    changed = True
                    continue
            if pos != i:
                nr, nc = cells[pos]
                L[nr][nc], O[nr][nc] = lvl, p
                L[r][c], O[r][c] = 0, half(c)
                changed = True
    return changed


def slid(p, d):
    """The board after p slides in direction d, or None when that changes nothing."""
    L = [row[:] for row in level]
    O = [row[:] for row in owner]
    return (L, O) if slide(L, O, p, d) else None


# ---- the brain: a random legal decision ----
def think_place(rnd):
    return random.choice(legal_places(me, rnd))


def think_slide():
    return random.choice([d for d in range(4) if slid(me, d) is not None])


# ---- the protocol ----
def main():
    global me, array
    rounds = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "START":
            me, rounds = int(words[1]), int(words[2])
        elif cmd == "RANDOM":
            array = [int(v) for v in words[1:rounds + 1]]
            print("OK", flush=True)
        elif cmd == "OPPONENT":
            if len(words) == 3:
                place(int(words[1]), int(words[2]))
            elif words[1] != "skip":
                d = DIRECTIONS.index(words[1]) if words[1] in DIRECTIONS else int(words[1])
                slide(level, owner, 1 - me, d)
        elif cmd == "PLACE":
            r, c = think_place(int(words[1]))
            place(r, c)
            print(r, c, flush=True)
        elif cmd == "SLIDE":
            d = think_slide()
            slide(level, owner, me, d)
            print(DIRECTIONS[d], flush=True)
        elif cmd == "END":
            break
        # SKIP and anything else: nothing to do


if __name__ == "__main__":
    main()
