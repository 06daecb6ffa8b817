#!/usr/bin/env bash
# The CPU a 40-game match costs with cgroups and without (ARBITER_CONTAINMENT_OFF=cgroups,
# where every CPU-time reading walks /proc instead of reading the bot's cgroup), in one run,
# alternating, with the CPU of the whole match: the referee and the bots it waited for (user +
# sys from /usr/bin/time). The bar (issue 36): without cgroups at most 1.2 times with.
#
#   scripts/cpu-no-cgroups.sh
#
# Env: ARBITER (default target/release/arbiter), BASELINE (another arbiter binary, e.g. one
# built before a change: its two rows are printed too), GAMES (default 40), RUNS (default 2),
# SIZE (Reversi board, default 8), BOT_A / BOT_B (default the C sample bots, greedy and random).
set -euo pipefail
cd "$(dirname "$0")/.."
ARBITER=${ARBITER:-target/release/arbiter}
GAMES=${GAMES:-40}
RUNS=${RUNS:-2}
SIZE=${SIZE:-8}
[ -x "$ARBITER" ] || { echo "no $ARBITER: cargo build --release -p arbiter" >&2; exit 1; }
make -s -C bots >/dev/null
BOT_A=${BOT_A:-bots/bin/reversi_greedy $SIZE}
BOT_B=${BOT_B:-bots/bin/reversi_random $SIZE}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One match; sets CPU (user + sys seconds of the referee and its bots).
match() { # BINARY OFF
  local out=$WORK/out-$RANDOM
  ARBITER_CONTAINMENT_OFF=$2 /usr/bin/time -f '%U %S %e' -o "$WORK/time" \
    "$1" match reversi --size "$SIZE" "$BOT_A" "$BOT_B" --games "$GAMES" -o "$out" \
    >"$WORK/log" 2>&1 || { cat "$WORK/log" >&2; exit 1; }
  CPU=$(awk '{printf "%.2f", $1 + $2}' "$WORK/time")
}

binaries=("$ARBITER")
[ -n "${BASELINE:-}" ] && binaries+=("$BASELINE")
printf '%-44s %-4s %-12s %-12s %-8s\n' binary run "cgroups CPU" "no-cgroups" ratio
for bin in "${binaries[@]}"; do
  for run in $(seq "$RUNS"); do
    match "$bin" ""
    with=$CPU
    match "$bin" cgroups
    without=$CPU
    ratio=$(awk -v a="$without" -v b="$with" 'BEGIN { printf "%.2f", a / b }')
    printf '%-44s %-4s %-12s %-12s %-8s\n' "$bin" "$run" "$with s" "$without s" "$ratio"
  done
done
