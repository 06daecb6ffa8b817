#!/usr/bin/env python3
"""Plays any game-kit game through the kit's line protocol (docs/game-kit.md): a random legal
move from the LEGAL line. The position lines (POSITION k, then k lines) are read and kept, so a
stronger bot can start from here. The seed comes from ARBITER_SEED, so games can be replayed."""
import os
import random
import sys


def main():
    rng = random.Random(int(os.environ.get("ARBITER_SEED", "0")) + 17)
    legal = []
    position = []
    lines = iter(sys.stdin.readline, "")
    for line in lines:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "START":
            print("OK", flush=True)
        elif cmd == "POSITION":
            position = [next(lines).rstrip("\n") for _ in range(int(words[1]))]
        elif cmd == "LEGAL":
            legal = words[1:]
        elif cmd == "TURN":
            print(f"DEBUG {len(legal)} legal moves, {len(position)} position lines", flush=True)
            print(rng.choice(legal), flush=True)
        elif cmd == "END":
            return


if __name__ == "__main__":
    main()
