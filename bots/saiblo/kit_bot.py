#!/usr/bin/env python3
"""A random AI for any game-kit module, with two front ends: Saiblo (default, via
saiblo_sdk.Lines) or plain lines (`--lines`, for `arbiter match`). Both speak the kit's line
protocol (START / PLAYED / POSITION / LEGAL / TURN / END, docs/game-kit.md), so it plays
every module game under `arbiter logic GAME.wasm` and a Saiblo judger as under arbiter.

usage: kit_bot.py [--lines] [SEED]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saiblo_sdk  # noqa: E402


def main():
    args = sys.argv[1:]
    lines = saiblo_sdk.PlainLines() if "--lines" in args else saiblo_sdk.Lines()
    seeds = [a for a in args if a.isdigit()]
    rng = random.Random(int(seeds[0]) if seeds else 1)
    legal = []
    while True:
        line = lines.read_line()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        if words[0] == "START":
            lines.write_line("OK")
        elif words[0] == "POSITION":
            # The k lines the module tells this seat: read as the position, never as commands
            # (Dou Dizhu's say "TURN 0").
            for _ in range(int(words[1])):
                lines.read_line()
        elif words[0] == "LEGAL":
            legal = words[1:]
        elif words[0] == "TURN":
            lines.write_line("DEBUG %d legal moves" % len(legal))
            lines.write_line(rng.choice(legal) if legal else "none")
        elif words[0] == "END":
            return


if __name__ == "__main__":
    main()
