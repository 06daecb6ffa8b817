//! The Gomoku sample bots know renju: as black they never choose a forbidden point.
//!
//! - Their forbidden-point test (the same short function in all eight files) is compared with
//!   the engine's on random positions: every point the engine forbids must be refused (the
//!   bots may refuse more: they count every three as real), no refused point makes a five,
//!   and the eight copies agree with each other. The same holds for the points the Gomocup
//!   judge's reading (`renju-gomocup`) forbids: counting every three as real covers both.
//! - Whole renju games through `arbiter match`: no game may end in an illegal move. The
//!   positions are chosen so that the bots without the check lose some of these games by a
//!   forbidden point (the random bots about one game in three as black; the greedy bots every
//!   game from the six openings below and one game against each of `builtin:3` and
//!   `builtin:4`).
//!
//! They need `cc` and `python3`, as the other sample-bot suites do (scripts/setup.sh installs
//! them); without them they fail saying so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::replay::Replay;
use arbiter_engine::{ForbiddenKind, Game, Seat};

const BOTS: [&str; 4] = [
    "gomocup_greedy",
    "gomocup_random",
    "gobang_greedy",
    "gobang_random",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn have(program: &str) -> bool {
    let ok = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "the sample-bot tests need `{program}` on PATH");
    ok
}

fn tmp(what: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "arbiter-renju-bots-{}-{what}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ))
}

/// The Gomoku C bots built once into a temp dir; `None` without `cc`.
fn c_dir() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if !have("cc") {
            return None;
        }
        let dir = tmp("bin");
        std::fs::create_dir_all(&dir).unwrap();
        for name in BOTS {
            let src = root().join(format!("bots/c/{name}.c"));
            let out = Command::new("cc")
                .args(["-O2", "-Wall", "-o"])
                .arg(dir.join(name))
                .arg(&src)
                .output()
                .unwrap();
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "cc -Wall {name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // The same source with a small driver instead of its main, to ask forbidden().
            let driver = dir.join(format!("{name}_forbidden.c"));
            std::fs::write(
                &driver,
                format!(
                    "#define main bot_main\n#include \"{}\"\n#undef main\n{DRIVER_C}",
                    src.display()
                ),
            )
            .unwrap();
            let out = Command::new("cc")
                .args(["-O2", "-o"])
                .arg(dir.join(format!("{name}_forbidden")))
                .arg(&driver)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "cc {}: {}",
                driver.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Some(dir)
    })
    .as_ref()
}

fn python_ok() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| have("python3"))
}

/// Reads positions (one line of N * N cells, row by row: `.` empty, `X` ours = black, `O` the
/// opponent's) and answers each with one line: `1` for an empty point forbidden() refuses.
const DRIVER_C: &str = r#"
int main(void) {
    static char line[4096];
    int x, y;
    renju = 1;
    while (fgets(line, sizeof(line), stdin)) {
        N = 15;
        for (y = 0; y < N; y++)
            for (x = 0; x < N; x++)
                board[x][y] = line[y * N + x] == 'X' ? 1 : line[y * N + x] == 'O' ? 2 : 0;
        for (y = 0; y < N; y++)
            for (x = 0; x < N; x++)
                putchar(board[x][y] == 0 && forbidden(x, y) ? '1' : '0');
        putchar('\n');
    }
    return 0;
}
"#;

const DRIVER_PY: &str = r#"
import importlib, sys
sys.dont_write_bytecode = True  # no __pycache__ in bots/python
sys.path.insert(0, sys.argv[1])
bot = importlib.import_module(sys.argv[2])
bot.renju = True
out = []
for line in sys.stdin:
    n = bot.N = 15
    bot.board = [[{"X": 1, "O": 2}.get(line[y * n + x], 0) for y in range(n)] for x in range(n)]
    out.append("".join("1" if bot.board[x][y] == 0 and bot.forbidden(x, y) else "0"
                       for y in range(n) for x in range(n)))
print("\n".join(out))
"#;

/// Runs a driver on `input` and returns its answer lines.
fn ask(mut cmd: Command, input: &str) -> Vec<String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{cmd:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A small deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Random 15 x 15 positions, crowded with black stones so that many points are forbidden.
fn positions(count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..count)
        .map(|i| {
            let mut cells = vec![b'.'; 225];
            // Stones in a square of side 7..15, so some positions touch the edges.
            let side = 7 + rng.below(9);
            let (ox, oy) = (rng.below(16 - side), rng.below(16 - side));
            let black = 8 + rng.below(side * side / 3);
            let white = black / (2 + i % 3);
            for (stone, n) in [(b'X', black), (b'O', white)] {
                for _ in 0..n {
                    let (x, y) = (ox + rng.below(side), oy + rng.below(side));
                    cells[y * 15 + x] = stone;
                }
            }
            cells
        })
        .collect()
}

/// The engine's view of a position under RIF renju; black (`X`) to move.
fn engine(cells: &[u8]) -> Gomoku {
    engine_under(cells, Rule::Renju)
}

fn engine_under(cells: &[u8], rule: Rule) -> Gomoku {
    let config = Config { size: 15, rule };
    let stones: Vec<(Point, Seat)> = (0..225)
        .filter(|&i| cells[i] != b'.')
        .map(|i| {
            let seat = if cells[i] == b'X' {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            (Point::new((i % 15) as u8, (i / 15) as u8), seat)
        })
        .collect();
    Gomoku::from_stones(&config, &stones, Seat::FIRST).unwrap()
}

#[test]
fn forbidden_check_covers_the_engines_forbidden_points() {
    let (Some(dir), true) = (c_dir(), python_ok()) else {
        return;
    };
    let boards = positions(400);
    let input: String = boards
        .iter()
        .map(|b| format!("{}\n", String::from_utf8_lossy(b)))
        .collect();
    let mut answers = Vec::new();
    for name in BOTS {
        answers.push((
            format!("bots/c/{name}.c"),
            ask(Command::new(dir.join(format!("{name}_forbidden"))), &input),
        ));
        let mut py = Command::new("python3");
        py.args(["-c", DRIVER_PY])
            .arg(root().join("bots/python"))
            .arg(name);
        answers.push((format!("bots/python/{name}.py"), ask(py, &input)));
    }
    // The eight copies of the check agree.
    for (file, lines) in &answers {
        assert_eq!(lines, &answers[0].1, "{file} differs from {}", answers[0].0);
    }
    let flags = &answers[0].1;
    assert_eq!(flags.len(), boards.len());
    let (mut kinds, mut extra) = ([0usize; 3], 0usize);
    for (cells, flags) in boards.iter().zip(flags) {
        let game = engine(cells);
        let flags = flags.as_bytes();
        // Points only the Gomocup judge's reading forbids must be refused too.
        for (p, kind) in engine_under(cells, Rule::RenjuGomocup).forbidden_points() {
            let i = p.y as usize * 15 + p.x as usize;
            assert_eq!(
                flags[i],
                b'1',
                "the bots allow {kind:?} point ({}, {}) of renju-gomocup in\n{}",
                p.x,
                p.y,
                show(cells)
            );
        }
        for (p, kind) in game.forbidden_points() {
            let i = p.y as usize * 15 + p.x as usize;
            assert_eq!(
                flags[i],
                b'1',
                "the bots allow {kind:?} point ({}, {}) in\n{}",
                p.x,
                p.y,
                show(cells)
            );
            kinds[match kind {
                ForbiddenKind::DoubleThree => 0,
                ForbiddenKind::DoubleFour => 1,
                ForbiddenKind::Overline => 2,
            }] += 1;
        }
        for i in (0..225).filter(|&i| flags[i] == b'1') {
            let p = Point::new((i % 15) as u8, (i / 15) as u8);
            if game.forbidden_kind(p).is_some() {
                continue;
            }
            extra += 1;
            // A point the bots refuse although it is legal must not be a win: a five.
            let mut g = game.clone();
            g.play(p).unwrap();
            assert!(
                g.outcome().is_none(),
                "the bots refuse the five ({}, {}) in\n{}",
                p.x,
                p.y,
                show(cells)
            );
        }
    }
    eprintln!(
        "engine-forbidden points: {} double-three, {} double-four, {} overline; \
         refused although legal (fake threes): {extra}",
        kinds[0], kinds[1], kinds[2]
    );
    assert!(
        kinds.iter().all(|&k| k >= 20),
        "too few forbidden points to compare: {kinds:?}"
    );
}

fn show(cells: &[u8]) -> String {
    cells
        .chunks(15)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect()
}

/// A position where black's best-looking point is a double three: black X at (6,7), (7,7),
/// (8,5), (8,6) and (8,7) makes two open threes. A greedy bot without the check plays there.
#[test]
fn greedy_gomocup_bots_refuse_a_double_three_they_would_like() {
    let (Some(dir), true) = (c_dir(), python_ok()) else {
        return;
    };
    let black = [(6, 7), (7, 7), (8, 5), (8, 6)];
    let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
    let mut cells = vec![b'.'; 225];
    for (x, y) in black {
        cells[y * 15 + x] = b'X';
    }
    for (x, y) in white {
        cells[y * 15 + x] = b'O';
    }
    assert_eq!(
        engine(&cells).forbidden_kind(Point::new(8, 7)),
        Some(ForbiddenKind::DoubleThree)
    );
    let mut session = String::from("START 15\n");
    for rule in [4, 0] {
        session.push_str(&format!("INFO rule {rule}\nBOARD\n"));
        for ((bx, by), (wx, wy)) in black.iter().zip(&white) {
            session.push_str(&format!("{bx},{by},1\n{wx},{wy},2\n"));
        }
        session.push_str("DONE\n");
    }
    session.push_str("END\n");
    let mut py = Command::new("python3");
    py.arg(root().join("bots/python/gomocup_greedy.py"));
    for (file, cmd) in [
        (
            "bots/c/gomocup_greedy.c",
            Command::new(dir.join("gomocup_greedy")),
        ),
        ("bots/python/gomocup_greedy.py", py),
    ] {
        let answers = ask(cmd, &session);
        assert_eq!(answers.len(), 3, "{file}: {answers:?}");
        assert_eq!(answers[0], "OK", "{file}");
        assert_ne!(answers[1], "8,7", "{file} plays a double three under renju");
        // Under freestyle the same point is fine, and the bot's first choice.
        assert_eq!(answers[2], "8,7", "{file} under freestyle");
    }
}

/// Runs `arbiter match` (renju) and returns the replays.
fn play(protocol: &str, a: &str, b: &str, games: usize, extra: &[&str]) -> Vec<Replay> {
    let out = tmp("out");
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "gomoku", "--rule", "renju", "--protocol", protocol])
        .args([a, b, "--name-a", "A", "--name-b", "B", "-n"])
        .arg(games.to_string())
        .args(extra)
        .arg("-q")
        .arg("-o")
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "arbiter match {a} {b}");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("game-") && n.ends_with(".json")
        })
        .collect();
    names.sort();
    let replays: Vec<Replay> = names
        .iter()
        .map(|p| {
            Replay::read(&std::fs::read_to_string(p).unwrap())
                .unwrap()
                .0
        })
        .collect();
    let _ = std::fs::remove_dir_all(&out);
    assert_eq!(replays.len(), games, "{a} {b}");
    replays
}

/// No game ends in a forbidden point (or any other failure); each bot was black in half.
fn no_forbidden_moves(replays: &[Replay], a: &str, b: &str) {
    let mut black = [0, 0];
    let mut failures = Vec::new();
    for (n, r) in replays.iter().enumerate() {
        let first = r.players.iter().find(|p| p.seat == Seat::FIRST).unwrap();
        black[usize::from(first.name == "B")] += 1;
        if r.result.reason.code() != "normal" {
            failures.push(format!(
                "game {}, black {}: {}",
                n + 1,
                first.name,
                r.result.reason
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{a} (A) vs {b} (B): {} of {} games failed:\n{}",
        failures.len(),
        replays.len(),
        failures.join("\n")
    );
    assert_eq!(black, [replays.len() / 2; 2], "{a} vs {b}");
}

#[test]
fn random_bots_play_renju_games_without_forbidden_moves() {
    let (Some(dir), true) = (c_dir(), python_ok()) else {
        return;
    };
    let py = |name: &str| {
        format!(
            "python3 {}",
            root().join(format!("bots/python/{name}")).display()
        )
    };
    // C against Python: the Python bot's random seed differs every game (the C bot's changes
    // once a second), so the games differ. 20 games: each bot is black in 10.
    let games = [
        (
            "gomocup",
            dir.join("gomocup_random").display().to_string(),
            py("gomocup_random.py"),
        ),
        (
            "gobang",
            format!("{} --renju", dir.join("gobang_random").display()),
            py("gobang_random.py --renju"),
        ),
    ];
    std::thread::scope(|s| {
        for (protocol, a, b) in &games {
            s.spawn(move || no_forbidden_moves(&play(protocol, a, b, 20, &[]), a, b));
        }
    });
}

/// Openings (black, white, black, ...) from which the greedy bots without the check reach a
/// forbidden point as black, every time.
const OPENINGS: &str = "J9 G7 H6 K7 J11 I10\nE6 I6 G6 J11 E8 F8\nE11 J6 G6 E5 F11 H10\n\
                        F9 K7 F10 H8 G10 E6\nH5 G10 J8 J7 E5 K9\nH11 E10 F11 H5 I9 J9\n";

#[test]
fn greedy_bots_play_renju_games_without_forbidden_moves() {
    let (Some(dir), true) = (c_dir(), python_ok()) else {
        return;
    };
    let openings = tmp("openings.txt");
    std::fs::write(&openings, OPENINGS).unwrap();
    let c = |name: &str| dir.join(name).display().to_string();
    let py = |name: &str| {
        format!(
            "python3 {}",
            root().join(format!("bots/python/{name}")).display()
        )
    };
    let gomocup = [c("gomocup_greedy"), py("gomocup_greedy.py")];
    let gobang = [
        format!("{} --renju", c("gobang_greedy")),
        py("gobang_greedy.py --renju"),
    ];
    std::thread::scope(|s| {
        // Gomocup: C against Python from each opening, both colours: each is black in 6.
        let (a, b, o) = (&gomocup[0], &gomocup[1], openings.to_str().unwrap());
        s.spawn(move || no_forbidden_moves(&play("gomocup", a, b, 12, &["--openings", o]), a, b));
        // Gobang has no openings: the built-in searchers lead both greedy bots there.
        for bot in &gobang {
            for builtin in ["builtin:3", "builtin:4"] {
                s.spawn(move || {
                    no_forbidden_moves(&play("gobang", bot, builtin, 2, &[]), bot, builtin)
                });
            }
        }
    });
    let _ = std::fs::remove_file(&openings);
}
