//! `arbiter contest demo`: a ready contest in a minute. Five students with the sample bots as
//! their submissions (one of them first submits a bot that does not compile), games played by
//! local workers while you watch the scoreboard, every game live and in the player. Reversi by
//! default; with `--game-module`, any game module, whose students submit the kit's sample bots.

use std::path::Path;

use anyhow::Context;

use crate::config::Contest;
use crate::store;

/// The demo's contest: 8 x 8 Reversi through `reversi-board` (the sample bots learn the board
/// from its BOARD line), short clocks, no limits on submitting.
/// The demo contest's contest.toml: `{command}` wrote it, `{title}` is its name (TOML), and
/// `{game_section}` its `[game]` (Reversi 8 x 8, or a module copied beside contest.toml).
const CONFIG: &str = r#"# The demo contest written by `{command}`. See docs/contest.md.
name = {title}

{game_section}

[limits]
move_ms = 1000
game_ms = 30000

[submissions]
min_interval_s = 0
daily_budget_s = 0
games_per_pairing = 2

[scoreboard]
public = true
private_logs = true

[languages.c]
name = "C (gcc, C11)"
file = "main.c"
compile = "gcc -O2 -std=gnu11 -o {out} {src} -lm"
run = "{file}"

[languages.python]
name = "Python 3"
file = "main.py"
compile = "python3 -m py_compile {src}"
run_source = true
run = "python3 -u {file}"
"#;

/// [`CONFIG`] filled in.
fn demo_config(command: &str, title: &str, game_section: &str) -> String {
    CONFIG
        .replace("{command}", command)
        .replace(
            "{title}",
            &toml::Value::String(format!("arbiter demo: {title}")).to_string(),
        )
        .replace("{game_section}", game_section)
}

/// The game of a demo contest.
#[derive(Clone, Copy, Debug)]
pub enum Game<'a> {
    /// 8 x 8 Reversi and its greedy and random sample bots.
    Reversi,
    /// A game module (docs/game-kit.md) with its configuration (a JSON object), played by the
    /// kit's random sample bots in C and Python.
    Module {
        file: &'a Path,
        config: Option<&'a str>,
    },
}

/// (login, name, nickname, language, sample bot under `bots/`).
type Student = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// The Reversi demo's students.
const STUDENTS: [Student; 5] = [
    ("2301", "Ada Lovelace", "ada", "c", "c/reversi_greedy.c"),
    (
        "2302",
        "Alan Turing",
        "alan",
        "python",
        "python/reversi_greedy.py",
    ),
    ("2303", "Grace Hopper", "grace", "c", "c/reversi_random.c"),
    (
        "2304",
        "Edsger Dijkstra",
        "edsger",
        "python",
        "python/reversi_random.py",
    ),
    (
        "2305",
        "Barbara Liskov",
        "barbara",
        "c",
        "c/reversi_greedy.c",
    ),
];

/// The students of a demo contest of `contest`'s game. In a module game each plays the kit's
/// sample bot in their language instead (it knows no game, so it plays a random legal move of
/// any).
fn students(contest: &Contest) -> [Student; 5] {
    let module = contest.game.game.as_module().is_some();
    STUDENTS.map(|(login, name, nickname, language, bot)| {
        let bot = match (module, language) {
            (false, _) => bot,
            (true, "python") => "python/kit_random.py",
            (true, _) => "c/kit_random.c",
        };
        (login, name, nickname, language, bot)
    })
}

/// The password of every demo account (students and `admin`).
pub const PASSWORD: &str = "arbiter-demo";

/// The file that marks a directory as `contest demo`'s (it may be replaced, and its accounts
/// share [`PASSWORD`]).
const MARKER: &str = ".arbiter-demo";

/// Whether `dir` holds a demo contest.
pub fn is_demo(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
}

/// Writes a fresh demo contest of `game` in `dir` (replacing an earlier demo there, never
/// anything else) with its students. `bots` is the repository's `bots/`.
pub async fn prepare(dir: &Path, bots: &Path, game: Game<'_>) -> anyhow::Result<()> {
    // A module that is no module, or a configuration that is no JSON object, is refused
    // before an earlier demo is removed (the module itself checks the configuration later).
    let module = match game {
        Game::Reversi => None,
        Game::Module { file, config } => {
            let found = arbiter_kit_host::host::register_file(file)
                .with_context(|| format!("--game-module {}", file.display()))?;
            let table = crate::config::module_config_table(config)?;
            Some((file, config, table, found.name))
        }
    };
    let marker = dir.join(MARKER);
    if dir.exists() {
        if !marker.exists() {
            anyhow::bail!(
                "{} exists and is not an earlier demo: choose another --dir",
                dir.display()
            );
        }
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    let config = match module {
        None => {
            crate::init(dir, "arbiter demo", "reversi", Some(8), None, None).await?;
            std::fs::write(&marker, "")?;
            demo_config(
                "arbiter contest demo",
                "Reversi 8 x 8",
                "[game]\nname = \"reversi\"\nsize = 8\nprotocol = \"reversi-board\"",
            )
        }
        Some((file, config, table, name)) => {
            // Marked first: a module that refuses its configuration leaves a directory that
            // the next demo may replace.
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            std::fs::write(&marker, "")?;
            crate::init_module(dir, "arbiter demo", file, config, None).await?;
            let title = match config {
                Some(json) if table != "{}" => format!("{name} {}", json.trim()),
                _ => name.clone(),
            };
            let section = format!(
                "[game]\nmodule = {:?}\nconfig = {table}",
                format!("{name}.wasm")
            );
            demo_config("arbiter contest demo --game-module", &title, &section)
        }
    };
    std::fs::write(dir.join("contest.toml"), &config)?;
    Contest::parse_in(&config, "demo contest", dir)?;
    let (db, _) = crate::state::open_db(dir, None).await?;
    let hash = crate::auth::hash_password(PASSWORD);
    sqlx::query("UPDATE users SET password = $1, must_change = 0 WHERE login = 'admin'")
        .bind(&hash)
        .execute(db.pool())
        .await?;
    for (login, name, nickname, _, _) in STUDENTS {
        sqlx::query(&format!(
            "INSERT INTO users (login, name, nickname, password, must_change, admin, created_at) \
             VALUES ($1, $2, $3, $4, 0, 0, {})",
            db.now()
        ))
        .bind(login)
        .bind(name)
        .bind(nickname)
        .bind(&hash)
        .execute(db.pool())
        .await?;
    }
    db.close().await;
    let _ = bots;
    Ok(())
}

/// Submits the students' bots through the same path as the site (so the compile, the
/// scheduling and the rules apply): Barbara's first attempt does not compile.
pub async fn submit_all(state: &crate::state::Shared, bots: &Path) -> anyhow::Result<()> {
    for (login, _, _, language, file) in students(&state.contest) {
        let Some((user, _)) = store::user_by_login(&state.db, login).await? else {
            continue;
        };
        if login == "2305" {
            let broken =
                b"#include <stdio.h>\nint main(void) {\n    printf(\"OK\\n\")\n    return 0;\n}\n"
                    .to_vec();
            crate::submissions::submit(state, &user, language, "first_try.c", broken)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        let path = bots.join(file);
        let source = std::fs::read(&path)
            .with_context(|| format!("the sample bot {} is missing", path.display()))?;
        let name = path
            .file_name()
            .map_or("bot".into(), |n| n.to_string_lossy().into_owned());
        crate::submissions::submit(state, &user, language, &name, source)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(())
}

/// What the demo prints once it serves.
pub fn banner(url: &str, contest: &Contest) -> String {
    let students: Vec<String> = students(contest)
        .iter()
        .map(|(l, _, n, _, _)| format!("{l} ({n})"))
        .collect();
    // A module demo names its game, and its bots, which all play at random.
    let (of_game, bots) = match contest.game.game.as_module() {
        Some(m) => (
            format!(" of {}", m.module.name),
            "Their bots are the kit's sample bots (bots/c/kit_random.c, bots/python/kit_random.py): a\n\
             random legal move each.\n",
        ),
        None => (String::new(), ""),
    };
    format!(
        "\nThe demo contest{of_game} is served on {url}\n\
         \n  scoreboard      {url}/\n  games live      {url}/live\n  \
         sign in         {url}/login as a student: {} \n                  or as course staff: admin; every password is {PASSWORD}\n\
         \nThe five students' sample bots are compiling and playing now: watch the scoreboard fill, or a\n\
         game move by move under Live (the moves are paced for watching: --pace 0 plays at full speed).\n\
         {bots}Barbara's first submission does not compile: sign in as 2305 to see why.\n\
         Ctrl-C stops the demo (games in progress finish first).\n",
        students.join(", ")
    )
}
