#!/usr/bin/env bash
# The main job on a fresh machine: build arbiter (and the web player when its toolchain is
# there), then `arbiter demo`: sample bots built, a short tournament per game, the site served
# on 127.0.0.1 with its URL printed. Extra arguments go to `arbiter demo` (e.g. --no-serve).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Built on its own: built together with tools/wasm-bind, shared dependencies would get that
# pair's features, and build-web.sh's build of wasm-bind alone would build them again.
cargo build --release -q -p arbiter
if [ -f scripts/build-web.sh ]; then
  bash scripts/build-web.sh || echo "note: the web player did not build; the site shows games as text" >&2
fi
exec "${CARGO_TARGET_DIR:-target}/release/arbiter" demo "$@"
