#!/usr/bin/env bash
# The main job on a fresh machine: build arbiter and the web player, then
# `arbiter contest demo`: a ready contest (five students whose submissions are the sample bots,
# one compile error among them) served on 127.0.0.1:8080, its games playing while you watch
# the scoreboard, every game live and in the player. Extra arguments go to `arbiter contest
# demo` (e.g. --listen 127.0.0.1:9000).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Built on its own: built together with tools/wasm-bind, shared dependencies would get that
# pair's features, and build-web.sh's build of wasm-bind alone would build them again.
cargo build --release -q -p arbiter
if [ -f scripts/build-web.sh ]; then
  bash scripts/build-web.sh || echo "note: the web player did not build; games are shown as text" >&2
fi
exec "${CARGO_TARGET_DIR:-target}/release/arbiter" contest demo "$@"
