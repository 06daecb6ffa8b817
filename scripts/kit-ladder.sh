#!/usr/bin/env bash
# The built-in Monte Carlo ladder's strength on each proof game module: each rung against the
# one below (builtin:1 against builtin:random, 2 against 1, 3 against 2), GAMES games a
# pairing (colours swapped in pairs), MOVE_MS a move. Prints a table (score of the higher rung,
# and the Elo difference it means with a 95 % interval); asserts nothing. A benchmark, not a
# test: about half an hour on 2 cores with the defaults.
#
#   bash scripts/kit-ladder.sh                 # every proof game
#   GAMES=10 MOVE_MS=500 bash scripts/kit-ladder.sh connect-four amazons
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-20}
MOVE_MS=${MOVE_MS:-1000}
TARGET=${CARGO_TARGET_DIR:-target}
cargo build -q --release -p arbiter
ARBITER=$TARGET/release/arbiter
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(connect-four amazons connect6 dots-and-boxes einstein hex)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| game | higher rung | against | games | score (W-D-L) | Elo difference |\n|---|---|---|---|---|---|\n'
for game in "${games[@]}"; do
  package="game-$game"
  cargo build -q --release --target wasm32-unknown-unknown -p "$package" \
    --target-dir "$TARGET/kit-wasm"
  module="$TARGET/kit-wasm/wasm32-unknown-unknown/release/game_${game//-/_}.wasm"
  for rung in "1 random" "2 1" "3 2"; do
    set -- $rung
    dir="$out/$game-$1-$2"
    "$ARBITER" match "$module" "builtin:$1" "builtin:$2" --games "$GAMES" --seed 7 \
      --move-time "$MOVE_MS" --quiet -o "$dir" >/dev/null
    python3 - "$dir/summary.json" "$game" "$1" "$2" <<'EOF'
import json, math, sys
s = json.load(open(sys.argv[1]))
t = s["totals"][0]
w, d, l = t["wins"], t["draws"], t["losses"]
n = w + d + l
score = (w + d / 2) / n
def elo(p):
    p = min(max(p, 0.5 / n), 1 - 0.5 / n)
    return -400 * math.log10(1 / p - 1)
# Normal interval on the score (per game), mapped through the logistic curve.
var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
half = 1.96 * math.sqrt(var / n)
lo, hi = elo(score - half), elo(score + half)
print(f"| {sys.argv[2]} | builtin:{sys.argv[3]} | builtin:{sys.argv[4]} | {n} | "
      f"{score:.0%} ({w}-{d}-{l}) | {elo(score):+.0f} [{lo:+.0f}, {hi:+.0f}] |")
EOF
  done
done
