#!/usr/bin/env python3
"""OpenSpiel's snake, driven to arbiter's chance: the comparison of games/snake.

Reads one JSON request on stdin and writes one JSON answer on stdout:

    {"cases": [{"params": {"rows": 10, "columns": 10, "players": 2}, "seed": 7,
                "depths": [1, 2]}],
     "games": [{"params": {...}, "seed": 7, "moves": [[1, 3], [0, null], ...]}]}

`params` are OpenSpiel's game parameters; moves are OpenSpiel's actions (0 north, 1 east,
2 south, 3 west), `null` for a snake that is dead. Each chance node (the food) is given the
cell arbiter's seed draws: food number k (from 0) goes to empty cell
floor(splitmix64_output(seed, k + 1) * empty / 2**64) in OpenSpiel's own list of empty cells
(row by row from the top left), the rule docs/games/snake.md writes down, coded here
independently of the Rust code. Simultaneous nodes are expanded to every joint action of the
living snakes; OpenSpiel also gives a dead snake its four actions, which change nothing, and
they are counted once here, as arbiter counts them. The answer:

    {"cases": [{"perft": [16, 256]}],
     "games": [{"turns": [{"alive": [...], "scores": [...], "heads": [[row, col], null],
                           "food": [row, col], "terminal": false}, ...],
                "returns": [...]}]}

one entry per turn played, after the food that follows it is placed.
"""

import json
import re
import sys

import pyspiel

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def pick(seed, k, empty):
    """The empty cell food number `k` of the game with `seed` goes to."""
    x = mix((seed + (k + 1) * GOLDEN) & MASK)
    return (x * empty) >> 64


def place(state, seed, placed):
    """Resolves a chance node with arbiter's draw; answers the food placed so far."""
    if state.is_chance_node():
        state.apply_action(pick(seed, placed, len(state.legal_actions())))
        return placed + 1
    return placed


def alive(state):
    scores = re.search(r"Scores:(.*)", str(state)).group(1).split()
    return ["(dead)" not in s for s in scores]


def joint_actions(state):
    joints = [[]]
    for living in alive(state):
        joints = [j + [a] for j in joints for a in (range(4) if living else [0])]
    return joints


def perft(state, depth, seed, placed=0):
    placed = place(state, seed, placed)
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return 4 ** sum(alive(state))
    total = 0
    for joint in joint_actions(state):
        child = state.clone()
        child.apply_actions(joint)
        total += perft(child, depth - 1, seed, placed)
    return total


def snapshot(state):
    """The living snakes, their scores, heads and the food, from the state's printout."""
    text = str(state)
    grid = text.split("Scores:")[0].split()
    heads = [None] * state.num_players()
    food = None
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            if ch.isdigit():
                heads[int(ch)] = [r, c]
            elif ch == "*":
                food = [r, c]
    scores = [int(s.split("=")[1].replace("(dead)", "")) for s in text.split("Scores:")[1].split()]
    return {
        "alive": alive(state),
        "scores": scores,
        "heads": heads,
        "food": food,
        "terminal": state.is_terminal(),
    }


def play(spec):
    state = pyspiel.load_game("snake", spec["params"]).new_initial_state()
    placed = place(state, spec["seed"], 0)
    turns = []
    for moves in spec["moves"]:
        if state.is_terminal():
            break
        state.apply_actions([0 if m is None else m for m in moves])
        placed = place(state, spec["seed"], placed)
        turns.append(snapshot(state))
    return {"turns": turns, "returns": state.returns()}


def main():
    request = json.load(sys.stdin)
    cases = []
    for case in request.get("cases", []):
        game = pyspiel.load_game("snake", case["params"])
        counts = [perft(game.new_initial_state(), d, case["seed"]) for d in case["depths"]]
        cases.append({"perft": counts})
    games = [play(g) for g in request.get("games", [])]
    json.dump({"cases": cases, "games": games}, sys.stdout)


if __name__ == "__main__":
    main()
