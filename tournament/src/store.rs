//! The tournament database: one SQLite file holding the config, bots and their versions, every
//! scheduled game and every result. A game row goes from `scheduled` to `done` in one
//! transaction after its replay file is in place, so a `kill -9` loses at most the games in
//! flight and `resume` replays exactly those.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};

use super::schedule::Planned;

pub const DB_FILE: &str = "tournament.db";

/// A bot version as stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Version {
    pub id: i64,
    pub bot: String,
    pub version: i64,
    pub command: String,
    pub protocol: Option<String>,
    pub dir: Option<String>,
}

/// A game row.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameRow {
    pub id: i64,
    /// The game's number on reports and site pages: the first id its place in the schedule
    /// (pairing, leg, game) ever had, so that it stays the same when a bot is resubmitted and
    /// the game is played again under a new id.
    pub slot: i64,
    pub key: String,
    pub order: i64,
    /// Version ids in seat order.
    pub versions: [i64; 2],
    /// Bot names in seat order.
    pub seats: [String; 2],
    pub leg: i64,
    pub number: i64,
    pub opening: Option<i64>,
    /// The game's configuration as JSON.
    pub config: String,
    pub state: String,
    pub result: Option<GameResultRow>,
}

/// What a finished game left.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameResultRow {
    /// The winning seat (0 or 1), `None` for a draw.
    pub winner: Option<u8>,
    pub reason_code: String,
    pub reason: String,
    /// The seat at fault, if any.
    pub culprit: Option<u8>,
    pub moves: i64,
    /// Thinking time summed per seat, and moves timed per seat.
    pub think_ms: [f64; 2],
    pub timed_moves: [i64; 2],
    pub scores: Option<[i64; 2]>,
    pub wall_ms: f64,
    /// Relative to the output directory.
    pub replay: Option<String>,
    pub finished_at: String,
}

impl GameResultRow {
    /// Whether the game counts in points, standings and ratings: a game with no result
    /// (`aborted`: the game's rules failed, or neither bot could start) gives nobody anything,
    /// not half a point each.
    pub fn counts(&self) -> bool {
        self.reason_code != "aborted"
    }
}

pub struct Store {
    conn: Connection,
    pub dir: PathBuf,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots(
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS versions(
    id INTEGER PRIMARY KEY,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    version INTEGER NOT NULL,
    command TEXT NOT NULL,
    protocol TEXT,
    dir TEXT,
    created_at TEXT NOT NULL,
    UNIQUE(bot_id, version));
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    play_order INTEGER NOT NULL,
    first_version INTEGER NOT NULL REFERENCES versions(id),
    second_version INTEGER NOT NULL REFERENCES versions(id),
    leg INTEGER NOT NULL,
    number INTEGER NOT NULL,
    opening INTEGER,
    config TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'scheduled' CHECK(state IN ('scheduled','done','superseded')),
    winner INTEGER,
    reason_code TEXT,
    reason TEXT,
    culprit INTEGER,
    moves INTEGER,
    think_ms_first REAL,
    think_ms_second REAL,
    timed_first INTEGER,
    timed_second INTEGER,
    scores TEXT,
    wall_ms REAL,
    replay TEXT,
    finished_at TEXT,
    UNIQUE(key, first_version, second_version));
CREATE INDEX IF NOT EXISTS games_state ON games(state, play_order);
-- A game played through the job queue: the attempt whose result is recorded (its lease token).
-- A result played again (quarantine, re-judging) has another, and replaces this one.
CREATE TABLE IF NOT EXISTS queue_attempts(
    game INTEGER PRIMARY KEY REFERENCES games(id), attempt TEXT NOT NULL);
-- Staged formats (Swiss, knockout, stages): each round's pairings as they were decided, stored
-- with the round's games in one transaction before any of them is played.
CREATE TABLE IF NOT EXISTS stage_rounds(
    stage INTEGER NOT NULL, round INTEGER NOT NULL, plan TEXT NOT NULL, created_at TEXT NOT NULL,
    PRIMARY KEY(stage, round));
CREATE TABLE IF NOT EXISTS stage_games(
    game INTEGER PRIMARY KEY REFERENCES games(id),
    stage INTEGER NOT NULL, round INTEGER NOT NULL, pairing INTEGER NOT NULL,
    number INTEGER NOT NULL);
-- Games of N > 2 seats (crate::tables): a row per game, a row per seat. A game goes from
-- `scheduled` to `done`, with every seat's place, in one transaction.
CREATE TABLE IF NOT EXISTS table_games(
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    play_order INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    number INTEGER NOT NULL,
    config TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'scheduled' CHECK(state IN ('scheduled','done')),
    reason_code TEXT,
    reason TEXT,
    moves INTEGER,
    wall_ms REAL,
    replay TEXT,
    finished_at TEXT);
CREATE INDEX IF NOT EXISTS table_games_state ON table_games(state, play_order);
CREATE TABLE IF NOT EXISTS table_seats(
    game INTEGER NOT NULL REFERENCES table_games(id),
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL REFERENCES versions(id),
    place INTEGER,
    culprit INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(game, seat));
-- A game of a table played through the job queue: as queue_attempts for the pairings' games.
CREATE TABLE IF NOT EXISTS queue_table_attempts(
    game INTEGER PRIMARY KEY REFERENCES table_games(id), attempt TEXT NOT NULL);
";

/// A game of a table as stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableGameRow {
    pub id: i64,
    pub key: String,
    pub order: i64,
    /// The table's number in the schedule and the game's at its table.
    pub table: i64,
    pub number: i64,
    /// Bot names in seat order.
    pub seats: Vec<String>,
    pub config: String,
    pub state: String,
    pub result: Option<TableResult>,
}

/// What a finished game of a table left.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableResult {
    /// Each seat's place (1 = first); empty for a game with no result (aborted).
    pub places: Vec<u32>,
    /// The seat at fault, if any.
    pub culprit: Option<usize>,
    pub reason_code: String,
    pub reason: String,
    pub moves: i64,
    pub wall_ms: f64,
    pub replay: Option<String>,
    pub finished_at: String,
}

impl TableResult {
    /// Whether the game counts in points and ratings (an aborted game has no places).
    pub fn counts(&self) -> bool {
        !self.places.is_empty()
    }
}

/// Where a game of a staged format belongs: its stage, round, pairing (a Swiss board, a
/// pairing of a round robin, a knockout match) and its number within the pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StageGame {
    pub stage: usize,
    pub round: usize,
    pub pairing: usize,
    pub number: usize,
}

impl Store {
    pub fn path_in(dir: &Path) -> PathBuf {
        dir.join(DB_FILE)
    }

    /// Creates a new database atomically: it is filled under a temporary name by `fill` and
    /// renamed into place only when complete, so a tournament killed while being set up
    /// leaves no half-made database behind. Fails if one exists (a tournament is resumed,
    /// not restarted).
    pub fn create(
        dir: &Path,
        fill: impl FnOnce(&mut Store) -> anyhow::Result<()>,
    ) -> anyhow::Result<Store> {
        std::fs::create_dir_all(dir)?;
        let path = Self::path_in(dir);
        if path.exists() {
            anyhow::bail!(
                "{} already exists: use `arbiter tournament resume {}` (or delete it to start over)",
                path.display(),
                dir.display()
            );
        }
        let tmp = Self::creating_in(dir);
        let _ = std::fs::remove_file(&tmp);
        {
            let conn = Connection::open(&tmp)?;
            conn.execute_batch(SCHEMA)?;
            let mut store = Store {
                conn,
                dir: dir.to_path_buf(),
            };
            fill(&mut store)?;
            // Closing a rollback-journal database leaves one complete file.
            store
                .conn
                .close()
                .map_err(|(_, e)| anyhow::anyhow!("cannot close {}: {e}", tmp.display()))?;
        }
        std::fs::rename(&tmp, &path)?;
        Self::open_path(&path, dir)
    }

    /// Where [`Store::create`] builds the database before renaming it into place.
    pub fn creating_in(dir: &Path) -> PathBuf {
        dir.join(format!("{DB_FILE}.creating"))
    }

    /// The `keys` of the meta table of a database whose creation was cut short, each `None` if
    /// it was not written (or the file cannot be read at all).
    pub fn read_creating_meta<const N: usize>(dir: &Path, keys: &[&str; N]) -> [Option<String>; N] {
        let read = |conn: &Connection, key: &str| {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .ok()
        };
        match Connection::open(Self::creating_in(dir)) {
            Ok(conn) => keys.map(|k| read(&conn, k)),
            Err(_) => [(); N].map(|_| None),
        }
    }

    pub fn open(dir: &Path) -> anyhow::Result<Store> {
        let path = Self::path_in(dir);
        if !path.exists() {
            anyhow::bail!(
                "no tournament database at {}: start the tournament with `arbiter tournament \
                 CONFIG`",
                path.display()
            );
        }
        Self::open_path(&path, dir)
    }

    fn open_path(path: &Path, dir: &Path) -> anyhow::Result<Store> {
        let conn = Connection::open(path)?;
        // WAL with synchronous=NORMAL survives a killed process (not a power cut) and keeps a
        // commit per game cheap.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store {
            conn,
            dir: dir.to_path_buf(),
        })
    }

    pub fn set_meta(&self, key: &str, value: &str) -> anyhow::Result<()> {
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES(?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    pub fn meta(&self, key: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Adds a version of a bot (creating the bot if new) and returns it.
    pub fn add_version(
        &mut self,
        bot: &str,
        command: &str,
        protocol: Option<&str>,
        dir: Option<&str>,
    ) -> anyhow::Result<Version> {
        let tx = self.conn.transaction()?;
        let position: i64 = tx.query_row(
            "SELECT COALESCE(MAX(position), -1) + 1 FROM bots",
            [],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT OR IGNORE INTO bots(name, position) VALUES(?1, ?2)",
            params![bot, position],
        )?;
        let bot_id: i64 =
            tx.query_row("SELECT id FROM bots WHERE name = ?1", [bot], |r| r.get(0))?;
        let version: i64 = tx.query_row(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE bot_id = ?1",
            [bot_id],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO versions(bot_id, version, command, protocol, dir, created_at)
             VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                bot_id,
                version,
                command,
                protocol,
                dir,
                arbiter_match::game::now_utc()
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(Version {
            id,
            bot: bot.to_string(),
            version,
            command: command.to_string(),
            protocol: protocol.map(String::from),
            dir: dir.map(String::from),
        })
    }

    /// Each bot's latest version, in the bots' order of entry.
    pub fn latest_versions(&self) -> anyhow::Result<Vec<Version>> {
        let mut st = self.conn.prepare(
            "SELECT v.id, b.name, v.version, v.command, v.protocol, v.dir
             FROM versions v JOIN bots b ON b.id = v.bot_id
             WHERE v.version = (SELECT MAX(version) FROM versions w WHERE w.bot_id = v.bot_id)
             ORDER BY b.position",
        )?;
        let rows = st.query_map([], |r| {
            Ok(Version {
                id: r.get(0)?,
                bot: r.get(1)?,
                version: r.get(2)?,
                command: r.get(3)?,
                protocol: r.get(4)?,
                dir: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Stores planned games for the given versions (all in one transaction). Games already
    /// stored for the same versions are left alone, so scheduling twice is harmless.
    pub fn schedule(&mut self, planned: &[Planned], versions: &[Version]) -> anyhow::Result<usize> {
        let id_of = |name: &str| -> anyhow::Result<i64> {
            versions
                .iter()
                .find(|v| v.bot == name)
                .map(|v| v.id)
                .ok_or_else(|| anyhow::anyhow!("no version stored for bot {name}"))
        };
        let tx = self.conn.transaction()?;
        let mut added = 0;
        {
            let mut st = tx.prepare(
                "INSERT OR IGNORE INTO games(key, play_order, first_version, second_version, leg,
                 number, opening, config) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            for p in planned {
                added += st.execute(params![
                    p.key(),
                    (p.order >> 1) as i64,
                    id_of(&p.seats[0])?,
                    id_of(&p.seats[1])?,
                    p.leg,
                    p.number,
                    p.opening.map(|o| o as i64),
                    serde_json::to_string(&p.config)?,
                ])?;
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// Stores the games of tables (all in one transaction); games stored already (same key)
    /// are left alone. Returns the games added.
    pub fn schedule_tables(
        &mut self,
        planned: &[crate::tables::TableGame],
        versions: &[Version],
    ) -> anyhow::Result<usize> {
        let tx = self.conn.transaction()?;
        let mut added = 0;
        {
            let mut game = tx.prepare(
                "INSERT OR IGNORE INTO table_games(key, play_order, table_no, number, config)
                 VALUES(?1, ?2, ?3, ?4, ?5)",
            )?;
            let mut seat =
                tx.prepare("INSERT INTO table_seats(game, seat, version) VALUES(?1, ?2, ?3)")?;
            for p in planned {
                let n = game.execute(params![
                    p.key(),
                    (p.order >> 1) as i64,
                    p.table as i64,
                    p.number as i64,
                    serde_json::to_string(&p.config)?,
                ])?;
                if n == 0 {
                    continue;
                }
                added += 1;
                let id = tx.last_insert_rowid();
                for (s, name) in p.seats.iter().enumerate() {
                    let v = versions
                        .iter()
                        .find(|v| v.bot == *name)
                        .ok_or_else(|| anyhow::anyhow!("no version stored for bot {name}"))?;
                    seat.execute(params![id, s as i64, v.id])?;
                }
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// The games of tables in play order, optionally only in one state.
    pub fn table_games(&self, state: Option<&str>) -> anyhow::Result<Vec<TableGameRow>> {
        let mut seats = std::collections::HashMap::<i64, Vec<(String, Option<u32>, bool)>>::new();
        {
            let mut st = self.conn.prepare(
                "SELECT s.game, b.name, s.place, s.culprit FROM table_seats s
                 JOIN versions v ON v.id = s.version JOIN bots b ON b.id = v.bot_id
                 ORDER BY s.game, s.seat",
            )?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })?;
            for row in rows {
                let (game, name, place, culprit) = row?;
                let place = place.and_then(|p| u32::try_from(p).ok());
                seats
                    .entry(game)
                    .or_default()
                    .push((name, place, culprit != 0));
            }
        }
        let mut st = self.conn.prepare(
            "SELECT id, key, play_order, table_no, number, config, state, reason_code, reason,
                    moves, wall_ms, replay, finished_at
             FROM table_games WHERE (?1 IS NULL OR state = ?1) ORDER BY play_order, id",
        )?;
        let rows = st.query_map([state], |r| {
            let id: i64 = r.get(0)?;
            let state: String = r.get(6)?;
            let at = seats.get(&id).cloned().unwrap_or_default();
            let result = if state == "done" {
                let places: Option<Vec<u32>> = at.iter().map(|s| s.1).collect();
                Some(TableResult {
                    places: places.unwrap_or_default(),
                    culprit: at.iter().position(|s| s.2),
                    reason_code: r.get::<_, Option<String>>(7)?.unwrap_or_default(),
                    reason: r.get::<_, Option<String>>(8)?.unwrap_or_default(),
                    moves: r.get::<_, Option<i64>>(9)?.unwrap_or(0),
                    wall_ms: r.get::<_, Option<f64>>(10)?.unwrap_or(0.0),
                    replay: r.get(11)?,
                    finished_at: r.get::<_, Option<String>>(12)?.unwrap_or_default(),
                })
            } else {
                None
            };
            Ok(TableGameRow {
                id,
                key: r.get(1)?,
                order: r.get(2)?,
                table: r.get(3)?,
                number: r.get(4)?,
                seats: at.into_iter().map(|s| s.0).collect(),
                config: r.get(5)?,
                state,
                result,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a finished game of a table, its places with it, in one transaction. Refuses
    /// (returns false) a game that is not scheduled, so no game is counted twice.
    pub fn record_table(&mut self, id: i64, r: &TableResult) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        let recorded = record_table_in(&tx, id, r)?;
        tx.commit()?;
        Ok(recorded)
    }

    /// [`Store::record_table`] of a game played through the queue, with the attempt (lease
    /// token) whose result it is: a result played again replaces the one recorded.
    pub fn record_table_attempt(
        &mut self,
        id: i64,
        r: &TableResult,
        attempt: &str,
    ) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        clear_table_result(&tx, id)?;
        let recorded = record_table_in(&tx, id, r)?;
        if recorded {
            tx.execute(
                "INSERT INTO queue_table_attempts(game, attempt) VALUES(?1, ?2)
                 ON CONFLICT(game) DO UPDATE SET attempt = excluded.attempt",
                params![id, attempt],
            )?;
        }
        tx.commit()?;
        Ok(recorded)
    }

    /// Takes back a table game's recorded result, so it is scheduled again (a judging
    /// worker's result that was set aside). Returns whether the game was done.
    pub fn reopen_table(&mut self, id: i64) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        let n = clear_table_result(&tx, id)?;
        tx.execute(
            "DELETE FROM queue_table_attempts WHERE game = ?1",
            params![id],
        )?;
        tx.commit()?;
        Ok(n == 1)
    }

    /// The queue attempt of every table game recorded through [`Store::record_table_attempt`].
    pub fn table_attempts(&self) -> anyhow::Result<std::collections::HashMap<i64, String>> {
        let mut st = self.conn.prepare(
            "SELECT q.game, q.attempt FROM queue_table_attempts q
             JOIN table_games g ON g.id = q.game WHERE g.state = 'done'",
        )?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many table games are still to play.
    pub fn scheduled_tables(&self) -> anyhow::Result<usize> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM table_games WHERE state = 'scheduled'",
            [],
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Stores a round of a staged format: its plan (JSON) and its games, in one transaction.
    /// Returns the games added; 0 if the round was stored already (a resumed run).
    pub fn add_stage_round(
        &mut self,
        stage: usize,
        round: usize,
        plan: &str,
        games: &[(Planned, StageGame)],
        versions: &[Version],
    ) -> anyhow::Result<usize> {
        let tx = self.conn.transaction()?;
        let fresh = tx.execute(
            "INSERT OR IGNORE INTO stage_rounds(stage, round, plan, created_at) VALUES(?1, ?2, ?3, ?4)",
            params![stage as i64, round as i64, plan, arbiter_match::game::now_utc()],
        )?;
        if fresh == 0 {
            return Ok(0);
        }
        for (p, at) in games {
            let id = |name: &str| {
                versions
                    .iter()
                    .find(|v| v.bot == name)
                    .map(|v| v.id)
                    .ok_or_else(|| anyhow::anyhow!("no version stored for bot {name}"))
            };
            tx.execute(
                "INSERT INTO games(key, play_order, first_version, second_version, leg, number,
                 opening, config) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    p.key(),
                    (p.order >> 1) as i64,
                    id(&p.seats[0])?,
                    id(&p.seats[1])?,
                    p.leg,
                    p.number,
                    p.opening.map(|o| o as i64),
                    serde_json::to_string(&p.config)?,
                ],
            )?;
            tx.execute(
                "INSERT INTO stage_games(game, stage, round, pairing, number) VALUES(?1, ?2, ?3, ?4, ?5)",
                params![
                    tx.last_insert_rowid(),
                    at.stage as i64,
                    at.round as i64,
                    at.pairing as i64,
                    at.number as i64
                ],
            )?;
        }
        tx.commit()?;
        Ok(games.len())
    }

    /// The stored rounds of a stage: (round, plan), in order.
    pub fn stage_rounds(&self, stage: usize) -> anyhow::Result<Vec<(usize, String)>> {
        let mut st = self
            .conn
            .prepare("SELECT round, plan FROM stage_rounds WHERE stage = ?1 ORDER BY round")?;
        let rows = st.query_map([stage as i64], |r| {
            Ok((r.get::<_, i64>(0)? as usize, r.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Where every game of a staged format belongs, by game id.
    pub fn stage_games(&self) -> anyhow::Result<std::collections::HashMap<i64, StageGame>> {
        let mut st = self
            .conn
            .prepare("SELECT game, stage, round, pairing, number FROM stage_games")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                StageGame {
                    stage: r.get::<_, i64>(1)? as usize,
                    round: r.get::<_, i64>(2)? as usize,
                    pairing: r.get::<_, i64>(3)? as usize,
                    number: r.get::<_, i64>(4)? as usize,
                },
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Marks scheduled games of versions that are no longer the latest as superseded.
    pub fn supersede_stale(&self) -> anyhow::Result<usize> {
        Ok(self.conn.execute(
            &format!(
                "UPDATE games SET state = 'superseded' WHERE state = 'scheduled'
                 AND (first_version NOT IN ({LATEST}) OR second_version NOT IN ({LATEST}))"
            ),
            [],
        )?)
    }

    /// Games between latest versions, in play order, optionally only in one state.
    pub fn games(&self, state: Option<&str>) -> anyhow::Result<Vec<GameRow>> {
        let sql = format!(
            "SELECT g.id, g.key, g.play_order, g.first_version, g.second_version,
                    b1.name, b2.name, g.leg, g.number, g.opening, g.config, g.state,
                    g.winner, g.reason_code, g.reason, g.culprit, g.moves,
                    g.think_ms_first, g.think_ms_second, g.timed_first, g.timed_second,
                    g.scores, g.wall_ms, g.replay, g.finished_at,
                    (SELECT MIN(h.id) FROM games h WHERE h.key = g.key)
             FROM games g
             JOIN versions v1 ON v1.id = g.first_version JOIN bots b1 ON b1.id = v1.bot_id
             JOIN versions v2 ON v2.id = g.second_version JOIN bots b2 ON b2.id = v2.bot_id
             WHERE g.first_version IN ({LATEST}) AND g.second_version IN ({LATEST})
               AND (?1 IS NULL OR g.state = ?1)
             ORDER BY g.play_order, g.id"
        );
        let mut st = self.conn.prepare(&sql)?;
        let rows = st.query_map([state], |r| {
            let state: String = r.get(11)?;
            let result = if state == "done" {
                let scores: Option<String> = r.get(21)?;
                Some(GameResultRow {
                    winner: r.get::<_, Option<i64>>(12)?.map(|w| w as u8),
                    reason_code: r.get::<_, Option<String>>(13)?.unwrap_or_default(),
                    reason: r.get::<_, Option<String>>(14)?.unwrap_or_default(),
                    culprit: r.get::<_, Option<i64>>(15)?.map(|w| w as u8),
                    moves: r.get::<_, Option<i64>>(16)?.unwrap_or(0),
                    think_ms: [
                        r.get::<_, Option<f64>>(17)?.unwrap_or(0.0),
                        r.get::<_, Option<f64>>(18)?.unwrap_or(0.0),
                    ],
                    timed_moves: [
                        r.get::<_, Option<i64>>(19)?.unwrap_or(0),
                        r.get::<_, Option<i64>>(20)?.unwrap_or(0),
                    ],
                    scores: scores.and_then(|s| serde_json::from_str(&s).ok()),
                    wall_ms: r.get::<_, Option<f64>>(22)?.unwrap_or(0.0),
                    replay: r.get(23)?,
                    finished_at: r.get::<_, Option<String>>(24)?.unwrap_or_default(),
                })
            } else {
                None
            };
            Ok(GameRow {
                id: r.get(0)?,
                slot: r.get(25)?,
                key: r.get(1)?,
                order: r.get(2)?,
                versions: [r.get(3)?, r.get(4)?],
                seats: [r.get(5)?, r.get(6)?],
                leg: r.get(7)?,
                number: r.get(8)?,
                opening: r.get(9)?,
                config: r.get(10)?,
                state,
                result,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a finished game: `scheduled` -> `done` in one transaction. Refuses (returns
    /// false) if the game is not scheduled, so no game is ever counted twice.
    pub fn record(&mut self, id: i64, r: &GameResultRow) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        let recorded = record_in(&tx, id, r)?;
        tx.commit()?;
        Ok(recorded)
    }

    /// Records a result that a queue attempt played, replacing the result of an earlier
    /// attempt if there is one, in one transaction. Returns false for a game that is no
    /// longer scheduled (its bot was resubmitted).
    pub fn record_attempt(
        &mut self,
        id: i64,
        r: &GameResultRow,
        attempt: &str,
    ) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "UPDATE games SET state = 'scheduled' WHERE id = ?1 AND state = 'done'",
            params![id],
        )?;
        let recorded = record_in(&tx, id, r)?;
        if recorded {
            tx.execute(
                "INSERT INTO queue_attempts(game, attempt) VALUES(?1, ?2)
                 ON CONFLICT(game) DO UPDATE SET attempt = excluded.attempt",
                params![id, attempt],
            )?;
        }
        tx.commit()?;
        Ok(recorded)
    }

    /// Takes back a recorded result, so the game is scheduled again (a judging worker's
    /// result that was set aside). Returns whether the game was done.
    pub fn reopen(&mut self, id: i64) -> anyhow::Result<bool> {
        let tx = self.conn.transaction()?;
        let n = tx.execute(
            "UPDATE games SET state = 'scheduled', winner = NULL, reason_code = NULL,
                reason = NULL, culprit = NULL, moves = NULL, think_ms_first = NULL,
                think_ms_second = NULL, timed_first = NULL, timed_second = NULL, scores = NULL,
                wall_ms = NULL, replay = NULL, finished_at = NULL
             WHERE id = ?1 AND state = 'done'",
            params![id],
        )?;
        tx.execute("DELETE FROM queue_attempts WHERE game = ?1", params![id])?;
        tx.commit()?;
        Ok(n == 1)
    }

    /// The queue attempt of every game recorded through [`Store::record_attempt`].
    pub fn attempts(&self) -> anyhow::Result<std::collections::HashMap<i64, String>> {
        let mut st = self
            .conn
            .prepare("SELECT q.game, q.attempt FROM queue_attempts q JOIN games g ON g.id = q.game WHERE g.state = 'done'")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Counts by state over all rows (superseded versions included).
    pub fn counts(&self) -> anyhow::Result<Vec<(String, i64)>> {
        let mut st = self
            .conn
            .prepare("SELECT state, COUNT(*) FROM games GROUP BY state ORDER BY state")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The pace of the last `window` finished games: how many, and the seconds between the
    /// first and the last of them finishing (timestamps have whole seconds). `None` before two
    /// games are done.
    pub fn pace(&self, window: usize) -> anyhow::Result<Option<(usize, i64)>> {
        let (n, span): (i64, Option<i64>) = self.conn.query_row(
            "SELECT COUNT(*), MAX(t) - MIN(t) FROM (
                 SELECT unixepoch(finished_at) AS t FROM games
                 WHERE state = 'done' AND finished_at IS NOT NULL
                 ORDER BY finished_at DESC LIMIT ?1)",
            [i64::try_from(window).unwrap_or(i64::MAX)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(match (usize::try_from(n), span) {
            (Ok(n), Some(span)) if n >= 2 => Some((n, span)),
            _ => None,
        })
    }

    /// Every version of every bot (for reports).
    pub fn all_versions(&self) -> anyhow::Result<Vec<Version>> {
        let mut st = self.conn.prepare(
            "SELECT v.id, b.name, v.version, v.command, v.protocol, v.dir
             FROM versions v JOIN bots b ON b.id = v.bot_id ORDER BY b.position, v.version",
        )?;
        let rows = st.query_map([], |r| {
            Ok(Version {
                id: r.get(0)?,
                bot: r.get(1)?,
                version: r.get(2)?,
                command: r.get(3)?,
                protocol: r.get(4)?,
                dir: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// Ids of each bot's latest version.
const LATEST: &str = "SELECT v.id FROM versions v WHERE v.version =
    (SELECT MAX(w.version) FROM versions w WHERE w.bot_id = v.bot_id)";

/// Records a scheduled game's result; false if the game is not scheduled.
fn record_in(tx: &rusqlite::Transaction<'_>, id: i64, r: &GameResultRow) -> anyhow::Result<bool> {
    let n = tx.execute(
        "UPDATE games SET state = 'done', winner = ?2, reason_code = ?3, reason = ?4,
                culprit = ?5, moves = ?6, think_ms_first = ?7, think_ms_second = ?8,
                timed_first = ?9, timed_second = ?10, scores = ?11, wall_ms = ?12, replay = ?13,
                finished_at = ?14
             WHERE id = ?1 AND state = 'scheduled'",
        params![
            id,
            r.winner.map(i64::from),
            r.reason_code,
            r.reason,
            r.culprit.map(i64::from),
            r.moves,
            r.think_ms[0],
            r.think_ms[1],
            r.timed_moves[0],
            r.timed_moves[1],
            r.scores.map(|s| format!("[{},{}]", s[0], s[1])),
            r.wall_ms,
            r.replay,
            r.finished_at,
        ],
    )?;
    Ok(n == 1)
}

/// Sets a scheduled table game's result and places inside `tx`; false if it was not scheduled.
fn record_table_in(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    r: &TableResult,
) -> anyhow::Result<bool> {
    let n = tx.execute(
        "UPDATE table_games SET state = 'done', reason_code = ?2, reason = ?3, moves = ?4,
                wall_ms = ?5, replay = ?6, finished_at = ?7
         WHERE id = ?1 AND state = 'scheduled'",
        params![
            id,
            r.reason_code,
            r.reason,
            r.moves,
            r.wall_ms,
            r.replay,
            r.finished_at
        ],
    )?;
    if n != 1 {
        return Ok(false);
    }
    let seats: i64 = tx.query_row(
        "SELECT COUNT(*) FROM table_seats WHERE game = ?1",
        [id],
        |row| row.get(0),
    )?;
    for s in 0..seats {
        let place = r.places.get(s as usize).map(|&p| i64::from(p));
        let culprit = r.culprit == Some(s as usize);
        tx.execute(
            "UPDATE table_seats SET place = ?3, culprit = ?4 WHERE game = ?1 AND seat = ?2",
            params![id, s, place, culprit as i64],
        )?;
    }
    Ok(true)
}

/// Puts a done table game back to scheduled, its places cleared, inside `tx`; rows changed.
fn clear_table_result(tx: &rusqlite::Transaction<'_>, id: i64) -> anyhow::Result<usize> {
    let n = tx.execute(
        "UPDATE table_games SET state = 'scheduled', reason_code = NULL, reason = NULL,
            moves = NULL, wall_ms = NULL, replay = NULL, finished_at = NULL
         WHERE id = ?1 AND state = 'done'",
        params![id],
    )?;
    if n == 1 {
        tx.execute(
            "UPDATE table_seats SET place = NULL, culprit = 0 WHERE game = ?1",
            params![id],
        )?;
    }
    Ok(n)
}
