// Shared helpers of the web player's browser tests and benchmark: Debian's Chromium through
// playwright-core (no browser download), the static server's URL, and the referee as oracle.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const WWW_DIR = process.env.WWW_DIR;
export const BASE = process.env.WWW_URL; // e.g. http://127.0.0.1:8123
export const ARBITER = process.env.ARBITER_BIN;
export const ARTIFACTS = process.env.ARTIFACTS_DIR || path.resolve("../artifacts/web");
if (!WWW_DIR || !BASE || !ARBITER) {
  throw new Error("run through tests/web/run.sh (WWW_DIR, WWW_URL and ARBITER_BIN must be set)");
}
mkdirSync(ARTIFACTS, { recursive: true });
// A blank page served from the same directory, for the tests' own host pages (a page made up
// by the browser has no address and Chromium then blocks iframes from the loopback server).
writeFileSync(path.join(WWW_DIR, "test-host.html"), "<!DOCTYPE html><title>host</title><body></body>\n");

/** Chromium; `fileAccess: false` leaves out --allow-file-access-from-files, as a person's
 * browser is (a page from disk cannot fetch other files). */
export async function launch({ fileAccess = true } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run",
      ...(fileAccess ? ["--allow-file-access-from-files"] : []),
    ],
  });
}

export function samplePath(name) {
  return path.join(WWW_DIR, "samples", name);
}

export function sampleText(name) {
  return readFileSync(samplePath(name), "utf8");
}

export function samples() {
  return JSON.parse(readFileSync(path.join(WWW_DIR, "samples", "index.json"), "utf8"));
}

/** `arbiter replay show FILE --json`: the engine's own frames (board lines, forbidden ...). */
export function oracle(file) {
  const out = execFileSync(ARBITER, ["replay", "show", file, "--json"], { maxBuffer: 256 << 20 });
  return JSON.parse(out.toString("utf8"));
}

export function scratchDir() {
  return mkdtempSync(path.join(tmpdir(), "arbiter-web-"));
}

/** Polls `fn` (in node) until it returns a truthy value; `what` (text, or a function giving it
 * at the time-out, to say what was seen last) names what was awaited. */
export async function until(fn, what, timeoutMs = 10000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out waiting for " + (typeof what === "function" ? what() : what));
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A blank page on the server's origin holding the player in an iframe, as a contest site
 * does. `mode` is "srcdoc" (the player's text) or a URL for `src`; `metaOrigins` and
 * `metaAttrs` fill the player's meta tag (srcdoc). Messages the player sends
 * are collected in `window.got`; `window.post(msg)` sends one.
 */
export async function hostPage(browser, mode = "srcdoc", { origin = BASE, metaOrigins = null, metaAttrs = "" } = {}) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => { page.errors = (page.errors || []).concat(String(e)); });
  await page.goto(origin + "/test-host.html");
  await page.evaluate(async ({ mode, metaOrigins, metaAttrs }) => {
    window.got = [];
    const frame = document.createElement("iframe");
    frame.id = "player"; frame.style.width = "900px"; frame.style.height = "700px";
    window.addEventListener("message", (e) => {
      if (e.source === frame.contentWindow) window.got.push(e.data);
    });
    window.post = (msg) => frame.contentWindow.postMessage(msg, "*");
    document.body.appendChild(frame);
    let text = mode === "srcdoc" ? await (await fetch("/player.html")).text() : null;
    // A site embedding by srcdoc sets its allow-list in the player's meta tag.
    if (text != null && (metaOrigins != null || metaAttrs)) {
      // and, on the same tag, its options (data-controls, data-result)
      text = text.replace('<meta name="arbiter-origins" content="">', '<meta name="arbiter-origins" content="' + (metaOrigins || "") + '"' + metaAttrs + ">");
    }
    if (text != null) {
      frame.srcdoc = text;
    } else {
      frame.src = mode;
    }
  }, { mode, metaOrigins, metaAttrs });
  return page;
}

export async function playerFrame(page) {
  return until(async () => {
    const el = await page.$("#player");
    const f = el && (await el.contentFrame());
    if (!f) return null;
    const ready = await f.evaluate(() => document.documentElement.dataset.ready === "1").catch(() => false);
    return ready ? f : null;
  }, "the player to be ready");
}

/** Sends a replay (text) as a Blob from the host page. */
export async function postReplay(page, text) {
  await page.evaluate((t) => window.post({ message: "init_replay_player", replay_data: new Blob([t], { type: "application/json" }) }), text);
}

export async function got(page) {
  return page.evaluate(() => window.got);
}

export async function waitMessage(page, pred, what, timeoutMs = 10000) {
  return until(async () => (await got(page)).find(pred), what, timeoutMs);
}

/** The board text the player exposes, once it shows frame `k`. */
export async function boardAt(frame, k) {
  await frame.waitForFunction((k) => document.getElementById("board-text").dataset.frame === String(k), k, { timeout: 10000 });
  return frame.evaluate(() => document.getElementById("board-text").textContent.split("\n"));
}

/**
 * A replay of `plies` moves of the endless module game (make_kit_samples writes
 * kit/modules/endless.wasm: two seats play `x` in turn, for ever), carrying its module, ended
 * as aborted. `badAt` (1-based) makes that move illegal.
 */
export function endlessReplay(plies, { badAt = 0 } = {}) {
  const bytes = readFileSync(path.join(WWW_DIR, "kit", "modules", "endless.wasm"));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const moves = new Array(plies);
  for (let i = 0; i < plies; i++) {
    moves[i] = `{"seat":${i % 2},"move":"${i + 1 === badAt ? "y" : "x"}","time_ms":${(i * 7) % 50}}`;
  }
  return `{"format":"arbiter-replay","version":1,"game":{"name":"module","module":{"name":"endless","version":"1","sha256":"${sha256}"},"config":{},"seed":1},` +
    `"players":[{"name":"Ada","seat":0},{"name":"Alan","seat":1}],"moves":[${moves.join(",")}],` +
    `"result":{"winner":null,"reason":{"kind":"aborted","message":"stopped after ${plies} plies"}},"module_wasm":"${bytes.toString("base64")}"}`;
}

/**
 * An attacker's websocket server on a loopback port: counts the handshakes that reach it
 * (and their Origin headers) without ever accepting one. `url(path)` names it as a token would.
 */
export async function handshakeCounter() {
  const server = createServer();
  server.handshakes = [];
  server.on("upgrade", (req, socket) => {
    server.handshakes.push({ path: req.url, origin: req.headers.origin });
    socket.destroy();
  });
  server.on("request", (req, res) => res.writeHead(404).end());
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  server.url = (p) => `ws://127.0.0.1:${server.address().port}${p}`;
  server.token = (p) => Buffer.from(server.url(p)).toString("base64");
  return server;
}
