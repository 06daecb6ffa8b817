//! Compiling a submission inside the same containment as a bot: its own scratch directory (the
//! only place it may write), no network, a memory limit, a time limit. A compiler that hangs
//! or floods harms only its own job.

use std::path::Path;
use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Limits, ReadEvent};

use crate::spec::{CompileJob, CompileOutcome};

/// The most compiler output kept for the student.
pub const MAX_LOG_BYTES: usize = 32 * 1024;
/// The largest program a compile may produce.
pub const MAX_ARTEFACT_BYTES: u64 = 64 << 20;

/// The lines arbiter writes into a compile's log, after the compiler's own output. Stored and
/// returned by the API in English; the site's pages say them in their reader's language
/// (arbiter-i18n's `machine` module knows these forms).
pub mod words {
    /// The compiler ended with an error.
    pub fn failed(code: Option<i32>, signal: Option<i32>) -> String {
        match (code, signal) {
            (Some(c), _) => format!("the compiler failed (exit code {c})"),
            (None, Some(s)) => format!("the compiler failed (signal {s})"),
            _ => "the compiler failed (an unknown status)".into(),
        }
    }

    /// The compiler ran out of time.
    pub fn timeout(seconds: u64) -> String {
        format!("compilation took longer than {seconds} s and was stopped")
    }

    /// The compiler ran out of memory.
    pub fn memory(mb: u64) -> String {
        format!("the compiler used more than {mb} MB")
    }

    /// The compiler could not be started at all.
    pub fn cannot_start(error: &str) -> String {
        format!("the compiler could not start: {error}")
    }

    pub const NO_PROGRAM: &str = "the compiler wrote no usable program";
    /// Ends a log cut at [`super::MAX_LOG_BYTES`].
    pub const CUT: &str = "[... output cut]";
    pub const NO_COMMAND: &str = "no compile command for this language";
    pub const EMPTY_COMMAND: &str = "the compile command is empty";
}

/// Compiles `source` as `job` says, in `scratch` (created and removed here). Returns the
/// outcome and, when it succeeded, the artefact's bytes. Blocking: run it on its own thread.
///
/// `Err` is a compile the machine spoiled: its disk could not be written (read-only, full,
/// failing), so the compile says nothing about the submission, which must not be marked
/// failed; the words name no path.
pub fn compile(
    job: &CompileJob,
    source: &[u8],
    containment: &Containment,
    scratch: &Path,
) -> Result<(CompileOutcome, Option<Vec<u8>>), String> {
    let t0 = Instant::now();
    let result = run(job, source, containment, scratch);
    if result.is_err() {
        // A compiler that could not write its output fails like a wrong program: ask the
        // disk itself whether it was at fault.
        if let Some(what) = unwritable(scratch) {
            let _ = std::fs::remove_dir_all(scratch);
            return Err(arbiter_match::game::disk_fault(what));
        }
    }
    let _ = std::fs::remove_dir_all(scratch);
    let millis = t0.elapsed().as_millis() as u64;
    Ok(match result {
        Ok((log, bytes)) => (
            CompileOutcome {
                ok: true,
                artefact: Some(crate::artefacts::hash(&bytes)),
                run: job.run.clone(),
                log,
                millis,
            },
            Some(bytes),
        ),
        Err(log) => (
            CompileOutcome {
                ok: false,
                artefact: None,
                run: job.run.clone(),
                log,
                millis,
            },
            None,
        ),
    })
}

/// Why `dir` (or the directory it would be made in) cannot be written, when the storage is
/// at fault: a small probe file is written and removed.
fn unwritable(dir: &Path) -> Option<&'static str> {
    let probe = || -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let file = dir.join(".arbiter-probe");
        std::fs::write(&file, [0u8; 4096])?;
        std::fs::remove_file(&file)
    };
    probe()
        .err()
        .and_then(|e| arbiter_match::game::storage_fault(&e))
}

/// The compiler's output and the artefact, or the output explaining the failure.
fn run(
    job: &CompileJob,
    source: &[u8],
    containment: &Containment,
    scratch: &Path,
) -> Result<(String, Vec<u8>), String> {
    if !safe_file_name(&job.file_name) {
        return Err(format!("unusable source file name {:?}", job.file_name));
    }
    std::fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create a build directory: {e}"))?;
    // The compiler runs in `scratch`: the paths given to it must not be relative to here.
    let scratch = &std::path::absolute(scratch)
        .map_err(|e| format!("cannot resolve the build directory: {e}"))?;
    let src = scratch.join(&job.file_name);
    std::fs::write(&src, source).map_err(|e| format!("cannot write the source: {e}"))?;
    if job.compile.trim().is_empty() {
        if job.source_is_program {
            return Ok((String::new(), source.to_vec()));
        }
        return Err(words::NO_COMMAND.into());
    }
    let out = scratch.join("program");
    let words = shell_words::split(&job.compile)
        .map_err(|e| format!("the compile command {:?} is malformed: {e}", job.compile))?;
    let Some((program, args)) = words.split_first() else {
        return Err(words::EMPTY_COMMAND.into());
    };
    let fill = |w: &str| {
        w.replace("{src}", &src.to_string_lossy())
            .replace("{out}", &out.to_string_lossy())
    };
    let mut command = BotCommand::new(fill(program)).current_dir(scratch);
    for a in args {
        command = command.arg(fill(a));
    }
    // Compilers write temporary files; keep them in the only writable directory.
    command = command.env("TMPDIR", scratch.as_os_str());
    let limits = Limits {
        memory_bytes: Some(job.memory_mb << 20),
        max_tasks: Some(64),
        max_stderr_kept: MAX_LOG_BYTES,
        max_file_bytes: MAX_ARTEFACT_BYTES,
        max_line_bytes: 16 * 1024,
        max_output_bytes: 4 << 20,
        cpu_time_backstop: Some(Duration::from_millis(job.time_limit_ms) + Duration::from_secs(1)),
        scratch_dir: Some(scratch.to_path_buf()),
        // The program must outlive the compiler: its build directory is bound, not a tmpfs.
        scratch_bytes: None,
        ..Limits::default()
    };
    let mut process = BotProcess::spawn(&command, &limits, containment)
        .map_err(|e| words::cannot_start(&e.to_string()))?;
    process.close_stdin();
    let deadline = Instant::now() + Duration::from_millis(job.time_limit_ms);
    let mut stdout = Vec::new();
    let timed_out = loop {
        match process.read_line(deadline) {
            ReadEvent::Line(line) | ReadEvent::LineTooLong { kept_prefix: line } => {
                if stdout.len() < MAX_LOG_BYTES {
                    stdout.extend_from_slice(&line);
                    stdout.push(b'\n');
                }
            }
            ReadEvent::Closed | ReadEvent::OutputLimit => {
                // Wait for the exit itself, still within the deadline.
                let mut timed_out = false;
                while process.try_wait().is_none() {
                    if Instant::now() >= deadline {
                        timed_out = true;
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                break timed_out;
            }
            ReadEvent::Timeout => break true,
        }
    };
    let exit = process.finish(Duration::from_millis(100));
    let mut log = String::from_utf8_lossy(&stdout).into_owned();
    log.push_str(&String::from_utf8_lossy(&process.stderr_tail()));
    let log = clean_log(&log, scratch);
    if timed_out {
        return Err(format!(
            "{log}\n{}",
            words::timeout(job.time_limit_ms / 1000)
        ));
    }
    if exit.memory_exceeded {
        return Err(format!("{log}\n{}", words::memory(job.memory_mb)));
    }
    if exit.code != Some(0) {
        return Err(format!("{log}\n{}", words::failed(exit.code, exit.signal))
            .trim()
            .to_string());
    }
    if job.source_is_program {
        return Ok((log, source.to_vec()));
    }
    let size = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    if size == 0 || size > MAX_ARTEFACT_BYTES {
        return Err(format!("{log}\n{}", words::NO_PROGRAM).trim().to_string());
    }
    let bytes = std::fs::read(&out).map_err(|e| format!("cannot read the program: {e}"))?;
    Ok((log, bytes))
}

/// The compiler's messages name the build directory; a student needs only the file name.
fn clean_log(log: &str, scratch: &Path) -> String {
    let dir = format!("{}/", scratch.to_string_lossy());
    let mut text = log.replace(&dir, "");
    if text.len() > MAX_LOG_BYTES {
        let mut cut = MAX_LOG_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('\n');
        text.push_str(words::CUT);
    }
    text.trim_end().to_string()
}

/// A plain file name: no directories, no hidden files, nothing a shell or a path reads
/// specially.
pub fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        assert!(safe_file_name("main.c"));
        assert!(!safe_file_name("../x.c"));
        assert!(!safe_file_name(".bashrc"));
        assert!(!safe_file_name("a b.c"));
        assert!(!safe_file_name(""));
    }
}
