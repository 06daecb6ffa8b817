//! Plays the sparring levels against each other or against Rust copies of the sample greedy
//! bots (bots/c/*greedy*.c), in process, on the shipped openings with both colours: a quick
//! way to compare versions while tuning. The figures in docs/sparring.md come from
//! `arbiter match` and `arbiter tournament` with the real bots, not from here.
//!
//! cargo run --release -p arbiter-sparring --example arena -- reversi 16 L5 greedy [PAIRS]
//! cargo run --release -p arbiter-sparring --example arena -- gomoku freestyle L5 L4 [PAIRS]
//! cargo run --release -p arbiter-sparring --example arena -- duel - L5 L4 [PAIRS]
//!
//! A player is `L<level>`, `greedy`, or for Reversi `L<level>:weight=value,...` to try other
//! evaluation weights. Two threads play at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Point, Rule};
use arbiter_engine::reversi::{self, Move, Reversi};
use arbiter_engine::{Game, Seat};
use arbiter_sparring::clock::Deadline;
use arbiter_sparring::{gomoku as gomoku_bot, reversi as reversi_bot, Rng};

#[derive(Clone, Debug)]
enum Player {
    Level(u32, reversi_bot::EvalWeights, gomoku_bot::Level),
    Greedy,
}

fn parse_player(text: &str) -> Player {
    if text == "greedy" {
        return Player::Greedy;
    }
    let (level, rest) = text.split_once(':').unwrap_or((text, ""));
    let level: u32 = level
        .trim_start_matches('L')
        .parse()
        .expect("a player is L<level> or greedy");
    let mut w = reversi_bot::EvalWeights::default();
    let mut g = gomoku_bot::Level::of(level);
    for kv in rest.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("weight=value");
        let v: i32 = v.parse().expect("a number");
        match k {
            "g.depth" => g.depth = v as u32,
            "g.width" => g.width = v as usize,
            "g.nodes" => g.nodes = v as u64,
            "g.vcf" => g.vcf = v as u32,
            "g.leaf" => g.leaf_vcf = v as u32,
            "g.taper" => g.taper = v as usize,
            "g.43" => g.answer_four_three = v != 0,
            "mobility" => w.mobility = v,
            "potential" => w.potential = v,
            "frontier" => w.frontier = v,
            "corner" => w.corner = v,
            "x" => w.x_square = v,
            "c" => w.c_square = v,
            "stable" => w.stable = v,
            "parity" => w.parity = v,
            "discs" => w.discs_late = v,
            "few" => w.few = v,
            _ => panic!("unknown weight {k}"),
        }
    }
    Player::Level(level, w, g)
}

/// Per side: total think time, moves, slowest move.
#[derive(Default, Clone, Copy)]
struct Times {
    total: f64,
    moves: u32,
    max: f64,
}

impl Times {
    fn add(&mut self, ms: f64) {
        self.total += ms;
        self.moves += 1;
        self.max = self.max.max(ms);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("reversi");
    let variant = args.get(1).cloned().unwrap_or_default();
    let a = parse_player(args.get(2).map(String::as_str).unwrap_or("L5"));
    let b = parse_player(args.get(3).map(String::as_str).unwrap_or("greedy"));
    let openings = load_openings(game, &variant);
    let pairs: usize = args
        .get(4)
        .map(|s| s.parse().expect("pairs"))
        .unwrap_or(openings.len().max(12));
    let next = AtomicUsize::new(0);
    let results = Mutex::new((Vec::new(), Times::default(), Times::default()));
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= pairs * 2 {
                    break;
                }
                let opening = openings.get((i / 2) % openings.len().max(1)).cloned();
                let a_seat = if i % 2 == 0 {
                    Seat::FIRST
                } else {
                    Seat::SECOND
                };
                let seed = 1000 + i as u64;
                let (score, ta, tb) = play(game, &variant, &a, &b, a_seat, opening, seed);
                let mut r = results.lock().expect("lock");
                r.0.push((i, score));
                merge(&mut r.1, ta);
                merge(&mut r.2, tb);
            });
        }
    });
    let (mut scores, ta, tb) = results.into_inner().expect("lock");
    scores.sort_by_key(|s| s.0);
    let (w, d, l) = scores.iter().fold((0, 0, 0), |(w, d, l), &(_, s)| match s {
        2 => (w + 1, d, l),
        1 => (w, d + 1, l),
        _ => (w, d, l + 1),
    });
    let n = scores.len().max(1) as f64;
    let lost: Vec<String> = scores
        .iter()
        .filter(|s| s.1 == 0)
        .map(|s| format!("{}{}", s.0 / 2, if s.0 % 2 == 0 { "b" } else { "w" }))
        .collect();
    println!(
        "{game} {variant} {} vs {}: +{w} ={d} -{l}  score {:.1} %  (A {:.1} ms/move max {:.0}; B {:.1} ms/move max {:.0}) in {:.0} s; A lost {}",
        args.get(2).map(String::as_str).unwrap_or("L5"),
        args.get(3).map(String::as_str).unwrap_or("greedy"),
        100.0 * (w as f64 + d as f64 / 2.0) / n,
        ta.total / f64::from(ta.moves.max(1)),
        ta.max,
        tb.total / f64::from(tb.moves.max(1)),
        tb.max,
        t0.elapsed().as_secs_f64(),
        lost.join(" ")
    );
}

fn merge(into: &mut Times, t: Times) {
    into.total += t.total;
    into.moves += t.moves;
    into.max = into.max.max(t.max);
}

fn load_openings(game: &str, variant: &str) -> Vec<Vec<String>> {
    let file = match game {
        "reversi" => format!("reversi-{variant}.txt"),
        "gomoku" => format!("gomoku-{variant}.txt"),
        _ => return Vec::new(),
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../openings")
        .join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// One game; A's score (2 win, 1 draw, 0 loss) and both sides' times.
fn play(
    game: &str,
    variant: &str,
    a: &Player,
    b: &Player,
    a_seat: Seat,
    opening: Option<Vec<String>>,
    seed: u64,
) -> (u8, Times, Times) {
    match game {
        "reversi" => {
            let size: u8 = variant.parse().expect("reversi SIZE");
            let mut g = Reversi::new(&reversi::Config { size }).expect("size");
            for m in opening.unwrap_or_default() {
                let mv = g.parse_move(&m).expect("opening move");
                g.play(mv).expect("legal opening");
            }
            run(g, a, b, a_seat, seed, |g, p, rng| match p {
                Player::Greedy => reversi_greedy(g),
                Player::Level(l, w, _) => reversi_bot::choose_weighted(
                    g,
                    reversi_bot::Level::of(*l),
                    rng,
                    &Deadline::none(),
                    w,
                ),
            })
        }
        "gomoku" => {
            let rule = Rule::from_name(variant).expect("a rule");
            let mut g = Gomoku::new(&gomoku::Config { size: 15, rule }).expect("config");
            for m in opening.unwrap_or_default() {
                let p = g.parse_move(&m).expect("opening move");
                g.play(p).expect("legal opening");
            }
            run(g, a, b, a_seat, seed, |g, p, rng| match p {
                Player::Greedy => gomoku_greedy(g),
                Player::Level(_, _, level) => {
                    gomoku_bot::choose_within(g, *level, rng, &Deadline::none())
                }
            })
        }
        _ => {
            let g = Duel::new(&duel2048::Config {
                rounds: 500,
                random: RandomSource::Seed(seed / 2),
            })
            .expect("config");
            run(g, a, b, a_seat, seed, |g, p, rng| match p {
                Player::Greedy => panic!("no duel greedy copy here: use arbiter match"),
                Player::Level(l, _, _) => arbiter_sparring::duel::choose(g, *l, rng),
            })
        }
    }
}

fn run<G: Game>(
    mut g: G,
    a: &Player,
    b: &Player,
    a_seat: Seat,
    seed: u64,
    choose: impl Fn(&G, &Player, &mut Rng) -> Option<G::Move>,
) -> (u8, Times, Times) {
    let mut rng = [Rng::new(seed), Rng::new(seed ^ 0x5555)];
    let mut times = [Times::default(), Times::default()];
    let mut record = Vec::new();
    while let Some(seat) = g.to_move() {
        if let Some(mv) = g.forced_move() {
            g.play(mv).expect("forced");
            continue;
        }
        let side = usize::from(seat != a_seat);
        let player = if side == 0 { a } else { b };
        let t = Instant::now();
        let mv = choose(&g, player, &mut rng[side]).expect("a move");
        times[side].add(t.elapsed().as_secs_f64() * 1000.0);
        record.push(g.format_move(mv));
        g.play(mv).expect("the chooser's move is legal");
    }
    if std::env::var("DUMP").is_ok_and(|d| d == seed.to_string()) {
        eprintln!("game {seed}: {}", record.join(" "));
    }
    let score = match g.outcome().and_then(|o| o.winner) {
        Some(w) if w == a_seat => 2,
        Some(_) => 0,
        None => 1,
    };
    (score, times[0], times[1])
}

/// reversi_greedy.c: the most flips; ties to a corner, then the first in row-major order.
fn reversi_greedy(g: &Reversi) -> Option<Move> {
    let n = g.size();
    let mut best: Option<(usize, bool, Move)> = None;
    for (row, col) in g.legal_places() {
        let mv = Move::Place { row, col };
        let f = g.flipped_by(mv).len();
        let corner = (row == 0 || row == n - 1) && (col == 0 || col == n - 1);
        let better = match best {
            None => true,
            Some((bf, bc, _)) => f > bf || (f == bf && corner && !bc),
        };
        if better {
            best = Some((f, corner, mv));
        }
    }
    best.map(|b| b.2)
}

/// gomocup_greedy.c: point_value(us) + 9/10 point_value(them) + centrality, first best in
/// (y, x) order; as black under renju it keeps off the engine's forbidden points (the C bot's
/// own test is a conservative copy of the same rule).
fn gomoku_greedy(g: &Gomoku) -> Option<Point> {
    let n = i32::from(g.size());
    let me = g.to_move()?;
    let at = |x: i32, y: i32| -> Option<Option<Seat>> {
        (x >= 0 && y >= 0 && x < n && y < n).then(|| g.stone(Point::new(x as u8, y as u8)))
    };
    let run_value = |len: i32, open: i32, own: bool| -> i64 {
        match (len, open) {
            (5, _) => 10_000_000,
            (l, _) if l > 5 => {
                if own {
                    0
                } else {
                    10_000_000
                }
            }
            (_, 0) => 0,
            (4, 2) => 500_000,
            (4, _) => 20_000,
            (3, 2) => 15_000,
            (3, _) => 800,
            (2, 2) => 400,
            (2, _) => 40,
            _ => 10 * i64::from(open),
        }
    };
    let point_value = |x: i32, y: i32, who: Seat| -> i64 {
        let mut total = 0;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let (mut len, mut open) = (1, 0);
            for s in [-1, 1] {
                let (mut cx, mut cy) = (x + s * dx, y + s * dy);
                while at(cx, cy) == Some(Some(who)) {
                    cx += s * dx;
                    cy += s * dy;
                    len += 1;
                }
                if at(cx, cy) == Some(None) {
                    open += 1;
                }
            }
            total += run_value(len, open, who == me);
        }
        total
    };
    let renju_black = g.rule().is_renju() && me == Seat::FIRST;
    let allowed = |p: Point| {
        g.stone(p).is_none()
            && (!renju_black
                || [Rule::Renju, Rule::RenjuGomocup]
                    .iter()
                    .all(|&r| g.forbidden_kind_under(p, r).is_none()))
    };
    let c = n / 2;
    let mut best: Option<(i64, Point)> = None;
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x as u8, y as u8);
            let near =
                (-2..=2).any(|i| (-2..=2).any(|j| matches!(at(x + i, y + j), Some(Some(_)))));
            if !near || !allowed(p) {
                continue;
            }
            let v = point_value(x, y, me)
                + point_value(x, y, me.other()) * 9 / 10
                + i64::from(n - (x - c).abs() - (y - c).abs());
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, p));
            }
        }
    }
    best.map(|b| b.1).or_else(|| {
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        legal.into_iter().find(|&p| allowed(p))
    })
}
