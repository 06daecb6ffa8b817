#!/usr/bin/env bash
# The top level (builtin:5, as A) against the sample greedy bots, as an SPRT on each game's
# shipped openings (docs/sparring.md). Build them first: make -C bots.
# Usage: sparring/ladder/greedy.sh [ARBITER] [MAX_GAMES]
set -u
A=${1:-./target/release/arbiter}
MAX=${2:-200}
B=bots/bin
vs() {
    printf '%s\n' "$*"
    "$A" match "$@" --sprt elo0=0,elo1=20 --max-games "$MAX" --seed 1 -q 2>/dev/null |
        grep -E '^(builtin|[a-z_]*greedy|pairs|Elo|decision|[0-9]+ games)' | sed 's/^/    /'
}
vs reversi --size 8 builtin:5 "$B/reversi_greedy 8" --protocol reversi-board
vs reversi --size 16 builtin:5 "$B/reversi_greedy 16" --protocol reversi-board
vs gomoku --rule freestyle builtin:5 "$B/gomocup_greedy"
vs gomoku --rule standard builtin:5 "$B/gomocup_greedy"
vs gomoku --rule renju builtin:5 "$B/gomocup_greedy"
vs duel2048 builtin:5 "$B/duel_greedy"
