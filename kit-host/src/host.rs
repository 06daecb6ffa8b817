//! The engine's module host for native programs: modules known by their sha256, each game
//! run in a wasmi instance of its own (`arbiter_engine::AnyGame::Module`).
//!
//! A program registers the modules it was given ([`register_file`], [`register_bytes`], or a
//! replay's embedded copy), calls [`install`] once, and from then on every `GameConfig::Module`
//! naming one of them plays like a built-in game: in matches, tournaments, workers, the live
//! hub and replays alike.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use arbiter_engine::module::{
    DynRules, GameKind, ModuleConfig, ModuleHost, ModuleOutcome, ModuleRef, MoveText,
};
use arbiter_engine::{ConfigError, Seat, SeatSet, Turn, Viewer};
use serde_json::Value;

pub use crate::module_file::MAX_MODULE_BYTES;
use crate::{module_file, sha256_hex, Bounds, Compiled, KitError, Rules, State, Status, WasmKit};

/// The most modules one process keeps (a contest has one; a test suite a few dozen), and
/// their bytes at most: modules are kept for the life of the process.
const MAX_MODULES: usize = 256;
const MAX_KEPT_BYTES: usize = 512 << 20;

struct Known {
    bytes: Arc<[u8]>,
    /// Compiled once: a game only starts an instance of it.
    compiled: Compiled,
    label: String,
    /// The file it was read from, for programs that load it themselves (the built-in bots).
    path: Option<PathBuf>,
}

fn known() -> &'static Mutex<HashMap<String, Known>> {
    static KNOWN: OnceLock<Mutex<HashMap<String, Known>>> = OnceLock::new();
    KNOWN.get_or_init(Default::default)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves plain data behind; go on with it.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Checks a module (it loads, speaks the ABI, has two seats), keeps its bytes for games to
/// come, and says how replays name it. `label` names it in errors (its file name).
pub fn register_bytes(bytes: &[u8], label: &str) -> Result<ModuleRef, KitError> {
    register(bytes, label, None)
}

fn register(bytes: &[u8], label: &str, path: Option<PathBuf>) -> Result<ModuleRef, KitError> {
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(too_large(label));
    }
    let compiled = Compiled::new(bytes, label)?;
    let rules = Rules::new(Box::new(WasmKit::start(
        &compiled,
        label,
        Bounds::default(),
    )?))?;
    let info = rules.info();
    let reference = ModuleRef {
        name: info.name.clone(),
        version: info.version.clone(),
        sha256: compiled.sha256().to_string(),
    };
    check_name(&reference, label)?;
    let mut map = lock(known());
    if let Some(k) = map.get_mut(&reference.sha256) {
        if k.path.is_none() {
            k.path = path;
        }
    } else {
        let kept: usize = map.values().map(|k| k.bytes.len()).sum();
        if map.len() >= MAX_MODULES || kept + bytes.len() > MAX_KEPT_BYTES {
            return Err(KitError::Host(format!(
                "too many game modules in one process (at most {MAX_MODULES}, {} MiB)",
                MAX_KEPT_BYTES >> 20
            )));
        }
        map.insert(
            reference.sha256.clone(),
            Known {
                bytes: bytes.into(),
                compiled,
                label: label.to_string(),
                path,
            },
        );
    }
    Ok(reference)
}

/// A module's name goes into replays, pages and file names: one short printable word.
fn check_name(r: &ModuleRef, label: &str) -> Result<(), KitError> {
    let word = |s: &str, max: usize| {
        s.len() <= max
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
    };
    if r.name.is_empty() || !word(&r.name, 64) || !word(&r.version, 64) {
        return Err(KitError::Module {
            module: label.to_string(),
            what: format!(
                "calls itself {:?} version {:?}: a name and a version are at most 64 letters, \
                 digits and - _ . +",
                r.name, r.version
            ),
        });
    }
    Ok(())
}

fn too_large(label: &str) -> KitError {
    KitError::Host(format!(
        "game module {label} is over {} MiB",
        MAX_MODULE_BYTES >> 20
    ))
}

/// [`register_bytes`] of a file, read by the one module reader ([`module_file::read`]).
pub fn register_file(path: &Path) -> Result<ModuleRef, KitError> {
    let bytes = module_file::read(path)?;
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    register(&bytes, &module_file::label(&path), Some(path))
}

/// The file a registered module was read from, if it came from one.
pub fn module_path(sha256: &str) -> Option<PathBuf> {
    lock(known()).get(sha256).and_then(|k| k.path.clone())
}

/// The bytes of a registered module (to embed in a replay, or store as an artefact).
pub fn module_bytes(sha256: &str) -> Option<Arc<[u8]>> {
    lock(known()).get(sha256).map(|k| k.bytes.clone())
}

/// Whether a module with this hash is registered.
pub fn is_registered(sha256: &str) -> bool {
    lock(known()).contains_key(sha256)
}

/// Makes this host the process's module host (idempotent).
pub fn install() {
    static HOST: WasmHost = WasmHost;
    arbiter_engine::module::install_host(&HOST);
}

struct WasmHost;

impl ModuleHost for WasmHost {
    fn open(&self, config: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError> {
        let (bytes, label) = {
            let map = lock(known());
            let k = map.get(&config.module.sha256).ok_or_else(|| {
                ConfigError::new(format!(
                    "game module {} (sha256 {}) is not loaded here: give its file",
                    config.module.name,
                    short(&config.module.sha256)
                ))
            })?;
            (k.compiled.clone(), k.label.clone())
        };
        ModuleGame::start(&bytes, &label, config)
            .map(|g| Box::new(g) as Box<dyn DynRules>)
            .map_err(|e| ConfigError::new(e.to_string()))
    }
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// One module instance, shared by a game and its copies.
struct Shared {
    rules: Mutex<Rules>,
    /// The module's first failure; it is not called again after one.
    fault: Mutex<Option<String>>,
    /// Set once the module answered that it does not offer `playout`.
    no_playout: AtomicBool,
}

/// A position of a module game: a state inside the shared instance, with its status kept.
pub struct ModuleGame {
    shared: Arc<Shared>,
    state: Option<State>,
    config: ModuleConfig,
    seats: usize,
    kind: GameKind,
    status: Status,
    ply: usize,
}

impl std::fmt::Debug for ModuleGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ModuleGame({}, ply {})",
            self.config.module.name, self.ply
        )
    }
}

/// The status of a game that can no longer be asked: over, no result.
fn dead_status(seats: usize) -> Status {
    Status {
        movers: Vec::new(),
        forced: Vec::new(),
        scores: vec![0; seats],
        outcome: None,
    }
}

impl ModuleGame {
    fn start(
        compiled: &Compiled,
        label: &str,
        config: &ModuleConfig,
    ) -> Result<ModuleGame, KitError> {
        let mut rules = Rules::new(Box::new(WasmKit::start(
            compiled,
            label,
            Bounds::default(),
        )?))?;
        let given: Value = serde_json::from_str(&config.config)
            .map_err(|e| KitError::Host(format!("the module's config is not JSON: {e}")))?;
        let state = match rules.start(&given, config.seed) {
            Err(KitError::Refused { why, .. }) => {
                return Err(KitError::Host(format!(
                    "game module {label} refuses the configuration {}: {why}",
                    module_file_cut(&config.config)
                )))
            }
            other => other?,
        };
        let seats = rules.seats(state);
        let kind = rules.kind(state);
        let status = checked_status(&mut rules, state)?;
        Ok(ModuleGame {
            shared: Arc::new(Shared {
                rules: Mutex::new(rules),
                fault: Mutex::new(None),
                no_playout: AtomicBool::new(false),
            }),
            state: Some(state),
            config: config.clone(),
            seats,
            kind: GameKind {
                chance: kind.chance,
                hidden: kind.hidden,
                simultaneous: kind.simultaneous,
            },
            status,
            ply: 0,
        })
    }

    /// Runs `f` on the module unless it already failed; a failure is kept and ends the game.
    fn with<T>(&self, f: impl FnOnce(&mut Rules, State) -> Result<T, KitError>) -> Option<T> {
        let state = self.state?;
        let mut fault = lock(&self.shared.fault);
        if fault.is_some() {
            return None;
        }
        let mut rules = lock(&self.shared.rules);
        match f(&mut rules, state) {
            Ok(v) => Some(v),
            Err(e) => {
                *fault = Some(e.to_string());
                None
            }
        }
    }

    /// A game at the module's copy `state` (none when the copy failed), sharing the instance.
    fn copy(&self, state: Option<State>) -> Box<dyn DynRules> {
        Box::new(ModuleGame {
            shared: self.shared.clone(),
            state,
            config: self.config.clone(),
            seats: self.seats,
            kind: self.kind,
            status: if state.is_some() {
                self.status.clone()
            } else {
                dead_status(self.seats)
            },
            ply: self.ply,
        })
    }

    /// A ply the module played: its new status.
    fn advanced(&mut self, status: Status) -> Result<(), String> {
        self.status = status;
        self.ply += 1;
        Ok(())
    }

    /// The module failed: the game is over with no result, and says why.
    fn died(&mut self) -> Result<(), String> {
        self.status = dead_status(self.seats);
        Err(self
            .fault()
            .unwrap_or_else(|| "the game module failed".into()))
    }
}

/// A config quoted in a message: its first 200 characters.
fn module_file_cut(text: &str) -> String {
    arbiter_game::config::cut(text, 200)
}

/// The status, with forced moves checked to be moves this host can carry.
fn checked_status(rules: &mut Rules, s: State) -> Result<Status, KitError> {
    let st = rules.status(s)?;
    carried(rules, st)
}

/// `st`, once its forced moves (if any) are checked to be moves this host can carry.
fn carried(rules: &Rules, st: Status) -> Result<Status, KitError> {
    for f in st.forced.iter().flatten() {
        move_text(rules, f)?;
    }
    Ok(st)
}

fn move_text(rules: &Rules, text: &str) -> Result<MoveText, KitError> {
    MoveText::new(text).ok_or_else(|| KitError::Module {
        module: rules.label().to_string(),
        what: format!(
            "uses the move {:?}: a move is one word of at most {} bytes",
            text.chars().take(40).collect::<String>(),
            arbiter_engine::module::MOVE_MAX
        ),
    })
}

/// A refusal of a move the module itself lists as legal would be a verdict against a bot for
/// the module's fault: checked on every refusal.
fn refused(
    r: &mut Rules,
    s: State,
    seat: usize,
    mv: &str,
    why: String,
) -> Result<String, KitError> {
    if r.legal_of(s, seat)?.iter().any(|m| m == mv) {
        return Err(KitError::Module {
            module: r.label().to_string(),
            what: format!("refused the move {mv:?}, which it lists as legal: {why}"),
        });
    }
    Ok(why)
}

impl DynRules for ModuleGame {
    fn clone_box(&self) -> Box<dyn DynRules> {
        self.copy(self.with(|r, s| r.duplicate(s)))
    }

    fn reseeded(&self, seed: u64) -> Box<dyn DynRules> {
        self.copy(self.with(|r, s| r.duplicate_reseeded(s, seed)))
    }

    fn sampled(&self, seat: Seat, seed: u64) -> Box<dyn DynRules> {
        self.copy(self.with(|r, s| r.sample(s, seat.index(), seed)))
    }

    fn config(&self) -> &ModuleConfig {
        &self.config
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn kind(&self) -> GameKind {
        self.kind
    }

    fn turn(&self) -> Turn {
        if self.fault().is_some() {
            return Turn::Over;
        }
        let movers: SeatSet = self
            .status
            .movers
            .iter()
            .filter_map(|&m| Seat::from_index(m))
            .collect();
        match (self.status.to_move(), movers.len()) {
            (_, 0) => Turn::Over,
            (Some(one), _) => Seat::from_index(one).map_or(Turn::Over, Turn::Seat),
            _ => Turn::Together(movers),
        }
    }

    fn forced_move(&self, seat: Seat) -> Option<MoveText> {
        let i = self.status.movers.iter().position(|&m| m == seat.index())?;
        self.status
            .forced
            .get(i)?
            .as_deref()
            .and_then(MoveText::new)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<MoveText> {
        if !self.status.movers.contains(&seat.index()) {
            return Vec::new();
        }
        self.with(|r, s| {
            let moves = r.legal_of(s, seat.index())?;
            moves.iter().map(|m| move_text(r, m)).collect()
        })
        .unwrap_or_default()
    }

    fn play(&mut self, mv: &str) -> Result<(), String> {
        let Some(seat) = self.status.to_move() else {
            return Err("it is not a turn of one seat".into());
        };
        let played = self.with(|r, s| match r.play(s, mv)? {
            Ok(()) => checked_status(r, s).map(Ok),
            Err(why) => refused(r, s, seat, mv, why).map(Err),
        });
        match played {
            Some(Err(why)) => Err(why),
            Some(Ok(status)) => self.advanced(status),
            None => self.died(),
        }
    }

    fn play_together(&mut self, moves: &[(Seat, MoveText)]) -> Result<(), (Seat, String)> {
        let given: Vec<(usize, String)> = moves
            .iter()
            .map(|(s, m)| (s.index(), m.as_str().to_string()))
            .collect();
        let played = self.with(|r, s| match r.play_together(s, &given)? {
            Ok(()) => checked_status(r, s).map(Ok),
            Err((seat, why)) => {
                let mv = given
                    .iter()
                    .find(|(g, _)| *g == seat)
                    .map_or("", |(_, m)| m);
                refused(r, s, seat, mv, why).map(|why| Err((seat, why)))
            }
        });
        let first = moves.first().map_or(Seat::FIRST, |(s, _)| *s);
        match played {
            Some(Err((seat, why))) => Err((Seat::from_index(seat).unwrap_or(first), why)),
            Some(Ok(status)) => self.advanced(status).map_err(|why| (first, why)),
            None => self.died().map_err(|why| (first, why)),
        }
    }

    fn outcome(&self) -> Option<ModuleOutcome> {
        if self.fault().is_some() {
            return None;
        }
        let o = self.status.outcome.as_ref()?;
        Some(ModuleOutcome {
            places: o.places.clone(),
            reason: o.reason.clone(),
        })
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn scores(&self) -> Vec<i64> {
        let mut s = self.status.scores.clone();
        s.resize(self.seats, 0);
        s
    }

    fn tell(&self, seat: Seat) -> String {
        self.with(|r, s| r.tell(s, seat.index()))
            .unwrap_or_default()
    }

    fn view(&self, viewer: Viewer) -> String {
        let viewer = match viewer {
            Viewer::All => arbiter_game::Viewer::All,
            Viewer::Public => arbiter_game::Viewer::Public,
            Viewer::Seat(s) => arbiter_game::Viewer::Seat(s.index()),
        };
        self.with(|r, s| r.view_as(s, viewer))
            .and_then(|v| serde_json::to_string(&v).ok())
            .unwrap_or_default()
    }

    fn reveal(&self, moves: &[(Seat, MoveText)], to: Viewer) -> Vec<Option<String>> {
        let given: Vec<(usize, String)> = moves
            .iter()
            .map(|(s, m)| (s.index(), m.as_str().to_string()))
            .collect();
        let to = match to {
            Viewer::Seat(s) => Some(s.index()),
            // Everything is for whoever may see all; the module is asked for the public.
            Viewer::All => return given.into_iter().map(|(_, m)| Some(m)).collect(),
            Viewer::Public => None,
        };
        self.with(|r, s| r.reveal(s, &given, to))
            .unwrap_or_else(|| vec![None; moves.len()])
    }

    fn retire(&mut self, seat: Seat) -> bool {
        let went_on = self.with(|r, s| match r.retire(s, seat.index())? {
            true => checked_status(r, s).map(Some),
            false => Ok(None),
        });
        match went_on {
            Some(Some(status)) => {
                self.status = status;
                true
            }
            Some(None) => false,
            None => {
                self.status = dead_status(self.seats);
                false
            }
        }
    }

    fn fault(&self) -> Option<String> {
        lock(&self.shared.fault).clone()
    }

    fn clicks(&self, seat: Seat) -> Option<String> {
        self.with(|r, s| r.clicks_of(s, Some(seat.index())))
            .flatten()
            .map(|clicks| {
                // As the module said it: `cells` or `line`, never the other as null (the
                // player took `"line": null` for an answer that is not a list of clicks).
                serde_json::to_string(&clicks).unwrap_or_default()
            })
    }

    fn random_playout(&mut self, seed: u64) -> Option<Result<(), String>> {
        if self.shared.no_playout.load(Ordering::Relaxed) || self.status.movers.is_empty() {
            return None;
        }
        let played = self.with(|r, s| match r.playout(s, seed)? {
            Some((plies, st)) => Ok(Some((plies, carried(r, st)?))),
            None => Ok(None),
        });
        match played {
            Some(Some((plies, status))) => {
                self.status = status;
                // The module's count, not checked: a copy's ply is only the search's to read.
                self.ply = self.ply.saturating_add(plies);
                Some(Ok(()))
            }
            Some(None) => {
                // Not offered (a module of an older kit, or in C): not asked again.
                self.shared.no_playout.store(true, Ordering::Relaxed);
                None
            }
            None => {
                self.status = dead_status(self.seats);
                Some(Err(self
                    .fault()
                    .unwrap_or_else(|| "the game module failed".into())))
            }
        }
    }
}

impl Drop for ModuleGame {
    fn drop(&mut self) {
        // Frees the module's copy; a failure here changes nothing for anyone.
        let _ = self.with(|r, s| r.release(s));
    }
}

/// The largest module a replay may carry, in bytes (decoded).
pub const MAX_EMBEDDED_BYTES: usize = MAX_MODULE_BYTES;

/// Puts a module game's module into its replay (`module_wasm`), so that the file alone
/// plays in the player; a built-in game's replay is left as it is.
pub fn embed_module(replay: &mut arbiter_engine::replay::Replay) {
    use base64::Engine as _;
    if let Some(m) = replay.game.as_module() {
        replay.module_wasm = module_bytes(&m.module.sha256)
            .map(|b| base64::engine::general_purpose::STANDARD.encode(&b));
    }
}

/// Registers the module a replay carries, after checking that it is the one its game names;
/// and installs this host. A replay of a built-in game, or one whose module is already
/// known here, needs nothing.
pub fn load_embedded(replay: &arbiter_engine::replay::Replay) -> Result<(), KitError> {
    use base64::Engine as _;
    install();
    let Some(m) = replay.game.as_module() else {
        return Ok(());
    };
    if is_registered(&m.module.sha256) {
        return Ok(());
    }
    let Some(text) = &replay.module_wasm else {
        return Err(KitError::Host(format!(
            "the replay names game module {} (sha256 {}) but does not carry it: give its file \
             with --module",
            m.module.name,
            short(&m.module.sha256)
        )));
    };
    if text.len() > MAX_EMBEDDED_BYTES / 3 * 4 + 4 {
        return Err(KitError::Host(format!(
            "the replay's module is over {} MiB",
            MAX_EMBEDDED_BYTES >> 20
        )));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| KitError::Host(format!("the replay's module_wasm is not base64: {e}")))?;
    if sha256_hex(&bytes) != m.module.sha256 {
        return Err(KitError::Host(format!(
            "the module the replay carries is not the one its game names (sha256 {})",
            short(&m.module.sha256)
        )));
    }
    register_bytes(&bytes, &format!("{}.wasm", m.module.name)).map(drop)
}
