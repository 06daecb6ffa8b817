#!/usr/bin/env bash
# The installed binary is the whole product: `cargo install --locked --root TMP --path referee`,
# then, from an empty directory far from the checkout, `contest init`, `users`, `serve` and
# `demo`, a game page's player in headless Chromium showing the game's last frame, and
# `tournament report --html` embedding the player (tests/web/install.test.mjs).
# The install reuses the workspace's target directory (CARGO_TARGET_DIR), so it links what the
# test suite built: PROFILE=release (the default, as scripts/test.sh builds) or PROFILE=dev.
set -euo pipefail
cd "$(dirname "$0")"
WEB=$PWD
ROOT=$(cd ../.. && pwd)
log() { printf '\033[1m[install-test]\033[0m %s\n' "$*" >&2; }
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --loglevel=error
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium is missing (tests/web/run.sh installs it)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/arbiter-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
case "${PROFILE:-release}" in
  dev) profile=(--debug) ;;
  *) profile=(--profile "${PROFILE:-release}") ;;
esac
log "cargo install --locked --root $TMP/root --path referee ${profile[*]}"
SECONDS=0
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target} \
  cargo install -q --locked --root "$TMP/root" --path "$ROOT/referee" "${profile[@]}"
log "installed in $SECONDS s: $(du -h "$TMP/root/bin/arbiter" | cut -f1)"
mkdir -p "$TMP/empty"
# Only the installed binary: no checkout, no target directory, no CARGO_TARGET_DIR.
(cd "$TMP/empty" && env -u CARGO_TARGET_DIR ARBITER_BIN="$TMP/root/bin/arbiter" \
  ARTIFACTS_DIR="$ROOT/tests/artifacts/web" NODE_PATH="$WEB/node_modules" \
  node --test --test-timeout=600000 "$WEB/install.test.mjs")
