//! `--live`: a live hub served for the length of a command (`arbiter match`, `arbiter
//! tournament`, `arbiter judge`), so that people watch the games in the browser or play a seat.
//! A live match with an output directory keeps a journal there ([`journal`]): run again after
//! its process died, it takes up where it was.

pub mod journal;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use arbiter_engine::replay::Replay;
use arbiter_engine::Seat;
use arbiter_live::game::{Notice, Spectators};
use arbiter_live::{Hub, HubOptions};
use arbiter_match::game::{BotSpec, GameSpec};
use arbiter_match::live::{LiveGames, LiveSetup, Observer};
use arbiter_match::protocol::ProtocolKind;
use arbiter_match::series::MatchSpec;

use crate::cli::MatchArgs;
use journal::{Both, Earlier, EarlierGame, Journal};

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
    /// Serves a hub on `addr` (spectators get moves at least `delay` apart, and see a game
    /// that hides something as `spectators` say).
    pub fn start(
        addr: SocketAddr,
        delay: Duration,
        spectators: Spectators,
    ) -> anyhow::Result<LiveServer> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let player = Some(Arc::new(arbiter_tournament::player::load(None)?.0));
        let hub = Hub::new(
            HubOptions {
                delay,
                spectators,
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
const HUMAN: &str = arbiter_match::live::PERSON_COMMAND;

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

/// What `--live-spectators` asks for: the full view is refused in a match with a person (they
/// could open their own game's spectator page and see every hand).
pub fn spectators(a: &MatchArgs, people: bool) -> anyhow::Result<Spectators> {
    match a.live_spectators {
        crate::cli::LiveSpectators::Public => Ok(Spectators::Public),
        crate::cli::LiveSpectators::Full if people => anyhow::bail!(
            "--live-spectators full shows every hand to whoever opens a game's spectator page, \
             and a person plays in this match: they could watch their own game there. Use \
             --live-spectators public (the default) when a person plays"
        ),
        crate::cli::LiveSpectators::Full => Ok(Spectators::Full),
    }
}

/// Each game of a match on the hub: watched, and its people's seats played in the browser
/// from the links it prints; journaled when the match has an output directory, and taken up
/// from an earlier run's journal.
pub struct HubGames {
    hub: Arc<Hub>,
    base: String,
    games: usize,
    journal: Option<MatchJournal>,
    /// The games set up by this run: one set up again was voided, and is played anew.
    begun: std::collections::BTreeSet<usize>,
}

/// A live match's journal, and what an earlier run of the match left in it.
pub struct MatchJournal {
    pub journal: Arc<Journal>,
    dir: PathBuf,
    seed: u64,
    earlier: BTreeMap<usize, EarlierGame>,
}

impl HubGames {
    pub fn new(server: &LiveServer, games: usize, journal: Option<MatchJournal>) -> HubGames {
        HubGames {
            hub: Arc::clone(&server.hub),
            base: server.base.clone(),
            games,
            journal,
            begun: Default::default(),
        }
    }

    /// Game `i` as an earlier run left it: its saved replay when it ended, else its moves.
    /// None once this run has set it up (it was voided: it is played anew, and journaled so).
    fn earlier(&self, i: usize) -> Option<(Option<Replay>, &EarlierGame)> {
        if self.begun.contains(&i) {
            return None;
        }
        let j = self.journal.as_ref()?;
        let game = j.earlier.get(&i)?;
        let path = arbiter_match::series::replay_path(&j.dir, i);
        let saved = arbiter_match::input::read_text(&path, arbiter_match::input::REPLAY)
            .ok()
            .and_then(|text| Replay::from_json(&text).ok())
            .filter(|r| {
                let seed = arbiter_match::series::game_seed(j.seed, i);
                game.ended || journal::saved_is(r, seed, game)
            });
        Some((saved, game))
    }

    /// Prints the play link of a person's seat.
    fn print_link(
        &self,
        i: usize,
        game: &arbiter_live::LiveGame,
        seats: usize,
        seat: Seat,
        name: &str,
        key: &str,
    ) {
        let place = match (seats, seat.index()) {
            (2, 0) => "first".to_string(),
            (2, _) => "second".to_string(),
            (_, s) => format!("seat {}", s + 1),
        };
        eprintln!(
            "game {}: {name} plays {place} here: {}/live/{}/play?seat={}&key={key}",
            i + 1,
            self.base,
            game.id,
            seat.index()
        );
    }
}

impl LiveGames for HubGames {
    fn setup(&mut self, i: usize, spec: &GameSpec, bots: &[&BotSpec]) -> LiveSetup {
        let earlier = self.earlier(i);
        if let Some((Some(replay), _)) = earlier {
            eprintln!(
                "game {}: played to its end by the earlier run: not played again",
                i + 1
            );
            return LiveSetup {
                finished: Some(Box::new(replay)),
                ..LiveSetup::default()
            };
        }
        let earlier = earlier.map(|(_, g)| g.clone());
        self.begun.insert(i);
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        let title = format!("game {}/{}: {}", i + 1, self.games, names.join(" vs "));
        let game = match &earlier {
            Some(g) => self.hub.open_as(g.hub, title),
            None => self.hub.open(title),
        };
        let mut setup = LiveSetup {
            remote: bots.iter().map(|_| None).collect(),
            ..LiveSetup::default()
        };
        // What the people are told is set before their links are printed (they may connect at
        // once, and are told it on connecting).
        let mut wait = PERSON_WAIT;
        if let Some(g) = earlier.as_ref().filter(|g| !g.moves.is_empty()) {
            let moves = g.moves.len();
            let resumable = bots
                .iter()
                .all(|b| is_human(b) || b.protocol.check(&spec.config, true).is_ok());
            let notice = if resumable {
                eprintln!(
                    "game {}: taken up after move {moves}, where the earlier run stopped",
                    i + 1
                );
                Notice::Resumed { moves }
            } else {
                eprintln!(
                    "game {}: the earlier run stopped after move {moves}, and a bot's protocol \
                     cannot start from there: the game ends with no result",
                    i + 1
                );
                // Long enough for a person to come back and be told.
                wait = Duration::from_secs(120);
                Notice::Ended { moves }
            };
            game.set_notice(notice);
            setup.resume = g.moves.clone();
        }
        let seats: Vec<Seat> = Seat::all(bots.len()).collect();
        let mut keys: Vec<Option<String>> = vec![None; bots.len()];
        for &seat in &seats {
            if !is_human(bots[seat.index()]) {
                continue;
            }
            let kept = earlier
                .as_ref()
                .and_then(|g| g.keys.get(seat.index()).cloned().flatten());
            let (remote, key) = match kept {
                Some(key) => (game.human_seat_with(seat, key.clone()), key),
                None => game.human_seat(seat),
            };
            setup.remote[seat.index()] = Some(remote);
            keys[seat.index()] = Some(key);
        }
        let people = keys.iter().any(Option::is_some);
        let mut observer: Box<dyn Observer> = Box::new(game.observer());
        if let Some(j) = &self.journal {
            let known = earlier.as_ref().map_or(0, |g| g.moves.len());
            // Journaled before the links are printed: a link once given stays valid.
            if earlier.is_none() {
                j.journal.game(i, game.id, &keys);
            }
            let journaled = j.journal.observer(i, known, people);
            observer = Box::new(Both(Box::new(journaled), observer));
        }
        setup.observer = Some(observer);
        for &seat in &seats {
            if let Some(key) = &keys[seat.index()] {
                let name = &bots[seat.index()].name;
                self.print_link(i, &game, bots.len(), seat, name, key);
            }
        }
        eprintln!("game {}: watch it at {}/live/{}", i + 1, self.base, game.id);
        // A person's clock must not run before they open their page: the game waits for
        // every person's (the wait is shared: the limit runs once for all of them).
        let until = std::time::Instant::now() + wait;
        for &seat in &seats {
            let person = bots[seat.index()];
            if is_human(person) && !game.wait_for_seat(seat, Duration::ZERO) {
                eprintln!(
                    "game {}: waiting for {} to open their page; the game starts then",
                    i + 1,
                    person.name
                );
                let left = until.saturating_duration_since(std::time::Instant::now());
                if !game.wait_for_seat(seat, left) {
                    eprintln!(
                        "game {}: {} did not come within {} minutes: starting without them",
                        i + 1,
                        person.name,
                        wait.as_secs().div_ceil(60)
                    );
                }
            }
        }
        setup
    }
}

/// The journal file's name, for messages.
pub use journal::FILE as JOURNAL;

/// The match seed an earlier run of this live match left in its journal (`--live` with `-o`),
/// so that running the same command again takes the match up.
pub fn earlier_seed(a: &MatchArgs) -> anyhow::Result<Option<u64>> {
    match (&a.live, &a.output) {
        (Some(_), Some(dir)) => Ok(journal::read(dir)?.map(|e| e.seed)),
        _ => Ok(None),
    }
}

/// The journal of a live match with an output directory: the earlier run's, when it played
/// these same settings (taken up), else a new one. An earlier journal of other settings is
/// refused rather than lost.
pub fn match_journal(
    a: &MatchArgs,
    spec: &MatchSpec,
    bots: &[BotSpec],
) -> anyhow::Result<Option<MatchJournal>> {
    let (Some(_), Some(dir)) = (&a.live, &a.output) else {
        if a.live.is_some() && bots.iter().any(is_human) {
            eprintln!(
                "note: without -o DIR, a live game does not survive the end of this command's \
                 process (with it, running the command again takes the game up)"
            );
        }
        return Ok(None);
    };
    let settings = settings_digest(spec, bots);
    let earlier: Option<Earlier> = journal::read(dir)?;
    if let Some(e) = &earlier {
        if e.settings != settings || e.seed != spec.seed {
            anyhow::bail!(
                "{} is the journal of a live match with other settings (game, bots, limits, \
                 openings, games or seed): run that match again to take it up, or remove the \
                 file (or use another output directory) to play this one",
                dir.join(JOURNAL).display()
            );
        }
        let unfinished = e.games.values().filter(|g| !g.ended).count();
        eprintln!(
            "live: taking up the match of {} ({} game(s) begun, {unfinished} unfinished)",
            dir.join(JOURNAL).display(),
            e.games.len()
        );
    }
    let journal = Journal::open(dir, spec.seed, &settings, earlier.as_ref())?;
    Ok(Some(MatchJournal {
        journal,
        dir: dir.to_path_buf(),
        seed: spec.seed,
        earlier: earlier.map(|e| e.games).unwrap_or_default(),
    }))
}

/// What a match plays, as a digest: the same command run again gives the same one.
fn settings_digest(spec: &MatchSpec, bots: &[BotSpec]) -> String {
    use sha2::{Digest, Sha256};
    let text = format!("{spec:?}\n{bots:?}");
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// In a live match with a person, a built-in bot on Reversi speaks `reversi-board` rather than
/// seed 001's `reversi` (unless a protocol was chosen): the built-in bots speak both, and only
/// the first can start from a position, which a game taken up after a restart needs.
pub fn resumable_protocols(protocols: &mut [ProtocolKind; 2], bots: [&str; 2], chosen: [bool; 2]) {
    if !bots.iter().any(|b| human_name(b).is_some()) {
        return;
    }
    for i in 0..2 {
        if !chosen[i] && bots[i].starts_with("builtin") && protocols[i] == ProtocolKind::Reversi {
            protocols[i] = ProtocolKind::ReversiBoard;
        }
    }
}

/// Whether `dir` holds a live match's journal (`arbiter match` says how it was taken up).
pub fn has_journal(dir: &Path) -> bool {
    dir.join(JOURNAL).exists()
}
