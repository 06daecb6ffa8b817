//! The bot side of arbiter's protocols (docs/protocols.md): read the referee's commands, keep
//! the engine's position in step with them, and answer with the chooser's moves.
//!
//! Every answer is written as one line and flushed at once, as the protocols require. Unknown
//! lines are ignored where the protocol allows it (Gomocup answers them with `UNKNOWN`).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Point, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::{Game, Seat};

use super::clock::TimeLimits;
use super::Player;

/// Reads the next line without its line ending; `None` at end of input.
pub(crate) fn next_line(input: &mut impl BufRead) -> anyhow::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line).context("reading a command")? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim_end_matches(['\r', '\n']).to_string()))
}

/// Writes one answer line and flushes it.
pub(crate) fn send(output: &mut impl Write, line: &str) -> anyhow::Result<()> {
    writeln!(output, "{line}").context("writing an answer")?;
    output.flush().context("flushing an answer")
}

fn number<T: std::str::FromStr>(token: Option<&str>, what: &str) -> anyhow::Result<T> {
    let token = token.ok_or_else(|| anyhow!("missing {what}"))?;
    token
        .trim()
        .parse()
        .map_err(|_| anyhow!("{what} is not a number: {token:?}"))
}

/// Plays the forced plies (passes, skipped steps) while `seat` is to move and has no choice.
fn play_forced<G: Game>(game: &mut G, seat: Seat) -> anyhow::Result<()> {
    while game.to_move() == Some(seat) {
        match game.forced_move() {
            Some(mv) => game
                .play(mv)
                .map_err(|e| anyhow!("forced move rejected: {e}"))?,
            None => break,
        }
    }
    Ok(())
}

/// Seed 001's brain protocol: `START s`, `PLACE r c`, `TURN`, `END f`; and `BOARD n s cells`
/// (`reversi-board`), which replaces the position.
pub fn reversi(
    config: reversi::Config,
    player: &mut Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut state: Option<(Reversi, Seat)> = None;
    while let Some(line) = next_line(&mut input)? {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("START") => {
                let me = match words.next() {
                    Some("1") => Seat::FIRST,
                    Some("2") => Seat::SECOND,
                    other => bail!("START wants 1 or 2, got {other:?}"),
                };
                state = Some((Reversi::new(&config)?, me));
                player.clock.restart();
                send(&mut output, "OK")?;
            }
            Some("BOARD") => {
                let (game, _) = state
                    .as_mut()
                    .ok_or_else(|| anyhow!("BOARD before START"))?;
                let rest = line.trim_start().strip_prefix("BOARD").unwrap_or_default();
                *game =
                    arbiter_match::protocol::reversi::parse_board(rest).map_err(|e| anyhow!(e))?;
            }
            Some("PLACE") => {
                let (game, me) = state
                    .as_mut()
                    .ok_or_else(|| anyhow!("PLACE before START"))?;
                let row: u8 = number(words.next(), "row")?;
                let col: u8 = number(words.next(), "column")?;
                // A repeated PLACE means we had to pass in between.
                play_forced(game, *me)?;
                game.play(reversi::Move::Place { row, col })
                    .map_err(|e| anyhow!("opponent's PLACE {row} {col}: {e}"))?;
            }
            Some("TURN") => {
                let start = Instant::now();
                let (game, me) = state.as_mut().ok_or_else(|| anyhow!("TURN before START"))?;
                // The opponent may have passed since our last move.
                play_forced(game, me.other())?;
                if game.to_move() != Some(*me) {
                    bail!("TURN but it is not our move");
                }
                let deadline = player.clock.deadline(start, reversi_moves_to_go(game));
                let level = super::reversi::Level::of(player.depth);
                let mv = super::reversi::choose_within(game, level, &mut player.rng, &deadline)
                    .ok_or_else(|| anyhow!("TURN but we have no move"))?;
                player.clock.spent(start.elapsed());
                game.play(mv).map_err(|e| anyhow!("own move: {e}"))?;
                match mv {
                    reversi::Move::Place { row, col } => {
                        send(&mut output, &format!("{row} {col}"))?
                    }
                    reversi::Move::Pass => bail!("TURN but we must pass"),
                }
            }
            Some("END") => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// Our moves still to come in a Reversi game: one in two of the empty squares.
fn reversi_moves_to_go(game: &Reversi) -> u32 {
    let squares = u32::from(game.size()).pow(2);
    let discs: u32 = game.counts().iter().map(|&c| u32::from(c)).sum();
    (squares - discs).div_ceil(2)
}

/// Our moves still to come in a Gomoku game, as a clock should plan for them: most games end
/// well before the board fills; a long one plays its last moves on the reserve.
fn gomoku_moves_to_go(game: &Gomoku) -> u32 {
    let empty = u32::from(game.size()).pow(2) - game.history().len() as u32;
    (empty / 2).clamp(10, 40)
}

/// Chooses, plays and announces our Gomoku move (the request came at `start`).
fn gomoku_answer(game: &mut Gomoku, player: &mut Player, start: Instant) -> anyhow::Result<Point> {
    let deadline = player.clock.deadline(start, gomoku_moves_to_go(game));
    let level = super::gomoku::Level::of(player.depth);
    let p = super::gomoku::choose_within(game, level, &mut player.rng, &deadline)
        .ok_or_else(|| anyhow!("no legal move left"))?;
    game.play(p).map_err(|e| anyhow!("own move: {e}"))?;
    player.clock.spent(start.elapsed());
    Ok(p)
}

/// Seed 003's bridge protocol: `READY`, `BLACK` / `WHITE`, `MOVE H8` both ways.
pub fn gobang(
    config: gomoku::Config,
    player: &mut Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut game = Gomoku::new(&config)?;
    super::gomoku::warm_up();
    send(&mut output, "READY")?;
    while let Some(line) = next_line(&mut input)? {
        let start = Instant::now();
        let line = line.trim();
        if line == "BLACK" {
            let p = gomoku_answer(&mut game, player, start)?;
            send(&mut output, &format!("MOVE {}", game.format_move(p)))?;
        } else if line == "WHITE" {
            // White waits for black's first move.
        } else if let Some(text) = line.strip_prefix("MOVE") {
            let text = text.trim();
            let p = game
                .parse_move(text)
                .map_err(|e| anyhow!("opponent's MOVE {text}: {e}"))?;
            game.play(p)
                .map_err(|e| anyhow!("opponent's MOVE {text}: {e}"))?;
            if game.outcome().is_none() {
                let p = gomoku_answer(&mut game, player, start)?;
                send(&mut output, &format!("MOVE {}", game.format_move(p)))?;
            }
        }
    }
    Ok(())
}

/// Gomocup's `x,y` (also tolerates spaces around the numbers).
fn parse_xy(text: &str) -> anyhow::Result<(u8, u8, Option<u8>)> {
    let mut parts = text.split(',');
    let x = number(parts.next(), "x")?;
    let y = number(parts.next(), "y")?;
    let f = match parts.next() {
        Some(f) => Some(number(Some(f), "field")?),
        None => None,
    };
    Ok((x, y, f))
}

/// The rule a Gomocup `INFO rule` bitmask asks for (4 renju, 1 exactly five, else freestyle).
fn rule_from_mask(mask: u32) -> Rule {
    if mask & 4 != 0 {
        Rule::Renju
    } else if mask & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    }
}

/// Gomocup's time keys: `timeout_turn` and `timeout_match` (0: no limit, as arbiter sends
/// for none) set the limits, `time_left` is the referee's count of our game time.
fn gomocup_time(player: &mut Player, key: &str, ms: u64) {
    let clock = &mut player.clock;
    match key {
        "timeout_turn" => clock.limits.move_time = TimeLimits::ms(ms),
        "timeout_match" => clock.limits.game_time = TimeLimits::ms(ms),
        _ => clock.set_left(Some(Duration::from_millis(ms))),
    }
}

/// The Gomocup protocol: `START n`, `INFO`, `BEGIN`, `TURN x,y`, `BOARD` ... `DONE`, `ABOUT`,
/// `RESTART`, `TAKEBACK`, `END`.
pub fn gomocup(
    config: gomoku::Config,
    player: &mut Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut config = config;
    let mut game: Option<Gomoku> = None;
    while let Some(line) = next_line(&mut input)? {
        let start = Instant::now();
        let line = line.trim();
        let (cmd, rest) = match line.split_once(' ') {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd.to_ascii_uppercase().as_str() {
            "" => {}
            "START" => {
                let size: u8 = match rest.parse() {
                    Ok(n) => n,
                    Err(_) => {
                        send(&mut output, &format!("ERROR bad board size {rest:?}"))?;
                        continue;
                    }
                };
                config.size = size;
                player.clock.restart();
                super::gomoku::warm_up();
                match Gomoku::new(&config) {
                    Ok(g) => {
                        game = Some(g);
                        send(&mut output, "OK")?;
                    }
                    Err(e) => send(&mut output, &format!("ERROR {e}"))?,
                }
            }
            "RESTART" => {
                game = Some(Gomoku::new(&config)?);
                player.clock.restart();
                send(&mut output, "OK")?;
            }
            "INFO" => {
                let mut words = rest.split_whitespace();
                let key = words.next().map(str::to_ascii_lowercase);
                match key.as_deref() {
                    Some("rule") => {
                        let mask: u32 = number(words.next(), "rule")?;
                        config.rule = rule_from_mask(mask);
                        // The rule arrives after START: rebuild the (still empty) board with it.
                        if game.as_ref().is_some_and(|g| g.history().is_empty()) {
                            game = Some(Gomoku::new(&config)?);
                        }
                    }
                    Some(key @ ("timeout_turn" | "timeout_match" | "time_left")) => {
                        // A value that is not a number is ignored, as unknown INFO keys are.
                        if let Ok(ms) = number::<u64>(words.next(), key) {
                            gomocup_time(player, key, ms);
                        }
                    }
                    _ => {}
                }
            }
            "ABOUT" => send(
                &mut output,
                "name=\"arbiter-builtin\", version=\"1\", author=\"arbiter\", country=\"-\"",
            )?,
            "BEGIN" => {
                let g = game.as_mut().ok_or_else(|| anyhow!("BEGIN before START"))?;
                let p = gomoku_answer(g, player, start)?;
                send(&mut output, &format!("{},{}", p.x, p.y))?;
            }
            "TURN" => {
                let g = game.as_mut().ok_or_else(|| anyhow!("TURN before START"))?;
                let (x, y, _) = parse_xy(rest)?;
                g.play(Point::new(x, y))
                    .map_err(|e| anyhow!("opponent's TURN {x},{y}: {e}"))?;
                let p = gomoku_answer(g, player, start)?;
                send(&mut output, &format!("{},{}", p.x, p.y))?;
            }
            "BOARD" => {
                let mut fields = Vec::new();
                loop {
                    let row = next_line(&mut input)?
                        .ok_or_else(|| anyhow!("end of input inside BOARD"))?;
                    let row = row.trim();
                    if row.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    if row.is_empty() {
                        continue;
                    }
                    fields.push(parse_xy(row)?);
                }
                // Stones come in move order; whoever has to move now is us.
                let me = if fields.len() % 2 == 0 {
                    Seat::FIRST
                } else {
                    Seat::SECOND
                };
                let stones: Vec<(Point, Seat)> = fields
                    .iter()
                    .filter_map(|&(x, y, f)| match f {
                        Some(1) => Some((Point::new(x, y), me)),
                        Some(2) => Some((Point::new(x, y), me.other())),
                        _ => None,
                    })
                    .collect();
                let mut g = Gomoku::from_stones(&config, &stones, me)?;
                let p = gomoku_answer(&mut g, player, start)?;
                send(&mut output, &format!("{},{}", p.x, p.y))?;
                game = Some(g);
            }
            "TAKEBACK" => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| anyhow!("TAKEBACK before START"))?;
                let (x, y, _) = parse_xy(rest)?;
                let mut history = g.history().to_vec();
                if history.last() == Some(&Point::new(x, y)) {
                    history.pop();
                    let mut fresh = Gomoku::new(&config)?;
                    for p in history {
                        fresh
                            .play(p)
                            .map_err(|e| anyhow!("replaying for TAKEBACK: {e}"))?;
                    }
                    *g = fresh;
                }
                send(&mut output, "OK")?;
            }
            "END" => return Ok(()),
            _ => send(&mut output, &format!("UNKNOWN command {cmd}"))?,
        }
    }
    Ok(())
}

/// The 2048 duel's `duel` protocol: `START s R`, `RANDOM ...`, `PLACE` / `SLIDE` / `SKIP`,
/// `OPPONENT d`, `END f`.
pub fn duel(
    player: &mut Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut me = Seat::FIRST;
    let mut rounds: u16 = 0;
    let mut game: Option<Duel> = None;
    while let Some(line) = next_line(&mut input)? {
        let start = Instant::now();
        let mut words = line.split_whitespace();
        match words.next() {
            Some("START") => {
                player.clock.restart();
                let s: u8 = number(words.next(), "seat")?;
                me = Seat::from_index(usize::from(s)).ok_or_else(|| anyhow!("seat {s}"))?;
                rounds = number(words.next(), "rounds")?;
            }
            Some("RANDOM") => {
                let values = words
                    .map(|w| number(Some(w), "random value"))
                    .collect::<anyhow::Result<Vec<u32>>>()?;
                let config = duel2048::Config {
                    rounds,
                    random: RandomSource::Sequence(values),
                };
                game = Some(Duel::new(&config)?);
                send(&mut output, "OK")?;
            }
            Some("OPPONENT") => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| anyhow!("OPPONENT before RANDOM"))?;
                let text = words.collect::<Vec<_>>().join(" ");
                play_forced(g, me)?;
                if g.to_move() != Some(me.other()) {
                    bail!("OPPONENT {text} but it is not the opponent's step");
                }
                let mv = if text == "skip" {
                    g.forced_move()
                        .ok_or_else(|| anyhow!("the opponent skipped a step with a choice"))?
                } else {
                    g.parse_move(&text)
                        .map_err(|e| anyhow!("OPPONENT {text}: {e}"))?
                };
                g.play(mv).map_err(|e| anyhow!("OPPONENT {text}: {e}"))?;
            }
            Some(cmd @ ("PLACE" | "SLIDE")) => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| anyhow!("{cmd} before RANDOM"))?;
                play_forced(g, me.other())?;
                if g.to_move() != Some(me) {
                    bail!("{cmd} but it is not our step");
                }
                // `PLACE r t o`: t is our game time left in ms (0 when the game has no clock).
                let _round = words.next();
                if let Some(Ok(ms)) = words.next().map(str::parse::<u64>) {
                    player.clock.set_left(TimeLimits::ms(ms));
                }
                // A placement and a slide each round that is left.
                let to_go = 2 * u32::from(rounds.saturating_sub(g.round()).max(1));
                let deadline = player.clock.deadline(start, to_go);
                let mv = super::duel::choose_within(g, player.depth, &mut player.rng, &deadline)
                    .ok_or_else(|| anyhow!("{cmd} but we have no decision"))?;
                player.clock.spent(start.elapsed());
                g.play(mv).map_err(|e| anyhow!("own move: {e}"))?;
                let text = match mv {
                    duel2048::Move::Place { row, col } => format!("{row} {col}"),
                    duel2048::Move::Slide(d) => d.as_str().to_string(),
                    duel2048::Move::Skip => bail!("{cmd} but our step is skipped"),
                };
                send(&mut output, &text)?;
            }
            Some("SKIP") => {
                if let Some(g) = game.as_mut() {
                    play_forced(g, me.other())?;
                    play_forced(g, me)?;
                }
            }
            Some("END") => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}
