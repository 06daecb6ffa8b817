//! The tournament file (TOML): game, limits, bots, format, seed. Parsed strictly: an unknown
//! key, an odd number of games per pairing or a bot without a command stops the tournament
//! before any game is played, with a message naming the problem.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use arbiter_engine::any::GameConfig;
use serde::{Deserialize, Serialize};

use arbiter_engine::gomoku::Rule;
use arbiter_match::game::GameLimits;
use arbiter_match::protocol::ProtocolKind;
use arbiter_match::spec::{self, GameChoice};

/// Why a tournament file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Syntax { path: String, message: String },
    #[error("{0}")]
    Invalid(String),
}

/// The file as written.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// Shown in reports.
    #[serde(default)]
    pub name: Option<String>,
    pub game: GameSection,
    #[serde(default)]
    pub limits: LimitSection,
    #[serde(default)]
    pub format: Format,
    /// Games each pairing plays (per leg); even, colours swapped in pairs.
    #[serde(default = "default_games")]
    pub games_per_pairing: usize,
    /// Whether the file gave `games_per_pairing` (not the default): a game of more than two
    /// seats takes `games_per_table` instead, and refuses the two together.
    #[serde(skip)]
    pub games_per_pairing_given: bool,
    /// A game of N > 2 seats: games each table plays, a multiple of N (seats rotate);
    /// default N (crate::tables).
    #[serde(default)]
    pub games_per_table: Option<usize>,
    /// A game of N > 2 seats: the points of 1st, 2nd, ... place (N values); default
    /// N-1, N-2, ..., 0 (crate::tables::default_points).
    #[serde(default)]
    pub points_per_place: Option<Vec<f64>>,
    /// A game of N > 2 seats: which N-sets of bots sit at tables (crate::tables::Design);
    /// default: every N-set when there are at most `tables::MAX_ALL_TABLES`, else cyclic.
    #[serde(default)]
    pub tables: Option<crate::tables::Design>,
    /// For a gauntlet: the reference bots every other bot plays.
    #[serde(default)]
    pub reference: Vec<String>,
    /// `format = "swiss"`: its rounds.
    #[serde(default)]
    pub rounds: Option<usize>,
    /// `format = "knockout"`: single or double elimination.
    #[serde(default)]
    pub elimination: Option<crate::knockout::Elimination>,
    /// `format = "knockout"`: pairs of games added while a match is level (default 1).
    #[serde(default)]
    pub extra_pairs: Option<u32>,
    /// `format = "stages"`: the stages in order (docs/tournaments.md).
    #[serde(default)]
    pub stages: Vec<crate::stages::Stage>,
    /// Games at once; default: one per online core.
    #[serde(default)]
    pub concurrency: Option<usize>,
    /// Orders the schedule and seeds the 2048 duel's random sequences.
    #[serde(default)]
    pub seed: u64,
    /// Database and replays; relative paths are relative to the config file.
    #[serde(default = "default_output")]
    pub output: PathBuf,
    pub bots: Vec<BotEntry>,
}

fn default_games() -> usize {
    2
}

fn default_output() -> PathBuf {
    PathBuf::from("tournament-out")
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every pair meets once (one leg of `games_per_pairing` games).
    #[default]
    RoundRobin,
    /// Every pair meets twice (two legs).
    DoubleRoundRobin,
    /// Every bot outside `reference` plays every reference bot.
    Gauntlet,
    /// `rounds` rounds, each pairing bots of equal or near score who have not met.
    Swiss,
    /// Single or double elimination, seeded in the bots' order.
    Knockout,
    /// `[[stages]]`: for example a Swiss, then a knockout of the best.
    Stages,
}

impl Format {
    /// Whether the games are made stage by stage, round by round, as results come in.
    pub fn staged(self) -> bool {
        matches!(self, Format::Swiss | Format::Knockout | Format::Stages)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct GameSection {
    /// reversi, gomoku or duel2048; with `module`, optional (then the module's own name).
    #[serde(default)]
    pub name: String,
    /// A game module (docs/game-kit.md): its file, relative to the config file.
    #[serde(default)]
    pub module: Option<PathBuf>,
    /// The module's configuration (a table, given to it as a JSON object).
    #[serde(default)]
    pub config: Option<toml::Table>,
    #[serde(default)]
    pub size: Option<u8>,
    /// Gomoku: freestyle, standard, renju or renju-gomocup.
    #[serde(default)]
    pub rule: Option<String>,
    /// 2048 duel and game modules: the seed of their chance (pairs of games advance it).
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub rounds: Option<u16>,
    /// Start positions as move lists ("d3 c5 f6"); each is played with both colours.
    /// Absent: a tournament plays the game's shipped suite (openings/, docs/openings.md) when
    /// every bot's protocol can start from an opening; `[]`: every game starts from the
    /// initial position.
    #[serde(default)]
    pub openings: Option<Vec<String>>,
    /// The protocol every bot speaks unless its entry says otherwise (default: the game's).
    #[serde(default)]
    pub protocol: Option<String>,
}

/// Limits in milliseconds and megabytes; absent = the seeds' defaults, 0 = none.
pub type LimitSection = arbiter_match::game::LimitOverrides;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    pub name: String,
    /// A command line, or `builtin[:random|:N]`.
    #[serde(default)]
    pub command: Option<String>,
    /// Run once (through `sh -c`, in the config's directory) before the tournament.
    #[serde(default)]
    pub build: Option<String>,
    /// Protocol override (default: the game's).
    #[serde(default)]
    pub protocol: Option<String>,
    /// Working directory; relative to the config file.
    #[serde(default)]
    pub dir: Option<PathBuf>,
}

/// A `[game]` section checked and resolved.
#[derive(Clone, Debug)]
pub struct ResolvedGame {
    pub game: GameConfig,
    pub openings: Vec<Vec<String>>,
    /// The protocol of bots that name none.
    pub protocol: ProtocolKind,
}

impl GameSection {
    /// The game, its openings (each played through the engine) and the default protocol.
    /// `seed` is the competition's: the 2048 duel's sequence and a module's chance follow it
    /// unless `seed` is set. A module's path is relative to `base` (the config's directory);
    /// the module is registered with this process's module host.
    pub fn resolve(&self, seed: u64, base: &Path) -> Result<ResolvedGame, ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        if let Some(path) = &self.module {
            return self.resolve_module(&base.join(path), seed);
        }
        if self.config.is_some() {
            return bad("game.config configures a game module: give game.module too".into());
        }
        let rule = match self.rule.as_deref() {
            None => None,
            Some(name) => match Rule::from_name(name) {
                Some(rule) => Some(rule),
                None => {
                    return bad(format!(
                        "game.rule {name:?}: expected freestyle, standard, renju or renju-gomocup"
                    ))
                }
            },
        };
        let args = GameChoice {
            game: self.name.clone(),
            size: self.size,
            rule,
            seed: self.seed,
            rounds: self.rounds,
        };
        let mut game =
            spec::game_config(&args).map_err(|e| ConfigError::Invalid(format!("game: {e:#}")))?;
        // The game's chance (the duel's sequence) follows the competition's seed unless the
        // game sets one.
        if self.seed.is_none() {
            game = game.with_chance_seed(seed);
        }
        let openings = self.checked_openings(&game)?;
        let protocol = match &self.protocol {
            Some(p) => {
                let kind: ProtocolKind = p
                    .parse()
                    .map_err(|e: String| ConfigError::Invalid(format!("game.protocol: {e}")))?;
                kind.check(&game, !openings.is_empty())
                    .map_err(|e| ConfigError::Invalid(format!("game.protocol: {e}")))?;
                kind
            }
            None => ProtocolKind::default_for(&game),
        };
        Ok(ResolvedGame {
            game,
            openings,
            protocol,
        })
    }
}

/// The most a module's configuration may take as JSON (as `arbiter match --config`).
pub const MAX_MODULE_CONFIG: usize = 64 << 10;

impl GameSection {
    /// `[game] module = "..."`: the module checked and registered, its configuration checked
    /// by building the start position, and the kit protocol unless another is named.
    fn resolve_module(&self, path: &Path, seed: u64) -> Result<ResolvedGame, ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        if self.rule.is_some() || self.rounds.is_some() {
            return bad(
                "game.rule and game.rounds belong to built-in games; a game module \
                 takes game.config"
                    .into(),
            );
        }
        let module = arbiter_kit_host::host::register_file(path)
            .map_err(|e| ConfigError::Invalid(format!("game.module: {e}")))?;
        arbiter_kit_host::host::install();
        if !self.name.is_empty() && self.name != module.name {
            return bad(format!(
                "game.name {:?}, but the module {} calls itself {:?}",
                self.name,
                path.display(),
                module.name
            ));
        }
        let config = self.module_config()?;
        // The one acceptance check: what `arbiter game check` refuses, no tournament plays.
        let given: serde_json::Value = serde_json::from_str(&config)
            .map_err(|e| ConfigError::Invalid(format!("game.config: {e}")))?;
        arbiter_kit_host::accept::file(path, &given)
            .map_err(|e| ConfigError::Invalid(format!("game.module: {e}")))?;
        let game = GameConfig::Module(arbiter_engine::module::ModuleConfig {
            module,
            config,
            seed: self.seed.unwrap_or(seed),
        });
        arbiter_engine::AnyGame::new(&game)
            .map_err(|e| ConfigError::Invalid(format!("game: {}", e.message)))?;
        let openings = self.checked_openings(&game)?;
        let protocol = match &self.protocol {
            Some(p) => p
                .parse::<ProtocolKind>()
                .map_err(|e| ConfigError::Invalid(format!("game.protocol: {e}")))?,
            None => ProtocolKind::Kit,
        };
        protocol
            .check(&game, !openings.is_empty())
            .map_err(|e| ConfigError::Invalid(format!("game.protocol: {e}")))?;
        Ok(ResolvedGame {
            game,
            openings,
            protocol,
        })
    }

    /// `game.openings`, each played through the game's rules (a module's too): a move the
    /// rules refuse, or an opening that ends the game, is an error naming it.
    fn checked_openings(&self, game: &GameConfig) -> Result<Vec<Vec<String>>, ConfigError> {
        let mut openings = Vec::new();
        for (i, line) in self.openings.iter().flatten().enumerate() {
            let moves: Vec<String> = spec::split_moves(line)
                .into_iter()
                .map(String::from)
                .collect();
            let mut g = arbiter_engine::AnyGame::new(game)
                .map_err(|e| ConfigError::Invalid(format!("game: {e}")))?;
            for m in &moves {
                g.play_text(m).map_err(|e| {
                    ConfigError::Invalid(format!("game.openings[{i}]: move {m}: {e}"))
                })?;
            }
            if g.outcome().is_some() {
                return Err(ConfigError::Invalid(format!(
                    "game.openings[{i}]: the opening ends the game"
                )));
            }
            openings.push(moves);
        }
        Ok(openings)
    }

    /// `game.config` (and `game.size`, as `"size"`) as the module's JSON object.
    fn module_config(&self) -> Result<String, ConfigError> {
        let mut object = match &self.config {
            Some(table) => serde_json::to_value(table)
                .map_err(|e| ConfigError::Invalid(format!("game.config: {e}")))?,
            None => serde_json::Value::Object(Default::default()),
        };
        if let (Some(size), Some(map)) = (self.size, object.as_object_mut()) {
            map.insert("size".into(), size.into());
        }
        let text = object.to_string();
        if text.len() > MAX_MODULE_CONFIG {
            return Err(ConfigError::Invalid(format!(
                "game.config: {} bytes as JSON, more than {} KB",
                text.len(),
                MAX_MODULE_CONFIG >> 10
            )));
        }
        Ok(text)
    }
}

/// A checked configuration with everything resolved.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub file: TournamentConfig,
    pub game: GameConfig,
    pub openings: Vec<Vec<String>>,
    /// The protocol of bots that name none.
    pub protocol: ProtocolKind,
    pub limits: GameLimits,
    /// Directory of the config file: base for relative paths and build commands.
    pub base_dir: PathBuf,
    pub output: PathBuf,
    /// What the config leaves to defaults that its author should know (which openings).
    pub notes: Vec<String>,
    /// The game's seats: 2, or N for a game of tables (crate::tables).
    pub seats: usize,
}

impl TournamentConfig {
    pub fn parse(text: &str, origin: &str) -> Result<TournamentConfig, ConfigError> {
        let syntax = |e: toml::de::Error| ConfigError::Syntax {
            path: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        };
        let mut config: TournamentConfig = toml::from_str(text).map_err(syntax)?;
        let table: toml::Table = toml::from_str(text).map_err(syntax)?;
        config.games_per_pairing_given = table.contains_key("games_per_pairing");
        Ok(config)
    }

    pub fn load(path: &Path) -> Result<(TournamentConfig, String), ConfigError> {
        use arbiter_match::input::{self, InputError};
        let text = input::read_text(path, input::TOURNAMENT_CONFIG).map_err(|e| match e {
            InputError::Read { path, source } => ConfigError::Read { path, source },
            other => ConfigError::Invalid(other.to_string()),
        })?;
        Ok((Self::parse(&text, &path.display().to_string())?, text))
    }

    /// Checks everything that can be checked without playing.
    pub fn resolve(self, base_dir: &Path) -> Result<Resolved, ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        let ResolvedGame {
            game,
            mut openings,
            protocol,
        } = self.game.resolve(self.seed, base_dir)?;
        let seats = arbiter_engine::AnyGame::new(&game)
            .map_err(|e| ConfigError::Invalid(format!("game: {e}")))?
            .seats();
        crate::tables::check_config(&self, seats)?;
        let mut notes = Vec::new();
        if self.game.openings.is_none() && seats == 2 {
            let (suite, note) = self.shipped_suite(&game, protocol)?;
            openings = suite;
            notes.extend(note);
        }
        if self.games_per_pairing == 0 || (self.games_per_pairing % 2 != 0 && !self.format.staged())
        {
            return bad(format!(
                "games_per_pairing = {}: must be even and at least 2 (colours are swapped in pairs)",
                self.games_per_pairing
            ));
        }
        if self.games_per_pairing > MAX_GAMES_PER_PAIRING {
            return bad(format!(
                "games_per_pairing = {}: more than the limit of {MAX_GAMES_PER_PAIRING}",
                self.games_per_pairing
            ));
        }
        match self.concurrency {
            Some(0) => return bad("concurrency = 0: must be at least 1".into()),
            Some(n) if n > MAX_CONCURRENCY => {
                return bad(format!(
                    "concurrency = {n}: more than the limit of {MAX_CONCURRENCY} games at once"
                ))
            }
            _ => {}
        }
        if self.bots.len() < 2 {
            return bad(format!(
                "{} bot(s) given: a tournament needs at least 2",
                self.bots.len()
            ));
        }
        if self.bots.len() > MAX_BOTS {
            return bad(format!(
                "{} bots given: more than the limit of {MAX_BOTS}",
                self.bots.len()
            ));
        }
        let mut names = BTreeSet::new();
        for (i, b) in self.bots.iter().enumerate() {
            if !valid_name(&b.name) {
                return bad(format!(
                    "bots[{i}].name {:?}: use letters, digits, '-', '_' and '.' (1..64 characters)",
                    b.name
                ));
            }
            if !names.insert(b.name.clone()) {
                return bad(format!("bots[{i}]: the name {:?} is used twice", b.name));
            }
            match b.command.as_deref().map(str::trim) {
                None | Some("") => {
                    return bad(format!("bots[{i}] ({}): missing command", b.name));
                }
                Some(_) => {}
            }
            if let Some(p) = &b.protocol {
                let kind: ProtocolKind = p.parse().map_err(|e: String| {
                    ConfigError::Invalid(format!("bots[{i}].protocol: {e}"))
                })?;
                kind.check(&game, !openings.is_empty())
                    .map_err(|e| ConfigError::Invalid(format!("bots[{i}].protocol: {e}")))?;
            } else if self.game.protocol.is_none() {
                protocol
                    .check(&game, !openings.is_empty())
                    .map_err(|e| ConfigError::Invalid(format!("bots[{i}]: {e}")))?;
            }
        }
        match self.format {
            Format::Gauntlet => {
                if self.reference.is_empty() {
                    return bad("format = \"gauntlet\" needs a non-empty `reference` list".into());
                }
                for r in &self.reference {
                    if !names.contains(r) {
                        return bad(format!("reference bot {r:?} is not among the bots"));
                    }
                }
                if self.reference.len() == self.bots.len() {
                    return bad("a gauntlet needs at least one bot outside `reference`".into());
                }
            }
            _ => {
                if !self.reference.is_empty() {
                    return bad("`reference` only applies to format = \"gauntlet\"".into());
                }
            }
        }
        self.check_stages()?;
        let games = self.scheduled_games(seats);
        if seats > 2 && games > MAX_GAMES as u128 {
            return bad(format!(
                "the schedule would hold {games} games at tables of {seats}: more than the \
                 limit of {MAX_GAMES} games (fewer bots, games_per_table or tables = \"cyclic\")"
            ));
        }
        if games > MAX_GAMES as u128 {
            return bad(format!(
                "the schedule would hold {games} games ({} pairings x {} leg(s) x \
                 games_per_pairing {}): more than the limit of {MAX_GAMES} games",
                self.pairing_count(),
                self.legs(),
                self.games_per_pairing
            ));
        }
        let warnings = self
            .limits
            .check()
            .map_err(|e| ConfigError::Invalid(format!("[limits] {e}")))?;
        for w in warnings {
            eprintln!("warning: [limits] {w}");
        }
        let limits = self.limits.apply(&game);
        let output = base_dir.join(&self.output);
        Ok(Resolved {
            file: self,
            game,
            openings,
            protocol,
            limits,
            base_dir: base_dir.to_path_buf(),
            output,
            notes,
            seats,
        })
    }

    /// The game's shipped opening suite, if it has one and every bot's protocol can start
    /// from an opening; else none, and a note saying how to get it.
    fn shipped_suite(
        &self,
        game: &GameConfig,
        default: ProtocolKind,
    ) -> Result<(Vec<Vec<String>>, Option<String>), ConfigError> {
        let Some((origin, text)) = arbiter_match::sprt::shipped_openings(game) else {
            return Ok((Vec::new(), None));
        };
        let protocols = self.bots.iter().map(|b| match &b.protocol {
            Some(p) => p.parse::<ProtocolKind>().ok(),
            None => Some(default),
        });
        if protocols
            .into_iter()
            .any(|p| p.is_none_or(|p| p.check(game, true).is_err()))
        {
            let note = format!(
                "{origin} not played: not every bot's protocol can start from an opening \
                 (Reversi: protocol = \"reversi-board\"); `openings = []` says so on purpose"
            );
            return Ok((Vec::new(), Some(note)));
        }
        let suite = arbiter_match::sprt::parse_openings(origin, text, game)
            .map_err(ConfigError::Invalid)?;
        let note = format!(
            "openings: {origin} ({} lines), each played with both colours",
            suite.len()
        );
        Ok((suite, Some(note)))
    }
}

/// Bounds on what a config may ask for, so a typo cannot schedule more games than a disk or
/// a lifetime holds (a schedule is stored up front).
pub const MAX_GAMES_PER_PAIRING: usize = 100_000;
pub const MAX_BOTS: usize = 1_000;
pub const MAX_GAMES: usize = 1_000_000;
pub const MAX_CONCURRENCY: usize = 1_024;

impl TournamentConfig {
    /// The stages of a staged format (`format = "swiss"` and `"knockout"` are one stage).
    pub fn stage_list(&self) -> Option<Vec<crate::stages::Stage>> {
        use crate::stages::{Stage, StageFormat};
        let one = |format: StageFormat| Stage {
            format,
            advance: None,
            rounds: self.rounds,
            groups: None,
            elimination: self.elimination.unwrap_or_default(),
            games: None,
            extra_pairs: self.extra_pairs.unwrap_or(1),
        };
        match self.format {
            Format::Swiss => Some(vec![one(StageFormat::Swiss)]),
            Format::Knockout => Some(vec![one(StageFormat::Knockout)]),
            Format::Stages => Some(self.stages.clone()),
            _ => None,
        }
    }

    /// Staged formats' keys and stages, each checked against its number of entrants.
    fn check_stages(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        let own = |key: &str, given: bool, format: &str| {
            if given
                && !matches!(
                    (format, self.format),
                    ("swiss", Format::Swiss) | ("knockout", Format::Knockout)
                )
            {
                Err(ConfigError::Invalid(format!(
                    "`{key}` belongs to format = \"{format}\""
                )))
            } else {
                Ok(())
            }
        };
        own("rounds", self.rounds.is_some(), "swiss")?;
        own("elimination", self.elimination.is_some(), "knockout")?;
        own("extra_pairs", self.extra_pairs.is_some(), "knockout")?;
        if !self.stages.is_empty() && self.format != Format::Stages {
            return bad("[[stages]] belong to format = \"stages\"".into());
        }
        let Some(stages) = self.stage_list() else {
            return Ok(());
        };
        if stages.is_empty() {
            return bad("format = \"stages\" needs at least one [[stages]]".into());
        }
        let mut entrants = self.bots.len();
        for (k, stage) in stages.iter().enumerate() {
            if let Some(a) = stage.advance {
                if a > entrants {
                    return bad(format!(
                        "stages[{k}].advance = {a}: the stage before has only {entrants} entrants"
                    ));
                }
                entrants = a;
            }
            stage.check(k, entrants, k == 0).map_err(|e| {
                ConfigError::Invalid(if self.format == Format::Stages {
                    e
                } else {
                    e.replace(&format!("stages[{k}]."), "")
                        .replace(&format!("stages[{k}]"), "the tournament")
                })
            })?;
        }
        Ok(())
    }

    fn pairing_count(&self) -> u128 {
        let n = self.bots.len() as u128;
        match self.format {
            Format::Gauntlet => {
                let refs = self.reference.len() as u128;
                refs * n.saturating_sub(refs)
            }
            _ => n * n.saturating_sub(1) / 2,
        }
    }

    fn legs(&self) -> u128 {
        match self.format {
            Format::DoubleRoundRobin => 2,
            _ => 1,
        }
    }

    /// Games the whole schedule holds, computed without overflow.
    fn scheduled_games(&self, seats: usize) -> u128 {
        if seats > 2 {
            return crate::tables::scheduled_games(self, seats);
        }
        if self.format.staged() {
            // Stored a round at a time: a Swiss round or a knockout's matches at most.
            return (self.bots.len() as u128 / 2) * self.games_per_pairing as u128;
        }
        self.pairing_count() * self.legs() * self.games_per_pairing as u128
    }
}

/// Bot names become file names and URL parts, so they are kept plain.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
