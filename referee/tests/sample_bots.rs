//! The sample bots in bots/ (C and Python) as real processes, each driven through whole games
//! by a small referee written here that speaks the protocol and validates every move with the
//! engine. Bots that are not engine-driven here play each other or an engine random mover.
//!
//! C bots are compiled with `cc` into a temporary directory; without `cc` (or `python3`) the
//! affected tests print why and pass without playing.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::error::StepKind;
use arbiter_engine::gomoku::{self, Gomoku, Point, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::{Game, Seat};

// ---------------------------------------------------------------- finding and building bots

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots")
}

fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// The directory with every C bot compiled, or `None` (with a message) when `cc` is missing.
fn c_bin_dir() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if !have("cc", "--version") {
            eprintln!("SKIPPED: no `cc` on PATH, the C sample bots are not tested");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("arbiter-sample-bots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let sources = std::fs::read_dir(bots_dir().join("c")).expect("bots/c exists");
        for entry in sources {
            let path = entry.expect("dir entry").path();
            if path.extension().is_some_and(|e| e == "c") {
                let name = path
                    .file_stem()
                    .expect("stem")
                    .to_string_lossy()
                    .to_string();
                let out = Command::new("cc")
                    .arg("-O2")
                    .arg("-o")
                    .arg(dir.join(&name))
                    .arg(&path)
                    .output()
                    .expect("run cc");
                assert!(
                    out.status.success(),
                    "cc failed on {name}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        Some(dir)
    })
    .as_ref()
}

fn python_ok() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        let ok = have("python3", "--version");
        if !ok {
            eprintln!("SKIPPED: no `python3` on PATH, the Python sample bots are not tested");
        }
        ok
    })
}

/// How to start one bot: a label and a command line.
#[derive(Clone, Debug)]
struct BotSpec {
    label: String,
    argv: Vec<String>,
}

fn c_bot(name: &str, args: &[&str]) -> Option<BotSpec> {
    let dir = c_bin_dir()?;
    let mut argv = vec![dir.join(name).to_string_lossy().to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    Some(BotSpec {
        label: format!("c/{name}"),
        argv,
    })
}

fn py_bot(file: &str, args: &[&str]) -> Option<BotSpec> {
    if !python_ok() {
        return None;
    }
    let mut argv = vec![
        "python3".to_string(),
        bots_dir()
            .join("python")
            .join(file)
            .to_string_lossy()
            .to_string(),
    ];
    argv.extend(args.iter().map(|a| a.to_string()));
    Some(BotSpec {
        label: format!("python/{file}"),
        argv,
    })
}

/// The C and the Python versions of a bot (those that can run here).
fn both(name: &str, args: &[&str]) -> Vec<BotSpec> {
    [c_bot(name, args), py_bot(&format!("{name}.py"), args)]
        .into_iter()
        .flatten()
        .collect()
}

// ---------------------------------------------------------------- a bot process

struct Proc {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    line_end: &'static str,
}

impl Proc {
    fn start(spec: &BotSpec) -> Proc {
        let mut child = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", spec.label));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            if let Ok(mut s) = sink.lock() {
                s.push_str(&text);
            }
        });
        Proc {
            label: spec.label.clone(),
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            line_end: "\n",
        }
    }

    fn fail(&self, why: &str) -> ! {
        thread::sleep(Duration::from_millis(100));
        let err = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        panic!("{}: {why}\n--- its stderr ---\n{err}", self.label);
    }

    fn send(&mut self, line: &str) {
        let text = format!("{line}{}", self.line_end);
        let ok = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()),
            None => Ok(()),
        };
        if ok.is_err() {
            self.fail(&format!("stopped reading (sending {line:?})"));
        }
    }

    /// The next answer, skipping DEBUG / MESSAGE lines and empty lines.
    fn answer(&mut self) -> String {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(20)) {
                Ok(line) => {
                    let line = line.trim_end_matches('\r').to_string();
                    if line.is_empty() || line.starts_with("DEBUG") || line.starts_with("MESSAGE") {
                        continue;
                    }
                    return line;
                }
                Err(_) => self.fail("no answer within 20 s (or it exited)"),
            }
        }
    }

    /// Nothing but DEBUG / MESSAGE arrived unasked (checked after a short pause).
    fn assert_silent(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            if !(line.is_empty() || line.starts_with("DEBUG") || line.starts_with("MESSAGE")) {
                self.fail(&format!("unexpected line {line:?}"));
            }
        }
    }

    /// Closes stdin and expects a clean exit within 5 s (killed otherwise).
    fn finish(mut self, must_exit_cleanly: bool) {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    if must_exit_cleanly && !status.success() {
                        self.fail(&format!("exited with {status}"));
                    }
                    return;
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    if must_exit_cleanly {
                        self.fail("did not exit after the end of the game");
                    }
                    return;
                }
            }
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// SplitMix64, for the engine random mover.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((u128::from(z) * n as u128) >> 64) as usize
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
}

fn end_code(winner: Option<Seat>, seat: Seat) -> u8 {
    match winner {
        None => 0,
        Some(w) if w == seat => 1,
        Some(_) => 2,
    }
}

// ---------------------------------------------------------------- reversi

/// One Reversi game between two sides (a bot process, or the engine's random mover for
/// `None`); returns the winner.
fn reversi_game(size: u8, sides: [Option<&BotSpec>; 2], seed: u64) -> Option<Seat> {
    let mut procs: [Option<Proc>; 2] = sides.map(|s| s.map(Proc::start));
    let mut rng = Rng(seed);
    let mut game = Reversi::new(&reversi::Config { size }).expect("size");
    for seat in Seat::BOTH {
        if let Some(p) = procs[seat.index()].as_mut() {
            p.send(&format!("START {}", seat.index() + 1));
            let ok = p.answer();
            if ok != "OK" {
                p.fail(&format!("answered {ok:?} to START"));
            }
        }
    }
    while let Some(seat) = game.to_move() {
        if let Some(pass) = game.forced_move() {
            game.play(pass).expect("pass");
            continue;
        }
        let (row, col) = match procs[seat.index()].as_mut() {
            Some(p) => {
                p.send("TURN");
                let answer = p.answer();
                let parsed: Vec<u8> = answer
                    .split(' ')
                    .map(|w| w.parse().unwrap_or(u8::MAX))
                    .collect();
                let [row, col] = parsed[..] else {
                    p.fail(&format!("malformed answer {answer:?}"));
                };
                if let Err(e) = game.play(reversi::Move::Place { row, col }) {
                    p.fail(&format!("illegal move {answer:?}: {e}\n{game}"));
                }
                (row, col)
            }
            None => {
                let places: Vec<(u8, u8)> = game.legal_places().collect();
                let (row, col) = rng.pick(&places);
                game.play(reversi::Move::Place { row, col }).expect("legal");
                (row, col)
            }
        };
        if let Some(p) = procs[seat.other().index()].as_mut() {
            p.send(&format!("PLACE {row} {col}"));
        }
        for p in procs.iter_mut().flatten() {
            p.assert_silent();
        }
    }
    let winner = game.outcome().and_then(|o| o.winner);
    for seat in Seat::BOTH {
        if let Some(mut p) = procs[seat.index()].take() {
            p.send(&format!("END {}", end_code(winner, seat)));
            p.finish(true);
        }
    }
    winner
}

#[test]
fn reversi_bots_play_whole_games() {
    for (size, arg) in [
        (8u8, Some("8")),
        (6, Some("6")),
        (16, None),
        (10, Some("10")),
    ] {
        let args: Vec<&str> = arg.into_iter().collect();
        let mut bots = both("reversi_random", &args);
        bots.extend(both("reversi_greedy", &args));
        for (i, bot) in bots.iter().enumerate() {
            let seed = u64::from(size) * 100 + i as u64;
            reversi_game(size, [Some(bot), None], seed);
            reversi_game(size, [None, Some(bot)], seed + 50);
        }
        // And bot against bot: each greedy against the other language's random.
        if bots.len() == 4 {
            reversi_game(size, [Some(&bots[2]), Some(&bots[1])], 1);
            reversi_game(size, [Some(&bots[0]), Some(&bots[3])], 2);
        }
    }
}

#[test]
fn reversi_greedy_bots_beat_random_movers_more_often_than_not() {
    for bot in both("reversi_greedy", &["8"]) {
        let mut wins = 0;
        for game in 0..10u64 {
            let seat = if game % 2 == 0 {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            let mut sides = [None, None];
            sides[seat.index()] = Some(&bot);
            if reversi_game(8, sides, 700 + game) == Some(seat) {
                wins += 1;
            }
        }
        assert!(
            wins >= 5,
            "{} won only {wins} of 10 against random",
            bot.label
        );
    }
}

// ---------------------------------------------------------------- gomoku: gobang

/// The engine's opponent for Gomoku: a five when it has one, else random near the last stone.
fn gomoku_random(game: &Gomoku, rng: &mut Rng) -> Point {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let me = game.to_move().expect("running");
    for &p in &moves {
        let mut g = game.clone();
        g.play(p).expect("legal");
        if g.outcome().is_some_and(|o| o.winner == Some(me)) {
            return p;
        }
    }
    let last = game.history().last().copied();
    let near: Vec<Point> = moves
        .iter()
        .copied()
        .filter(|p| last.is_some_and(|l| p.x.abs_diff(l.x) <= 2 && p.y.abs_diff(l.y) <= 2))
        .collect();
    rng.pick(if near.is_empty() { &moves } else { &near })
}

fn gobang_game(sides: [Option<&BotSpec>; 2], seed: u64) -> Option<Seat> {
    let config = gomoku::Config {
        size: 15,
        rule: Rule::Freestyle,
    };
    let mut game = Gomoku::new(&config).expect("config");
    let mut procs: [Option<Proc>; 2] = sides.map(|s| s.map(Proc::start));
    let mut rng = Rng(seed);
    for seat in Seat::BOTH {
        if let Some(p) = procs[seat.index()].as_mut() {
            let ready = p.answer();
            if ready != "READY" {
                p.fail(&format!("first line {ready:?}, not READY"));
            }
            p.send(if seat == Seat::FIRST {
                "BLACK"
            } else {
                "WHITE"
            });
        }
    }
    while let Some(seat) = game.to_move() {
        let p = match procs[seat.index()].as_mut() {
            Some(proc_) => {
                let answer = proc_.answer();
                let Some(text) = answer.strip_prefix("MOVE ") else {
                    proc_.fail(&format!("not a MOVE line: {answer:?}"));
                };
                let p = match game.parse_move(text) {
                    Ok(p) if text.starts_with(|c: char| c.is_ascii_uppercase()) => p,
                    _ => proc_.fail(&format!("malformed move {answer:?}")),
                };
                if let Err(e) = game.play(p) {
                    proc_.fail(&format!("illegal move {answer:?}: {e}"));
                }
                p
            }
            None => {
                let p = gomoku_random(&game, &mut rng);
                game.play(p).expect("legal");
                p
            }
        };
        if game.to_move().is_some() {
            let text = game.format_move(p);
            if let Some(other) = procs[seat.other().index()].as_mut() {
                other.send(&format!("MOVE {text}"));
            }
        }
    }
    // No end command in this protocol: the referee kills the bots.
    for p in procs.into_iter().flatten() {
        p.finish(false);
    }
    game.outcome().and_then(|o| o.winner)
}

#[test]
fn gobang_bots_play_whole_games() {
    let mut bots = both("gobang_random", &[]);
    bots.extend(both("gobang_greedy", &[]));
    for (i, bot) in bots.iter().enumerate() {
        gobang_game([Some(bot), None], i as u64);
        gobang_game([None, Some(bot)], 10 + i as u64);
    }
    if bots.len() == 4 {
        gobang_game([Some(&bots[2]), Some(&bots[3])], 1);
        gobang_game([Some(&bots[1]), Some(&bots[2])], 2);
    }
}

#[test]
fn gobang_greedy_bots_beat_the_near_random_mover() {
    for bot in both("gobang_greedy", &[]) {
        let mut wins = 0;
        for game in 0..4u64 {
            let seat = if game % 2 == 0 {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            let mut sides = [None, None];
            sides[seat.index()] = Some(&bot);
            if gobang_game(sides, 300 + game) == Some(seat) {
                wins += 1;
            }
        }
        assert!(wins >= 3, "{} won only {wins} of 4", bot.label);
    }
}

// ---------------------------------------------------------------- gomoku: gomocup

fn parse_xy(p: &mut Proc, answer: &str) -> Point {
    let parsed: Vec<u8> = answer
        .split(',')
        .map(|w| w.trim().parse().unwrap_or(u8::MAX))
        .collect();
    match parsed[..] {
        [x, y] if x != u8::MAX && y != u8::MAX => Point::new(x, y),
        _ => p.fail(&format!("malformed answer {answer:?}")),
    }
}

fn gomocup_game(size: u8, sides: [Option<&BotSpec>; 2], seed: u64) -> Option<Seat> {
    let config = gomoku::Config {
        size,
        rule: Rule::Freestyle,
    };
    let mut game = Gomoku::new(&config).expect("config");
    let mut procs: [Option<Proc>; 2] = sides.map(|s| s.map(Proc::start));
    let mut rng = Rng(seed);
    for p in procs.iter_mut().flatten() {
        p.line_end = "\r\n";
        p.send(&format!("START {size}"));
        let ok = p.answer();
        if ok != "OK" {
            p.fail(&format!("answered {ok:?} to START"));
        }
        for info in [
            "INFO timeout_turn 5000",
            "INFO timeout_match 180000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO rule 0",
            "INFO folder /tmp",
        ] {
            p.send(info);
        }
    }
    let mut last: Option<Point> = None;
    while let Some(seat) = game.to_move() {
        let p = match procs[seat.index()].as_mut() {
            Some(proc_) => {
                proc_.send("INFO time_left 170000");
                match last {
                    None => proc_.send("BEGIN"),
                    Some(l) => proc_.send(&format!("TURN {},{}", l.x, l.y)),
                }
                let answer = proc_.answer();
                let p = parse_xy(proc_, &answer);
                if let Err(e) = game.play(p) {
                    proc_.fail(&format!("illegal move {answer:?}: {e}"));
                }
                p
            }
            None => {
                let p = gomoku_random(&game, &mut rng);
                game.play(p).expect("legal");
                p
            }
        };
        last = Some(p);
        for proc_ in procs.iter_mut().flatten() {
            proc_.assert_silent();
        }
    }
    for p in procs.iter_mut().flatten() {
        p.send("END");
    }
    for p in procs.into_iter().flatten() {
        p.finish(true);
    }
    game.outcome().and_then(|o| o.winner)
}

#[test]
fn gomocup_bots_play_whole_games_on_several_sizes() {
    let mut bots = both("gomocup_random", &[]);
    bots.extend(both("gomocup_greedy", &[]));
    for (size, seed) in [(15u8, 0u64), (20, 40), (9, 80)] {
        for (i, bot) in bots.iter().enumerate() {
            gomocup_game(size, [Some(bot), None], seed + i as u64);
            gomocup_game(size, [None, Some(bot)], seed + 20 + i as u64);
        }
        if bots.len() == 4 {
            gomocup_game(size, [Some(&bots[3]), Some(&bots[2])], seed);
        }
    }
}

#[test]
fn gomocup_bots_answer_board_about_restart_and_unknown() {
    let mut bots = both("gomocup_random", &[]);
    bots.extend(both("gomocup_greedy", &[]));
    for bot in &bots {
        let greedy = bot.label.contains("greedy");
        let mut p = Proc::start(bot);
        p.line_end = "\r\n";
        p.send("START 15");
        assert_eq!(p.answer(), "OK", "{}", bot.label);
        p.send("ABOUT");
        let about = p.answer();
        assert!(
            about.starts_with("name=\""),
            "{}: ABOUT gave {about:?}",
            bot.label
        );
        // The opponent (f = 2) has the open four 7..10,7; seven stones: we are white.
        p.send("BOARD");
        let stones = [
            "7,7,2", "0,0,1", "8,7,2", "0,2,1", "9,7,2", "14,14,1", "10,7,2",
        ];
        for s in stones {
            p.send(s);
        }
        p.send("DONE");
        let answer = p.answer();
        let point = parse_xy(&mut p, &answer);
        let taken: Vec<Point> = stones
            .iter()
            .map(|s| {
                let v: Vec<u8> = s.split(',').map(|w| w.parse().expect("number")).collect();
                Point::new(v[0], v[1])
            })
            .collect();
        assert!(!taken.contains(&point), "{} played on a stone", bot.label);
        if greedy {
            assert!(
                point == Point::new(6, 7) || point == Point::new(11, 7),
                "{} did not block the four: {point:?}",
                bot.label
            );
        }
        p.send("RESTART");
        assert_eq!(p.answer(), "OK", "{}", bot.label);
        p.send("BEGIN");
        let answer = p.answer();
        let first = parse_xy(&mut p, &answer);
        assert!(first.x < 15 && first.y < 15);
        p.send("YXSHOWFORBID");
        assert!(p.answer().starts_with("UNKNOWN"), "{}", bot.label);
        p.send("END");
        p.finish(true);
    }
}

// ---------------------------------------------------------------- the 2048 duel

fn duel_text(mv: duel2048::Move) -> String {
    match mv {
        duel2048::Move::Place { row, col } => format!("{row} {col}"),
        duel2048::Move::Slide(d) => d.as_str().to_string(),
        duel2048::Move::Skip => "skip".to_string(),
    }
}

/// One duel through the `duel` protocol between two sides; returns the winner.
fn duel_game(rounds: u16, sides: [Option<&BotSpec>; 2], seed: u64) -> Option<Seat> {
    let config = duel2048::Config {
        rounds,
        random: RandomSource::Seed(seed),
    };
    let mut game = Duel::new(&config).expect("config");
    let mut procs: [Option<Proc>; 2] = sides.map(|s| s.map(Proc::start));
    let mut rng = Rng(seed ^ 0x55);
    let values: Vec<String> = game.sequence().iter().map(|v| v.to_string()).collect();
    let random_line = format!("RANDOM {}", values.join(" "));
    for seat in Seat::BOTH {
        if let Some(p) = procs[seat.index()].as_mut() {
            p.send(&format!("START {} {rounds}", seat.index()));
            p.send(&random_line);
            let ok = p.answer();
            if ok != "OK" {
                p.fail(&format!("answered {ok:?} to RANDOM"));
            }
        }
    }
    while let Some(seat) = game.to_move() {
        let round = game.round();
        let mv = match (game.forced_move(), procs[seat.index()].as_mut()) {
            (Some(skip), proc_) => {
                if let Some(p) = proc_ {
                    p.send(&format!("SKIP {round}"));
                }
                skip
            }
            (None, Some(p)) => {
                let kind = match game.step_kind() {
                    StepKind::Place => "PLACE",
                    StepKind::Slide => "SLIDE",
                };
                // Both clocks, as the referee sends them (own, then the opponent's).
                p.send(&format!("{kind} {round} 5000 4321"));
                let answer = p.answer();
                match game.parse_move(&answer) {
                    Ok(mv) => mv,
                    Err(e) => p.fail(&format!("malformed answer {answer:?}: {e}")),
                }
            }
            (None, None) => {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                rng.pick(&moves)
            }
        };
        if let Err(e) = game.play(mv) {
            let board = game.board_text();
            if let Some(p) = procs[seat.index()].as_ref() {
                p.fail(&format!(
                    "illegal decision {mv:?} in round {round}: {e}\n{board}"
                ));
            }
            panic!("engine mover played an illegal move: {e}");
        }
        if let Some(other) = procs[seat.other().index()].as_mut() {
            other.send(&format!("OPPONENT {}", duel_text(mv)));
        }
        for p in procs.iter_mut().flatten() {
            p.assert_silent();
        }
    }
    let winner = game.outcome().and_then(|o| o.winner);
    for seat in Seat::BOTH {
        if let Some(mut p) = procs[seat.index()].take() {
            p.send(&format!("END {}", end_code(winner, seat)));
            p.finish(true);
        }
    }
    winner
}

#[test]
fn duel_bots_play_full_games_against_the_engine_mover() {
    let mut bots = both("duel_random", &[]);
    bots.extend(both("duel_greedy", &[]));
    for (i, bot) in bots.iter().enumerate() {
        duel_game(500, [Some(bot), None], 10 + i as u64);
        duel_game(500, [None, Some(bot)], 20 + i as u64);
    }
}

#[test]
fn duel_bots_play_each_other() {
    let mut bots = both("duel_random", &[]);
    bots.extend(both("duel_greedy", &[]));
    for (a, b) in [(0, 3), (2, 1), (3, 2), (1, 0)] {
        if let (Some(x), Some(y)) = (bots.get(a), bots.get(b)) {
            duel_game(500, [Some(x), Some(y)], 30 + a as u64 * 7 + b as u64);
        }
    }
}

#[test]
fn duel_greedy_bots_beat_random_movers() {
    for bot in both("duel_greedy", &[]) {
        let mut wins = 0;
        for game in 0..4u64 {
            let seat = if game % 2 == 0 {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            let mut sides = [None, None];
            sides[seat.index()] = Some(&bot);
            if duel_game(500, sides, 600 + game) == Some(seat) {
                wins += 1;
            }
        }
        assert!(
            wins >= 3,
            "{} won only {wins} of 4 against random",
            bot.label
        );
    }
}

// ---------------------------------------------------------------- sessdsa host

fn sessdsa(ai: &str) -> Option<BotSpec> {
    let path = bots_dir()
        .join("python/sessdsa_examples")
        .join(ai)
        .to_string_lossy()
        .to_string();
    py_bot("sessdsa_host.py", &[&path]).map(|mut s| {
        s.label = format!("sessdsa_host.py {ai}");
        s
    })
}

#[test]
fn sessdsa_host_runs_original_style_ais_through_a_full_duel() {
    let (Some(random), Some(greedy)) = (sessdsa("random_player.py"), sessdsa("greedy_player.py"))
    else {
        return;
    };
    duel_game(500, [Some(&random), Some(&greedy)], 7);
    duel_game(500, [Some(&greedy), Some(&random)], 8);
    // And against the engine mover, which places into the AI's half as well.
    duel_game(500, [Some(&greedy), None], 9);
    duel_game(500, [None, Some(&random)], 10);
}

#[test]
fn sessdsa_host_reports_an_exception_as_a_crash() {
    if !python_ok() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("arbiter-sessdsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ai = dir.join("broken_player.py");
    std::fs::write(
        &ai,
        "class Player:\n    def __init__(self, isFirst, array):\n        pass\n    \
         def output(self, currentRound, board, mode):\n        print('thinking...')\n        \
         return 1 // 0\n",
    )
    .expect("write AI");
    let spec = py_bot("sessdsa_host.py", &[&ai.to_string_lossy()]).expect("python");
    let mut p = Proc::start(&spec);
    p.send("START 0 3");
    p.send("RANDOM 1 2 3");
    assert_eq!(p.answer(), "OK");
    p.send("PLACE 0 5000");
    // The AI's print must not reach the protocol, and the host must exit non-zero.
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Ok(Some(status)) = p.child.try_wait() {
            break status;
        }
        assert!(Instant::now() < deadline, "the host did not exit");
        thread::sleep(Duration::from_millis(10));
    };
    assert!(!status.success(), "an exception must be a non-zero exit");
    thread::sleep(Duration::from_millis(100));
    assert!(
        p.lines.try_recv().is_err(),
        "the AI's print leaked to stdout"
    );
    let err = p.stderr.lock().map(|s| s.clone()).unwrap_or_default();
    assert!(
        err.contains("ZeroDivisionError"),
        "no traceback on stderr: {err}"
    );
    assert!(
        err.contains("thinking..."),
        "the AI's print should go to stderr: {err}"
    );
}

/// The host's board behaves as the original `Chessboard` where AIs that simulate can tell:
/// `add` onto an occupied cell keeps the old tile's entry in its owner's list (so both
/// players' `getScore` count the new tile), and `getNext` past the last round raises
/// `IndexError`. The expected lines are what the original `constants.Chessboard`
/// (pkulab409/sessdsa.2048, commit 5c553f5) prints for this script.
#[test]
fn sessdsa_host_board_matches_the_original_at_the_edges() {
    if !python_ok() {
        return;
    }
    let script = "\
import sessdsa_host as m
b = m.Chessboard((5, 7, 11))
b.add(True, (0, 3)); b.add(True, (0, 4))
print(b.move(True, 3), b.getRaw()[0][4])
b.add(True, (0, 4), 5)
print(b.getScore(True), b.getScore(False), b.getValue((0, 4)), b.getBelong((0, 4)))
b.add(False, (2, 1)); b.add(True, (2, 1), 3)
print(b.getScore(True))
print(b.getNext(True, 2), b.getNext(False, -1))
try:
    print(b.getNext(True, 3))
except IndexError as e:
    print('IndexError', e)
try:
    b.move(True, 4)
except TypeError:
    print('TypeError')
";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .env("PYTHONPATH", bots_dir().join("python"))
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "True (2, True)\n[5] [5] 5 False\n[3, 3, 5]\n(3, 0) (1, 4)\n\
         IndexError tuple index out of range\nTypeError\n"
    );
}

/// Extra original AI files to try through the host, from `ARBITER_SESSDSA_AIS` (paths
/// separated by `:`): each plays a full duel on both seats against the engine mover. Lets a
/// maintainer check real student files that cannot be committed here.
#[test]
fn sessdsa_host_runs_extra_ais_from_the_environment() {
    let Ok(list) = std::env::var("ARBITER_SESSDSA_AIS") else {
        eprintln!("ARBITER_SESSDSA_AIS not set: no extra original AIs to try");
        return;
    };
    for (i, path) in list.split(':').filter(|p| !p.is_empty()).enumerate() {
        let Some(mut spec) = py_bot("sessdsa_host.py", &[path]) else {
            return;
        };
        spec.label = format!("sessdsa_host.py {path}");
        duel_game(500, [Some(&spec), None], 40 + i as u64);
        duel_game(500, [None, Some(&spec)], 60 + i as u64);
    }
}
