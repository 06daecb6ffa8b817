#!/usr/bin/env python3
"""OpenSpiel's dou_dizhu driven to arbiter's deals: perft counts and whole games replayed.

Reads one JSON job on stdin, written by games/dou-dizhu/tests/openspiel.rs:

    {"perft": [{"deck": [54 card ids], "faceup": p, "prefix": ["bid3", ...], "depth": d}],
     "games": [{"deck": [...], "faceup": p, "hands": ["3345...", x3],
                "plies": [{"legal": ["pass", "bid1", ...], "move": "bid1"}, ...]}]}

and answers {"perft": [count, ...], "games": [{"returns": [r0, r1, r2]} or {"error": why}]}.

The deal: arbiter's deck is in OpenSpiel's card numbering (card c < 52 has rank c % 13, 52 is
the black joker, 53 the red one), so OpenSpiel's chance nodes are driven with the same cards:
first the face-up position p (its holder, seat p % 3, bids first), then the deal actions
51 + deck[k] for k = 0..50 (card k goes to seat k % 3); the three cards left are the
landlord's.

Moves: OpenSpiel's actions are numbered by category (0 pass, 1-3 the bids, then solos, solo
chains, pairs, pair chains, trios, trios with a solo, with a pair, airplanes, airplanes with
solo wings, with pair wings, bombs, the rocket; dou_dizhu_utils.h), the kickers of an airplane
numbered by a depth-first enumeration. Rather than recompute those numbers, this script maps
each legal action through OpenSpiel's own decoder, action_to_string, to arbiter's notation
("Pass" -> pass, "Bid 2" -> bid2, "(BWJ)" -> B, "(CJ)" -> R; an airplane with wings is
"333444-56" in both), so the comparison also checks that each action is the combination its
text says.
"""

import json
import sys

import pyspiel

DEALING_BASE = 51  # kDealingActionBase: deal actions are 51 + card id


def our_text(state, action):
    text = state.action_to_string(state.current_player(), action)
    if text == "Pass":
        return "pass"
    if text.startswith("Bid "):
        return "bid" + text[4:]
    return text.replace("(BWJ)", "B").replace("(CJ)", "R")


def legal(state):
    """Arbiter's text of each legal action -> the action."""
    texts = {}
    for action in state.legal_actions():
        text = our_text(state, action)
        if text in texts:
            raise ValueError(f"two actions read {text}")
        texts[text] = action
    return texts


def dealt(game, deck, faceup):
    state = game.new_initial_state()
    state.apply_action(faceup)
    for card in deck[:51]:
        state.apply_action(DEALING_BASE + card)
    return state


def play(state, text):
    actions = legal(state)
    if text not in actions:
        raise ValueError(f"{text} is not legal in OpenSpiel: {sorted(actions)}")
    state.apply_action(actions[text])


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.child(a), depth - 1) for a in actions)


def hand_of(state, seat):
    line = state.observation_string(seat).splitlines()[0]
    return our_text_cards(line[len("My hand "):])


def our_text_cards(text):
    return text.replace("(BWJ)", "B").replace("(CJ)", "R")


def replay(game, job):
    state = dealt(game, job["deck"], job["faceup"])
    for seat, hand in enumerate(job["hands"]):
        if hand_of(state, seat) != hand:
            return {"error": f"seat {seat} holds {hand_of(state, seat)}, arbiter says {hand}"}
    for i, ply in enumerate(job["plies"]):
        ours, theirs = set(ply["legal"]), set(legal(state))
        if ours != theirs:
            return {
                "error": f"ply {i}: only arbiter has {sorted(ours - theirs)[:20]}, "
                f"only OpenSpiel has {sorted(theirs - ours)[:20]}"
            }
        play(state, ply["move"])
    if not state.is_terminal():
        return {"error": "OpenSpiel's game is not over"}
    return {"returns": state.returns()}


def main():
    job = json.load(sys.stdin)
    game = pyspiel.load_game("dou_dizhu")
    counts = []
    for p in job.get("perft", []):
        state = dealt(game, p["deck"], p["faceup"])
        for text in p["prefix"]:
            play(state, text)
        counts.append(perft(state, p["depth"]))
    games = []
    for g in job.get("games", []):
        try:
            games.append(replay(game, g))
        except ValueError as e:
            games.append({"error": str(e)})
    json.dump({"perft": counts, "games": games}, sys.stdout)


if __name__ == "__main__":
    main()
