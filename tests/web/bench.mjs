// Speed of the web player in headless Chromium; prints figures (no assertions):
//  - init_replay_player -> init_successfully for a full 16 x 16 Reversi replay, measured in the
//    host page (post to answer received);
//  - load_frame -> drawn for random indices of a 2000-decision 2048-duel replay, measured in the
//    player from the message's arrival to the end of drawing (canvas, text, move list);
//  - the size of player.html, raw and gzipped.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { WWW_DIR, hostPage, launch, playerFrame, sampleText, until } from "./lib.mjs";

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const fmt = (x) => x.toFixed(2).padStart(7);

const html = readFileSync(path.join(WWW_DIR, "player.html"));
console.log(`player.html: ${html.length} bytes (${(html.length / 1024).toFixed(1)} KiB), gzipped ${gzipSync(html, { level: 9 }).length} bytes (${(gzipSync(html, { level: 9 }).length / 1024).toFixed(1)} KiB)  [bars: 400 KB, 150 KB]`);

const browser = await launch();
try {
  // 1. init of a full 16x16 Reversi replay.
  const page = await hostPage(browser);
  await playerFrame(page);
  const r16 = sampleText("reversi-16.json");
  const moves = JSON.parse(r16).moves.length;
  const inits = await page.evaluate(async (text) => {
    const out = [];
    for (let i = 0; i < 30; i++) {
      const blob = new Blob([text], { type: "application/json" });
      const t = await new Promise((resolve) => {
        const t0 = performance.now();
        const on = (e) => {
          if (e.data && e.data.message === "init_successfully") {
            window.removeEventListener("message", on); resolve(performance.now() - t0);
          }
        };
        window.addEventListener("message", on);
        window.post({ message: "init_replay_player", replay_data: blob });
      });
      out.push(t);
    }
    return out;
  }, r16);
  console.log(`init_replay_player -> init_successfully, reversi 16x16 (${moves} moves), 30 runs: first ${fmt(inits[0])} ms, median ${fmt(pct(inits, 0.5))} ms, p95 ${fmt(pct(inits, 0.95))} ms, max ${fmt(Math.max(...inits))} ms  [bar: 150 ms]`);
  await page.close();

  // 2. load_frame on a 2000-decision duel.
  const p2 = await hostPage(browser);
  const frame = await playerFrame(p2);
  const duel = sampleText("duel-500.json");
  const decisions = JSON.parse(duel).moves.length;
  await p2.evaluate((t) => window.post({ message: "init_replay_player", replay_data: new Blob([t]) }), duel);
  await until(async () => (await p2.evaluate(() => window.got)).some((m) => m.message === "init_successfully"), "init");
  const N = 1000;
  await p2.evaluate((N) => {
    let seed = 12345;
    for (let i = 0; i < N; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      window.post({ message: "load_frame", index: seed % 2001 });
    }
  }, N);
  await until(async () => (await frame.evaluate(() => window.__arbiter.perf.loadFrame.length)) >= N, "load_frame timings", 60000);
  const lf = await frame.evaluate(() => window.__arbiter.perf.loadFrame);
  console.log(`load_frame -> drawn, duel2048 (${decisions} decisions), ${lf.length} random indices: median ${fmt(pct(lf, 0.5))} ms, p95 ${fmt(pct(lf, 0.95))} ms, p99 ${fmt(pct(lf, 0.99))} ms, max ${fmt(Math.max(...lf))} ms  [bar: p95 4 ms]`);
  // And with the frame actually presented: one at a time, answered after the next animation frame.
  const presented = await frame.evaluate(async () => {
    const out = [];
    const st = window.__arbiter.state;
    for (let i = 0; i < 100; i++) {
      const k = (i * 7919) % st.frames;
      const t0 = performance.now();
      window.postMessage({ message: "load_frame", index: k }, "*");
      await new Promise((r) => { const check = () => (st.k === k ? requestAnimationFrame(() => r()) : setTimeout(check, 0)); check(); });
      out.push(performance.now() - t0);
    }
    return out;
  }).catch(() => null);
  if (presented) console.log(`load_frame -> next animation frame (includes waiting for vsync), 100 indices: median ${fmt(pct(presented, 0.5))} ms, p95 ${fmt(pct(presented, 0.95))} ms`);
  await p2.close();
} finally {
  await browser.close();
}
