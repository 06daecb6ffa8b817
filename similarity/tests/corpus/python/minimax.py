"""Two-ply minimax on disc difference, for the reversi protocol."""
import sys
from itertools import product

NEIGHBOURS = [d for d in product((-1, 0, 1), repeat=2) if d != (0, 0)]


def start_position(n):
    s = [[0] * n for _ in range(n)]
    a, b = n // 2 - 1, n // 2
    s[a][a], s[b][b], s[a][b], s[b][a] = 2, 2, 1, 1
    return s


def result(state, move, side):
    """A new position, or None when the move is not legal."""
    n = len(state)
    i, j = move
    if state[i][j]:
        return None
    nxt = [row[:] for row in state]
    changed = False
    for di, dj in NEIGHBOURS:
        path, y, x = [], i + di, j + dj
        while 0 <= y < n and 0 <= x < n and nxt[y][x] == 3 - side:
            path.append((y, x))
            y += di
            x += dj
        if path and 0 <= y < n and 0 <= x < n and nxt[y][x] == side:
            changed = True
            for y, x in path:
                nxt[y][x] = side
    if not changed:
        return None
    nxt[i][j] = side
    return nxt


def successors(state, side):
    n = len(state)
    for move in product(range(n), repeat=2):
        after = result(state, move, side)
        if after is not None:
            yield move, after


def disc_difference(state, side):
    return sum((v == side) - (v == 3 - side) for row in state for v in row)


def best_move(state, side):
    def worst_reply(after):
        values = [disc_difference(s, side) for _, s in successors(after, 3 - side)]
        return min(values) if values else disc_difference(after, side)

    scored = [(worst_reply(after), move) for move, after in successors(state, side)]
    return max(scored)[1] if scored else None


def serve(n):
    state, side = start_position(n), 1
    for text in sys.stdin:
        parts = text.split()
        if not parts:
            continue
        head = parts[0]
        if head == "START":
            side, state = int(parts[1]), start_position(n)
            print("OK", flush=True)
        elif head == "PLACE":
            state = result(state, (int(parts[1]), int(parts[2])), 3 - side) or state
        elif head == "TURN":
            move = best_move(state, side)
            if move:
                state = result(state, move, side)
                print(*move, flush=True)
        elif head == "END":
            break


if __name__ == "__main__":
    size = 16
    try:
        size = int(sys.argv[1])
    except (IndexError, ValueError):
        pass
    serve(size if size in range(4, 17, 2) else 16)
