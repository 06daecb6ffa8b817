// The contest website in a real browser, as a class uses it: the TA initialises a contest and
// imports a roster; a student signs in and must change the password, submits a C bot that does
// not compile and reads the compiler's message, submits a good one, sees its games played and
// the scoreboard updated, and opens a game in the embedded player. A second student cannot open
// the first one's source or logs, by page or by API. Screenshots of every page go to
// tests/artifacts/web/contest-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createServer } from "node:net";
import { ARBITER, ARTIFACTS, WWW_DIR, handshakeCounter, launch, sampleText, scratchDir, until } from "./lib.mjs";

const ROOT = path.resolve("../..");
const CONFIG = `name = "Reversi 2026"
[game]
name = "reversi"
size = 8
protocol = "reversi-board"
[limits]
move_ms = 2000
[submissions]
min_interval_s = 0
games_per_pairing = 2
[languages.c]
name = "C (gcc)"
file = "main.c"
compile = "gcc -O1 -o {out} {src}"
run = "{file}"
[languages.python]
name = "Python 3"
file = "main.py"
compile = "python3 -m py_compile {src}"
run_source = true
run = "python3 -u {file}"
`;

let browser, server, base, dir, adminPassword;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

before(async () => {
  dir = path.join(scratchDir(), "contest");
  const init = execFileSync(ARBITER, ["contest", "init", dir, "--game", "reversi", "--size", "8"]).toString();
  adminPassword = init.match(/password (\S+)/)[1];
  writeFileSync(path.join(dir, "contest.toml"), CONFIG);
  writeFileSync(path.join(dir, "roster.csv"), "student_id,name\n2301,Ada Lovelace\n2302,Alan Turing\n");
  execFileSync(ARBITER, ["contest", "users", dir, path.join(dir, "roster.csv")]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(ARBITER, ["contest", "serve", dir, "--listen", `127.0.0.1:${port}`, "--workers", "1",
    "--player", path.join(WWW_DIR, "player.html")], { stdio: ["ignore", "ignore", "inherit"] });
  await until(async () => { try { return (await fetch(`${base}/api/scoreboard`)).ok; } catch { return false; } }, "the contest server", 30000);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
});

async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `contest-${name}.png`), fullPage: true });
}

async function firstSignIn(page, login, nickname, password) {
  await page.goto(`${base}/`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Student number or login").fill(login);
  await page.getByLabel("Password").fill(login);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/account`);
  assert.match(await page.textContent("main"), /Choose a new password/);
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByLabel("Current password").fill(login);
  await page.getByLabel("New password (at least 8 characters)").fill(password);
  await page.getByLabel("New password again").fill(password);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(`${base}/?welcome=1`);
  assert.match(await page.textContent("main"), /Your new password is set/);
}

async function submitCode(page, language, code) {
  await page.getByRole("link", { name: "Submit" }).click();
  await page.getByLabel("Language").selectOption(language);
  await page.getByLabel("… or paste the code").fill(code);
  await page.getByRole("button", { name: "Submit" }).click();
  await page.waitForURL(/\/submissions\/\d+$/);
  return Number(page.url().split("/").pop());
}

test("a student signs in, submits, reads a compile error, plays, and watches a game", async () => {
  const ada = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ada.newPage();
  await page.goto(`${base}/login`);
  await shot(page, "login");
  await firstSignIn(page, "2301", "ada", "correct horse 1");
  await shot(page, "scoreboard-empty");

  // A bot that does not compile: the compiler's message, and no games.
  await page.getByRole("link", { name: "Submit" }).click();
  await shot(page, "submit");
  const broken = await submitCode(page, "c", "int main( {\n  return 0;\n}\n");
  await page.waitForSelector("text=Why it did not compile", { timeout: 60000 });
  const log = await page.textContent("pre.log");
  assert.match(log, /error/, log);
  assert.doesNotMatch(log, /\/tmp\//, "the build directory leaks into the message");
  await shot(page, "compile-error");

  // A good bot.
  const good = await submitCode(page, "c", readFileSync(path.join(ROOT, "bots/c/reversi_greedy.c"), "utf8"));
  await page.waitForSelector(".badge.ready", { timeout: 60000 });
  assert.notEqual(good, broken);

  // The second student.
  const alan = await browser.newContext({ viewport: { width: 375, height: 700 } });
  const page2 = await alan.newPage();
  await firstSignIn(page2, "2302", "alan", "correct horse 2");
  await submitCode(page2, "python", readFileSync(path.join(ROOT, "bots/python/reversi_random.py"), "utf8"));
  await page2.waitForSelector(".badge.ready", { timeout: 60000 });

  // Games are played and the scoreboard shows them.
  await until(async () => {
    const b = await (await fetch(`${base}/api/scoreboard`)).json();
    return b.board.games_done === 2;
  }, "two games played", 120000);
  await page.goto(`${base}/`);
  const rows = await page.locator("tbody tr").count();
  assert.equal(rows, 2);
  assert.match(await page.textContent("tbody"), /ada/);
  assert.match(await page.textContent("tbody"), /alan/);
  await shot(page, "scoreboard");
  await page2.goto(`${base}/`);
  await shot(page2, "scoreboard-phone");

  // The submission page lists the games; one opens in the embedded player.
  await page.goto(`${base}/submissions/${good}`);
  await shot(page, "submission");
  await page.locator("td a[href^='/games/']").first().click();
  await page.waitForURL(/\/games\/\d+$/);
  await until(async () => /frame \d+ of \d+/.test(await page.textContent("#pos")), "the player loaded the replay", 20000);
  const frames = Number((await page.textContent("#pos")).match(/of (\d+)/)[1]);
  assert.ok(frames > 4, `a real game: ${frames}`);
  const player = page.frameLocator("#player");
  await player.locator("canvas").first().waitFor();
  await shot(page, "game");
  await page.getByRole("button", { name: "first frame" }).click();
  assert.match(await page.textContent("#pos"), /frame 0 of/);

  // The other student sees neither the source nor the logs, by page or by API.
  for (const p of [`/submissions/${good}/source`, `/submissions/${good}/logs`]) {
    const r = await page2.goto(`${base}${p}`);
    assert.equal(r.status(), 403, p);
  }
  await shot(page2, "forbidden");
  const token = (await (await fetch(`${base}/api/login`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "2302", password: "correct horse 2" }) })).json()).token;
  const view = await (await fetch(`${base}/api/submissions/${good}`, { headers: { authorization: `Bearer ${token}` } })).json();
  assert.equal(view.compile_log, undefined, "the API shows another student's compile log");
  const own = await page.request.get(`${base}/submissions/${good}/source`);
  assert.equal(own.status(), 200, "its author downloads it");
  assert.match(await own.text(), /#include/);

  // The course staff page.
  const staff = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page3 = await staff.newPage();
  await page3.goto(`${base}/login`);
  await page3.getByLabel("Student number or login").fill("admin");
  await page3.getByLabel("Password").fill(adminPassword);
  await page3.getByRole("button", { name: "Sign in" }).click();
  await page3.waitForURL(`${base}/account`);
  await page3.getByLabel("Nickname").fill("staff");
  await page3.getByLabel("Current password").fill(adminPassword);
  await page3.getByLabel("New password (at least 8 characters)").fill("staff password 1");
  await page3.getByLabel("New password again").fill("staff password 1");
  await page3.getByRole("button", { name: "Save" }).click();
  await page3.goto(`${base}/admin`);
  assert.match(await page3.textContent("main"), /Ada Lovelace/);
  await shot(page3, "admin");
  await ada.close();
  await alan.close();
  await staff.close();
});

// Issue 32: a page of another origin opens the contest's game page and its live page and tries
// to drive their players: its own replay posted into the frame, its own websocket named. The
// player listens to its embedding page alone (and, by its allow-list, to the site's origin),
// opens websockets only to the site's hub, and the site's policy (`connect-src 'self'`) stops
// any other connection from the page.
test("a page of another origin can neither post a replay into the contest's players nor name them a websocket", async () => {
  await until(async () => (await (await fetch(`${base}/api/scoreboard`)).json()).board.games_done >= 1, "a game played", 180000);
  const attacker = await handshakeCounter();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const own = await context.newPage();
  await own.goto(`${base}/login`);
  await own.getByLabel("Student number or login").fill("2301");
  await own.getByLabel("Password").fill("correct horse 1");
  await own.getByRole("button", { name: "Sign in" }).click();
  await own.waitForURL((u) => !u.pathname.startsWith("/login"));
  // A game of this student's that was played (`/api/games` lists one submission's).
  await own.goto(`${base}/submissions`);
  const subs = await own.locator("a[href^='/submissions/']").evaluateAll((as) =>
    as.map((a) => a.getAttribute("href")).filter((h) => /^\/submissions\/\d+$/.test(h)));
  let game;
  for (const s of subs) {
    const list = await (await own.request.get(`${base}/api/games?submission=${s.split("/").pop()}`)).json();
    game = list.find((g) => g.state === "done")?.id;
    if (game) break;
  }
  assert.ok(game, `a played game among the submissions ${subs}`);
  const live = (await (await own.request.get(`${base}/live/games.json`)).json())[0].id;
  // The attacker's page, in the same browser (its popups carry the student's session).
  const evil = await context.newPage();
  await evil.goto(`${process.env.WWW_URL2}/test-host.html`);
  const open = async (url) => {
    const popup = context.waitForEvent("page");
    await evil.evaluate((u) => { window.victim = window.open(u); }, url);
    return popup;
  };
  const shown = (victim) => victim.frameLocator("#player").locator("body").evaluate(() => ({
    frames: window.__arbiter.state.frames, k: window.__arbiter.state.k,
    board: document.getElementById("board-text").textContent,
    names: [...document.querySelectorAll(".pname")].map((e) => e.textContent),
    status: document.getElementById("status").textContent,
    live: document.getElementById("live-msg").textContent,
    error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  }));
  const forged = sampleText("reversi-8.json");
  const attack = () => evil.evaluate(({ forged, token }) => {
    const f = window.victim.frames[0];
    f.postMessage({ message: "init_replay_player", replay_data: new Blob([forged]) }, "*");
    f.postMessage({ message: "load_frame", index: 0 }, "*");
    f.postMessage({ message: "load_players", players: ["forged", "forged"] }, "*");
    f.postMessage({ message: "init_spectator_player", token }, "*");
  }, { forged, token: attacker.token(`/live/ws/_${live}`) });

  // The game page.
  const page = await open(`${base}/games/${game}`);
  await until(async () => /frame (\d+) of \1/.test(await page.textContent("#pos")), "the genuine game at its last frame", 20000);
  const before = await shown(page);
  assert.ok(before.frames > 4, "the genuine game");
  await attack();
  await new Promise((r) => setTimeout(r, 1500));
  assert.deepEqual(await shown(page), before, "the game page shows nothing forged");
  // Nor does the page's policy let anything of it connect to another host.
  const blocked = await page.evaluate((u) => new Promise((resolve) => {
    document.addEventListener("securitypolicyviolation", (e) => resolve(e.violatedDirective), { once: true });
    try { new WebSocket(u); } catch (e) { resolve("threw: " + e.name); }
    setTimeout(() => resolve("no violation"), 3000);
  }), attacker.url("/x"));
  assert.match(blocked, /connect-src|threw/, blocked);
  await page.screenshot({ path: path.join(ARTIFACTS, "contest-game-after-attack.png"), fullPage: true });

  // The live page (the game, finished, stays listed for a while).
  const watch = await open(`${base}/live/${live}`);
  await until(async () => (await shown(watch).catch(() => ({}))).frames > 1, "the live game from the site's hub", 20000);
  const seen = await shown(watch);
  await attack();
  await new Promise((r) => setTimeout(r, 1500));
  assert.deepEqual(await shown(watch), seen, "the live page shows nothing forged");
  assert.deepEqual(attacker.handshakes, [], "no handshake reached the attacker's socket");
  await watch.screenshot({ path: path.join(ARTIFACTS, "contest-live-after-attack.png"), fullPage: true });
  await context.close();
  attacker.close();
});

// Issue 32: the language switch's `back` and sign-in's `next`, followed by the browser itself
// (its own URL parsing: it drops a TAB and reads `\` as `/`): every hostile target ends on the
// contest's own host, as a 400 page or a page of the site, never another host.
test("hostile redirect targets never take the browser to another host", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = [];
  page.on("request", (r) => seen.push(new URL(r.url()).host));
  const site = new URL(base).host;
  const hostile = ["/%09/evil.example/page", "/%09%5Cevil.example", "//evil.example", "/%5Cevil.example",
    "%5C/evil.example", "/%0D%0A/evil.example", "/%00", "/%7F", "https:evil.example", "/%E3%80%80/evil.example"];
  for (const target of hostile) {
    for (const url of [`${base}/lang/zh-CN?back=${target}`, `${base}/lang/en?back=${target}`, `${base}/login?next=${target}`]) {
      const answer = await page.goto(url);
      assert.equal(new URL(page.url()).host, site, `${url} went to ${page.url()}`);
      assert.notEqual(answer.status(), 500, `${url}: 500`);
    }
  }
  assert.deepEqual([...new Set(seen)], [site], "no request left the contest's host");
  await context.close();
});

async function signIn(context, login, password) {
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Student number or login").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  return page;
}

/** Starts a test game from the form; its number, once its page is open. */
async function startTestGame(page, opponent, botSeat) {
  await page.goto(`${base}/`);
  await page.getByRole("link", { name: "Test games" }).click();
  await page.waitForURL(`${base}/test-games`);
  await page.getByLabel("Opponent").selectOption(opponent);
  await page.getByLabel("Your bot plays").selectOption(botSeat);
  await page.getByRole("button", { name: "Start the test game" }).click();
  await page.waitForURL(/\/test-games\/\d+$/);
  return Number(page.url().split("/").pop());
}

/** The game's player on a live page of the site, once it shows the game. */
async function sitePlayer(page) {
  return until(async () => {
    const f = page.frames().find((x) => x !== page.mainFrame());
    const ok = f && await f.evaluate(() => window.__arbiter?.state?.frames > 0).catch(() => false);
    return ok ? f : null;
  }, "the live player to show the game", 30000);
}

// Issue 38: test games on the site. Ada plays her bot against level 2, then plays a whole game
// by clicks against her own bot; neither moves the scoreboard, and Alan opens neither.
test("a student plays a test game against level 2 and one by clicks against her own bot", async () => {
  await until(async () => (await (await fetch(`${base}/api/scoreboard`)).json()).board.games_done >= 2, "the contest's games", 180000);
  const board = async () => (await (await fetch(`${base}/api/scoreboard`)).json()).board;
  const before = await board();
  const ada = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await signIn(ada, "2301", "correct horse 1");
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));

  // Against level 2: the page follows the game to its end and shows it in the player.
  const vsLevel = await startTestGame(page, "level:2", "0");
  await shot(page, "test-game-queued");
  await page.waitForSelector("#pos", { timeout: 120000 });
  await until(async () => /frame (\d+) of \1/.test(await page.textContent("#pos")), "the test game's replay at its end", 30000);
  assert.match(await page.textContent("main"), /builtin:2/);
  assert.match(await page.textContent("main"), /\(your bot\)/);
  await shot(page, "test-game");

  // By clicks: her bot plays Black, she plays White through her seat's page.
  const byClicks = await startTestGame(page, "me", "0");
  const seat = page.getByRole("link", { name: "Play your seat" });
  await seat.waitFor({ timeout: 60000 });
  await shot(page, "test-game-person");
  await seat.click();
  await page.waitForURL(/\/live\/\d+\/play\?seat=1&key=/);
  const frame = await sitePlayer(page);
  let clicks = 0;
  for (let guard = 0; guard < 200; guard++) {
    const s = await until(async () => {
      const s = await frame.evaluate(() => ({
        frames: window.__arbiter.state.frames, k: window.__arbiter.state.k, view: window.__arbiter.state.view,
        msg: document.getElementById("live-msg").textContent, sent: window.__arbiter.liveSent.length,
        over: window.__arbiter.state.frames > 0 && document.getElementById("live").hidden,
      }));
      const mine = s.view.to_move === 1 && s.k === s.frames - 1 && s.msg.startsWith("Your turn");
      return (mine || s.over) ? s : null;
    }, "Ada's turn or the end", 30000);
    if (s.over) break;
    if (clicks === 2) await shot(page, "test-game-by-clicks");
    const [r, c] = s.view.legal[0];
    const [ox, oy, cell] = await frame.evaluate(() => window.__arbiter.state.geom);
    await frame.locator("#board").click({ position: { x: ox + (c + 0.5) * cell, y: oy + (r + 0.5) * cell } });
    clicks++;
    await until(async () => (await frame.evaluate(() => window.__arbiter.state.frames)) > s.frames, "the move to come back", 30000);
  }
  assert.ok(clicks >= 5, `a whole game by clicks: ${clicks} moves`);

  // Its page shows the game; the list says both results; the scoreboard did not move.
  await page.goto(`${base}/test-games/${byClicks}`);
  await until(async () => /frame (\d+) of \1/.test(await page.textContent("#pos").catch(() => "")), "the game by clicks in the player", 60000);
  assert.match(await page.textContent("main"), /\(by clicks\)/);
  const replay = await (await page.request.get(`${base}/test-games/${byClicks}/replay.json`)).json();
  assert.equal(replay.moves.filter((m) => m.seat === 1 && m.move !== "pass").length, clicks, "the replay holds her clicks");
  await page.goto(`${base}/test-games`);
  const rows = await page.locator("tbody tr").allTextContents();
  assert.equal(rows.length, 2, rows.join("\n"));
  for (const r of rows) assert.match(r, /won|lost|drawn/, r);
  await shot(page, "test-games");
  const after = await board();
  assert.equal(after.games_done, before.games_done, "test games counted on the scoreboard");
  assert.deepEqual(after.rows.map((r) => [r.name, r.games, r.wins]), before.rows.map((r) => [r.name, r.games, r.wins]));

  // Alan opens neither game, nor sees them listed.
  const alan = await browser.newContext({ viewport: { width: 375, height: 700 } });
  const other = await signIn(alan, "2302", "correct horse 2");
  for (const n of [vsLevel, byClicks]) {
    assert.equal((await other.goto(`${base}/test-games/${n}`)).status(), 404);
    assert.equal((await other.request.get(`${base}/test-games/${n}/replay.json`)).status(), 404);
  }
  await other.goto(`${base}/test-games`);
  assert.equal(await other.locator("tbody tr").count(), 0);
  await shot(other, "test-games-phone");
  assert.deepEqual(page.errors, []);
  // In Chinese too, for a person to read.
  await page.goto(`${base}/lang/zh-CN?back=/test-games`);
  await shot(page, "test-games-zh");
  await page.goto(`${base}/test-games/${byClicks}`);
  await shot(page, "test-game-zh");
  await ada.close();
  await alan.close();
});
