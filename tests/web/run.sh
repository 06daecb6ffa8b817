#!/usr/bin/env bash
# The web player's end-to-end tests and benchmark in Debian's headless Chromium: installs
# chromium and a CJK font (apt, retried) and playwright-core (npm ci, no browser download),
# builds the player (scripts/build-web.sh) and the referee (the oracle), serves the output on
# 127.0.0.1, runs `node --test` (live.test.mjs starts the referee's own live hub, `arbiter match
# --live`, on free loopback ports), then the benchmark (prints figures). Screenshots go to
# tests/artifacts/web/.  BENCH=0 skips the benchmark.
set -euo pipefail
cd "$(dirname "$0")"
WEB=$PWD
ROOT=$(cd ../.. && pwd)
log() { printf '\033[1m[web-tests]\033[0m %s\n' "$*" >&2; }

# A CJK font too: without one headless Chromium draws every Chinese character as a box
# (player.test.mjs checks that the Chinese player's glyphs are drawn).
# shellcheck source=../../scripts/apt.sh
source "$ROOT/scripts/apt.sh"
apt_install chromium "${CJK_FONT_PACKAGE:-fonts-wqy-microhei}" || true
[ -x /usr/bin/chromium ] || { echo "chromium could not be installed" >&2; exit 1; }

log "npm ci"
npm ci --no-audit --no-fund --loglevel=error

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
export WWW_DIR=${WWW_OUT:-$TARGET_DIR/www}
# The page every binary carries (www/dist/player.html) is what is tested when it was built
# from the sources as they are (the player's wasm build takes minutes); else it is built.
if [ -z "${PLAYER_HTML+set}" ] && bash "$ROOT/scripts/player-dist.sh" --check; then
  export PLAYER_HTML="$ROOT/www/dist/player.html"
fi
WWW_OUT=$WWW_DIR bash "$ROOT/scripts/build-web.sh"

# The module games' samples (kit-player.test.mjs): a replay of each proof game carrying its
# module, broken modules, the modules themselves (the proof games built by kit-host).
log "module game samples"
(cd "$ROOT" && cargo run -q --release -p arbiter-player --example make_kit_samples -- "$WWW_DIR/kit" >/dev/null)

# Release: the same binary `cargo test --workspace --release` (scripts/test.sh) already built.
log "cargo build --release -p arbiter (the oracle)"
(cd "$ROOT" && cargo build -q --release -p arbiter)
export ARBITER_BIN="$TARGET_DIR/release/arbiter"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
PORT2=$(free_port)
# Two servers of the same files on two ports: two origins, for the allow-list test.
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$WWW_DIR" >/dev/null 2>&1 &
SERVER=$!
python3 -m http.server "$PORT2" --bind 127.0.0.1 --directory "$WWW_DIR" >/dev/null 2>&1 &
SERVER2=$!
trap 'kill "$SERVER" "$SERVER2" 2>/dev/null || true' EXIT
export WWW_URL="http://127.0.0.1:$PORT"
export WWW_URL2="http://127.0.0.1:$PORT2"
for url in "$WWW_URL" "$WWW_URL2"; do
  for _ in $(seq 1 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('$url/player.html')" 2>/dev/null && break
    sleep 0.1
  done
done
export ARTIFACTS_DIR="$ROOT/tests/artifacts/web"
mkdir -p "$ARTIFACTS_DIR"

log "node --test (artifacts in $ARTIFACTS_DIR)"
# WEB_TESTS="kit-player.test.mjs live.test.mjs" runs only those files (while working on them).
read -r -a files <<< "${WEB_TESTS:-player.test.mjs failures.test.mjs contest.test.mjs live.test.mjs kit-player.test.mjs seats.test.mjs}"
# WEB_TEST_PATTERN="a person plays" runs only the tests whose names match.
pattern=()
[ -n "${WEB_TEST_PATTERN:-}" ] && pattern=(--test-name-pattern "$WEB_TEST_PATTERN")
node --test --test-concurrency=1 --test-timeout=600000 "${pattern[@]}" "${files[@]/#/$WEB/}"

if [ "${BENCH:-1}" != "0" ]; then
  log "benchmark"
  node "$WEB/bench.mjs"
  # A replay of 100,000 and of 1,000,000 plies: the first frame, every move checked, the page's
  # longest stall meanwhile (issue 32).
  node "$WEB/bench-long.mjs"
fi
