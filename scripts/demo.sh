#!/usr/bin/env bash
# The main job on a fresh machine: build arbiter, then `arbiter contest demo`: a ready contest
# (five students whose submissions are the sample bots, one compile error among them) served on
# 127.0.0.1:8080, its games playing while you watch the scoreboard, every game live and in the
# player. The binary carries the web player (www/dist/player.html) and the sample bots, so no
# wasm is compiled here (`bash scripts/build-web.sh` builds a player from its sources, for
# `--player target/www/player.html`). Extra arguments go to `arbiter contest demo` (e.g. --listen
# 127.0.0.1:9000).
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '\033[1m[demo]\033[0m %s\n' "$*" >&2; }
SECONDS=0
bash scripts/setup.sh
TARGET=${CARGO_TARGET_DIR:-target}
# The `demo` profile (Cargo.toml): unoptimised, no debug info; a first run is mostly
# compile time. The demo's games (sample bots against each other) need no optimised referee.
log "building arbiter (a few minutes on a fresh machine)"
cargo build --profile demo -q -p arbiter
log "arbiter built at $SECONDS s"
exec "$TARGET/demo/arbiter" contest demo "$@"
