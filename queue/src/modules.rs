//! Game modules (docs/game-kit.md) travel like bots: the coordinator stores a competition's
//! module as an artefact by its sha256 when it sets the competition up, and a worker on any
//! machine fetches it by the sha256 its game names, checks it, keeps it in its artefact cache
//! and registers it with its module host before the game is played.

use std::path::PathBuf;

use arbiter_engine::any::GameConfig;
use arbiter_engine::module::ModuleRef;
use arbiter_kit_host::host::{self, MAX_MODULE_BYTES};
use sqlx::Row;

use crate::artefacts::Cache;
use crate::db::Db;

/// Stores the module `game` names (if it is a module game) as an artefact. The module must be
/// registered in this process (the coordinator read its file).
pub async fn store(db: &Db, game: &GameConfig) -> Result<(), crate::Error> {
    let Some(m) = game.as_module() else {
        return Ok(());
    };
    let bytes = host::module_bytes(&m.module.sha256).ok_or_else(|| {
        crate::Error::Missing(format!(
            "game module {} (not loaded by this process)",
            m.module.name
        ))
    })?;
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(too_large(&m.module));
    }
    crate::artefacts::put(db, &bytes).await?;
    Ok(())
}

/// Makes the module `game` names playable here, with a file the built-in bots can load:
/// nothing when it is already registered with a file, else fetched from the database into
/// `cache` (size bounded, hash checked) and registered.
pub async fn fetch(cache: &Cache, db: &Db, game: &GameConfig) -> Result<(), crate::Error> {
    let Some(m) = game.as_module() else {
        return Ok(());
    };
    host::install();
    if host::module_path(&m.module.sha256).is_some() {
        return Ok(());
    }
    let path = cached(cache, db, &m.module).await?;
    let registered = host::register_file(&path)
        .map_err(|e| crate::Error::Corrupt(format!("game module {}: {e}", m.module.name)))?;
    if registered.sha256 != m.module.sha256 {
        // Changed on this machine's disk since it was checked: never play other rules than
        // the game names.
        return Err(crate::Error::Corrupt(format!(
            "game module {}: the cached file changed while it was loaded",
            m.module.name
        )));
    }
    Ok(())
}

/// Whether `text` is a sha256 as modules are named: 64 lowercase hex digits (so it is also a
/// safe file name).
pub fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `CACHE/<sha256>.wasm`, fetched when not there yet.
async fn cached(cache: &Cache, db: &Db, m: &ModuleRef) -> Result<PathBuf, crate::Error> {
    let sha = &m.sha256;
    if !is_sha256(sha) {
        return Err(crate::Error::Corrupt(format!(
            "game module {}: not a sha256: {sha:?}",
            m.name
        )));
    }
    let path = cache.dir().join(format!("{sha}.wasm"));
    // A cached file that is not what its name says (damaged on this machine's disk) is
    // fetched again.
    if file_sha256(&path).as_deref() == Some(sha.as_str()) {
        return Ok(path);
    }
    // The stored size first: a module over the bound is not even unpacked.
    let size: Option<i64> = sqlx::query("SELECT size FROM artefacts WHERE hash = $1")
        .bind(sha)
        .fetch_optional(db.pool())
        .await?
        .map(|r| r.try_get(0))
        .transpose()?;
    let size = size.ok_or_else(|| crate::Error::Missing(format!("game module {}", m.name)))?;
    if size < 0 || size as u64 > MAX_MODULE_BYTES as u64 {
        return Err(too_large(m));
    }
    let bytes = crate::artefacts::get(db, sha)
        .await?
        .ok_or_else(|| crate::Error::Missing(format!("game module {}", m.name)))?;
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(too_large(m));
    }
    // Slots of one worker may fetch the same module at once: each writes a file of its own.
    let tmp = cache
        .dir()
        .join(format!(".{sha}.wasm.{:016x}", rand::random::<u64>()));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// The sha256 of a file of at most [`MAX_MODULE_BYTES`], or `None` (absent, unreadable, too
/// large).
fn file_sha256(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_MODULE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() <= MAX_MODULE_BYTES).then(|| crate::artefacts::hash(&bytes))
}

fn too_large(m: &ModuleRef) -> crate::Error {
    crate::Error::Corrupt(format!(
        "game module {} is over {} MiB",
        m.name,
        MAX_MODULE_BYTES >> 20
    ))
}
