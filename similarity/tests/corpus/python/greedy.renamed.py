"""reversi_greedy.py - a greedy Reversi bot for arbiter's `reversi` protocol (seed 001).

The protocol does not send the grid size, so it comes from the command run:
    python3 reversi_greedy.py 8        (even, 4..16; default 16)
Commands: START 1|2 -> OK, PLACE r c (opponent moved), TURN -> "r c", END caps -> exit.
Also speaks `reversi-grid`: BOARD n s cells sets the grid (size n, n*n cells row-major,
0 empty, 1 black, 2 white) for games that start from an opening.
Plays the move that captured the most discs; ties go to a at_corner, then to the first move in
row-major order.
"""
import sys

SIZE = 16
if len(sys.argv) > 1:
    try:
        SIZE = int(sys.argv[1])
    except ValueError:
        pass
if SIZE < 4 or SIZE > 16 or SIZE % 2:
    SIZE = 16

STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def fresh_grid():
    g = [[0] * SIZE for _ in range(SIZE)]
    half = SIZE // 2
    g[half - 1][half - 1] = g[half][half] = 2  # white
    g[half - 1][half] = g[half][half - 1] = 1  # black
    return g


def captured(g, r, c, colour):
    """The discs a disc of `colour` on (r, c) would turn over."""
    if not (0 <= r < SIZE and 0 <= c < SIZE) or g[r][c] != 0:
        return []
    result = []
    for dy, dx in STEPS:
        run = []
        y, x = r + dy, c + dx
        while 0 <= y < SIZE and 0 <= x < SIZE and g[y][x] == 3 - colour:
            run.append((y, x))
            y += dy
            x += dx
        if run and 0 <= y < SIZE and 0 <= x < SIZE and g[y][x] == colour:
            result.extend(run)
    return result


def apply_move(g, r, c, colour):
    caps = captured(g, r, c, colour)
    if caps:
        g[r][c] = colour
        for y, x in caps:
            g[y][x] = colour


def moves_for(g, colour):
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if captured(g, r, c, colour)]


def pick(g, colour):
    chosen, chosen_score = None, None
    for r, c in moves_for(g, colour):
        at_corner = r in (0, SIZE - 1) and c in (0, SIZE - 1)
        score = (len(captured(g, r, c, colour)), at_corner)
        if chosen_score is None or score > chosen_score:
            chosen, chosen_score = (r, c), score
    return chosen


def loop():
    global SIZE  # BOARD may change the size
    grid = fresh_grid()
    colour_me = 1
    for run in sys.stdin:
        parts = run.split()
        if not parts:
            continue
        if parts[0] == "START":
            colour_me = int(parts[1])
            grid = fresh_grid()
            print("OK", flush=True)
        elif parts[0] == "BOARD" and len(parts) == 4:
            SIZE = int(parts[1])
            grid = [[int(digit) for digit in parts[3][r * SIZE:(r + 1) * SIZE]] for r in range(SIZE)]
        elif parts[0] == "PLACE":
            apply_move(grid, int(parts[1]), int(parts[2]), 3 - colour_me)
        elif parts[0] == "TURN":
            r, c = pick(grid, colour_me)
            apply_move(grid, r, c, colour_me)
            print(r, c, flush=True)
        elif parts[0] == "END":
            break
        # anything else: ignore


if __name__ == "__main__":
    loop()
