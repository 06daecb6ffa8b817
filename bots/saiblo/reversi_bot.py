#!/usr/bin/env python3
"""A Reversi AI with two front ends: Saiblo (default, via saiblo_sdk.Lines) or plain lines
(`--lines`, for `arbiter match` / the in-process referee). Both speak seed 001's brain
protocol (START / PLACE / TURN / END), so one strategy plays the same game either way.
Also `BOARD n s cells` (reversi-board: the start position of a game from an opening).

usage: reversi_bot.py [--lines] [--size N] [first|random[:SEED]|greedy]
  first   the first legal move in row-major order (deterministic)
  random  a uniformly random legal move (seeded: deterministic too)
  greedy  the move flipping the most discs, first in row-major order on ties
  illegal:K  first legal move K times, then an occupied centre square (an illegal move)
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saiblo_sdk  # noqa: E402

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Board:
    def __init__(self, n):
        self.n = n
        self.cell = [[0] * n for _ in range(n)]
        h = n // 2
        # Black (1) moves first; white on (h-1,h-1) and (h,h).
        self.cell[h - 1][h - 1] = self.cell[h][h] = 2
        self.cell[h - 1][h] = self.cell[h][h - 1] = 1

    def flips(self, r, c, me):
        if self.cell[r][c]:
            return []
        out = []
        for dr, dc in DIRS:
            run = []
            y, x = r + dr, c + dc
            while 0 <= y < self.n and 0 <= x < self.n and self.cell[y][x] == 3 - me:
                run.append((y, x))
                y += dr
                x += dc
            if run and 0 <= y < self.n and 0 <= x < self.n and self.cell[y][x] == me:
                out.extend(run)
        return out

    def moves(self, me):
        res = []
        for r in range(self.n):
            for c in range(self.n):
                f = self.flips(r, c, me)
                if f:
                    res.append((r, c, len(f)))
        return res

    def play(self, r, c, me):
        for y, x in self.flips(r, c, me):
            self.cell[y][x] = me
        self.cell[r][c] = me


def main(argv):
    lines = "--lines" in argv
    args = [a for a in argv if a != "--lines"]
    size = 16
    if "--size" in args:
        i = args.index("--size")
        size = int(args[i + 1])
        del args[i:i + 2]
    strategy = args[0] if args else "first"
    rng = random.Random(0)
    illegal_after = None
    if strategy.startswith("illegal:"):
        illegal_after = int(strategy.split(":", 1)[1])
        strategy = "first"
    if strategy.startswith("random:"):
        rng = random.Random(int(strategy.split(":", 1)[1]))
        strategy = "random"
    io = saiblo_sdk.PlainLines() if lines else saiblo_sdk.Lines()
    board = Board(size)
    me = 1
    while True:
        line = io.read_line()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        if words[0] == "START":
            me = int(words[1])
            io.write_line("OK")
        elif words[0] == "BOARD" and len(words) == 4:
            n, cells = int(words[1]), words[3]
            board = Board(n)
            size = n
            board.cell = [[int(ch) for ch in cells[r * n:(r + 1) * n]] for r in range(n)]
        elif words[0] == "PLACE":
            board.play(int(words[1]), int(words[2]), 3 - me)
        elif words[0] == "TURN":
            if illegal_after is not None:
                if illegal_after == 0:
                    io.write_line("%d %d" % (size // 2, size // 2))
                    continue
                illegal_after -= 1
            moves = board.moves(me)
            if not moves:
                io.write_line("DEBUG no move")
                io.write_line("0 0")
                continue
            if strategy == "greedy":
                best = max(m[2] for m in moves)
                r, c, _ = next(m for m in moves if m[2] == best)
            elif strategy == "random":
                r, c, _ = rng.choice(moves)
            else:
                r, c, _ = moves[0]
            board.play(r, c, me)
            io.write_line("%d %d" % (r, c))
        elif words[0] == "END":
            return


if __name__ == "__main__":
    main(sys.argv[1:])
