#!/usr/bin/env python3
"""A Reversi AI for `arbiter logic reversi`, built on client.py (an AI SDK that behaves like
Saiblo's public template SDK): it plays the first legal move in row-major order, and, like
the template, has no end of game: after `END` it keeps reading until its input ends.

usage: reversi_ai.py [--size N]   (default 8)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client  # noqa: E402

STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class ReversiAI(Client):
    def __init__(self, size):
        self.size = size
        self.me = 1
        h = size // 2
        self.cells = [[0] * size for _ in range(size)]
        self.cells[h - 1][h - 1] = self.cells[h][h] = 2
        self.cells[h - 1][h] = self.cells[h][h - 1] = 1

    def flips(self, r, c, who):
        if self.cells[r][c]:
            return []
        found = []
        for dr, dc in STEPS:
            line = []
            y, x = r + dr, c + dc
            while 0 <= y < self.size and 0 <= x < self.size and self.cells[y][x] == 3 - who:
                line.append((y, x))
                y, x = y + dr, x + dc
            if line and 0 <= y < self.size and 0 <= x < self.size and self.cells[y][x] == who:
                found += line
        return found

    def place(self, r, c, who):
        for y, x in self.flips(r, c, who):
            self.cells[y][x] = who
        self.cells[r][c] = who

    def _answer(self, message):
        reply = None
        for line in message.splitlines():
            words = line.split()
            if not words:
                continue
            if words[0] == "START":
                self.me = int(words[1])
                reply = "OK"
            elif words[0] == "PLACE":
                self.place(int(words[1]), int(words[2]), 3 - self.me)
            elif words[0] == "TURN":
                for r in range(self.size):
                    for c in range(self.size):
                        if self.flips(r, c, self.me):
                            self.place(r, c, self.me)
                            return "%d %d" % (r, c)
                reply = "0 0"
        return reply


if __name__ == "__main__":
    args = sys.argv[1:]
    n = int(args[args.index("--size") + 1]) if "--size" in args else 8
    ReversiAI(n).run()
