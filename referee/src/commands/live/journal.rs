//! The journal of a live match (`OUT/live-journal.jsonl`): its moves stored as they are
//! played, so that a match whose process dies (`kill -9`, a crash, the machine rebooted) is
//! taken up by the same command run again with the same output directory.
//!
//! One JSON object a line, each written whole by one `write` on a file opened to append: a
//! process killed at any point leaves whole lines, and at worst the last one cut (ignored when
//! read). A game with a person in it is flushed to the disk at each line. The file holds the
//! people's seat keys (their links stay valid), so it is readable by its owner only.
//!
//! - `{"journal": 1, "seed": S, "settings": SHA256}`: the match (its seed, and a digest of
//!   what it plays: the game, the bots, the limits, the openings, the number of games);
//! - `{"game": I, "hub": ID, "keys": [KEY0, null]}`: game I began, as live game ID;
//! - `{"game": I, "move": {...}}`: a ply, as its replay records it;
//! - `{"game": I, "end": true}`: game I ended and its replay was saved.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use arbiter_engine::replay::{MoveRecord, Replay};
use arbiter_match::game::GameLimits;
use arbiter_match::live::Observer;
use serde_json::{json, Value};

/// The journal's name in a match's output directory.
pub const FILE: &str = "live-journal.jsonl";
/// The journal's version.
const VERSION: u64 = 1;
/// A journal is far smaller than this (its moves, with the bots' logs).
const LIMIT: arbiter_match::input::Limit = arbiter_match::input::Limit {
    bytes: 1 << 30,
    what: "a live match's journal",
};

/// What an earlier run of the match left, read from its journal.
#[derive(Debug, Default)]
pub struct Earlier {
    pub seed: u64,
    pub settings: String,
    pub games: BTreeMap<usize, EarlierGame>,
}

/// One game of an earlier run.
#[derive(Debug, Default, Clone)]
pub struct EarlierGame {
    /// Its number on the live hub (its links).
    pub hub: u64,
    /// The people's seat keys, by seat.
    pub keys: Vec<Option<String>>,
    pub moves: Vec<MoveRecord>,
    pub ended: bool,
}

/// The journal of `dir`, if one is there: `None` when there is none or it holds no whole
/// first line (the earlier run died before writing it).
pub fn read(dir: &Path) -> anyhow::Result<Option<Earlier>> {
    let path = dir.join(FILE);
    if !path.exists() {
        return Ok(None);
    }
    let text = arbiter_match::input::read_text(&path, LIMIT)?;
    // A line is whole once its newline is written: the text after the last one is cut.
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    let mut lines = whole.lines().map(serde_json::from_str::<Value>);
    let Some(Ok(head)) = lines.next() else {
        return Ok(None);
    };
    if head["journal"].as_u64() != Some(VERSION) {
        anyhow::bail!(
            "{} is not a live match's journal this arbiter reads: remove it or use another \
             output directory",
            path.display()
        );
    }
    let mut earlier = Earlier {
        seed: head["seed"].as_u64().unwrap_or(0),
        settings: head["settings"].as_str().unwrap_or("").to_string(),
        games: BTreeMap::new(),
    };
    for line in lines {
        let line = line.with_context(|| format!("{}: a line is not JSON", path.display()))?;
        let Some(i) = line["game"].as_u64().map(|i| i as usize) else {
            continue;
        };
        let game = earlier.games.entry(i).or_default();
        if let Some(hub) = line["hub"].as_u64() {
            *game = EarlierGame {
                hub,
                keys: journaled_keys(&line["keys"]),
                ..EarlierGame::default()
            };
        } else if let Ok(record) = serde_json::from_value::<MoveRecord>(line["move"].clone()) {
            game.moves.push(record);
        } else if line["end"] == true {
            game.ended = true;
        }
    }
    Ok(Some(earlier))
}

/// A game's line's keys, one per seat (at most [`Seat::MAX`]; a key that is not a seat
/// secret's shape is none: the seat's link would never open).
fn journaled_keys(keys: &Value) -> Vec<Option<String>> {
    let Some(list) = keys.as_array() else {
        return Vec::new();
    };
    list.iter()
        .take(arbiter_engine::Seat::MAX)
        .map(|k| k.as_str().filter(|k| k.len() == 22).map(str::to_string))
        .collect()
}

/// The journal being written.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Goes on with the journal of `dir` (`earlier` was read from it), or starts one for a new
    /// match of `seed` and `settings` (any earlier journal replaced).
    pub fn open(
        dir: &Path,
        seed: u64,
        settings: &str,
        earlier: Option<&Earlier>,
    ) -> anyhow::Result<Arc<Journal>> {
        let path = dir.join(FILE);
        let cannot = || format!("cannot write the live journal {}", path.display());
        if earlier.is_none() {
            let _ = std::fs::remove_file(&path);
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&path)
            .with_context(cannot)?;
        // Its keys are the people's: nobody else may read it, whoever made it.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .with_context(cannot)?;
        let journal = Journal {
            path,
            file: Mutex::new(file),
        };
        if earlier.is_none() {
            journal.line(
                &json!({"journal": VERSION, "seed": seed, "settings": settings}),
                true,
            );
        }
        Ok(Arc::new(journal))
    }

    /// Appends one line. A line that cannot be written is said once, and the match goes on
    /// (it only cannot be taken up past it).
    fn line(&self, v: &Value, sync: bool) {
        let mut text = v.to_string();
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let written =
            file.write_all(text.as_bytes())
                .and_then(|()| if sync { file.sync_data() } else { Ok(()) });
        if let Err(e) = written {
            eprintln!(
                "warning: cannot write the live journal {}: {e}",
                self.path.display()
            );
        }
    }

    /// Game `i` begins, as live game `hub`, with these people's keys.
    pub fn game(&self, i: usize, hub: u64, keys: &[Option<String>]) {
        self.line(&json!({"game": i, "hub": hub, "keys": keys}), true);
    }

    /// Game `i` ended and its replay was saved.
    pub fn ended(&self, i: usize) {
        self.line(&json!({"game": i, "end": true}), true);
    }

    /// An observer that journals game `i`'s plies after the first `known` (already in the
    /// journal: a game taken up), flushing each when a person plays in it.
    pub fn observer(self: &Arc<Self>, i: usize, known: usize, person: bool) -> JournalObserver {
        JournalObserver {
            journal: Arc::clone(self),
            game: i,
            known,
            person,
        }
    }

    /// The match is over, every replay saved: the journal has nothing left to take up.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Journals one game's plies.
pub struct JournalObserver {
    journal: Arc<Journal>,
    game: usize,
    known: usize,
    person: bool,
}

impl Observer for JournalObserver {
    fn started(&mut self, _: &Replay, _: &GameLimits) {}

    fn moved(&mut self, replay: &Replay) {
        if replay.moves.len() <= self.known {
            return;
        }
        if let Some(last) = replay.moves.last() {
            self.journal
                .line(&json!({"game": self.game, "move": last}), self.person);
        }
    }

    fn ended(&mut self, _: &Replay) {}
}

/// Two observers of one game.
pub struct Both(pub Box<dyn Observer>, pub Box<dyn Observer>);

impl Observer for Both {
    fn started(&mut self, replay: &Replay, limits: &GameLimits) {
        self.0.started(replay, limits);
        self.1.started(replay, limits);
    }

    fn moved(&mut self, replay: &Replay) {
        self.0.moved(replay);
        self.1.moved(replay);
    }

    fn ended(&mut self, replay: &Replay) {
        self.0.ended(replay);
        self.1.ended(replay);
    }
}

/// Whether the replay saved for game `i` is that game's, played to its end by the earlier run
/// (which may have died after saving it and before journaling its end): the game's seed, and
/// every ply the journal has.
pub fn saved_is(replay: &Replay, seed: u64, game: &EarlierGame) -> bool {
    replay.meta.seed == Some(seed)
        && replay.moves.len() >= game.moves.len()
        && replay
            .moves
            .iter()
            .zip(&game.moves)
            .all(|(a, b)| a.seat == b.seat && a.mv == b.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::Seat;

    #[test]
    fn a_cut_last_line_is_left_out_and_the_file_is_the_owners() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path(), 7, "abc", None).unwrap();
        j.game(0, 3, &[Some("k".repeat(22)), None]);
        let m = MoveRecord::new(Seat::FIRST, "d3".into());
        j.observer(0, 0, true).moved(&{
            let mut r = Replay::new(
                arbiter_engine::any::GameConfig::default_for("reversi").unwrap(),
                Seat::BOTH.map(|s| arbiter_engine::replay::Player {
                    name: "x".into(),
                    seat: s,
                    command: None,
                }),
            );
            r.moves.push(m.clone());
            r
        });
        let path = dir.path().join(FILE);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A kill during the next write: half a line.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"game\": 0, \"mo")
            .unwrap();
        let e = read(dir.path()).unwrap().unwrap();
        assert_eq!((e.seed, e.settings.as_str()), (7, "abc"));
        let g = &e.games[&0];
        assert_eq!(g.hub, 3);
        assert_eq!(g.keys[0].as_deref(), Some("k".repeat(22).as_str()));
        assert_eq!(g.moves, vec![m]);
        assert!(!g.ended);
    }

    #[test]
    fn keys_are_kept_per_seat_for_more_than_two_seats() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path(), 7, "abc", None).unwrap();
        let (ada, bo) = ("a".repeat(22), "b".repeat(22));
        j.game(0, 3, &[None, Some(ada.clone()), None, Some(bo.clone())]);
        // A line edited by hand: a key of another shape, and more keys than seats can be.
        let path = dir.path().join(FILE);
        let forged: Vec<Value> = (0..20).map(|_| json!("short")).collect();
        let line = format!("{}\n", json!({"game": 1, "hub": 4, "keys": forged}));
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(line.as_bytes())
            .unwrap();
        let e = read(dir.path()).unwrap().unwrap();
        let keys = &e.games[&0].keys;
        assert_eq!(keys, &vec![None, Some(ada), None, Some(bo)]);
        let forged = &e.games[&1].keys;
        assert_eq!(forged.len(), arbiter_engine::Seat::MAX);
        assert!(forged.iter().all(Option::is_none));
    }
}
