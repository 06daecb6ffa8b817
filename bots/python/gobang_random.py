"""gobang_random.py - a random Gomoku bot for the `gobang` protocol (seed 003).

Plays any empty point at random (it knows no renju: a random bot).

Protocol: print READY; read BLACK or WHITE; then moves both ways as `MOVE H8` (column
letter A = left, row number 1 = bottom). Black moves right after BLACK. 15 x 15 board.
No end command: the referee kills the bot when the game is over (EOF also ends it).
"""
import random
import sys

NAME = "gobang_random"
N = 15
board = [[0] * N for _ in range(N)]  # board[x][y]: 0 empty, 1 ours, 2 the opponent's


# ---- the brain: any empty point ----
def inside(x, y):
    return 0 <= x < N and 0 <= y < N


def think():
    empty = [(x, y) for y in range(N) for x in range(N) if board[x][y] == 0]
    return random.choice(empty) if empty else None


# ---- the protocol ----
def main():
    print("READY", flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line == "BLACK":
            x, y = think()
            board[x][y] = 1
            print("MOVE %s%d" % (chr(ord("A") + x), N - y), flush=True)
        elif line == "WHITE":
            pass  # wait for black's first move
        elif line.startswith("MOVE"):
            text = line[4:].strip()
            x, y = ord(text[0]) - ord("A"), N - int(text[1:])
            if inside(x, y):
                board[x][y] = 2
            move = think()
            if move is None:
                continue
            x, y = move
            board[x][y] = 1
            print("MOVE %s%d" % (chr(ord("A") + x), N - y), flush=True)
        # anything else: ignore


if __name__ == "__main__":
    main()
