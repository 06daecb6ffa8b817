#!/usr/bin/env python3
"""Rock-paper-scissors as a Saiblo game logic, written only from the Saiblo manual (seed 002),
as a third-party logic for testing `arbiter judge`.

Judger -> logic: 4-byte big-endian length + JSON. Logic -> judger: 4-byte length, 4-byte
target (-1 = judger, i = forward to AI i), body.

Our own logic <-> AI convention (the manual leaves it to the game): each message to an AI is
one text line ending in LF (`round K` = choose now; `opponent X` = what the other played;
`end` = game over); an AI answers `rock`, `paper` or `scissors`.

Game: ROUNDS rounds (init config "rounds", default 3); both AIs are listened in the same round
(the manual allows it). A win scores 1. An AI that errs or answers something else forfeits:
the game stops, it gets end state IA (bad answer) or the judger's error as TLE/RE/OLE.
"""

import json
import struct
import sys

IN = sys.stdin.buffer
OUT = sys.stdout.buffer
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


def read_exact(n):
    data = b""
    while len(data) < n:
        chunk = IN.read(n - len(data))
        if not chunk:
            sys.exit("rps_logic: the judger closed our input")
        data += chunk
    return data


def receive():
    (n,) = struct.unpack(">I", read_exact(4))
    return json.loads(read_exact(n).decode("utf-8"))


def send(target, obj_or_text):
    body = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
    data = body.encode("utf-8")
    OUT.write(struct.pack(">Ii", len(data), target) + data)
    OUT.flush()


def main():
    init = receive()
    n = init["player_num"]
    assert n == 2 and len(init["player_list"]) == 2, "rock-paper-scissors needs 2 players"
    config = init.get("config") or {}
    rounds = int(config.get("rounds", 3)) if isinstance(config, dict) else 3
    send(-1, {"state": 0, "time": float(config.get("time", 1)) if isinstance(config, dict) else 1,
              "length": 64})
    score = [0, 0]
    states = ["OK", "OK"]
    history = []
    for k in range(1, rounds + 1):
        send(-1, {"state": k, "listen": [0, 1], "player": [0, 1],
                  "content": ["round %d\n" % k, "round %d\n" % k]})
        choice = [None, None]
        while None in choice and states == ["OK", "OK"]:
            msg = receive()
            p = msg["player"]
            if p == -1:
                err = json.loads(msg["content"])
                states[err["player"]] = {0: "RE", 1: "TLE", 2: "OLE"}[err["error"]]
                history.append({"round": k, "error": err})
            else:
                text = msg["content"].strip()
                if text not in BEATS:
                    states[p] = "IA"
                    history.append({"round": k, "illegal": text, "player": p})
                else:
                    choice[p] = text
        if states != ["OK", "OK"]:
            for p in range(2):
                if states[p] == "OK":
                    score[p] += rounds  # the opponent forfeited
            break
        for p in range(2):
            send(p, "opponent %s\n" % choice[1 - p])
            if BEATS[choice[p]] == choice[1 - p]:
                score[p] += 1
        history.append({"round": k, "choices": choice})
        send(-1, {"watch": json.dumps({"round": k, "choices": choice})})
    for p in range(2):
        send(p, "end\n")
    send(-1, {"action": "request_end_state"})
    reply = receive()
    while "end_state" not in reply:  # a late AI message may come first
        reply = receive()
    judged = json.loads(reply["end_state"])
    final = [states[p] if states[p] != "OK" else judged[p] for p in range(2)]
    if init.get("replay"):
        with open(init["replay"], "w") as f:
            json.dump({"game": "rps", "history": history, "score": score}, f)
    send(-1, {"state": -1,
              "end_info": json.dumps({"0": score[0], "1": score[1]}),
              "end_state": json.dumps(final)})


if __name__ == "__main__":
    main()
