//! Writes sample replays for the web player: random games of every game played through the
//! engine (so every one is valid), plus failure verdicts: one of each kind (illegal, malformed,
//! timeout, crash, memory) for 16 x 16 Reversi, renju and the 2048 duel, with the `failure`
//! record filled in as the referee writes it. Usage: `make_samples OUT_DIR`.

use std::path::Path;

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::gomoku::{self, Rule};
use arbiter_engine::replay::{Exit, Failure, Killer, MoveRecord, Player, Reason, Replay};
use arbiter_engine::reversi;
use arbiter_engine::Seat;

/// xorshift64*: deterministic samples without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Gomoku moves next to a stone make games end in a five instead of filling the board.
fn near_stones(g: &AnyGame, moves: Vec<AnyMove>) -> Vec<AnyMove> {
    let AnyGame::Gomoku(go) = g else { return moves };
    let hist = go.history();
    if hist.is_empty() {
        return moves;
    }
    let near: Vec<AnyMove> = moves
        .iter()
        .copied()
        .filter(|m| match m {
            AnyMove::Gomoku(p) => hist
                .iter()
                .any(|q| p.x.abs_diff(q.x) <= 1 && p.y.abs_diff(q.y) <= 1),
            _ => true,
        })
        .collect();
    if near.is_empty() {
        moves
    } else {
        near
    }
}

/// Plays up to `max_moves` random moves; returns the replay (result unset) and final position.
fn play(config: GameConfig, names: [&str; 2], seed: u64, max_moves: usize) -> (Replay, AnyGame) {
    play_from(config, &[], names, seed, max_moves)
}

/// [`play`] from an opening (moves in the game's notation, played before the players' moves).
fn play_from(
    config: GameConfig,
    opening: &[&str],
    names: [&str; 2],
    seed: u64,
    max_moves: usize,
) -> (Replay, AnyGame) {
    play_until(config, opening, names, seed, max_moves, |_| false)
}

/// [`play_from`], stopping early at the first position `stop` accepts.
fn play_until(
    config: GameConfig,
    opening: &[&str],
    names: [&str; 2],
    seed: u64,
    max_moves: usize,
    stop: impl Fn(&AnyGame) -> bool,
) -> (Replay, AnyGame) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let players = [0usize, 1].map(|i| Player {
        name: names[i].to_string(),
        seat: Seat::from_index(i).unwrap_or(Seat::FIRST),
        command: Some(String::from("builtin:random")),
    });
    let mut replay = Replay::new(config.clone(), players);
    let mut g = AnyGame::new(&config).expect("sample configurations are valid");
    for mv in opening {
        g.play_text(mv).expect("sample openings are legal");
        replay.opening.push(String::from(*mv));
    }
    while replay.moves.len() < max_moves && !stop(&g) {
        let Some(seat) = g.to_move() else { break };
        let legal = near_stones(&g, g.legal_moves());
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let text = g.format_move(mv);
        g.play(mv).expect("legal moves play");
        let mut rec = MoveRecord::new(seat, text);
        // The duel's bots share 5 s of thinking for the whole game: a few milliseconds a move.
        let scale = if let GameConfig::Duel2048(_) = config {
            100.0
        } else {
            10.0
        };
        rec.time_ms = Some((rng.below(4000) as f64) / scale);
        rec.cpu_ms = rec.time_ms.map(|t| t * 0.9);
        if rng.below(3) == 0 {
            rec.log = Some(format!(
                "depth {} eval {:+} nodes {}",
                1 + rng.below(8),
                rng.below(200) as i64 - 100,
                rng.below(100_000)
            ));
        }
        replay.moves.push(rec);
    }
    (replay, g)
}

/// Ends the replay by the rules: the engine's outcome.
fn finish_normal(mut replay: Replay, g: &AnyGame) -> Replay {
    let o = g.outcome().expect("the game is over");
    replay.result.winner = o.winner;
    replay.result.reason = Reason::Normal;
    replay.scores = Some(g.scores());
    replay
}

/// Ends the replay with a failure verdict against the side to move.
fn finish_failure(mut replay: Replay, g: &AnyGame, make: impl Fn(Seat) -> Reason) -> Replay {
    let seat = g.to_move().expect("the game is running");
    replay.result.winner = Some(seat.other());
    replay.result.reason = make(seat);
    replay
}

fn write(dir: &Path, name: &str, replay: &Replay) {
    let text = replay.to_json_pretty();
    // Every sample must read back through the engine's strict reader.
    if let Err(e) = Replay::read(&text) {
        panic!("sample {name} does not read back: {e}");
    }
    std::fs::write(dir.join(name), text + "\n").expect("write sample");
    println!("{name}: {} moves", replay.moves.len());
}

fn reversi(size: u8) -> GameConfig {
    GameConfig::Reversi(reversi::Config { size })
}

fn gomoku(rule: Rule) -> GameConfig {
    GameConfig::Gomoku(gomoku::Config { size: 15, rule })
}

fn duel(rounds: u16, seed: u64) -> GameConfig {
    GameConfig::Duel2048(duel2048::Config {
        rounds,
        random: RandomSource::Seed(seed),
    })
}

/// The move of an illegal-move verdict as the referee writes it (`referee/src/game.rs`,
/// `move_text`): the game's notation, or the move's debug text when that does not read back
/// (a square off the board).
fn referee_move_text(g: &AnyGame, mv: AnyMove) -> String {
    let text = g.format_move(mv);
    match g.parse_move(&text) {
        Ok(back) if back == mv => text,
        _ => format!("{mv:?}"),
    }
}

/// An illegal-move verdict for `mv`, sent as `line`, with the engine's own reason.
fn illegal(g: &AnyGame, seat: Seat, mv: AnyMove, line: &str) -> Reason {
    let why = match g.clone().play(mv) {
        Err(arbiter_engine::any::MoveError::Illegal(i)) => i.to_string(),
        Err(other) => other.to_string(),
        Ok(()) => panic!("sample illegal move {mv:?} is legal"),
    };
    Reason::IllegalMove {
        seat,
        mv: referee_move_text(g, mv),
        why,
        line: Some(line.to_string()),
    }
}

/// What is left of `seat`'s game clock of `limit_ms` after its moves in `replay`.
fn clock_left(replay: &Replay, seat: Seat, limit_ms: f64) -> f64 {
    let used: f64 = replay
        .moves
        .iter()
        .filter(|m| m.seat == seat)
        .filter_map(|m| m.time_ms)
        .sum();
    ((limit_ms - used).max(0.0) * 10.0).round() / 10.0
}

/// The game clock of a configuration: the seeds' 180 s, the duel's 5 s of thinking.
fn game_clock_ms(config: &GameConfig) -> f64 {
    match config {
        GameConfig::Duel2048(_) => 5_000.0,
        _ => 180_000.0,
    }
}

/// The failure record of the side to move.
fn record(g: &AnyGame, log: &str, stderr: Option<&str>, exit: Option<Exit>) -> Failure {
    Failure {
        seat: g.to_move().expect("the game is running"),
        log: Some(log.to_string()).filter(|l| !l.is_empty()),
        stderr: stderr.map(str::to_string),
        exit,
        time_ms: None,
        clock_ms: None,
    }
}

/// A replay ended by `reason` against the side to move, with its failure record (its game
/// clock, when set, is what its moves left of the configuration's).
fn failed(mut replay: Replay, g: &AnyGame, reason: Reason, mut failure: Failure) -> Replay {
    let seat = g.to_move().expect("the game is running");
    if failure.clock_ms.is_some() {
        failure.clock_ms = Some(clock_left(&replay, seat, game_clock_ms(&replay.game)));
    }
    if let Reason::GameTime { .. } = reason {
        // It thought past what was left.
        failure.time_ms = failure.clock_ms.map(|c| ((c + 51.3) * 10.0).round() / 10.0);
    }
    replay.result.winner = Some(seat.other());
    replay.result.reason = reason;
    replay.failure = Some(failure);
    replay
}

const TRACEBACK: &str = "Traceback (most recent call last):
  File \"/home/student/bot/main.py\", line 88, in <module>
    move = choose(board, me)
  File \"/home/student/bot/main.py\", line 61, in choose
    best = max(scores, key=scores.get)
ValueError: max() arg is an empty sequence
";

const MB: u64 = 1024 * 1024;

fn killed_by_arbiter(why: &str) -> Exit {
    Exit {
        code: None,
        signal: Some(9),
        killed_by: Some(Killer::Arbiter),
        why: Some(why.to_string()),
    }
}

/// Malformed output, a timeout, a Python crash and a memory kill: the kinds whose failure is
/// not a move, for one game (`prefix`), each from its own random game.
fn common_failures(dir: &Path, prefix: &str, config: &GameConfig, timeout: Reason, seed: u64) {
    let names = ["student", "sparring"];
    let (r, g) = running(config, names, seed, 40);
    let seat = g.to_move().expect("running");
    let mut f = record(&g, "parsing board\nboard ok, 41 empty", None, None);
    f.time_ms = Some(3.4);
    f.clock_ms = Some(171_250.0);
    let reason = Reason::MalformedOutput {
        seat,
        line: String::from("I think the best move is here"),
    };
    write(
        dir,
        &format!("{prefix}-malformed.json"),
        &failed(r, &g, reason, f),
    );

    let (r, g) = running(config, names, seed + 1, 41);
    let seat = g.to_move().expect("running");
    let mut f = record(&g, "depth 6 best so far: +14\ndepth 7 ...", None, None);
    let reason = match timeout {
        Reason::MoveTime { limit_ms, .. } => {
            f.time_ms = Some(limit_ms as f64 + 51.3);
            f.clock_ms = Some(96_400.0);
            Reason::MoveTime { seat, limit_ms }
        }
        Reason::GameTime { limit_ms, .. } => {
            f.time_ms = Some(842.0);
            f.clock_ms = Some(790.5);
            Reason::GameTime { seat, limit_ms }
        }
        other => other,
    };
    write(
        dir,
        &format!("{prefix}-timeout.json"),
        &failed(r, &g, reason, f),
    );

    let (r, g) = running(config, names, seed + 2, 42);
    let seat = g.to_move().expect("running");
    let exit = Exit {
        code: Some(1),
        ..Exit::default()
    };
    let mut f = record(&g, "scores: {}", Some(TRACEBACK), Some(exit));
    f.time_ms = Some(38.7);
    f.clock_ms = Some(150_020.0);
    let reason = Reason::Crash {
        seat,
        exit_code: Some(1),
        signal: None,
    };
    write(
        dir,
        &format!("{prefix}-crash.json"),
        &failed(r, &g, reason, f),
    );

    let (r, g) = running(config, names, seed + 3, 43);
    let seat = g.to_move().expect("running");
    let exit = killed_by_arbiter("memory limit");
    let mut f = record(
        &g,
        "allocating the transposition table",
        Some(""),
        Some(exit),
    );
    f.stderr = None;
    f.time_ms = Some(612.0);
    f.clock_ms = Some(140_700.0);
    let reason = Reason::Memory {
        seat,
        limit_bytes: 350 * MB,
    };
    write(
        dir,
        &format!("{prefix}-memory.json"),
        &failed(r, &g, reason, f),
    );
}

/// A random game still running after `moves` moves (another seed while one ends earlier).
fn running(config: &GameConfig, names: [&str; 2], seed: u64, moves: usize) -> (Replay, AnyGame) {
    let mut seed = seed;
    loop {
        let (r, g) = play(config.clone(), names, seed, moves);
        if g.to_move().is_some() {
            return (r, g);
        }
        seed += 1000;
    }
}

/// 16 x 16 Reversi: a bot sends an occupied square in the protocol's `ROW COL`, and one sends
/// a square off the board.
fn reversi_failures(dir: &Path) {
    let (r, g) = play(reversi(16), ["student", "sparring"], 21, 57);
    let seat = g.to_move().expect("running");
    let AnyGame::Reversi(board) = &g else { return };
    let (row, col) = (0..16u8)
        .flat_map(|r| (0..16u8).map(move |c| (r, c)))
        .find(|&(r, c)| board.disc(r, c).is_some())
        .expect("discs on the board");
    let mv = AnyMove::Reversi(reversi::Move::Place { row, col });
    let reason = illegal(&g, seat, mv, &format!("{row} {col}"));
    let log = format!("my discs: 20\nthinking...\nchose {row} {col}");
    let mut f = record(&g, &log, Some(""), None);
    f.stderr = None;
    f.time_ms = Some(12.6);
    f.clock_ms = Some(174_380.0);
    write(
        dir,
        "reversi16-fail-illegal.json",
        &failed(r, &g, reason, f),
    );

    let (r, g) = play(reversi(16), ["student", "sparring"], 22, 31);
    let seat = g.to_move().expect("running");
    let mv = AnyMove::Reversi(reversi::Move::Place { row: 107, col: 6 });
    let reason = illegal(&g, seat, mv, "107 6");
    let mut f = record(&g, "best index 1718", None, None);
    f.time_ms = Some(4.1);
    f.clock_ms = Some(178_900.0);
    write(
        dir,
        "reversi16-fail-offboard.json",
        &failed(r, &g, reason, f),
    );

    let timeout = Reason::GameTime {
        seat: Seat::FIRST,
        limit_ms: 180_000,
    };
    common_failures(dir, "reversi16-fail", &reversi(16), timeout, 23);
}

/// Renju: Black plays one of its forbidden points (sent in Gomocup `x,y`).
fn renju_failures(dir: &Path) {
    let black_forbidden = |g: &AnyGame| match g {
        AnyGame::Gomoku(go) => {
            g.to_move() == Some(Seat::FIRST) && !go.forbidden_points().is_empty()
        }
        _ => false,
    };
    let mut seed = 31;
    let (r, g) = loop {
        let (r, g) = play_until(
            gomoku(Rule::Renju),
            &[],
            ["student", "sparring"],
            seed,
            200,
            black_forbidden,
        );
        if black_forbidden(&g) {
            break (r, g);
        }
        seed += 100;
    };
    let AnyGame::Gomoku(go) = &g else { return };
    let (p, _) = go.forbidden_points()[0];
    let mv = AnyMove::Gomoku(p);
    let reason = illegal(&g, Seat::FIRST, mv, &format!("{},{}", p.x, p.y));
    let mut f = record(
        &g,
        "threat search: 3 candidates\nplaying the double three",
        None,
        None,
    );
    f.time_ms = Some(230.4);
    f.clock_ms = Some(166_120.0);
    write(dir, "renju-fail-illegal.json", &failed(r, &g, reason, f));

    let timeout = Reason::MoveTime {
        seat: Seat::FIRST,
        limit_ms: 5000,
    };
    common_failures(dir, "renju-fail", &gomoku(Rule::Renju), timeout, 33);
}

/// The 2048 duel: a direction that leaves the board unchanged (sent as the original API's
/// digit), and a placement in the bot's own half other than the random sequence's cell.
fn duel_failures(dir: &Path) {
    let slide_without_change = |g: &AnyGame| match g {
        AnyGame::Duel2048(d) => {
            d.step_kind() == arbiter_engine::error::StepKind::Slide && g.legal_moves().len() < 4
        }
        _ => false,
    };
    let (r, g) = play_until(duel(50, 41), &[], ["student", "sparring"], 41, 150, |g| {
        g.ply() > 60 && slide_without_change(g)
    });
    let seat = g.to_move().expect("running");
    let d = duel2048::Direction::ALL
        .into_iter()
        .find(|&d| {
            !g.legal_moves()
                .contains(&AnyMove::Duel2048(duel2048::Move::Slide(d)))
        })
        .expect("an unchanged direction");
    let mv = AnyMove::Duel2048(duel2048::Move::Slide(d));
    let reason = illegal(&g, seat, mv, &format!("{}", d.index()));
    let mut f = record(&g, "eval left -3, right +5", None, None);
    f.time_ms = Some(21.0);
    f.clock_ms = Some(3_310.0);
    write(dir, "duel-fail-direction.json", &failed(r, &g, reason, f));

    let own_half_other_cell = |g: &AnyGame| match g {
        AnyGame::Duel2048(d) => {
            d.step_kind() == arbiter_engine::error::StepKind::Place && wrong_cell(d).is_some()
        }
        _ => false,
    };
    let (r, g) = play_until(duel(50, 42), &[], ["student", "sparring"], 42, 150, |g| {
        g.ply() > 40 && own_half_other_cell(g)
    });
    let seat = g.to_move().expect("running");
    let AnyGame::Duel2048(d) = &g else { return };
    let (row, col) = wrong_cell(d).expect("a cell");
    let mv = AnyMove::Duel2048(duel2048::Move::Place { row, col });
    let reason = illegal(&g, seat, mv, &format!("({row}, {col})"));
    let mut f = record(&g, "", None, None);
    f.time_ms = Some(2.2);
    f.clock_ms = Some(4_120.0);
    write(dir, "duel-fail-cell.json", &failed(r, &g, reason, f));

    let timeout = Reason::GameTime {
        seat: Seat::FIRST,
        limit_ms: 5000,
    };
    common_failures(dir, "duel-fail", &duel(50, 43), timeout, 43);
}

/// An empty cell of the placer's own half that is not the random sequence's cell.
fn wrong_cell(d: &duel2048::Duel) -> Option<(u8, u8)> {
    use arbiter_engine::Game;
    let seat = d.to_move()?;
    let next = d.next_cell(seat)?;
    let cols = if seat == Seat::FIRST { 0..4u8 } else { 4..8u8 };
    let rows = d.board_rows();
    cols.flat_map(|c| (0..4u8).map(move |r| (r, c)))
        .find(|&(r, c)| (r, c) != next && rows[usize::from(r)][usize::from(c)].level == 0)
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| String::from("samples"));
    let dir = Path::new(&out);
    std::fs::create_dir_all(dir).expect("create the output directory");
    let all = usize::MAX;

    let (r, g) = play(reversi(8), ["greedy", "random"], 1, all);
    write(dir, "reversi-8.json", &finish_normal(r, &g));
    // A full 16 x 16 game: the seed contest's size, and the load benchmark's replay.
    let (r, g) = play(reversi(16), ["alice", "bob"], 2, all);
    write(dir, "reversi-16.json", &finish_normal(r, &g));
    let (r, g) = play(reversi(6), ["six", "by six"], 3, all);
    write(dir, "reversi-6.json", &finish_normal(r, &g));
    // From an opening, as `reversi-board` tournaments play them: frame 0 shows its discs.
    let (r, g) = play_from(
        reversi(8),
        &["f5", "f6", "e6"],
        ["opened", "replied"],
        11,
        all,
    );
    write(dir, "reversi-opening.json", &finish_normal(r, &g));
    let (r, g) = play(reversi(8), ["slowpoke", "quick"], 4, 30);
    write(
        dir,
        "reversi-timeout.json",
        &finish_failure(r, &g, |seat| Reason::MoveTime {
            seat,
            limit_ms: 1000,
        }),
    );

    let (r, g) = play(gomoku(Rule::Freestyle), ["gobang-a", "gobang-b"], 5, all);
    write(dir, "gomoku-freestyle.json", &finish_normal(r, &g));
    let mut seed = 6;
    // A renju game that ends in a five and shows forbidden points on the way.
    loop {
        let (r, g) = play(
            gomoku(Rule::Renju),
            ["renju-black", "renju-white"],
            seed,
            all,
        );
        if g.outcome().is_some_and(|o| o.winner.is_some()) {
            write(dir, "gomoku-renju.json", &finish_normal(r, &g));
            break;
        }
        seed += 100;
    }
    let (r, g) = play_from(
        gomoku(Rule::Standard),
        &["h8", "i9", "g7"],
        ["open-b", "open-w"],
        12,
        all,
    );
    write(dir, "gomoku-opening.json", &finish_normal(r, &g));
    let (r, g) = play(gomoku(Rule::Standard), ["crasher", "steady"], 7, 21);
    write(
        dir,
        "gomoku-crash.json",
        &finish_failure(r, &g, |seat| Reason::Crash {
            seat,
            exit_code: None,
            signal: Some(11),
        }),
    );

    let (r, g) = play(duel(500, 7), ["plus", "minus"], 8, all);
    write(dir, "duel-500.json", &finish_normal(r, &g));
    let (r, g) = play(duel(50, 9), ["short", "game"], 9, 123);
    write(
        dir,
        "duel-illegal.json",
        &finish_failure(r, &g, |seat| Reason::IllegalMove {
            seat,
            mv: String::from("9,9"),
            why: String::from("the cell is not on the board"),
            line: Some(String::from("9 9")),
        }),
    );
    // A name that must stay text.
    let (mut r, g) = play(reversi(8), ["x", "y"], 10, all);
    r.players[0].name = String::from("<img src=x onerror=\"window.__pwned=1\">");
    r.players[1].name = String::from("<script>window.__pwned=2</script>");
    write(dir, "reversi-hostile-names.json", &finish_normal(r, &g));

    reversi_failures(dir);
    renju_failures(dir);
    duel_failures(dir);
}
