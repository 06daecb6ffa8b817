#!/usr/bin/env bash
# The main job on a fresh machine: build arbiter and the web player, then
# `arbiter contest demo`: a ready contest (five students whose submissions are the sample bots,
# one compile error among them) served on 127.0.0.1:8080, its games playing while you watch
# the scoreboard, every game live and in the player. Extra arguments go to `arbiter contest
# demo` (e.g. --listen 127.0.0.1:9000).
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '\033[1m[demo]\033[0m %s\n' "$*" >&2; }
SECONDS=0
bash scripts/setup.sh
TARGET=${CARGO_TARGET_DIR:-target}
# The player's wasm compiles beside the referee, in its own target directory so that neither
# cargo waits for the other's lock: the two together keep both cores busy to the end. The
# bindgen step (tools/wasm-bind) is built with the referee, sharing its dependencies, as
# `cargo test --workspace` builds them. Size matters little on a local demo, so the wasm-opt
# pass and the sample replays (for the host page, not the contest site) are left out;
# `bash scripts/build-web.sh` builds them.
web_log=$(mktemp)
web_env=(CARGO_TARGET_DIR="$TARGET/web" WWW_OUT="$TARGET/www" WASM_OPT=none SAMPLES=0 QUICK=1)
(env "${web_env[@]}" STEP=wasm bash scripts/build-web.sh) >"$web_log" 2>&1 &
web=$!
# The `demo` profile (Cargo.toml): unoptimised, no debug info; a first run is mostly
# compile time. The demo's games (sample bots against each other) need no optimised referee.
log "building arbiter and the web player (a few minutes on a fresh machine)"
cargo build --profile demo -q -p arbiter -p wasm-bind
log "arbiter built at $SECONDS s"
if wait "$web" && env "${web_env[@]}" WASM_BIND="$TARGET/demo/wasm-bind" \
    bash scripts/build-web.sh >>"$web_log" 2>&1; then
  log "web player built at $SECONDS s"
else
  cat "$web_log" >&2
  log "note: the web player did not build; games are shown as text"
fi
rm -f "$web_log"
exec "$TARGET/demo/arbiter" contest demo "$@"
