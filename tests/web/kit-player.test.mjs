// Game modules in the web player (docs/game-kit.md, issue 25). In node: www/kit.js (the
// modules' runner: sha256, the meter that bounds a module, one request at a time) and
// www/lzma.js (the player's own unpacking). In Chromium: a replay of each proof game opens and
// its last frame is drawn as the referee sees it; a replay whose module is not the one its game
// names is refused; a module that loops, traps, answers garbage or allocates without end shows
// an error naming it and the tab answers at once; a replay without its module finds it at
// modules/<sha256>.wasm; and a person plays Connect Four, Amazons (three clicks a move),
// Connect6 (two stones a turn) and Dots and Boxes (a click on a line; an extra turn after a
// box) against builtin:random on the real hub. Samples: `make_kit_samples` (run.sh) in
// WWW_DIR/kit. Screenshots: tests/artifacts/web/kit-*.png.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { ARBITER, ARTIFACTS, BASE, WWW_DIR, launch, oracle, scratchDir, until } from "./lib.mjs";

const ROOT = path.resolve("../..");
const KIT = path.join(WWW_DIR, "kit");
const MODULES = path.join(KIT, "modules");
const GAMES = ["connect-four", "amazons", "connect6", "dots-and-boxes", "einstein", "hex"];

/** www/kit.js as the page runs it, on a window of its own. */
function kitJs() {
  const win = {};
  new Function("window", readFileSync(path.join(ROOT, "www/kit.js"), "utf8"))(win);
  return win.__arbiterKit;
}

const moduleBytes = (name) => readFileSync(path.join(MODULES, name + ".wasm"));
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A module as it is, without the meter: the reference the metered one must agree with. */
async function plain(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const e = instance.exports, enc = new TextEncoder(), dec = new TextDecoder();
  return (request) => {
    const req = enc.encode(request), ptr = e.arbiter_alloc(req.length) >>> 0;
    new Uint8Array(e.memory.buffer, ptr, req.length).set(req);
    const packed = BigInt.asUintN(64, e.arbiter_call(ptr, req.length));
    const text = dec.decode(new Uint8Array(e.memory.buffer, Number(packed >> 32n), Number(packed & 0xffffffffn)));
    e.arbiter_free(ptr, req.length);
    return text;
  };
}

describe("www/kit.js and www/lzma.js in node", () => {
  test("sha256: the page's own agrees with node's (for a page without crypto.subtle)", () => {
    const kit = kitJs();
    const hex = (b) => Buffer.from(kit.sha256(b)).toString("hex");
    for (const input of [Buffer.alloc(0), Buffer.from("abc"), Buffer.alloc(1_000_000, 97), moduleBytes("amazons")]) {
      assert.equal(hex(new Uint8Array(input)), sha256(input));
    }
    // Lengths around the padding's boundary (55, 56, 64 bytes).
    for (const n of [55, 56, 57, 63, 64, 65]) assert.equal(hex(new Uint8Array(n).fill(7)), sha256(Buffer.alloc(n, 7)));
  });

  test("every proof game, metered, answers as it does unmetered", async () => {
    const kit = kitJs();
    for (const game of GAMES) {
      const bytes = moduleBytes(game);
      const id = await kit.prepare(game, sha256(bytes), bytes.toString("base64"), "");
      const ref = await plain(bytes);
      const both = (request) => {
        const want = ref(request);
        assert.equal(kit.call(id, request), want, `${game}: ${request}`);
        return JSON.parse(want);
      };
      const state = both('{"op":"new","config":{},"seed":3}').ok.state;
      for (let ply = 0; ply < 40; ply++) {
        both(`{"op":"view","state":${state}}`);
        both(`{"op":"clicks","state":${state}}`);
        const legal = both(`{"op":"legal","state":${state}}`).ok;
        if (!legal.length) break;
        both(`{"op":"play","state":${state},"move":${JSON.stringify(legal[(ply * 7) % legal.length])}}`);
      }
      assert.equal(kit.fault(id), null, game);
    }
  });

  test("a module that loops is stopped by its fuel in well under a second; then it is not called again", async () => {
    const kit = kitJs();
    const bytes = moduleBytes("loops");
    const id = await kit.prepare("loops", sha256(bytes), bytes.toString("base64"), "");
    assert.match(kit.call(id, '{"op":"new","config":{},"seed":0}'), /"state":1/);
    const t0 = performance.now();
    assert.throws(() => kit.call(id, '{"op":"view","state":1}'), /game module loops\.wasm ran out of fuel/);
    const ms = performance.now() - t0;
    console.log(`a looping module stopped after ${ms.toFixed(0)} ms`);
    assert.ok(ms < 3000, `stopped after ${ms} ms`);
    assert.throws(() => kit.call(id, '{"op":"status","state":1}'), /ran out of fuel/);
  });

  test("a trap and memory without end are named; imports, SIMD and a wrong sha256 are refused", async () => {
    const kit = kitJs();
    const open = async (name) => {
      const bytes = moduleBytes(name);
      const id = await kit.prepare(name, sha256(bytes), bytes.toString("base64"), "");
      return () => kit.call(id, '{"op":"view","state":1}');
    };
    assert.throws(await open("traps"), /game module traps\.wasm trapped in arbiter_call: unreachable/);
    assert.throws(await open("greedy"), /greedy\.wasm trapped in arbiter_call.*(25[0-9]|2[0-4][0-9]) MiB of its 256 MiB/);
    assert.throws(() => kit.meter(new Uint8Array(moduleBytes("imports"))), /imports something/);
    assert.throws(() => kit.meter(new Uint8Array(moduleBytes("simd"))), /SIMD/);
    const bytes = moduleBytes("connect-four");
    await assert.rejects(kit.prepare("connect-four", "00".repeat(32), bytes.toString("base64"), ""), (e) => e.kind === "hash");
  });

  test("lzma.js unpacks what Python's lzma packs (the player's own wasm included)", () => {
    const win = {};
    new Function("window", readFileSync(path.join(ROOT, "www/lzma.js"), "utf8") + "\nwindow.unlzma = unlzma;")(win);
    const input = path.join(scratchDir(), "in.bin");
    const sample = Buffer.concat([readFileSync(path.join(ROOT, "www/kit.js")), moduleBytes("einstein"), createHash("sha512").update("x").digest()]);
    writeFileSync(input, sample);
    const packed = execFileSync("python3", ["-c", `
import lzma, sys
data = open(sys.argv[1], "rb").read()
f = [{"id": lzma.FILTER_LZMA1, "preset": 9 | lzma.PRESET_EXTREME, "lc": 3, "lp": 0, "pb": 0, "dict_size": 1 << 20}]
sys.stdout.buffer.write(lzma.compress(data, format=lzma.FORMAT_RAW, filters=f))`, input], { maxBuffer: 64 << 20 });
    const out = win.unlzma(new Uint8Array(packed), sample.length);
    assert.ok(Buffer.from(out).equals(sample));
    // The page's payload unpacks to a valid module of the size the page says.
    const html = readFileSync(path.join(WWW_DIR, "player.html"), "utf8");
    const b64 = html.match(/<script type="application\/octet-stream" id="wasm">([A-Za-z0-9+/=]+)<\/script>/)[1];
    const size = Number(html.match(/unlzma\([^,]+,\s*(\d+)\)/)[1]);
    const t0 = performance.now();
    const wasm = win.unlzma(new Uint8Array(Buffer.from(b64, "base64")), size);
    console.log(`the player's wasm: ${Buffer.from(b64, "base64").length} bytes packed, ${size} unpacked in ${(performance.now() - t0).toFixed(0)} ms (node)`);
    assert.ok(WebAssembly.validate(wasm));
  });
});


let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The standalone player on `kit/NAME` (fetched by ?replay=), once it shows a board or an error. */
async function open(name, { width = 1280, height = 900, hash = "#frame=last" } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(`${BASE}/player.html?replay=kit/${name}${hash}`);
  await page.waitForFunction(() => window.__arbiter?.state?.frames > 0 || !document.getElementById("error").hidden, null, { timeout: 30000 });
  page.openedMs = Date.now() - t0;
  return page;
}

/** What the page shows: the error box, the status, the board text and its frame. */
function shown(page) {
  return page.evaluate(() => {
    const error = document.getElementById("error"), bt = document.getElementById("board-text");
    return {
      error: error.hidden ? null : error.textContent,
      kind: error.dataset.kind || null,
      status: document.getElementById("status").textContent,
      board: bt.textContent.split("\n"),
      frame: Number(bt.dataset.frame),
      frames: window.__arbiter.state.frames,
    };
  });
}

/** Pixels of the canvas in each seat's colour (the page's --p0 and --p1), counted. */
function seatPixels(page) {
  return page.evaluate(() => {
    const c = document.getElementById("board"), ctx = c.getContext("2d");
    const css = getComputedStyle(document.documentElement);
    const rgb = (v) => { const h = css.getPropertyValue(v).trim().slice(1); return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)); };
    const seats = [rgb("--p0"), rgb("--p1")], counts = [0, 0];
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) {
      seats.forEach(([r, g, b], s) => { if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 12) counts[s]++; });
    }
    return counts;
  });
}

describe("module replays in the player", () => {
  for (const game of GAMES) {
    test(`${game}: the last frame is drawn as the referee sees it, the result in the module's words`, async () => {
      const file = path.join(KIT, `kit-${game}.json`);
      const replay = JSON.parse(readFileSync(file, "utf8"));
      const want = oracle(file);
      const page = await open(`kit-${game}.json`);
      const s = await shown(page);
      assert.equal(s.error, null);
      assert.equal(s.frames, replay.moves.length + 1);
      assert.equal(s.frame, s.frames - 1, "#frame=last");
      assert.deepEqual(s.board, want.frames.at(-1).board, "the board text is the game kit's text of the view");
      if (replay.meta.ending) assert.ok(s.status.includes(replay.meta.ending), s.status);
      const [p0, p1] = await seatPixels(page);
      assert.ok(p0 > 200 && p1 > 200, `both seats' pieces drawn: ${p0} and ${p1} pixels`);
      await page.screenshot({ path: path.join(ARTIFACTS, `kit-${game}-1280.png`) });
      await page.setViewportSize({ width: 375, height: 760 });
      await page.waitForTimeout(300);
      // On a phone the control bar must not cover the move list (it did, stuck to the
      // screen's bottom over a long Amazons game's list).
      const [bar, list] = await page.evaluate(() => ["controls", "moves"].map((id) => {
        const b = document.getElementById(id).getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, height: b.height };
      }));
      assert.ok(bar.height > 0 && list.height > 0, `both shown: ${JSON.stringify([bar, list])}`);
      assert.ok(bar.bottom <= list.top || list.bottom <= bar.top,
        `${game} at 375 px: the control bar (${bar.top}..${bar.bottom}) overlaps the move list (${list.top}..${list.bottom})`);
      await page.screenshot({ path: path.join(ARTIFACTS, `kit-${game}-375.png`), fullPage: true });
      assert.deepEqual(page.errors, []);
      console.log(`${game}: ${s.frames} frames, shown in ${page.openedMs} ms`);
      await page.close();
    });
  }

  test("a replay whose module is not the one its game names is refused, the module never run", async () => {
    const page = await open("kit-tampered.json");
    const s = await shown(page);
    assert.equal(s.kind, "module");
    assert.match(s.error, /the game module connect-four\.wasm the replay carries is not the one its game names \(sha256 [0-9a-f]{12}\)/);
    assert.equal(s.frames, 0);
    await page.close();
  });

  test("a replay without its module finds it at modules/<sha256>.wasm beside the page", async () => {
    const bytes = moduleBytes("connect-four");
    const dir = path.join(WWW_DIR, "modules");
    const served = path.join(dir, sha256(bytes) + ".wasm");
    rmSync(served, { force: true });
    let page = await open("kit-bare.json");
    let s = await shown(page);
    assert.equal(s.kind, "module");
    assert.match(s.error, /does not carry it, and modules\/[0-9a-f]{64}\.wasm could not be read: HTTP 404/);
    await page.close();
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(MODULES, "connect-four.wasm"), served);
    page = await open("kit-bare.json");
    s = await shown(page);
    assert.equal(s.error, null);
    assert.deepEqual(s.board, oracle(path.join(KIT, "kit-connect-four.json")).frames.at(-1).board);
    await page.close();
    rmSync(served);
  });

  for (const [name, words] of [
    ["loops", /game module loops\.wasm ran out of fuel \(an endless loop/],
    ["traps", /game module traps\.wasm trapped in arbiter_call: unreachable/],
    ["garbage", /game module garbage\.wasm answered something that is not JSON/],
    ["greedy", /game module greedy\.wasm trapped in arbiter_call: unreachable, with \d+ MiB of its 256 MiB of memory in use/],
  ]) {
    test(`a module that ${name === "greedy" ? "allocates without end" : name} shows its error, not a board, and the tab answers at once`, async () => {
      const page = await open(`kit-${name}.json`, { hash: "" });
      const s = await shown(page);
      assert.equal(s.kind, "module");
      assert.match(s.error, words);
      const t0 = Date.now();
      assert.equal(await page.evaluate(() => 6 * 7), 42);
      const answer = Date.now() - t0;
      assert.ok(answer < 1000, `the tab answered in ${answer} ms`);
      if (name === "loops") await page.screenshot({ path: path.join(ARTIFACTS, "kit-error-loops.png") });
      // The tab still works: another replay opens in it.
      await page.goto(`${BASE}/player.html?replay=kit/kit-connect-four.json`);
      await page.waitForFunction(() => window.__arbiter?.state?.frames > 0, null, { timeout: 30000 });
      console.log(`${name}: error shown ${page.openedMs} ms after opening`);
      await page.close();
    });
  }
});

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => { const p = srv.address().port; srv.close(() => resolve(p)); });
  });
}

/** `arbiter match MODULE human:Ada builtin:random --live` (and `extra` arguments), once it
 * printed the play address. */
async function startMatch(module, extra = []) {
  const dir = scratchDir();
  const port = await freePort();
  const file = module.endsWith(".wasm") ? module : path.join(MODULES, module + ".wasm");
  const proc = spawn(ARBITER, ["match", file, "human:Ada", "builtin:random",
    "--games", "1", "--live", `127.0.0.1:${port}`, "-o", dir, ...extra], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (d) => { out += d; });
  proc.stderr.on("data", (d) => { out += d; });
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const play = await until(() => out.match(/here: (\S+)/)?.[1], "the play address in:\n" + out, 30000);
  return { proc, dir, play, exited, output: () => out };
}

/** The hub's play page; resolves to the player's frame once it shows the game. */
async function livePage(url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(url);
  const frame = await until(async () => {
    const f = page.frames().find((x) => x !== page.mainFrame());
    const ok = f && await f.evaluate(() => window.__arbiter?.state?.frames > 0).catch(() => false);
    return ok ? f : null;
  }, "the live player to show the game", 30000);
  return { page, frame };
}

function liveState(frame) {
  return frame.evaluate(() => ({
    msg: document.getElementById("live-msg").textContent,
    pick: document.getElementById("live-pick").hidden ? null : [...document.getElementById("live-pick").options].slice(1).map((o) => o.value),
    frames: window.__arbiter.state.frames,
    k: window.__arbiter.state.k,
    toMove: window.__arbiter.state.view?.to_move,
    geom: window.__arbiter.state.geom,
    clicks: window.__arbiter.liveClicks,
    sent: window.__arbiter.liveSent.slice(),
    error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
    over: window.__arbiter.state.frames > 0 && document.getElementById("live").hidden,
  }));
}

/** Ada's turn (first seat) in the newest position, or the end. */
function myTurn(frame) {
  let last = null;
  return until(async () => {
    const s = await liveState(frame);
    last = s;
    if (s.error) throw new Error(s.error);
    const mine = s.toMove === 0 && s.k === s.frames - 1 && s.msg.startsWith("Your turn") && (s.clicks || s.pick);
    return (mine || s.over) ? s : null;
  }, () => `Ada's turn or the end; last seen: ${JSON.stringify({ ...last, clicks: last?.clicks?.slice(0, 80), geom: undefined })}`, 60000);
}

/** A hexagon's centre-to-corner distance and a hex board's row spacing, in cells. */
const HEX_R = 1 / Math.sqrt(3), HEX_ROW = Math.sqrt(3) / 2;

/** The centre of [c, r] in CSS pixels: a square cell's, or on a `hex` board a hexagon's (each
 * row half a cell right of the one above). */
function centreOf([ox, oy, cell], [c, r], hex = false) {
  return hex ? [ox + (c + r / 2 + 0.5) * cell, oy + (HEX_R + r * HEX_ROW) * cell] : [ox + (c + 0.5) * cell, oy + (r + 0.5) * cell];
}

/** A click on [c, r], `dx` cells right of its centre. */
async function clickAt(frame, geom, at, { hex = false, dx = 0 } = {}) {
  const [x, y] = centreOf(geom, at, hex);
  await frame.locator("#board").click({ position: { x: x + dx * geom[2], y } });
}

/** Whether the canvas shows a click ring (the page's text colour, --fg) of `radius` cells around [c, r]. */
function ringAt(frame, geom, at, radius, hex = false) {
  const [x0, y0] = centreOf(geom, at, hex);
  return frame.evaluate(({ cell, x0, y0, radius }) => {
    const canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
    const k = canvas.width / canvas.getBoundingClientRect().width;
    const h = getComputedStyle(document.documentElement).getPropertyValue("--fg").trim().slice(1);
    const hl = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    // The ring is a thin anti-aliased line at a fractional position: a point on it may fall
    // between two device pixels, so each of the 8 points looks at its 3 x 3 neighbourhood.
    const near = (d, i) => Math.abs(d[i] - hl[0]) + Math.abs(d[i + 1] - hl[1]) + Math.abs(d[i + 2] - hl[2]) < 60;
    let hits = 0;
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4, x = x0 + radius * Math.cos(a) * cell, y = y0 + radius * Math.sin(a) * cell;
      const d = ctx.getImageData(Math.round(x * k) - 1, Math.round(y * k) - 1, 3, 3).data;
      if ([0, 4, 8, 12, 16, 20, 24, 28, 32].some((j) => near(d, j))) hits++;
    }
    return hits >= 5;
  }, { cell: geom[2], x0, y0, radius });
}

/** ringAt, given a moment: the board is redrawn on an animation frame after the state shows the turn. */
async function ringSoon(frame, geom, at, radius, hex = false) {
  return until(async () => (await ringAt(frame, geom, at, radius, hex)) || null, "a ring", 3000).then(() => true, () => false);
}

const sameCell = (a, b) => a[0] === b[0] && a[1] === b[1];

/** After a whole game by clicks: the match ended well, the actions sent were the moves
 * clicked, and they are Ada's moves in the saved replay; returns the replay. */
async function endedAsClicked(m, page, frame, clicked) {
  assert.equal(await m.exited, 0, m.output());
  const s = await liveState(frame);
  const saved = JSON.parse(readFileSync(path.join(m.dir, "game-0001.json"), "utf8"));
  const actions = s.sent.map((t) => JSON.parse(t)).filter((x) => x.request === "action").map((a) => a.content);
  assert.deepEqual(actions, clicked);
  assert.deepEqual(actions, saved.moves.filter((x) => x.seat === 0).map((x) => x.move), "Ada's clicks are the replay's moves");
  assert.ok(s.over, "the game ended");
  assert.deepEqual(page.errors, []);
  return saved;
}

describe("a person plays a module game by clicks on the real hub", () => {
  test("Connect Four against builtin:random, a whole game: each move one click where the disc lands", async () => {
    const m = await startMatch("connect-four");
    const { page, frame } = await livePage(m.play);
    const clicked = [];
    for (let guard = 0; guard < 40; guard++) {
      const s = await myTurn(frame);
      if (s.over) break;
      const entries = JSON.parse(s.clicks);
      assert.ok(entries.every((e) => e.cells.length === 1), "one click a move");
      // Every landing cell is offered (highlighted), each once.
      for (const e of entries) assert.ok(await ringSoon(frame, s.geom, e.cells[0], 0.22), `${e.move} highlighted`);
      const pick = entries[(guard * 5) % entries.length];
      clicked.push(pick.move);
      await clickAt(frame, s.geom, pick.cells[0]);
      await until(async () => (await liveState(frame)).sent.length > s.sent.length, "the action to be sent");
      await until(async () => (await liveState(frame)).frames > s.frames, "the move to come back");
      if (guard === 2) await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-connect-four.png") });
    }
    await endedAsClicked(m, page, frame, clicked);
    await page.close();
  });

  test("Hex against builtin:random, a whole game on the hex board: a click anywhere in a hexagon is that hexagon's stone", async () => {
    const m = await startMatch("hex", ["--config", '{"size": 5, "swap": true}']);
    const { page, frame } = await livePage(m.play);
    const clicked = [];
    for (let turn = 0; turn < 20; turn++) {
      const s = await myTurn(frame);
      if (s.over) break;
      const entries = JSON.parse(s.clicks);
      assert.ok(entries.every((e) => e.cells.length === 1), "one click a stone");
      assert.equal(entries.length, 25 - (s.frames - 1), "every empty hexagon, and only those");
      // Rings at the hexagons' centres, rows stepping right: a square grid's would miss.
      for (const e of entries.slice(0, 8)) assert.ok(await ringSoon(frame, s.geom, e.cells[0], 0.22, true), `${e.move} highlighted`);
      const pick = entries[(turn * 7 + 3) % entries.length];
      clicked.push(pick.move);
      // Off the centre, towards the next hexagon of the row: still inside this one.
      await clickAt(frame, s.geom, pick.cells[0], { hex: true, dx: turn % 2 ? 0.4 : -0.4 });
      await until(async () => (await liveState(frame)).sent.length > s.sent.length, "the stone to be sent");
      await until(async () => (await liveState(frame)).frames > s.frames, "the stone to come back");
      if (turn === 3) await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-hex.png") });
    }
    const saved = await endedAsClicked(m, page, frame, clicked);
    assert.match(saved.meta.ending, /^(first joined top and bottom|second joined left and right)$/, "the module's words for the end");
    await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-hex-end.png") });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  // The bar of issue 35: a person plays a whole Dou Dizhu game against two bots by clicks and
  // sees only their own hand; a spectator sees no hand until it ends; the finished game shows
  // every hand, and "View as" one seat's.
  test("Dou Dizhu against two builtin:random by clicks, a whole game: Ada sees only her hand, a spectator none until the end, then every hand and View as", async () => {
    const m = await startMatch(path.join(ROOT, "games/dist/dou-dizhu.wasm"), ["builtin:random"]);
    const { page, frame } = await livePage(m.play);
    const watchAt = await until(() => m.output().match(/watch it at (\S+)/)?.[1], "the watch address", 30000);
    const watch = await livePage(watchAt);
    // Cards shown in each seat's row of the board text: its 15 rank columns ("." is none).
    const cards = (f) => f.evaluate(() => {
      const lines = document.getElementById("board-text").textContent.split("\n").slice(1, 4);
      return lines.map((l) => l.trim().split(/\s+/).slice(-16, -1).filter((t) => t !== ".").length);
    });
    try {
      let turns = 0;
      for (; turns < 60; turns++) {
        const s = await myTurn(frame);
        if (s.over) break;
        const mine = await cards(frame);
        assert.ok(mine[0] > 0, `Ada sees her own hand: ${mine}`);
        assert.deepEqual(mine.slice(1), [0, 0], `Ada sees no other hand: ${mine}`);
        assert.deepEqual(await cards(watch.frame), [0, 0, 0], "the spectator sees no hand while the game runs");
        const entries = JSON.parse(s.clicks);
        // Clicks, not a list: the hub's clicks carry no null keys.
        assert.equal(s.pick, null, "the moves are offered by clicks");
        const pick = entries[(turns * 7 + 3) % entries.length];
        for (const cell of pick.cells) await clickAt(frame, s.geom, cell);
        const sent = await until(async () => {
          const now = await liveState(frame);
          return now.sent.length > s.sent.length ? now.sent : null;
        }, `the action ${pick.move} to be sent`);
        assert.equal(JSON.parse(sent.at(-1)).content, pick.move, "the clicks are the move");
        await until(async () => {
          const now = await liveState(frame);
          return now.frames > s.frames || now.over;
        }, "the move to come back");
        if (turns === 1) {
          await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-dou-dizhu-seat.png") });
          await watch.page.screenshot({ path: path.join(ARTIFACTS, "kit-live-dou-dizhu-spectator.png") });
        }
      }
      assert.ok(turns >= 2, `Ada played ${turns} turns`);
      assert.equal(await m.exited, 0, m.output());
      const saved = JSON.parse(readFileSync(path.join(m.dir, "game-0001.json"), "utf8"));
      for (const [who, f] of [["Ada", frame], ["the spectator", watch.frame]]) {
        // The end came, with the full game: no error, every frame, every hand at the deal,
        // and those left holding cards at the end.
        const s = await until(async () => {
          const now = await liveState(f);
          if (now.error || /Cannot show/.test(now.msg)) throw new Error(`${who}: ${now.error ?? now.msg}`);
          const whole = await f.evaluate(() => !document.getElementById("viewas-opt").hidden);
          return now.over && now.frames === saved.moves.length + 1 && whole ? now : null;
        }, `${who}'s page to show the whole game, from the module (View as shown)`);
        assert.equal(s.k, s.frames - 1, `${who} sees the last frame`);
        const atEnd = await cards(f);
        assert.ok(atEnd.filter((n) => n > 0).length >= 2, `${who} sees the hands left at the end: ${atEnd}`);
        await f.evaluate(() => { location.hash = "#frame=1"; });
        await until(async () => (await liveState(f)).k === 1 || null, "frame 1");
        const all = await cards(f);
        assert.ok(all.every((n) => n >= 5), `${who} sees every hand at the deal: ${all}`);
        const values = await f.evaluate(() => document.getElementById("viewas-opt").hidden ? null : [...document.querySelectorAll("#viewas option")].map((o) => o.value));
        assert.deepEqual(values, ["all", "0", "1", "2"], `${who} has View as`);
        await f.selectOption("#viewas", "1");
        const seen = await until(async () => {
          const now = await cards(f);
          return now[0] === 0 ? now : null;
        }, "the view as seat 1");
        assert.deepEqual(seen, [0, all[1], 0], `as seat 1, only its hand: ${seen}`);
        if (who === "the spectator") await watch.page.screenshot({ path: path.join(ARTIFACTS, "kit-live-dou-dizhu-as-seat.png") });
        await f.selectOption("#viewas", "all");
      }
      assert.deepEqual(page.errors, []);
      assert.deepEqual(watch.page.errors, []);
    } finally {
      m.proc.kill();
      await page.close();
      await watch.page.close();
    }
  });

  test("Amazons against builtin:random: a move is queen, target, arrow, with only what continues a legal move highlighted", async () => {
    const m = await startMatch("amazons");
    const { page, frame } = await livePage(m.play);
    try {
      for (let turn = 0; turn < 3; turn++) {
        const s = await myTurn(frame);
        assert.ok(!s.over);
        const entries = JSON.parse(s.clicks);
        const queens = [...new Map(entries.map((e) => [e.cells[0].join(), e.cells[0]])).values()];
        assert.ok(queens.length >= 1 && queens.length <= 4, "the queens that can move are offered first");
        for (const q of queens) assert.ok(await ringSoon(frame, s.geom, q, 0.22), `queen ${q} highlighted`);
        const pick = entries[(turn * 97 + 13) % entries.length];
        const [q, t, a] = pick.cells;
        await clickAt(frame, s.geom, q);
        // After the queen: her targets, and not the other queens.
        const targets = entries.filter((e) => sameCell(e.cells[0], q)).map((e) => e.cells[1]);
        for (const x of targets.slice(0, 6)) assert.ok(await ringSoon(frame, s.geom, x, 0.22), `target ${x} highlighted`);
        for (const other of queens.filter((x) => !sameCell(x, q))) assert.ok(!(await ringAt(frame, s.geom, other, 0.22)), `queen ${other} no longer offered`);
        assert.ok(await ringSoon(frame, s.geom, q, 0.46), "the chosen queen is marked");
        assert.match((await liveState(frame)).msg, /^Go on: click a highlighted place/);
        if (turn === 0) await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-amazons-1280.png") });
        await clickAt(frame, s.geom, t);
        const arrows = entries.filter((e) => sameCell(e.cells[0], q) && sameCell(e.cells[1], t)).map((e) => e.cells[2]);
        for (const x of arrows.slice(0, 6)) assert.ok(await ringSoon(frame, s.geom, x, 0.22), `arrow square ${x} highlighted`);
        assert.equal((await liveState(frame)).sent.length, s.sent.length, "nothing is sent before the move is complete");
        await clickAt(frame, s.geom, a);
        const sent = await until(async () => {
          const now = await liveState(frame);
          return now.sent.length > s.sent.length ? now.sent : null;
        }, "the action to be sent");
        assert.equal(JSON.parse(sent.at(-1)).content, pick.move, "the three clicks are the move");
        await until(async () => (await liveState(frame)).frames >= s.frames + 2, "Ada's move and the reply");
      }
      await page.setViewportSize({ width: 375, height: 900 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-amazons-375.png"), fullPage: true });
      assert.deepEqual(page.errors, []);
    } finally {
      m.proc.kill();
      await page.close();
    }
  });

  test("Connect6 against builtin:random: one stone, then two a turn, the second stone clicked like the first", async () => {
    const m = await startMatch("connect6", ["--config", '{"size": 9}']);
    const { page, frame } = await livePage(m.play);
    try {
      const clicked = [];
      // Ada's stones of three turns: 1, then 2, then 2.
      for (let stone = 0; stone < 5; stone++) {
        const s = await myTurn(frame);
        assert.ok(!s.over);
        const entries = JSON.parse(s.clicks);
        assert.ok(entries.every((e) => e.cells.length === 1), "one click a stone");
        // Every empty point is offered; those taken are not.
        assert.equal(entries.length, 81 - s.frames + 1, `${s.frames - 1} stones on the board`);
        for (const e of entries.slice(0, 6)) assert.ok(await ringAt(frame, s.geom, e.cells[0], 0.22), `${e.move} highlighted`);
        const pick = entries[(stone * 31 + 7) % entries.length];
        clicked.push(pick.move);
        await clickAt(frame, s.geom, pick.cells[0]);
        await until(async () => (await liveState(frame)).sent.length > s.sent.length, "the stone to be sent");
        if (stone === 1 || stone === 3) {
          // The turn's first stone is back, and Ada is to move again, at once: the same seat,
          // one frame on, the point just taken no longer offered.
          await until(async () => (await liveState(frame)).frames > s.frames, "the stone to come back");
          const second = await myTurn(frame);
          assert.equal(second.frames, s.frames + 1, "no reply between a turn's two stones");
          assert.equal(second.toMove, 0);
          const again = JSON.parse(second.clicks);
          assert.equal(again.length, entries.length - 1);
          assert.ok(!again.some((e) => e.move === pick.move), `${pick.move} is taken`);
          assert.ok(!(await ringAt(frame, second.geom, pick.cells[0], 0.22)), `${pick.move} no longer offered`);
          if (stone === 3) await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-connect6.png") });
        } else {
          await until(async () => (await liveState(frame)).frames > s.frames + 1, "the stone and the reply");
        }
      }
      const s = await liveState(frame);
      const actions = s.sent.map((t) => JSON.parse(t)).filter((x) => x.request === "action").map((a) => a.content);
      assert.deepEqual(actions, clicked, "each click sent as one stone");
      // The stones so far: Ada 1, random 2, Ada 2, random 2, Ada 2, and the reply begun.
      assert.ok(s.frames >= 11, `${s.frames} frames`);
      assert.deepEqual(page.errors, []);
    } finally {
      m.proc.kill();
      await page.close();
    }
  });

  test("Dots and Boxes against builtin:random, a whole game: an edge is one click on its line, and a box gives an extra turn", async () => {
    const m = await startMatch("dots-and-boxes", ["--config", '{"cols": 3, "rows": 3}', "--seed", "2"]);
    const { page, frame } = await livePage(m.play);
    const key = ([a, b]) => [a, b].map((p) => p.join(",")).sort().join("|");
    // Every edge of the 3 x 3 boxes, as the clicks name lines (corners, row 0 at the top).
    const all = [];
    for (let r = 0; r <= 3; r++) for (let c = 0; c <= 3; c++) {
      if (c < 3) all.push([[c, r], [c + 1, r]]);
      if (r < 3) all.push([[c, r], [c, r + 1]]);
    }
    const sides = (c, r) => [[[c, r], [c + 1, r]], [[c, r + 1], [c + 1, r + 1]], [[c, r], [c, r + 1]], [[c + 1, r], [c + 1, r + 1]]].map(key);
    const boxes = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) boxes.push(sides(c, r));
    /** How many boxes drawing `line` closes, when the edges not offered are drawn. */
    const closes = (line, drawn) => boxes.filter((b) => b.includes(key(line)) && b.every((e) => e === key(line) || drawn.has(e))).length;
    const clicked = [];
    let extra = 0, shot = false;
    try {
      for (let guard = 0; guard < 40; guard++) {
        const s = await myTurn(frame);
        if (s.over) break;
        const entries = JSON.parse(s.clicks);
        assert.ok(entries.every((e) => e.line && !e.cells), "an edge is a line to click");
        const offered = new Set(entries.map((e) => key(e.line)));
        const drawn = new Set(all.map(key).filter((k) => !offered.has(k)));
        // Take a box when there is one; else an edge that gives none away, if any.
        const safe = (e) => boxes.every((b) => !b.includes(key(e.line)) || b.filter((x) => drawn.has(x)).length < 2);
        const pick = entries.find((e) => closes(e.line, drawn) > 0) || entries.find(safe) || entries[guard % entries.length];
        const boxed = closes(pick.line, drawn) > 0;
        clicked.push(pick.move);
        const [ox, oy, cell] = s.geom;
        const mid = [0, 1].map((i) => (pick.line[0][i] + pick.line[1][i]) / 2);
        await frame.locator("#board").click({ position: { x: ox + mid[0] * cell, y: oy + mid[1] * cell } });
        await until(async () => (await liveState(frame)).sent.length > s.sent.length, "the edge to be sent");
        await until(async () => (await liveState(frame)).frames > s.frames, "the edge to come back");
        // The line is drawn in Ada's colour where it was clicked.
        let off = null;
        const inked = await until(async () => {
          off = await frame.evaluate(({ x, y }) => {
            const canvas = document.getElementById("board"), k = canvas.width / canvas.getBoundingClientRect().width;
            const d = canvas.getContext("2d").getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data;
            const h = getComputedStyle(document.documentElement).getPropertyValue("--p0").trim().slice(1);
            return [0, 2, 4].reduce((sum, i, j) => sum + Math.abs(d[j] - parseInt(h.slice(i, i + 2), 16)), 0);
          }, { x: ox + mid[0] * cell, y: oy + mid[1] * cell });
          return off < 40;
        }, "the line to be drawn", 3000).catch(() => false);
        assert.ok(inked, `${pick.move} drawn in Ada's colour (off by ${off})`);
        if (boxed) {
          // A box: Ada moves again, with no reply between.
          const next = await myTurn(frame);
          if (next.over) break;
          assert.equal(next.frames, s.frames + 1, `${pick.move} closed a box: Ada draws again`);
          assert.equal(next.toMove, 0);
          extra++;
          if (!shot) {
            await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-dots-and-boxes.png") });
            shot = true;
          }
        }
      }
      assert.equal(await m.exited, 0, m.output());
      assert.ok(extra > 0, "Ada closed a box before the end and drew again");
      const s = await liveState(frame);
      assert.ok(s.over, "the game ended");
      const actions = s.sent.map((t) => JSON.parse(t)).filter((x) => x.request === "action").map((a) => a.content);
      assert.deepEqual(actions, clicked);
      const saved = JSON.parse(readFileSync(path.join(m.dir, "game-0001.json"), "utf8"));
      assert.deepEqual(actions, saved.moves.filter((x) => x.seat === 0).map((x) => x.move), "Ada's clicks are the replay's moves");
      // The replay has Ada's extra turns: her moves one after the other.
      const twice = saved.moves.filter((x, i) => i > 0 && x.seat === 0 && saved.moves[i - 1].seat === 0).length;
      assert.ok(twice >= extra, `${twice} extra turns in the replay, ${extra} seen`);
      await page.screenshot({ path: path.join(ARTIFACTS, "kit-live-dots-and-boxes-end.png") });
      assert.deepEqual(page.errors, []);
    } finally {
      m.proc.kill();
      await page.close();
    }
  });

  test("a module that gives no clicks (Nim, in C) offers the legal moves as a list; a pick is sent", async (t) => {
    const wasm = path.join(scratchDir(), "c-nim.wasm");
    try {
      execFileSync("clang", ["--target=wasm32", "-O2", "-nostdlib", "-Wall", "-Wextra", "-Wl,--no-entry", "-o", wasm, path.join(ROOT, "games/c-nim/nim.c")]);
    } catch (e) {
      if (e.code === "ENOENT" && process.env.ARBITER_REQUIRE_CLANG !== "1") return t.skip("clang is not installed (scripts/test.sh installs it)");
      throw e;
    }
    const m = await startMatch(wasm);
    const { page, frame } = await livePage(m.play);
    const picked = [];
    for (let guard = 0; guard < 60; guard++) {
      const s = await myTurn(frame);
      if (s.over) break;
      assert.ok(!s.clicks, "no clicks from this module");
      assert.ok(s.pick.length > 0, "the legal moves are listed");
      assert.match(s.msg, /pick a move from the list/);
      // A click on the board sends nothing: it is not a module game with clicks.
      await clickAt(frame, s.geom, [0, 0]);
      const choice = s.pick[(guard * 3) % s.pick.length];
      picked.push(choice);
      await frame.selectOption("#live-pick", choice);
      await until(async () => (await liveState(frame)).sent.length > s.sent.length, "the pick to be sent");
      await until(async () => (await liveState(frame)).frames > s.frames, "the move to come back");
    }
    assert.equal(await m.exited, 0, m.output());
    const s = await liveState(frame);
    const actions = s.sent.map((x) => JSON.parse(x)).filter((x) => x.request === "action").map((a) => a.content);
    assert.deepEqual(actions, picked, "only the picks were sent");
    const saved = JSON.parse(readFileSync(path.join(m.dir, "game-0001.json"), "utf8"));
    assert.deepEqual(actions, saved.moves.filter((x) => x.seat === 0).map((x) => x.move));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
