#!/usr/bin/env python3
"""OpenSpiel's chinese_checkers, counted and played for games/chinese-checkers/tests/openspiel.rs.

OpenSpiel plays a jump chain as several actions (one per jump, then an optional "Pass" that
stops the chain early); arbiter's module plays a whole turn as one move, its start hole and its
end hole. So this script counts OpenSpiel's tree by turns: a node's children are the distinct
ends of its mover's turn (every action sequence of that turn, grouped by the piece's start and
end, which fix the position after it). Jobs, each printing one JSON line:

  start:N               the holes (row, doubled column, as OpenSpiel prints the board) and
                        who holds each at the start of an N-seat game (-1 empty)
  perft:N:D             the turn counts of the N-seat tree at depths 1..D
  game:N:SEED:MAX:EPS   a game of N seats with max_moves MAX, played from SEED: each turn the
                        move that brings a piece nearest its target corner's tip, or with
                        chance EPS a uniformly random one; every turn's mover, its legal
                        moves (sorted "from-to" by OpenSpiel's hole numbers, "pass" when
                        blocked) and the move played; the returns

Usage: perft.py JOB [JOB ...]
"""

import json
import random
import sys

import pyspiel

PASS = 726  # OpenSpiel's kPassAction: ends a chain, or the turn of a blocked seat


def load(players, max_moves=1000):
    return pyspiel.load_game(
        "chinese_checkers", {"players": players, "max_moves": max_moves}
    )


def turn_ends(state):
    """{(from, to) or "pass": the state after the turn} over every way to play the turn."""
    player = state.current_player()
    ends = {}

    def go(s, origin, last):
        for action in s.legal_actions():
            child = s.child(action)
            if action == PASS:
                key = "pass" if origin is None else (origin, last)
            else:
                text = s.action_to_string(player, action)
                src, dst = map(int, text.replace("=>", "->").split("->"))
                origin_here = src if origin is None else origin
                if not child.is_terminal() and child.current_player() == player:
                    go(child, origin_here, dst)  # the chain may go on
                    continue
                key = (origin_here, dst)
            if key in ends and str(ends[key]) != str(child):
                raise AssertionError(f"two chains to {key} leave different positions")
            ends[key] = child

    go(state, None, None)
    return ends


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    ends = turn_ends(state)
    if depth == 1:
        return len(ends)
    return sum(perft(child, depth - 1) for child in ends.values())


def holes(state):
    """[(row, doubled column)] in hole order and each hole's holder, read off the board."""
    places, holders = [], []
    for row, line in enumerate(str(state).splitlines()[:17]):
        for col, ch in enumerate(line):
            if ch == ".":
                places.append((row, col))
                holders.append(-1)
            elif ch.isdigit():
                places.append((row, col))
                holders.append(int(ch) - 1)
    return places, holders


def axial(place):
    row, col = place
    return (col - row - 4) // 2, row - 8


def distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def tips(state, players):
    """Each seat's target tip: the hole farthest from the centre opposite its home."""
    places, holders = holes(state)
    out = []
    for p in range(players):
        home = [axial(places[i]) for i, h in enumerate(holders) if h == p]
        out.append(max(((-q, -r) for q, r in home), key=lambda a: distance(a, (0, 0))))
    return [axial(pl) for pl in places], out


def key_text(key):
    return key if key == "pass" else f"{key[0]}-{key[1]}"


def game(players, seed, max_moves, eps):
    rng = random.Random(seed)
    state = load(players, max_moves).new_initial_state()
    cells, tip = tips(state, players)
    turns = []
    while not state.is_terminal():
        p = state.current_player()
        ends = turn_ends(state)
        keys = sorted(ends, key=key_text)
        gain = lambda k: (
            0 if k == "pass" else distance(cells[k[0]], tip[p]) - distance(cells[k[1]], tip[p])
        )
        if rng.random() < eps:
            choice = rng.choice(keys)
        else:
            best = max(gain(k) for k in keys)
            choice = rng.choice([k for k in keys if gain(k) == best])
        turns.append(
            {
                "player": p,
                "legal": " ".join(sorted(map(key_text, keys))),
                "played": key_text(choice),
            }
        )
        state = ends[choice]
    return {
        "game": players,
        "seed": seed,
        "max_moves": max_moves,
        "turns": turns,
        "returns": state.returns(),
    }


def run(job):
    name, *args = job.split(":")
    if name == "start":
        (n,) = map(int, args)
        places, holders = holes(load(n).new_initial_state())
        return {"start": n, "places": places, "holders": holders}
    if name == "perft":
        n, depth = map(int, args)
        state = load(n).new_initial_state()
        return {"perft": n, "counts": [perft(state, d) for d in range(1, depth + 1)]}
    if name == "game":
        n, seed, max_moves = map(int, args[:3])
        return game(n, seed, max_moves, float(args[3]))
    raise SystemExit(f"unknown job {job!r}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for job in sys.argv[1:]:
        print(json.dumps(run(job)), flush=True)
