#!/usr/bin/env bash
# Each step of the sparring ladder as an SPRT: level N+1 (A) against level N (B), on the game's
# shipped openings (docs/sparring.md). Usage: sparring/ladder/steps.sh [ARBITER] [MAX_GAMES]
set -u
A=${1:-./target/release/arbiter}
MAX=${2:-600}
step() { # GAME-ARGS... -- UPPER LOWER
    local upper=$1 lower=$2; shift 2
    printf '%s: builtin:%s vs builtin:%s: ' "$*" "$upper" "$lower"
    "$A" match "$@" "builtin:$upper" "builtin:$lower" --sprt elo0=0,elo1=20 \
        --max-games "$MAX" --seed 1 -q 2>/dev/null |
        grep -E '^(pairs|Elo|decision)' | tr '\n' ' '
    echo
}
for n in 1 2 3 4; do step $((n + 1)) $n reversi --size 8; done
step 1 random reversi --size 8
for n in 1 2 3 4; do step $((n + 1)) $n reversi --size 16; done
for rule in freestyle standard renju; do
    for n in 1 2 3 4; do step $((n + 1)) $n gomoku --rule $rule; done
done
for n in 1 2 3 4; do step $((n + 1)) $n duel2048; done
