#!/usr/bin/env python3
"""Per-level move times (mean, 99th percentile, slowest) from a ladder tournament's replays,
as arbiter measured them: python3 sparring/ladder/times.py /tmp/arbiter-ladder-gomoku-renju"""
import glob
import json
import sys
from collections import defaultdict

for out in sys.argv[1:]:
    times = defaultdict(list)
    for path in glob.glob(f"{out}/replays/*.json"):
        with open(path) as f:
            replay = json.load(f)
        names = {p["seat"]: p["name"] for p in replay["players"]}
        for move in replay["moves"]:
            if move.get("time_ms") is not None:
                times[names[move["seat"]]].append(move["time_ms"])
    print(out)
    for name in sorted(times):
        t = sorted(times[name])
        n = len(t)
        print(f"  {name}: mean {sum(t) / n:.1f} ms, 99 % below {t[int(0.99 * (n - 1))]:.0f} ms, "
              f"slowest {t[-1]:.0f} ms ({n} moves)")
