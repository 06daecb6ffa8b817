// Speed of the web player in headless Chromium; prints figures (no assertions):
//  - init_replay_player -> init_successfully for a full 16 x 16 Reversi replay, measured in the
//    host page (post to answer received);
//  - load_frame -> drawn for random indices of a 2000-decision 2048-duel replay, measured in the
//    player from the message's arrival to the end of drawing (engine frame, canvas, text, move
//    list) including the layout the next paint needs (forced at the end of drawing);
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
  // One message at a time (a person clicking, a site's progress bar): post, wait until shown.
  const N = 600;
  const lf = await p2.evaluate(async (N) => {
    const w = document.getElementById("player").contentWindow;
    const st = w.__arbiter.state, perf = w.__arbiter.perf;
    perf.loadFrame.length = 0; perf.parts.length = 0;
    let seed = 12345;
    for (let i = 0; i < N; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      let k = seed % st.frames;
      if (k === st.k) k = (k + 1) % st.frames;
      window.post({ message: "load_frame", index: k });
      await new Promise((resolve) => { const poll = () => (st.k === k ? resolve() : setTimeout(poll, 0)); poll(); });
    }
    const parts = [0, 1, 2, 3].map((j) => perf.parts.reduce((s, x) => s + x[j], 0) / perf.parts.length);
    return { times: perf.loadFrame.slice(), parts };
  }, N);
  const t = lf.times;
  console.log(`load_frame -> drawn and laid out, duel2048 (${decisions} decisions), ${t.length} random indices one at a time: median ${fmt(pct(t, 0.5))} ms, p95 ${fmt(pct(t, 0.95))} ms, p99 ${fmt(pct(t, 0.99))} ms, max ${fmt(Math.max(...t))} ms  [bar: p95 4 ms]`);
  console.log(`  mean per part: engine frame ${lf.parts[0].toFixed(2)} ms, canvas ${lf.parts[1].toFixed(2)} ms, text/list ${lf.parts[2].toFixed(2)} ms, layout ${lf.parts[3].toFixed(2)} ms`);
  await p2.close();
} finally {
  await browser.close();
}
