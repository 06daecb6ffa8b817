//! The live hub: games followed as they are played. Seed 002's online mode (a person takes a
//! seat in the browser) and spectator mode, over websockets named by Base64 tokens, as
//! specified in `docs/live.md`. One hub serves `arbiter match --live`, `arbiter tournament
//! --live`, the contest server and `arbiter judge --live`.
//!
//! - [`game`]: one game: its contents (history and news), its position, its people's seats.
//! - [`shown`]: what a game shows its followers, and nothing that recovers its seed.
//! - [`ws`]: the websocket protocol; [`token`]: seed 002's tokens; [`pages`]: the list of games,
//!   the watch page and the play page, each embedding the web player by `srcdoc`.
//!
//! The referee feeds a game through an observer (`LiveGame::observer`) that only records, and
//! plays a person's seat through `LiveGame::human_seat` (an `arbiter_match::live::RemoteSeat`).
//! The hub's feeder thread makes the contents from the records, for the games someone follows.

pub mod game;
pub mod pages;
pub mod shown;
pub mod token;
pub mod ws;

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::routing::get;
use axum::Router;
use serde::Serialize;

pub use game::LiveGame;

/// How a hub behaves.
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Spectators receive moves at least this far apart (seed 000's live tool slept between
    /// moves so people could follow a 2048 duel); the game itself is not slowed.
    pub delay: Duration,
    /// Websocket connections one address may hold.
    pub per_address: usize,
    /// How long a finished game stays listed.
    pub keep_finished: Duration,
    /// A client that takes none of a message's fragment for this long (it does not read) is
    /// dropped: what the hub keeps for it is bounded by one fragment.
    pub stall: Duration,
    /// What the spectators of a game that hides something see while it runs.
    pub spectators: game::Spectators,
}

/// A site's page split where the hub's content goes: `before` holds the head and the header,
/// `after` closes the page. [`Frame::TITLE`] in `before` is replaced by the page's title. A
/// site puts one in a request's extensions (per viewer); without one the hub's pages are plain.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub before: String,
    pub after: String,
    /// The nonce the site's Content-Security-Policy allows this response's inline scripts
    /// with (the site sets the policy; the hub marks its script).
    pub nonce: Option<String>,
    /// The language of the site's page: the hub's content speaks it too.
    pub lang: arbiter_i18n::Lang,
}

impl Frame {
    /// Stands for the page's title in [`Frame::before`].
    pub const TITLE: &'static str = "@@LIVE_TITLE@@";
    /// Where the content goes, in a page [`Frame::split`] cuts in two.
    pub const CONTENT: &'static str = "@@LIVE_CONTENT@@";

    /// A frame from a whole page holding [`Frame::CONTENT`] once.
    pub fn split(page: &str) -> Option<Frame> {
        let (before, after) = page.split_once(Frame::CONTENT)?;
        Some(Frame {
            before: before.to_string(),
            after: after.to_string(),
            nonce: None,
            lang: arbiter_i18n::Lang::default(),
        })
    }
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            delay: Duration::ZERO,
            per_address: 64,
            keep_finished: Duration::from_secs(600),
            stall: Duration::from_secs(15),
            spectators: game::Spectators::Public,
        }
    }
}

/// Games in progress and recently finished.
pub struct Hub {
    games: RwLock<BTreeMap<u64, (Arc<LiveGame>, Instant)>>,
    next: AtomicU64,
    pub options: HubOptions,
    connections: Mutex<HashMap<IpAddr, usize>>,
    /// The web player the pages embed.
    pub player: Option<Arc<String>>,
    /// The feeder thread's queue: games with something recorded to show.
    feeder: std::sync::mpsc::Sender<Arc<LiveGame>>,
}

/// A game in the list.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub id: u64,
    pub title: String,
    pub players: Vec<String>,
    pub moves: usize,
    pub finished: bool,
    pub result: Option<String>,
    /// The result's reason as data (the pages say it in their reader's language).
    #[serde(skip)]
    pub reason: Option<arbiter_engine::replay::Reason>,
    /// The winner's name, when the finished game has one.
    pub winner: Option<String>,
    /// Seats played by people.
    pub human_seats: Vec<usize>,
}

impl Hub {
    pub fn new(options: HubOptions, player: Option<Arc<String>>) -> Arc<Hub> {
        let (feeder, work) = std::sync::mpsc::channel::<Arc<LiveGame>>();
        // The contents are made here, off the referees' threads: a module game's positions
        // cost module calls. The thread ends with the hub and its games.
        std::thread::Builder::new()
            .name("live-feeder".into())
            .spawn(move || {
                for game in work {
                    game.catch_up();
                }
            })
            .ok();
        Arc::new(Hub {
            games: RwLock::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            options,
            connections: Mutex::new(HashMap::new()),
            player,
            feeder,
        })
    }

    /// Adds a game to follow; its number is the hub's next.
    pub fn open(&self, title: impl Into<String>) -> Arc<LiveGame> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.open_as(id, title)
    }

    /// Adds a game under a number the caller chose (a contest's game number, a game taken up
    /// again after a restart). A game already under that number (played again) gives way: its
    /// connections close, and their players connect again to this one.
    pub fn open_as(&self, id: u64, title: impl Into<String>) -> Arc<LiveGame> {
        self.add(id, title.into(), self.options.spectators, false)
    }

    /// [`Hub::open_as`] for a game left out of the list ([`Hub::summaries`]): whoever may
    /// follow it is told its number (the contest site gates who that is). With `people`, its
    /// spectators see only the public view whatever the hub's setting: a person could
    /// watch their own game's spectator page.
    pub fn open_unlisted(&self, id: u64, title: impl Into<String>, people: bool) -> Arc<LiveGame> {
        let spectators = match people {
            true => game::Spectators::Public,
            false => self.options.spectators,
        };
        self.add(id, title.into(), spectators, true)
    }

    fn add(
        &self,
        id: u64,
        title: String,
        spectators: game::Spectators,
        unlisted: bool,
    ) -> Arc<LiveGame> {
        let game = Arc::new(LiveGame::new(
            id,
            title,
            self.feeder.clone(),
            spectators,
            unlisted,
        ));
        self.next.fetch_max(id.saturating_add(1), Ordering::Relaxed);
        let mut games = self.games.write().unwrap_or_else(|p| p.into_inner());
        self.prune(&mut games);
        if let Some((old, _)) = games.insert(id, (Arc::clone(&game), Instant::now())) {
            old.supersede();
        }
        game
    }

    pub fn game(&self, id: u64) -> Option<Arc<LiveGame>> {
        let games = self.games.read().unwrap_or_else(|p| p.into_inner());
        games.get(&id).map(|(g, _)| Arc::clone(g))
    }

    /// The games, newest first.
    pub fn summaries(&self) -> Vec<Summary> {
        let mut games = self.games.write().unwrap_or_else(|p| p.into_inner());
        self.prune(&mut games);
        games
            .values()
            .rev()
            .filter(|(g, _)| !g.unlisted)
            .map(|(g, _)| {
                let st = g.lock();
                Summary {
                    id: g.id,
                    title: g.title.clone(),
                    players: st.players.clone(),
                    moves: st.moves,
                    finished: st.finished,
                    result: st.result.clone(),
                    reason: st.reason.clone(),
                    winner: st.winner.clone(),
                    human_seats: g.human_seats().into_iter().map(|s| s.index()).collect(),
                }
            })
            .collect()
    }

    /// Forgets games finished longer ago than `keep_finished` (their replays are saved by
    /// whoever played them).
    fn prune(&self, games: &mut BTreeMap<u64, (Arc<LiveGame>, Instant)>) {
        let keep = self.options.keep_finished;
        games.retain(|_, (g, _)| g.lock().finished_at.is_none_or(|t| t.elapsed() < keep));
    }

    /// Counts a new connection from `addr`, or refuses it past the per-address limit.
    pub fn admit(self: &Arc<Self>, addr: SocketAddr) -> Option<ConnectionGuard> {
        let mut c = self.connections.lock().unwrap_or_else(|p| p.into_inner());
        let n = c.entry(addr.ip()).or_insert(0);
        if *n >= self.options.per_address {
            return None;
        }
        *n += 1;
        Some(ConnectionGuard {
            hub: Arc::clone(self),
            ip: addr.ip(),
        })
    }

    /// The hub's routes, to nest under `/live`: the list (`/`, `/games.json`), a game's watch
    /// page (`/{id}`), a seat's play page (`/{id}/play?seat=S&key=K`), and the websockets
    /// (`/ws/_{id}`, `/ws/{id}.{key}/{seat}`). Serve with `into_make_service_with_connect_info`.
    pub fn router(self: &Arc<Self>) -> Router {
        Router::new()
            .route("/", get(pages::list))
            .route("/games.json", get(pages::list_json))
            .route("/{id}", get(pages::watch))
            .route("/{id}/play", get(pages::play))
            .route("/ws/{matching}", get(ws::spectator))
            .route("/ws/{matching}/{seat}", get(ws::seat))
            .with_state(Arc::clone(self))
    }
}

/// Serves `hub` under `/live` (with `/` leading there) on `listener` until the process ends:
/// for commands that have no site of their own (`arbiter match --live`).
pub async fn serve(hub: Arc<Hub>, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let app = Router::new()
        .route("/", get(|| async { axum::response::Redirect::to("/live") }))
        .nest_service("/live", hub.router());
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
}

/// Releases a connection's place in the per-address count.
pub struct ConnectionGuard {
    hub: Arc<Hub>,
    ip: IpAddr,
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        let mut c = self
            .hub
            .connections
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = c.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.remove(&self.ip);
            }
        }
    }
}
