//! Live hub figures (prints them; `cargo bench -p arbiter --bench live`):
//!
//! 1. 200 spectators on one 16 x 16 Reversi game whose bots take 50 ms a move: every spectator
//!    must receive every move; the delivery lag (from the referee recording a move to a
//!    spectator's socket reading it) p50/p95/max (goal p95 under 100 ms);
//! 2. the referee's own time per move with instant bots, with and without 200 spectators
//!    (the game never waits for them: the figures should match).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::Replay;
use arbiter_live::{token, Hub, HubOptions, LiveGame};
use arbiter_match::game::{
    play_live, BotSpec, GameLimits, GameSpec, LimitOverrides, Played, Seats,
};
use arbiter_match::live::{Live, Observer};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const SPECTATORS: usize = 200;

fn rbot() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c");
    let out = std::env::temp_dir().join(format!("arbiter-live-bench-rbot-{}", std::process::id()));
    let ok = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    out
}

/// Records when each move was recorded, then passes it to the hub.
struct Timed {
    inner: arbiter_live::game::GameObserver,
    times: Arc<Mutex<Vec<Instant>>>,
}

impl Observer for Timed {
    fn started(&mut self, replay: &Replay, limits: &GameLimits) {
        self.inner.started(replay, limits);
    }
    fn moved(&mut self, replay: &Replay) {
        self.times.lock().unwrap().push(Instant::now());
        self.inner.moved(replay);
    }
    fn ended(&mut self, replay: &Replay) {
        self.inner.ended(replay);
    }
}

/// CPU time of the calling thread: what the referee itself spent, whatever else the machine
/// was doing (on 2 cores the spectators' sockets compete with it for the processor).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn play(
    game: Arc<LiveGame>,
    bot: &Path,
    mode: &str,
    times: Arc<Mutex<Vec<Instant>>>,
) -> std::thread::JoinHandle<(Played, Duration)> {
    let bot = bot.to_path_buf();
    let mode = mode.to_string();
    std::thread::spawn(move || {
        let mut config = GameConfig::default_for("reversi").unwrap();
        if let GameConfig::Reversi(c) = &mut config {
            c.size = 16;
        }
        let limits = LimitOverrides {
            move_ms: Some(5000),
            game_ms: Some(0),
            ..Default::default()
        }
        .apply(&config);
        let spec = GameSpec {
            config,
            opening: Vec::new(),
            limits,
            event: None,
            seed: None,
            max_plies: arbiter_match::game::MAX_PLIES,
        };
        let b = |name: &str, seed: u32| BotSpec {
            name: name.into(),
            command: format!("{} 16 {seed} {mode}", bot.display()),
            protocol: ProtocolKind::Reversi,
            working_dir: None,
            sees: None,
        };
        let scratch = tempfile::tempdir().unwrap();
        let containment = Containment::detect();
        let cpus = containment.online_cpus().to_vec();
        let seats = Seats {
            cores: vec![
                cpus.first().copied(),
                cpus.get(1).copied().or(cpus.first().copied()),
            ],
            scratch_root: scratch.path().to_path_buf(),
        };
        let mut observer = Timed {
            inner: game.observer(),
            times,
        };
        let live = Live {
            observer: Some(&mut observer),
            remote: vec![None, None],
        };
        let cpu0 = thread_cpu();
        let played = play_live(&spec, &[&b("a", 1), &b("b", 2)], &seats, &containment, live);
        (played, thread_cpu() - cpu0)
    })
}

/// Connects `n` spectators; each returns the instants at which it read each move.
async fn spectators(base: &str, id: u64, n: usize) -> Vec<tokio::task::JoinHandle<Vec<Instant>>> {
    let mut out = Vec::new();
    for _ in 0..n {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("{base}/_{id}"))
            .await
            .unwrap();
        ws.send(Message::Text(
            json!({"request": "connect", "token": token::spectator(base, id)})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        out.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(Ok(m)) = ws.next().await {
                let Message::Text(t) = m else { continue };
                let v: Value = serde_json::from_str(&t).unwrap();
                let contents: Vec<String> = match v["request"].as_str() {
                    Some("history") => v["content"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap().to_string())
                        .collect(),
                    Some("watch") => vec![v["content"].as_str().unwrap().to_string()],
                    _ => vec![],
                };
                for c in contents {
                    if c.contains("\"type\":\"move\"") {
                        got.push(Instant::now());
                    }
                    if c.contains("\"type\":\"end\"") {
                        return got;
                    }
                }
            }
            got
        }));
    }
    out
}

fn pct(v: &[f64], p: f64) -> f64 {
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

async fn per_move_overhead(
    hub: &Arc<Hub>,
    base: &str,
    bot: &Path,
    watchers: usize,
) -> (f64, f64, usize) {
    let game = hub.open("overhead");
    let waiting = spectators(base, game.id, watchers).await;
    let handle = play(Arc::clone(&game), bot, "", Arc::new(Mutex::new(Vec::new())));
    let (played, cpu) = tokio::task::spawn_blocking(move || handle.join().unwrap())
        .await
        .unwrap();
    for w in waiting {
        w.await.unwrap();
    }
    let moves = played.replay.moves.len();
    let think: f64 = played.replay.moves.iter().filter_map(|m| m.time_ms).sum();
    // The referee's own share of the move loop: its wall time minus the bots' thinking.
    let own = (played.timing.moves.as_secs_f64() * 1000.0 - think).max(0.0) / moves as f64;
    (own * 1000.0, cpu.as_secs_f64() * 1e6 / moves as f64, moves)
}

#[tokio::main]
async fn main() {
    let bot = rbot();
    let hub = Hub::new(
        HubOptions {
            per_address: 4 * SPECTATORS,
            ..HubOptions::default()
        },
        None,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("ws://{}/live/ws", listener.local_addr().unwrap());
    tokio::spawn(arbiter_live::serve(Arc::clone(&hub), listener));

    // 1. Delivery lag with 200 spectators of a game at 50 ms a move.
    let game = hub.open("lag");
    let times = Arc::new(Mutex::new(Vec::new()));
    let waiting = spectators(&base, game.id, SPECTATORS).await;
    let handle = play(Arc::clone(&game), &bot, "slow", Arc::clone(&times));
    let (played, _) = tokio::task::spawn_blocking(move || handle.join().unwrap())
        .await
        .unwrap();
    let sent = times.lock().unwrap().clone();
    let mut lags = Vec::new();
    let mut complete = 0;
    for w in waiting {
        let got = w.await.unwrap();
        if got.len() == sent.len() {
            complete += 1;
        }
        for (s, r) in sent.iter().zip(&got) {
            lags.push(r.saturating_duration_since(*s).as_secs_f64() * 1000.0);
        }
    }
    lags.sort_by(f64::total_cmp);
    println!(
        "{SPECTATORS} spectators of a {}-move game (bots 50 ms a move): {complete} of {SPECTATORS} received every move; \
         delivery lag p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms (goal p95 < 100 ms)",
        played.replay.moves.len(),
        pct(&lags, 0.5),
        pct(&lags, 0.95),
        pct(&lags, 0.99),
        lags.last().copied().unwrap_or(0.0)
    );

    // 2. The referee's time per move with instant bots, without and with spectators.
    for round in 0..2 {
        let (alone, alone_cpu, n) = per_move_overhead(&hub, &base, &bot, 0).await;
        let (watched, watched_cpu, m) = per_move_overhead(&hub, &base, &bot, SPECTATORS).await;
        println!(
            "run {}: referee per move, instant bots, 16x16 ({n}/{m} moves): CPU {alone_cpu:.1} us alone, {watched_cpu:.1} us with {SPECTATORS} spectators; \
             wall (less the bots' thinking) {alone:.1} us alone, {watched:.1} us with them (the spectators' sockets share this machine's 2 cores)",
            round + 1
        );
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
}
