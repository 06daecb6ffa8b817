//! How to start a bot: argv, working directory, extra environment.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The command line of a bot, as the referee's configuration gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// Program (first) and its arguments. Never empty.
    pub argv: Vec<OsString>,
    /// Working directory; the referee's own when `None`.
    pub working_dir: Option<PathBuf>,
    /// The bot's environment besides PATH, HOME, TMPDIR and LANG: nothing of the referee's
    /// own environment is passed on.
    pub env: Vec<(OsString, OsString)>,
    /// Files and directories the bot sees, read-only at their own paths, when it runs in a
    /// jail: its program, its own files. Nothing else of the host is there but the system.
    pub visible: Vec<PathBuf>,
}

/// A command string that cannot be turned into an argv.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandParseError {
    /// The string holds no word at all.
    #[error("empty bot command")]
    Empty,
    /// Unbalanced quotes or a trailing backslash.
    #[error("cannot split bot command {command:?}: {reason}")]
    Quoting { command: String, reason: String },
}

impl BotCommand {
    /// A command running `program` with no arguments.
    pub fn new(program: impl Into<OsString>) -> Self {
        BotCommand {
            argv: vec![program.into()],
            working_dir: None,
            env: Vec::new(),
            visible: Vec::new(),
        }
    }

    /// Splits a shell-like string (`./bot --depth 3 'my arg'`) into words with
    /// POSIX quoting rules; no expansion, no pipes, no shell is run.
    pub fn parse(command: &str) -> Result<Self, CommandParseError> {
        let words = shell_words::split(command).map_err(|e| CommandParseError::Quoting {
            command: command.to_owned(),
            reason: e.to_string(),
        })?;
        if words.is_empty() {
            return Err(CommandParseError::Empty);
        }
        Ok(BotCommand {
            argv: words.into_iter().map(OsString::from).collect(),
            working_dir: None,
            env: Vec::new(),
            visible: Vec::new(),
        })
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.argv.push(arg.into());
        self
    }

    /// Sets the working directory.
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.working_dir = Some(dir.into());
        self
    }

    /// Adds one environment variable.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Shows one more file or directory to the bot (read-only, at its own path).
    pub fn see(mut self, path: impl Into<PathBuf>) -> Self {
        self.visible.push(path.into());
        self
    }

    /// A bot of one's own (not a contest's artefact): it runs in our working directory unless
    /// it names one, and sees [`BotCommand::beside_its_files`] in its jail.
    pub fn of_ones_own(mut self) -> Self {
        if self.working_dir.is_none() {
            self.working_dir = std::env::current_dir().ok();
        }
        self.visible = self.beside_its_files();
        self
    }

    /// What a bot of one's own needs to see, as `arbiter match` guesses it: its working
    /// directory (or else ours), and the directory of every word of the command that names
    /// an existing file (the program, a script, a config beside it). For a contest's bots
    /// the worker names exactly the artefact instead.
    pub fn beside_its_files(&self) -> Vec<PathBuf> {
        let base = match &self.working_dir {
            Some(d) => d.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        };
        let mut out = vec![base.clone()];
        for word in &self.argv {
            let path = base.join(word);
            if word.is_empty() || !path.is_file() {
                continue;
            }
            if let Some(dir) = path.parent() {
                out.push(dir.to_path_buf());
            }
            // Itself too: a directory the jail's user may not enter is not shown whole.
            out.push(path);
        }
        out
    }

    /// The program (argv\[0\]); empty if argv is empty.
    pub fn program(&self) -> &OsStr {
        self.argv
            .first()
            .map(OsString::as_os_str)
            .unwrap_or(OsStr::new(""))
    }

    /// Resolves the program the way `execvp` would (relative to the working
    /// directory when it contains a slash, else through `PATH`), so that "not
    /// found" and "not executable" are told apart before any fork.
    pub(crate) fn resolve_program(&self) -> Result<PathBuf, ProgramProblem> {
        use std::os::unix::ffi::OsStrExt;
        let program = self.program();
        if program.is_empty() {
            return Err(ProgramProblem::NotFound);
        }
        if program.as_bytes().contains(&b'/') {
            let path = Path::new(program);
            let full = match (&self.working_dir, path.is_relative()) {
                (Some(dir), true) => dir.join(path),
                _ => path.to_path_buf(),
            };
            return check_executable(&full).map(|()| full);
        }
        let path_var = self
            .env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone())
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
        let mut saw_non_executable = false;
        for dir in std::env::split_paths(&path_var) {
            let candidate = dir.join(program);
            match check_executable(&candidate) {
                Ok(()) => return Ok(candidate),
                Err(ProgramProblem::NotExecutable) => saw_non_executable = true,
                Err(ProgramProblem::NotFound) => {}
            }
        }
        Err(if saw_non_executable {
            ProgramProblem::NotExecutable
        } else {
            ProgramProblem::NotFound
        })
    }
}

impl BotCommand {
    /// Whether the program can be started, checked the way `execvp` would look for it and
    /// without starting it; the error is a sentence for the user, with `did you mean
    /// ./my_bot` when a bare name is not on `PATH` but is a file in the working directory.
    pub fn check_program(&self) -> Result<PathBuf, String> {
        use std::os::unix::ffi::OsStrExt;
        let program = self.program();
        let shown = program.to_string_lossy();
        match self.resolve_program() {
            Ok(path) => Ok(path),
            Err(problem) => {
                let dir = self
                    .working_dir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("."));
                let local = dir.join(program);
                let bare = !program.as_bytes().contains(&b'/');
                let hint = if bare && local.is_file() {
                    match check_executable(&local) {
                        Ok(()) => format!(" (did you mean ./{shown}?)"),
                        Err(_) => format!(" (did you mean ./{shown}? it is not executable either)"),
                    }
                } else {
                    String::new()
                };
                Err(match problem {
                    ProgramProblem::NotFound if bare => {
                        format!("cannot start {shown}: no such program on PATH{hint}")
                    }
                    ProgramProblem::NotFound => format!("cannot start {shown}: no such file"),
                    ProgramProblem::NotExecutable if bare => {
                        format!("cannot start {shown}: it is not executable{hint}")
                    }
                    ProgramProblem::NotExecutable if shown.ends_with(".py") => format!(
                        "cannot start {shown}: it is not executable (did you mean python3 {shown}?)"
                    ),
                    ProgramProblem::NotExecutable => format!(
                        "cannot start {shown}: it is not executable (chmod +x {shown} makes it so)"
                    ),
                })
            }
        }
    }
}

/// Why a program cannot be started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProgramProblem {
    NotFound,
    NotExecutable,
}

fn check_executable(path: &Path) -> Result<(), ProgramProblem> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Err(_) => Err(ProgramProblem::NotFound),
        Ok(meta) if meta.is_dir() => Err(ProgramProblem::NotExecutable),
        Ok(meta) if meta.permissions().mode() & 0o111 == 0 => Err(ProgramProblem::NotExecutable),
        Ok(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_splits_quotes() {
        let cmd = BotCommand::parse("python3 -u 'my bot.py' \"a b\"").map_err(|e| e.to_string());
        let argv: Vec<OsString> = ["python3", "-u", "my bot.py", "a b"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(cmd.map(|c| c.argv), Ok(argv));
    }

    #[test]
    fn parse_rejects_empty_and_bad_quotes() {
        assert_eq!(BotCommand::parse("   "), Err(CommandParseError::Empty));
        assert!(matches!(
            BotCommand::parse("a 'b"),
            Err(CommandParseError::Quoting { .. })
        ));
    }

    #[test]
    fn resolve_tells_missing_from_not_executable() {
        assert_eq!(
            BotCommand::new("/nonexistent/arbiter-bot").resolve_program(),
            Err(ProgramProblem::NotFound)
        );
        assert_eq!(
            BotCommand::new("/etc/hostname-not-here-x").resolve_program(),
            Err(ProgramProblem::NotFound)
        );
        assert_eq!(
            BotCommand::new("/etc/passwd").resolve_program(),
            Err(ProgramProblem::NotExecutable)
        );
        assert!(BotCommand::new("sh").resolve_program().is_ok());
    }
}
