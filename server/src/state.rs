//! What every handler shares: the database and queue, the contest's configuration, the
//! scoreboard cache, and the wake-ups of the background tasks.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use arbiter_queue::{Db, Queue};
use tokio::sync::Notify;

use crate::auth::Limiter;
use crate::config::Contest;
use crate::scoreboard::Board;

pub type Shared = Arc<AppState>;

pub struct AppState {
    pub db: Db,
    pub queue: Queue,
    pub contest: Contest,
    /// The contest's competition id in the queue.
    pub competition: i64,
    /// The contest directory (contest.toml, the SQLite database, caches).
    pub dir: PathBuf,
    /// Signs CSRF tokens of forms shown before sign-in.
    pub secret: Vec<u8>,
    /// The latest scoreboard, recomputed as games finish.
    pub board: RwLock<Arc<Board>>,
    /// Wakes local workers after jobs were queued.
    pub wake_workers: Arc<Notify>,
    /// Wakes the task that turns finished compiles into games.
    pub wake_reconciler: Arc<Notify>,
    /// Wakes the scoreboard task.
    pub wake_board: Arc<Notify>,
    /// Bumped by changes the scoreboard shows that are not results (a nickname, a
    /// disqualification).
    pub board_generation: std::sync::atomic::AtomicU64,
    pub limiter: Limiter,
    /// The web player (`player.html`), embedded in game pages by `srcdoc`.
    pub player: Option<Arc<String>>,
    /// The CSP hashes of the player's inline scripts (they run in `srcdoc` frames, under the
    /// embedding page's policy).
    pub player_hashes: Vec<String>,
    /// Cookies marked Secure (the site is served over HTTPS by a proxy).
    pub secure_cookies: bool,
    /// Reverse proxies whose forwarding headers are believed (`crate::client`).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Games played by this server's workers, followed live (`/live`).
    pub hub: Arc<arbiter_live::Hub>,
    /// The rules in force: contest.toml's, with the course staff's changes from the admin page.
    pub rules: RwLock<crate::config::Rules>,
    /// The wall clock and the boot clock the submission interval reads (`crate::clock`).
    pub clock: Arc<crate::clock::Clock>,
    /// The links of the people's seats of test games being played here.
    pub people: crate::test_games::People,
    /// Whether this server plays games a person plays by clicks (it has a local worker).
    pub people_games: bool,
}

impl AppState {
    pub fn board(&self) -> Arc<Board> {
        Arc::clone(&self.board.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// The submission and scoreboard rules in force now.
    pub fn rules(&self) -> crate::config::Rules {
        self.rules.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Asks the scoreboard task to recompute now.
    pub fn board_changed(&self) {
        self.board_generation
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.wake_board.notify_one();
    }

    pub fn set_board(&self, board: Board) {
        *self.board.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(board);
    }
}

/// Opens a contest's database (SQLite in DIR unless `db_url` names one) with every table.
pub async fn open_db(dir: &std::path::Path, db_url: Option<&str>) -> anyhow::Result<(Db, Queue)> {
    let url = match db_url {
        Some(u) => u.to_string(),
        None => dir.join("contest.db").display().to_string(),
    };
    let db = Db::connect(&url).await?;
    let queue = Queue::open(db.clone()).await?;
    db.migrate("contest", crate::store::STEPS).await?;
    Ok((db, queue))
}
