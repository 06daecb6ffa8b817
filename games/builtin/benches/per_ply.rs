//! What a ply of a random game costs four ways: the engine called directly, the kit's `Game`
//! over it (`game-builtin`, no JSON), through `Rules::native` (the kit's JSON requests, as the
//! referee makes them: status, legal, play) and through the wasm module in wasmi.
//!
//! `cargo bench -p game-builtin` (prints a table; docs/game-kit.md has the figures). Every
//! way plays the same games: the same seeds draw the same move indices, and the legal lists
//! are in the same order everywhere.

use std::time::{Duration, Instant};

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::Game as _;
use arbiter_game::Game as KitGame;
use arbiter_kit_host::check::Rng;
use arbiter_kit_host::{build, Rules};
use serde_json::{json, Value};

/// Each way plays whole games for at least this long (after one game to warm up).
const BUDGET: Duration = Duration::from_secs(2);

/// Plies played and the time they took.
#[derive(Default)]
struct Tally {
    plies: u64,
    games: u32,
    time: Duration,
}

impl Tally {
    fn per_ply_us(&self) -> f64 {
        self.time.as_secs_f64() * 1e6 / self.plies.max(1) as f64
    }
}

/// Plays game after game (seeds 1, 2, ...) until the budget is spent; `game(seed)` returns
/// its plies.
fn measure(mut game: impl FnMut(u64) -> u64) -> Tally {
    game(0);
    let mut t = Tally::default();
    let started = Instant::now();
    while t.time < BUDGET {
        t.games += 1;
        t.plies += game(u64::from(t.games));
        t.time = started.elapsed();
    }
    t
}

/// A random game on the engine: the side to move's legal list, one of them, played.
fn engine_game<G: arbiter_engine::Game>(mut g: G, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut plies = 0;
    while g.to_move().is_some() {
        moves.clear();
        g.legal_moves(&mut moves);
        let _ = g.play(moves[rng.below(moves.len())]);
        plies += 1;
    }
    std::hint::black_box(g.outcome());
    plies
}

/// The same through the kit's `Game` (the wrapper, no JSON).
fn kit_game<G: KitGame>(config: &Value, seed: u64) -> u64 {
    let Ok(mut g) = G::new(config, seed) else {
        return 0;
    };
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut plies = 0;
    while let Some(seat) = g.turn().seat() {
        moves.clear();
        g.legal_moves(seat, &mut moves);
        let _ = g.play(&moves[rng.below(moves.len())]);
        plies += 1;
    }
    std::hint::black_box(g.outcome());
    plies
}

/// The same through requests, as a referee plays: status, legal (the notation), play.
fn rules_game(rules: &mut Rules, config: &Value, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let Ok(s) = rules.start(config, seed) else {
        return 0;
    };
    let mut plies = 0;
    while let Ok(st) = rules.status(s) {
        if st.to_move().is_none() {
            break;
        }
        let Ok(legal) = rules.legal(s) else { break };
        let _ = rules.play(s, &legal[rng.below(legal.len())]);
        plies += 1;
    }
    let _ = rules.release(s);
    plies
}

/// The module of `package` and how long it took to load, or why there is none.
fn module(package: &str) -> Result<(Rules, Duration), String> {
    let path = build::game_module(package).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let rules = Rules::load(&path).map_err(|e| e.to_string())?;
    Ok((rules, started.elapsed()))
}

struct Row {
    name: &'static str,
    engine: Tally,
    kit: Tally,
    native: Tally,
    wasm: Result<(Tally, Duration), String>,
}

fn row<G, K>(name: &'static str, package: &str, start: impl Fn(u64) -> G, config: Value) -> Row
where
    G: arbiter_engine::Game,
    K: KitGame + Send + 'static,
{
    let mut native_rules = Rules::native::<K>();
    // The same games every way, or the figures compare nothing.
    let plies = engine_game(start(1), 1);
    assert_eq!(kit_game::<K>(&config, 1), plies, "{name}: the kit's Game");
    assert_eq!(
        rules_game(&mut native_rules, &config, 1),
        plies,
        "{name}: native"
    );
    let engine = measure(|seed| engine_game(start(seed), seed));
    let kit = measure(|seed| kit_game::<K>(&config, seed));
    let native = measure(|seed| rules_game(&mut native_rules, &config, seed));
    let wasm = module(package).map(|(mut rules, load)| {
        assert_eq!(rules_game(&mut rules, &config, 1), plies, "{name}: wasm");
        (measure(|seed| rules_game(&mut rules, &config, seed)), load)
    });
    Row {
        name,
        engine,
        kit,
        native,
        wasm,
    }
}

fn print(r: &Row) {
    let us = |t: &Tally| format!("{:.2} us", t.per_ply_us());
    let (wasm, load) = match &r.wasm {
        Ok((t, load)) => (us(t), format!("{:.1} ms", load.as_secs_f64() * 1e3)),
        Err(why) => (format!("none ({why})"), "-".into()),
    };
    let plies = r.engine.plies / u64::from(r.engine.games).max(1);
    println!(
        "| {} | {plies} | {} | {} | {} | {wasm} | {load} |",
        r.name,
        us(&r.engine),
        us(&r.kit),
        us(&r.native)
    );
}

fn main() {
    println!("per ply of a random game (each way plays whole games for {BUDGET:?}):");
    println!(
        "| game | plies a game | engine | kit Game | Rules::native (JSON) | wasm in wasmi | module load |"
    );
    println!("|---|---|---|---|---|---|---|");
    let reversi = row::<_, game_builtin::Reversi>(
        "reversi 16x16",
        "game-reversi",
        |_| Reversi::new(&reversi::Config { size: 16 }).expect("16 is a size"),
        json!({"size": 16}),
    );
    print(&reversi);
    let gomoku = row::<_, game_builtin::Gomoku>(
        "gomoku 15x15 renju",
        "game-gomoku",
        |_| {
            let c = gomoku::Config {
                size: 15,
                rule: Rule::Renju,
            };
            Gomoku::new(&c).expect("a valid config")
        },
        json!({"size": 15, "rule": "renju"}),
    );
    print(&gomoku);
    let duel = row::<_, game_builtin::Duel2048>(
        "duel2048 500 rounds",
        "game-duel2048",
        |seed| {
            let random = RandomSource::Seed(seed);
            Duel::new(&duel2048::Config {
                rounds: 500,
                random,
            })
            .expect("a valid config")
        },
        json!({"rounds": 500}),
    );
    print(&duel);
}
