//! `arbiter match`: games between two bots, with progress, replays and a summary.

use std::cell::RefCell;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arbiter_engine::any::GameConfig;
use arbiter_engine::import::{gobang, sessdsa};
use arbiter_engine::Seat;

use super::import::write;
use crate::cli::{LimitArgs, MatchArgs};
use crate::text;
use arbiter_match::game::{GameLimits, GameSpec, Played, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_match::series::{self, MatchSpec, MatchSummary};
pub use arbiter_match::spec::{bot_spec, read_openings};
use arbiter_match::sprt::{SprtReport, SprtRun};
use arbiter_sandbox::Containment;

/// The most games one `arbiter match` plays (a tournament is the tool for more).
const MAX_GAMES: usize = 100_000;

/// An SPRT's game limit unless --max-games says otherwise.
pub(crate) const SPRT_GAMES: usize = 20_000;

pub fn run(a: &MatchArgs) -> anyhow::Result<ExitCode> {
    let seed = match a.game.seed {
        Some(seed) => seed,
        // A live match run again takes up its journal's match.
        None => super::live::earlier_seed(a)?.unwrap_or_else(fresh_seed),
    };
    let config = match_config(a, seed)?;
    let sprt = a
        .sprt
        .as_deref()
        .map(arbiter_match::sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let (games, option) = match (&sprt, a.max_games) {
        // Whole pairs: an odd limit is rounded up.
        (Some(_), n) => (n.unwrap_or(SPRT_GAMES).div_ceil(2) * 2, "--max-games"),
        (None, _) => (a.games, "--games"),
    };
    if games == 0 {
        bail!("{option} must be at least 1");
    }
    if games > MAX_GAMES {
        bail!("{option} {games}: more than the limit of {MAX_GAMES} games");
    }
    let openings = match &a.openings {
        Some(path) => read_openings(path, &config)?,
        None => Vec::new(),
    };
    let default = ProtocolKind::default_for(&config);
    let shared = parse_protocol(a.protocol.as_deref())?.unwrap_or(default);
    let mut protocols = [
        parse_protocol(a.protocol_a.as_deref())?.unwrap_or(shared),
        parse_protocol(a.protocol_b.as_deref())?.unwrap_or(shared),
    ];
    let chosen =
        [a.protocol_a.is_some(), a.protocol_b.is_some()].map(|c| c || a.protocol.is_some());
    super::live::resumable_protocols(&mut protocols, [&a.bot_a, &a.bot_b], chosen);
    let mut openings = openings;
    if sprt.is_some() && a.openings.is_none() {
        openings = shipped_suite(a, &config, &mut protocols)?;
    }
    for p in protocols {
        p.check(&config, !openings.is_empty())
            .map_err(anyhow::Error::msg)?;
    }
    let mut bots = vec![
        seat_spec(&a.bot_a, a.name_a.as_deref(), protocols[0], &config, "A")?,
        seat_spec(&a.bot_b, a.name_b.as_deref(), protocols[1], &config, "B")?,
    ];
    for (i, more) in a.more.iter().enumerate() {
        let fallback = ["C", "D", "E", "F", "G", "H"][i];
        bots.push(seat_spec(more, None, shared, &config, fallback)?);
    }
    check_seat_count(&config, bots.len())?;
    arbiter_match::spec::distinct_names(&mut bots);
    let people = bots.iter().any(super::live::is_human);
    let spectators = super::live::spectators(a, people)?;
    if people && a.live.is_none() {
        bail!("a human seat is played in the browser: add --live (it prints the page to open)");
    }
    // Said once, before any game: a bot that cannot start would lose every game for it.
    for bot in bots.iter().filter(|b| !super::live::is_human(b)) {
        arbiter_match::spec::check_bot_starts(bot)?;
    }
    // After the cheap checks: the module's acceptance plays a few games of its own.
    super::game::accept_module(&a.game, &config)?;
    let mut limit_args = a.limits.clone();
    if people {
        // People think in seconds, not milliseconds.
        limit_args.move_time.get_or_insert(60_000);
        limit_args.game_time.get_or_insert(30 * 60_000);
    }
    let limits = limits(&config, &limit_args)?;
    let containment = Containment::detect();
    for w in containment.warnings() {
        eprintln!("warning: {w}");
    }
    if let Some(c) = &a.limits.cores {
        check_cores(c, containment.online_cpus())?;
    }
    let n = bots.len();
    let cores: Vec<Option<usize>> = match &a.limits.cores {
        Some(c) if !c.is_empty() => (0..n).map(|i| Some(c[i % c.len()])).collect(),
        _ => {
            let cpus = containment.online_cpus();
            match cpus {
                [] => vec![None; n],
                cpus => (0..n).map(|i| Some(cpus[i % cpus.len()])).collect(),
            }
        }
    };
    if let Some(dir) = &a.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let scratch_root = std::env::temp_dir().join(format!("arbiter-scratch-{}", std::process::id()));
    let seats = Seats {
        cores,
        scratch_root: scratch_root.clone(),
    };
    let spec = MatchSpec {
        game: GameSpec {
            config: config.clone(),
            opening: Vec::new(),
            limits,
            event: None,
            seed: None,
            max_plies: arbiter_match::game::MAX_PLIES,
        },
        games,
        openings,
        seed,
    };
    let started = Instant::now();
    let mut save_error = None;
    let journal = super::live::match_journal(a, &spec, &bots)?;
    let journal_file = journal.as_ref().map(|j| std::sync::Arc::clone(&j.journal));
    let live = match a.live {
        Some(addr) => Some(super::live::LiveServer::start(
            addr,
            Duration::from_millis(a.live_delay),
            spectators,
        )?),
        None => None,
    };
    let mut live_games: Box<dyn arbiter_match::live::LiveGames> = match &live {
        Some(server) => {
            eprintln!("live games: {}/live", server.base);
            Box::new(super::live::HubGames::new(server, games, journal))
        }
        None => Box::new(arbiter_match::live::NotLive),
    };
    let sprt_run = sprt.map(|t| RefCell::new(SprtRun::new(t)));
    let summary = series::play_until(
        &spec,
        &bots.iter().collect::<Vec<_>>(),
        &seats,
        &containment,
        live_games.as_mut(),
        |i, played| {
            let path = match save_game(a, i, played) {
                Ok(p) => {
                    if let Some(j) = &journal_file {
                        j.ended(i);
                    }
                    p
                }
                Err(e) => {
                    save_error.get_or_insert(e);
                    None
                }
            };
            let mut line = progress_line(i, games, played);
            if let Some(run) = &sprt_run {
                let mut run = run.borrow_mut();
                let result = &played.replay.result;
                let paired = match result.reason {
                    arbiter_engine::replay::Reason::Aborted { .. } => run.add_no_result(),
                    _ => run.add_game(SprtRun::result_of(i, result.winner)),
                };
                if paired {
                    line = format!("{line} | {}", run.progress());
                }
            }
            if !a.quiet {
                eprintln!("{line}");
                if let Some(hint) = failure_hint(played, path.as_deref()) {
                    eprintln!("{hint}");
                }
            }
            path
        },
        |_| {
            sprt_run
                .as_ref()
                .is_none_or(|run| run.borrow().decision.is_none())
        },
    );
    let sprt_report = sprt_run.map(|run| run.into_inner().report());
    let _ = std::fs::remove_dir_all(&scratch_root);
    if let Some(server) = &live {
        server.linger();
    }
    if let Some(e) = save_error {
        return Err(e);
    }
    for w in &summary.warnings {
        eprintln!("warning: {w}");
    }
    let report = Report {
        summary: &summary,
        sprt: sprt_report.as_ref(),
    };
    if let Some(dir) = &a.output {
        write(
            &dir.join("summary.json"),
            &serde_json::to_string_pretty(&report)?,
        )?;
    }
    // Every game's replay is saved: nothing is left to take up.
    if let Some(j) = &journal_file {
        j.remove();
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_summary(&summary, started.elapsed());
        for line in sprt_report.iter().flat_map(SprtReport::lines) {
            println!("{line}");
        }
    }
    // A bot that passed the check above but still could not start (a broken executable).
    let never_started = summary
        .totals
        .iter()
        .any(|t| t.failures.contains_key("failed_to_start"));
    if never_started {
        eprintln!("error: a bot failed to start; see the verdicts above");
        return Ok(ExitCode::FAILURE);
    }
    // A match whose every game ended with no result (a module's fault, the ply limit, a
    // judging fault) decided nothing: a script must not read it as success.
    let no_result = summary.totals.first().map_or(0, |t| t.no_result);
    if !summary.games.is_empty() && no_result == summary.games.len() {
        eprintln!(
            "error: none of the {} games produced a result (see the reasons above)",
            summary.games.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The match summary, with the SPRT's figures when one ran.
#[derive(serde::Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    summary: &'a MatchSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<&'a SprtReport>,
}

/// An SPRT without --openings plays the game's shipped suite when the protocols can start from
/// an opening; built-in bots on Reversi are switched to `reversi-board` for it.
fn shipped_suite(
    a: &MatchArgs,
    config: &GameConfig,
    protocols: &mut [ProtocolKind; 2],
) -> anyhow::Result<Vec<Vec<String>>> {
    let Some((origin, text)) = arbiter_match::sprt::shipped_openings(config) else {
        return Ok(Vec::new());
    };
    let chosen = a.protocol.is_some() || a.protocol_a.is_some() || a.protocol_b.is_some();
    let builtins = [&a.bot_a, &a.bot_b]
        .iter()
        .all(|b| b.starts_with("builtin"));
    if protocols.iter().any(|p| p.check(config, true).is_err()) {
        if chosen || !builtins || !matches!(config, GameConfig::Reversi(_)) {
            eprintln!(
                "note: {origin} not used: the protocol cannot start from an opening \
                 (Reversi: --protocol reversi-board); every pair starts from the initial position"
            );
            return Ok(Vec::new());
        }
        *protocols = [ProtocolKind::ReversiBoard; 2];
    }
    arbiter_match::sprt::parse_openings(origin, text, config).map_err(anyhow::Error::msg)
}

/// A seat from the command line: `human[:NAME]` (a person in the browser), or a bot.
fn seat_spec(
    text: &str,
    name: Option<&str>,
    protocol: ProtocolKind,
    config: &GameConfig,
    fallback: &str,
) -> anyhow::Result<arbiter_match::game::BotSpec> {
    match super::live::human_name(text) {
        Some(person) => Ok(super::live::human_spec(name.unwrap_or(person), protocol)),
        None => bot_spec(text, name, protocol, config, fallback),
    }
}

fn parse_protocol(p: Option<&str>) -> anyhow::Result<Option<ProtocolKind>> {
    p.map(|s| s.parse::<ProtocolKind>().map_err(anyhow::Error::msg))
        .transpose()
}

/// The seeds' limits, with the command line's changes (0 = no limit); limits that cannot work
/// are refused with their bound (arbiter_match::bounds).
pub fn limits(config: &GameConfig, a: &LimitArgs) -> anyhow::Result<GameLimits> {
    let overrides = arbiter_match::game::LimitOverrides {
        move_ms: a.move_time,
        game_ms: a.game_time,
        handshake_ms: a.handshake_time,
        tolerance_ms: a.time_tolerance,
        memory_mb: a.memory,
        ponder: Some(!a.no_ponder),
        disk_mb: a.disk,
    };
    let warnings = overrides
        .check()
        .map_err(|e| anyhow::anyhow!(arbiter_match::bounds::flag_name(&e)))?;
    for w in warnings {
        eprintln!("warning: {}", arbiter_match::bounds::flag_name(&w));
    }
    Ok(overrides.apply(config))
}

/// `--cores` must name cores this process may run on (pinning to another fails every game).
fn check_cores(cores: &[usize], online: &[usize]) -> anyhow::Result<()> {
    if online.is_empty() {
        return Ok(());
    }
    match cores.iter().find(|c| !online.contains(c)) {
        Some(c) => bail!(
            "--cores {c}: not a core this machine lets arbiter use (these are: {})",
            online
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => Ok(()),
    }
}

fn save_game(a: &MatchArgs, i: usize, played: &Played) -> anyhow::Result<Option<String>> {
    let codes = [0, 1].map(|s| played.exits[s].as_ref().and_then(|e| e.code));
    if let Some(log) = &a.gobang_log {
        if let Ok(entry) = gobang::log_entry(&played.replay, codes) {
            append_json_array(log, entry)?;
        }
    }
    let Some(dir) = &a.output else {
        return Ok(None);
    };
    let path = series::replay_path(dir, i);
    if played.replay.game.as_module().is_some() {
        // A module game's file carries its module, so that it plays anywhere alone.
        let mut replay = played.replay.clone();
        arbiter_kit_host::host::embed_module(&mut replay);
        write(&path, &replay.to_json_pretty())?;
        return Ok(Some(path.display().to_string()));
    }
    write(&path, &played.replay.to_json_pretty())?;
    if matches!(played.replay.game, GameConfig::Duel2048(_)) {
        if let Ok(record) = sessdsa::write_record(&played.replay) {
            write(&path.with_extension("record.txt"), &record)?;
        }
    }
    Ok(Some(path.display().to_string()))
}

/// Appends to a JSON array file (the Gobang bridge appends its log the same way).
fn append_json_array(path: &Path, entry: serde_json::Value) -> anyhow::Result<()> {
    let existing = match arbiter_match::input::read_text(path, arbiter_match::input::GOBANG_LOG) {
        Err(arbiter_match::input::InputError::Read { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            String::new()
        }
        other => other?,
    };
    let mut games: Vec<serde_json::Value> = if existing.trim().is_empty() {
        Vec::new()
    } else {
        serde_json::from_str(&existing)
            .with_context(|| format!("{} is not a JSON array of games", path.display()))?
    };
    games.push(entry);
    write(path, &serde_json::to_string_pretty(&games)?)
}

fn progress_line(i: usize, total: usize, played: &Played) -> String {
    let r = &played.replay;
    let seat_names: Vec<&str> = r.players.iter().map(|p| p.name.as_str()).collect();
    // By the game's name: building the start position would load a module again per game.
    let label = |s: Seat| text::seat_label_of(r.game.name(), s);
    let result = match (r.result.winner, &r.result.reason) {
        (Some(w), _) => format!("{} wins", seat_names.get(w.index()).unwrap_or(&"?")),
        (None, arbiter_engine::replay::Reason::Aborted { .. }) => "no result".to_string(),
        (None, _) => "draw".to_string(),
    };
    let at = match r.result.reason.culprit() {
        Some(_) if !r.moves.is_empty() || !r.opening.is_empty() => {
            format!(" at move {}", r.moves.len() + 1)
        }
        Some(_) => " before the first move".to_string(),
        None => String::new(),
    };
    // Disc counts and tile sums say something; Gomoku's stone counts do not.
    let scores = match (&r.game, &r.scores) {
        (GameConfig::Gomoku(_), _) | (_, None) => String::new(),
        (_, Some(s)) => {
            let each: Vec<String> = s.iter().map(i64::to_string).collect();
            format!(" {}", each.join("-"))
        }
    };
    let ending = r
        .meta
        .ending
        .as_ref()
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    format!(
        "game {}/{total}: {} ({}) vs {} ({}): {result}, {}{ending}{at}{scores}",
        i + 1,
        seat_names.first().unwrap_or(&"?"),
        label(Seat::FIRST),
        seat_names.get(1).unwrap_or(&"?"),
        label(Seat::SECOND),
        r.result.reason,
    )
}

/// Under a failure verdict: the last line of the bot's stderr (a Python exception, an
/// assertion) and how to see everything it left.
fn failure_hint(played: &Played, path: Option<&str>) -> Option<String> {
    let failure = played.replay.failure.as_ref()?;
    let mut hint = String::new();
    if let Some(last) = failure.stderr.as_deref().and_then(|s| s.lines().last()) {
        let last: String = last.chars().take(160).collect();
        hint.push_str(&format!("    its stderr ends: {last}\n"));
    }
    if let Some(path) = path {
        hint.push_str(&format!(
            "    details: arbiter replay show {path} --frame fail --log"
        ));
    }
    let hint = hint.trim_end().to_string();
    (!hint.is_empty()).then_some(hint)
}

fn print_summary(s: &MatchSummary, elapsed: Duration) {
    println!();
    println!(
        "{:<24} {:>5} {:>5} {:>5} {:>10}  failures",
        "bot", "won", "drawn", "lost", "ms/move"
    );
    for (name, t) in s.bots.iter().zip(&s.totals) {
        let per_move = if t.moves > 0 {
            t.think_ms / t.moves as f64
        } else {
            0.0
        };
        let failures: Vec<String> = t
            .failures
            .iter()
            .map(|(k, v)| format!("{k} x{v}"))
            .collect();
        println!(
            "{:<24} {:>5} {:>5} {:>5} {:>10.2}  {}",
            name,
            t.wins,
            t.draws,
            t.losses,
            per_move,
            failures.join(", ")
        );
    }
    let no_result = s.totals.first().map_or(0, |t| t.no_result);
    if no_result > 0 {
        println!("{no_result} game(s) with no result (aborted), counted neither as wins nor draws");
    }
    println!(
        "{} games in {:.1} s (seed {}: --seed {} plays them again)",
        s.games.len(),
        elapsed.as_secs_f64(),
        s.seed,
        s.seed
    );
}

/// The game `a` asks for. `--seed` seeds the whole match; for a game with chance (the 2048
/// duel's sequence) it is also the seed of its chance, which advances pair by pair.
fn match_config(a: &MatchArgs, seed: u64) -> anyhow::Result<GameConfig> {
    if super::is_module(&a.game) {
        // As many seats as bots, unless the config says.
        let players = (!a.more.is_empty()).then_some(a.more.len() + 2);
        return super::game::module_game(&a.game, seed, None, players);
    }
    if !a.more.is_empty() {
        bail!(
            "{} bots given: {} has two seats (more bots play a game module of more seats)",
            a.more.len() + 2,
            a.game.game
        );
    }
    super::refuse_module_config(&a.game)?;
    let mut choice = super::game_choice(&a.game);
    choice.seed = None;
    Ok(arbiter_match::spec::game_config(&choice)?.with_chance_seed(seed))
}

/// One bot per seat: the game's seat count must be the number of bots.
fn check_seat_count(config: &GameConfig, bots: usize) -> anyhow::Result<()> {
    let seats = arbiter_engine::AnyGame::new(config)
        .map_err(|e| anyhow::anyhow!(e.message))?
        .seats();
    if seats != bots {
        bail!("{bots} bots for a game of {seats} seats: give one bot per seat");
    }
    Ok(())
}

/// A seed for a match run without `--seed`: the OS's randomness, through std's hasher keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}
