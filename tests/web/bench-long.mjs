// A long replay in headless Chromium (issue 32: 1,000,000 plies froze the tab 20 to 40 s);
// prints figures, asserts nothing. For each length (default 100,000 and 1,000,000 plies of the
// endless module game, tests/web/lib.mjs endlessReplay; `node bench-long.mjs 250000` for
// others), posted as a Blob from the host page:
//  - the time to `init_successfully` (the first frame shown) and to every move checked (the
//    progress line gone);
//  - the page's longest stall meanwhile: a 5 ms timer in the host page (the player's srcdoc
//    frame runs on the same thread), its longest gap and how many gaps passed 50 ms and 100 ms;
//  - how long a `load_frame` of a frame already checked takes to be drawn while the rest is
//    being checked (a person clicking meanwhile), median and max of 20.
import { endlessReplay, hostPage, launch, playerFrame } from "./lib.mjs";

const lengths = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100000, 1000000];
const browser = await launch();
try {
  for (const N of lengths) {
    const text = endlessReplay(N);
    const page = await hostPage(browser);
    await playerFrame(page);
    const r = await page.evaluate(async (text) => {
      const w = document.getElementById("player").contentWindow;
      const progress = w.document.getElementById("progress");
      const gaps = [];
      let last = performance.now();
      const beat = setInterval(() => { const t = performance.now(); gaps.push(t - last); last = t; }, 5);
      const t0 = performance.now();
      const blob = new Blob([text], { type: "application/json" });
      const answer = await new Promise((resolve) => {
        window.addEventListener("message", (e) => {
          if (e.data && (e.data.message === "init_successfully" || e.data.message === "error")) resolve([performance.now() - t0, e.data]);
        });
        window.post({ message: "init_replay_player", replay_data: blob });
      });
      // Clicks while the rest is checked: frames already checked, one at a time.
      const clicks = [];
      const st = w.__arbiter.state;
      for (let i = 0; i < 20 && !progress.hidden; i++) {
        const k = 1 + ((i * 7919) % 2000);
        const c0 = performance.now();
        window.post({ message: "load_frame", index: k });
        await new Promise((resolve) => { const poll = () => (st.k === k ? resolve() : setTimeout(poll, 0)); poll(); });
        clicks.push(performance.now() - c0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => { const poll = () => (progress.hidden ? resolve() : setTimeout(poll, 20)); poll(); });
      const done = performance.now() - t0;
      clearInterval(beat);
      return { init: answer[0], msg: answer[1], done, gaps, clicks, frames: st.frames };
    }, text);
    if (r.msg.message !== "init_successfully") {
      console.log(`${N} plies: refused: ${r.msg.reason}`);
      await page.close();
      continue;
    }
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    const gaps = sorted(r.gaps), clicks = sorted(r.clicks);
    const over = (ms) => gaps.filter((g) => g > ms).length;
    const f = (x) => x.toFixed(0);
    console.log(`${N} plies (${(text.length / 1048576).toFixed(1)} MB, ${r.frames} frames): first frame shown (init_successfully) ${f(r.init)} ms, every move checked ${f(r.done)} ms; ` +
      `the page's longest stall ${f(gaps.at(-1))} ms (gaps over 50 ms: ${over(50)}, over 100 ms: ${over(100)}, of ${gaps.length})`);
    if (clicks.length) {
      console.log(`  load_frame of a checked frame while checking: median ${clicks[clicks.length >> 1].toFixed(1)} ms, max ${clicks.at(-1).toFixed(1)} ms (${clicks.length} clicks)`);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
