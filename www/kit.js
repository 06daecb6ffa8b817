// Game modules (docs/game-kit.md) in the web player: the module a replay names, loaded
// (from the replay's module_wasm, else a URL), checked against its sha256, bounded, compiled
// and started by the browser's own WebAssembly engine; then one JSON request in, one JSON
// answer out, for the player's Rust side (player-web/src/kit/browser.rs calls these through
// `window.__arbiterKit`). scripts/build-web.sh inlines this file into player.html.
//
// Bounds. The Rust side asks the rules synchronously (a frame's view, a move's legality) on
// the page's thread, where nothing can interrupt a call that never returns, and a Worker
// would answer only asynchronously. So the module counts its own work: `meter` rewrites its
// bytes to add a mutable global `arbiter_fuel`, exported, and at every function's entry and
// every loop's head
//   global.get F; i32.eqz; if unreachable end; global.get F; i32.const 1; i32.sub; global.set F
// Each call starts with FUEL; a module that loops forever traps within FUEL loop turns and
// calls (about a tenth of a second in Chromium), and the fuel read at 0 says why. Straight
// code between two checks is bounded by the module's size. The memory's maximum is set to
// MAX_PAGES (256 MiB, the referee's bound), so that growing past it fails. Only instructions
// the reader below knows are accepted (the MVP, sign extension, saturating conversions, bulk
// memory, reference types, multi-value, tail calls); SIMD and threads are refused by name.
// Chromium refuses to compile a module of more than 4 KB synchronously on the page's thread:
// `prepare` compiles and starts it with WebAssembly.instantiate (a promise), before the
// player opens a game.
"use strict";
window.__arbiterKit = (() => {
  const FUEL = 2e8, MAX_PAGES = 4096, MAX_BYTES = 16 << 20, FUEL_EXPORT = "arbiter_fuel";
  // Loaded modules: {sha, label, x: exports (null once failed, so that a memory that grew
  // to the cap can be freed), fault: the sentence naming the module, once it failed}.
  const mods = [];
  const enc = new TextEncoder(), dec = new TextDecoder("utf-8", { fatal: true });

  // ---- The meter: the module's bytes, bounded (or a string saying why it cannot be).
  function reader(w, p, end) {
    const r = {
      p,
      more: () => r.p < end,
      byte() { if (r.p >= end) throw "ends in the middle of an item"; return w[r.p++]; },
      u() { // an unsigned LEB128 of at most 32 bits
        let v = 0;
        for (let s = 0; s < 35; s += 7) {
          const b = r.byte();
          v += (b & 127) * 2 ** s;
          if (b < 128) { if (v > 0xffffffff) throw "a number over 32 bits"; return v; }
        }
        throw "a number longer than 5 bytes";
      },
      s() { for (let i = 0; i < 10; i++) if (r.byte() < 128) return; throw "a number longer than 10 bytes"; },
      take(n) { if (n > end - r.p) throw "ends in the middle of an item"; r.p += n; },
    };
    return r;
  }
  const uleb = (v) => { const o = []; do { let b = v % 128; v = Math.floor(v / 128); o.push(v ? b | 128 : b); } while (v); return o; };
  const sleb = (v) => { const o = []; for (;;) { const b = v & 127; v >>= 7; const done = (v === 0 && !(b & 64)) || (v === -1 && b & 64); o.push(done ? b : b | 128); if (done) return o; } };
  const valueType = (r) => { const t = r.byte(); if (!(t >= 0x7b && t <= 0x7f) && t !== 0x70 && t !== 0x6f) throw "value type 0x" + t.toString(16); };
  function immediates(op, r) {
    if (op >= 2 && op <= 4) { // block type: one byte, or a type index
      const t = r.byte(); if (t === 0x40 || t === 0x6f || t === 0x70 || (t >= 0x7b && t <= 0x7f)) return;
      r.p--; return r.s();
    }
    if (op === 0x0c || op === 0x0d || op === 0x10 || op === 0x12 || (op >= 0x20 && op <= 0x26) || op === 0xd2 || op === 0x3f || op === 0x40) return r.u();
    if (op === 0x0e) { for (let n = r.u(); n >= 0; n--) r.u(); return; }
    if (op === 0x11 || op === 0x13) { r.u(); return r.u(); }
    if (op === 0x1c) { for (let n = r.u(); n > 0; n--) valueType(r); return; }
    if (op >= 0x28 && op <= 0x3e) { if (r.u() & 64) r.u(); return r.u(); } // align (memory), offset
    if (op === 0x41 || op === 0x42 || op === 0xd0) return r.s();
    if (op === 0x43) return r.take(4);
    if (op === 0x44) return r.take(8);
    if (op <= 1 || op === 5 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b || (op >= 0x45 && op <= 0xc4) || op === 0xd1) return;
    if (op === 0xfc) {
      const sub = r.u();
      if (sub <= 7) return;
      if (sub === 9 || sub === 11 || sub === 13 || (sub >= 15 && sub <= 17)) return r.u();
      if (sub === 8 || sub === 10 || sub === 12 || sub === 14) { r.u(); return r.u(); }
      throw "instruction 0xfc " + sub;
    }
    if (op === 0xfd) throw "a SIMD instruction (build without simd128)";
    if (op === 0xfe) throw "an atomic instruction (build without threads)";
    throw "instruction 0x" + op.toString(16);
  }
  // A section's place in the order the format requires.
  const order = (id) => id === 12 ? 10 : id === 13 ? 6 : id === 10 || id === 11 ? id + 1 : id;
  function meter(w) {
    const head = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
    if (w.length < 8 || head.some((b, i) => w[i] !== b)) throw "is not a wasm module (no \\0asm version 1 header)";
    const all = reader(w, 8, w.length), secs = [];
    while (all.more()) { const id = all.byte(), n = all.u(), at = all.p; all.take(n); secs.push({ id, at, end: at + n }); }
    const body = (s) => reader(w, s.at, s.end);
    const g = secs.find((s) => s.id === 6), globals = g ? body(g).u() : 0;
    const parts = [w.subarray(0, 8)];
    const section = (id, bytes) => parts.push([id, ...uleb(bytes.length)], bytes);
    // A count, then what the section had, then `add`.
    const grown = (s, add) => { if (!s) return [1, ...add]; const r = body(s), n = r.u(); return [...uleb(n + 1), ...w.subarray(r.p, s.end), ...add]; };
    const fuelGlobal = [0x7f, 1, 0x41, ...sleb(FUEL), 0x0b];
    const fuelExport = [...uleb(FUEL_EXPORT.length), ...enc.encode(FUEL_EXPORT), 3, ...uleb(globals)];
    const check = [0x23, ...uleb(globals), 0x45, 4, 0x40, 0, 0x0b, 0x23, ...uleb(globals), 0x41, 1, 0x6b, 0x24, ...uleb(globals)];
    let memory = false, global = false, exp = false;
    for (const s of secs) {
      if (s.id && order(s.id) > 6 && !global) { section(6, grown(null, fuelGlobal)); global = true; }
      if (s.id && order(s.id) > 7 && !exp) { section(7, grown(null, fuelExport)); exp = true; }
      if (s.id === 2 && body(s).u() > 0) throw "imports something: a game module must import nothing";
      if (s.id === 5) { memory = true; section(5, cappedMemory(body(s))); }
      else if (s.id === 6) { global = true; section(6, grown(s, fuelGlobal)); }
      else if (s.id === 7) { exp = true; section(7, grown(s, fuelExport)); }
      else if (s.id === 10) section(10, meteredCode(w, body(s), check));
      else section(s.id, w.subarray(s.at, s.end));
    }
    if (!memory) throw "has no memory of its own";
    if (!global) section(6, grown(null, fuelGlobal));
    if (!exp) section(7, grown(null, fuelExport));
    return concat(parts);
  }
  function cappedMemory(r) {
    if (r.u() !== 1) throw "has not exactly one memory";
    const flags = r.byte(), min = r.u();
    if (flags > 1) throw "has a shared or 64-bit memory";
    const max = flags ? Math.min(r.u(), MAX_PAGES) : MAX_PAGES;
    if (min > MAX_PAGES) throw `asks for ${min >> 4} MiB of memory at start, more than the ${MAX_PAGES >> 4} MiB allowed`;
    return [1, 1, ...uleb(min), ...uleb(max)];
  }
  function meteredCode(w, r, check) {
    const count = r.u(), out = [uleb(count)];
    for (let i = 0; i < count; i++) {
      const len = r.u(), start = r.p, f = reader(w, start, start + len), body = [];
      r.take(len);
      try {
        for (let n = f.u(); n > 0; n--) { f.u(); valueType(f); }
        body.push(w.subarray(start, f.p), check);
        let copied = f.p;
        while (f.more()) {
          const at = f.p, op = f.byte();
          try { immediates(op, f); } catch (e) { throw `at byte ${at - start}: ${e}`; }
          if (op === 3) { body.push(w.subarray(copied, f.p), check); copied = f.p; }
        }
        body.push(w.subarray(copied, f.p));
      } catch (e) { throw `cannot be bounded: function ${i}: ${e}`; }
      out.push(uleb(body.reduce((a, b) => a + b.length, 0)), ...body);
    }
    return concat(out);
  }
  const concat = (parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
    return out;
  };

  // ---- SHA-256: crypto.subtle where the page may use it (a secure context: https,
  // localhost), else this one (a contest site is often plain http on a campus network).
  async function digest(bytes) {
    let h;
    try { h = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); } catch (_) { h = sha256(bytes); }
    return Array.from(h, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function sha256(data) {
    const K = [], H = [], w = new Int32Array(64);
    const frac = (x) => ((x - Math.floor(x)) * 2 ** 32) | 0;
    for (let n = 2, i = 0; i < 64; n++) {
      let prime = true;
      for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
      if (prime) { if (i < 8) H[i] = frac(n ** 0.5); K[i++] = frac(n ** (1 / 3)); }
    }
    const len = data.length, blocks = Math.ceil((len + 9) / 64) * 64, m = new Uint8Array(blocks);
    m.set(data); m[len] = 128;
    const dv = new DataView(m.buffer);
    dv.setUint32(blocks - 8, Math.floor(len / 2 ** 29)); dv.setUint32(blocks - 4, len * 8);
    const rot = (x, n) => (x >>> n) | (x << (32 - n));
    for (let b = 0; b < blocks; b += 64) {
      for (let t = 0; t < 64; t++) {
        if (t < 16) w[t] = dv.getInt32(b + t * 4);
        else {
          const a = w[t - 15], c = w[t - 2];
          w[t] = (rot(a, 7) ^ rot(a, 18) ^ (a >>> 3)) + w[t - 7] + (rot(c, 17) ^ rot(c, 19) ^ (c >>> 10)) + w[t - 16];
        }
      }
      let [a, bb, c, d, e, f, g, hh] = H;
      for (let t = 0; t < 64; t++) {
        const t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        const t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
      }
      [a, bb, c, d, e, f, g, hh].forEach((v, i) => { H[i] = (H[i] + v) | 0; });
    }
    const out = new DataView(new ArrayBuffer(32));
    H.forEach((v, i) => out.setInt32(i * 4, v));
    return new Uint8Array(out.buffer);
  }

  // ---- Running: one request of the ABI.
  function trapWords(x, where, e) {
    if (x.fuel.value === 0) return "ran out of fuel (an endless loop, or far too much work for one call)";
    const mib = x.memory.buffer.byteLength >> 20, cap = MAX_PAGES >> 4;
    const words = `trapped in ${where}: ${e && e.message || e}`;
    return mib * 2 > cap ? `${words}, with ${mib} MiB of its ${cap} MiB of memory in use: it allocates without end?` : words;
  }
  function run(x, where, f) { try { return f(); } catch (e) { throw trapWords(x, where, e); } }
  function bytes(x, at, n, what) {
    if (at + n > x.memory.buffer.byteLength) throw `${what} ${at}+${n}, outside its memory`;
    return new Uint8Array(x.memory.buffer, at, n);
  }
  function exchange(x, request) {
    const req = enc.encode(request), len = req.length;
    x.fuel.value = FUEL;
    const ptr = run(x, "arbiter_alloc", () => x.alloc(len)) >>> 0;
    if (!ptr) throw "answered arbiter_alloc with 0 (out of memory)";
    bytes(x, ptr, len, "allocated").set(req);
    const packed = BigInt.asUintN(64, BigInt(run(x, "arbiter_call", () => x.call(ptr, len))));
    const at = Number(packed >> 32n), n = Number(packed & 0xffffffffn);
    if (n > MAX_BYTES) throw `answered ${n} bytes, more than the limit`;
    let text;
    try { text = dec.decode(bytes(x, at, n, "answered at")); } catch (e) { throw typeof e === "string" ? e : "answered text that is not UTF-8"; }
    run(x, "arbiter_free", () => x.free(ptr, len));
    return text;
  }

  // ---- What the player calls.
  const find = (sha) => mods.findLastIndex((m) => m.sha === sha);
  const fault = (id) => (mods[id] ? mods[id].fault : "no such game module");
  function fail(id, what) {
    const m = mods[id];
    if (m && !m.fault) { m.fault = `game module ${m.label} ${what}`; m.x = null; }
  }
  function call(id, request) {
    const m = mods[id];
    if (!m || m.fault) throw new Error(fault(id));
    try { return exchange(m.x, request); } catch (e) { fail(id, String(e)); throw new Error(m.fault); }
  }
  // Loads a module (unless loaded and sound): `carried` (base64), else `prefix + sha + ".wasm"`.
  // Rejects with {kind: "fetch", url, why}, {kind: "hash"} or an Error saying what.
  async function prepare(name, sha, carried, prefix) {
    const have = find(sha);
    if (have >= 0 && !mods[have].fault) return have;
    const label = name + ".wasm";
    let w;
    if (carried != null) {
      if (carried.length > MAX_BYTES / 3 * 4 + 4) throw new Error(`the replay's game module is over ${MAX_BYTES >> 20} MiB`);
      try { w = Uint8Array.from(atob(carried.trim()), (c) => c.charCodeAt(0)); } catch (_) { throw new Error("the replay's module_wasm is not base64"); }
    } else {
      const url = prefix + sha + ".wasm";
      const r = await fetch(url).catch((e) => { throw { kind: "fetch", url, why: e.message }; });
      if (!r.ok) throw { kind: "fetch", url, why: "HTTP " + r.status };
      w = new Uint8Array(await r.arrayBuffer());
      if (w.length > MAX_BYTES) throw { kind: "fetch", url, why: `over ${MAX_BYTES >> 20} MiB` };
    }
    if (await digest(w) !== sha) throw { kind: "hash" };
    let x;
    try {
      x = await start(meter(w));
      // A game of this ABI: its seats (2 in version 1, a list of counts in version 2) are
      // checked by the player's Rust side, which knows the replay's count.
      const info = (JSON.parse(exchange(x, '{"op":"info"}')) || {}).ok || {};
      if (typeof info.name !== "string") throw "answers info without a name";
    } catch (e) { throw new Error(`game module ${label} ${typeof e === "string" ? e : "cannot be started: " + e.message}`); }
    mods.push({ sha, label, x, fault: null });
    return mods.length - 1;
  }
  async function start(bounded) {
    const { instance } = await WebAssembly.instantiate(bounded, {});
    const e = instance.exports, fn = (n, sig) => { if (typeof e[n] !== "function") throw `lacks the export ${n}${sig}`; return e[n]; };
    const x = { memory: e.memory, fuel: e[FUEL_EXPORT], alloc: fn("arbiter_alloc", "(i32) -> i32"), free: fn("arbiter_free", "(i32, i32)"), call: fn("arbiter_call", "(i32, i32) -> i64") };
    if (!(x.memory instanceof WebAssembly.Memory)) throw 'exports no memory named "memory"';
    const v = run(x, "arbiter_abi_version", fn("arbiter_abi_version", "() -> i32"));
    if (v !== 1 && v !== 2) throw `speaks ABI version ${v}; this player reads versions 1 and 2`;
    return x;
  }
  // For the player's reading of a long replay in slices (player-web/src/app.rs): a promise
  // kept until the page had its turn (a task later). Here because a closure costs the wasm's
  // bindings several times this.
  const later = () => new Promise((resolve) => setTimeout(resolve));
  return { prepare, call, fail, fault, find, meter, sha256, later };
})();
