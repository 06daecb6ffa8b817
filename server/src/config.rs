//! `contest.toml`: the game and its limits, the languages and how to build them, the
//! submission rules and the scoreboard's visibility. Parsed strictly: an unknown key or a bad
//! value stops `serve` with a message naming it.

use std::collections::BTreeMap;
use std::path::Path;

use arbiter_match::game::LimitOverrides;
use arbiter_match::protocol::ProtocolKind;
use arbiter_tournament::config::{GameSection, ResolvedGame};
use serde::{Deserialize, Serialize};

/// The file as written.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ContestFile {
    /// Shown in the site's title.
    pub name: String,
    /// The site's language for a browser that asks for none spoken here and has not chosen
    /// one with the switch: `en` (the default) or `zh-CN`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    pub game: GameSection,
    #[serde(default)]
    pub limits: LimitOverrides,
    #[serde(default)]
    pub submissions: SubmissionRules,
    #[serde(default)]
    pub scoreboard: ScoreboardRules,
    /// Seeds the 2048 duel's random sequences.
    #[serde(default)]
    pub seed: u64,
    pub languages: BTreeMap<String, Language>,
    /// Which games students' bots play each other: every pair, or a rating ladder.
    #[serde(default)]
    pub schedule: ScheduleSection,
    /// `schedule.format = "ladder"`: when a new submission is placed.
    #[serde(default)]
    pub ladder: Option<arbiter_tournament::ladder::Rules>,
    /// Leagues from the lowest up, each but the top one with a boss to beat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leagues: Vec<arbiter_tournament::league::League>,
    /// How a boss is beaten (with `[[leagues]]`).
    #[serde(default)]
    pub promotion: Option<arbiter_tournament::league::Promotion>,
    /// The live games' page.
    #[serde(default)]
    pub live: LiveSection,
    /// The games students ask for to try their bots (`/test-games`).
    #[serde(default)]
    pub test_games: TestGamesSection,
}

/// `[test_games]`: how many test games a student may start.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TestGamesSection {
    /// Test games one student may start in an hour (0: none; the page says so).
    #[serde(default = "TestGamesSection::default_per_hour")]
    pub per_hour: u32,
}

impl TestGamesSection {
    /// The most a contest may allow: a test game is a game a worker plays.
    pub const MAX_PER_HOUR: u32 = 1000;

    fn default_per_hour() -> u32 {
        10
    }
}

impl Default for TestGamesSection {
    fn default() -> Self {
        TestGamesSection {
            per_hour: Self::default_per_hour(),
        }
    }
}

/// `[live]`: what spectators of a game in progress see.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LiveSection {
    #[serde(default)]
    pub spectators: LiveSpectators,
}

/// What the spectators of a game that hides something (hands, sealed bids) see while it
/// runs; once it is over, everyone sees everything.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LiveSpectators {
    /// What a table of people sees: no hand, no sealed bid.
    #[default]
    Public,
    /// Every hand: the staff's choice for a contest where no student could be helped by it
    /// (the bots cannot see the page).
    Full,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScheduleSection {
    #[serde(default)]
    pub format: ContestFormat,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ContestFormat {
    /// Each latest submission plays every other one (`games_per_pairing` games).
    #[default]
    RoundRobin,
    /// A new submission plays opponents near its rating until its interval is narrow
    /// (`[ladder]`); the scoreboard ranks by rating.
    Ladder,
}

impl ContestFile {
    /// The ladder's rules in force (its defaults when `[ladder]` is absent).
    pub fn ladder_rules(&self) -> arbiter_tournament::ladder::Rules {
        self.ladder.unwrap_or_default()
    }

    /// The promotion rule in force (its default when `[promotion]` is absent).
    pub fn promotion_rule(&self) -> arbiter_tournament::league::Promotion {
        self.promotion.unwrap_or_default()
    }

    /// The keys of a contest of tables checked against the game's `seats`.
    fn check_tables(&self, origin: &str, seats: usize) -> anyhow::Result<()> {
        let given = [
            (
                "submissions.games_per_table",
                self.submissions.games_per_table.is_some(),
            ),
            (
                "scoreboard.points_per_place",
                self.scoreboard.points_per_place.is_some(),
            ),
        ];
        if seats <= 2 {
            if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
                anyhow::bail!(
                    "{origin}: {key} is for games of more than two seats; this game has two \
                     (students play pairings: submissions.games_per_pairing)"
                );
            }
            return Ok(());
        }
        if seats > arbiter_tournament::tables::MAX_SEATS {
            anyhow::bail!("{origin}: the game has {seats} seats: a table holds at most 8");
        }
        if self.schedule.format == ContestFormat::Ladder || !self.leagues.is_empty() {
            anyhow::bail!(
                "{origin}: the ladder and leagues pair two students; a game of {seats} seats \
                 plays every table of {seats} students (leave [schedule] and [[leagues]] out)"
            );
        }
        if self.game.openings.as_ref().is_some_and(|o| !o.is_empty()) {
            anyhow::bail!(
                "{origin}: game.openings: tables of {seats} start from the initial position"
            );
        }
        let gpt = self.submissions.games_per_table.unwrap_or(seats as u32) as usize;
        if gpt == 0 || gpt % seats != 0 || gpt > 100 {
            anyhow::bail!(
                "{origin}: submissions.games_per_table = {gpt}: a multiple of {seats} up to 100 \
                 (every student of a table sits in every seat equally often)"
            );
        }
        if let Some(p) = &self.scoreboard.points_per_place {
            if p.len() != seats {
                anyhow::bail!(
                    "{origin}: scoreboard.points_per_place has {} values: give one per place ({seats})",
                    p.len()
                );
            }
            if p.iter().any(|x| !x.is_finite() || x.abs() > 1e9) {
                anyhow::bail!(
                    "{origin}: scoreboard.points_per_place: every value must be a finite number"
                );
            }
        }
        Ok(())
    }

    /// `[schedule]`, `[ladder]`, `[[leagues]]` and `[promotion]` checked together.
    fn check_schedule(&self, origin: &str) -> anyhow::Result<()> {
        let ladder = self.schedule.format == ContestFormat::Ladder;
        if self.ladder.is_some() && !ladder {
            anyhow::bail!("{origin}: [ladder] needs [schedule] format = \"ladder\"");
        }
        self.ladder_rules()
            .check()
            .map_err(|e| anyhow::anyhow!("{origin}: [ladder] {e}"))?;
        if self.leagues.is_empty() {
            if self.promotion.is_some() {
                anyhow::bail!("{origin}: [promotion] needs [[leagues]]");
            }
            return Ok(());
        }
        arbiter_tournament::league::check(&self.leagues)
            .map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        self.promotion_rule()
            .check()
            .map_err(|e| anyhow::anyhow!("{origin}: [promotion] {e}"))
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SubmissionRules {
    /// The largest source file accepted.
    pub max_bytes: u64,
    /// Seconds between two submissions of one student.
    pub min_interval_s: u64,
    /// Thinking time of a student's bots per day (UTC), in seconds; 0 = unlimited. A new
    /// submission is refused once today's games used it up.
    pub daily_budget_s: u64,
    /// Games between two students' latest bots; even: colours are swapped in pairs.
    pub games_per_pairing: u32,
    /// A game of N > 2 seats: games each table of N students plays, a multiple of N (the
    /// seats rotate); default N (`crate::tables`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_per_table: Option<u32>,
}

impl Default for SubmissionRules {
    fn default() -> Self {
        SubmissionRules {
            max_bytes: 1 << 20,
            min_interval_s: 60,
            daily_budget_s: 3600,
            games_per_pairing: 2,
            games_per_table: None,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ScoreboardRules {
    /// Visitors who are not signed in may see the scoreboard and the games.
    pub public: bool,
    /// Keep bots' DEBUG output and standard error out of what other students see.
    pub private_logs: bool,
    /// A game of N > 2 seats: the points of 1st, 2nd, ... place (N values); default N-1,
    /// N-2, ..., 0 (`arbiter_tournament::tables::default_points`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_per_place: Option<Vec<f64>>,
}

impl Default for ScoreboardRules {
    fn default() -> Self {
        ScoreboardRules {
            public: true,
            private_logs: true,
            points_per_place: None,
        }
    }
}

/// One language students may submit in.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// Shown in the submission form.
    pub name: String,
    /// The source's file name when built (the uploader's name is never used as a path).
    pub file: String,
    /// Builds `{src}` into `{out}`; for an interpreted language a check of `{src}`, with
    /// `run_source = true`.
    #[serde(default)]
    pub compile: String,
    /// The built program is the source itself (Python).
    #[serde(default)]
    pub run_source: bool,
    /// Runs the program; `{file}` is its path.
    pub run: String,
    /// The protocol bots in this language speak (default: the game's).
    #[serde(default)]
    pub protocol: Option<String>,
    #[serde(default = "default_compile_ms")]
    pub compile_time_ms: u64,
    #[serde(default = "default_compile_mb")]
    pub compile_memory_mb: u64,
}

fn default_compile_ms() -> u64 {
    30_000
}

fn default_compile_mb() -> u64 {
    1024
}

/// The rules the course staff may change while the contest runs (the admin page); stored in
/// the database over contest.toml's.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rules {
    pub submissions: SubmissionRules,
    pub scoreboard: ScoreboardRules,
}

/// A checked contest configuration.
#[derive(Clone, Debug)]
pub struct Contest {
    pub file: ContestFile,
    pub game: ResolvedGame,
    /// Per language key: its protocol.
    pub protocols: BTreeMap<String, ProtocolKind>,
    /// The site's default language (`language`).
    pub language: arbiter_i18n::Lang,
    /// The game's seats: 2, or N for a contest of tables (`crate::tables`).
    pub seats: usize,
}

impl Contest {
    pub fn load(path: &Path) -> anyhow::Result<Contest> {
        let text = crate::read_text(path, 1 << 20, "a contest file")?;
        let dir = path.parent().unwrap_or(Path::new("."));
        Contest::parse_in(&text, &path.display().to_string(), dir)
    }

    /// A contest file whose game module, if any, is relative to the working directory.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Contest> {
        Contest::parse_in(text, origin, Path::new("."))
    }

    /// A contest file in `dir`: a game module's path is relative to it.
    pub fn parse_in(text: &str, origin: &str, dir: &Path) -> anyhow::Result<Contest> {
        let file: ContestFile = toml::from_str(text)
            .map_err(|e| anyhow::anyhow!("{origin}: {}", e.to_string().trim_end()))?;
        let game = file
            .game
            .resolve(file.seed, dir)
            .map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        file.limits
            .check()
            .map_err(|e| anyhow::anyhow!("{origin}: [limits] {e}"))?;
        let language = match &file.language {
            None => arbiter_i18n::Lang::default(),
            Some(tag) => arbiter_i18n::Lang::parse(tag).ok_or_else(|| {
                anyhow::anyhow!(
                    "{origin}: language = {tag:?}: the site speaks \"en\" and \"zh-CN\""
                )
            })?,
        };
        let rules = &file.submissions;
        if rules.games_per_pairing == 0
            || rules.games_per_pairing % 2 != 0
            || rules.games_per_pairing > 100
        {
            anyhow::bail!(
                "{origin}: submissions.games_per_pairing = {}: must be even, from 2 to 100 (colours are swapped in pairs)",
                rules.games_per_pairing
            );
        }
        if rules.max_bytes == 0 || rules.max_bytes > 16 << 20 {
            anyhow::bail!("{origin}: submissions.max_bytes must be between 1 and 16 MB");
        }
        if file.languages.is_empty() {
            anyhow::bail!("{origin}: no [languages.*]: students could not submit anything");
        }
        file.check_schedule(origin)?;
        if file.test_games.per_hour > TestGamesSection::MAX_PER_HOUR {
            anyhow::bail!(
                "{origin}: test_games.per_hour = {}: at most {}",
                file.test_games.per_hour,
                TestGamesSection::MAX_PER_HOUR
            );
        }
        let seats = arbiter_engine::AnyGame::new(&game.game)
            .map_err(|e| anyhow::anyhow!("{origin}: [game] {e}"))?
            .seats();
        file.check_tables(origin, seats)?;
        let mut protocols = BTreeMap::new();
        for (key, lang) in &file.languages {
            let here = format!("{origin}: languages.{key}");
            if !arbiter_queue::compile::safe_file_name(&lang.file) {
                anyhow::bail!("{here}.file {:?}: a plain file name like main.c", lang.file);
            }
            if !lang.run.contains("{file}") {
                anyhow::bail!("{here}.run must contain {{file}} (the program's path)");
            }
            if !lang.run_source && !lang.compile.contains("{out}") {
                anyhow::bail!("{here}.compile must write {{out}} (or set run_source = true)");
            }
            let protocol = match &lang.protocol {
                Some(p) => p
                    .parse::<ProtocolKind>()
                    .map_err(|e| anyhow::anyhow!("{here}.protocol: {e}"))?,
                None => game.protocol,
            };
            protocol
                .check(&game.game, !game.openings.is_empty())
                .map_err(|e| anyhow::anyhow!("{here}: {e}"))?;
            protocols.insert(key.clone(), protocol);
        }
        Ok(Contest {
            file,
            game,
            protocols,
            language,
            seats,
        })
    }

    /// Games each table plays (a game of N > 2 seats): `games_per_table`, default N.
    pub fn games_per_table(&self) -> usize {
        (self.file.submissions.games_per_table).map_or(self.seats, |g| g as usize)
    }

    /// The points of 1st, 2nd, ... place (a game of N > 2 seats).
    pub fn points_per_place(&self) -> Vec<f64> {
        self.file
            .scoreboard
            .points_per_place
            .clone()
            .unwrap_or_else(|| arbiter_tournament::tables::default_points(self.seats))
    }

    /// The rules as contest.toml gives them.
    pub fn rules(&self) -> Rules {
        Rules {
            submissions: self.file.submissions.clone(),
            scoreboard: self.file.scoreboard.clone(),
        }
    }

    /// What every game shares, as the queue stores it.
    pub fn competition_config(&self) -> arbiter_queue::spec::CompetitionConfig {
        arbiter_queue::spec::CompetitionConfig {
            game: self.game.game.clone(),
            limits: self.file.limits.clone(),
        }
    }
}

/// The commented `contest.toml` that `arbiter contest init` writes.
pub fn template(name: &str, game: &str, size: Option<u8>, rule: Option<&str>) -> String {
    let size_line = match size {
        Some(s) => format!("size = {s}"),
        None => "# size = 16".to_string(),
    };
    let rule_line = match rule {
        Some(r) => format!("rule = \"{r}\""),
        None => "# rule = \"renju\"            # gomoku: freestyle, standard or renju".to_string(),
    };
    let section = format!(
        r#"[game]
name = "{game}"                   # reversi, gomoku or duel2048 (required)
{size_line}
{rule_line}
# openings = ["d3 c5 f6"]         # start positions, each played with both colours
# protocol = "reversi"            # the protocol bots speak (default: the game's own)"#
    );
    template_with(name, &section)
}

/// The `contest.toml` of a contest whose game is a module (docs/game-kit.md): `file` is the
/// module's file in the contest's directory, `config` its configuration as a TOML inline
/// table (`{ cols = 7 }`).
pub fn module_template(name: &str, file: &str, config: &str) -> String {
    let section = format!(
        r#"[game]
# The game module, relative to this file (docs/game-kit.md), and its configuration (given to
# it as a JSON object). Replace the file only between contests: games are played by its rules.
module = {file:?}
config = {config}
# seed = 7                        # the seed of its chance (default: the contest's seed)
# protocol = "kit"                # bots speak the kit's line protocol"#
    );
    template_with(name, &section)
}

/// A module's configuration given as JSON (`--game-config`) as a TOML inline table for
/// contest.toml: an object, at most 64 KB, without nulls (TOML has none).
pub fn module_config_table(json: Option<&str>) -> anyhow::Result<String> {
    let Some(text) = json else {
        return Ok("{}".into());
    };
    let limit = arbiter_tournament::config::MAX_MODULE_CONFIG;
    if text.len() > limit {
        anyhow::bail!("--game-config: more than {} KB", limit >> 10);
    }
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| anyhow::anyhow!("--game-config is not JSON: {e}"))?;
    if !value.is_object() {
        anyhow::bail!("--game-config must be a JSON object, such as {{\"cols\": 8}}");
    }
    let table = toml::Value::try_from(&value)
        .map_err(|e| anyhow::anyhow!("--game-config cannot be written as TOML: {e}"))?;
    Ok(table.to_string())
}

fn template_with(name: &str, game_section: &str) -> String {
    format!(
        r#"# An arbiter contest. `arbiter contest serve DIR` reads this file at start-up.
# Every key is optional unless marked; absent keys take the defaults shown.

name = "{name}"                   # the site's title
# language = "zh-CN"              # the site's default language: en (default) or zh-CN

{game_section}

[limits]                          # absent: the game's defaults (Reversi and Gomoku: 5 s a
# move_ms = 5000                  # move, 180 s a game, 350 MB; the 2048 duel: 5 s in total)
# game_ms = 180000
# memory_mb = 350
# disk_mb = 64                    # each bot's scratch directory (a tmpfs, also its /tmp)
# ponder = true                   # bots may think on the opponent's time

[submissions]
max_bytes = 1048576               # the largest source file (1 MB)
min_interval_s = 60               # seconds between two submissions of one student
daily_budget_s = 3600             # thinking time of a student's games per day (UTC); 0 = no limit
games_per_pairing = 2             # even: colours swapped in pairs
# games_per_table = 3             # a game of N > 2 seats: games each table of N students plays,
                                  # a multiple of N (seats rotate); default N

[schedule]
format = "round-robin"            # every pair; "ladder": a new bot plays opponents near its
                                  # rating until its interval is narrow (games grow linearly)
# [ladder]                        # with format = "ladder"
# interval = 100                  # placed once its 95 % interval is at most +-100 Elo
# max_games = 200                 # the most games one submission plays while placed
# batch = 8                       # games queued at a time
# spread = 150                    # how far from its rating opponents are drawn (Elo)

# Leagues with bosses, from the lowest up; beat a league's boss to move up (docs/contest.md).
# [[leagues]]
# name = "Wood"
# boss = "builtin:1"              # a level of the built-in ladder
# [[leagues]]
# name = "Bronze"
# boss = "builtin:2"
# [[leagues]]
# name = "Silver"                 # the top league has no boss
# [promotion]
# rule = "score"                  # at least `share` of the points over `games` games,
# games = 10                      # or rule = "sprt" with elo0, elo1, alpha, beta, max_games
# share = 0.6

[live]
spectators = "public"             # a game that hides something (hands, bids) shows spectators
                                  # what a table of people sees; "full": every hand

[test_games]                      # a student's bot against a built-in level, another student's
per_hour = 10                     # bot or themselves by clicks; never counted; 0 = none

[scoreboard]
public = true                     # visitors who are not signed in see the scoreboard and games
private_logs = true               # a bot's DEBUG output and stderr are shown only to its author
# points_per_place = [2, 1, 0]    # a game of N > 2 seats: points of 1st, 2nd, ... place
                                  # (default N-1, N-2, ..., 0; a shared place gives its points)

[languages.c]
name = "C (gcc, C11)"
file = "main.c"
compile = "gcc -O2 -std=gnu11 -o {{out}} {{src}} -lm"
run = "{{file}}"

[languages.cpp]
name = "C++ (g++, C++17)"
file = "main.cpp"
compile = "g++ -O2 -std=gnu++17 -o {{out}} {{src}}"
run = "{{file}}"

[languages.python]
name = "Python 3"
file = "main.py"
compile = "python3 -m py_compile {{src}}"   # a syntax check; the source is the program
run_source = true
run = "python3 {{file}}"
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_parses_for_every_game() {
        for (game, size, rule) in [
            ("reversi", Some(8), None),
            ("gomoku", None, Some("renju")),
            ("duel2048", None, None),
        ] {
            let text = template("t", game, size, rule);
            let c =
                Contest::parse(&text, "contest.toml").unwrap_or_else(|e| panic!("{game}: {e:#}"));
            assert_eq!(c.file.languages.len(), 3);
            assert_eq!(c.file.submissions.games_per_pairing, 2);
        }
    }

    #[test]
    fn a_module_config_is_written_as_toml_that_reads_back_as_the_json() {
        let json = r#"{"cols": 8, "name": "x \" y", "deep": {"list": [1, 2.5, true]}}"#;
        let table = module_config_table(Some(json)).unwrap();
        let back: toml::Table = toml::from_str(&format!("config = {table}")).unwrap();
        let given: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_value(&back["config"]).unwrap(), given);
        assert_eq!(module_config_table(None).unwrap(), "{}");
        for bad in ["[1]", "{\"a\": null}", "nope"] {
            assert!(module_config_table(Some(bad)).is_err(), "{bad}");
        }
        let huge = format!("{{\"a\": \"{}\"}}", "x".repeat(70_000));
        assert!(module_config_table(Some(&huge)).is_err());
    }

    #[test]
    fn mistakes_are_named() {
        let base = template("t", "reversi", Some(8), None);
        let odd = base.replace("games_per_pairing = 2", "games_per_pairing = 3");
        assert!(Contest::parse(&odd, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("games_per_pairing"));
        let typo = base.replace("min_interval_s", "min_intervals");
        assert!(Contest::parse(&typo, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("min_intervals"));
        let path = base.replace("file = \"main.c\"", "file = \"../main.c\"");
        assert!(Contest::parse(&path, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("languages.c.file"));
        let memory = base.replace("# memory_mb = 350", "memory_mb = 1");
        assert!(Contest::parse(&memory, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("memory_mb = 1: from 16 to"));
        let live = base.replace("spectators = \"public\"", "spectators = \"full\"");
        let c = Contest::parse(&live, "c.toml").expect("spectators = full");
        assert_eq!(c.file.live.spectators, LiveSpectators::Full);
        let peek = base.replace("spectators = \"public\"", "spectators = \"hands\"");
        assert!(Contest::parse(&peek, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("unknown variant `hands`"));
        let tables = base.replace("# games_per_table = 3", "games_per_table = 3");
        assert!(Contest::parse(&tables, "c.toml")
            .unwrap_err()
            .to_string()
            .contains("games_per_table is for games of more than two seats"));
    }

    /// A contest of tables: Dou Dizhu, the carried module of three seats.
    #[test]
    fn a_game_of_three_seats_plays_tables_and_its_keys_are_checked() {
        let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/dist");
        let base = module_template("t", "dou-dizhu.wasm", "{}");
        let parse = |text: &str| Contest::parse_in(text, "c.toml", &dist);
        let c = parse(&base).expect("the template parses");
        assert_eq!(c.seats, 3);
        assert_eq!(c.games_per_table(), 3);
        assert_eq!(c.points_per_place(), vec![2.0, 1.0, 0.0]);
        let given = base
            .replace("# games_per_table = 3", "games_per_table = 6")
            .replace(
                "# points_per_place = [2, 1, 0]",
                "points_per_place = [3, 1, 0]",
            );
        let c = parse(&given).expect("given keys parse");
        assert_eq!(c.games_per_table(), 6);
        assert_eq!(c.points_per_place(), vec![3.0, 1.0, 0.0]);
        for (from, to, named) in [
            (
                "# games_per_table = 3",
                "games_per_table = 4",
                "a multiple of 3",
            ),
            (
                "# games_per_table = 3",
                "games_per_table = 0",
                "a multiple of 3",
            ),
            (
                "# points_per_place = [2, 1, 0]",
                "points_per_place = [1, 0]",
                "has 2 values",
            ),
            (
                "format = \"round-robin\"",
                "format = \"ladder\"",
                "the ladder and leagues",
            ),
        ] {
            let err = parse(&base.replace(from, to)).unwrap_err().to_string();
            assert!(err.contains(named), "{to}: {err}");
        }
    }
}
