#!/usr/bin/env bash
# Installs what arbiter's build and tests need on a fresh machine. Safe to run again.
# Uses only the package registries (rustup components, crates.io, Debian, npm).
set -euo pipefail

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# apt can fail half way once on these machines (a cleanup deletes downloaded packages):
# retry the same command.
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  for attempt in 1 2 3; do
    if $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; then
      return 0
    fi
    log "apt attempt $attempt failed; retrying"
    sleep 2
  done
  return 1
}

command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup first" >&2; exit 1; }
command -v cc >/dev/null || apt_install gcc libc6-dev

if command -v rustup >/dev/null; then
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
fi
log "toolchain ready"
