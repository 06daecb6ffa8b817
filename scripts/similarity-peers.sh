#!/usr/bin/env bash
# arbiter's copied-code report against a real peer, copydetect (PyPI, pinned in
# scripts/similarity-peers-requirements.txt), on the labelled set similarity/tests/corpus:
# prints both rankings of every pair and their agreement, and fails unless both tools put every
# disguised copy above every unrelated pair and their rankings agree (scripts/similarity_peers.py).
# Installs what it needs itself, into a virtual environment under target/.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
out="$target/similarity-peers"
venv="$out/venv"
mkdir -p "$out"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/similarity-peers-requirements.txt

status=0
for lang in c python; do
    cargo run --quiet --release -p arbiter-similarity --example report_dir -- \
        "similarity/tests/corpus/$lang" > "$out/arbiter-$lang.json"
    "$venv/bin/python" scripts/similarity_peers.py "similarity/tests/corpus/$lang" "$out/arbiter-$lang.json" || status=1
done
exit "$status"
