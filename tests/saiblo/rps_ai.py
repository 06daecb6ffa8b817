#!/usr/bin/env python3
"""A rock-paper-scissors AI for rps_logic.py, written from the Saiblo manual only: reads the
logic's LF-terminated lines from stdin, answers with 4-byte big-endian length frames.

usage: rps_ai.py STRATEGY   (rock | paper | scissors | cycle | copy | sleep | crash | bad | big
                             | crash-after | chatty
                             | slow | hog)
  sleep: never answers (time out); crash: exits with code 3 when asked; bad: answers "lizard";
  big: answers 1000 bytes (output limit 64); crash-after: plays rock, then crashes at "end";
  chatty: answers paper, then sends a second, unsolicited message; slow: rock after 0.8 s;
  hog: allocates 1 GB when asked.
"""

import struct
import sys
import time


def send(text):
    data = text.encode()
    sys.stdout.buffer.write(struct.pack(">I", len(data)) + data)
    sys.stdout.buffer.flush()


def main():
    strategy = sys.argv[1] if len(sys.argv) > 1 else "rock"
    cycle = ["rock", "paper", "scissors"]
    last = "rock"
    k = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "round":
            if strategy == "sleep":
                time.sleep(30)
            elif strategy == "crash":
                sys.exit(3)
            elif strategy == "bad":
                send("lizard")
            elif strategy == "big":
                send("x" * 1000)
            elif strategy == "cycle":
                send(cycle[k % 3])
            elif strategy == "copy":
                send(last)
            elif strategy == "crash-after":
                send("rock")
            elif strategy == "hog":
                hoard = [bytearray(10 << 20) for _ in range(100)]  # 1 GB
                send("rock" if hoard else "paper")
            elif strategy == "slow":
                time.sleep(0.8)
                send("rock")
            elif strategy == "chatty":
                # The answer and a second message nobody listens to, in one write.
                frames = b"".join(struct.pack(">I", len(t)) + t for t in (b"paper", b"chatter"))
                sys.stdout.buffer.write(frames)
                sys.stdout.buffer.flush()
            else:
                send(strategy)
            k += 1
        elif words[0] == "opponent":
            last = words[1]
        elif words[0] == "end":
            if strategy == "crash-after":
                sys.exit(5)
            return


if __name__ == "__main__":
    main()
