#!/usr/bin/env python3
"""A minimal Saiblo logic (from the manual only) that checks the judger's round clocks.

usage: clock_logic.py SECOND_STATE
Round 1 sends `round 1` to AI 0 and listens to it; 0.6 s later a second round with state
SECOND_STATE listens again without content. An equal state must not restart AI 0's clock, a
larger one must. The end message's score for player 0 is the `time` the judger reported;
no end_state is sent (the judger's own states stand).
"""

import json
import struct
import sys
import time


def receive():
    (n,) = struct.unpack(">I", sys.stdin.buffer.read(4))
    return json.loads(sys.stdin.buffer.read(n))


def send(obj):
    data = json.dumps(obj).encode()
    sys.stdout.buffer.write(struct.pack(">Ii", len(data), -1) + data)
    sys.stdout.buffer.flush()


second = int(sys.argv[1])
receive()  # init
send({"state": 0, "time": 2.5, "length": 100})
send({"state": 1, "listen": [0], "player": [0], "content": ["round 1\n"]})
time.sleep(0.6)
send({"state": second, "listen": [0], "player": [], "content": []})
msg = receive()
while msg.get("player") != 0:
    msg = receive()
send({"state": -1, "end_info": json.dumps({"0": msg["time"], "1": 0})})
