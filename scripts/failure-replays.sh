#!/usr/bin/env bash
# One replay per failure kind, each lost by a misbehaving bot (tests/bots/) against a built-in
# bot, with its `failure` record (the bot's line, DEBUG text, stderr tail, how it ended):
# fixtures for the web player and the report site.
#
#   scripts/failure-replays.sh OUT_DIR
#
# Writes OUT_DIR/{illegal,malformed,timeout,traceback,memory,segfault,killed}.json. Uses
# $ARBITER (default: target/release/arbiter, built if missing); needs cc and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: $0 OUT_DIR}"
arbiter="${ARBITER:-$root/target/release/arbiter}"
if [[ ! -x "$arbiter" ]]; then
    cargo build --release -p arbiter --manifest-path "$root/Cargo.toml"
fi
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/misbehave" "$root/tests/bots/reversi_misbehave.c"
cp "$root/tests/bots/reversi_traceback.py" "$work/"
out="$(cd "$out" && pwd)"
# Relative commands keep this machine's paths out of the replays.
cd "$work"

# play NAME SIZE BOT [arbiter match options...]: the bot takes Black against builtin:random.
play() {
    local name="$1" size="$2" bot="$3"
    shift 3
    rm -rf "$name"
    "$arbiter" match reversi --size "$size" "$bot" builtin:random --name-a student -n 1 -q \
        -o "$name" "$@" >/dev/null
    mv "$name/game-0001.json" "$out/$name.json"
}

play illegal 16 "./misbehave occupied 20 16"
play malformed 8 "./misbehave malformed 4 8"
play timeout 8 "./misbehave loop 3 8" --move-time 300
play traceback 8 "python3 reversi_traceback.py 4 8"
play memory 8 "./misbehave hog 3 8" --memory 64
play segfault 8 "./misbehave segv 3 8"
play killed 8 "./misbehave sigkill 3 8"
echo "failure replays in $out"
