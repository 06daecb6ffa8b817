//! What a published site may show: no absolute paths of the machine that ran the tournament,
//! and, when asked, none of the bots' own output (stderr, DEBUG lines).
//!
//! Paths under the tournament's directories become relative to the config's directory; any
//! other absolute path keeps only its file name, except the system's own (`/usr`, `/lib` ...),
//! which say nothing about the machine's owner.

use std::path::Path;

use arbiter_engine::replay::{Reason, Replay};
use regex::Regex;

use super::Report;

/// Absolute paths in free text: a `/` at the start of a word (after a space, quote, bracket,
/// `=` or `:`), then path characters. `//` (URLs) is not a path.
const PATH: &str = r#"(^|[\s"'(\[=:,<>])(/[^/\s"'()\[\],<>:;][^\s"'()\[\],<>:;]*)"#;

/// System directories whose paths are kept as they are.
const SYSTEM: [&str; 9] = [
    "/usr/",
    "/lib/",
    "/lib64/",
    "/bin/",
    "/sbin/",
    "/etc/",
    "/dev/",
    "/proc/",
    "/nix/store/",
];

/// How a report is published.
#[derive(Clone, Debug, Default)]
pub struct SiteOptions {
    /// Keep the bots' stderr and DEBUG output out of the site (a public site).
    pub hide_bot_output: bool,
    /// The site's language (`--lang`).
    pub lang: arbiter_i18n::Lang,
}

/// Rewrites text for a published site.
pub struct Publisher {
    /// Directories of the tournament, longest first, with what they become.
    dirs: Vec<(String, String)>,
    path: Regex,
    hide_bot_output: bool,
}

impl Publisher {
    /// `base` is the config's directory; `dirs` are other directories of the tournament (its
    /// output, the bots' own), shown relative to `base` when under it.
    pub fn new(base: &Path, dirs: &[&Path], options: &SiteOptions) -> Publisher {
        let base_text = base.to_string_lossy().trim_end_matches('/').to_string();
        let mut known: Vec<(String, String)> = Vec::new();
        for d in dirs.iter().chain(std::iter::once(&base)) {
            let Some(abs) = absolute(d) else { continue };
            let shown = match abs.strip_prefix(&base_text) {
                Some("") => String::new(),
                Some(rest) if rest.starts_with('/') => format!("{}/", &rest[1..]),
                _ => String::new(),
            };
            known.push((format!("{abs}/"), shown));
        }
        // Longest first, so that a bot's directory inside the base wins over the base.
        known.sort_by_key(|(dir, _)| (std::cmp::Reverse(dir.len()), dir.clone()));
        known.dedup_by(|a, b| a.0 == b.0);
        Publisher {
            dirs: known,
            // A constant pattern: it compiles.
            path: Regex::new(PATH).unwrap_or_else(|_| Regex::new("$^").expect("empty regex")),
            hide_bot_output: options.hide_bot_output,
        }
    }

    /// Text with the machine's absolute paths taken out.
    pub fn text(&self, text: &str) -> String {
        self.path
            .replace_all(text, |c: &regex::Captures<'_>| {
                let lead = c.get(1).map_or("", |m| m.as_str());
                let path = c.get(2).map_or("", |m| m.as_str());
                format!("{lead}{}", self.path_text(path))
            })
            .into_owned()
    }

    fn path_text(&self, path: &str) -> String {
        for (dir, shown) in &self.dirs {
            if let Some(rest) = path.strip_prefix(dir.as_str()) {
                return format!("{shown}{rest}");
            }
            if path == dir.trim_end_matches('/') {
                return if shown.is_empty() {
                    ".".into()
                } else {
                    shown.trim_end_matches('/').into()
                };
            }
        }
        if SYSTEM.iter().any(|s| path.starts_with(s)) {
            return path.to_string();
        }
        let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        if name.is_empty() {
            "/".into()
        } else {
            name.into()
        }
    }

    pub fn hides_bot_output(&self) -> bool {
        self.hide_bot_output
    }

    /// A replay as the site shows it.
    pub fn replay(&self, replay: &mut Replay) {
        for p in &mut replay.players {
            p.command = p.command.as_deref().map(|c| self.text(c));
        }
        self.reason(&mut replay.result.reason);
        if let Some(event) = &replay.meta.event {
            replay.meta.event = Some(self.text(event));
        }
        if self.hide_bot_output {
            replay.meta.stderr = None;
            for m in &mut replay.moves {
                m.log = None;
            }
        }
        replay.meta.stderr = replay
            .meta
            .stderr
            .take()
            .map(|tails| tails.iter().map(|t| self.text(t)).collect());
        for m in &mut replay.moves {
            m.log = m.log.as_deref().map(|l| self.text(l));
        }
        if let Some(f) = &mut replay.failure {
            if self.hide_bot_output {
                f.log = None;
                f.stderr = None;
            }
            f.log = f.log.as_deref().map(|l| self.text(l));
            f.stderr = f.stderr.as_deref().map(|l| self.text(l));
        }
    }

    fn reason(&self, reason: &mut Reason) {
        match reason {
            Reason::FailedToStart { error: text, .. }
            | Reason::ProtocolError { message: text, .. }
            | Reason::Aborted { message: text } => *text = self.text(text),
            _ => {}
        }
    }

    /// The report as the site shows it: bots' commands and directories, and the verdicts.
    pub fn report(&self, report: &Report) -> Report {
        let mut r = report.clone();
        for v in &mut r.bots {
            v.command = self.text(&v.command);
            v.dir = v.dir.as_deref().map(|d| self.text(d));
        }
        for g in &mut r.games {
            if let Some(res) = &mut g.result {
                res.reason = self.text(&res.reason);
            }
        }
        for g in r.tables.iter_mut().flat_map(|t| t.games.iter_mut()) {
            if let Some(res) = &mut g.result {
                res.reason = self.text(&res.reason);
            }
        }
        for s in &mut r.stats {
            for f in &mut s.failures {
                f.reason = self.text(&f.reason);
            }
        }
        r
    }
}

/// The directory as an absolute path without a trailing slash, if it is one.
fn absolute(dir: &Path) -> Option<String> {
    let abs = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let text = abs.to_string_lossy().trim_end_matches('/').to_string();
    (text.starts_with('/') && text.len() > 1).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn publisher() -> Publisher {
        Publisher::new(
            Path::new("/home/ta/contest"),
            &[Path::new("/home/ta/contest/out"), Path::new("/srv/alice")],
            &SiteOptions::default(),
        )
    }

    #[test]
    fn absolute_paths_are_taken_out() {
        let p = publisher();
        assert_eq!(
            p.text("python3 /home/ta/contest/bots/alice.py 16"),
            "python3 bots/alice.py 16"
        );
        assert_eq!(
            p.text("File \"/srv/alice/bot.py\", line 3, in <module>"),
            "File \"bot.py\", line 3, in <module>"
        );
        assert_eq!(
            p.text("bot program not found: /opt/x/bin/bob"),
            "bot program not found: bob"
        );
        assert_eq!(
            p.text("/home/ta/.cargo/target/release/arbiter bot reversi --depth 2"),
            "arbiter bot reversi --depth 2"
        );
        assert_eq!(
            p.text("  File \"/usr/lib/python3.11/json/decoder.py\", line 337"),
            "  File \"/usr/lib/python3.11/json/decoder.py\", line 337"
        );
        assert_eq!(
            p.text("score 3/4, see http://x/y"),
            "score 3/4, see http://x/y"
        );
        assert_eq!(p.text("cd /home/ta/contest"), "cd .");
        assert_eq!(p.text("no paths here"), "no paths here");
    }
}
