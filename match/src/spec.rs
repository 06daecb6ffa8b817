//! What to play, as a command line or a config file names it: the game and its options, bots
//! (commands, or `builtin[:random|:N]` for arbiter's own sparring bots) and openings. Shared
//! by `arbiter match`, tournaments, Saiblo and the contest server, so that every front end
//! reads them the same way.

use std::path::Path;

use anyhow::{bail, Context};
use arbiter_engine::any::GameConfig;
use arbiter_engine::duel2048::RandomSource;
use arbiter_engine::gomoku::Rule;

use crate::game::BotSpec;
use crate::protocol::ProtocolKind;

/// A game as named by flags or a config file; unset options take the game's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameChoice {
    /// `reversi`, `gomoku` or `duel2048`.
    pub game: String,
    pub size: Option<u8>,
    pub rule: Option<Rule>,
    /// 2048 duel: the seed of the random sequence.
    pub seed: Option<u64>,
    /// 2048 duel: the number of rounds.
    pub rounds: Option<u16>,
}

/// The configuration the flags ask for; flags that do not fit the game are errors, not ignored.
pub fn game_config(a: &GameChoice) -> anyhow::Result<GameConfig> {
    let mut config = GameConfig::default_for(&a.game)?;
    match &mut config {
        GameConfig::Reversi(c) => {
            reject(a.rule.is_some(), "--rule", "gomoku")?;
            reject(
                a.seed.is_some() || a.rounds.is_some(),
                "--seed/--rounds",
                "duel2048",
            )?;
            if let Some(s) = a.size {
                c.size = s;
            }
        }
        GameConfig::Gomoku(c) => {
            reject(
                a.seed.is_some() || a.rounds.is_some(),
                "--seed/--rounds",
                "duel2048",
            )?;
            if let Some(s) = a.size {
                c.size = s;
            }
            if let Some(r) = a.rule {
                c.rule = r;
            }
        }
        GameConfig::Module(_) => bail!("a game module is given as its file, not by name"),
        GameConfig::Duel2048(c) => {
            reject(a.size.is_some(), "--size", "reversi and gomoku")?;
            reject(a.rule.is_some(), "--rule", "gomoku")?;
            if let Some(s) = a.seed {
                c.random = RandomSource::Seed(s);
            }
            if let Some(r) = a.rounds {
                c.rounds = r;
            }
        }
    }
    // Building the start position validates sizes and the like with the engine's message.
    arbiter_engine::AnyGame::new(&config).context("cannot set up the game")?;
    Ok(config)
}

fn reject(given: bool, flag: &str, applies_to: &str) -> anyhow::Result<()> {
    if given {
        bail!("{flag} only applies to {applies_to}");
    }
    Ok(())
}

/// Splits a move list given on the command line: whitespace and semicolons separate moves,
/// so a two-number move is written with a comma (`2,3`).
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|m| !m.is_empty())
        .collect()
}

/// A bot from the command line: a command, or `builtin[:random|:N]` for arbiter's own.
pub fn bot_spec(
    text: &str,
    name: Option<&str>,
    protocol: ProtocolKind,
    config: &GameConfig,
    fallback: &str,
) -> anyhow::Result<BotSpec> {
    let (command, default_name, sees) = match text.strip_prefix("builtin") {
        Some(rest) if rest.is_empty() || rest.starts_with(':') => {
            let depth = match rest.trim_start_matches(':') {
                "" | "greedy" => 1,
                "random" => 0,
                n => n.parse::<u32>().with_context(|| {
                    format!(
                        "builtin bot {text:?}: expected builtin, builtin:random or builtin:DEPTH"
                    )
                })?,
            };
            if depth > crate::bounds::MAX_BUILTIN_DEPTH {
                bail!(
                    "builtin bot {text:?}: the depth is at most {} (the ladder's levels are 1 \
                     to 5; docs/sparring.md)",
                    crate::bounds::MAX_BUILTIN_DEPTH
                );
            }
            let mut sees = vec![arbiter_exe()?];
            if let Some(m) = config.as_module() {
                sees.extend(arbiter_kit_host::host::module_path(&m.module.sha256));
            }
            (
                builtin_command(config, protocol, depth)?,
                format!(
                    "builtin-{}",
                    depth_name(depth, config.as_module().is_some())
                ),
                Some(sees),
            )
        }
        _ => {
            let words =
                shell_words::split(text).with_context(|| format!("bot command {text:?}"))?;
            if words.is_empty() {
                bail!("empty bot command");
            }
            (text.to_string(), command_name(&words, fallback), None)
        }
    };
    Ok(BotSpec {
        name: name.map_or(default_name, str::to_string),
        command,
        protocol,
        working_dir: None,
        sees,
    })
}

/// A bot's default name: its program's file name without extension, past interpreters and
/// `env VAR=value`; for an adapter that runs another file (`sessdsa_host.py my_ai.py`), that
/// file's, so two hosted AIs are told apart in verdicts and summaries.
fn command_name(words: &[String], fallback: &str) -> String {
    let stem = |w: &String| {
        Path::new(w)
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
    };
    let mut rest = words.iter().skip_while(|w| is_launcher(w));
    let Some(program) = rest.next().or(words.first()).and_then(stem) else {
        return fallback.to_string();
    };
    if ADAPTERS.contains(&program.as_str()) {
        if let Some(hosted) = rest.find(|w| !w.starts_with('-')).and_then(stem) {
            return hosted;
        }
    }
    program
}

/// Programs that run a bot given as their first argument.
const ADAPTERS: [&str; 1] = ["sessdsa_host"];

/// Words before the program itself: interpreters, their options, `env` and its assignments.
fn is_launcher(word: &str) -> bool {
    is_interpreter(word)
        || word == "env"
        || word.starts_with('-')
        || word
            .split_once('=')
            .is_some_and(|(k, _)| !k.is_empty() && !k.contains('/'))
}

fn is_interpreter(word: &str) -> bool {
    let base = Path::new(word)
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or(word);
    base.starts_with("python") || matches!(base, "node" | "java" | "pypy3" | "ruby" | "perl" | "-u")
}

/// The built-in bot's name: by its search for the built-in games (greedy is one ply deep),
/// `mcN` for a module game, where every level is flat Monte Carlo.
fn depth_name(depth: u32, module: bool) -> String {
    match (depth, module) {
        (0, _) => "random".into(),
        (n, true) => format!("mc{n}"),
        (1, false) => "greedy".into(),
        (n, false) => format!("depth{n}"),
    }
}

/// The command line that runs `arbiter bot` for this game.
fn builtin_command(
    config: &GameConfig,
    protocol: ProtocolKind,
    depth: u32,
) -> anyhow::Result<String> {
    let exe = arbiter_exe()?;
    let exe = exe
        .to_str()
        .context("the arbiter executable's path is not UTF-8")?;
    // A module game is named by its file, which the bot loads itself.
    let game = match config.as_module() {
        Some(m) => {
            let path =
                arbiter_kit_host::host::module_path(&m.module.sha256).with_context(|| {
                    format!(
                        "the built-in bots need game module {}'s file, which this program was not \
                     given",
                        m.module.name
                    )
                })?;
            let path = path
                .to_str()
                .context("the game module's path is not UTF-8")?;
            shell_words::quote(path).into_owned()
        }
        None => config.name().to_string(),
    };
    let mut cmd = format!(
        "{} bot {game} --depth {depth} --protocol {protocol}",
        shell_words::quote(exe),
    );
    match config {
        GameConfig::Reversi(c) => cmd.push_str(&format!(" --size {}", c.size)),
        GameConfig::Gomoku(c) => {
            cmd.push_str(&format!(" --size {} --rule {}", c.size, c.rule.name()));
        }
        GameConfig::Duel2048(_) | GameConfig::Module(_) => {}
    }
    Ok(cmd)
}

pub fn read_openings(path: &Path, config: &GameConfig) -> anyhow::Result<Vec<Vec<String>>> {
    let text = crate::input::read_text(path, crate::input::OPENINGS)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves: Vec<String> = split_moves(line).into_iter().map(String::from).collect();
        // Check now, so a typo stops the match before any game is played.
        let mut g = arbiter_engine::AnyGame::new(config)?;
        for m in &moves {
            g.play_text(m).map_err(|e| {
                anyhow::anyhow!("{}:{}: opening move {m}: {e}", path.display(), i + 1)
            })?;
        }
        if g.outcome().is_some() {
            bail!("{}:{}: the opening ends the game", path.display(), i + 1);
        }
        out.push(moves);
    }
    if out.is_empty() {
        bail!("{} holds no opening", path.display());
    }
    Ok(out)
}

/// The `arbiter` executable that runs built-in bots (`arbiter bot ...`): `$ARBITER_EXE` when set
/// (tests and other front ends that are not the `arbiter` binary), else this executable.
pub fn arbiter_exe() -> anyhow::Result<std::path::PathBuf> {
    match std::env::var_os("ARBITER_EXE") {
        Some(path) if !path.is_empty() => Ok(path.into()),
        _ => std::env::current_exe().context("cannot find the arbiter executable"),
    }
}

/// Whether `command` runs one of arbiter's own bots (`ARBITER_EXE bot ...`, as
/// [`bot_spec`] writes `builtin:N`): arbiter's own program, trusted with what a player's bot is
/// not told (a module game's seed, from which its own copy of the game draws the same dice).
pub fn is_builtin_command(command: &str) -> bool {
    let Ok(exe) = arbiter_exe() else {
        return false;
    };
    let words = shell_words::split(command).unwrap_or_default();
    words.len() >= 2 && std::path::Path::new(&words[0]) == exe && words[1] == "bot"
}

/// Checks, before any game is played, that a bot can start: its program exists and may be
/// run, and the script an interpreter is given (`python3 my_bot.py`) exists. Built-in bots
/// pass. The error names the bot and, where it applies, what was probably meant.
pub fn check_bot_starts(bot: &BotSpec) -> anyhow::Result<()> {
    let mut command = arbiter_sandbox::BotCommand::parse(&bot.command)
        .map_err(|e| anyhow::anyhow!("bot {}: {e}", bot.name))?;
    if let Some(dir) = &bot.working_dir {
        command = command.current_dir(dir);
    }
    command
        .check_program()
        .map_err(|e| anyhow::anyhow!("bot {}: {e}", bot.name))?;
    let words: Vec<String> = command
        .argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    if let Some((interpreter, script)) = interpreter_script(&words) {
        let dir = bot.working_dir.clone().unwrap_or_else(|| ".".into());
        if !dir.join(script).is_file() {
            bail!(
                "bot {}: {interpreter} would not find {script}: no such file",
                bot.name
            );
        }
    }
    Ok(())
}

/// The script file an interpreter command runs (`python3 -u bot.py` -> `bot.py`), if any.
fn interpreter_script(words: &[String]) -> Option<(&str, &str)> {
    let mut words = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| *w == "env" || (w.contains('=') && !w.starts_with('-')));
    let interpreter = words.next()?;
    let base = Path::new(interpreter).file_name()?.to_str()?;
    let known = ["python", "pypy", "node", "ruby", "perl"];
    if !known.iter().any(|k| base.starts_with(k)) {
        return None;
    }
    while let Some(w) = words.next() {
        match w {
            // A module or inline code: no script file to check.
            "-m" | "-c" | "-e" => return None,
            // Python's options that take a value.
            "-W" | "-X" => {
                words.next();
            }
            w if w.starts_with('-') => continue,
            w => {
                let script = [".py", ".js", ".mjs", ".rb", ".pl"]
                    .iter()
                    .any(|ext| w.ends_with(ext));
                return script.then_some((interpreter, w));
            }
        }
    }
    None
}

/// Two bots with the same name (one program against itself) become `NAME-a` and `NAME-b`,
/// so verdicts and summaries tell them apart.
pub fn distinct_names(bots: &mut [BotSpec]) {
    const SUFFIX: &str = "abcdefgh";
    for i in 0..bots.len() {
        let name = bots[i].name.clone();
        let same: Vec<usize> = (0..bots.len()).filter(|&j| bots[j].name == name).collect();
        if same.len() > 1 {
            for (k, &j) in same.iter().enumerate() {
                let letter = SUFFIX.chars().nth(k).unwrap_or('x');
                bots[j].name = format!("{name}-{letter}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::command_name;

    fn name(command: &str) -> String {
        let words = shell_words::split(command).unwrap_or_default();
        command_name(&words, "A")
    }

    #[test]
    fn interpreter_scripts() {
        let script = |c: &str| {
            let words = shell_words::split(c).unwrap_or_default();
            super::interpreter_script(&words).map(|(_, s)| s.to_string())
        };
        assert_eq!(
            script("python3 -u my_bot.py 8").as_deref(),
            Some("my_bot.py")
        );
        assert_eq!(script("env A=1 node bot.js").as_deref(), Some("bot.js"));
        assert_eq!(script("python3 -m my_bot"), None);
        assert_eq!(
            script("python3 -W ignore bot.py").as_deref(),
            Some("bot.py")
        );
        assert_eq!(script("./my_bot my.py"), None);
    }

    #[test]
    fn default_names() {
        assert_eq!(name("./my_bot"), "my_bot");
        assert_eq!(
            name("python3 -u bots/python/duel_random.py --x"),
            "duel_random"
        );
        assert_eq!(name("env PYTHONPATH=/tmp python3 bot.py"), "bot");
        // A hosted AI is named after its own file, not the host's.
        assert_eq!(
            name("python3 bots/python/sessdsa_host.py ais/minimax_player.py"),
            "minimax_player"
        );
        assert_eq!(name("python3 sessdsa_host.py"), "sessdsa_host");
    }
}
