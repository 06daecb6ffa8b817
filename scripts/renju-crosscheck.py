#!/usr/bin/env python3
"""Compares arbiter's renju readings with the Gomocup judge's and Rapfi's forbidden points.

    cargo run --release -p arbiter-engine --example renju_positions -- SEED COUNT \\
      | python3 scripts/renju-crosscheck.py [--gomocupjudge DIR] [--rapfi EXE]

--gomocupjudge DIR: a checkout of github.com/Gomocup/GomocupJudge; its client/check_forbid.py
  (a port of Piskvork's renju.cpp, the judge of the Gomocup renju leagues) is imported from
  there and asked about every empty point.
--rapfi EXE: a Rapfi build (docs/peers.md); asked with YXBOARD and YXSHOWFORBID. Positions
  with a five on the board or without stones of both colours are skipped (Rapfi's board set-up
  needs them to be reachable in play).

Prints how many positions each judge saw and where it disagrees with `renju` (RIF) and with
`renju-gomocup`; exits 1 if any judge disagrees with `renju-gomocup`. No peer code is part of
arbiter: both are read from the paths given.
"""
import argparse
import json
import subprocess
import sys

N = 15


def gomocupjudge(path):
    sys.path.insert(0, path.rstrip("/") + "/client")
    from check_forbid import check_forbid  # noqa: E402 (their code, from their checkout)

    def judge(stones):
        board = [[0] * N for _ in range(N)]
        for x, y, c in stones:
            board[x][y] = c
        return {(x, y) for x in range(N) for y in range(N)
                if board[x][y] == 0 and check_forbid(board, x, y)}
    return judge


def has_five(stones):
    cells = {(x, y): c for x, y, c in stones}
    for (x, y), c in cells.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(cells.get((x + k * dx, y + k * dy)) == c for k in range(5)):
                return True
    return False


def rapfi(exe):
    proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)

    def send(line):
        proc.stdin.write(line + "\r\n")
        proc.stdin.flush()

    def answer(prefix):
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit("rapfi exited")
            if line.strip().startswith(prefix):
                return line.strip()

    send("START 15")
    answer("OK")
    send("INFO rule 4")

    def judge(stones):
        black = [(x, y) for x, y, c in stones if c == 1]
        white = [(x, y) for x, y, c in stones if c == 2]
        if not black or not white or has_five(stones):
            return None
        # Black first, white last, so that black is to move (Rapfi passes between stones of
        # one colour).
        send("YXBOARD")
        for x, y in black:
            send(f"{x},{y},1")
        for x, y in white:
            send(f"{x},{y},2")
        send("DONE")
        send("YXSHOWFORBID")
        text = answer("FORBID")[len("FORBID"):].strip().rstrip(".")
        return {(int(text[i:i + 2]), int(text[i + 2:i + 4])) for i in range(0, len(text), 4)}
    return judge


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gomocupjudge", metavar="DIR")
    ap.add_argument("--rapfi", metavar="EXE")
    args = ap.parse_args()
    judges = {}
    if args.gomocupjudge:
        judges["GomocupJudge check_forbid.py"] = gomocupjudge(args.gomocupjudge)
    if args.rapfi:
        judges["Rapfi YXSHOWFORBID"] = rapfi(args.rapfi)
    if not judges:
        ap.error("give --gomocupjudge DIR and/or --rapfi EXE")
    seen = {name: [0, 0, 0, 0] for name in judges}  # positions, points, != renju, != gomocup
    readings_differ = 0
    for line in sys.stdin:
        d = json.loads(line)
        rif = {tuple(p) for p in d["renju"]}
        gomocup = {tuple(p) for p in d["renju-gomocup"]}
        readings_differ += rif != gomocup
        for name, judge in judges.items():
            theirs = judge(d["stones"])
            if theirs is None:
                continue
            s = seen[name]
            s[0] += 1
            s[1] += len(theirs)
            s[2] += theirs != rif
            if theirs != gomocup:
                s[3] += 1
                print(f"{name} disagrees with renju-gomocup: stones {d['stones']}, "
                      f"only theirs {sorted(theirs - gomocup)}, only ours {sorted(gomocup - theirs)}")
    for name, (positions, points, vs_rif, vs_gomocup) in seen.items():
        print(f"{name}: {positions} positions, {points} forbidden points; differs from renju "
              f"on {vs_rif}, from renju-gomocup on {vs_gomocup}")
    print(f"positions where renju and renju-gomocup differ: {readings_differ}")
    sys.exit(1 if any(s[3] for s in seen.values()) else 0)


if __name__ == "__main__":
    main()
