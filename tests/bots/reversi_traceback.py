"""A Reversi bot (seed 001 protocol) that plays legal moves, then on its Nth turn raises
ValueError from inside its own code, as a student's bot with a bug does:

    python3 reversi_traceback.py [N=3] [SIZE=8]

It prints a DEBUG line first, so that the replay shows both the DEBUG text and the traceback.
Used by the referee's failure tests (referee/tests/failures.rs).
"""
import sys

WHEN = int(sys.argv[1]) if len(sys.argv) > 1 else 3
N = int(sys.argv[2]) if len(sys.argv) > 2 else 8
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
board = [[0] * N for _ in range(N)]
board[N // 2 - 1][N // 2 - 1] = board[N // 2][N // 2] = 2
board[N // 2 - 1][N // 2] = board[N // 2][N // 2 - 1] = 1


def flips(r, c, who):
    if board[r][c]:
        return []
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < N and 0 <= cc < N and board[rr][cc] == 3 - who:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < N and 0 <= cc < N and board[rr][cc] == who:
            out += line
    return out


def play(r, c, who):
    for rr, cc in flips(r, c, who) + [(r, c)]:
        board[rr][cc] = who


def parse_square(text):
    row, col = text.split()
    return int(row), int(col)


def choose(me, turn):
    if turn == WHEN:
        print("DEBUG turn %d: reading my opening book" % turn, flush=True)
        return parse_square("e 5")
    for r in range(N):
        for c in range(N):
            if flips(r, c, me):
                return r, c
    return None


def main():
    me, turn = 1, 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "START":
            me = int(words[1])
            print("OK", flush=True)
        elif words[0] == "PLACE":
            play(int(words[1]), int(words[2]), 3 - me)
        elif words[0] == "TURN":
            turn += 1
            r, c = choose(me, turn)
            play(r, c, me)
            print(r, c, flush=True)
        elif words[0] == "END":
            return


main()
