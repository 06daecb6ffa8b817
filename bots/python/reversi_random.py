"""reversi_random.py - a random Reversi bot for arbiter's `reversi` protocol (seed 001).

The protocol does not send the board size: arbiter sets ARBITER_SIZE for every bot, and a
command-line argument overrides it:
    python3 reversi_random.py 8        (even, 4..16; default $ARBITER_SIZE, else 16)
Commands: START 1|2 -> OK, PLACE r c (opponent moved), TURN -> "r c", END f -> exit.
Also speaks `reversi-board`: BOARD n s cells sets the board (size n, n*n cells row-major,
0 empty, 1 black, 2 white) for games that start from an opening.
"""
import os
import random
import sys

N = 16
try:
    N = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ARBITER_SIZE", "16"))
except ValueError:
    pass
if N < 4 or N > 16 or N % 2:
    N = 16

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def new_board():
    b = [[0] * N for _ in range(N)]
    m = N // 2
    b[m - 1][m - 1] = b[m][m] = 2  # white
    b[m - 1][m] = b[m][m - 1] = 1  # black
    return b


def flips(b, r, c, who):
    """The discs a disc of `who` on (r, c) would turn over."""
    if not (0 <= r < N and 0 <= c < N) or b[r][c] != 0:
        return []
    out = []
    for dr, dc in DIRS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < N and 0 <= cc < N and b[rr][cc] == 3 - who:
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < N and 0 <= cc < N and b[rr][cc] == who:
            out.extend(line)
    return out


def play(b, r, c, who):
    f = flips(b, r, c, who)
    if f:
        b[r][c] = who
        for rr, cc in f:
            b[rr][cc] = who


def legal_moves(b, who):
    return [(r, c) for r in range(N) for c in range(N) if flips(b, r, c, who)]


def choose(b, who):
    return random.choice(legal_moves(b, who))


def main():
    global N  # BOARD may change the size
    board = new_board()
    me = 1
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "START":
            me = int(words[1])
            board = new_board()
            print("OK", flush=True)
        elif words[0] == "BOARD" and len(words) == 4:
            N = int(words[1])
            board = [[int(ch) for ch in words[3][r * N:(r + 1) * N]] for r in range(N)]
        elif words[0] == "PLACE":
            play(board, int(words[1]), int(words[2]), 3 - me)
        elif words[0] == "TURN":
            r, c = choose(board, me)
            play(board, r, c, me)
            print(r, c, flush=True)
        elif words[0] == "END":
            break
        # anything else: ignore


if __name__ == "__main__":
    main()
