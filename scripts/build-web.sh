#!/usr/bin/env bash
# Builds the web player: arbiter-player compiled to wasm, bound by wasm-bindgen, optionally
# shrunk by wasm-opt, then inlined (base64 wasm + JS) into ONE self-contained player.html,
# with the host page and sample replays beside it. Downloads no binary: the wasm target comes
# from rustup, the bindgen step is built here (tools/wasm-bind), wasm-opt from the npm
# `binaryen` package (tests/web's committed lockfile; `npm ci` runs once when it is missing).
#
# Output: $WWW_OUT (default: $CARGO_TARGET_DIR/www, or target/www):
#   player.html  index.html  samples/*.json  samples/index.json
# WASM_OPT=none leaves out the wasm-opt pass; SAMPLES=0 the sample replays.
# QUICK=1 compiles the wasm faster and larger (step 3). WASM_BIND=PATH uses that wasm-bind
# binary instead of building one; STEP=wasm only compiles the player's wasm and stops
# (scripts/demo.sh compiles it beside the referee, then binds).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=${WWW_OUT:-$TARGET_DIR/www}
log() { printf '\033[1m[build-web]\033[0m %s\n' "$*" >&2; }

# 1. The wasm target.
if command -v rustup >/dev/null; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
fi

# 2. The wasm-bindgen step: tools/wasm-bind, the wasm-bindgen-cli-support library pinned to the
#    wasm-bindgen version in Cargo.lock (the two must match), built in the workspace. Unoptimised
#    (the dev profile): on a fresh machine it builds in half the time of a release build, and
#    binds the player in half a second all the same.
# Release, as `cargo test --workspace --release` (scripts/test.sh) builds them: the tools and
# examples are linked from what the tests compiled, not built again in debug.
if [ -n "${PLAYER_HTML:-}" ]; then
  # The page is given (tests/web/run.sh gives www/dist/player.html when player-dist.sh --check
  # finds it built from the current sources): only the samples and the host page are made.
  log "the player: $PLAYER_HTML"
  mkdir -p "$OUT/samples"
  cp "$PLAYER_HTML" "$OUT/player.html"
  if [ "${SAMPLES:-1}" != 0 ]; then
    log "sample replays"
    cargo run -q --release -p arbiter-player --example make_samples -- "$OUT/samples" >/dev/null
  fi
  python3 - "$OUT/samples" <<'PY'
import json, os, sys
d = sys.argv[1]
samples = sorted(f for f in os.listdir(d) if f.endswith(".json") and f != "index.json")
json.dump(samples, open(os.path.join(d, "index.json"), "w"), indent=1)
PY
  cp "$ROOT/www/index.html" "$OUT/index.html"
  log "done: $OUT"
  exit 0
fi

if [ -z "${WASM_BIND:-}" ] && [ "${STEP:-all}" != wasm ]; then
  log "cargo build --release -p wasm-bind"
  cargo build -q --release -p wasm-bind
  WASM_BIND="$TARGET_DIR/release/wasm-bind"
fi

# 3. The wasm, small: size-optimised, one codegen unit, LTO, abort on panic. Set through
#    environment overrides of the release profile so the workspace's native profile stays.
#    QUICK=1 (the demo) trades size for compile time: no LTO, many codegen units.
if [ "${QUICK:-0}" = 1 ]; then
  wasm_opt_level=s wasm_lto=false wasm_units=16
else
  wasm_opt_level=z wasm_lto=true wasm_units=1
fi
log "cargo build -p arbiter-player --target wasm32-unknown-unknown"
CARGO_PROFILE_RELEASE_OPT_LEVEL=$wasm_opt_level \
CARGO_PROFILE_RELEASE_LTO=$wasm_lto \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=$wasm_units \
CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_DEBUG=false \
CARGO_PROFILE_RELEASE_STRIP=debuginfo \
  cargo build -q -p arbiter-player --target wasm32-unknown-unknown --release
WASM_IN="$TARGET_DIR/wasm32-unknown-unknown/release/arbiter_player.wasm"
if [ "${STEP:-all}" = wasm ]; then
  log "compiled: $WASM_IN"
  exit 0
fi
BG_DIR="$TARGET_DIR/wasm-bindgen"
rm -rf "$BG_DIR" && mkdir -p "$BG_DIR"
"$WASM_BIND" "$WASM_IN" "$BG_DIR"
WASM="$BG_DIR/arbiter_player_bg.wasm"

# 4. Optional: wasm-opt from npm binaryen (Debian's is too old for current rustc output).
WASM_OPT=${WASM_OPT:-}
if [ "$WASM_OPT" = none ]; then
  log "wasm-opt left out (WASM_OPT=none)"
fi
# The committed lockfile pins binaryen and terser (step 6); without them player.html is about
# 25 KB (gzipped) larger.
NODE_BIN="$ROOT/tests/web/node_modules/.bin"
if { { [ -z "$WASM_OPT" ] && [ ! -x "$NODE_BIN/wasm-opt" ]; } || [ ! -x "$NODE_BIN/terser" ]; } \
    && command -v npm >/dev/null; then
  log "npm ci in tests/web (binaryen's wasm-opt and terser, once)"
  (cd "$ROOT/tests/web" && npm ci --no-audit --no-fund --loglevel=error) || log "npm ci failed: building without wasm-opt and terser"
fi
if [ -z "$WASM_OPT" ] && [ -x "$ROOT/tests/web/node_modules/.bin/wasm-opt" ]; then
  WASM_OPT="$ROOT/tests/web/node_modules/.bin/wasm-opt"
fi
if [ "$WASM_OPT" = none ]; then
  :
elif [ -n "$WASM_OPT" ]; then
  # Also minifies the import and export names (their hash suffixes are about 5 KB of the
  # gzipped page); the map it prints lets step 6 rename them in the JS bindings too. The
  # producers and target-features sections are for tools, not browsers (200 B gzipped).
  # Light passes, not -Oz: rustc's opt-level z output packs smaller by LZMA as it is (the
  # packed wasm 3.5 KB smaller than after -Oz, 2026-12, player-web/README.md "Size budget").
  if "$WASM_OPT" --dce --vacuum --duplicate-function-elimination \
      --remove-unused-module-elements --coalesce-locals --reorder-locals \
      --minify-imports-and-exports-and-modules \
      --strip-producers --strip-target-features \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$WASM" -o "$BG_DIR/opt.wasm" >"$BG_DIR/names.json" 2>"$BG_DIR/wasm-opt.log"; then
    log "wasm-opt: $(stat -c %s "$WASM") -> $(stat -c %s "$BG_DIR/opt.wasm") bytes"
    WASM="$BG_DIR/opt.wasm"
  else
    log "wasm-opt failed (optional, skipped): $(head -c 300 "$BG_DIR/wasm-opt.log")"
  fi
else
  log "wasm-opt not found (optional: npm binaryen via tests/web's npm ci)"
fi

# 5. Sample replays, played through the engine.
mkdir -p "$OUT/samples"
if [ "${SAMPLES:-1}" != 0 ]; then
  log "sample replays"
  cargo run -q --release -p arbiter-player --example make_samples -- "$OUT/samples" >/dev/null
fi

# 6. One self-contained player.html, the host page, the samples' index. The wasm is inlined
#    compressed by LZMA (Python's lzma), 15% smaller than Zopfli's gzip: the page decodes it
#    with www/lzma.js (1 KB) instead of the browser's DecompressionStream, which knows only
#    gzip and deflate (player-web/README.md: the size budget, and what it costs at start).
#    The bindings, the modules' runner (www/kit.js) and the decoder are minified by terser
#    when tests/web has it.
TERSER=""
if [ -x "$NODE_BIN/terser" ] && command -v node >/dev/null; then
  TERSER="$NODE_BIN/terser"
else
  log "terser not found (optional: tests/web's npm ci): the bindings are not minified"
fi
python3 - "$ROOT/www/player.html" "$BG_DIR/arbiter_player.js" "$WASM" "$OUT" "$BG_DIR/names.json" "$TERSER" "$ROOT/www/kit.js" "$ROOT/www/lzma.js" <<'PY'
import base64, gzip, json, lzma, os, re, subprocess, sys
template, js_path, wasm_path, out, names_path, terser, kit_path, lzma_path = sys.argv[1:9]
html = open(template, encoding="utf-8").read()
js = open(js_path, encoding="utf-8").read()
# The game modules' runner (www/kit.js), inlined beside the bindings and minified with them.
kit = open(kit_path, encoding="utf-8").read()
unlzma = open(lzma_path, encoding="utf-8").read()

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80:
            return r, i

def import_modules(wasm):
    """The module names of the wasm's imports (section 2)."""
    i, mods = 8, set()
    while i < len(wasm):
        sid = wasm[i]; n, i = leb(wasm, i + 1)
        if sid == 2:
            count, j = leb(wasm, i)
            for _ in range(count):
                l, j = leb(wasm, j); mods.add(wasm[j:j + l].decode()); j += l
                l, j = leb(wasm, j); j += l
                if wasm[j] != 0:
                    sys.exit("wasm-bind: an import that is not a function")
                _, j = leb(wasm, j + 1)
            return mods
        i += n
    return mods

# wasm-opt renamed the imports and exports: rename them in the bindings the same way.
if wasm_path.endswith("opt.wasm") and os.path.exists(names_path):
    names = json.load(open(names_path))
    mods = import_modules(open(wasm_path, "rb").read())
    old_mods = {m for m, _, _ in names["imports"]}
    if len(mods) != 1 or len(old_mods) != 1:
        sys.exit(f"expected one import module, found {mods} (was {old_mods})")
    js = js.replace(json.dumps(old_mods.pop()) + ":", json.dumps(mods.pop()) + ":")
    for _, old, new in names["imports"]:
        js, n = re.subn(r"(?<![\w$])" + re.escape(old) + r"(?=: function)", new, js)
        if n != 1:
            sys.exit(f"import {old} is named {n} times in the bindings")
    for old, new in names["exports"]:
        js = re.sub(r"\bwasm\." + re.escape(old) + r"(?![\w$])", "wasm." + new, js)
    left = set(re.findall(r"\bwasm\.([\w$]+)", js)) - {new for _, new in names["exports"]}
    if left:
        sys.exit(f"the bindings use exports wasm-opt renamed: {sorted(left)}")
# LZMA first (raw LZMA1 with the literal context www/lzma.js decodes: lc=3 lp=0 pb=0, the
# smallest for this wasm of all lc/lp/pb tried); base64 of the packed module is about 40% of
# base64 of the module itself, and the served page's gzip takes little more off it.
wasm_bytes = open(wasm_path, "rb").read()
filters = [{"id": lzma.FILTER_LZMA1, "preset": 9 | lzma.PRESET_EXTREME, "lc": 3, "lp": 0, "pb": 0,
            "dict_size": 1 << 20}]
packed = lzma.compress(wasm_bytes, format=lzma.FORMAT_RAW, filters=filters)
if lzma.decompress(packed, format=lzma.FORMAT_RAW, filters=filters) != wasm_bytes:
    sys.exit("lzma: the packed wasm does not unpack to the wasm")
wasm = base64.b64encode(packed).decode("ascii")
# no-modules bindings resolve their own script URL at load; inline in an iframe srcdoc the base
# URL is about:srcdoc and `new URL` throws. The wasm is passed in explicitly: ignore the URL.
js = js.replace("script_src = new URL(document.currentScript.src, location.href).toString();",
                "try { script_src = new URL(document.currentScript.src, location.href).toString(); } catch (_) {}")
# Comments and indentation of the generated bindings are not worth their bytes (whole-line
# comments only; the bindings hold no multi-line string).
js = re.sub(r"^[ \t]*/\*\*.*?\*/[ \t]*\n", "", js, flags=re.M | re.S)
js = re.sub(r"^[ \t]*//[^\n]*\n", "", js, flags=re.M)
js = re.sub(r"^[ \t]+", "", js, flags=re.M)
def minify(text, what):
    # Compressed and with local names mangled; top-level names (`wasm_bindgen`, which the page's
    # bootstrap calls) and property names (the wasm's exports) stay.
    done = subprocess.run([terser, "--compress", "--mangle"], input=text, capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        sys.exit(f"terser failed on {what}: {done.stderr[:300]}")
    return done.stdout
if terser:
    js = minify(js, "the bindings")
    kit = minify(kit, "www/kit.js")
    unlzma = minify(unlzma, "www/lzma.js")
for text, what in ((js, "the bindings"), (kit, "www/kit.js"), (unlzma, "www/lzma.js")):
    if "</script" in text.lower():
        sys.exit(f"{what} contains </script>: cannot inline it")
# The template's comments and indentation are for its readers, not its users: HTML comments,
# CSS comments and whole-line script comments go (the markers below stay).
html = re.sub(r"<!--.*?-->\n?", "", html, flags=re.S)
html = re.sub(r"/\*(?!@BINDINGS@)[^@]*?\*/\n?", "", html, flags=re.S)
html = re.sub(r"^[ \t]*//[^\n]*\n", "", html, flags=re.M)
html = re.sub(r"^[ \t]+", "", html, flags=re.M)
for mark in ("/*@BINDINGS@*/", "@WASM_LZMA_BASE64@", "@WASM_SIZE@"):
    if html.count(mark) != 1:
        sys.exit(f"template must hold {mark} exactly once")
html = html.replace("/*@BINDINGS@*/", unlzma + "\n" + kit + "\n" + js)
html = html.replace("@WASM_LZMA_BASE64@", wasm).replace("@WASM_SIZE@", str(len(wasm_bytes)))
open(os.path.join(out, "player.html"), "w", encoding="utf-8").write(html)
raw = len(html.encode("utf-8"))
gz = len(gzip.compress(html.encode("utf-8"), 9))
print(f"player.html: {raw} bytes ({raw/1024:.1f} KiB), gzipped {gz} bytes ({gz/1024:.1f} KiB)")
samples = sorted(f for f in os.listdir(os.path.join(out, "samples")) if f.endswith(".json") and f != "index.json")
json.dump(samples, open(os.path.join(out, "samples", "index.json"), "w"), indent=1)
PY
cp "$ROOT/www/index.html" "$OUT/index.html"
log "done: $OUT"
