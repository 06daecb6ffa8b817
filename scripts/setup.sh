#!/usr/bin/env bash
# Installs what arbiter's build and tests need on a fresh machine. Safe to run again.
# Uses only the package registries (rustup components, crates.io, Debian, npm, PyPI).
set -euo pipefail

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# shellcheck source=scripts/apt.sh
source "$(dirname "$0")/apt.sh"

command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup first" >&2; exit 1; }
command -v cc >/dev/null || apt_install gcc libc6-dev
# Python bots and Saiblo tests; pip installs Saiblo's public judger (pinned) for its test.
command -v python3 >/dev/null || apt_install python3
python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
# A Chinese font: the site's Chinese pages (and the language switch) draw as boxes in a browser
# on this machine without one (base.html names Noto Sans CJK SC and WenQuanYi Zen Hei).
# Not fatal: a site viewed from another machine needs none here.
if ! { command -v fc-list >/dev/null && [ -n "$(fc-list :lang=zh 2>/dev/null)" ]; }; then
  apt_install fonts-wqy-zenhei || log "no Chinese font installed: Chinese pages may show boxes in a browser here"
fi

if command -v rustup >/dev/null; then
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
fi
log "toolchain ready"
