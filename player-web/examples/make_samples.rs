//! Writes sample replays for the web player: random games of every game played through the
//! engine (so every one is valid), plus failure verdicts. Usage: `make_samples OUT_DIR`.

use std::path::Path;

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::gomoku::{self, Rule};
use arbiter_engine::replay::{MoveRecord, Player, Reason, Replay};
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
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let players = [0usize, 1].map(|i| Player {
        name: names[i].to_string(),
        seat: Seat::from_index(i).unwrap_or(Seat::First),
        command: Some(String::from("builtin:random")),
    });
    let mut replay = Replay::new(config.clone(), players);
    let mut g = AnyGame::new(&config).expect("sample configurations are valid");
    for mv in opening {
        g.play_text(mv).expect("sample openings are legal");
        replay.opening.push(String::from(*mv));
    }
    while replay.moves.len() < max_moves {
        let Some(seat) = g.to_move() else { break };
        let legal = near_stones(&g, g.legal_moves());
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let text = g.format_move(mv);
        g.play(mv).expect("legal moves play");
        let mut rec = MoveRecord::new(seat, text);
        rec.time_ms = Some((rng.below(4000) as f64) / 10.0);
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
}
