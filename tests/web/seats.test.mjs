// Games of more than two seats in the player (issue 35, part 5): a four-snake replay, played
// here by the referee (the oracle), opens with one frame per simultaneous turn, each frame's
// row naming every seat's move, four player boxes in four colours; a three-seat Dou Dizhu
// replay shows three boxes with each seat's name, score and clock, every hand, and the "View
// as" switch shows one seat's hand only. The modules are the ones
// the referee carries (games/dist), found by the player at kit/modules/<sha256>.wasm.
// Screenshots: tests/artifacts/web/seats-*.png.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ARBITER, ARTIFACTS, BASE, WWW_DIR, launch, scratchDir } from "./lib.mjs";

const ROOT = path.resolve("../..");
const KIT = path.join(WWW_DIR, "kit");
const MODULES = path.join(KIT, "modules");

/** A replay of GAME by these bots, played now, as kit/seats-NAME.json; its module beside it. */
function played(game, bots, name) {
  const dir = path.join(scratchDir(), name);
  execFileSync(ARBITER, ["match", "-q", "-n", "1", "--seed", "35", "--output", dir, game, ...bots], { stdio: "ignore" });
  const file = path.join(dir, "game-0001.json");
  const replay = JSON.parse(readFileSync(file, "utf8"));
  const bytes = readFileSync(path.join(ROOT, "games/dist", `${game}.wasm`));
  const sha = createHash("sha256").update(bytes).digest("hex");
  assert.equal(replay.game.module.sha256, sha, "the referee played the module games/dist holds");
  mkdirSync(MODULES, { recursive: true });
  copyFileSync(path.join(ROOT, "games/dist", `${game}.wasm`), path.join(MODULES, `${sha}.wasm`));
  copyFileSync(file, path.join(KIT, `seats-${name}.json`));
  return replay;
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(name, hash) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(`${BASE}/player.html?replay=kit/seats-${name}.json${hash}`);
  await page.waitForFunction(() => window.__arbiter?.state?.frames > 0 || !document.getElementById("error").hidden, null, { timeout: 30000 });
  return page;
}

/** The player boxes: name, meta line, border colour, whether to move. */
function boxes(page) {
  return page.evaluate(() => [...document.querySelectorAll("#players .player")].map((d) => ({
    name: d.querySelector(".pname").textContent,
    meta: d.querySelector(".meta").textContent,
    color: getComputedStyle(d).borderLeftColor,
    tomove: d.classList.contains("tomove"),
  })));
}

const status = (page) => page.evaluate(() => ({
  error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
  moveinfo: document.getElementById("moveinfo").textContent,
  frame: Number(document.getElementById("board-text").dataset.frame),
  frames: window.__arbiter.state.frames,
}));

describe("N seats in the player", () => {
  test("four snakes: one frame per simultaneous turn, every seat's move, four colours", async () => {
    const replay = played("snake", ["builtin:1", "builtin:1", "builtin:1", "builtin:1"], "snake4");
    const page = await open("snake4", "#frame=1");
    const s = await status(page);
    assert.equal(s.error, null);
    assert.equal(s.frames, replay.moves.length + 1, "a frame per ply, not per seat's move");
    const first = replay.moves[0];
    assert.equal(first.with.length, 3, "the first turn moves all four snakes");
    for (const r of [first, ...first.with]) {
      assert.ok(s.moveinfo.includes(`#${r.seat + 1} ${r.move}`), `seat ${r.seat}'s ${r.move} in ${s.moveinfo}`);
    }
    const b = await boxes(page);
    assert.equal(b.length, 4);
    assert.deepEqual(b.map((x) => x.name), replay.players.map((p) => p.name));
    assert.equal(new Set(b.map((x) => x.color)).size, 4, `four colours: ${b.map((x) => x.color)}`);
    assert.ok(b.every((x) => x.tomove), "all four move at once");
    // The move list's row of the first turn names every seat's move.
    const row = await page.evaluate(() => document.querySelector('#moves .row[data-k="1"]')?.textContent ?? "");
    for (const r of [first, ...first.with]) assert.ok(row.includes(`#${r.seat + 1} ${r.move}`), row);
    await page.screenshot({ path: path.join(ARTIFACTS, "seats-snake4-first.png") });
    // The last frame: each snake's place once it is over.
    await page.goto(`${BASE}/player.html?replay=kit/seats-snake4.json#frame=last`);
    await page.waitForFunction(() => window.__arbiter?.state?.frames > 0);
    await page.waitForTimeout(300);
    const end = await boxes(page);
    replay.result.places?.forEach((p, i) => assert.ok(end[i].meta.includes(`place ${p}`), end[i].meta));
    await page.screenshot({ path: path.join(ARTIFACTS, "seats-snake4-last.png") });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("Dou Dizhu: three seats, each with its name, score and clock", async () => {
    const replay = played("dou-dizhu", ["builtin:1", "builtin:2", "builtin:2"], "ddz");
    const page = await open("ddz", "#frame=last");
    const s = await status(page);
    assert.equal(s.error, null);
    assert.equal(s.frames, replay.moves.length + 1);
    const b = await boxes(page);
    assert.equal(b.length, 3);
    assert.deepEqual(b.map((x) => x.name), replay.players.map((p) => p.name));
    assert.equal(new Set(b.map((x) => x.color)).size, 3);
    for (const x of b) assert.match(x.meta, /#\d · score -?\d+ .*time /);
    await page.screenshot({ path: path.join(ARTIFACTS, "seats-ddz-last.png") });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("Dou Dizhu: the replay shows every hand, and View as shows one seat's", async () => {
    const page = await open("ddz", "#frame=1");
    assert.equal((await status(page)).error, null);
    // Cards shown in a seat's row of the board text: its 15 rank columns (the row label first
    // may have spaces), a count in the last.
    const cards = () => page.evaluate(() => {
      const lines = document.getElementById("board-text").textContent.split("\n").slice(1, 4);
      return lines.map((l) => l.trim().split(/\s+/).slice(-16, -1).filter((t) => t !== ".").length);
    });
    const choices = await page.evaluate(() => {
      const opt = document.getElementById("viewas-opt");
      return { hidden: opt.hidden, values: [...document.querySelectorAll("#viewas option")].map((o) => o.value) };
    });
    assert.equal(choices.hidden, false, "a finished module game has the switch");
    assert.deepEqual(choices.values, ["all", "0", "1", "2"]);
    const all = await cards();
    assert.ok(all.every((n) => n >= 5), `every hand in the full view: ${all}`);
    for (const seat of [0, 1, 2]) {
      await page.selectOption("#viewas", String(seat));
      await page.waitForTimeout(100);
      const mine = await cards();
      mine.forEach((n, s) => {
        if (s === seat) assert.equal(n, all[s], `seat ${seat} sees its own hand`);
        else assert.equal(n, 0, `seat ${seat} sees no card of seat ${s}: ${mine}`);
      });
      await page.screenshot({ path: path.join(ARTIFACTS, `seats-ddz-as-${seat}.png`) });
    }
    await page.selectOption("#viewas", "all");
    await page.waitForTimeout(100);
    assert.deepEqual(await cards(), all, "back to the full view");
    // A piece's label is centred on it: the white digits of seat 0's card count (its disc in
    // the count column, 15) lie as much left of the disc's centre as right of it (they were
    // drawn right-aligned to it after the row labels, running out of the disc).
    const spread = await page.evaluate(() => {
      const [ox, oy, cell] = window.__arbiter.state.geom;
      const canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
      const k = canvas.width / canvas.getBoundingClientRect().width;
      const [cx, cy] = [ox + 15.5 * cell, oy + 0.5 * cell];
      const half = Math.round(0.35 * cell * k);
      const d = ctx.getImageData(Math.round(cx * k) - half, Math.round(cy * k) - half, 2 * half, 2 * half).data;
      let [left, right] = [0, 0];
      // Inside the disc only (its colour is the seat's): white there is the label.
      for (let i = 0; i < d.length; i += 4) {
        const [x, y] = [(i / 4) % (2 * half) - half, Math.floor(i / 4 / (2 * half)) - half];
        if (x * x + y * y > half * half) continue;
        if (d[i] > 230 && d[i + 1] > 230 && d[i + 2] > 230) (x < 0 ? left++ : right++);
      }
      return { left, right };
    });
    assert.ok(spread.left > 5 && spread.right > 5, `the count's digits on both sides of the centre: ${JSON.stringify(spread)}`);
    assert.ok(Math.min(spread.left, spread.right) / Math.max(spread.left, spread.right) > 0.4, `centred: ${JSON.stringify(spread)}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
