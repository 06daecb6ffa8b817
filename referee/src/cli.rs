//! The command line: one subcommand per job.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::commands;

#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about = "Referee for AI-bot contests on Reversi, Gomoku, the 2048 duel and game modules",
    long_about = "arbiter plays bots against each other under contest limits, judges every \
                  failure, writes replays and reports.\n\nGames: reversi (any even size 4..16), \
                  gomoku (freestyle, standard, renju), duel2048 (seed 000's 2048 duel), and any \
                  game module, GAME.wasm (docs/game-kit.md; `arbiter game new` starts one)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a position: board, side to move, legal moves, renju forbidden points, outcome.
    Inspect(InspectArgs),
    /// Count Reversi move paths to a depth (other games and modules: `arbiter game perft`).
    Perft(PerftArgs),
    /// Read replay files.
    #[command(subcommand)]
    Replay(ReplayCommand),
    /// Convert the seeds' own game records into arbiter replays.
    #[command(subcommand)]
    Import(ImportCommand),
    /// Play games between two bots under contest limits, with colours alternating.
    Match(Box<MatchArgs>),
    /// Report which containment layers work on this machine.
    Doctor,
    /// Run a built-in bot on stdin/stdout, speaking the game's protocol (to spar against).
    Bot(BotArgs),
    /// Run one of our games as a Saiblo game logic on stdin/stdout (seed 002).
    Logic(commands::saiblo::LogicArgs),
    /// A local Saiblo judger: run any Saiblo game logic with AI processes.
    Judge(commands::saiblo::JudgeArgs),
    /// Round robins and gauntlets: run, resume, status, report, submit.
    Tournament(Box<commands::tournament::TournamentArgs>),
    /// Build the sample bots, run a short tournament per game, write and serve the site.
    /// Hidden from the help: the demo people look for is the contest's (`arbiter contest
    /// demo`, the README's), and two `demo` commands in one list read as one too many.
    #[command(hide = true)]
    Demo(commands::demo::DemoArgs),
    /// A course's contest website: students sign in, submit bots, watch the scoreboard.
    Contest(commands::contest::ContestArgs),
    /// Judge a contest's games on this machine, from its queue in PostgreSQL (many machines).
    Worker(commands::worker::WorkerArgs),
    /// List the workers of a queue: state, pace, failures.
    Workers(commands::worker::WorkersArgs),
    /// Game modules (the game kit): new, check, perft.
    Game(commands::game::GameArgs),
}

#[derive(Args, Debug)]
#[command(
    after_help = "Depth 0 plays random legal moves, 1 is greedy, 2 and more search (a module \
game: 1 to 5 are flat Monte Carlo, more playouts each level; docs/game-kit.md).\n\n\
Examples:\n  arbiter match reversi --size 8 ./my_bot builtin:4\n  \
arbiter bot gomoku --rule renju --protocol gobang --depth 3\n  \
arbiter bot connect-four.wasm --depth 2 --protocol kit"
)]
pub struct BotArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Strength: 0 random, 1 greedy, 2..5 the sparring levels (N plies of search and more)
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// The protocol to speak (default: the game's own)
    #[arg(long)]
    pub protocol: Option<String>,
    /// Seed for the random choices [default: $ARBITER_SEED, the game's seed under arbiter, or 0]
    #[arg(long)]
    pub bot_seed: Option<u64>,
    /// The move time it plays under, in ms (0 = none): it thinks at most about half of it
    /// [default: $ARBITER_MOVE_MS, which arbiter sets for every bot, or none]
    #[arg(long, value_name = "MS")]
    pub move_time: Option<u64>,
    /// Its total thinking time per game, in ms (0 = none) [default: $ARBITER_GAME_MS or none].
    /// Gomocup's INFO lines and the duel's clock on PLACE / SLIDE say it too
    #[arg(long, value_name = "MS")]
    pub game_time: Option<u64>,
}

#[derive(Args, Debug)]
#[command(
    after_help = "BOT is a command line (\"./my_bot\", \"python3 bot.py 16\"), a built-in \
bot: builtin (greedy), builtin:random, builtin:N (level N: 1 to 5, docs/sparring.md; a module's, \
docs/game-kit.md), or human[:NAME]: a person \
playing in the browser (needs --live; 60 s a move unless --move-time says otherwise).\n\n\
Examples:\n  arbiter match reversi --size 8 bots/bin/reversi_greedy 'python3 bots/python/reversi_random.py 8' --games 4 -o out/\n  \
arbiter match gomoku --rule renju builtin:2 ./brain --protocol-b gomocup --games 2\n  \
arbiter match reversi --size 8 human:Ada builtin:3 --live --games 1\n  \
arbiter match duel2048 --seed 7 'python3 bots/python/sessdsa_host.py ai.py' builtin:random\n  \
arbiter match reversi --size 8 ./my_bot_v2 ./my_bot_v1 --sprt elo0=0,elo1=20 --max-games 2000\n  \
arbiter match connect-four.wasm ./my_bot builtin:2 --config '{\"cols\": 7}' --games 4 -o out/"
)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The first bot (seat 0 = black / first player in odd-numbered games)
    #[arg(value_name = "BOT")]
    pub bot_a: String,
    /// The second bot
    #[arg(value_name = "BOT")]
    pub bot_b: String,
    /// The bots of seats three and on, for a game module of more seats (its `players` is the
    /// number of bots unless --config names it); seats rotate from game to game
    #[arg(value_name = "BOT", num_args = 0..=6)]
    pub more: Vec<String>,
    /// Names for the bots in replays and tables (default: from the command)
    #[arg(long)]
    pub name_a: Option<String>,
    #[arg(long)]
    pub name_b: Option<String>,
    /// Number of games; colours alternate
    #[arg(long, short = 'n', default_value_t = 2)]
    pub games: usize,
    /// Play game pairs until a sequential test decides whether A is stronger than B:
    /// elo0=0,elo1=10[,alpha=0.05,beta=0.05][,model=normalized|logistic]
    #[arg(long, value_name = "TEST")]
    pub sprt: Option<String>,
    /// With --sprt: stop after N games even without a decision (default 20000)
    #[arg(long, value_name = "N", requires = "sprt")]
    pub max_games: Option<usize>,
    /// A file of openings, one per line (moves separated by spaces); each is played with both
    /// colours. Reversi needs `--protocol reversi-board`, Gomoku `gomocup` (its default)
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// The protocol both bots speak (default: reversi for reversi, gomocup for gomoku, duel for
    /// duel2048, kit for a module; reversi-board lets Reversi bots start from openings)
    #[arg(long)]
    pub protocol: Option<String>,
    /// The protocol of the first / second bot only
    #[arg(long)]
    pub protocol_a: Option<String>,
    #[arg(long)]
    pub protocol_b: Option<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Write replays (game-0001.json ...) and summary.json here
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Also append each game to a seed-003 Gobang bridge log (gomoku)
    #[arg(long)]
    pub gobang_log: Option<PathBuf>,
    /// Print the summary as JSON
    #[arg(long)]
    pub json: bool,
    /// No per-game progress lines
    #[arg(long, short)]
    pub quiet: bool,
    /// Serve the games live on ADDR (default 127.0.0.1:8090): watch them in the browser, or
    /// play a `human` seat there
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = commands::live::DEFAULT_ADDR)]
    pub live: Option<std::net::SocketAddr>,
    /// With --live: spectators get moves at least MS apart (the game is not slowed)
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub live_delay: u64,
    /// With --live, a game that hides something (hands, sealed bids): what its spectators see
    /// while it runs. `public`: what a table of people sees; `full`: everything (refused when
    /// a person plays: they could watch their own game's spectator page). Once it is over,
    /// everyone sees everything
    #[arg(long, value_name = "WHAT", value_enum, default_value_t = LiveSpectators::Public)]
    pub live_spectators: LiveSpectators,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LiveSpectators {
    /// The public view: no hand, no sealed bid
    #[default]
    Public,
    /// The full view, every hand
    Full,
}

impl From<LiveSpectators> for arbiter_live::game::Spectators {
    fn from(s: LiveSpectators) -> Self {
        match s {
            LiveSpectators::Public => arbiter_live::game::Spectators::Public,
            LiveSpectators::Full => arbiter_live::game::Spectators::Full,
        }
    }
}

/// Contest limits; defaults come from the seeds (see docs/protocols.md).
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Time for one move, in milliseconds (0 = none)
    #[arg(long, value_name = "MS")]
    pub move_time: Option<u64>,
    /// A bot's total thinking time per game, in milliseconds (0 = none)
    #[arg(long, value_name = "MS")]
    pub game_time: Option<u64>,
    /// Time to start and answer the handshake, in milliseconds
    #[arg(long, value_name = "MS")]
    pub handshake_time: Option<u64>,
    /// Grace before a bot is judged late, in milliseconds (default 50)
    #[arg(long, value_name = "MS")]
    pub time_tolerance: Option<u64>,
    /// Memory per bot in MB (0 = none; default 350)
    #[arg(long, value_name = "MB")]
    pub memory: Option<u64>,
    /// Disk per bot in MB: the size of its scratch directory, also at /tmp (default 64)
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1048576))]
    pub disk: Option<u64>,
    /// Freeze bots between their turns (no thinking on the opponent's time)
    #[arg(long)]
    pub no_ponder: bool,
    /// Pin the bots to these cores (default: two different cores)
    #[arg(long, value_delimiter = ',', value_name = "CORES")]
    pub cores: Option<Vec<usize>>,
}

/// A game as named on the command line, with a carried game's name read as its module's path.
fn carried_game(text: &str) -> Result<String, String> {
    crate::carried::resolve(text).map_err(|e| format!("{e:#}"))
}

/// Game selection shared by commands that build a position.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// reversi, gomoku, duel2048, a game module file (GAME.wasm), or a game the binary
    /// carries (amazons, connect-four, dou-dizhu, ...: `arbiter game list`)
    #[arg(value_parser = carried_game)]
    pub game: String,
    /// Board size (reversi: even 4..16, default 16; gomoku: 5..26, default 15)
    #[arg(long)]
    pub size: Option<u8>,
    /// Gomoku rule
    #[arg(long, value_enum)]
    pub rule: Option<RuleArg>,
    /// 2048 duel: seed of the random sequence. `match`: seeds the whole match (each game's
    /// seed, which bots get as ARBITER_SEED, and the duel's sequences); printed at the end, so
    /// `--seed` plays a match again
    #[arg(long)]
    pub seed: Option<u64>,
    /// 2048 duel: number of rounds (default 500)
    #[arg(long)]
    pub rounds: Option<u16>,
    /// A game module's configuration, as JSON (`arbiter match GAME.wasm --config '{...}'`);
    /// `--size N` adds `"size": N`. At most 64 KB
    #[arg(long, value_name = "JSON")]
    pub config: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleArg {
    /// Five or more in a row wins
    Freestyle,
    /// Exactly five wins
    Standard,
    /// RIF renju: black may not make double-threes, double-fours or overlines
    Renju,
    /// Renju as Piskvork's judge reads it (the Gomocup renju leagues; docs/rules.md)
    RenjuGomocup,
}

#[derive(Args, Debug)]
pub struct InspectArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Moves from the start, separated by spaces or semicolons, in the game's notation
    /// (reversi "d3 c5" or row,col "2,3 4,2"; gomoku "H8 I9" or x,y "7,7";
    /// duel2048 "0,3 1,6 left right")
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Print JSON instead of a picture
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// reversi, the only one with published counts (a module: `arbiter game perft GAME.wasm`)
    pub game: String,
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    #[arg(long)]
    pub depth: u32,
    /// Also print the count below each first move
    #[arg(long)]
    pub divide: bool,
    /// Count without the transposition table (every path walked, as the published tables were)
    #[arg(long, alias = "plain")]
    pub no_hash: bool,
    /// Transposition table size in MiB (1 to 4096). The default suits depths up to 12 on 8 x 8
    /// (a larger table costs page faults for little gain there); give deeper counts more
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash_mb: u32,
}

#[derive(Subcommand, Debug)]
pub enum ReplayCommand {
    /// Print a replay's frames as text boards (checks every move through the engine)
    Show {
        file: PathBuf,
        /// Only this frame: a number (0 = the start position), `last`, or `fail` (where the
        /// losing bot failed)
        #[arg(long, value_name = "FRAME")]
        frame: Option<commands::replay::FrameChoice>,
        /// Also print the bots' DEBUG output of each frame shown, and before a failure
        #[arg(long)]
        log: bool,
        /// Print JSON instead of pictures
        #[arg(long)]
        json: bool,
        /// A module game's module, for a replay that does not carry it (default: the one it
        /// carries, else modules/<sha256>.wasm beside the file or one directory up)
        #[arg(long, value_name = "FILE")]
        module: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ImportCommand {
    /// A sessdsa.2048 record file (seed 000) -> one replay
    Sessdsa {
        record: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
    },
    /// A Gobang bridge JSON log (seed 003) -> one replay per game in a directory
    Gobang {
        log: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
        /// How MoveLog counts rows and columns (detected when absent)
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
        base: Option<u8>,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Inspect(a) => commands::inspect::run(&a),
        Command::Perft(a) => commands::perft::run(&a),
        Command::Replay(ReplayCommand::Show {
            file,
            frame,
            log,
            json,
            module,
        }) => commands::replay::show(&file, module.as_deref(), frame, log, json),
        Command::Import(cmd) => commands::import::run(cmd),
        Command::Match(a) => commands::matches::run(&a),
        Command::Doctor => commands::doctor::run(),
        Command::Bot(a) => commands::bot::run(&a),
        Command::Logic(a) => commands::saiblo::run_logic(&a),
        Command::Judge(a) => commands::saiblo::run_judge(&a),
        Command::Tournament(a) => commands::tournament::run(&a),
        Command::Demo(a) => commands::demo::run(&a),
        Command::Contest(a) => commands::contest::run(&a),
        Command::Worker(a) => commands::worker::run_worker(&a),
        Command::Workers(a) => commands::worker::run_workers(&a),
        Command::Game(a) => commands::game::run(&a),
    }
}
