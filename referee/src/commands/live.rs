//! `--live`: a live hub served for the length of a command (`arbiter match`, `arbiter
//! tournament`, `arbiter judge`), so that people watch the games in the browser or play a seat.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use arbiter_engine::Seat;
use arbiter_live::{Hub, HubOptions};
use arbiter_match::game::{BotSpec, GameSpec};
use arbiter_match::live::{LiveGames, LiveSetup};
use arbiter_match::protocol::ProtocolKind;

/// Where `--live` listens when no address is given.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8090";

/// A hub on its own runtime; dropped, it stops serving.
pub struct LiveServer {
    pub hub: Arc<Hub>,
    /// `http://ADDR`
    pub base: String,
    runtime: tokio::runtime::Runtime,
}

impl LiveServer {
    /// Serves a hub on `addr` (spectators get moves at least `delay` apart).
    pub fn start(addr: SocketAddr, delay: Duration) -> anyhow::Result<LiveServer> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let player = Some(Arc::new(arbiter_tournament::player::load(None)?.0));
        let hub = Hub::new(
            HubOptions {
                delay,
                ..HubOptions::default()
            },
            player,
        );
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .with_context(|| format!("--live: cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        runtime.spawn(arbiter_live::serve(Arc::clone(&hub), listener));
        Ok(LiveServer {
            hub,
            base: format!("http://{local}"),
            runtime,
        })
    }

    /// Gives connected browsers a moment to receive the last messages before the hub stops.
    pub fn linger(&self) {
        self.runtime
            .block_on(async { tokio::time::sleep(Duration::from_secs(2)).await });
    }
}

/// The command of a seat a person plays (never run).
const HUMAN: &str = "human";

/// How long a game waits for a person to open their seat's page before it starts anyway.
const PERSON_WAIT: Duration = Duration::from_secs(30 * 60);

/// `human` or `human:NAME` names a person's seat: the name (default "human").
pub fn human_name(text: &str) -> Option<&str> {
    match text.strip_prefix(HUMAN) {
        Some("") => Some(HUMAN),
        Some(rest) => rest.strip_prefix(':').filter(|n| !n.trim().is_empty()),
        None => None,
    }
}

pub fn human_spec(name: &str, protocol: ProtocolKind) -> BotSpec {
    BotSpec {
        name: name.to_string(),
        command: HUMAN.to_string(),
        protocol,
        working_dir: None,
        sees: None,
    }
}

pub fn is_human(bot: &BotSpec) -> bool {
    bot.command == HUMAN
}

/// Each game of a match on the hub: watched, and its people's seats played in the browser
/// from the links it prints.
pub struct HubGames {
    hub: Arc<Hub>,
    base: String,
    games: usize,
}

impl HubGames {
    pub fn new(server: &LiveServer, games: usize) -> HubGames {
        HubGames {
            hub: Arc::clone(&server.hub),
            base: server.base.clone(),
            games,
        }
    }
}

impl LiveGames for HubGames {
    fn setup(&mut self, i: usize, _spec: &GameSpec, bots: [&BotSpec; 2]) -> LiveSetup {
        let title = format!(
            "game {}/{}: {} vs {}",
            i + 1,
            self.games,
            bots[0].name,
            bots[1].name
        );
        let game = self.hub.open(title);
        let mut setup = LiveSetup {
            observer: Some(Box::new(game.observer())),
            remote: [None, None],
        };
        for seat in Seat::BOTH {
            if is_human(bots[seat.index()]) {
                let (remote, secret) = game.human_seat(seat);
                setup.remote[seat.index()] = Some(remote);
                eprintln!(
                    "game {}: {} plays {} here: {}/live/{}/play?seat={}&key={secret}",
                    i + 1,
                    bots[seat.index()].name,
                    if seat == Seat::First {
                        "first"
                    } else {
                        "second"
                    },
                    self.base,
                    game.id,
                    seat.index()
                );
            }
        }
        eprintln!("game {}: watch it at {}/live/{}", i + 1, self.base, game.id);
        // A person's clock must not run before they open their page.
        for seat in Seat::BOTH {
            let person = bots[seat.index()];
            if is_human(person) && !game.wait_for_seat(seat, Duration::ZERO) {
                eprintln!(
                    "game {}: waiting for {} to open their page; the game starts then",
                    i + 1,
                    person.name
                );
                if !game.wait_for_seat(seat, PERSON_WAIT) {
                    eprintln!(
                        "game {}: {} did not come within {} minutes: starting without them",
                        i + 1,
                        person.name,
                        PERSON_WAIT.as_secs() / 60
                    );
                }
            }
        }
        setup
    }
}
