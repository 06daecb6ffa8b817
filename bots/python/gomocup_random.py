"""gomocup_random.py - a random Gomocup brain for the `gomocup` protocol.

Plays any empty point at random.

Protocol: START n -> OK; INFO ... (ignored); BEGIN -> x,y; TURN x,y -> x,y;
BOARD / x,y,f lines / DONE -> x,y; RESTART -> OK; TAKEBACK x,y -> OK; ABOUT -> name=...;
END -> exit. x = column, y = row, 0-based from the top-left. Lines may end in CR LF.
"""
import random
import sys

NAME = "gomocup_random"
N = 15
board = [[0] * N for _ in range(N)]  # board[x][y]: 0 empty, 1 ours, 2 the opponent's


# ---- the brain: any empty point ----
def inside(x, y):
    return 0 <= x < N and 0 <= y < N


def think():
    empty = [(x, y) for y in range(N) for x in range(N) if board[x][y] == 0]
    return random.choice(empty) if empty else None


# ---- the protocol ----
def answer():
    move = think()
    if move is None:
        print("ERROR no empty point", flush=True)
        return
    x, y = move
    board[x][y] = 1
    print("%d,%d" % (x, y), flush=True)


def clear(size):
    global N, board
    N = size
    board = [[0] * N for _ in range(N)]


def main():
    lines = iter(sys.stdin.readline, "")
    for line in lines:
        line = line.strip()  # CR LF or LF
        if not line:
            continue
        cmd, _, rest = line.partition(" ")
        cmd = cmd.upper()
        if cmd == "START":
            try:
                size = int(rest)
            except ValueError:
                size = 0
            if 5 <= size <= 32:
                clear(size)
                print("OK", flush=True)
            else:
                print("ERROR unsupported size", flush=True)
        elif cmd == "RESTART":
            clear(N)
            print("OK", flush=True)
        elif cmd == "INFO":
            pass  # timeout_turn, rule, time_left...: a simple brain needs none of them
        elif cmd == "BEGIN":
            answer()
        elif cmd == "TURN":
            x, y = (int(v) for v in rest.split(","))
            if inside(x, y):
                board[x][y] = 2
            answer()
        elif cmd == "BOARD":
            clear(N)
            for row in lines:
                row = row.strip()
                if row.upper() == "DONE":
                    break
                parts = row.split(",")
                if len(parts) == 3:
                    x, y, f = (int(v) for v in parts)
                    if inside(x, y) and f in (1, 2):
                        board[x][y] = f
            answer()
        elif cmd == "TAKEBACK":
            x, y = (int(v) for v in rest.split(","))
            if inside(x, y):
                board[x][y] = 0
            print("OK", flush=True)
        elif cmd == "ABOUT":
            print('name="%s", version="1.0", author="arbiter samples", country="-"' % NAME, flush=True)
        elif cmd == "END":
            break
        else:
            print("UNKNOWN " + line, flush=True)


if __name__ == "__main__":
    main()
