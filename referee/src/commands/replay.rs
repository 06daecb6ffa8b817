//! `arbiter replay show`: every frame of a replay as text, rebuilt through the engine.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use arbiter_engine::any::AnyGame;
use arbiter_engine::replay::{Rebuilt, Replay};

use crate::text;

/// Reads a replay file and checks it completely (moves and result).
pub fn load(path: &Path) -> anyhow::Result<(Replay, arbiter_engine::replay::Rebuilt)> {
    let text = arbiter_match::input::read_text(path, arbiter_match::input::REPLAY)?;
    Replay::read(&text).with_context(|| format!("{}", path.display()))
}

pub fn show(path: &Path, frame: Option<usize>, json: bool) -> anyhow::Result<ExitCode> {
    let (replay, rebuilt) = load(path)?;
    let count = rebuilt.frame_count();
    let frames: Vec<usize> = match frame {
        Some(k) if k >= count => bail!(
            "frame {k} does not exist: the replay has frames 0..{}",
            count - 1
        ),
        Some(k) => vec![k],
        None => (0..count).collect(),
    };
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
            "frames": out,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<&str> = replay.players.iter().map(|p| p.name.as_str()).collect();
    println!(
        "{} — {} vs {} — {} frames",
        replay.game.name(),
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
    }
    let r = &replay.result;
    let who = match r.winner {
        Some(s) => format!("{} wins", text::seat_label(&rebuilt.end, s)),
        None => "draw".to_string(),
    };
    println!("\nresult: {who}: {}", r.reason);
    Ok(ExitCode::SUCCESS)
}

/// The positions of `frames` (ascending), replaying the moves once from the start.
fn positions(rebuilt: &Rebuilt, frames: &[usize]) -> anyhow::Result<Vec<(usize, AnyGame)>> {
    let mut game = rebuilt.start.clone();
    let mut at = 0;
    let mut out = Vec::with_capacity(frames.len());
    for &k in frames {
        for &mv in &rebuilt.moves[at..k] {
            game.play(mv)?;
        }
        at = k;
        out.push((k, game.clone()));
    }
    Ok(out)
}
