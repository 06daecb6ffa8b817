"""Reversi: choose the move after which the opponent has the fewest replies."""
import sys


class Board:
    def __init__(self, size):
        self.size = size
        self.cells = {}
        h = size // 2
        self.cells[(h - 1, h - 1)] = self.cells[(h, h)] = 2
        self.cells[(h - 1, h)] = self.cells[(h, h - 1)] = 1

    def copy(self):
        other = Board.__new__(Board)
        other.size = self.size
        other.cells = dict(self.cells)
        return other

    def captures(self, pos, colour):
        if pos in self.cells:
            return []
        taken = []
        for step in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            run = []
            y, x = pos[0] + step[0], pos[1] + step[1]
            while self.cells.get((y, x)) == 3 - colour:
                run.append((y, x))
                y, x = y + step[0], x + step[1]
            if run and self.cells.get((y, x)) == colour:
                taken += run
        return taken

    def apply(self, pos, colour):
        taken = self.captures(pos, colour)
        for p in taken + [pos]:
            self.cells[p] = colour
        return bool(taken)

    def replies(self, colour):
        return sum(
            1
            for y in range(self.size)
            for x in range(self.size)
            if self.captures((y, x), colour)
        )


def decide(board, colour):
    scored = []
    for y in range(board.size):
        for x in range(board.size):
            trial = board.copy()
            if trial.apply((y, x), colour):
                scored.append((trial.replies(3 - colour), y, x))
    return min(scored)[1:] if scored else None


def run(size):
    board, colour = Board(size), 1
    for raw in sys.stdin:
        cmd, *args = raw.split() or [""]
        if cmd == "START":
            colour, board = int(args[0]), Board(size)
            sys.stdout.write("OK\n")
        elif cmd == "PLACE":
            board.apply((int(args[0]), int(args[1])), 3 - colour)
        elif cmd == "TURN":
            move = decide(board, colour)
            if move is None:
                sys.stdout.write("DEBUG pass\n")
            else:
                board.apply(move, colour)
                sys.stdout.write("%d %d\n" % move)
        elif cmd == "END":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 16
    run(n if 4 <= n <= 16 and n % 2 == 0 else 16)
