// The web player's live modes (docs/live.md, seed 002) in Chromium against the REAL hub that
// `arbiter match ... --live` serves: a person plays a whole 8x8 Reversi game by clicks, a renju
// forbidden point is refused before anything is sent, a spectator who joins at move 20 or later
// sees exactly the saved replay's frames, the 2048 duel is watched with --live-delay; and a
// judger stub (a websocket server on node's http upgrade) checks every message the player
// sends when a test host page drives it as seed 002 describes. Screenshots go to
// tests/artifacts/web/live-*.png.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { ARBITER, ARTIFACTS, hostPage, launch, oracle, playerFrame, scratchDir, until } from "./lib.mjs";

const ROOT = path.resolve("../..");
let browser;

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/** `arbiter match ARGS --live 127.0.0.1:PORT -o DIR`, once it printed its addresses. */
async function startMatch(args) {
  const dir = scratchDir();
  const port = await freePort();
  const proc = spawn(ARBITER, ["match", ...args, "--games", "1", "--live", `127.0.0.1:${port}`, "-o", dir],
    { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (d) => { out += d; });
  proc.stderr.on("data", (d) => { out += d; });
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const watch = await until(() => out.match(/watch it at (\S+)/)?.[1], "the watch address in:\n" + out, 30000);
  const play = out.match(/here: (\S+)/)?.[1];
  return { proc, dir, port, play, watch, exited, output: () => out };
}

/** Opens a hub page; resolves to the player's frame once it shows a live game. */
async function livePage(url, viewport = { width: 1100, height: 820 }) {
  const page = await browser.newPage({ viewport });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(url);
  const frame = await until(async () => {
    const f = page.frames().find((x) => x !== page.mainFrame());
    const ok = f && await f.evaluate(() => window.__arbiter?.state?.frames > 0).catch(() => false);
    return ok ? f : null;
  }, "the live player to show the game", 20000);
  return { page, frame };
}

/** What the live player shows now. */
function liveState(frame) {
  return frame.evaluate(() => ({
    msg: document.getElementById("live-msg").textContent,
    clock: document.getElementById("live-clock").textContent,
    frames: window.__arbiter.state.frames,
    k: window.__arbiter.state.k,
    view: window.__arbiter.state.view,
    geom: window.__arbiter.state.geom,
    sent: window.__arbiter.liveSent.slice(),
    board: document.getElementById("board-text").textContent.split("\n"),
    status: document.getElementById("status").textContent,
    // The result box, null while hidden; the live bar's visibility (gone at the end).
    box: document.getElementById("result").hidden ? null : document.getElementById("result").textContent,
    over: window.__arbiter.state.frames > 0 && document.getElementById("live").hidden,
  }));
}

/** Clicks the centre of the square or point [row, col]. */
async function clickCell(frame, [r, c]) {
  const [ox, oy, cell] = await frame.evaluate(() => window.__arbiter.state.geom);
  await frame.locator("#board").click({ position: { x: ox + (c + 0.5) * cell, y: oy + (r + 0.5) * cell } });
}

function replayOf(dir) {
  return JSON.parse(readFileSync(path.join(dir, "game-0001.json"), "utf8"));
}

/** A bot that answers every line `delay` seconds late: a bot-vs-bot game slow enough to join. */
function slowBot(dir, delay, cmd) {
  const file = path.join(dir, "slow.py");
  writeFileSync(file, `import subprocess, sys, threading, time
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def relay():
    for line in p.stdout:
        time.sleep(float(sys.argv[1]))
        sys.stdout.write(line)
        sys.stdout.flush()
threading.Thread(target=relay, daemon=True).start()
for line in sys.stdin:
    p.stdin.write(line)
    p.stdin.flush()
p.wait()
`);
  return `python3 ${file} ${delay} ${cmd}`;
}

describe("a person plays the real hub", () => {
  test("a whole 8x8 Reversi game by clicks against builtin:1; the saved replay is what was played", async () => {
    const m = await startMatch(["reversi", "--size", "8", "human:Ada", "builtin:1"]);
    assert.ok(m.play, "the command prints the play address:\n" + m.output());
    const { page, frame } = await livePage(m.play);
    const clicked = [];
    let shot = false;
    for (let guard = 0; guard < 200; guard++) {
      const s = await until(async () => {
        const s = await liveState(frame);
        // The clock comes with the hub's next `time` heartbeat, a message after the move's.
        const mine = s.view.to_move === 0 && s.k === s.frames - 1 && s.msg.startsWith("Your turn") && s.clock !== "";
        return (mine || s.over) ? s : null;
      }, "Ada's turn or the end", 30000);
      if (s.over) break;
      assert.ok(s.view.legal.length > 0, "a turn the referee hands a person has a legal move");
      assert.match(s.clock, /^Your clock: \d+\.\d s$/);
      if (!shot && clicked.length === 3) {
        await page.screenshot({ path: path.join(ARTIFACTS, "live-seat.png") });
        shot = true;
      }
      const before = s.sent.length;
      clicked.push(s.view.legal[0]);
      await clickCell(frame, s.view.legal[0]);
      await until(async () => (await liveState(frame)).sent.length > before, "the action to be sent");
      // Nothing else may be sent until the hub answers with the move.
      await until(async () => (await liveState(frame)).frames > s.frames, "the move to come back");
    }
    assert.equal(await m.exited, 0, m.output());
    const s = await liveState(frame);
    // The end: the live bar goes, the last frame says the result, once.
    assert.ok(s.over, "the live bar is gone at the end");
    assert.match(s.status, /(Black wins|White wins|Draw)/);
    assert.equal(s.box, null, "the result said twice");
    const saved = replayOf(m.dir);
    const actions = s.sent.map((t) => JSON.parse(t)).filter((x) => x.request === "action");
    const mine = saved.moves.filter((x) => x.seat === 0 && x.move !== "pass").map((x) => x.move);
    assert.deepEqual(actions.map((a) => a.content), mine, "Ada's actions are the replay's moves of seat 0");
    assert.equal(actions.length, clicked.length);
    assert.ok(mine.length >= 10, "a whole game: " + mine.length + " moves by Ada");
    assert.equal(saved.players[0].name, "Ada");
    // The player's frames are the replay's, as the engine rebuilds it.
    const want = oracle(path.join(m.dir, "game-0001.json"));
    assert.equal(s.frames, want.frames.length);
    assert.deepEqual(s.board, want.frames.at(-1).board);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("renju: black's forbidden point is drawn and refused in the player, nothing sent", async () => {
    const dir = scratchDir();
    const openings = path.join(dir, "openings.txt");
    // Black F8 G8 and H9 H10: H8 would make two open threes.
    writeFileSync(openings, "F8 A1 G8 A15 H9 O1 H10 O15\n");
    const m = await startMatch(["gomoku", "--rule", "renju", "human:Ada", "builtin:1", "--openings", openings]);
    const { page, frame } = await livePage(m.play);
    const s = await until(async () => {
      const s = await liveState(frame);
      return s.msg.startsWith("Your turn") ? s : null;
    }, "black's turn", 20000);
    assert.ok(s.view.forbidden.some(([y, x]) => y === 7 && x === 7), "H8 is drawn as forbidden: " + JSON.stringify(s.view.forbidden));
    const sentBefore = s.sent.length;
    await clickCell(frame, [7, 7]);
    const after = await until(async () => {
      const a = await liveState(frame);
      return a.msg.startsWith("Refused") ? a : null;
    }, "the refusal");
    assert.match(after.msg, /^Refused: H8: illegal move: .*forbidden/i);
    assert.equal(after.sent.length, sentBefore, "no action was sent");
    assert.equal(after.frames, s.frames);
    // Typed moves are checked the same way.
    await frame.fill("#live-move", "h8");
    await frame.press("#live-move", "Enter");
    assert.equal((await liveState(frame)).sent.length, sentBefore);
    await page.screenshot({ path: path.join(ARTIFACTS, "live-refused.png") });
    // A legal typed move goes out as an action with the token.
    await frame.fill("#live-move", "h7");
    await frame.press("#live-move", "Enter");
    const sent = await until(async () => {
      const a = await liveState(frame);
      return a.sent.length > sentBefore ? a.sent : null;
    }, "the typed move");
    const action = JSON.parse(sent.at(-1));
    assert.equal(action.request, "action");
    assert.equal(action.content, "H7");
    assert.equal(JSON.parse(sent[0]).token, action.token);
    await until(async () => (await liveState(frame)).frames > s.frames, "H7 played");
    m.proc.kill("SIGTERM");
    await m.exited;
    await page.close();
  });
});

describe("spectators of the real hub", () => {
  test("a spectator who joins at move 20 or later sees exactly the replay's frames", async () => {
    const dir = scratchDir();
    const bot = path.join(ROOT, "bots/python/reversi_random.py");
    const m = await startMatch(["reversi", "--size", "8", slowBot(dir, 0.12, `python3 -u ${bot} 8`),
      slowBot(dir, 0.12, `python3 -u ${bot} 8`)]);
    const games = `http://127.0.0.1:${m.port}/live/games.json`;
    const joinedAt = await until(async () => {
      const list = await (await fetch(games)).json();
      const n = list[0]?.moves ?? 0;
      return n >= 20 ? n : null;
    }, "move 20", 60000);
    const { page, frame } = await livePage(m.watch);
    const first = await liveState(frame);
    assert.ok(first.frames >= 21, `joined at move ${joinedAt}: the history holds ${first.frames - 1} moves`);
    assert.equal(first.msg, "Watching live.");
    assert.equal(first.box, null, "no result box while the game goes on");
    await page.screenshot({ path: path.join(ARTIFACTS, "live-spectator.png") });
    assert.equal(await m.exited, 0, m.output());
    const want = oracle(path.join(m.dir, "game-0001.json"));
    const s = await until(async () => {
      const s = await liveState(frame);
      return s.over ? s : null;
    }, "the end", 20000);
    assert.equal(s.frames, want.frames.length);
    assert.ok(s.frames > first.frames, "moves arrived after joining");
    assert.deepEqual(s.board, want.frames.at(-1).board);
    // Every frame, stepping back through the player.
    await frame.locator("#board").focus();
    await frame.press("body", "Home");
    for (let k = 0; k < want.frames.length; k++) {
      const board = await frame.evaluate(() => document.getElementById("board-text").textContent.split("\n"));
      assert.deepEqual(board, want.frames[k].board, `frame ${k}`);
      await frame.press("body", "ArrowRight");
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the 2048 duel watched live with --live-delay: frames advance, the end shows the result", async () => {
    const dir = scratchDir();
    const bot = path.join(ROOT, "bots/python/duel_random.py");
    const m = await startMatch(["duel2048", slowBot(dir, 0.04, `python3 -u ${bot}`), slowBot(dir, 0.04, `python3 -u ${bot}`),
      "--rounds", "30", "--live-delay", "40"]);
    const { page, frame } = await livePage(m.watch);
    const a = await liveState(frame);
    const b = await until(async () => {
      const b = await liveState(frame);
      return b.frames > a.frames + 5 ? b : null;
    }, "frames to advance", 20000);
    assert.equal(b.k, b.frames - 1, "the player follows the newest frame");
    // A viewer who steps back stays there while moves arrive; End follows the game again.
    await frame.press("body", "ArrowLeft");
    await frame.press("body", "ArrowLeft");
    const back = await liveState(frame);
    await until(async () => (await liveState(frame)).frames > back.frames + 3, "more frames", 20000);
    assert.equal((await liveState(frame)).k, back.k, "the frame stepped back to stays shown");
    await frame.press("body", "End");
    const c = await until(async () => {
      const c = await liveState(frame);
      return c.frames > back.frames + 6 ? c : null;
    }, "more frames", 20000);
    assert.equal(c.k, c.frames - 1, "End: the newest frame again, and followed");
    const s = await until(async () => {
      const s = await liveState(frame);
      return s.over ? s : null;
    }, "the end", 60000);
    const want = oracle(path.join(m.dir, "game-0001.json"));
    assert.equal(s.frames, want.frames.length);
    assert.deepEqual(s.board, want.frames.at(-1).board);
    assert.match(s.status, /wins|Draw/);
    assert.equal(s.box, null, "the result said twice");
    await page.screenshot({ path: path.join(ARTIFACTS, "live-duel-end.png") });
    await m.exited;
    await page.close();
  });
});

/** A judger stub: a websocket server written on node's http upgrade (RFC 6455, text frames).
 * While `refuse()` holds, a handshake is answered 404, as a contest server restarting does
 * before its games are back (`server.refused` counts them). */
function judgerStub(onMessage, { refuse = () => false } = {}) {
  const server = createServer();
  const conns = [];
  server.conns = conns;
  server.refused = 0;
  server.on("upgrade", (req, socket) => {
    if (refuse()) {
      server.refused += 1;
      socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    const accept = createHash("sha1").update(req.headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
    socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const conn = { path: req.url, got: [], socket, send: (obj) => socket.write(frameOf(JSON.stringify(obj))) };
    conns.push(conn);
    let buf = Buffer.alloc(0);
    socket.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (buf.length < 2) return;
        const op = buf[0] & 15, masked = buf[1] & 128;
        let len = buf[1] & 127, at = 2;
        if (len === 126) { len = buf.readUInt16BE(2); at = 4; }
        if (len === 127) { len = Number(buf.readBigUInt64BE(2)); at = 10; }
        if (buf.length < at + (masked ? 4 : 0) + len) return;
        assert.ok(masked, "a browser masks its frames");
        const mask = buf.subarray(at, at + 4);
        const body = Buffer.from(buf.subarray(at + 4, at + 4 + len)).map((b, i) => b ^ mask[i % 4]);
        buf = buf.subarray(at + 4 + len);
        if (op === 1) { const text = body.toString("utf8"); conn.got.push(text); onMessage(conn, text); }
        if (op === 8) socket.end();
      }
    });
    socket.on("error", () => {});
  });
  return server;
}

function frameOf(text) {
  const body = Buffer.from(text, "utf8");
  const head = body.length < 126 ? Buffer.from([0x81, body.length])
    : Buffer.from([0x81, 126, body.length >> 8, body.length & 255]);
  return Buffer.concat([head, body]);
}

describe("protocol conformance (seed 002) against a judger stub", () => {
  test("connect first with the token, history, action with token and content, time, error, reconnection", async () => {
    const replay = JSON.parse(readFileSync(path.join(process.env.WWW_DIR, "samples", "reversi-8.json"), "utf8"));
    const skeleton = { ...replay, moves: [], result: { winner: null, reason: { kind: "aborted", message: "unfinished" } } };
    delete skeleton.scores; delete skeleton.failure;
    const start = JSON.stringify({ type: "start", replay: skeleton, seat: 0, limits: { move_ms: 5000, game_ms: null } });
    const move = (seat, mv) => JSON.stringify({ type: "move", move: { seat, move: mv, time_ms: 10 } });
    const contents = [start];
    const server = judgerStub((conn, text) => {
      const msg = JSON.parse(text);
      if (conn.got.length === 1) {
        conn.send({ request: "history", content: contents });
        conn.send({ request: "time", content: 4200 });
      } else if (msg.request === "action") {
        contents.push(move(0, msg.content), move(1, "c3"));
        conn.send({ request: "action", content: contents[1] });
        conn.send({ request: "action", content: contents[2] });
        conn.send({ request: "error", content: "a test refusal" });
      }
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const url = `ws://127.0.0.1:${server.address().port}/live/ws/9.secret/0`;
    const token = Buffer.from(url).toString("base64");
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await page.evaluate((t) => window.post({ message: "init_player_player", token: t }), token);
    const s = await until(async () => {
      const s = await liveState(frame).catch(() => null);
      return s && s.frames === 1 && s.clock ? s : null;
    }, "the start position and the clock");
    assert.match(s.clock, /^Your clock: 4\.\d s$/);
    await clickCell(frame, [2, 3]); // d3
    await until(async () => (await liveState(frame)).msg.startsWith("The hub refused"), "the hub's error shown");
    const after = await liveState(frame);
    assert.equal(after.frames, 3);
    assert.equal(after.msg, "The hub refused: a test refusal");
    // Every message the stub received, in order and shape.
    const first = JSON.parse(contentsOf(server)[0][0]);
    assert.deepEqual(first, { request: "connect", token });
    const action = JSON.parse(contentsOf(server)[0][1]);
    // Seed 002's fields, and arbiter's `ply` (docs/live.md: the position the move was chosen
    // in; a judger that does not know it ignores it).
    assert.deepEqual(action, { request: "action", token, content: "d3", ply: 0 });
    // The stub closes the socket: the player opens it again with the same token.
    stubConns(server)[0].socket.destroy();
    await until(() => stubConns(server).length === 2 && stubConns(server)[1].got.length > 0, "a reconnection", 10000);
    assert.equal(stubConns(server)[1].path, "/live/ws/9.secret/0");
    assert.deepEqual(JSON.parse(stubConns(server)[1].got[0]), { request: "connect", token });
    await until(async () => (await liveState(frame)).frames === 3, "the history again");
    await page.close();
    server.close();
  });

  test("spectator mode: connect with the token, then history and watch; garbage is shown and dropped", async () => {
    const replay = JSON.parse(readFileSync(path.join(process.env.WWW_DIR, "samples", "reversi-8.json"), "utf8"));
    const skeleton = { ...replay, moves: [], result: { winner: null, reason: { kind: "aborted", message: "unfinished" } } };
    delete skeleton.scores; delete skeleton.failure;
    const contents = [JSON.stringify({ type: "start", replay: skeleton })]
      .concat(replay.moves.slice(0, 4).map((mv) => JSON.stringify({ type: "move", move: mv })));
    const server = judgerStub((conn) => {
      // Garbage first: shown as errors, then forgotten.
      conn.socket.write(frameOf("not json"));
      conn.send({ request: "watch", content: 5 });
      conn.send({ request: "watch", content: contents[1] });
      conn.send({ request: "history", content: contents.slice(0, 3) });
      conn.send({ request: "watch", content: contents[3] });
      conn.send({ request: "watch", content: contents[4] });
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const url = `ws://127.0.0.1:${server.address().port}/live/ws/_9`;
    const token = Buffer.from(url).toString("base64");
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await page.evaluate((t) => window.post({ message: "init_spectator_player", token: t }), token);
    await until(async () => (await liveState(frame).catch(() => ({}))).frames === 5, "five frames");
    const conn = stubConns(server)[0];
    assert.equal(conn.path, "/live/ws/_9");
    assert.deepEqual(conn.got.map((t) => JSON.parse(t)), [{ request: "connect", token }]);
    const s = await liveState(frame);
    assert.equal(s.msg, "Watching live.");
    await clickCell(frame, [2, 3]);
    assert.equal((await liveState(frame)).sent.length, 1, "a spectator sends no action");
    await page.close();
    server.close();
  });
});

describe("reconnection (issue 33)", () => {
  test("a hub that answers 404 for longer than the old six tries (a server restarting): the player keeps trying, saying so, then streams again", async () => {
    const replay = JSON.parse(readFileSync(path.join(process.env.WWW_DIR, "samples", "reversi-8.json"), "utf8"));
    const skeleton = { ...replay, moves: [], result: { winner: null, reason: { kind: "aborted", message: "unfinished" } } };
    delete skeleton.scores; delete skeleton.failure;
    const contents = [JSON.stringify({ type: "start", replay: skeleton })]
      .concat(replay.moves.slice(0, 4).map((mv) => JSON.stringify({ type: "move", move: mv })));
    let down = false;
    const server = judgerStub((conn) => conn.send({ request: "history", content: contents }), { refuse: () => down });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const token = Buffer.from(`ws://127.0.0.1:${server.address().port}/live/ws/_9`).toString("base64");
    const page = await hostPage(browser);
    const frame = await playerFrame(page);
    await page.evaluate((t) => window.post({ message: "init_spectator_player", token: t }), token);
    await until(async () => (await liveState(frame).catch(() => ({}))).frames === 5, "five frames");
    // The server goes down: every handshake answered 404.
    down = true;
    stubConns(server)[0].socket.destroy();
    const seen = new Set();
    // The old player tried 6 times over 31.5 s and gave up; this one tries a 7th and more.
    await until(async () => {
      const msg = (await liveState(frame)).msg;
      if (!seen.size && msg === "Watching live.") return false; // the close on its way
      assert.match(msg, /^Connection lost: reconnecting in .+ \(try \d+, for up to 5 minutes\)…$/, "a visible message all along");
      seen.add(msg);
      return server.refused >= 7;
    }, "seven refused handshakes", 90000);
    assert.ok(seen.size >= 6, `the message follows the tries: ${[...seen].join(" | ")}`);
    await page.screenshot({ path: path.join(ARTIFACTS, "live-reconnecting.png") });
    // The server is back: the game streams again.
    down = false;
    await until(() => stubConns(server).length === 2, "a reconnection once the hub is back", 20000);
    await until(async () => (await liveState(frame)).msg === "Watching live.", "watching again", 10000);
    assert.equal((await liveState(frame)).frames, 5);
    await page.close();
    server.close();
  });
});

function stubConns(server) {
  return server.conns;
}
function contentsOf(server) {
  return server.conns.map((c) => c.got);
}
