// The contest site's Content-Security-Policy in headless Chromium: every inline script of the
// game page and the live page runs (the page's own by its nonce, the embedded player's in its
// srcdoc frame by its hash), no page reports a CSP violation, and an inline script injected
// into a page does not run. Driven by server/tests/hardening.rs
// (browser_runs_every_inline_script_under_the_csp, ARBITER_BROWSER=1), which serves a contest
// with a stand-in player and passes: BASE_URL GAME_ID.
import { chromium } from "playwright-core";

const [base, game] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failed = 0;
try {
  const page = await browser.newPage();
  const violations = [];
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to (execute|load|connect)/i.test(m.text())) violations.push(m.text());
  });
  const check = async (path, what, condition) => {
    violations.length = 0;
    await page.goto(base + path);
    const ok = await page.waitForFunction(condition, null, { timeout: 15000 }).then(() => true, () => false);
    // Whatever the page's scripts do at load is done once the condition holds.
    const seen = [...violations];
    await page.addScriptTag({ content: "window.__injected = 1;" }).catch(() => {});
    const injected = await page.evaluate(() => window.__injected === 1);
    const problems = [];
    if (!ok) problems.push(`${what} did not happen`);
    if (seen.length) problems.push(`CSP violations: ${seen.join(" | ")}`);
    if (injected) problems.push("an injected inline script ran");
    console.log(`${problems.length ? "FAIL" : "ok  "} ${path}: ${what}${problems.length ? ": " + problems.join("; ") : ""}`);
    failed += problems.length ? 1 : 0;
  };
  await check(`/games/${game}`, "the page's script and the player's answer (frame 2 of 2)",
    () => (document.getElementById("pos")?.textContent || "").startsWith("frame 2 of 2"));
  await check(`/games/${game}`, "the players' names reach the player",
    () => { const d = document.getElementById("player")?.contentDocument; return !!d?.body?.dataset?.players; });
  await check(`/live/${game}`, "the live page's script (status cleared) and the player's names",
    () => { const d = document.getElementById("player")?.contentDocument;
      return document.getElementById("status")?.textContent === "" && !!d?.body?.dataset?.players; });
  // The spectator websocket opens from the site's own page, not from a page of another origin
  // (here an opaque one: Origin null) with the same browser.
  const socket = (url) => page.evaluate((u) => new Promise((resolve) => {
    const ws = new WebSocket(u);
    ws.onopen = () => { ws.close(); resolve("open"); };
    ws.onerror = () => resolve("refused");
    setTimeout(() => resolve("timeout"), 5000);
  }), url);
  const wsUrl = base.replace(/^http/, "ws") + `/live/ws/_${game}`;
  await page.goto(`${base}/live/${game}`);
  const own = await socket(wsUrl);
  await page.goto("about:blank");
  const foreign = await socket(wsUrl);
  const sockets = own === "open" && foreign === "refused";
  console.log(`${sockets ? "ok  " : "FAIL"} websocket from the site: ${own}; from another origin: ${foreign}`);
  failed += sockets ? 0 : 1;
  for (const path of ["/", "/login", "/live", "/submissions/all"]) {
    await check(path, "the page loads", () => document.readyState === "complete");
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
