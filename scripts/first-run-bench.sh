#!/usr/bin/env bash
# The first-run benchmark: `bash scripts/demo.sh` from a fresh clone with an empty target
# directory, timed until the contest site answers. Crates and npm packages already in the
# local caches are not downloaded again (a fresh machine also downloads them).
#   bash scripts/first-run-bench.sh [PORT]
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-9137}
dir=$(mktemp -d /tmp/arbiter-first-run.XXXXXX)
git clone -q . "$dir/arbiter"
cd "$dir/arbiter"
SECONDS=0
env -u CARGO_TARGET_DIR bash scripts/demo.sh --listen "127.0.0.1:$port" >"$dir/demo.log" 2>&1 &
demo=$!
trap 'kill -- -$demo 2>/dev/null || kill $demo 2>/dev/null || true; pkill -f "$dir/arbiter/target" || true; rm -rf "$dir"' EXIT
until curl -fs "http://127.0.0.1:$port/" >/dev/null; do
  if ! kill -0 "$demo" 2>/dev/null; then
    cat "$dir/demo.log" >&2
    echo "demo.sh ended before serving" >&2
    exit 1
  fi
  sleep 0.5
done
took=$SECONDS
grep -a 'built at' "$dir/demo.log" | sed 's/\x1b\[[0-9;]*m//g' || true
echo "demo.sh to a served site: $took s"
