// The installed arbiter from an empty directory (tests/web/install.sh installs it and runs this
// there): contest init, users and serve give a site with its player; contest demo plays the
// sample bots the binary carries, and a finished game's page shows its last frame in the
// player; tournament report --html embeds the player. Screenshots: tests/artifacts/web/install-*.png.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { chromium } from "playwright-core";

const ARBITER = process.env.ARBITER_BIN;
const ARTIFACTS = process.env.ARTIFACTS_DIR;
mkdirSync(ARTIFACTS, { recursive: true });
const children = [];
after(() => children.forEach((c) => c.kill("SIGTERM")));

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

async function until(fn, what, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Starts `arbiter args...` serving on a free port; its base URL and its stderr so far. */
async function serve(args) {
  const port = await freePort();
  const child = spawn(ARBITER, [...args, "--listen", `127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const log = { text: "" };
  child.stdout.on("data", (d) => (log.text += d));
  child.stderr.on("data", (d) => (log.text += d));
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/`)).ok, `${args.join(" ")} to serve`);
  return { base, log, child };
}

test("contest init, users and serve from an empty directory give a site with its player", async () => {
  const init = execFileSync(ARBITER, ["contest", "init", "c", "--game", "reversi", "--size", "8"]).toString();
  assert.match(init, /password \S+/);
  writeFileSync("roster.csv", "student_id,name\n2301,Ada Lovelace\n");
  assert.match(execFileSync(ARBITER, ["contest", "users", "c", "roster.csv"]).toString(), /1 account\(s\) added/);
  const { base, log, child } = await serve(["contest", "serve", "c", "--workers", "1"]);
  assert.ok((await fetch(`${base}/`)).ok);
  assert.doesNotMatch(log.text, /no web player/);
  child.kill("SIGTERM");
});

test("the carried games play by name, and a contest starts on one", () => {
  const list = execFileSync(ARBITER, ["game", "list"]).toString();
  for (const name of ["amazons", "connect-four", "connect6", "dots-and-boxes", "einstein", "hex", "chinese-checkers", "goofspiel", "snake", "dou-dizhu"]) {
    assert.match(list, new RegExp(`^\\s+${name}\\s`, "m"), `${name} listed`);
  }
  const played = execFileSync(ARBITER, ["match", "amazons", "builtin:random", "builtin:random", "--games", "1", "-o", "amazons-out"]).toString();
  assert.match(played, /1 games in/);
  const replay = JSON.parse(readFileSync("amazons-out/game-0001.json", "utf8"));
  assert.equal(replay.game.module.name, "amazons");
  execFileSync(ARBITER, ["contest", "init", "a", "--game", "amazons"]);
  assert.match(readFileSync("a/contest.toml", "utf8"), /amazons\.wasm/);
  assert.ok(existsSync("a/amazons.wasm"), "the module copied into the contest");
});

test("contest demo plays the carried sample bots and a game page shows the last frame", async () => {
  const { base, log } = await serve(["contest", "demo", "--pace", "0"]);
  assert.doesNotMatch(log.text, /not here|no web player/);
  // A finished game: its replay is served.
  const id = await until(async () => {
    for (let n = 1; n <= 60; n++) {
      if ((await fetch(`${base}/games/${n}/replay.json`)).ok) return n;
    }
    return null;
  }, "a finished demo game", 180000);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/games/${id}`);
    const pos = await until(async () => {
      const m = (await page.textContent("#pos")).match(/frame (\d+) of (\d+)/);
      return m && m;
    }, "the player loaded the replay", 30000);
    assert.ok(Number(pos[2]) > 4, `a real game: ${pos[0]}`);
    assert.equal(pos[1], pos[2], `the game's page opens on its last frame: ${pos[0]}`);
    await page.frameLocator("#player").locator("canvas").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "install-game.png"), fullPage: true });
  } finally {
    await browser.close();
  }
  assert.ok(existsSync("arbiter-demo-contest/sample-bots/c/reversi_greedy.c"), "the demo wrote the carried bots");
});

test("tournament report --html embeds the player", () => {
  writeFileSync("t.toml", `name = "t"\nformat = "round-robin"\ngames_per_pairing = 2\noutput = "t-out"\n` +
    `[game]\nname = "reversi"\nsize = 6\n[[bots]]\nname = "a"\ncommand = "builtin:random"\n` +
    `[[bots]]\nname = "b"\ncommand = "builtin:1"\n`);
  execFileSync(ARBITER, ["tournament", "-q", "t.toml"]);
  const out = execFileSync(ARBITER, ["tournament", "report", "t-out", "--html", "site"]).toString();
  assert.match(out, /web player embedded/);
  const player = readFileSync("site/player.html", "utf8");
  assert.match(player, /<\/html>\s*$/);
  assert.ok(player.length > 50000, `a whole player: ${player.length} bytes`);
});
