#!/usr/bin/env bash
# Times `arbiter perft reversi` (hashed and plain) against Edax 4.6's `-count games D` on this
# machine, in one run, alternating the programs so that a busy neighbour hurts both alike.
#
#   scripts/perft-vs-edax.sh [DEPTH ...]          (default: 11 12)
#
# Env: ARBITER (default target/release/arbiter), EDAX (an Edax binary; default: built from
# EDAX_SRC, a checkout of github.com/abulmo/edax-reversi, by `make build` into its bin/),
# RUNS (runs per program and depth, default 3), HASH_MB (arbiter's table, default: its own).
# docs/peers.md says how to build Edax by hand.
#
# Edax loads an evaluation file at start even to count: it refuses one without its header
# ("EDAX", "EVAL", version numbers, a date) and 61 plies of 114,364 weights. Counting never
# evaluates, so a file of zero weights written here does (it is data, not Edax's).
#
# Figures: the CPU time (user + sys) of each process, and Edax's own time for the last depth
# (it counts depths 1..D, each with a fresh table, after loading the evaluation file: its
# per-depth time is the one to compare; arbiter's process counts depth D only).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTHS=("${@:-11}")
[ $# -eq 0 ] && DEPTHS=(11 12)
RUNS=${RUNS:-3}
ARBITER=${ARBITER:-target/release/arbiter}
WORK=${WORK:-$(mktemp -d)}

[ -x "$ARBITER" ] || { echo "no $ARBITER: cargo build --release -p arbiter" >&2; exit 1; }
if [ -z "${EDAX:-}" ]; then
  [ -n "${EDAX_SRC:-}" ] || { echo "set EDAX (a binary) or EDAX_SRC (a source checkout)" >&2; exit 1; }
  arch=x86-64-v3
  grep -q avx2 /proc/cpuinfo || arch=x86-64
  (cd "$EDAX_SRC/src" && mkdir -p ../bin && make build ARCH=$arch COMP=gcc CC=gcc OS=linux >/dev/null)
  EDAX=$EDAX_SRC/bin/lEdax-$arch
fi

EVAL=$WORK/eval.dat
python3 - "$EVAL" <<'PY'
import struct, sys
header = struct.pack('<IIIIId', 0x45444158, 0x4556414c, 4, 6, 0, 0.0)  # EDAX EVAL 4.6.0, date 0
with open(sys.argv[1], 'wb') as f:
    f.write(header + bytes(61 * 114364 * 2))
PY

cpu() { # prints "USER+SYS" seconds of the command, its output to $WORK/out
  /usr/bin/time -f '%U %S' -o "$WORK/time" "$@" >"$WORK/out" 2>&1
  awk '{printf "%.3f", $1 + $2}' "$WORK/time"
}

hash_flag=()
[ -n "${HASH_MB:-}" ] && hash_flag=(--hash-mb "$HASH_MB")
printf '%-6s %-4s %-14s %-14s %-14s %-14s\n' depth run "arbiter hashed" "arbiter plain" "edax process" "edax depth D"
for d in "${DEPTHS[@]}"; do
  for run in $(seq "$RUNS"); do
    h=$(cpu "$ARBITER" perft reversi --depth "$d" "${hash_flag[@]}")
    hc=$(grep -o '= [0-9]*' "$WORK/out" | tr -d '= ')
    p=$(cpu "$ARBITER" perft reversi --depth "$d" --no-hash)
    pc=$(grep -o '= [0-9]*' "$WORK/out" | tr -d '= ')
    e=$(cpu "$EDAX" -eval-file "$EVAL" -count games "$d")
    # Edax's rows "  ply, moves+passes, passes, wins, draws, losses, ..., m:ss.mmm, ...": a
    # game that ended at an earlier ply is one leaf at every depth in perft's convention, a
    # row of Edax's only at its ply; so leaves = row D's moves + every row's game ends.
    row=$(grep -E "^ +$d, " "$WORK/out" | head -1)
    ec=$(grep -E "^ +[0-9]+, " "$WORK/out" | awk -F, -v d="$d" \
      '$1 + 0 <= d { ends += $4 + $5 + $6 } $1 + 0 == d { moves = $2 } END { printf "%d", moves + ends }')
    et=$(echo "$row" | grep -oE '[0-9]+:[0-9]+\.[0-9]+' | head -1 | awk -F: '{printf "%.3f", $1 * 60 + $2}')
    [ "$hc" = "$pc" ] || { echo "MISMATCH: hashed $hc, plain $pc at depth $d" >&2; exit 1; }
    printf '%-6s %-4s %-14s %-14s %-14s %-14s\n' "$d" "$run" "$h s" "$p s" "$e s" "$et s"
  done
  echo "  depth $d: arbiter counts $hc leaves, Edax $ec"
  [ "$hc" = "$ec" ] || echo "  MISMATCH with Edax at depth $d" >&2
done
