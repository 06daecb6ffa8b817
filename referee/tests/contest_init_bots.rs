//! The contest `arbiter contest init` makes plays the repository's sample bots, submitted
//! unchanged: for every game and board size, each language's sample bots for the contest's
//! protocol are built with the contest's own compile line, run with its own run line (no
//! argument: a student's bot gets none), and must play normal games. Before `ARBITER_SIZE`
//! the Reversi bots assumed 16 x 16 and lost every smaller game on their first move.
//!
//! Without `cc` or `python3` that language is skipped, with a message.

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_server::config::{Contest, Language};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots")
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Every game with the sizes `contest init --size` accepts (None: the game has no size).
fn games() -> Vec<(&'static str, Option<u8>)> {
    let reversi = (4..=16).step_by(2).map(|s| ("reversi", Some(s)));
    let gomoku = (5..=26).map(|s| ("gomoku", Some(s)));
    reversi.chain(gomoku).chain([("duel2048", None)]).collect()
}

/// `arbiter contest init` into `dir`, then the configuration it wrote.
fn init(dir: &Path, game: &str, size: Option<u8>) -> Contest {
    let mut cmd = Command::new(ARBITER);
    cmd.args(["contest", "init"])
        .arg(dir)
        .args(["--game", game]);
    if let Some(s) = size {
        cmd.args(["--size", &s.to_string()]);
    }
    let out = cmd.output().expect("run arbiter contest init");
    assert!(
        out.status.success(),
        "contest init {game} {size:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Contest::load(&dir.join("contest.toml")).expect("the contest.toml init wrote loads")
}

/// Programs built so far, by (compile line, file name, source): contests of one game at
/// different sizes build the same sample the same way, and it is built once.
type Built = std::collections::HashMap<(String, String, PathBuf), PathBuf>;

/// Builds `source` as the contest builds a submission in `lang`; returns its run command.
fn build(lang: &Language, source: &Path, dir: &Path, built: &mut Built) -> String {
    std::fs::create_dir_all(dir).expect("bot dir");
    let src = dir.join(&lang.file);
    std::fs::copy(source, &src).expect("copy the sample bot");
    let out = dir.join("bot");
    let fill = |line: &str, file: &Path| {
        line.replace("{src}", &src.to_string_lossy())
            .replace("{out}", &out.to_string_lossy())
            .replace("{file}", &file.to_string_lossy())
    };
    let key = (
        lang.compile.clone(),
        lang.file.clone(),
        source.to_path_buf(),
    );
    if let Some(program) = built.get(&key).filter(|_| !lang.compile.is_empty()) {
        std::fs::copy(program, &out).expect("copy the built bot");
    } else if !lang.compile.is_empty() {
        let words = shell_words::split(&fill(&lang.compile, &out)).expect("compile line");
        let status = Command::new(&words[0])
            .args(&words[1..])
            .status()
            .expect("run the compile line");
        assert!(status.success(), "{} does not build", source.display());
        // A compile line that only checks (Python's) leaves no program to reuse.
        if out.exists() {
            built.insert(key, out.clone());
        }
    }
    let program = if lang.run_source { &src } else { &out };
    fill(&lang.run, program)
}

/// The sample bots (greedy, random) of `lang` for `protocol`, as files under bots/.
fn samples(lang: &str, protocol: &str) -> Vec<PathBuf> {
    let (sub, ext) = match lang {
        "c" => ("c", "c"),
        "python" => ("python", "py"),
        _ => return Vec::new(),
    };
    ["greedy", "random"]
        .iter()
        .map(|kind| {
            bots_dir()
                .join(sub)
                .join(format!("{protocol}_{kind}.{ext}"))
        })
        .collect()
}

/// Plays a and b (both colours) under the contest's game and protocol; the reason codes.
fn play(contest: &Contest, protocol: &str, a: &str, b: &str) -> Vec<String> {
    let config = contest.file.game.clone();
    let mut cmd = Command::new(ARBITER);
    cmd.args(["match", &config.name]);
    if let Some(s) = config.size {
        cmd.args(["--size", &s.to_string()]);
    }
    let out = cmd
        .args(["--protocol", protocol, a, b, "-n", "2", "--json", "-q"])
        .output()
        .expect("run arbiter match");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let games = report["games"].as_array().expect("games");
    games
        .iter()
        .map(|g| format!("{} ({})", g["reason_code"], g["reason"]))
        .collect()
}

#[test]
fn every_sample_bot_plays_normal_games_in_every_contest_init_makes() {
    let langs: Vec<&str> = [("c", "cc"), ("python", "python3")]
        .into_iter()
        .filter(|(lang, tool)| {
            let ok = have(tool);
            if !ok {
                eprintln!("SKIPPED: no `{tool}`: the {lang} sample bots are not played");
            }
            ok
        })
        .map(|(lang, _)| lang)
        .collect();
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    let mut built = Built::new();
    for (game, size) in games() {
        let dir = tmp.path().join(format!("{game}-{}", size.unwrap_or(0)));
        let contest = init(&dir, game, size);
        for lang in &langs {
            let language = &contest.file.languages[*lang];
            let protocol = contest.protocols[*lang].name();
            let bots = samples(lang, protocol);
            let commands: Vec<String> = bots
                .iter()
                .enumerate()
                .map(|(i, src)| build(language, src, &dir.join(format!("{lang}{i}")), &mut built))
                .collect();
            for reason in play(&contest, protocol, &commands[0], &commands[1]) {
                if !reason.starts_with("\"normal\"") {
                    failures.push(format!("{game} {size:?} {lang} ({protocol}): {reason}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "games that did not end normally:\n{}",
        failures.join("\n")
    );
}
