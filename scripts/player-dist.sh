#!/usr/bin/env bash
# The web player every arbiter binary carries: www/dist/player.html, built by
# scripts/build-web.sh and checked in, with www/dist/player.sources beside it (the sha256 of
# each source it was built from). The binary embeds it, so an installed arbiter
# (`cargo install --locked --path referee`) has its player in any directory, on a machine
# without the wasm toolchain. The test referee/tests/player_dist.rs fails when a source
# changed since: then run this script and commit both files.
#   bash scripts/player-dist.sh          rebuild the player and record its sources
#   bash scripts/player-dist.sh --hashes only record the sources (after a change that
#                                         cannot change the player, e.g. a comment)
#   bash scripts/player-dist.sh --check  exit 0 when www/dist was built from the sources as
#                                         they are (tests/web/run.sh then tests that page)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# What the player is built from. Cargo.lock is left out: it changes with every dependency
# of the workspace, and the versions the player uses are pinned there all the same.
ROOTS="player-web/src player-web/Cargo.toml player-web/alloc engine/src engine/Cargo.toml game-kit/src game-kit/Cargo.toml i18n/src i18n/build.rs i18n/Cargo.toml i18n/en/player.ftl i18n/en/verdict.ftl i18n/zh-CN/player.ftl i18n/zh-CN/verdict.ftl tools/wasm-bind/src www/player.html www/kit.js www/lzma.js scripts/build-web.sh"
sources() {
  echo "# roots: $ROOTS"
  find $ROOTS -type f | LC_ALL=C sort | xargs sha256sum
}
if [ "${1:-}" = --check ]; then
  sources | cmp -s - www/dist/player.sources
  exit
fi
if [ "${1:-}" != --hashes ]; then
  out=$(mktemp -d)
  PLAYER_HTML="" WWW_OUT="$out" SAMPLES=0 bash scripts/build-web.sh
  cp "$out/player.html" www/dist/player.html
  rm -rf "$out"
fi
{
  echo "# roots: $ROOTS"
  # shellcheck disable=SC2086
  find $ROOTS -type f | LC_ALL=C sort | xargs sha256sum
} > www/dist/player.sources
echo "www/dist/player.html ($(stat -c %s www/dist/player.html) bytes) and www/dist/player.sources written in $ROOT" >&2
