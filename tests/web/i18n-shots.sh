#!/usr/bin/env bash
# Issue 26's screenshots: every page and player state in English and Chinese, at 1280 and
# 375 px (tests/web/i18n-shots.mjs), for a person to look at; the script prints the shots whose
# page is wider than the window. Installs Debian's chromium and a CJK font (apt, retried:
# without a CJK font headless Chromium draws every Chinese character as a box), builds the
# player with its samples and arbiter, starts `arbiter contest demo` in a temporary directory
# on a free port, waits for the games the shots open, serves the player, and writes the shots
# to tests/artifacts/web/i18n/. PROFILE=release builds arbiter optimised (default: dev).
# Extra arguments go to `arbiter contest demo` (e.g. --unsafe-containment).
set -euo pipefail
cd "$(dirname "$0")"
WEB=$PWD
ROOT=$(cd ../.. && pwd)
log() { printf '\033[1m[i18n-shots]\033[0m %s\n' "$*" >&2; }

# shellcheck source=../../scripts/apt.sh
source "$ROOT/scripts/apt.sh"
apt_install chromium "${CJK_FONT_PACKAGE:-fonts-wqy-microhei}"
[ -x /usr/bin/chromium ] || { echo "chromium could not be installed" >&2; exit 1; }
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --loglevel=error

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
WWW_DIR=${WWW_OUT:-$TARGET_DIR/www}
WWW_OUT=$WWW_DIR bash "$ROOT/scripts/build-web.sh"
case "${PROFILE:-dev}" in
  dev) (cd "$ROOT" && cargo build -q -p arbiter); BIN="$TARGET_DIR/debug/arbiter" ;;
  *) (cd "$ROOT" && cargo build -q --profile "$PROFILE" -p arbiter); BIN="$TARGET_DIR/$PROFILE/arbiter" ;;
esac

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
TMP=$(mktemp -d /tmp/arbiter-i18n-shots.XXXXXX)
PORT=$(free_port)
PORT2=$(free_port)
"$BIN" contest demo --dir "$TMP/contest" --listen "127.0.0.1:$PORT" --pace 0 "$@" >"$TMP/demo.log" 2>&1 &
DEMO=$!
python3 -m http.server "$PORT2" --bind 127.0.0.1 --directory "$WWW_DIR" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$DEMO" "$SERVER" 2>/dev/null || true; wait "$DEMO" 2>/dev/null || true; rm -rf "$TMP"' EXIT

# The shots open games 7 and 9 and submission 5: wait until the demo has played them.
up() { python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=5)" "$1" 2>/dev/null; }
log "waiting for the demo contest's games (log: $TMP/demo.log)"
for _ in $(seq 1 300); do
  up "http://127.0.0.1:$PORT/games/9" && up "http://127.0.0.1:$PORT2/player.html" && break
  kill -0 "$DEMO" 2>/dev/null || { cat "$TMP/demo.log" >&2; exit 1; }
  sleep 1
done
up "http://127.0.0.1:$PORT/games/9" || { echo "the demo has no game 9 after 300 s" >&2; exit 1; }

OUT="$ROOT/tests/artifacts/web/i18n"
mkdir -p "$OUT"
log "screenshots in $OUT"
BASE="http://127.0.0.1:$PORT" WWW_URL="http://127.0.0.1:$PORT2" OUT="$OUT" \
  SAMPLES=${SAMPLES:-reversi-8.json,gomoku-renju.json,duel-500.json,reversi16-fail-illegal.json,duel-fail-cell.json,gomoku-crash.json} \
  node "$WEB/i18n-shots.mjs"
