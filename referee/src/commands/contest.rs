//! `arbiter contest`: a course's contest website (init, users, serve, backup, export).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
arbiter contest init reversi-2026 --game reversi --size 16\n  \
arbiter contest init c4-2026 --game-module connect-four.wasm --game-config '{\"cols\": 8}'\n  \
arbiter contest users reversi-2026 roster.csv\n  \
arbiter contest serve reversi-2026 --workers 2\n  \
arbiter contest serve reversi-2026 --db postgres://arbiter@db.example/contest --listen 0.0.0.0:8080\n  \
arbiter contest demo\n  \
arbiter contest demo --game-module connect-four.wasm --game-config '{\"cols\": 8}'\n  \
arbiter contest backup reversi-2026 backup-$(date +%F).db\n  \
arbiter contest export reversi-2026 -o results/\n  \
arbiter contest similarity reversi-2026 --template starter.c --csv pairs.csv\n\n\
(starter.c: the starter bot the site hands out, http://HOST/starters/c; the similarity report leaves \
its code out.)\n\
The guide: docs/contest.md in arbiter's sources; the site serves each protocol at /protocols/NAME.")]
pub struct ContestArgs {
    #[command(subcommand)]
    pub command: ContestCommand,
}

#[derive(Subcommand, Debug)]
pub enum ContestCommand {
    /// Write DIR/contest.toml (commented) and create the database with a course staff account
    Init {
        dir: PathBuf,
        /// reversi, gomoku or duel2048, or a game the binary carries (amazons, dou-dizhu, ...:
        /// `arbiter game list`; another module: --game-module)
        #[arg(
            long,
            required_unless_present = "game_module",
            conflicts_with = "game_module"
        )]
        game: Option<String>,
        /// A game module (docs/game-kit.md) instead of a built-in game: copied into DIR
        #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "rule"])]
        game_module: Option<PathBuf>,
        /// A game module's configuration (--game-module, or a carried game), a JSON object
        /// ('{"cols": 8}')
        #[arg(long, value_name = "JSON")]
        game_config: Option<String>,
        /// Board size (reversi: even 4..16; gomoku: 5..26)
        #[arg(long)]
        size: Option<u8>,
        /// Gomoku rule: freestyle, standard or renju
        #[arg(long)]
        rule: Option<String>,
        /// The site's title (default: the directory's name)
        #[arg(long)]
        name: Option<String>,
        /// A PostgreSQL database instead of DIR/contest.db
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Add or update accounts from a CSV roster (header: login or student_id, name, role)
    Users {
        dir: PathBuf,
        roster: PathBuf,
        /// Give new accounts random passwords, written to this CSV (default: the student number)
        #[arg(long, value_name = "CSV")]
        random_passwords: Option<PathBuf>,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Run the site and local judging workers
    Serve {
        dir: PathBuf,
        /// Address to listen on (loopback unless told otherwise)
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        /// Local judging slots, one game or compile each (0: only `arbiter worker`s on other machines)
        #[arg(long)]
        workers: Option<usize>,
        /// PostgreSQL (postgres://...) instead of DIR/contest.db; workers on other machines join it
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// The web player to embed (default: the one built into arbiter)
        #[arg(long)]
        player: Option<PathBuf>,
        /// Mark cookies Secure: the site is served over HTTPS by a reverse proxy
        #[arg(long)]
        secure_cookies: bool,
        /// A reverse proxy (address or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose
        /// X-Forwarded-For / Forwarded / X-Forwarded-Proto headers name the client; repeatable.
        /// Without it those headers are ignored
        #[arg(long = "trusted-proxy", value_name = "ADDR", value_parser = arbiter_server::client::parse_proxy)]
        trusted_proxy: Vec<arbiter_server::client::IpNet>,
        /// Pause this long after each ply of this machine's games, so that people can follow
        /// them live (a final on a projector); the bots' clocks do not run meanwhile
        #[arg(long, value_name = "MS", default_value_t = 0)]
        pace: u64,
        /// Judge even if this machine cannot isolate bots (no namespaces: a bot could then
        /// read other students' bots and the contest's files); see `arbiter doctor`
        #[arg(long)]
        unsafe_containment: bool,
    },
    /// A ready contest to try: five students whose submissions are the sample bots, served
    Demo {
        /// Where the demo contest goes (default: target/demo-contest in a checkout); an earlier
        /// demo there is replaced
        #[arg(long)]
        dir: Option<PathBuf>,
        /// A game module (docs/game-kit.md) instead of Reversi: the students submit the kit's
        /// sample bots (a random legal move, in C and Python)
        #[arg(long, value_name = "FILE")]
        game_module: Option<PathBuf>,
        /// With --game-module: its configuration, a JSON object ('{"cols": 8}')
        #[arg(long, value_name = "JSON", requires = "game_module")]
        game_config: Option<String>,
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        /// Local judging slots (default: half the cores)
        #[arg(long)]
        workers: Option<usize>,
        /// The web player to embed (default: the one built into arbiter)
        #[arg(long)]
        player: Option<PathBuf>,
        /// Pause after each ply, so that the sample bots' games (instant otherwise) can be
        /// watched live; 0 plays them at full speed
        #[arg(long, value_name = "MS", default_value_t = 150)]
        pace: u64,
        /// Judge even if this machine cannot isolate bots; see `arbiter doctor`
        #[arg(long)]
        unsafe_containment: bool,
    },
    /// A consistent copy of the SQLite database, safe while the server runs
    Backup {
        dir: PathBuf,
        file: PathBuf,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Standings (JSON, CSV), submissions (CSV) and every replay (JSON)
    Export {
        dir: PathBuf,
        /// Output directory (default: DIR/export)
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Copied code: pairs of students ranked by shared code, per language (docs/similarity.md)
    Similarity(super::similarity::SimilarityArgs),
}

pub fn run(a: &ContestArgs) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new()?;
    let done = rt.block_on(run_async(a));
    // The contest's games in progress were finished by then; a test game a person plays is
    // not waited for (it is played again from the start after the next serve).
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    done
}

async fn run_async(a: &ContestArgs) -> anyhow::Result<ExitCode> {
    match &a.command {
        ContestCommand::Init {
            dir,
            game,
            game_module,
            game_config,
            size,
            rule,
            name,
            db,
        } => {
            let name = name.clone().unwrap_or_else(|| {
                dir.file_name()
                    .map_or("contest".into(), |n| n.to_string_lossy().into_owned())
            });
            let db = db.as_deref();
            // A carried game is a module the binary has: copied into DIR like any other.
            let carried = match game.as_deref().and_then(crate::carried::find) {
                Some(g) => Some(crate::carried::path_of(g)?),
                None => None,
            };
            let password = match (game_module.as_ref().or(carried.as_ref()), game) {
                (Some(module), _) => {
                    arbiter_server::init_module(dir, &name, module, game_config.as_deref(), db)
                        .await?
                }
                (None, Some(_)) if game_config.is_some() => anyhow::bail!(
                    "--game-config configures a game module (--game-module, or a game the \
                     binary carries: arbiter game list); a built-in game takes --size and --rule"
                ),
                (None, Some(game)) => {
                    arbiter_server::init(dir, &name, game, *size, rule.as_deref(), db).await?
                }
                (None, None) => anyhow::bail!("give --game or --game-module"),
            };
            println!("contest written to {}", dir.join("contest.toml").display());
            println!("course staff account: login admin, password {password} (to change at the first sign-in)");
            println!(
                "next: arbiter contest users {} roster.csv; arbiter contest serve {}",
                dir.display(),
                dir.display()
            );
        }
        ContestCommand::Users {
            dir,
            roster,
            random_passwords,
            db,
        } => {
            let r = arbiter_server::users(dir, db.as_deref(), roster, random_passwords.as_deref())
                .await?;
            println!("{} account(s) added, {} updated", r.added, r.updated);
            match random_passwords {
                Some(p) => println!("random passwords of the new accounts: {}", p.display()),
                None if r.added > 0 => println!("new accounts sign in with their student number as password, and must change it"),
                None => {}
            }
        }
        ContestCommand::Serve {
            dir,
            listen,
            workers,
            db,
            player,
            secure_cookies,
            trusted_proxy,
            pace,
            unsafe_containment,
        } => {
            let workers = workers.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
            });
            arbiter_server::serve(
                arbiter_server::ServeOptions {
                    dir: dir.clone(),
                    listen: *listen,
                    workers,
                    db: db.clone(),
                    player: player.clone(),
                    secure_cookies: *secure_cookies,
                    trusted_proxies: trusted_proxy.clone(),
                    limits: Default::default(),
                    demo_bots: None,
                    pace: Duration::from_millis(*pace),
                    unsafe_containment: *unsafe_containment,
                },
                None,
            )
            .await?;
        }
        ContestCommand::Demo {
            dir,
            game_module,
            game_config,
            listen,
            workers,
            player,
            pace,
            unsafe_containment,
        } => {
            let dir = dir.clone().unwrap_or_else(|| {
                let target = std::env::var_os("CARGO_TARGET_DIR")
                    .map_or_else(|| PathBuf::from("target"), PathBuf::from);
                if target.is_dir() {
                    target.join("demo-contest")
                } else {
                    PathBuf::from("arbiter-demo-contest")
                }
            });
            // The binary carries the sample bots: the demo works outside a checkout too.
            let bots = dir.join("sample-bots");
            let game = match game_module {
                Some(file) => arbiter_server::demo::Game::Module {
                    file,
                    config: game_config.as_deref(),
                },
                None => arbiter_server::demo::Game::Reversi,
            };
            arbiter_server::demo::prepare(&dir, &bots, game).await?;
            arbiter_server::samples::write_all(&bots).map_err(|e| {
                anyhow::anyhow!("cannot write the sample bots to {}: {e}", bots.display())
            })?;
            let workers = workers.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
            });
            arbiter_server::serve(
                arbiter_server::ServeOptions {
                    dir,
                    listen: *listen,
                    workers,
                    db: None,
                    player: player.clone(),
                    secure_cookies: false,
                    trusted_proxies: Vec::new(),
                    limits: Default::default(),
                    demo_bots: Some(bots),
                    pace: Duration::from_millis(*pace),
                    unsafe_containment: *unsafe_containment,
                },
                None,
            )
            .await?;
        }
        ContestCommand::Backup { dir, file, db } => {
            arbiter_server::backup(dir, db.as_deref(), file).await?;
            println!("backup written to {}", file.display());
        }
        ContestCommand::Export { dir, output, db } => {
            let out = output.clone().unwrap_or_else(|| dir.join("export"));
            let n = arbiter_server::export(dir, db.as_deref(), &out).await?;
            println!(
                "standings, submissions and {n} replay(s) written to {}",
                out.display()
            );
        }
        ContestCommand::Similarity(args) => super::similarity::run(args).await?,
    }
    Ok(ExitCode::SUCCESS)
}
