// "Why did my bot lose?": the last frame of every failure sample (illegal, off the board,
// malformed, timeout, crash with a traceback, memory; 16x16 Reversi, renju, the 2048 duel)
// shows the failure on the board, the bot's stderr tail and DEBUG text in the log panel, and
// names it in the board's description; screenshots at 1280 x 800 and 375 x 700. Then the
// player's other issue-11 behaviour: #frame=fail, spoilers, coordinates, embedded controls,
// names per replay, accessibility, layout at phone width, opening from disk.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  ARTIFACTS, BASE, WWW_DIR, boardAt, hostPage, launch, oracle, playerFrame, postReplay,
  sampleText, samplePath, samples, waitMessage,
} from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const isInit = (m) => m && m.message === "init_successfully";
const failureSamples = () => samples().filter((s) => /^(reversi16|renju|duel)-fail-/.test(s));

/** What the sample says the bot did: the reason, the failure record, the expected mark. */
function expected(name) {
  const r = JSON.parse(sampleText(name));
  const reason = r.result.reason;
  let cell = null, direction = null;
  if (reason.kind === "illegal_move") {
    const nums = (reason.line.match(/\d+/g) || []).map(Number);
    if (name.startsWith("reversi16") && nums.every((n) => n < 16)) cell = [nums[0], nums[1]];
    if (name.startsWith("renju")) cell = [nums[1], nums[0]]; // Gomocup x,y
    if (name.startsWith("duel") && nums.length === 2) cell = nums;
    if (name.startsWith("duel") && nums.length === 1) direction = ["up", "down", "left", "right"][nums[0]];
  }
  const words = {
    illegal_move: cell || direction ? /sent "[^"]+"/ : /which is not on the/,
    malformed_output: /which is not a move/,
    move_time: /ran out of its move clock/,
    game_time: /ran out of its game clock/,
    crash: /crashed with exit code 1: ValueError/,
    memory: /more than its 350 MB of memory/,
  }[reason.kind];
  return { r, reason, failure: r.failure, cell, direction, words };
}

/** The canvas's pixel at CSS (x, y), as [r, g, b]. */
async function pixel(frame, x, y) {
  return frame.$eval("#board", (c, [x, y]) => {
    const d = window.devicePixelRatio || 1;
    return Array.from(c.getContext("2d").getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data.slice(0, 3));
  }, [x, y]);
}
const isRed = ([r, g, b]) => r > 150 && g < 120 && b < 120;

/** The canvas's height over its width: the board's own shape, with no strip added under it. */
async function canvasShape(frame) {
  return frame.$eval("#board", (c) => c.height / c.width);
}

describe("the failure frame of every failure sample", () => {
  test("there is one sample of each kind for each game", () => {
    const names = failureSamples();
    for (const game of ["reversi16", "renju", "duel"]) {
      for (const kind of ["malformed", "timeout", "crash", "memory"]) assert.ok(names.includes(`${game}-fail-${kind}.json`), `${game} ${kind}`);
    }
    for (const n of ["reversi16-fail-illegal.json", "reversi16-fail-offboard.json", "renju-fail-illegal.json", "duel-fail-direction.json", "duel-fail-cell.json"]) {
      assert.ok(names.includes(n), n);
    }
  });

  for (const name of [
    "reversi16-fail-illegal.json", "reversi16-fail-offboard.json", "reversi16-fail-malformed.json", "reversi16-fail-timeout.json",
    "reversi16-fail-crash.json", "reversi16-fail-memory.json", "renju-fail-illegal.json", "renju-fail-malformed.json",
    "renju-fail-timeout.json", "renju-fail-crash.json", "renju-fail-memory.json", "duel-fail-direction.json", "duel-fail-cell.json",
    "duel-fail-malformed.json", "duel-fail-timeout.json", "duel-fail-crash.json", "duel-fail-memory.json",
  ]) {
    test(name, async () => {
      const want = oracle(samplePath(name));
      const e = expected(name);
      const last = want.frames.length - 1;
      // Embedded, as a contest site shows it: the site seeks to the last frame.
      const page = await hostPage(browser);
      const frame = await playerFrame(page);
      await postReplay(page, sampleText(name));
      await waitMessage(page, isInit, "init_successfully");
      await page.evaluate((i) => window.post({ message: "load_frame", index: i }), last);
      assert.deepEqual(await boardAt(frame, last), want.frames[last].board, "the last frame is the position of the failure");
      const v = await frame.evaluate(() => window.__arbiter.state.view);
      assert.equal(v.failure.kind, e.reason.kind);
      assert.equal(v.failure.seat, e.reason.seat);
      assert.deepEqual(v.failure.cell, e.cell, "the attempted square");
      assert.equal(v.failure.direction, e.direction, "the attempted direction");
      // The board: a red cross on the attempted square (or over the refused arrow). The
      // verdict's words are said once, on the status line, not again under the board.
      const [ox, oy, cell] = await frame.evaluate(() => window.__arbiter.state.geom);
      if (e.cell) assert.ok(isRed(await pixel(frame, ox + (e.cell[1] + 0.5) * cell, oy + (e.cell[0] + 0.5) * cell)), "a red cross on the square");
      if (e.direction) assert.ok(isRed(await pixel(frame, ox + (e.reason.seat ? 6 : 2) * cell, oy + 2 * cell)), "a red crossed-out arrow");
      const shape = await canvasShape(frame);
      const board = name.startsWith("duel") ? 0.6 : 1.0;
      assert.ok(Math.abs(shape - board) < 0.02, `no strip under the board for a second copy of the verdict (${shape})`);
      assert.match(v.failure.caption, e.words);
      // The status line states the verdict.
      const status = await frame.$eval("#status", (el) => el.textContent);
      assert.match(status, e.words);
      assert.match(status, new RegExp(`at move ${last + 1}`));
      // The log panel: the DEBUG text and the stderr tail.
      const log = await frame.$eval("#log", (el) => el.textContent);
      if (e.failure.log) assert.ok(log.includes(e.failure.log), `DEBUG text in the log panel: ${log}`);
      if (e.failure.stderr) {
        assert.ok(log.includes(e.failure.stderr.trim()), "the whole stderr tail (a traceback) in the log panel");
        assert.match(log, /Traceback \(most recent call last\)/);
      }
      if (e.reason.kind === "memory") assert.match(log, /killed by arbiter: memory limit/);
      if (e.failure.clock_ms != null) assert.match(log, /game clock .* left when asked/);
      // The panel is not cut: it grows (up to a scroll) to hold the traceback.
      const [sh, ch] = await frame.$eval("#log", (el) => [el.scrollHeight, el.clientHeight]);
      assert.ok(sh <= ch + 1 || ch >= 200, `log panel tall enough (${sh} in ${ch})`);
      // The accessible description names the failure, and the attempted square.
      const desc = await frame.$eval("#board-desc", (el) => el.textContent);
      assert.match(desc, e.words);
      if (e.cell) assert.match(desc, /Attempted move, not played: \S+/);
      // The frame before shows no failure.
      await page.evaluate((i) => window.post({ message: "load_frame", index: i }), last - 1);
      await boardAt(frame, last - 1);
      assert.equal(await frame.evaluate(() => window.__arbiter.state.view.failure), null);
      assert.doesNotMatch(await frame.$eval("#status", (el) => el.textContent), e.words);
      await page.close();

      // Standalone, #frame=fail, at desktop and phone sizes: screenshots.
      for (const [w, h] of [[1280, 800], [375, 700]]) {
        const p = await browser.newPage({ viewport: { width: w, height: h } });
        const errors = [];
        p.on("pageerror", (err) => errors.push(String(err)));
        await p.goto(`${BASE}/player.html?replay=samples/${name}#frame=fail`);
        await boardAt(p.mainFrame(), last);
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `no sideways scrolling at ${w} px (${overflow})`);
        await p.screenshot({ path: path.join(ARTIFACTS, `fail-${name.replace(".json", "")}-${w}.png`) });
        assert.deepEqual(errors, []);
        await p.close();
      }
    });
  }
});

describe("jumping and spoilers", () => {
  test("#frame=fail and the jump button go to the failure; the last frame alone says the result, once", async () => {
    const name = "renju-fail-timeout.json";
    const want = oracle(samplePath(name));
    const last = want.frames.length - 1;
    const page = await browser.newPage();
    await page.goto(`${BASE}/player.html?replay=samples/${name}#frame=3`);
    const frame = page.mainFrame();
    await boardAt(frame, 3);
    const said = () => page.evaluate(() => ({
      status: document.getElementById("status").textContent,
      box: document.getElementById("result").hidden ? null : document.getElementById("result").textContent,
    }));
    let s = await said();
    assert.equal(s.box, null, "no result box (nor a box saying it is hidden) before the last frame");
    assert.doesNotMatch(s.status, /wins|Draw|clock/, "no spoiler before the last frame");
    assert.equal(await page.$eval("#b-end", (e) => e.textContent), "Jump to the end", "the button does not give the failure away");
    await page.click("#b-end");
    await boardAt(frame, last);
    s = await said();
    assert.match(s.status, /(Black|White) wins/);
    assert.match(s.status, /ran out of its move clock/);
    assert.equal(s.box, null, "the status line said it: not again in a box");
    assert.equal(await page.$eval("#b-end", (e) => e.textContent), "Jump to the failure");
    await page.keyboard.press("Home");
    await boardAt(frame, 0);
    s = await said();
    assert.equal(s.box, null);
    assert.doesNotMatch(s.status, /wins|Draw|clock/);
    // #frame=fail in a new address
    await page.evaluate(() => { location.hash = "#frame=fail"; });
    await boardAt(frame, last);
    await page.close();
  });

  test("a site asks for the result: data-result=\"show\" on the meta tag, or ?result=show", async () => {
    const page = await hostPage(browser, "srcdoc", { metaAttrs: ' data-result="show"' });
    const frame = await playerFrame(page);
    await postReplay(page, sampleText("reversi-8.json"));
    await waitMessage(page, isInit, "init_successfully");
    await boardAt(frame, 0);
    assert.match(await frame.$eval("#result", (e) => e.textContent), /wins|Draw/);
    await page.close();
    const p2 = await browser.newPage();
    await p2.goto(`${BASE}/player.html?replay=samples/reversi-8.json&result=show`);
    await boardAt(p2.mainFrame(), 0);
    assert.match(await p2.$eval("#result", (e) => e.textContent), /wins|Draw/);
    await p2.close();
  });
});

describe("embedding", () => {
  test("a srcdoc site turns the controls on through the meta tag", async () => {
    const page = await hostPage(browser, "srcdoc", { metaOrigins: BASE, metaAttrs: ' data-controls="1"' });
    const frame = await playerFrame(page);
    await postReplay(page, sampleText("reversi-8.json"));
    await waitMessage(page, isInit, "init_successfully", 10000);
    assert.equal(await frame.$eval("#controls", (e) => e.hidden), false);
    await frame.click("#b-next");
    await boardAt(frame, 1);
    await page.close();
  });

  test("names from load_players are cleared when a different replay is loaded", async () => {
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    const names = () => frame.$$eval(".pname", (els) => els.map((e) => e.textContent));
    await postReplay(page, sampleText("reversi-8.json"));
    await waitMessage(page, isInit, "init_successfully");
    await page.evaluate(() => window.post({ message: "load_players", players: ["Alice", "Bob"] }));
    await frame.waitForFunction(() => document.querySelector(".pname")?.textContent === "Alice");
    // The same replay again keeps them.
    await postReplay(page, sampleText("reversi-8.json"));
    await page.evaluate(() => window.post({ message: "load_frame", index: 2 }));
    await boardAt(frame, 2);
    assert.deepEqual(await names(), ["Alice", "Bob"]);
    // Another replay shows its own players.
    await postReplay(page, sampleText("reversi-6.json"));
    await page.evaluate(() => window.post({ message: "load_frame", index: 1 }));
    await boardAt(frame, 1);
    assert.deepEqual(await names(), JSON.parse(sampleText("reversi-6.json")).players.map((p) => p.name));
    await page.close();
  });
});

describe("coordinates and accessibility", () => {
  test("Reversi: the board's labels and the hover text use the move list's squares, with the protocol's ROW COL", async () => {
    const page = await browser.newPage();
    await page.goto(`${BASE}/player.html?replay=samples/reversi16-fail-illegal.json#frame=fail`);
    const frame = page.mainFrame();
    const r = JSON.parse(sampleText("reversi16-fail-illegal.json"));
    await boardAt(frame, r.moves.length);
    const [ox, oy, cell] = await page.evaluate(() => window.__arbiter.state.geom);
    const box = await page.$eval("#board", (c) => { const b = c.getBoundingClientRect(); return [b.x, b.y]; });
    // i3 = column 8, row 2 (protocol "2 8")
    await page.mouse.move(box[0] + ox + 8.5 * cell, box[1] + oy + 2.5 * cell);
    await page.waitForFunction(() => document.getElementById("board").title !== "");
    assert.equal(await page.$eval("#board", (c) => c.title), "i3 · protocol 2 8");
    // The move list writes the same notation.
    assert.match(await page.$eval("#moves .row:not([hidden])", (e) => e.textContent), /\b[a-p]\d{1,2}\b/);
    await page.close();
  });

  test("controls have names and no symbol glyphs; frame changes are announced; the board is described in words", async () => {
    const page = await browser.newPage();
    await page.goto(`${BASE}/player.html?replay=samples/reversi-8.json#frame=4`);
    const frame = page.mainFrame();
    const board = await boardAt(frame, 4);
    const buttons = await page.$$eval("#controls button", (bs) => bs.map((b) => [b.id, b.getAttribute("aria-label") || b.textContent.trim(), b.textContent]));
    for (const [id, name, text] of buttons) {
      assert.ok(name.length > 2, `${id} has a name`);
      assert.doesNotMatch(text, /[\u2190-\u2bff\u{1f000}-\u{1faff}]/u, `${id} uses no symbol glyph`);
    }
    assert.equal(await page.$eval("#announce", (e) => e.getAttribute("aria-live")), "polite");
    await page.keyboard.press("ArrowRight");
    await boardAt(frame, 5);
    await page.waitForFunction(() => document.getElementById("announce").textContent.startsWith("Frame 5 of "));
    // The description lists every disc in the move list's notation, and the legal moves.
    const desc = await page.$eval("#board-desc", (e) => e.textContent);
    const now = await boardAt(frame, 5);
    const squares = (ch) => now.flatMap((row, r) => [...row].map((c, col) => (c === ch ? String.fromCharCode(97 + col) + (r + 1) : null)).filter(Boolean));
    const list = (label) => desc.match(new RegExp(`${label}, \\d+ discs?: ([^;.]*)`))[1].split(" ");
    assert.deepEqual(list("Black").sort(), squares("X").sort());
    assert.deepEqual(list("White").sort(), squares("O").sort());
    assert.match(desc, /Legal for (Black|White): [a-h]\d/);
    assert.doesNotMatch(desc, /\.\.\./, "not rows of dots");
    assert.notDeepEqual(board, now);
    assert.equal(await page.$eval("#board", (c) => c.getAttribute("aria-describedby")), "board-desc");
    assert.equal(await page.$eval("#board-text", (e) => e.getAttribute("aria-hidden")), "true");
    await page.close();
  });

  test("dark mode: Black's markers keep a visible ring", async () => {
    const page = await browser.newPage({ colorScheme: "dark" });
    await page.goto(`${BASE}/player.html?replay=samples/reversi-8.json#frame=3`);
    await boardAt(page.mainFrame(), 3);
    const lum = (rgb) => { const [r, g, b] = rgb.match(/\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    for (const sel of ['#moves .row[data-k="1"] .mk', ".player .swatch"]) {
      const ring = await page.$eval(sel, (e) => getComputedStyle(e).borderTopColor);
      assert.ok(lum(ring) - lum(bg) > 0.4, `${sel}: ring ${ring} on ${bg}`);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, "dark-reversi-markers.png") });
    await page.close();
  });

  test("the duel's result reads in words", async () => {
    const page = await browser.newPage();
    await page.goto(`${BASE}/player.html?replay=samples/duel-500.json#frame=end`);
    const want = oracle(samplePath("duel-500.json"));
    await boardAt(page.mainFrame(), want.frames.length - 1);
    assert.match(await page.$eval("#status", (e) => e.textContent), /decided at \d+: \d+ tiles to \d+/);
    assert.equal(await page.$eval("#result", (e) => e.hidden), true, "said once, by the status line");
    await page.close();
  });
});

describe("phone width", () => {
  for (const name of ["reversi16-fail-crash.json", "duel-fail-timeout.json", "renju-fail-illegal.json", "reversi-opening.json"]) {
    test(`${name}: no text cut off, the controls stay on screen`, async () => {
      const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
      await page.goto(`${BASE}/player.html?replay=samples/${name}#frame=fail`);
      const want = oracle(samplePath(name));
      await boardAt(page.mainFrame(), want.frames.length - 1);
      const cut = await page.evaluate(() => {
        const out = [];
        for (const el of document.querySelectorAll("#app *")) {
          if (el.closest("[hidden]") || el.closest(".sr-only") || el.id === "moves" || el.id === "log") continue;
          const s = getComputedStyle(el);
          if (s.display === "none" || !el.textContent.trim()) continue;
          if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== "visible") out.push(el.id || el.className);
          if (el.scrollHeight > el.clientHeight + 1 && s.overflowY === "hidden") out.push((el.id || el.className) + " (height)");
        }
        return out;
      });
      assert.deepEqual(cut, [], "elements that cut their text");
      const c = await page.$eval("#controls", (e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom]; });
      assert.ok(c[0] >= 0 && c[1] <= 700, `controls on screen: ${c}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `phone-${name.replace(".json", "")}.png`) });
      await page.close();
    });
  }
});

test("from disk, ?replay= says to use Open… or drag and drop", async () => {
  const plain = await launch({ fileAccess: false });
  const page = await plain.newPage();
  await page.goto(pathToFileURL(path.join(WWW_DIR, "player.html")).href + "?replay=samples/reversi-8.json");
  await page.waitForFunction(() => !document.getElementById("error").hidden);
  const text = await page.$eval("#error", (e) => e.textContent);
  assert.match(text, /Open… below, or drag and drop/);
  assert.doesNotMatch(text, /Failed to fetch/);
  assert.equal(await page.$eval("#controls", (e) => e.hidden), false, "Open… is there");
  // and the picker still opens a file
  await page.setInputFiles("#file", samplePath("reversi-8.json"));
  await boardAt(page.mainFrame(), 0);
  assert.equal(await page.$eval("#error", (e) => e.hidden), true);
  await plain.close();
});
