#!/usr/bin/env bash
# The game modules every arbiter binary carries: the proof games of games/ built for
# wasm32-unknown-unknown and checked in as games/dist/NAME.wasm, with games/dist/games.sources
# beside them (the sha256 of each source they were built from). The binary embeds them
# (referee/src/carried.rs), so an installed arbiter plays `arbiter match amazons ...` and
# starts `arbiter contest init c --game amazons` in any directory, with no checkout and no wasm
# toolchain. The test referee/tests/carried_games.rs fails when a source changed since: then
# run this script and commit games/dist.
#   bash scripts/games-dist.sh           rebuild every module and record the sources
#   bash scripts/games-dist.sh --hashes  only record the sources (a change that cannot change
#                                        a module, e.g. a comment)
set -euo pipefail
cd "$(dirname "$0")/.."
# The games carried, by the module's own name (its crate is games/NAME, package game-NAME).
GAMES="amazons connect-four connect6 dots-and-boxes einstein hex chinese-checkers goofspiel snake dou-dizhu"
ROOTS="game-kit/src game-kit/Cargo.toml"
for g in $GAMES; do ROOTS="$ROOTS games/$g/src games/$g/Cargo.toml"; done
mkdir -p games/dist
if [ "${1:-}" != --hashes ]; then
  target=${CARGO_TARGET_DIR:-$PWD/target}/kit-wasm
  for g in $GAMES; do
    # As kit-host's build does: release, no debug info (line tables make a module ten times
    # larger).
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=debuginfo \
      cargo build --quiet --release --target wasm32-unknown-unknown -p "game-$g" --target-dir "$target"
    cp "$target/wasm32-unknown-unknown/release/game_${g//-/_}.wasm" "games/dist/$g.wasm"
  done
fi
{
  echo "# roots: $ROOTS"
  # shellcheck disable=SC2086
  find $ROOTS -type f | LC_ALL=C sort | xargs sha256sum
} > games/dist/games.sources
echo "games/dist: $(du -cb games/dist/*.wasm | tail -1 | cut -f1) bytes of modules, games.sources written" >&2
