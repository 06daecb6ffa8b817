#!/usr/bin/env bash
# The main job on a fresh machine: build arbiter and show it judging sample games.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release -q
A=target/release/arbiter

echo "== Reversi 8x8 after d3 c5 f6 (legal moves marked *)"
$A inspect reversi --size 8 --moves "d3 c5 f6"
echo
echo "== Renju: black's forbidden points are marked 3 (double-three), 4 (double-four), 6 (overline)"
$A inspect gomoku --rule renju --moves "H8 A1 I8 A2 H9 A3 I10 A15 G10 O1 H11 O15"
echo
echo "== The 2048 duel, seed 7, first round"
$A inspect duel2048 --seed 7 --moves "$(bash -c "$A inspect duel2048 --seed 7 --json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["legal_moves"][0])')"
echo
echo "== perft: 8x8 Reversi to depth 9 (published: 3,005,288)"
$A perft reversi --size 8 --depth 9
