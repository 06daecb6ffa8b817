//! Tournaments: a config, a schedule stored up front in SQLite, parallel games recorded one
//! by one (so a killed run resumes exactly), standings, ratings, statistics and reports.
//!
//! Typical use: [`Tournament::create`] from a config file, [`runner::run`], then
//! [`report::Report::build`]; later [`Tournament::open`] on the output directory to resume,
//! report or take a new submission.

pub mod config;
pub mod knockout;
pub mod ladder;
pub mod league;
pub mod player;
pub mod queued;
mod queued_games;
pub mod rating;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod staged;
pub mod stages;
pub mod standings;
pub mod stats;
pub mod storage;
pub mod store;
pub mod swiss;
pub mod table_run;
pub mod tables;
pub mod weng_lin;

use std::path::{Path, PathBuf};

use anyhow::Context;

use config::{BotEntry, Resolved, TournamentConfig};
use store::Store;

/// An open tournament: its database and its resolved configuration.
pub struct Tournament {
    pub store: Store,
    pub resolved: Resolved,
}

impl Tournament {
    /// Checks the config, creates the database in its output directory and stores the whole
    /// schedule. Build commands are not run here (see [`runner::build_bots`]).
    pub fn create(config_path: &Path) -> anyhow::Result<Tournament> {
        let (file, text) = TournamentConfig::load(config_path)?;
        let base = base_dir(config_path)?;
        let resolved = file.resolve(&base)?;
        Self::create_resolved(resolved, &text, config_path, &base)
    }

    fn create_resolved(
        resolved: Resolved,
        text: &str,
        config_path: &Path,
        base: &Path,
    ) -> anyhow::Result<Tournament> {
        let store = Store::create(&resolved.output, |store| {
            store.set_meta("config", text)?;
            store.set_meta("config_path", &config_path.display().to_string())?;
            store.set_meta("base_dir", &base.display().to_string())?;
            store.set_meta("created_at", &arbiter_match::game::now_utc())?;
            if let Some(m) = resolved.game.as_module() {
                store.set_meta(MODULE_META, &m.module.sha256)?;
            }
            for b in &resolved.file.bots {
                store.add_version(
                    &b.name,
                    b.command.as_deref().unwrap_or_default(),
                    b.protocol.as_deref(),
                    b.dir.as_ref().and_then(|d| d.to_str()),
                )?;
            }
            let versions = store.latest_versions()?;
            if resolved.seats > 2 {
                store.schedule_tables(&tables::plan(&resolved), &versions)?;
                return Ok(());
            }
            let planned = schedule::plan(&resolved, |_| true);
            store.schedule(&planned, &versions)?;
            // A staged format's first round, stored before anything is played.
            staged::advance(store, &resolved)?;
            Ok(())
        })?;
        keep_module(&resolved)?;
        Ok(Tournament { store, resolved })
    }

    /// Opens an existing tournament from its output directory, its database file or its
    /// config file. The config stored in the database is used, so editing the file later does
    /// not change a running tournament.
    pub fn open(path: &Path) -> anyhow::Result<Tournament> {
        let dir = path_dir(path)?;
        if !Store::path_in(&dir).exists() && Store::creating_in(&dir).exists() {
            return Self::finish_creating(&dir);
        }
        let store = Store::open(&dir)?;
        let text = store
            .meta("config")?
            .context("the database holds no config (not an arbiter tournament?)")?;
        let base = PathBuf::from(store.meta("base_dir")?.unwrap_or_else(|| ".".into()));
        let file = TournamentConfig::parse(&text, "stored config")?;
        let mut resolved = file.resolve(&base)?;
        same_module(&resolved, store.meta(MODULE_META)?.as_deref())?;
        keep_module(&resolved)?;
        // The database, not the file, knows where it is and which bots exist now.
        resolved.output = dir;
        resolved.file.bots = store
            .latest_versions()?
            .into_iter()
            .map(|v| BotEntry {
                name: v.bot,
                command: Some(v.command),
                build: None,
                protocol: v.protocol,
                dir: v.dir.map(PathBuf::from),
            })
            .collect();
        Ok(Tournament { store, resolved })
    }

    /// Whether the tournament named by `path` (as for [`Tournament::open`]) has its database:
    /// a set-up that was cut short does not count.
    pub fn exists(path: &Path) -> bool {
        path_dir(path).is_ok_and(|dir| Store::path_in(&dir).exists())
    }

    /// Sets up again a tournament whose creation was killed (its half-made database is never
    /// used, see [`Store::create`]), from the config it was started with.
    fn finish_creating(dir: &Path) -> anyhow::Result<Tournament> {
        let stored = Store::read_creating_meta(dir, &["config", "config_path", "base_dir"]);
        let [Some(text), Some(config_path), Some(base)] = stored else {
            anyhow::bail!(
                "the tournament in {} was stopped while being set up, before its config was \
                 saved: start it again with `arbiter tournament CONFIG`",
                dir.display()
            );
        };
        let base = PathBuf::from(base);
        let file = TournamentConfig::parse(&text, "stored config")?;
        let mut resolved = file.resolve(&base)?;
        resolved.output = dir.to_path_buf();
        Self::create_resolved(resolved, &text, Path::new(&config_path), &base)
    }

    /// Adds a new version of `name` (or a new bot) and schedules its games against every other
    /// bot's latest version. Its earlier games stop counting; returns the games added.
    pub fn submit(
        &mut self,
        name: &str,
        command: &str,
        protocol: Option<&str>,
    ) -> anyhow::Result<usize> {
        if !config::valid_name(name) {
            anyhow::bail!("bot name {name:?}: use letters, digits, '-', '_' and '.'");
        }
        if self.resolved.file.format.staged() {
            anyhow::bail!(
                "a Swiss, a knockout or stages play the bots they started with: a new version \
                 would change rounds already paired (start a new tournament instead)"
            );
        }
        if self.resolved.seats > 2 {
            anyhow::bail!(
                "a tournament of tables ({} seats) plays the bots it started with: a new \
                 version would leave its tables unbalanced (start a new tournament instead)",
                self.resolved.seats
            );
        }
        if command.trim().is_empty() {
            anyhow::bail!("empty command");
        }
        if let Some(p) = protocol {
            let kind: arbiter_match::protocol::ProtocolKind =
                p.parse().map_err(anyhow::Error::msg)?;
            kind.check(&self.resolved.game, !self.resolved.openings.is_empty())
                .map_err(anyhow::Error::msg)?;
        }
        self.store.add_version(name, command, protocol, None)?;
        let fresh = Tournament::open(&self.resolved.output)?;
        self.resolved = fresh.resolved;
        self.store.supersede_stale()?;
        let versions = self.store.latest_versions()?;
        let planned = schedule::plan(&self.resolved, |p| p[0] == name || p[1] == name);
        self.store.schedule(&planned, &versions)
    }
}

/// The sha256 of the game module the tournament was created with (`meta` key).
pub const MODULE_META: &str = "module_sha256";

/// Keeps a module game's module in the output directory as `modules/<sha256>.wasm`, where
/// `arbiter replay show` looks for it from `replays/` (replays leave it out: 200 KB each), so
/// the output plays on its own even once the config's module file has changed.
fn keep_module(r: &Resolved) -> anyhow::Result<()> {
    let Some(m) = r.game.as_module() else {
        return Ok(());
    };
    let dir = r.output.join("modules");
    let path = dir.join(format!("{}.wasm", m.module.sha256));
    if path.is_file() {
        return Ok(());
    }
    let bytes = arbiter_kit_host::host::module_bytes(&m.module.sha256)
        .with_context(|| format!("game module {} is not loaded", m.module.name))?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Written whole, then renamed: a killed run never leaves half a module under its name.
    let tmp = dir.join(format!(".{}.{}", m.module.sha256, std::process::id()));
    std::fs::write(&tmp, &bytes[..]).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A game module read again (to resume, report or submit) must be the one the tournament was
/// created with: its games were scheduled, and some played, by those rules.
fn same_module(r: &Resolved, created_with: Option<&str>) -> anyhow::Result<()> {
    let (Some(m), Some(then)) = (r.game.as_module(), created_with) else {
        return Ok(());
    };
    if m.module.sha256 != then {
        let file = r.file.game.module.as_deref().unwrap_or(Path::new("?"));
        anyhow::bail!(
            "the game module {} is not the one this tournament was created with (sha256 {} \
             then, {} now): put the original file back, or start a new tournament in another \
             output directory",
            r.base_dir.join(file).display(),
            short(then),
            short(&m.module.sha256)
        );
    }
    Ok(())
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

fn base_dir(config_path: &Path) -> anyhow::Result<PathBuf> {
    let parent = config_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parent
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", parent.display()))
}

/// The output directory of the tournament named by `path`: the directory itself, its database
/// file, or its config file.
fn path_dir(path: &Path) -> anyhow::Result<PathBuf> {
    Ok(if path.is_dir() {
        path.to_path_buf()
    } else if path.file_name().and_then(|n| n.to_str()) == Some(store::DB_FILE) {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        let (file, _) = TournamentConfig::load(path)?;
        base_dir(path)?.join(&file.output)
    })
}
