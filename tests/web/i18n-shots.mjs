// Screenshots of every page and player state in both languages, at 1280 and 375 px, for a
// person to look at (cut or overflowing text). Not a test: it reports, per shot, whether the
// page is wider than the window (horizontal overflow), the one thing a machine can tell.
//   BASE=http://127.0.0.1:8080 (a contest: `arbiter contest demo`) WWW_URL=http://... (the
//   built player and samples) OUT=dir node tests/web/i18n-shots.mjs
// Chinese needs a CJK font in the machine's fontconfig (Debian: fonts-wqy-microhei).
// tests/web/i18n-shots.sh installs it and chromium, starts a demo contest and runs this.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

const BASE = process.env.BASE, WWW = process.env.WWW_URL, OUT = process.env.OUT || "shots";
const PASSWORD = process.env.PASSWORD || "arbiter-demo";
mkdirSync(OUT, { recursive: true });

const visitor = ["/", "/login", "/live", "/games/7", "/no-such-page"];
const student = ["/", "/submit", "/submissions", "/submissions/all", "/submissions/1", "/account", "/games/9", "/submissions/5", "/test-games"];
const staff = ["/admin", "/admin/similarity"];

async function signIn(page, login) {
  await page.goto(BASE + "/login");
  await page.fill("input[name=login]", login);
  await page.fill("input[name=password]", PASSWORD);
  await Promise.all([page.waitForNavigation(), page.click("form.stack button[type=submit]")]);
}

async function shoot(page, name) {
  await page.waitForTimeout(700);
  const over = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
  console.log(`${name}${over ? "  OVERFLOW" : ""}`);
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const lang of ["en", "zh-CN"]) {
  for (const width of [1280, 375]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, locale: lang });
    const page = await ctx.newPage();
    const tag = `${lang}-${width}`;
    if (BASE) {
      await page.goto(`${BASE}/lang/${lang}`);
      for (const p of visitor) { await page.goto(BASE + p); await shoot(page, `${tag}-visitor${p.replace(/\W+/g, "_")}`); }
      await signIn(page, "2303");
      for (const p of student) { await page.goto(BASE + p); await shoot(page, `${tag}-student${p.replace(/\W+/g, "_")}`); }
      await page.context().clearCookies();
      await page.goto(`${BASE}/lang/${lang}`);
      await signIn(page, "admin");
      for (const p of staff) { await page.goto(BASE + p); await shoot(page, `${tag}-staff${p.replace(/\W+/g, "_")}`); }
    }
    if (WWW) {
      for (const s of (process.env.SAMPLES || "").split(",").filter(Boolean)) {
        const url = `${WWW}/player.html?lang=${lang}&controls=1&replay=samples/${s}`;
        await page.goto(url);
        await shoot(page, `${tag}-player-${s}-start`);
        await page.goto(url + "#frame=fail");
        await shoot(page, `${tag}-player-${s}-end`);
      }
      await page.goto(`${WWW}/player.html?lang=${lang}`);
      await shoot(page, `${tag}-player-welcome`);
    }
    await ctx.close();
  }
}
await browser.close();
