//! `arbiter tournament`: run, resume, status, report and submit.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use arbiter_tournament::report::publish::SiteOptions;
use arbiter_tournament::report::{html, terminal, Report};
use arbiter_tournament::runner::{self, RunOptions, RunSummary};
use arbiter_tournament::Tournament;

#[derive(Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "PATH is the tournament's output directory (holding tournament.db) or its config file.\n\n\
Examples:\n  arbiter tournament class.toml\n  arbiter tournament resume class.toml\n  \
arbiter tournament report out/ --html site/\n  arbiter tournament submit out/ alice './alice_v2'"
)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,
    /// The config (TOML) of a new tournament: same as `run CONFIG`
    #[arg(value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunFlags,
}

#[derive(Args, Debug, Clone, Default)]
pub struct RunFlags {
    /// Games at once (default: the config's, else one per core)
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// No progress bar and no table at the end
    #[arg(long, short)]
    pub quiet: bool,
    /// Serve the games live on ADDR (default 127.0.0.1:8090): a page lists the games in
    /// progress, and clicking one watches it
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = super::live::DEFAULT_ADDR)]
    pub live: Option<std::net::SocketAddr>,
    /// With --live: spectators get moves at least MS apart (the games are not slowed)
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "live")]
    pub live_delay: u64,
    /// With --live, a game that hides something (hands, sealed bids): what its spectators
    /// see while it runs. `public`: what a table of people sees; `full`: everything (bots
    /// alone play a tournament). Once a game is over, everyone sees everything
    #[arg(
        long,
        value_name = "WHAT",
        value_enum,
        default_value_t,
        requires = "live"
    )]
    pub live_spectators: crate::cli::LiveSpectators,
    /// Play the games through the job queue in this database (postgres://...), on every
    /// `arbiter worker` attached to it; remembered, so `resume` needs it only to change it
    #[arg(long, value_name = "URL", conflicts_with = "live")]
    pub db: Option<String>,
    /// With --db: only coordinate and record; the workers play every game
    #[arg(long)]
    pub no_local_workers: bool,
    /// With --db: seconds a game stays claimed by this machine without a heartbeat
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub lease: u64,
}

#[derive(Subcommand, Debug)]
pub enum TournamentCommand {
    /// Start a tournament: check the config, build the bots, store the schedule, play
    Run {
        /// The tournament's TOML file (see tests/fixtures/tournament/example.toml)
        config: PathBuf,
        #[command(flatten)]
        run: RunFlags,
        /// Do not run the bots' build commands
        #[arg(long)]
        no_build: bool,
    },
    /// Continue a stopped tournament: plays exactly the games not yet recorded
    Resume {
        /// Output directory, database or config file
        path: PathBuf,
        #[command(flatten)]
        run: RunFlags,
    },
    /// Games played and to play
    Status {
        /// Output directory, database or config file
        path: PathBuf,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Standings, ratings and statistics: a table, JSON, CSV or a static HTML site
    Report {
        /// Output directory, database or config file
        path: PathBuf,
        /// Everything as JSON: standings, ratings, likelihood of superiority, statistics, games
        #[arg(long, conflicts_with_all = ["csv", "html"])]
        json: bool,
        /// The standings as CSV (the site also writes games.csv)
        #[arg(long, conflicts_with = "html")]
        csv: bool,
        /// Write the site into this directory
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// The web player to embed (default: the one built into arbiter)
        #[arg(long, value_name = "FILE")]
        player: Option<PathBuf>,
        /// Leave the bots' own output (stderr, DEBUG lines) out of the site, for a public one
        #[arg(long, requires = "html")]
        hide_bot_output: bool,
        /// The site's language: en or zh-CN (the CLI's own output stays English)
        #[arg(long, requires = "html", default_value = "en", value_parser = parse_lang)]
        lang: arbiter_i18n::Lang,
    },
    /// Add a new version of a bot (or a new bot); only its games are played again
    Submit {
        /// Output directory, database or config file
        path: PathBuf,
        /// The bot's name (a new name adds a bot)
        name: String,
        /// Its command line, or builtin[:random|:N]
        command: String,
        /// Its protocol (default: the game's)
        #[arg(long)]
        protocol: Option<String>,
        /// Build command to run first (in the config's directory)
        #[arg(long)]
        build: Option<String>,
        /// Only schedule the games; play them with `resume`
        #[arg(long)]
        no_run: bool,
        #[command(flatten)]
        run: RunFlags,
    },
}

/// A language the report's site speaks.
fn parse_lang(tag: &str) -> Result<arbiter_i18n::Lang, String> {
    arbiter_i18n::Lang::parse(tag).ok_or_else(|| format!("{tag:?}: the report speaks en and zh-CN"))
}

pub fn run(a: &TournamentArgs) -> anyhow::Result<ExitCode> {
    match &a.command {
        None => match &a.config {
            Some(c) => start(c, &a.run, false),
            None => anyhow::bail!(
                "give a config file (arbiter tournament CONFIG.toml) or a subcommand; see --help"
            ),
        },
        Some(TournamentCommand::Run {
            config,
            run,
            no_build,
        }) => start(config, run, *no_build),
        Some(TournamentCommand::Resume { path, run }) => {
            // Killed before the database was made: resuming from the config starts it.
            let config_file = path.is_file() && !path.ends_with(arbiter_tournament::store::DB_FILE);
            if config_file && !Tournament::exists(path) {
                eprintln!("{}: not started yet; starting it", path.display());
                return start(path, run, false);
            }
            let mut t = Tournament::open(path)?;
            play(&mut t, run)
        }
        Some(TournamentCommand::Status { path, json }) => status(path, *json),
        Some(TournamentCommand::Report {
            path,
            json,
            csv,
            html: dir,
            player,
            hide_bot_output,
            lang,
        }) => {
            let t = Tournament::open(path)?;
            let r = Report::build(&t)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else if *csv {
                print!("{}", r.standings_csv());
            } else if let Some(dir) = dir {
                let (player, _) = arbiter_tournament::player::load(player.as_deref())?;
                let options = SiteOptions {
                    hide_bot_output: *hide_bot_output,
                    lang: *lang,
                };
                let pages =
                    html::write_site_with(&r, &t.resolved.output, dir, Some(&player), &options)?;
                println!(
                    "wrote {} ({pages} game pages, web player embedded): open {}",
                    dir.display(),
                    dir.join("index.html").display()
                );
            } else {
                print!("{}", terminal::render(&r));
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(TournamentCommand::Submit {
            path,
            name,
            command,
            protocol,
            build,
            no_run,
            run,
        }) => {
            let mut t = Tournament::open(path)?;
            if let Some(b) = build {
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(b)
                    .current_dir(&t.resolved.base_dir)
                    .output()?;
                if !out.status.success() {
                    anyhow::bail!(
                        "the build command failed ({}): {b}\n--- stdout\n{}--- stderr\n{}",
                        out.status,
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            }
            let added = t.submit(name, command, protocol.as_deref())?;
            eprintln!("{name}: new version, {added} games scheduled");
            if *no_run {
                return Ok(ExitCode::SUCCESS);
            }
            play(&mut t, run)
        }
    }
}

fn start(config: &Path, flags: &RunFlags, no_build: bool) -> anyhow::Result<ExitCode> {
    // Check the config before building anything.
    let (file, _) = arbiter_tournament::config::TournamentConfig::load(config)?;
    let base = config
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let resolved = file.resolve(&base)?;
    if !no_build {
        runner::build_bots(&resolved, flags.quiet)?;
    }
    let mut t = Tournament::create(config)?;
    if !flags.quiet {
        eprintln!(
            "{}: {} games scheduled, database {}",
            t.resolved.file.name.as_deref().unwrap_or("tournament"),
            t.store.games(Some("scheduled"))?.len(),
            arbiter_tournament::store::Store::path_in(&t.resolved.output).display()
        );
        for note in &t.resolved.notes {
            eprintln!("note: {note}");
        }
    }
    play(&mut t, flags)
}

fn play(t: &mut Tournament, flags: &RunFlags) -> anyhow::Result<ExitCode> {
    let queue_url = match &flags.db {
        Some(url) => Some(url.clone()),
        None => t.store.meta(arbiter_tournament::queued::QUEUE_META)?,
    };
    if let Some(url) = queue_url {
        return play_on_queue(t, flags, url);
    }
    if flags.no_local_workers {
        anyhow::bail!("--no-local-workers needs --db: the workers play through a queue");
    }
    let live = match flags.live {
        Some(addr) => Some(super::live::LiveServer::start(
            addr,
            std::time::Duration::from_millis(flags.live_delay),
            flags.live_spectators.into(),
        )?),
        None => None,
    };
    let observe = live.as_ref().map(|server| {
        eprintln!("live games: {}/live", server.base);
        let hub = std::sync::Arc::clone(&server.hub);
        runner::Observe(std::sync::Arc::new(move |id, _spec, bots| {
            let title = format!("game {id}: {} vs {}", bots[0].name, bots[1].name);
            let game = hub.open_as(id as u64, title);
            Some(Box::new(game.observer()) as Box<dyn arbiter_match::live::Observer>)
        }))
    });
    let opts = RunOptions {
        concurrency: flags.concurrency,
        quiet: flags.quiet,
        max_games: None,
        share_cores: None,
        observe,
    };
    let s: RunSummary = runner::run(&mut t.store, &t.resolved, &opts)?;
    if let Some(server) = &live {
        server.linger();
    }
    finish(t, flags, &s)
}

/// Plays through the job queue at `url` (see [`arbiter_tournament::queued`]).
fn play_on_queue(t: &mut Tournament, flags: &RunFlags, url: String) -> anyhow::Result<ExitCode> {
    let local_slots = if flags.no_local_workers {
        0
    } else {
        flags
            .concurrency
            .or(t.resolved.file.concurrency)
            .unwrap_or_else(|| {
                arbiter_sandbox::Containment::detect()
                    .online_cpus()
                    .len()
                    .max(1)
            })
    };
    if !flags.quiet {
        eprintln!(
            "games on the queue at {}; {}",
            arbiter_queue::db::redact(&url),
            match local_slots {
                0 => "played by its workers only".to_string(),
                n => format!("this machine plays {n} at once too"),
            }
        );
    }
    let opts = arbiter_tournament::queued::QueueOptions {
        url,
        local_slots,
        lease: std::time::Duration::from_secs(flags.lease),
        quiet: flags.quiet,
    };
    let s = tokio::runtime::Runtime::new()?.block_on(arbiter_tournament::queued::run(
        &mut t.store,
        &t.resolved,
        &opts,
    ))?;
    finish(t, flags, &s)
}

/// Warnings, figures and the standings after a run.
fn finish(t: &Tournament, flags: &RunFlags, s: &RunSummary) -> anyhow::Result<ExitCode> {
    if !flags.quiet {
        for w in &s.warnings {
            eprintln!("warning: {w}");
        }
        let at_once = match s.concurrency {
            0 => "by the queue's workers".to_string(),
            n => format!("with {n} at once"),
        };
        eprintln!(
            "{} games played in {:.1} s {at_once}",
            s.played,
            s.wall.as_secs_f64(),
        );
        let r = Report::build(t)?;
        print!("{}", terminal::render(&r));
    }
    // A run whose every finished game ended with no result (a module's fault, the ply limit,
    // a judging fault) decided nothing: a script must not read it as success.
    let games = t.store.games(None)?;
    let finished = games.iter().filter(|g| g.result.is_some()).count();
    let counted = games
        .iter()
        .filter(|g| g.result.as_ref().is_some_and(|r| r.counts()))
        .count();
    if s.played > 0 && finished > 0 && counted == 0 {
        eprintln!(
            "error: none of the {finished} finished games produced a result (see the report's \
             reasons)"
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn status(path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let t = Tournament::open(path)?;
    if t.resolved.seats > 2 {
        return table_status(&t, path, json);
    }
    let games = t.store.games(None)?;
    let done: Vec<_> = games.iter().filter(|g| g.state == "done").collect();
    let pending = games.len() - done.len();
    let counts = t.store.counts()?;
    let running = runner::is_running(&t.resolved.output);
    let pace = t.store.pace(100)?;
    // Games per second over the recent window; whole-second timestamps make tiny spans coarse.
    let rate = pace.map(|(n, span)| (n - 1) as f64 / span.max(1) as f64);
    let eta = match rate {
        Some(r) if running && pending > 0 && r > 0.0 => Some(pending as f64 / r),
        _ => None,
    };
    let mut points = std::collections::BTreeMap::<String, f64>::new();
    let mut failures = std::collections::BTreeMap::<String, usize>::new();
    for g in &done {
        let Some(r) = &g.result else { continue };
        runner::tally(&mut points, &g.seats, r);
        if r.culprit.is_some() {
            *failures.entry(r.reason_code.clone()).or_default() += 1;
        }
    }
    let mut leaders: Vec<(String, f64)> = points.into_iter().collect();
    leaders.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if json {
        let v = serde_json::json!({
            "scheduled": games.len(),
            "done": done.len(),
            "pending": pending,
            "running": running,
            "games_per_minute": rate.map(|r| r * 60.0),
            "eta_seconds": eta.map(f64::round),
            "game_points": leaders.iter().map(|(n, p)| serde_json::json!({"bot": n, "points": p})).collect::<Vec<_>>(),
            "failures": failures,
            "rows_by_state": counts.iter().map(|(s, n)| (s.clone(), *n)).collect::<std::collections::BTreeMap<_, _>>(),
            "bots": t.store.latest_versions()?,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {} of {} games played, {pending} to play",
        t.resolved.file.name.as_deref().unwrap_or("tournament"),
        done.len(),
        games.len(),
    );
    let pace_text = rate.map_or(String::new(), |r| {
        format!(", {:.1} games/min recently", r * 60.0)
    });
    match (running, eta) {
        (true, Some(eta)) => println!(
            "  running{pace_text}; about {} to go",
            crate::text::duration_words(eta)
        ),
        (true, None) => println!("  running{pace_text}"),
        (false, _) if pending > 0 => println!(
            "  not running: `arbiter tournament resume {}` plays the rest",
            path.display()
        ),
        (false, _) => println!("  complete: `arbiter tournament report {}`", path.display()),
    }
    if !leaders.is_empty() {
        let top: Vec<String> = leaders
            .iter()
            .take(5)
            .map(|(n, p)| format!("{n} {p}"))
            .collect();
        println!("  game points: {}", top.join(", "));
    }
    if !failures.is_empty() {
        let list: Vec<String> = failures.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "  failures: {} ({})",
            failures.values().sum::<usize>(),
            list.join(", ")
        );
    }
    for (s, n) in counts {
        println!("  rows {s}: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `status` of a tournament of tables: games played and to play, and the points so far.
fn table_status(t: &Tournament, path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let games = t.store.table_games(None)?;
    let done = games.iter().filter(|g| g.result.is_some()).count();
    let running = runner::is_running(&t.resolved.output);
    let per_place =
        arbiter_tournament::tables::points_per_place(&t.resolved.file, t.resolved.seats);
    let mut points = std::collections::BTreeMap::<String, f64>::new();
    for g in &games {
        arbiter_tournament::table_run::tally(&mut points, g, &per_place);
    }
    if json {
        let v = serde_json::json!({
            "seats": t.resolved.seats,
            "scheduled": games.len(),
            "done": done,
            "pending": games.len() - done,
            "running": running,
            "points": points,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {done} of {} games played at tables of {}, {} to play{}",
        t.resolved.file.name.as_deref().unwrap_or("tournament"),
        games.len(),
        t.resolved.seats,
        games.len() - done,
        if running { " (running)" } else { "" }
    );
    if done < games.len() && !running {
        println!(
            "  not running: `arbiter tournament resume {}` plays the rest",
            path.display()
        );
    }
    println!("  {}", runner::leaders(&points));
    Ok(ExitCode::SUCCESS)
}
