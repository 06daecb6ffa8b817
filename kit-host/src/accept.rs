//! The one acceptance check of a game module: what `arbiter game check`, `match`,
//! `tournament`, `contest init` and `contest serve` all check before they play a module, so
//! that what one refuses the others refuse.
//!
//! A module is accepted when its file is a regular file of at most 16 MiB (the one module
//! reader), it loads and speaks the ABI, it names itself with one short word, it accepts the
//! configuration it will be played with (declared keys, seat count), and it passes the
//! conformance suite ([`crate::check`]) with that configuration, for every seat count the
//! configuration leaves open. An accepted module is remembered for the life of the process
//! (by sha256 and configuration), so a tournament that names it twice checks it once.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use arbiter_engine::module::ModuleRef;
use serde_json::Value;

use crate::check::{self, Plan, Summary};
use crate::{host, module_file, Bounds, KitError, Rules, WasmKit};

/// The random playouts of the acceptance check, per seat count.
pub const ACCEPT_PLAYOUTS: u32 = 3;

/// The plies of each acceptance playout checked in full (then one in
/// [`check::THIN_STRIDE`]): random Chinese Checkers runs to its 1,000-ply limit, and checked
/// in full its four seat counts took 30 s of an idle machine before a contest could start.
pub const ACCEPT_THOROUGH_PLIES: u64 = 120;

/// What the check found.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub module: ModuleRef,
    /// The module's seat counts, from its `info`.
    pub seats: Vec<usize>,
    /// The suite's summary per seat count checked (empty when it was accepted before).
    pub summaries: Vec<Summary>,
    pub took: Duration,
}

/// Reads, registers and checks the module at `path` for `config`.
pub fn file(path: &Path, config: &Value) -> Result<Accepted, KitError> {
    let bytes = module_file::read(path)?;
    let module = host::register_file(path)?;
    checked(&bytes, &module_file::label(path), module, config)
}

/// [`file`] for a module's bytes (a worker's copy, an upload).
pub fn bytes(bytes: &[u8], label: &str, config: &Value) -> Result<Accepted, KitError> {
    let module = host::register_bytes(bytes, label)?;
    checked(bytes, label, module, config)
}

fn checked(
    bytes: &[u8],
    label: &str,
    module: ModuleRef,
    config: &Value,
) -> Result<Accepted, KitError> {
    let started = Instant::now();
    let mut rules = Rules::new(Box::new(WasmKit::load(bytes, label, Bounds::default())?))?;
    let seats = rules.info().seats.clone();
    rules.check_config(config).map_err(|why| {
        let e = KitError::Refused {
            module: label.to_string(),
            why,
        };
        refused_config(e, config)
    })?;
    let key = format!("{}:{config}", module.sha256);
    if lock(accepted()).contains(&key) {
        return Ok(Accepted {
            module,
            seats,
            summaries: Vec::new(),
            took: started.elapsed(),
        });
    }
    // A few playouts: what refuses a module before a match or a contest (it must not keep a
    // match waiting for minutes); `arbiter game check` plays 20 and more.
    let plan = Plan {
        config: config.clone(),
        playouts: ACCEPT_PLAYOUTS,
        thorough_plies: ACCEPT_THOROUGH_PLIES,
        ..Plan::default()
    };
    let summaries =
        check::run_every_count(&mut rules, &plan).map_err(|e| refused_config(e, config))?;
    lock(accepted()).insert(key);
    Ok(Accepted {
        module,
        seats,
        summaries,
        took: started.elapsed(),
    })
}

/// A config the module refuses while the suite starts its games is a refusal of the config,
/// said as such.
fn refused_config(e: KitError, config: &Value) -> KitError {
    match e {
        KitError::Refused { module, why } => KitError::Host(format!(
            "game module {module} refuses the configuration {}: {why}",
            arbiter_game::config::cut(&config.to_string(), 200)
        )),
        other => other,
    }
}

fn accepted() -> &'static Mutex<HashSet<String>> {
    static ACCEPTED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    ACCEPTED.get_or_init(Default::default)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
