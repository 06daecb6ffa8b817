// End-to-end tests of player.html in headless Chromium: the Saiblo player protocol, each
// game's drawing compared with the engine's own boards (`arbiter replay show --json`),
// embedding, early messages, malformed replays, hostile names, the origin allow-list.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  ARTIFACTS, BASE, WWW_DIR, boardAt, endlessReplay, got, handshakeCounter, hostPage, launch, oracle,
  playerFrame, postReplay, sampleText, samplePath, samples, scratchDir, until, waitMessage,
} from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const isInit = (m) => m && m.message === "init_successfully";
const isError = (m) => m && m.message === "error";

async function loaded(sample, mode = "srcdoc") {
  const page = await hostPage(browser, mode === "src" ? BASE + "/player.html" : "srcdoc");
  const frame = await playerFrame(page);
  await postReplay(page, sampleText(sample));
  const init = await waitMessage(page, isInit, "init_successfully");
  return { page, frame, init };
}

describe("protocol", () => {
  test("init_replay_player shows frame 0 and answers init_successfully with the frame count", async () => {
    const want = oracle(samplePath("reversi-8.json"));
    const { page, frame, init } = await loaded("reversi-8.json");
    assert.equal(init.number_of_frames, want.frames.length);
    assert.deepEqual(await boardAt(frame, 0), want.frames[0].board);
    await page.close();
  });

  test("load_frame, load_next_frame and next_frame move through the frames; bad indices are refused", async () => {
    const want = oracle(samplePath("reversi-8.json"));
    const { page, frame } = await loaded("reversi-8.json");
    await page.evaluate(() => window.post({ message: "load_next_frame" }));
    assert.deepEqual(await boardAt(frame, 1), want.frames[1].board);
    await page.evaluate(() => window.post({ message: "next_frame" }));
    assert.deepEqual(await boardAt(frame, 2), want.frames[2].board);
    await page.evaluate(() => window.post({ message: "load_frame", index: 17 }));
    assert.deepEqual(await boardAt(frame, 17), want.frames[17].board);
    const last = want.frames.length - 1;
    await page.evaluate((i) => window.post({ message: "load_frame", index: i }), last);
    assert.deepEqual(await boardAt(frame, last), want.frames[last].board);
    // next at the end stays at the end
    await page.evaluate(() => window.post({ message: "load_next_frame" }));
    for (const bad of [-1, last + 1, 2.5, "3", null]) {
      const before = (await got(page)).filter(isError).length;
      await page.evaluate((i) => window.post({ message: "load_frame", index: i }), bad);
      await until(async () => (await got(page)).filter(isError).length > before, "an error for index " + JSON.stringify(bad));
    }
    assert.deepEqual(await boardAt(frame, last), want.frames[last].board, "a refused index keeps the frame");
    await page.close();
  });

  test("load_players shows the names as text", async () => {
    const { page, frame } = await loaded("gomoku-freestyle.json");
    await page.evaluate(() => window.post({ message: "load_players", players: ["Alice", "Bob 的 Sample(1)"] }));
    await frame.waitForFunction(() => document.querySelectorAll(".pname")[1]?.textContent === "Bob 的 Sample(1)");
    const names = await frame.$$eval(".pname", (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, ["Alice", "Bob 的 Sample(1)"]);
    await page.close();
  });

  test("resized reports the page height after load and when the height changes", async () => {
    const { page, frame } = await loaded("reversi-16.json");
    const first = await waitMessage(page, (m) => m.message === "resized" && m.height > 100, "resized");
    const docHeight = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(Math.abs(first.height - docHeight) <= 2 || (await got(page)).some((m) => m.message === "resized" && Math.abs(m.height - docHeight) <= 2));
    const count = (await got(page)).filter((m) => m.message === "resized").length;
    // A narrower iframe stacks the side panel under the board: the height changes.
    await page.evaluate(() => { document.getElementById("player").style.width = "360px"; });
    await until(async () => (await got(page)).filter((m) => m.message === "resized").length > count, "a second resized");
    const lastResized = (await got(page)).filter((m) => m.message === "resized").at(-1);
    const newHeight = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(Math.abs(lastResized.height - newHeight) <= 2, `resized ${lastResized.height} vs page ${newHeight}`);
    assert.notEqual(lastResized.height, first.height);
    await page.close();
  });

  test("messages posted before the wasm is ready are queued, not lost", async () => {
    const text = sampleText("reversi-6.json");
    const want = oracle(samplePath("reversi-6.json"));
    const p2 = await browser.newPage();
    await p2.goto(BASE + "/test-host.html");
    await p2.evaluate(async (text) => {
      window.got = [];
      const frame = document.createElement("iframe");
      frame.id = "player"; frame.style.width = "900px"; frame.style.height = "700px";
      window.addEventListener("message", (e) => { if (e.source === frame.contentWindow) window.got.push(e.data); });
      document.body.appendChild(frame);
      frame.srcdoc = await (await fetch("/player.html")).text();
      await new Promise((resolve) => {
        const poll = () => {
          let q = null;
          try { q = frame.contentWindow.__arbiterQueue; } catch (_) {}
          if (!q) return setTimeout(poll, 0);
          const w = frame.contentWindow;
          // Handed to the page's message handler at once (a posted message would arrive in a
          // later task, perhaps after the player took over): while the bootstrap handler is
          // still in place, these can only go to its queue.
          window.postedBeforeReady = String(w.__arbiterOnMessage).includes("__arbiterQueue.push");
          const send = (data) => w.__arbiterOnMessage(new w.MessageEvent("message", { data, origin: location.origin, source: window }));
          send({ message: "init_replay_player", replay_data: new Blob([text]) });
          send({ message: "load_players", players: ["early-a", "early-b"] });
          send({ message: "load_frame", index: 5 });
          resolve();
        };
        poll();
      });
    }, text);
    const init = await waitMessage(p2, isInit, "init_successfully");
    assert.equal(init.number_of_frames, want.frames.length);
    const frame = await playerFrame(p2);
    assert.ok(await p2.evaluate(() => window.postedBeforeReady), "posted before the player was ready");
    const queued = await frame.evaluate(() => window.__arbiter.perf.queuedAtStart);
    assert.ok(queued >= 1, `messages were queued (${queued})`);
    assert.deepEqual(await boardAt(frame, 5), want.frames[5].board);
    const names = await frame.$$eval(".pname", (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, ["early-a", "early-b"]);
    await p2.close();
  });

  test("the player also works loaded by src (served), replying to the parent's origin", async () => {
    const want = oracle(samplePath("duel-illegal.json"));
    const { page, frame, init } = await loaded("duel-illegal.json", "src");
    assert.equal(init.number_of_frames, want.frames.length);
    assert.deepEqual(await boardAt(frame, 0), want.frames[0].board);
    await page.close();
  });

  test("online and spectator modes refuse a token that names no websocket", async () => {
    const page = await hostPage(browser);
    await playerFrame(page);
    for (const message of ["init_player_player", "init_spectator_player"]) {
      await page.evaluate((m) => window.post({ message: m, token: "%%%" }), message);
      const e = await waitMessage(page, (m) => isError(m) && m.reason.startsWith(message), "an error for " + message);
      assert.match(e.reason, /not the Base64 of a websocket address/);
      assert.equal(e.kind, "bad_token");
    }
    await page.close();
  });
});

describe("drawing matches the engine", () => {
  for (const name of ["reversi-8.json", "reversi-16.json", "reversi-6.json", "reversi-timeout.json", "reversi-opening.json",
    "gomoku-freestyle.json", "gomoku-renju.json", "gomoku-crash.json", "gomoku-opening.json", "duel-500.json", "duel-illegal.json"]) {
    test(name, async () => {
      const want = oracle(samplePath(name));
      const { page, frame, init } = await loaded(name);
      assert.equal(init.number_of_frames, want.frames.length);
      const n = want.frames.length;
      // Every frame of short games; a spread (and the ends) of long ones.
      const ks = n <= 130 ? [...Array(n).keys()] : [...new Set([0, 1, 2, 3, n - 2, n - 1, ...Array.from({ length: 60 }, (_, i) => Math.floor((i * 7919) % n))])];
      for (const k of ks) {
        await page.evaluate((i) => window.post({ message: "load_frame", index: i }), k);
        const board = await boardAt(frame, k);
        assert.deepEqual(board, want.frames[k].board, `${name} frame ${k}`);
        const v = await frame.evaluate(() => window.__arbiter.state.view);
        const o = want.frames[k];
        assert.deepEqual(v.scores, o.scores, `scores at frame ${k}`);
        assert.equal(v.to_move, o.to_move, `side to move at frame ${k}`);
        if (o.forbidden && !o.outcome) assert.equal(v.forbidden.length, o.forbidden.length, `forbidden points at frame ${k}`);
        if (o.next_cells && v.next_placer != null) {
          assert.deepEqual(v.next_cell, o.next_cells[v.next_placer], `next cell at frame ${k}`);
        }
        if (name.startsWith("reversi")) {
          // Legal moves drawn faintly = the engine's legal moves (protocol notation a1 = 0 0).
          const legal = o.legal_moves.filter((m) => m !== "pass").map((m) => [parseInt(m.slice(1), 10) - 1, m.charCodeAt(0) - 97]);
          assert.deepEqual(v.legal.map((x) => x.join()).sort(), legal.map((x) => x.join()).sort(), `legal moves at frame ${k}`);
        }
      }
      // An opening is named in the move list's first row (frame 0 is its position).
      const opening = JSON.parse(readFileSync(samplePath(name), "utf8")).opening || [];
      await page.evaluate(() => window.post({ message: "load_frame", index: 0 }));
      const row0 = await frame.$eval('#moves .row[data-k="0"]', (e) => e.textContent);
      assert.equal(row0.includes("opening " + opening.join(" ")), opening.length > 0, row0);
      // The result in words, said once: by the last frame's status line, no result box.
      await page.evaluate((i) => window.post({ message: "load_frame", index: i }), n - 1);
      await boardAt(frame, n - 1);
      const said = await frame.evaluate(() => ({
        status: document.getElementById("status").textContent,
        box: document.getElementById("result").hidden ? null : document.getElementById("result").textContent,
      }));
      assert.match(said.status, /wins|Draw/, said.status);
      assert.equal(said.box, null, `the result said twice: ${said.status} / ${said.box}`);
      if (want.result.reason.kind !== "normal") {
        const seat = want.result.reason.seat;
        const label = name.startsWith("duel") ? ["First (+)", "Second (−)"][seat] : ["Black", "White"][seat];
        assert.ok(said.status.includes(`${label} `) && said.status.includes(`at move ${want.frames.length}`), said.status);
      }
      await frame.$eval("#board", (c) => c.scrollIntoView());
      await page.screenshot({ path: path.join(ARTIFACTS, name.replace(".json", ".png")) });
      await page.close();
    });
  }

  test("renju game shows forbidden points somewhere and ends with a winning five", async () => {
    const want = oracle(samplePath("gomoku-renju.json"));
    const { page, frame } = await loaded("gomoku-renju.json");
    const last = want.frames.length - 1;
    await page.evaluate((i) => window.post({ message: "load_frame", index: i }), last);
    await boardAt(frame, last);
    const v = await frame.evaluate(() => window.__arbiter.state.view);
    assert.ok(v.winning.length >= 5, "winning line at the end");
    for (const [y, x] of v.winning) assert.notEqual(v.board[y][x], ".");
    const withForbidden = want.frames.findIndex((f) => f.forbidden && f.forbidden.length > 0);
    if (withForbidden >= 0) {
      await page.evaluate((i) => window.post({ message: "load_frame", index: i }), withForbidden);
      await boardAt(frame, withForbidden);
      const v2 = await frame.evaluate(() => window.__arbiter.state.view);
      assert.equal(v2.forbidden.length, want.frames[withForbidden].forbidden.length);
      await page.screenshot({ path: path.join(ARTIFACTS, "gomoku-renju-forbidden.png") });
    }
    await page.close();
  });

  test("dark colour scheme and a narrow iframe", async () => {
    const page = await hostPage(browser);
    await page.emulateMedia({ colorScheme: "dark" });
    const frame = await playerFrame(page);
    await page.evaluate(() => { document.getElementById("player").style.width = "340px"; });
    await postReplay(page, sampleText("duel-500.json"));
    await waitMessage(page, isInit, "init_successfully");
    await page.evaluate(() => window.post({ message: "load_frame", index: 1203 }));
    await boardAt(frame, 1203);
    const w = await frame.$eval("#board", (c) => c.getBoundingClientRect().width);
    assert.ok(w <= 340, `canvas fits the iframe (${w})`);
    const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, "rgb(18, 21, 28)");
    await page.screenshot({ path: path.join(ARTIFACTS, "duel-dark-narrow.png"), fullPage: true });
    await page.close();
  });
});

test("crisp on high-DPI screens: the canvas has device pixels", async () => {
  const context = await browser.newContext({ deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(BASE + "/player.html?replay=samples/reversi-8.json#frame=3");
  await boardAt(page.mainFrame(), 3);
  const [w, cssW] = await page.$eval("#board", (c) => [c.width, c.getBoundingClientRect().width]);
  assert.equal(w, Math.round(cssW * 2));
  await page.screenshot({ path: path.join(ARTIFACTS, "reversi-8-dpr2.png") });
  await context.close();
});

describe("errors", () => {
  const good = () => JSON.parse(sampleText("reversi-8.json"));
  const cases = [
    ["not JSON", () => "this is { not json", "malformed_json", /malformed replay JSON/],
    ["JSON but not a replay", () => JSON.stringify([1, 2, 3]), "not_a_replay", /not an arbiter replay/],
    ["another format", () => JSON.stringify({ format: "saiblo", version: 1 }), "not_a_replay", /not an arbiter replay/],
    ["an unknown game", () => JSON.stringify({ ...good(), game: { name: "chess" } }), "unknown_game", /unknown game "chess"/],
    ["the wrong version", () => JSON.stringify({ ...good(), version: 7 }), "wrong_version", /version 7/],
    ["an illegal move at move 5", () => {
      const r = good(); r.moves[4].move = r.moves[0].move; return JSON.stringify(r);
    }, "illegal_move", /illegal move at move 5/],
    ["an empty blob", () => "", "malformed_json", /malformed/],
  ];
  for (const [what, make, kind, re] of cases) {
    test(what, async () => {
      const page = await hostPage(browser);
      const frame = await playerFrame(page);
      await postReplay(page, make());
      const e = await waitMessage(page, isError, "an error message");
      assert.equal(e.kind, kind);
      assert.match(e.reason, re);
      assert.ok(!(await got(page)).some(isInit), "no init_successfully");
      const shown = await frame.$eval("#error", (el) => (el.hidden ? "" : el.textContent));
      assert.match(shown, re);
      assert.equal(await frame.$eval("#view", (el) => el.hidden), true, "nothing drawn");
      if (kind === "illegal_move") await page.screenshot({ path: path.join(ARTIFACTS, "error-illegal-move.png") });
      // A good replay afterwards is shown again.
      await postReplay(page, sampleText("reversi-6.json"));
      await waitMessage(page, isInit, "init_successfully after an error");
      assert.equal(await frame.$eval("#error", (el) => el.hidden), true);
      await page.close();
    });
  }

  test("replay_data that is not a Blob", async () => {
    const page = await hostPage(browser);
    await playerFrame(page);
    await page.evaluate(() => window.post({ message: "init_replay_player", replay_data: 42 }));
    const e = await waitMessage(page, isError, "an error message");
    assert.match(e.reason, /not a Blob/);
    await page.close();
  });
});

describe("hostile input", () => {
  test("hostile names stay text and no script runs", async () => {
    const { page, frame } = await loaded("reversi-hostile-names.json");
    const replayNames = JSON.parse(sampleText("reversi-hostile-names.json")).players.map((p) => p.name);
    let names = await frame.$$eval(".pname", (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, replayNames);
    const hostile = ['<img src=x onerror="window.__pwned=3;parent.__pwned=3">', "</pre><script>window.__pwned=4</script>"];
    await page.evaluate((h) => window.post({ message: "load_players", players: h }), hostile);
    await frame.waitForFunction((h) => document.querySelector(".pname")?.textContent === h, hostile[0]);
    names = await frame.$$eval(".pname", (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, hostile);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await frame.evaluate(() => document.querySelectorAll("#app img, #app script").length), 0);
    await page.close();
  });
});

describe("origin allow-list", () => {
  const other = process.env.WWW_URL2; // the same files on another port: another origin
  test("messages from an origin not on the list are ignored", async () => {
    const page = await hostPage(browser, other + "/player.html?origins=https://contest.example");
    const frame = await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(!(await got(page)).some(isInit), "no answer to a foreign origin");
    assert.equal(await frame.evaluate(() => window.__arbiter.state.player), null);
    await page.close();
  });
  test("messages from a listed origin are answered", async () => {
    const page = await hostPage(browser, other + "/player.html?origins=https://contest.example," + encodeURIComponent(BASE));
    await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    const init = await waitMessage(page, isInit, "init_successfully");
    assert.ok(init.number_of_frames > 1);
    await page.close();
  });
  test("?origins=self: a page of another origin that frames the player is ignored, its own origin answered", async () => {
    let page = await hostPage(browser, other + "/player.html?origins=self");
    let frame = await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(!(await got(page)).some(isInit), "no answer to another origin");
    assert.equal(await frame.evaluate(() => window.__arbiter.state.player), null);
    await page.close();
    page = await hostPage(browser, BASE + "/player.html?origins=self");
    await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    await waitMessage(page, isInit, "init_successfully");
    await page.close();
  });
  // The tournament report's game pages, opened as files: player.html?origins=self beside them.
  for (const fileAccess of [true, false]) {
    test(`?origins=self from disk (file://${fileAccess ? ", file access allowed" : ", as a person's browser"}): the page's player obeys it`, async () => {
      const dir = scratchDir();
      writeFileSync(path.join(dir, "player.html"), readFileSync(path.join(WWW_DIR, "player.html")));
      writeFileSync(path.join(dir, "replay.js"), "window.R = " + JSON.stringify(sampleText("reversi-6.json")) + ";\n");
      writeFileSync(path.join(dir, "game.html"), `<!DOCTYPE html><title>report game</title>
<iframe id="player" src="player.html?origins=self" style="width:900px;height:700px"></iframe>
<script src="replay.js"></script><script>
const f = document.getElementById("player"); window.got = [];
addEventListener("message", (e) => { if (e.source === f.contentWindow) window.got.push(e.data); });
f.addEventListener("load", () => f.contentWindow.postMessage({ message: "init_replay_player", replay_data: new Blob([window.R]) }, "*"));
</script>`);
      const b = fileAccess ? browser : await launch({ fileAccess: false });
      const page = await b.newPage();
      await page.goto(pathToFileURL(path.join(dir, "game.html")).href);
      const init = await waitMessage(page, isInit, "init_successfully");
      assert.equal(init.number_of_frames, JSON.parse(sampleText("reversi-6.json")).moves.length + 1);
      await page.close();
      if (!fileAccess) await b.close();
    });
  }
});

describe("origin allow-list through srcdoc (meta tag)", () => {
  test("a foreign origin is ignored, the listed one answered", async () => {
    let page = await hostPage(browser, "srcdoc", { metaOrigins: "https://contest.example" });
    await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(!(await got(page)).some(isInit), "no answer to a foreign origin");
    await page.close();
    page = await hostPage(browser, "srcdoc", { metaOrigins: "https://contest.example," + BASE });
    await playerFrame(page);
    await postReplay(page, sampleText("reversi-6.json"));
    await waitMessage(page, isInit, "init_successfully");
    await page.close();
  });
});

// A site's page embedding the player as the contest does, by srcdoc (`?meta=` fills the
// allow-list; `data-hubs="self"` always), or by URL as the tournament report does
// (`?src=1`: player.html?origins=META&hubs=self), showing reversi-8 by its own script.
writeFileSync(path.join(WWW_DIR, "test-victim.html"), `<!DOCTYPE html><title>victim</title>
<iframe id="player" style="width:900px;height:700px"></iframe><script>
(async () => {
  const f = document.getElementById("player");
  const q = new URLSearchParams(location.search), meta = q.get("meta") || "";
  f.onload = async () => f.contentWindow.postMessage({ message: "init_replay_player",
    replay_data: await (await fetch("/samples/reversi-8.json")).blob() }, location.origin);
  if (q.get("src")) {
    f.src = "/player.html?origins=" + encodeURIComponent(meta) + "&hubs=self";
    return;
  }
  const text = await (await fetch("/player.html")).text();
  f.srcdoc = text.replace('<meta name="arbiter-origins" content="">', '<meta name="arbiter-origins" content="' + meta + '" data-hubs="self">');
})();
</script>
`);

describe("the player trusts only its embedding page (issue 32)", () => {
  const other = process.env.WWW_URL2;
  /** What a victim page's player shows: frame count, frame, board, names, live bar. */
  const shown = async (victim) => victim.frames()[1].evaluate(() => ({
    frames: window.__arbiter.state.frames, k: window.__arbiter.state.k,
    board: document.getElementById("board-text").textContent,
    names: [...document.querySelectorAll(".pname")].map((e) => e.textContent),
    live: !document.getElementById("live").hidden, error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  }));
  for (const [opener, meta, src] of [[other, "", false], [other, "self", false], [BASE, "", false], [other, "self", true]]) {
    test(`a page of ${opener === BASE ? "the same origin, not the parent" : "another origin"} that opened the site's page can neither post it a replay nor name it a websocket (allow-list "${meta}", ${src ? "player by URL" : "srcdoc"})`, async () => {
      const attacker = await handshakeCounter();
      const frames = JSON.parse(sampleText("reversi-8.json")).moves.length + 1;
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(opener + "/test-host.html");
      const popup = context.waitForEvent("page");
      await page.evaluate((u) => { window.victim = window.open(u); }, `${BASE}/test-victim.html?meta=${meta}${src ? "&src=1" : ""}`);
      const victim = await popup;
      await until(async () => (await shown(victim).catch(() => ({}))).frames === frames, "the victim's genuine replay");
      const before = await shown(victim);
      // The forged game: another game with another winner, then a frame, names and a websocket.
      const forged = sampleText("gomoku-freestyle.json");
      await page.evaluate(({ forged, token }) => {
        const f = window.victim.frames[0];
        f.postMessage({ message: "init_replay_player", replay_data: new Blob([forged]) }, "*");
        f.postMessage({ message: "load_frame", index: 3 }, "*");
        f.postMessage({ message: "load_players", players: ["forged", "forged"] }, "*");
        f.postMessage({ message: "init_spectator_player", token }, "*");
        f.postMessage({ message: "init_player_player", token }, "*");
      }, { forged, token: attacker.token("/live/ws/_1") });
      await new Promise((r) => setTimeout(r, 1500));
      const after = await shown(victim);
      assert.deepEqual(after, before, "nothing forged is drawn");
      assert.deepEqual(attacker.handshakes, [], "no handshake reached the attacker's socket");
      await context.close();
      attacker.close();
    });
  }

  test("a token naming a websocket the page does not allow is refused, and nothing is opened", async () => {
    const attacker = await handshakeCounter();
    const page = await hostPage(browser, "srcdoc", { metaOrigins: "self", metaAttrs: ' data-hubs="self"' });
    await playerFrame(page);
    await page.evaluate((t) => window.post({ message: "init_spectator_player", token: t }), attacker.token("/live/ws/_1"));
    const e = await waitMessage(page, isError, "a refusal");
    assert.equal(e.kind, "bad_token");
    assert.match(e.reason, /not this page's live hub/);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(attacker.handshakes, []);
    // Its own host's hub is opened (the static server answers 404: the player says it reconnects).
    const own = Buffer.from(BASE.replace(/^http/, "ws") + "/live/ws/_1").toString("base64");
    const before = (await got(page)).filter(isError).length;
    await page.evaluate((t) => window.post({ message: "init_spectator_player", token: t }), own);
    const frame = await playerFrame(page);
    await frame.waitForFunction(() => /reconnecting/i.test(document.getElementById("live-msg").textContent), null, { timeout: 10000 });
    assert.equal((await got(page)).filter(isError).length, before, "no refusal");
    await page.close();
    attacker.close();
  });
});

describe("long replays stay responsive (issue 32)", () => {
  const state = (frame) => frame.evaluate(() => ({
    k: window.__arbiter.state.k, frames: window.__arbiter.state.frames,
    board: document.getElementById("board-text").textContent,
    progress: document.getElementById("progress").hidden ? null : document.getElementById("progress").textContent,
  }));
  // Frame k of the endless game: the seat to move (k % 2) has its disc in its own cell.
  const endlessBoard = (k) => (k % 2 === 0 ? " X ." : " . O");

  test("200,000 plies: the first frame at once, the rest checked in slices, any frame reachable", async () => {
    const N = 200000;
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await postReplay(page, endlessReplay(N));
    const init = await waitMessage(page, isInit, "init_successfully", 30000);
    assert.equal(init.number_of_frames, N + 1);
    let s = await state(frame);
    assert.equal(s.board, endlessBoard(0));
    assert.match(s.progress || "", /^Checking the moves: \d+ of 200000/, "still checking once shown");
    // A frame already checked is shown at once; the last waits for its moves, and says so.
    await page.evaluate(() => window.post({ message: "load_frame", index: 5 }));
    await frame.waitForFunction(() => window.__arbiter.state.k === 5);
    assert.ok((await state(frame)).progress, "shown while the checking goes on");
    await page.evaluate((i) => window.post({ message: "load_frame", index: i }), N);
    await frame.waitForFunction(() => /Frame 200000 is shown once they reach it/.test(document.getElementById("progress").textContent));
    await page.screenshot({ path: path.join(ARTIFACTS, "long-replay-checking.png") });
    await frame.waitForFunction((n) => window.__arbiter.state.k === n, N, { timeout: 120000 });
    s = await state(frame);
    assert.equal(s.board, endlessBoard(N));
    assert.equal(s.progress, null, "the progress line goes once every move is checked");
    assert.match(await frame.$eval("#status", (e) => e.textContent), /./);
    // The move list scrolled to the last move (a list of 200,001 rows, scrolled at scale).
    const row = await frame.$eval("#moves", (m) => [...m.querySelectorAll(".row")].filter((r) => !r.hidden).map((r) => r.dataset.k));
    assert.ok(row.includes(String(N)), `the last move's row is in view: ${row}`);
    await page.screenshot({ path: path.join(ARTIFACTS, "long-replay-last.png") });
    await page.close();
  });

  test("an illegal move late in a long replay is an error once the checking reaches it", async () => {
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await postReplay(page, endlessReplay(120000, { badAt: 100000 }));
    const e = await waitMessage(page, isError, "the illegal move", 120000);
    assert.equal(e.kind, "illegal_move");
    assert.match(e.reason, /illegal move at move 100000/);
    assert.equal(await frame.$eval("#view", (el) => el.hidden), true, "nothing drawn");
    assert.equal(await frame.$eval("#progress", (el) => el.hidden), true);
    await page.close();
  });

  test("a replay past the player's bounds is refused in words", async () => {
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await page.evaluate(() => window.post({ message: "init_replay_player", replay_data: new Blob([new Uint8Array(65 << 20)]) }));
    let e = await waitMessage(page, isError, "too large");
    assert.equal(e.kind, "too_large");
    assert.match(e.reason, /the replay is 65 MB: the player reads at most 64 MB/);
    // 2,000,001 moves in 46 MB: past the moves the player keeps.
    const r = JSON.parse(sampleText("reversi-8.json"));
    const head = JSON.stringify({ ...r, moves: ["@"] });
    await page.evaluate((head) => {
      const text = head.replace('["@"]', "[" + '{"seat":0,"move":"d3"},'.repeat(2000000) + '{"seat":0,"move":"d3"}]');
      window.post({ message: "init_replay_player", replay_data: new Blob([text]) });
    }, head);
    e = await waitMessage(page, (m) => isError(m) && /moves/.test(m.reason), "too many moves", 60000);
    assert.equal(e.kind, "too_large");
    assert.match(e.reason, /the replay has 2000001 moves: the player shows at most 2000000/);
    assert.match(await frame.$eval("#error", (el) => el.textContent), /at most 2000000/);
    await page.screenshot({ path: path.join(ARTIFACTS, "long-replay-bounds.png") });
    await page.close();
  });
});

describe("standalone", () => {
  test("?replay=URL and #frame=K deep links, keys, controls", async () => {
    const page = await browser.newPage();
    const want = oracle(samplePath("gomoku-freestyle.json"));
    await page.goto(BASE + "/player.html?replay=samples/gomoku-freestyle.json#frame=7");
    const frame = page.mainFrame();
    assert.deepEqual(await boardAt(frame, 7), want.frames[7].board);
    assert.equal(await page.$eval("#controls", (e) => e.hidden), false);
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await boardAt(frame, 8), want.frames[8].board);
    await page.keyboard.press("End");
    const last = want.frames.length - 1;
    assert.deepEqual(await boardAt(frame, last), want.frames[last].board);
    await page.keyboard.press("Home");
    await boardAt(frame, 0);
    await page.keyboard.press("ArrowLeft");
    await boardAt(frame, 0);
    await page.click("#b-next");
    await boardAt(frame, 1);
    // a click on the move list jumps there
    await page.click('#moves .row[data-k="12"]');
    assert.deepEqual(await boardAt(frame, 12), want.frames[12].board);
    await page.fill("#slider", "3");
    await boardAt(frame, 3);
    // space plays
    await page.selectOption("#speed", "16");
    await page.focus("body");
    await page.keyboard.press(" ");
    await frame.waitForFunction(() => Number(document.getElementById("board-text").dataset.frame) > 5);
    await page.keyboard.press(" ");
    await page.screenshot({ path: path.join(ARTIFACTS, "standalone-gomoku.png"), fullPage: true });
    await page.close();
  });

  test("from disk (file://), opening a file with the picker", async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path.join(WWW_DIR, "player.html")).href);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    assert.equal(await page.$eval("#welcome", (e) => e.hidden), false);
    await page.setInputFiles("#file", samplePath("duel-illegal.json"));
    const want = oracle(samplePath("duel-illegal.json"));
    assert.deepEqual(await boardAt(page.mainFrame(), 0), want.frames[0].board);
    await page.close();
  });

  test("drag and drop of a replay file", async () => {
    const page = await browser.newPage();
    await page.goto(BASE + "/player.html");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const text = sampleText("reversi-6.json");
    const dt = await page.evaluateHandle((t) => {
      const d = new DataTransfer();
      d.items.add(new File([t], "r.json", { type: "application/json" }));
      return d;
    }, text);
    await page.dispatchEvent("body", "drop", { dataTransfer: dt });
    const want = oracle(samplePath("reversi-6.json"));
    assert.deepEqual(await boardAt(page.mainFrame(), 0), want.frames[0].board);
    await page.close();
  });

  test("embedded, keys still work when the player has focus", async () => {
    const want = oracle(samplePath("reversi-8.json"));
    const { page, frame } = await loaded("reversi-8.json");
    assert.equal(await frame.$eval("#controls", (e) => e.hidden), true, "no controls when embedded");
    await frame.click("#board");
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await boardAt(frame, 1), want.frames[1].board);
    await page.close();
  });
});

describe("host page", () => {
  test("index.html embeds by srcdoc and src, drives frames, logs messages", async () => {
    for (const mode of ["srcdoc", "src"]) {
      const page = await browser.newPage();
      await page.goto(`${BASE}/index.html?sample=duel-500.json&mode=${mode}`);
      await page.waitForFunction(() => window.host && window.host.frames > 0, null, { timeout: 15000 });
      const frame = await playerFrame(page);
      const want = oracle(samplePath("duel-500.json"));
      await page.click("#next");
      assert.deepEqual(await boardAt(frame, 1), want.frames[1].board);
      await page.click("#next-alias");
      await boardAt(frame, 2);
      await page.fill("#jump-to", "1500");
      await page.click("#jump");
      assert.deepEqual(await boardAt(frame, 1500), want.frames[1500].board);
      await page.click("#prev");
      await boardAt(frame, 1499);
      const log = await page.$eval("#log", (e) => e.textContent);
      assert.match(log, /init_successfully/);
      assert.match(log, /resized/);
      await page.screenshot({ path: path.join(ARTIFACTS, `host-${mode}.png`), fullPage: true });
      await page.close();
    }
  });
});

test("every sample listed is valid for the engine", () => {
  for (const s of samples()) assert.ok(oracle(samplePath(s)).frames.length > 1, s);
  writeFileSync(path.join(ARTIFACTS, "samples.txt"), samples().join("\n") + "\n");
});

describe("standalone controls (Rust event handlers)", () => {
  test("play button plays and pauses, hash changes seek, the move-numbers option redraws", async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const want = oracle(samplePath("gomoku-freestyle.json"));
    await page.goto(BASE + "/player.html?replay=samples/gomoku-freestyle.json");
    const frame = page.mainFrame();
    await boardAt(frame, 0);
    const playState = () => page.$eval("#b-play", (e) => [e.getAttribute("aria-label"), e.classList.contains("playing")]);
    assert.deepEqual(await playState(), ["Play", false]);
    await page.selectOption("#speed", "16");
    await page.click("#b-play");
    assert.deepEqual(await playState(), ["Pause", true]);
    await frame.waitForFunction(() => Number(document.getElementById("board-text").dataset.frame) >= 3);
    await page.click("#b-play");
    assert.deepEqual(await playState(), ["Play", false]);
    const paused = await page.$eval("#board-text", (e) => e.dataset.frame);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await page.$eval("#board-text", (e) => e.dataset.frame), paused, "paused stays put");
    // a new #frame=K in the address seeks there
    await page.evaluate(() => { location.hash = "#frame=4"; });
    assert.deepEqual(await boardAt(frame, 4), want.frames[4].board);
    assert.equal(await page.$eval("#frameno", (e) => e.textContent), `4 / ${want.frames.length - 1}`);
    // the option is shown for gomoku; turning it off draws other pixels
    assert.equal(await page.$eval("#numbers-opt", (e) => e.hidden), false);
    const before = await page.$eval("#board", (c) => c.toDataURL());
    await page.click("#numbers");
    await frame.waitForFunction((b) => document.getElementById("board").toDataURL() !== b, before);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe("languages", () => {
  test("?lang=zh-CN: the texts are Chinese and drawn with a CJK font (not as boxes)", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(BASE + "/player.html?lang=zh-CN&replay=samples/reversi-8.json#frame=3");
    const frame = page.mainFrame();
    await boardAt(frame, 3);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
    const status = await page.textContent("#status");
    assert.match(status, /[\u4e00-\u9fff]/, "the status line is Chinese: " + status);
    // The same two characters drawn in the page's font: without a CJK font (tests/web/run.sh
    // installs one) Chromium draws both, and a private-use character, as the same empty box.
    const drawn = await page.evaluate(() => {
      const c = document.createElement("canvas");
      c.width = 64; c.height = 40;
      const x = c.getContext("2d");
      x.font = `28px ${getComputedStyle(document.body).fontFamily}`;
      const pixels = (ch) => { x.clearRect(0, 0, 64, 40); x.fillText(ch, 4, 32); return x.getImageData(0, 0, 64, 40).data.join(","); };
      return { black: pixels("黑"), white: pixels("白"), none: pixels("\ue000") };
    });
    assert.notEqual(drawn.black, drawn.white, "黑 and 白 are drawn alike: no CJK font (Debian: fonts-wqy-microhei)");
    assert.notEqual(drawn.black, drawn.none, "黑 is drawn as a missing glyph: no CJK font (Debian: fonts-wqy-microhei)");
    await page.screenshot({ path: path.join(ARTIFACTS, "zh-CN-reversi-8.png"), fullPage: true });
    await page.close();
  });
});
