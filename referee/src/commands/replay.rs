//! `arbiter replay show`: every frame of a replay as text, rebuilt through the engine.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use arbiter_engine::any::AnyGame;
use arbiter_engine::replay::{Failure, Reason, Rebuilt, Replay};

use crate::text;

/// Reads a replay file and checks it completely (moves and result). A module game's replay
/// plays through the module it carries, else `module` (`--module FILE`), else
/// `modules/<sha256>.wasm` beside the file or one directory up (a report's, a tournament's or
/// a contest export's layout).
pub fn load(
    path: &Path,
    module: Option<&Path>,
) -> anyhow::Result<(Replay, arbiter_engine::replay::Rebuilt)> {
    let text = arbiter_match::input::read_text(path, arbiter_match::input::REPLAY)?;
    let replay = Replay::from_json(&text).with_context(|| format!("{}", path.display()))?;
    match replay.game.as_module() {
        None if module.is_some() => bail!(
            "{} is a replay of {}, not of a game module: it needs no --module",
            path.display(),
            replay.game.title()
        ),
        Some(m) if module.is_some() || replay.module_wasm.is_none() => {
            find_module(path, module, &m.module)?;
        }
        _ => {}
    }
    arbiter_kit_host::host::load_embedded(&replay)
        .with_context(|| format!("{}", path.display()))?;
    let rebuilt = replay
        .rebuild()
        .with_context(|| format!("{}", path.display()))?;
    Ok((replay, rebuilt))
}

/// Registers the module a replay names from `given`, or from where reports and exports put
/// it. A file that is not the module the replay names is an error, never played.
fn find_module(
    replay: &Path,
    given: Option<&Path>,
    named: &arbiter_engine::module::ModuleRef,
) -> anyhow::Result<()> {
    use arbiter_kit_host::host;
    let file = format!("{}.wasm", named.sha256);
    let dir = replay.parent().unwrap_or(Path::new("."));
    let beside = [
        dir.join("modules").join(&file),
        dir.join("../modules").join(&file),
    ];
    let path = match given {
        Some(p) => p.to_path_buf(),
        None => match beside.into_iter().find(|p| p.is_file()) {
            Some(p) => p,
            // load_embedded says what is missing.
            None => return Ok(()),
        },
    };
    let found = host::register_file(&path)?;
    if found.sha256 != named.sha256 {
        bail!(
            "{} is not the game module {} names: it is {} {} (sha256 {}), the replay's is {} {} \
             (sha256 {})",
            path.display(),
            replay.display(),
            found.name,
            found.version,
            short(&found.sha256),
            named.name,
            named.version,
            short(&named.sha256)
        );
    }
    Ok(())
}

/// A sha256's first twelve digits, as errors name a module.
fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// Which frame `replay show --frame` prints: a number, `last`, or `fail` (the position in which
/// the seat at fault failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameChoice {
    Number(usize),
    Last,
    Fail,
}

impl std::str::FromStr for FrameChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<FrameChoice, String> {
        match s {
            "last" => Ok(FrameChoice::Last),
            "fail" => Ok(FrameChoice::Fail),
            n => n.parse().map(FrameChoice::Number).map_err(|_| {
                format!("{s:?} is not a frame: give a number (0 = the start), last or fail")
            }),
        }
    }
}

/// The frames to print, ascending.
fn chosen_frames(
    replay: &Replay,
    count: usize,
    frame: Option<FrameChoice>,
) -> anyhow::Result<Vec<usize>> {
    Ok(match frame {
        None => (0..count).collect(),
        Some(FrameChoice::Number(k)) if k >= count => bail!(
            "frame {k} does not exist: the replay has frames 0..{}",
            count - 1
        ),
        Some(FrameChoice::Number(k)) => vec![k],
        Some(FrameChoice::Last) => vec![count - 1],
        Some(FrameChoice::Fail) if replay.result.reason.culprit().is_none() => bail!(
            "no player failed in this game ({}): try --frame last",
            replay.result.reason
        ),
        Some(FrameChoice::Fail) => vec![replay.decisive_frame().min(count - 1)],
    })
}

pub fn show(
    path: &Path,
    module: Option<&Path>,
    frame: Option<FrameChoice>,
    log: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (replay, rebuilt) = load(path, module)?;
    let count = rebuilt.frame_count();
    let frames = chosen_frames(&replay, count, frame)?;
    if json {
        let mut out = Vec::new();
        for (k, game) in positions(&rebuilt, &frames)? {
            let mut v = text::position_json(&game);
            v["frame"] = k.into();
            if k > 0 {
                v["last_move"] = serde_json::to_value(&replay.moves[k - 1])?;
            }
            out.push(v);
        }
        let doc = serde_json::json!({
            "players": replay.players,
            "result": replay.result,
            "failure": replay.failure,
            "frames": out,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<&str> = replay.players.iter().map(|p| p.name.as_str()).collect();
    println!(
        "{} — {} vs {} — {} frames",
        replay.game.title(),
        names.first().unwrap_or(&"?"),
        names.get(1).unwrap_or(&"?"),
        count
    );
    for (k, game) in positions(&rebuilt, &frames)? {
        if k == 0 {
            println!("\nframe 0: start");
        } else {
            let rec = &replay.moves[k - 1];
            let time = rec
                .time_ms
                .map(|t| format!(" ({t:.0} ms)"))
                .unwrap_or_default();
            println!(
                "\nframe {k}: {} plays {}{time}",
                text::seat_label(&game, rec.seat),
                rec.mv
            );
        }
        print!("{}", text::board_picture(&game));
        if let (true, Some(text)) = (
            log,
            k.checked_sub(1)
                .and_then(|i| replay.moves[i].log.as_deref()),
        ) {
            println!("DEBUG output while thinking about this move:");
            print!("{}", indented(text));
        }
    }
    let r = &replay.result;
    let who = match r.winner {
        Some(s) => format!("{} wins", text::seat_label(&rebuilt.end, s)),
        None => "draw".to_string(),
    };
    match rebuilt
        .end
        .end_words()
        .filter(|_| r.reason == Reason::Normal)
    {
        Some(words) => println!("\nresult: {who}: {} ({words})", r.reason),
        None => println!("\nresult: {who}: {}", r.reason),
    }
    if let Some(f) = &replay.failure {
        print!("{}", failure_text(&replay, &rebuilt, f, log));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the seat at fault did: its line, its time, how its process ended, its DEBUG output
/// (with `--log`) and the end of its stderr.
fn failure_text(replay: &Replay, rebuilt: &Rebuilt, f: &Failure, log: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let name = replay
        .players
        .get(f.seat.index())
        .map_or("?", |p| p.name.as_str());
    let _ = writeln!(
        out,
        "failure of {} ({name}), in the position of frame {}:",
        text::seat_label(&rebuilt.end, f.seat),
        replay.decisive_frame()
    );
    if let Some(line) = sent_line(&replay.result.reason) {
        let _ = writeln!(out, "  it sent: {line:?}");
    }
    if let Some(t) = f.time_ms {
        let clock = f
            .clock_ms
            .map(|c| format!(", with {} left on its game clock", seconds(c)))
            .unwrap_or_default();
        let _ = writeln!(out, "  time: {} on this request{clock}", seconds(t));
    }
    if let Some(exit) = &f.exit {
        let _ = writeln!(out, "  its process ended with {exit}");
    }
    match (&f.log, log) {
        (Some(text), true) => {
            let _ = writeln!(out, "  DEBUG output before the failure:");
            out.push_str(&indented(text));
        }
        (Some(_), false) => {
            let _ = writeln!(
                out,
                "  (it wrote DEBUG output before the failure: see --log)"
            );
        }
        (None, _) => {}
    }
    if let Some(text) = &f.stderr {
        let _ = writeln!(out, "  the end of its standard error:");
        out.push_str(&indented(text));
    }
    out
}

/// The bot's own line a verdict is about, if any.
fn sent_line(reason: &Reason) -> Option<&str> {
    match reason {
        Reason::IllegalMove { line, .. } => line.as_deref(),
        Reason::MalformedOutput { line, .. } | Reason::OutOfTurn { line, .. } => Some(line),
        _ => None,
    }
}

/// Text indented by four spaces, one line each, ending with a newline.
fn indented(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Milliseconds for people: `3 ms`, `1.25 s`.
fn seconds(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// The positions of `frames` (ascending), replaying the moves once from the start.
fn positions(rebuilt: &Rebuilt, frames: &[usize]) -> anyhow::Result<Vec<(usize, AnyGame)>> {
    let mut game = rebuilt.start.clone();
    let mut at = 0;
    let mut out = Vec::with_capacity(frames.len());
    rebuilt
        .step(&mut game, 0)
        .ok_or_else(|| anyhow::anyhow!("the replay's first retirement cannot be played"))?;
    for &k in frames {
        for i in at + 1..=k {
            rebuilt
                .step(&mut game, i)
                .ok_or_else(|| anyhow::anyhow!("ply {i} of the replay cannot be played"))?;
        }
        at = k.max(at);
        out.push((k, game.clone()));
    }
    Ok(out)
}
