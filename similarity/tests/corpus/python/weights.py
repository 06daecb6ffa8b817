# Positional Reversi bot: every square has a fixed value; take the best-valued legal square.
import sys

SIZE = 16


def square_value(r, c):
    last = SIZE - 1
    corner = r in (0, last) and c in (0, last)
    x_square = r in (1, last - 1) and c in (1, last - 1)
    edge = r in (0, last) or c in (0, last)
    if corner:
        return 50
    if x_square:
        return -20
    return 5 if edge else 0


def walk(grid, r, c, dr, dc, me):
    seen = 0
    r, c = r + dr, c + dc
    while 0 <= r < SIZE and 0 <= c < SIZE:
        if grid[r * SIZE + c] == 0:
            return 0
        if grid[r * SIZE + c] == me:
            return seen
        seen += 1
        r, c = r + dr, c + dc
    return 0


def place(grid, r, c, me, really):
    if grid[r * SIZE + c]:
        return False
    gained = False
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            k = walk(grid, r, c, dr, dc, me)
            if k:
                gained = True
                if really:
                    for j in range(1, k + 1):
                        grid[(r + j * dr) * SIZE + c + j * dc] = me
    if gained and really:
        grid[r * SIZE + c] = me
    return gained


def opening():
    grid = [0] * (SIZE * SIZE)
    h = SIZE // 2
    grid[(h - 1) * SIZE + h - 1] = grid[h * SIZE + h] = 2
    grid[(h - 1) * SIZE + h] = grid[h * SIZE + h - 1] = 1
    return grid


if len(sys.argv) == 2 and sys.argv[1] in {str(v) for v in range(4, 17, 2)}:
    SIZE = int(sys.argv[1])
grid, me = opening(), 1
while True:
    text = sys.stdin.readline()
    if not text:
        break
    fields = text.strip().split(" ")
    if fields[0] == "START":
        me = 2 if fields[1] == "2" else 1
        grid = opening()
        print("OK")
    elif fields[0] == "PLACE":
        place(grid, int(fields[1]), int(fields[2]), 3 - me, True)
    elif fields[0] == "TURN":
        options = [
            (square_value(i // SIZE, i % SIZE), -i)
            for i in range(SIZE * SIZE)
            if place(grid, i // SIZE, i % SIZE, me, False)
        ]
        value, neg = max(options)
        place(grid, -neg // SIZE, -neg % SIZE, me, True)
        print(-neg // SIZE, -neg % SIZE)
    elif fields[0] == "END":
        break
    sys.stdout.flush()
