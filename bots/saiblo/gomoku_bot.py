#!/usr/bin/env python3
"""A Gomocup-protocol gomoku AI with two front ends: Saiblo (default, via saiblo_sdk.Lines) or
plain lines (`--lines`, for the in-process referee). Deterministic, for tests and examples.

usage: gomoku_bot.py [--lines] [first|near|illegal:K]
  first      the first empty cell in row-major order (y, then x)
  near       the first empty cell next to the last stone, else the centre
  illegal:K  `first` K times, then an occupied cell (an illegal move)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saiblo_sdk  # noqa: E402


def main(argv):
    lines = "--lines" in argv
    args = [a for a in argv if a != "--lines"]
    strategy = args[0] if args else "first"
    illegal_after = None
    if strategy.startswith("illegal:"):
        illegal_after = int(strategy.split(":", 1)[1])
        strategy = "first"
    io = saiblo_sdk.PlainLines() if lines else saiblo_sdk.Lines()
    size = 15
    taken = set()
    last = None

    def choose():
        if illegal_after == 0 and taken:
            return next(iter(sorted(taken)))
        if strategy == "near" and last is not None:
            x0, y0 = last
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    x, y = x0 + dx, y0 + dy
                    if 0 <= x < size and 0 <= y < size and (x, y) not in taken:
                        return (x, y)
        if strategy == "near" and (size // 2, size // 2) not in taken:
            return (size // 2, size // 2)
        for y in range(size):
            for x in range(size):
                if (x, y) not in taken:
                    return (x, y)
        return (0, 0)

    while True:
        line = io.read_line()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0].upper()
        if cmd == "START":
            size = int(words[1])
            io.write_line("OK")
        elif cmd in ("BEGIN", "TURN", "BOARD"):
            if cmd == "TURN":
                x, y = (int(v) for v in words[1].split(","))
                taken.add((x, y))
                last = (x, y)
            if cmd == "BOARD":
                # The position so far, one `x,y,f` line a stone in move order, then DONE.
                while True:
                    row = io.read_line()
                    if row is None or row.strip().upper() == "DONE":
                        break
                    x, y = (int(v) for v in row.split(",")[:2])
                    taken.add((x, y))
                    last = (x, y)
            mv = choose()
            if illegal_after is not None:
                illegal_after -= 1
            taken.add(mv)
            last = mv
            io.write_line("%d,%d" % mv)
        elif cmd == "ABOUT":
            io.write_line('name="saiblo-gomoku-sample", version="1"')
        elif cmd == "END":
            return
        # INFO lines: nothing to do.


if __name__ == "__main__":
    main(sys.argv[1:])
