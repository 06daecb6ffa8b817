#!/usr/bin/env python3
"""OpenSpiel's goofspiel, driven to arbiter's chance: the comparison of games/goofspiel.

Reads one JSON request on stdin and writes one JSON answer on stdout:

    {"cases": [{"params": {...}, "seed": 7, "depths": [1, 2]}],
     "games": [{"params": {...}, "seed": 7, "bids": [[13, 2], [4, 4], ...]}]}

`params` are OpenSpiel's game parameters. Each chance node (the next prize card) is given the
card arbiter's seed turns up: the deck is shuffled here by the algorithm docs/games/goofspiel.md
writes down (Fisher-Yates with SplitMix64), independently of the Rust code, and the answer
carries it so that the test checks both agree. Simultaneous nodes are expanded to every joint
action. The answer:

    {"cases": [{"deck": [...], "perft": [169, 24336]}],
     "games": [{"deck": [...], "points": [40, 51], "returns": [-1.0, 1.0], "rounds": 12}]}

`rounds` counts the simultaneous nodes the game went through (OpenSpiel plays the last round,
where every hand holds one card, by itself).
"""

import json
import re
import sys

import pyspiel

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix(seed):
    state = seed & MASK
    while True:
        state = (state + GOLDEN) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def deck(params, seed):
    """The prize cards in the order arbiter turns them up."""
    n = params.get("num_cards", 13)
    cards = list(range(1, n + 1))
    order = params.get("points_order", "random")
    if order == "descending":
        return cards[::-1]
    if order == "ascending":
        return cards
    draws = splitmix(seed)
    for i in range(n - 1, 0, -1):
        j = (next(draws) * (i + 1)) >> 64
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(state, cards, played):
    """Resolves a chance node with the prize of round `played` (OpenSpiel's action is the card
    minus one)."""
    if state.is_chance_node():
        state.apply_action(cards[played] - 1)


def perft(state, depth, cards, played=0):
    deal(state, cards, played)
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return len(joint_actions(state))
    total = 0
    for joint in joint_actions(state):
        child = state.clone()
        child.apply_actions(joint)
        total += perft(child, depth - 1, cards, played + 1)
    return total


def joint_actions(state):
    joints = [[]]
    for p in range(state.num_players()):
        joints = [j + [a] for j in joints for a in state.legal_actions(p)]
    return joints


def points(state):
    line = re.search(r"Points: ([-\d ]*)", str(state)).group(1)
    return [int(x) for x in line.split()]


def play(game_spec):
    params = game_spec["params"]
    cards = deck(params, game_spec["seed"])
    state = pyspiel.load_game("goofspiel", params).new_initial_state()
    rounds = 0
    for bids in game_spec["bids"]:
        deal(state, cards, rounds)
        if state.is_terminal():
            break
        state.apply_actions([b - 1 for b in bids])
        rounds += 1
    return {
        "deck": cards,
        "points": points(state),
        "returns": state.returns() if state.is_terminal() else None,
        "rounds": rounds,
    }


def main():
    request = json.load(sys.stdin)
    cases = []
    for case in request.get("cases", []):
        cards = deck(case["params"], case["seed"])
        game = pyspiel.load_game("goofspiel", case["params"])
        counts = [perft(game.new_initial_state(), d, cards) for d in case["depths"]]
        cases.append({"deck": cards, "perft": counts})
    games = [play(g) for g in request.get("games", [])]
    json.dump({"cases": cases, "games": games}, sys.stdout)


if __name__ == "__main__":
    main()
