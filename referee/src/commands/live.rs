//! `--live`: a live hub served for the length of a command (`arbiter match`, `arbiter
//! tournament`, `arbiter judge`), so that people watch the games in the browser or play a seat.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use arbiter_live::{Hub, HubOptions};

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
        let player = arbiter_tournament::report::html::find_player()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(Arc::new);
        if player.is_none() {
            eprintln!("warning: no web player found (build it with scripts/build-web.sh): the live pages cannot show the board");
        }
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
