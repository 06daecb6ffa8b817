#!/usr/bin/env bash
# How long a 300-student contest takes, from measured games: plays a few games for each kind of
# bot (the sample bots in C and Python, the built-in levels) under the contest limits, one game
# at a time as one worker slot plays them, and projects the 89,700 games of a 300-student round
# robin (2 games a pairing) onto 40 and 160 slots (10 or 40 machines of 8 cores, a bot a core).
# Prints a table (docs/scale.md quotes it); asserts nothing.
#   bash scripts/projection.sh [GAMES_PER_LINE]      (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-4}
TARGET=${CARGO_TARGET_DIR:-target}
cargo build -q --release -p arbiter
make -s -C bots >/dev/null
arbiter=$TARGET/release/arbiter
contest_games=$((300 * 299 / 2 * 2))

# One line of the table: GAME LABEL BOT_A BOT_B.
line() {
  local game=$1 label=$2 a=$3 b=$4
  local out start
  start=$(date +%s.%N)
  out=$("$arbiter" match "$game" "$a" "$b" -n "$games" 2>&1) || {
    echo "$label: the match failed:" >&2
    echo "$out" >&2
    exit 1
  }
  python3 - "$label" "$contest_games" "$out" "$start" "$(date +%s.%N)" <<'PY'
import re, sys
label, contest_games, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
secs = float(sys.argv[5]) - float(sys.argv[4])
games = float(re.search(r"(\d+) games in [\d.]+ s", out).group(1))
ms = [float(m) for m in re.findall(r"^\S+\s+\d+\s+\d+\s+\d+\s+([\d.]+)", out, re.M)]
per_game = secs / games
def span(slots):
    s = contest_games * per_game / slots
    if s < 60:
        return "under 1 min"
    if s < 3600:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h" if s < 48 * 3600 else f"{s / 86400:.1f} days"
print(f"| {label} | {sum(ms) / len(ms):.2f} ms | {per_game:.2f} s | {span(40)} | {span(160)} |")
PY
}

echo "$games games a line, one at a time; $contest_games games in the projection"
echo
echo "| bots (both sides) | mean move | one game | on 40 slots | on 160 slots |"
echo "|---|---|---|---|---|"
line reversi "Reversi 16: sample greedy, C" bots/bin/reversi_greedy bots/bin/reversi_greedy
line reversi "Reversi 16: sample greedy, Python" "python3 bots/python/reversi_greedy.py" \
  "python3 bots/python/reversi_greedy.py"
line reversi "Reversi 16: builtin:3" builtin:3 builtin:3
line reversi "Reversi 16: builtin:5" builtin:5 builtin:5
line gomoku "Gomoku 15: sample greedy, Python" "python3 bots/python/gomocup_greedy.py" \
  "python3 bots/python/gomocup_greedy.py"
line gomoku "Gomoku 15: builtin:5" builtin:5 builtin:5
line duel2048 "2048 duel: seed 000's greedy example, Python" \
  "python3 bots/python/sessdsa_host.py bots/python/sessdsa_examples/greedy_player.py" \
  "python3 bots/python/sessdsa_host.py bots/python/sessdsa_examples/greedy_player.py"
