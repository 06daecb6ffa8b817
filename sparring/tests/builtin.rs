//! The built-in sparring bots, driven through in-memory pipes by a small scripted referee that
//! validates every answer with the engine (an illegal or malformed answer fails the test).

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Point, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::{Game, GameConfig, Seat};
use arbiter_sparring::{self, BuiltinOptions, Rng};

/// The bot's standard input: bytes arrive over a channel; a dropped sender is end of input.
struct PipeIn {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for PipeIn {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(bytes) => {
                    self.buf = bytes;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The bot's standard output: complete lines go over a channel.
struct PipeOut {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for PipeOut {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(data);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            let _ = self.tx.send(text);
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A running built-in bot and the referee's end of its pipes.
struct Bot {
    to_bot: Option<Sender<Vec<u8>>>,
    from_bot: Receiver<String>,
    handle: Option<JoinHandle<anyhow::Result<()>>>,
    line_end: &'static str,
}

impl Bot {
    fn start(opts: BuiltinOptions) -> Bot {
        let (to_bot, rx) = channel();
        let (tx, from_bot) = channel();
        let handle = thread::spawn(move || {
            let input = BufReader::new(PipeIn {
                rx,
                buf: Vec::new(),
                pos: 0,
            });
            let output = PipeOut {
                tx,
                partial: Vec::new(),
            };
            arbiter_sparring::run(&opts, input, output)
        });
        Bot {
            to_bot: Some(to_bot),
            from_bot,
            handle: Some(handle),
            line_end: "\n",
        }
    }

    fn send(&self, line: &str) {
        let bytes = format!("{line}{}", self.line_end).into_bytes();
        if let Some(tx) = &self.to_bot {
            tx.send(bytes).expect("the bot stopped reading");
        }
    }

    /// The next answer line, skipping DEBUG / MESSAGE lines.
    fn answer(&self) -> String {
        loop {
            let line = self
                .from_bot
                .recv_timeout(Duration::from_secs(20))
                .expect("the bot did not answer within 20 s");
            if line.starts_with("DEBUG") || line.starts_with("MESSAGE") || line.is_empty() {
                continue;
            }
            return line;
        }
    }

    /// Closes the bot's input and waits for it; returns its result.
    fn finish(mut self) -> anyhow::Result<()> {
        self.to_bot = None;
        self.handle
            .take()
            .expect("joined once")
            .join()
            .expect("the bot thread panicked")
    }

    /// No line came that the protocol did not ask for.
    fn assert_silent(&self) {
        if let Ok(line) = self.from_bot.try_recv() {
            assert!(
                line.starts_with("DEBUG") || line.starts_with("MESSAGE"),
                "unexpected line from the bot: {line:?}"
            );
        }
    }
}

fn opts(game: GameConfig, protocol: &str, depth: u32, seed: u64) -> BuiltinOptions {
    BuiltinOptions {
        game,
        protocol: protocol.to_string(),
        depth,
        seed,
        limits: Default::default(),
    }
}

// ---------------------------------------------------------------- reversi

/// Plays one Reversi game: the built-in bot on `bot_seat` against a random mover. Returns the
/// winner. Every answer of the bot is checked by the engine.
fn reversi_game(size: u8, bot_seat: Seat, depth: u32, seed: u64) -> Option<Seat> {
    let config = reversi::Config { size };
    let bot = Bot::start(opts(GameConfig::Reversi(config), "reversi", depth, seed));
    let mut rng = Rng::new(seed ^ 0xABCD);
    let mut game = Reversi::new(&config).expect("valid size");
    bot.send(if bot_seat == Seat::FIRST {
        "START 1"
    } else {
        "START 2"
    });
    assert_eq!(bot.answer(), "OK");
    while let Some(seat) = game.to_move() {
        if let Some(pass) = game.forced_move() {
            game.play(pass).expect("a pass is legal");
            continue;
        }
        if seat == bot_seat {
            bot.send("TURN");
            let answer = bot.answer();
            let mut words = answer.split(' ');
            let row: u8 = words.next().and_then(|w| w.parse().ok()).expect("row");
            let col: u8 = words.next().and_then(|w| w.parse().ok()).expect("col");
            assert_eq!(words.next(), None, "answer {answer:?} has extra words");
            game.play(reversi::Move::Place { row, col })
                .unwrap_or_else(|e| panic!("illegal answer {answer:?}: {e}"));
        } else {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mv = rng.pick(&moves).expect("a move");
            game.play(mv).expect("legal");
            if let reversi::Move::Place { row, col } = mv {
                bot.send(&format!("PLACE {row} {col}"));
            }
        }
        bot.assert_silent();
    }
    let outcome = game.outcome().expect("over");
    let f = match outcome.winner {
        None => 0,
        Some(w) if w == bot_seat => 1,
        Some(_) => 2,
    };
    bot.send(&format!("END {f}"));
    bot.finish().expect("the bot ends cleanly");
    outcome.winner
}

#[test]
fn reversi_bots_of_every_depth_play_legal_games() {
    for (size, depth) in [(8, 0), (8, 1), (8, 2), (6, 3), (4, 4), (10, 1)] {
        for seat in Seat::BOTH {
            reversi_game(size, seat, depth, u64::from(size) * 10 + u64::from(depth));
        }
    }
}

#[test]
fn reversi_16x16_depth_4_plays_a_legal_game() {
    reversi_game(16, Seat::FIRST, 4, 5);
}

#[test]
fn reversi_depth_3_beats_a_random_mover() {
    let mut wins = 0;
    for game in 0..10u64 {
        let seat = if game % 2 == 0 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        if reversi_game(8, seat, 3, 100 + game) == Some(seat) {
            wins += 1;
        }
    }
    assert!(
        wins >= 7,
        "depth 3 won only {wins} of 10 games against random"
    );
}

#[test]
fn reversi_end_at_any_time_stops_the_bot() {
    let bot = Bot::start(opts(
        GameConfig::Reversi(reversi::Config { size: 8 }),
        "reversi",
        2,
        1,
    ));
    bot.send("START 2");
    assert_eq!(bot.answer(), "OK");
    bot.send("PLACE 2 3");
    bot.send("END 1");
    bot.finish().expect("clean end");
}

#[test]
fn a_protocol_of_another_game_is_refused() {
    let bot = Bot::start(opts(
        GameConfig::Gomoku(gomoku::Config::default()),
        "reversi",
        1,
        1,
    ));
    assert!(bot.finish().is_err());
}

// ---------------------------------------------------------------- gomoku

/// A scripted Gomoku opponent: wins when it can, else plays near the last stone at random.
fn gomoku_opponent(game: &Gomoku, rng: &mut Rng) -> Point {
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
    if let Some(&last) = game.history().last() {
        let near: Vec<Point> = moves
            .iter()
            .copied()
            .filter(|p| p.x.abs_diff(last.x) <= 2 && p.y.abs_diff(last.y) <= 2)
            .collect();
        if let Some(p) = rng.pick(&near) {
            return p;
        }
    }
    rng.pick(&moves).expect("a legal point")
}

/// One gobang-protocol game; returns the winner.
fn gobang_game(rule: Rule, bot_seat: Seat, depth: u32, seed: u64) -> Option<Seat> {
    let config = gomoku::Config { size: 15, rule };
    let bot = Bot::start(opts(GameConfig::Gomoku(config), "gobang", depth, seed));
    let mut rng = Rng::new(seed ^ 77);
    let mut game = Gomoku::new(&config).expect("config");
    assert_eq!(bot.answer(), "READY");
    bot.send(if bot_seat == Seat::FIRST {
        "BLACK"
    } else {
        "WHITE"
    });
    while let Some(seat) = game.to_move() {
        if seat == bot_seat {
            let answer = bot.answer();
            let text = answer
                .strip_prefix("MOVE ")
                .unwrap_or_else(|| panic!("not a MOVE: {answer:?}"));
            assert!(
                text.chars().next().is_some_and(|c| c.is_ascii_uppercase()),
                "gobang wants the letter form, got {text:?}"
            );
            let p = game.parse_move(text).expect("parsable point");
            game.play(p)
                .unwrap_or_else(|e| panic!("illegal answer {answer:?}: {e}"));
        } else {
            let p = gomoku_opponent(&game, &mut rng);
            game.play(p).expect("legal");
            bot.send(&format!("MOVE {}", game.format_move(p)));
        }
    }
    bot.finish().expect("ends at end of input");
    game.outcome().and_then(|o| o.winner)
}

#[test]
fn gobang_bots_play_legal_games_and_respect_renju() {
    for depth in [0, 1, 2] {
        for rule in [Rule::Freestyle, Rule::Renju] {
            for seat in Seat::BOTH {
                gobang_game(
                    rule,
                    seat,
                    depth,
                    u64::from(depth) * 3 + seat.index() as u64,
                );
            }
        }
    }
}

#[test]
fn gomoku_greedy_and_search_beat_a_near_random_opponent() {
    for depth in [1, 2] {
        let mut wins = 0;
        for game in 0..4u64 {
            let seat = if game % 2 == 0 {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            if gobang_game(Rule::Freestyle, seat, depth, 40 + game) == Some(seat) {
                wins += 1;
            }
        }
        assert!(wins >= 3, "depth {depth} won only {wins} of 4");
    }
}

/// Reads a Gomocup `x,y` answer.
fn gomocup_point(answer: &str) -> Point {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not x,y: {answer:?}"));
    Point::new(x.parse().expect("x"), y.parse().expect("y"))
}

#[test]
fn gomocup_full_games_with_crlf_on_several_sizes_and_rules() {
    for (size, mask, depth, bot_seat) in [
        (15, 4, 2, Seat::FIRST),
        (15, 0, 1, Seat::SECOND),
        (20, 1, 2, Seat::FIRST),
        (9, 0, 0, Seat::SECOND),
    ] {
        let rule = match mask {
            4 => Rule::Renju,
            1 => Rule::Standard,
            _ => Rule::Freestyle,
        };
        // The bot is configured 15 x 15 freestyle: START and INFO must override that.
        let mut bot = Bot::start(opts(
            GameConfig::Gomoku(gomoku::Config::default()),
            "gomocup",
            depth,
            u64::from(size),
        ));
        bot.line_end = "\r\n";
        let config = gomoku::Config { size, rule };
        let mut game = Gomoku::new(&config).expect("config");
        let mut rng = Rng::new(9);
        bot.send(&format!("START {size}"));
        assert_eq!(bot.answer(), "OK");
        bot.send("INFO timeout_turn 5000");
        bot.send(&format!("INFO rule {mask}"));
        bot.send("ABOUT");
        assert!(bot.answer().starts_with("name="));
        let mut first = true;
        while let Some(seat) = game.to_move() {
            if seat == bot_seat {
                bot.send("INFO time_left 100000");
                if first {
                    bot.send("BEGIN");
                }
                let p = gomocup_point(&bot.answer());
                game.play(p)
                    .unwrap_or_else(|e| panic!("illegal answer {p:?}: {e}"));
            } else {
                let p = gomoku_opponent(&game, &mut rng);
                game.play(p).expect("legal");
                if game.to_move().is_some() {
                    bot.send(&format!("TURN {},{}", p.x, p.y));
                }
            }
            first = false;
        }
        bot.send("END");
        bot.finish().expect("clean end");
    }
}

#[test]
fn gomocup_board_command_and_restart() {
    let bot = Bot::start(opts(
        GameConfig::Gomoku(gomoku::Config::default()),
        "gomocup",
        2,
        3,
    ));
    bot.send("START 15");
    assert_eq!(bot.answer(), "OK");
    // Seven stones in move order, so the bot is white and to move; black (the opponent, f=2)
    // has the open four 7..10,7, which the bot must block at one end.
    bot.send("BOARD");
    for line in [
        "7,7,2", "0,0,1", "8,7,2", "0,1,1", "9,7,2", "14,14,1", "10,7,2",
    ] {
        bot.send(line);
    }
    bot.send("DONE");
    let p = gomocup_point(&bot.answer());
    assert!(
        p == Point::new(6, 7) || p == Point::new(11, 7),
        "must block the four 7..10,7 at 6,7 or 11,7, played {p:?}"
    );
    bot.send("RESTART");
    assert_eq!(bot.answer(), "OK");
    bot.send("BEGIN");
    let p = gomocup_point(&bot.answer());
    assert_eq!(p, Point::new(7, 7), "an empty board opens in the centre");
    bot.send("FROBNICATE");
    assert!(bot.answer().starts_with("UNKNOWN"));
    bot.send("END");
    bot.finish().expect("clean end");
}

// ---------------------------------------------------------------- duel

/// One 2048 duel through the `duel` protocol against a random mover; returns the winner.
fn duel_game(rounds: u16, bot_seat: Seat, depth: u32, seed: u64) -> Option<Seat> {
    let config = duel2048::Config {
        rounds,
        random: RandomSource::Seed(seed),
    };
    let mut game = Duel::new(&config).expect("config");
    let bot = Bot::start(opts(GameConfig::Duel2048(config), "duel", depth, seed));
    let mut rng = Rng::new(seed ^ 5);
    bot.send(&format!("START {} {rounds}", bot_seat.index()));
    let values: Vec<String> = game.sequence().iter().map(|v| v.to_string()).collect();
    bot.send(&format!("RANDOM {}", values.join(" ")));
    assert_eq!(bot.answer(), "OK");
    while let Some(seat) = game.to_move() {
        let round = game.round();
        if seat == bot_seat {
            if let Some(skip) = game.forced_move() {
                bot.send(&format!("SKIP {round}"));
                game.play(skip).expect("skip");
                continue;
            }
            let kind = match game.step_kind() {
                arbiter_engine::error::StepKind::Place => "PLACE",
                arbiter_engine::error::StepKind::Slide => "SLIDE",
            };
            bot.send(&format!("{kind} {round} 5000"));
            let answer = bot.answer();
            let mv = game
                .parse_move(&answer)
                .unwrap_or_else(|e| panic!("malformed answer {answer:?}: {e}"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("illegal answer {answer:?} in round {round}: {e}"));
        } else {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mv = rng.pick(&moves).expect("a move");
            game.play(mv).expect("legal");
            let text = match mv {
                duel2048::Move::Place { row, col } => format!("{row} {col}"),
                duel2048::Move::Slide(d) => d.as_str().to_string(),
                duel2048::Move::Skip => "skip".to_string(),
            };
            bot.send(&format!("OPPONENT {text}"));
        }
        bot.assert_silent();
    }
    let winner = game.outcome().and_then(|o| o.winner);
    let f = match winner {
        None => 0,
        Some(w) if w == bot_seat => 1,
        Some(_) => 2,
    };
    bot.send(&format!("END {f}"));
    bot.finish().expect("clean end");
    winner
}

#[test]
fn duel_bots_play_legal_full_games() {
    for depth in [0, 1, 2, 3] {
        for seat in Seat::BOTH {
            duel_game(500, seat, depth, u64::from(depth) * 2 + seat.index() as u64);
        }
    }
}

#[test]
fn duel_search_beats_a_random_mover() {
    let mut wins = 0;
    for game in 0..4u64 {
        let seat = if game % 2 == 0 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        if duel_game(500, seat, 2, 900 + game) == Some(seat) {
            wins += 1;
        }
    }
    assert!(
        wins >= 3,
        "depth 2 won only {wins} of 4 duels against random"
    );
}

// ---------------------------------------------------------------- speed figures

/// Prints the mean and slowest move times of every level in self-play from the start (figures,
/// no timing assertion): `cargo test --release -p arbiter-sparring --test builtin speed --
/// --ignored --nocapture`. The clock plays no part: these are the caps' own times.
#[test]
#[ignore = "speed figures: run in release with --ignored --nocapture"]
fn speed_figures_per_move() {
    use std::time::Instant;
    fn timed<G: Game>(label: &str, mut game: G, choose: impl Fn(&G, &mut Rng) -> G::Move) {
        let mut rng = Rng::new(1);
        let mut times = Vec::new();
        while game.to_move().is_some() && times.len() < 300 {
            let mv = match game.forced_move() {
                Some(mv) => mv,
                None => {
                    let t = Instant::now();
                    let mv = choose(&game, &mut rng);
                    times.push(t.elapsed().as_secs_f64() * 1000.0);
                    mv
                }
            };
            game.play(mv).expect("legal");
        }
        let max = times.iter().cloned().fold(0.0, f64::max);
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        eprintln!(
            "{label}: {} moves, mean {mean:.2} ms, max {max:.2} ms",
            times.len()
        );
    }
    use arbiter_sparring::{duel as d, gomoku as g, reversi as r};
    for level in 1..=5 {
        for size in [8u8, 16] {
            let game = Reversi::new(&reversi::Config { size }).expect("size");
            timed(
                &format!("reversi {size}x{size} level {level}"),
                game,
                |x, rng| r::choose(x, level, rng).expect("a move"),
            );
        }
        for rule in [Rule::Freestyle, Rule::Renju] {
            let game = Gomoku::new(&gomoku::Config { size: 15, rule }).expect("config");
            timed(
                &format!("gomoku {} level {level}", rule.name()),
                game,
                |x, rng| g::choose(x, level, rng).expect("a move"),
            );
        }
        let game = Duel::new(&duel2048::Config::default()).expect("config");
        timed(&format!("duel level {level}"), game, |x, rng| {
            d::choose(x, level, rng).expect("a move")
        });
    }
}

// ---------------------------------------------------------------- depth makes a difference

/// Plays `deep` against `shallow` with the choosers directly, colours alternating; returns
/// the deep side's wins out of `games`.
fn head_to_head<G: Game>(
    games: u64,
    new: impl Fn() -> G,
    choose: impl Fn(&G, u32, &mut Rng) -> Option<G::Move>,
    deep: u32,
    shallow: u32,
) -> u32 {
    let mut wins = 0;
    for g in 0..games {
        let deep_seat = if g % 2 == 0 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        let mut rng = Rng::new(1000 + g);
        let mut game = new();
        while let Some(seat) = game.to_move() {
            let depth = if seat == deep_seat { deep } else { shallow };
            let mv = match game.forced_move() {
                Some(mv) => mv,
                None => choose(&game, depth, &mut rng).expect("a move"),
            };
            game.play(mv).expect("legal");
        }
        if game.outcome().and_then(|o| o.winner) == Some(deep_seat) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn deeper_reversi_search_beats_greedy() {
    let wins = head_to_head(
        10,
        || Reversi::new(&reversi::Config { size: 8 }).expect("size"),
        arbiter_sparring::reversi::choose,
        4,
        1,
    );
    eprintln!("reversi: depth 4 won {wins} of 10 against depth 1");
    assert!(wins >= 7, "depth 4 won only {wins} of 10 against depth 1");
}

#[test]
fn deeper_gomoku_search_beats_greedy() {
    let wins = head_to_head(
        6,
        || Gomoku::new(&gomoku::Config::default()).expect("config"),
        arbiter_sparring::gomoku::choose,
        3,
        1,
    );
    eprintln!("gomoku: depth 3 won {wins} of 6 against depth 1");
    assert!(wins >= 4, "depth 3 won only {wins} of 6 against depth 1");
}

#[test]
fn deeper_duel_search_beats_greedy() {
    let wins = head_to_head(
        6,
        || {
            Duel::new(&duel2048::Config {
                rounds: 500,
                random: RandomSource::Seed(77),
            })
            .expect("config")
        },
        arbiter_sparring::duel::choose,
        3,
        1,
    );
    eprintln!("duel: depth 3 won {wins} of 6 against depth 1");
    assert!(wins >= 4, "depth 3 won only {wins} of 6 against depth 1");
}

#[test]
fn gomocup_renju_black_never_takes_a_forbidden_double_three() {
    // Black (the bot: 8 stones, so black is to move) would make two open threes at 7,7: the
    // evaluation's favourite point, and forbidden under renju. White's stones are far away.
    let black = ["7,5", "7,6", "5,7", "6,7"];
    let white = ["0,0", "0,14", "14,0", "14,14"];
    let config = gomoku::Config {
        size: 15,
        rule: Rule::Renju,
    };
    let stones: Vec<(Point, Seat)> = black
        .iter()
        .map(|s| (s, Seat::FIRST))
        .chain(white.iter().map(|s| (s, Seat::SECOND)))
        .map(|(s, seat)| (gomocup_point(s), seat))
        .collect();
    let position = Gomoku::from_stones(&config, &stones, Seat::FIRST).expect("position");
    assert!(
        position.forbidden_kind(Point::new(7, 7)).is_some(),
        "the test position must have 7,7 forbidden"
    );
    for depth in 1..=5 {
        let bot = Bot::start(opts(
            GameConfig::Gomoku(gomoku::Config::default()),
            "gomocup",
            depth,
            depth.into(),
        ));
        bot.send("START 15");
        assert_eq!(bot.answer(), "OK");
        bot.send("INFO rule 4");
        bot.send("BOARD");
        for (b, w) in black.iter().zip(white.iter()) {
            bot.send(&format!("{b},1"));
            bot.send(&format!("{w},2"));
        }
        bot.send("DONE");
        let p = gomocup_point(&bot.answer());
        let mut game = position.clone();
        game.play(p)
            .unwrap_or_else(|e| panic!("depth {depth} played {p:?}: {e}"));
        bot.send("END");
        bot.finish().expect("clean end");
    }
}

/// The exact result (sign of the final disc difference) for `me`, by plain minimax over the
/// engine's moves to the end of the game: an independent check of the search's endgame.
fn reversi_exact(game: &Reversi, me: Seat) -> i32 {
    let Some(mover) = game.to_move() else {
        let c = game.counts();
        return (i32::from(c[me.index()]) - i32::from(c[me.other().index()])).signum();
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let values = moves.into_iter().map(|mv| {
        let mut child = game.clone();
        child.play(mv).expect("legal");
        reversi_exact(&child, me)
    });
    if mover == me {
        values.max().unwrap_or(0)
    } else {
        values.min().unwrap_or(0)
    }
}

#[test]
fn reversi_search_plays_endgames_perfectly() {
    let mut rng = Rng::new(2024);
    let mut checked = 0;
    for _ in 0..40 {
        let mut game = Reversi::new(&reversi::Config { size: 6 }).expect("size");
        // Random play down to 7 empty squares.
        while game.to_move().is_some() && game.counts().iter().sum::<u16>() < 29 {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            game.play(rng.pick(&moves).expect("a move")).expect("legal");
        }
        let Some(me) = game.to_move() else { continue };
        if game.forced_move().is_some() {
            continue;
        }
        let best = {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let mut child = game.clone();
                    child.play(mv).expect("legal");
                    reversi_exact(&child, me)
                })
                .max()
                .expect("a move")
        };
        let choice = arbiter_sparring::reversi::choose(&game, 10, &mut rng).expect("a move");
        let mut after = game.clone();
        after.play(choice).expect("legal");
        assert_eq!(
            reversi_exact(&after, me),
            best,
            "the search chose {choice:?}, which does not reach the best result in\n{game}"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} positions were checked");
}

/// A position where J8 (9,7) makes a four and two threes: RIF allows it (one three is fake,
/// through a nested five point), the Gomocup judge's reading (`renju-gomocup`) forbids it as a
/// double-three (`engine/tests/renju_gomocup.rs` works it). White's stones are far away, but
/// one at K10 (10,5) stops a black five.
const NESTED_BLACK: [&str; 10] = [
    "6,3", "9,4", "7,5", "8,5", "9,5", "11,5", "8,6", "11,6", "8,8", "7,9",
];
const NESTED_WHITE: [&str; 10] = [
    "10,5", "0,14", "14,0", "14,14", "0,7", "14,7", "2,14", "12,14", "2,0", "12,0",
];

fn nested_under(rule: Rule) -> Gomoku {
    let stones: Vec<(Point, Seat)> = NESTED_BLACK
        .iter()
        .map(|s| (s, Seat::FIRST))
        .chain(NESTED_WHITE.iter().map(|s| (s, Seat::SECOND)))
        .map(|(s, seat)| (gomocup_point(s), seat))
        .collect();
    let config = gomoku::Config { size: 15, rule };
    Gomoku::from_stones(&config, &stones, Seat::FIRST).expect("position")
}

#[test]
fn renju_black_keeps_off_points_either_reading_forbids() {
    // `INFO rule 4` cannot say which reading the referee applies, so the bot plays renju as
    // RIF and must still never pick J8. At depth 0 it picks at random among its points.
    let j8 = Point::new(9, 7);
    let rif = nested_under(Rule::Renju);
    assert!(rif.forbidden_kind(j8).is_none());
    assert!(nested_under(Rule::RenjuGomocup)
        .forbidden_kind(j8)
        .is_some());
    for seed in 0..2000 {
        let p = arbiter_sparring::gomoku::choose(&rif, 0, &mut Rng::new(seed)).expect("a move");
        assert_ne!(p, j8, "seed {seed} picked the point renju-gomocup forbids");
    }
}

#[test]
fn gomocup_renju_black_plays_points_both_readings_allow() {
    for depth in 1..=5 {
        let bot = Bot::start(opts(
            GameConfig::Gomoku(gomoku::Config::default()),
            "gomocup",
            depth,
            depth.into(),
        ));
        bot.send("START 15");
        assert_eq!(bot.answer(), "OK");
        bot.send("INFO rule 4");
        bot.send("BOARD");
        for (b, w) in NESTED_BLACK.iter().zip(NESTED_WHITE.iter()) {
            bot.send(&format!("{b},1"));
            bot.send(&format!("{w},2"));
        }
        bot.send("DONE");
        let p = gomocup_point(&bot.answer());
        for rule in [Rule::Renju, Rule::RenjuGomocup] {
            nested_under(rule).play(p).unwrap_or_else(|e| {
                panic!(
                    "depth {depth} played {p:?}, refused under {}: {e}",
                    rule.name()
                )
            });
        }
        bot.send("END");
        bot.finish().expect("clean end");
    }
}

#[test]
fn gomocup_timeout_turn_bounds_a_level_whose_caps_would_think_for_long() {
    // Level 20 may visit millions of positions a move; told 400 ms a move, it answers in about
    // half of that (checked against a generous 2 s), every move.
    let bot = Bot::start(opts(
        GameConfig::Gomoku(gomoku::Config::default()),
        "gomocup",
        20,
        7,
    ));
    bot.send("START 15");
    assert_eq!(bot.answer(), "OK");
    bot.send("INFO timeout_turn 400");
    bot.send("INFO timeout_match 0");
    bot.send("INFO rule 0");
    let mut game = Gomoku::new(&gomoku::Config::default()).expect("config");
    let mut rng = Rng::new(3);
    bot.send("BEGIN");
    for _ in 0..6 {
        let asked = std::time::Instant::now();
        let p = gomocup_point(&bot.answer());
        let took = asked.elapsed();
        assert!(took < Duration::from_secs(2), "a move took {took:?}");
        game.play(p).expect("legal");
        if game.outcome().is_some() {
            break;
        }
        let q = gomoku_opponent(&game, &mut rng);
        game.play(q).expect("legal");
        if game.outcome().is_some() {
            break;
        }
        bot.send(&format!("TURN {},{}", q.x, q.y));
    }
    bot.send("END");
    bot.finish().expect("clean end");
}
