// Screenshots of the contest pages a course's first day touches, at 1280 and 375 px, from a
// `contest demo` (ARBITER_BIN, OUT_DIR): scoreboard, sign-in, account, submit, a crashing
// submission and its game, the live list, a 404, the admin page and its confirmation.
// GAME_MODULE=FILE.wasm (GAME_CONFIG=JSON) takes them of `contest demo --game-module`, with a
// game between two sample bots, and prints where its player fetched the module.
//   ARBITER_BIN=target/debug/arbiter OUT_DIR=/tmp/shots node tests/web/shots.mjs
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const ARBITER = process.env.ARBITER_BIN, OUT = process.env.OUT_DIR;
const port = 9000 + Math.floor(Math.random() * 900);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(path.join(tmpdir(), "shots-"));
const MODULE = process.env.GAME_MODULE, CONFIG = process.env.GAME_CONFIG;
const game_args = MODULE ? ["--game-module", MODULE, ...(CONFIG ? ["--game-config", CONFIG] : [])] : [];
const server = spawn(ARBITER, ["contest", "demo", "--dir", path.join(dir, "c"), "--listen", `127.0.0.1:${port}`, "--pace", "0", ...game_args], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(fn, ms = 120000) {
  const end = Date.now() + ms;
  for (;;) { const v = await fn().catch(() => null); if (v) return v; if (Date.now() > end) throw new Error("timeout"); await sleep(300); }
}
await until(async () => (await fetch(`${base}/`)).ok);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const pages = {};
for (const w of [1280, 375]) pages[w] = await (await browser.newContext({ viewport: { width: w, height: 800 } })).newPage();
async function shot(name, url) {
  for (const w of [1280, 375]) {
    const p = pages[w];
    if (url) await p.goto(`${base}${url}`);
    await sleep(url && url.startsWith("/games/") ? 2500 : 300);
    await p.screenshot({ path: path.join(OUT, `${name}-${w}.png`), fullPage: true });
  }
}
async function signIn(login) {
  for (const w of [1280, 375]) {
    const p = pages[w];
    await p.context().clearCookies();
    await p.goto(`${base}/login`);
    await p.getByLabel("Student number or login").fill(login);
    await p.getByLabel("Password").fill("arbiter-demo");
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.waitForLoadState();
  }
}
try {
  await shot("login", "/login");
  await signIn("2301");
  await shot("submit", "/submit");
  // A bot that crashes on its first move.
  const p = pages[1280];
  await p.goto(`${base}/submit`);
  await p.getByLabel("Language").selectOption("c");
  await p.getByLabel("… or paste the code").fill("#include <stdio.h>\n#include <string.h>\nint main(void){char l[256];while(fgets(l,sizeof l,stdin)){if(!strncmp(l,\"TURN\",4)){int *x=0;*x=1;}else if(!strncmp(l,\"START\",5)){puts(\"OK\");fflush(stdout);}}return 0;}\n");
  await p.getByRole("button", { name: "Submit" }).click();
  await p.waitForURL(/\/submissions\/\d+$/);
  const sub = p.url().split("/").pop();
  await shot("submission-playing", `/submissions/${sub}`);
  await until(async () => !/games played \(this page follows/.test(await (await fetch(`${base}/submissions/${sub}`, { headers: { cookie: (await p.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") } })).text()), 180000);
  await shot("submission-done", `/submissions/${sub}`);
  await p.goto(`${base}/submissions/${sub}`);
  const game = await p.locator("ul.games a").first().getAttribute("href");
  await shot("game-own", game);
  await shot("scoreboard", "/");
  if (MODULE) {
    const fetched = [];
    for (const w of [1280, 375]) pages[w].on("request", (r) => { if (r.url().includes("/modules/")) fetched.push(r.url().slice(base.length)); });
    await shot("game-samples", "/games/1");
    console.log("module fetched from", [...new Set(fetched)].join(", ") || "nowhere");
  }
  await shot("live", "/live");
  await shot("notfound", "/no/such/page");
  // Another student's view of the crash: the hidden output.
  await signIn("2302");
  await shot("game-other", game);
  await signIn("admin");
  await shot("admin", "/admin");
  for (const w of [1280, 375]) {
    const q = pages[w];
    await q.goto(`${base}/admin`);
    await q.getByRole("button", { name: "Disqualify" }).first().click();
    await q.waitForLoadState();
    await q.screenshot({ path: path.join(OUT, `confirm-${w}.png`), fullPage: true });
  }
  // The account page's password change.
  for (const w of [1280, 375]) {
    const q = pages[w];
    // A password change ends the account's other sessions (the other width's): sign in again.
    await q.context().clearCookies();
    await q.goto(`${base}/login?next=/account`);
    await q.getByLabel("Student number or login").fill("admin");
    await q.getByLabel("Password").fill("arbiter-demo");
    await q.getByRole("button", { name: "Sign in" }).click();
    await q.waitForURL(`${base}/account`);
    await q.getByLabel("Current password").fill("arbiter-demo");
    await q.getByLabel("New password (at least 8 characters)").fill("arbiter-demo");
    await q.getByLabel("New password again").fill("arbiter-demo");
    await q.getByRole("button", { name: "Save" }).click();
    await q.waitForLoadState();
    await q.screenshot({ path: path.join(OUT, `account-${w}.png`), fullPage: true });
  }
  console.log("submission", sub, "game", game);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
