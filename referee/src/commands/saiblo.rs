//! `arbiter logic` and `arbiter judge`: the Saiblo commands (see `docs/saiblo.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;

use super::game_config;
use crate::cli::GameArgs;
use arbiter_saiblo::judge::{self, JudgeSpec};
use arbiter_saiblo::logic::{self, LogicOptions};
use arbiter_sandbox::Containment;

#[derive(Args, Debug)]
#[command(
    after_help = "Speaks seed 002's judger protocol on stdin/stdout; start it from a \
Saiblo judger or from `arbiter judge --logic 'arbiter logic reversi --size 8' ...`.\n\
Toward the AIs it speaks our line protocols in 8-digit-length-prefixed bodies; see docs/saiblo.md.\n\
duel2048 without --seed takes the seed from init's config.random_seed (Saiblo's per-match seed)."
)]
pub struct LogicArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Time for one move in milliseconds (the round time sent to the judger; default 5000)
    #[arg(long, value_name = "MS")]
    pub move_time: Option<u64>,
    /// A player's total thinking time in milliseconds, from the judger's figures (0 = none;
    /// default 180000 for reversi, 5000 for duel2048)
    #[arg(long, value_name = "MS")]
    pub game_time: Option<u64>,
    /// Longest AI message in bytes (the round config's length)
    #[arg(long, default_value_t = 2048)]
    pub length: u64,
    /// Event name written into the replay
    #[arg(long)]
    pub event: Option<String>,
    /// Start from this opening, moves in the game's notation ("d3 c5", "h8 i9"). The AIs are
    /// told its position: Reversi by a `BOARD` line (as `reversi-board`), Gomoku by `BOARD`
    #[arg(long, value_name = "MOVES")]
    pub opening: Option<String>,
    /// How long to wait for the judger's answer to request_end_state before deciding the end
    /// states alone, in milliseconds (a judger need not implement it: Saiblo's public local
    /// judger does not)
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub end_state_timeout: u64,
    /// Do not send request_end_state at all; the logic decides the end states
    #[arg(long)]
    pub no_end_state_request: bool,
    /// Send each move to spectators as a watch message (off by default: Saiblo's public local
    /// judger cannot parse them)
    #[arg(long)]
    pub watch: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  arbiter judge --logic 'arbiter logic reversi --size 8' \
--ai 'python3 bots/saiblo/reversi_bot.py greedy' --ai './reversi_bot random' --replay out.json\n  \
arbiter judge --logic 'python3 tests/saiblo/rps_logic.py' --ai 'python3 tests/saiblo/rps_ai.py rock' \
--ai 'python3 tests/saiblo/rps_ai.py cycle'"
)]
pub struct JudgeArgs {
    /// The game logic's command line
    #[arg(long)]
    pub logic: String,
    /// An AI's command line, once per player in player order
    #[arg(long = "ai", required = true)]
    pub ais: Vec<String>,
    /// Where the logic writes its replay (default: saiblo-replay.json in a temporary directory)
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// The init message's config, as JSON
    #[arg(long, default_value = "{}")]
    pub config: String,
    /// Memory per AI in MB (0 = none)
    #[arg(long, default_value_t = 350)]
    pub memory: u64,
    /// Grace over each round's time in milliseconds
    #[arg(long, default_value_t = 50)]
    pub tolerance: u64,
    /// Seconds the logic may stay silent while no AI is due
    #[arg(long, default_value_t = 60)]
    pub logic_timeout: u64,
    /// Pin AI i to the i-th of these cores (cyclically); default: not pinned
    #[arg(long, value_delimiter = ',', value_name = "CORES")]
    pub cores: Vec<usize>,
    /// Write the watch messages here, one per line
    #[arg(long)]
    pub watch: Option<PathBuf>,
    /// Print the outcome as JSON
    #[arg(long)]
    pub json: bool,
    /// Serve the logic's watch messages to spectators in the browser (seed 002's spectator
    /// mode) on ADDR (default 127.0.0.1:8090)
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = super::live::DEFAULT_ADDR)]
    pub live: Option<std::net::SocketAddr>,
}

/// Refuses the logic's limits that cannot work, naming the bound, before the judger is spoken to.
fn check_logic(a: &LogicArgs) -> anyhow::Result<()> {
    use arbiter_match::bounds::{flag_name, MAX_TIME_MS};
    use arbiter_saiblo::message::{MAX_LENGTH_BYTES, MIN_LENGTH_BYTES};
    let times = arbiter_match::game::LimitOverrides {
        move_ms: a.move_time,
        game_ms: a.game_time,
        ..Default::default()
    };
    for w in times.check().map_err(|e| anyhow::anyhow!(flag_name(&e)))? {
        eprintln!("warning: {}", flag_name(&w));
    }
    if !(MIN_LENGTH_BYTES..=MAX_LENGTH_BYTES).contains(&a.length) {
        bail!(
            "--length {}: from {MIN_LENGTH_BYTES} to {MAX_LENGTH_BYTES} bytes (an AI's whole \
             message, its log lines included; the seeds use 2048)",
            a.length
        );
    }
    if a.end_state_timeout > MAX_TIME_MS {
        bail!(
            "--end-state-timeout {}: at most {MAX_TIME_MS} ms (a day)",
            a.end_state_timeout
        );
    }
    Ok(())
}

/// Refuses the judge's limits that cannot work, naming the bound.
fn check_judge(a: &JudgeArgs) -> anyhow::Result<()> {
    use arbiter_match::bounds::{flag_name, MAX_TIME_MS};
    let limits = arbiter_match::game::LimitOverrides {
        memory_mb: Some(a.memory),
        tolerance_ms: Some(a.tolerance),
        ..Default::default()
    };
    limits
        .check()
        .map_err(|e| anyhow::anyhow!(flag_name(&e).replace("--time-tolerance", "--tolerance")))?;
    let max_s = MAX_TIME_MS / 1000;
    if a.logic_timeout > max_s {
        bail!(
            "--logic-timeout {}: at most {max_s} s (a day)",
            a.logic_timeout
        );
    }
    Ok(())
}

pub fn run_logic(a: &LogicArgs) -> anyhow::Result<ExitCode> {
    check_logic(a)?;
    let config = game_config(&a.game)?;
    let mut options = LogicOptions::default_for(config);
    if let Some(ms) = a.move_time {
        options.move_time = Duration::from_millis(ms.max(1));
    }
    if let Some(ms) = a.game_time {
        options.game_time = (ms > 0).then(|| Duration::from_millis(ms));
    }
    options.length = a.length;
    options.seed_from_init = a.game.seed.is_none();
    options.event = a.event.clone();
    options.end_state_wait =
        (!a.no_end_state_request).then(|| Duration::from_millis(a.end_state_timeout));
    options.watch = a.watch;
    if let Some(text) = &a.opening {
        let moves: Vec<String> = super::split_moves(text)
            .into_iter()
            .map(String::from)
            .collect();
        // Checked now, so that a typo stops before the judger is spoken to.
        let mut g = arbiter_engine::AnyGame::new(&options.game)?;
        for m in &moves {
            g.play_text(m)
                .map_err(|e| anyhow::anyhow!("--opening: move {m}: {e}"))?;
        }
        if g.outcome().is_some() {
            anyhow::bail!("--opening: the opening ends the game");
        }
        if matches!(g, arbiter_engine::AnyGame::Duel2048(_)) && !moves.is_empty() {
            anyhow::bail!("--opening: the 2048 duel has no openings");
        }
        options.opening = moves;
    }
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    // The notes go out as they happen: the judger may stop the logic once it has the end.
    options.log = Some(|text| eprintln!("{text}"));
    logic::run(&options, std::io::stdin(), stdout).map_err(anyhow::Error::msg)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_judge(a: &JudgeArgs) -> anyhow::Result<ExitCode> {
    check_judge(a)?;
    let config: serde_json::Value =
        serde_json::from_str(&a.config).context("--config is not JSON")?;
    let replay = match &a.replay {
        Some(p) => p.clone(),
        None => std::env::temp_dir().join(format!("saiblo-replay-{}.json", std::process::id())),
    };
    let spec = JudgeSpec {
        logic: a.logic.clone(),
        ais: a.ais.clone(),
        replay,
        config,
        memory_bytes: (a.memory > 0).then_some(a.memory << 20),
        tolerance: Duration::from_millis(a.tolerance),
        logic_timeout: Duration::from_secs(a.logic_timeout.max(1)),
        cores: a.cores.clone(),
    };
    let containment = Containment::detect();
    let live = match a.live {
        Some(addr) => Some(super::live::LiveServer::start(
            addr,
            Duration::ZERO,
            arbiter_live::game::Spectators::Public,
        )?),
        None => None,
    };
    let watched = live.as_ref().map(|l| {
        let game = l.hub.open("Saiblo judge");
        eprintln!("watch live: {}/live/{}", l.base, game.id);
        game
    });
    let outcome = judge::judge_watched(&spec, &containment, &mut |w| {
        if let Some(g) = &watched {
            g.feed(w);
        }
    })
    .map_err(anyhow::Error::msg)?;
    if let Some(l) = &live {
        l.linger();
    }
    if let Some(path) = &a.watch {
        let mut text = outcome.watch.join("\n");
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let scores: serde_json::Map<String, serde_json::Value> = outcome
            .scores
            .iter()
            .map(|(p, s)| (p.to_string(), serde_json::Value::Number(s.clone())))
            .collect();
        let v = serde_json::json!({
            "scores": scores,
            "end_state": outcome.end_state,
            "judged_state": outcome.judged_state,
            "errors": outcome.errors.iter().map(|e| serde_json::json!({
                "player": e.player, "state": e.state, "error": e.error.code(), "error_log": e.error_log
            })).collect::<Vec<_>>(),
            "watch": outcome.watch.len(),
            "warnings": outcome.warnings,
            "replay": spec.replay,
        });
        writeln!(out, "{v}")?;
    } else {
        for w in &outcome.warnings {
            eprintln!("warning: {w}");
        }
        judge::print_outcome(&mut out, &spec, &outcome)?;
    }
    Ok(ExitCode::SUCCESS)
}
