#!/usr/bin/env bash
# Every test arbiter has, from a fresh checkout: set-up, formatting, lints, the no_std/wasm
# build of the engine, the Rust test suites, and the web player's tests in a real browser.
# Exits non-zero on the first failure. Benchmarks are separate (see README).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (seconds since the start), so the suite's time per step is in
# the log: the budget is 25 minutes on an idle 2-core machine.
step() { printf '\n\033[1m==> [%d s] %s\033[0m\n' "$SECONDS" "$*"; }
SECONDS=0

export CARGO_INCREMENTAL=0  # one build per run: incremental caches would only cost disk

step "set-up"
bash scripts/setup.sh

# The game module written in C (games/c-nim) is compiled by clang's wasm32 target and linked by
# wasm-ld: Debian's own clang and lld packages (14 on bookworm). Here rather than in setup.sh,
# so that the demo's first run does not download a compiler it never uses; its test must not
# skip then.
log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
# shellcheck source=scripts/apt.sh
source scripts/apt.sh
{ command -v clang >/dev/null && command -v wasm-ld >/dev/null; } || apt_install clang lld
export ARBITER_REQUIRE_CLANG=1

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

step "engine builds for wasm32-unknown-unknown without std"
cargo build -p arbiter-engine --target wasm32-unknown-unknown --no-default-features --features serde

step "PostgreSQL on loopback for the queue and contest tests"
# shellcheck source=scripts/pg.sh
source scripts/pg.sh
log() { printf '\033[1m[pg]\033[0m %s\n' "$*" >&2; }
trap 'status=$?; [ "$status" -ne 0 ] && pg_report; pg_stop; exit "$status"' EXIT
pg_start
export ARBITER_REQUIRE_PG=1

step "OpenSpiel (PyPI, pinned): the rules reference of Chinese Checkers, Goofspiel, Snake and Dou Dizhu"
# Python 3.11 wheels; the games' tests/openspiel.rs run it and must not skip here.
if ! python3 -c "import pyspiel" 2>/dev/null; then
  for try in 1 2 3; do
    python3 -m pip install --quiet --disable-pip-version-check open-spiel==2.0.2 && break
    log "pip install open-spiel failed (try $try); again in 10 s"; sleep 10
  done
fi
python3 -c "import pyspiel"
export ARBITER_REQUIRE_OPENSPIEL=1

step "OpenSkill (PyPI, pinned): the reference of the Weng-Lin ratings of tables"
# tournament/tests/openskill.rs compares the ratings and must not skip here.
if ! python3 -c "import openskill" 2>/dev/null; then
  for try in 1 2 3; do
    python3 -m pip install --quiet --disable-pip-version-check openskill==6.0.2 && break
    log "pip install openskill failed (try $try); again in 10 s"; sleep 10
  done
fi
python3 -c "import openskill"
export ARBITER_REQUIRE_OPENSKILL=1

step "tests: engine, referee, protocols, sandbox, tournaments, Saiblo, queue, contest server"
cargo test --workspace --release

step "similarity: the copied-code report against copydetect on the labelled set"
bash scripts/similarity-peers.sh

step "web player: browser tests in headless Chromium"
BENCH=0 bash tests/web/run.sh

step "the installed binary from an empty directory (cargo install, contest, demo, report)"
bash tests/web/install.sh

step "all passed"
