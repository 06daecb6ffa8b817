//! `arbiter import`: the seeds' record files to arbiter replays.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use arbiter_engine::import::{gobang, sessdsa};
use arbiter_match::input;

use crate::cli::ImportCommand;

fn read_text(path: &Path, limit: input::Limit) -> anyhow::Result<String> {
    let data = input::read_bytes(path, limit)?;
    // Records from Windows machines may carry a BOM or stray bytes; keep going on them.
    let text = String::from_utf8_lossy(&data).into_owned();
    Ok(text.trim_start_matches('\u{feff}').to_string())
}

pub fn run(cmd: ImportCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        ImportCommand::Sessdsa { record, output } => {
            let text = read_text(&record, input::SESSDSA_RECORD)?;
            let replay = sessdsa::import(&text).with_context(|| format!("{}", record.display()))?;
            write(&output, &replay.to_json_pretty())?;
            println!(
                "{} -> {}: {} moves, {}",
                record.display(),
                output.display(),
                replay.moves.len(),
                replay.result.reason
            );
        }
        ImportCommand::Gobang { log, output, base } => {
            let text = read_text(&log, input::GOBANG_LOG)?;
            let base = match base {
                Some(0) => gobang::Base::Zero,
                Some(_) => gobang::Base::One,
                None => gobang::Base::Detect,
            };
            let imported =
                gobang::import(&text, base).with_context(|| format!("{}", log.display()))?;
            std::fs::create_dir_all(&output)
                .with_context(|| format!("cannot create {}", output.display()))?;
            for (i, replay) in imported.replays.iter().enumerate() {
                let path = output.join(format!("game-{:04}.json", i + 1));
                write(&path, &replay.to_json_pretty())?;
            }
            for w in &imported.warnings {
                eprintln!("warning: {w}");
            }
            println!(
                "{} -> {}: {} games",
                log.display(),
                output.display(),
                imported.replays.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes through a temporary file and a rename, so an interrupted run leaves no half file.
pub fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
