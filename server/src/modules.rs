//! The game modules a contest has been served with. Course staff may fix their game between two
//! restarts: the games played before still name the module they were played with, and the
//! player needs that module to show them. Each module is kept as an artefact (as workers fetch
//! it) and recorded in the settings under its own key, so that two servers starting at once
//! never lose each other's record. Only a recorded module is ever served: the artefact store
//! also holds students' code.

use std::path::Path;
use std::sync::Arc;

use arbiter_engine::any::GameConfig;
use arbiter_kit_host::host::{self, MAX_MODULE_BYTES};
use arbiter_queue::{Db, Queue};

use crate::error::AppError;
use crate::state::Shared;
use crate::store;

/// The settings key that records module `sha256`; its value is the module's name and version.
fn key(sha256: &str) -> String {
    format!("game_module:{sha256}")
}

/// Stores the contest's module (when its game is one) for workers and for later restarts, and
/// records it as one of the contest's modules.
pub async fn remember(db: &Db, queue: &Queue, game: &GameConfig) -> anyhow::Result<()> {
    let Some(m) = game.as_module() else {
        return Ok(());
    };
    arbiter_queue::modules::store(queue.db(), game).await?;
    let what = format!("{} {}", m.module.name, m.module.version);
    store::set_setting(db, &key(&m.module.sha256), &what).await?;
    Ok(())
}

/// The bytes of module `sha256` if this contest was ever served with it; `None` for any other
/// name (not a sha256, never this contest's, or gone from the store).
pub async fn bytes(state: &Shared, sha256: &str) -> Result<Option<Arc<[u8]>>, AppError> {
    if !arbiter_queue::modules::is_sha256(sha256) {
        return Ok(None);
    }
    if store::setting(&state.db, &key(sha256)).await?.is_none() {
        return Ok(None);
    }
    if let Some(loaded) = host::module_bytes(sha256) {
        return Ok(Some(loaded));
    }
    let Some(stored) = arbiter_queue::artefacts::get(state.queue.db(), sha256).await? else {
        return Ok(None);
    };
    // Served as the rules of past games: never other bytes than their name says.
    if stored.len() > MAX_MODULE_BYTES || arbiter_queue::artefacts::hash(&stored) != sha256 {
        return Err(AppError::Internal(anyhow::anyhow!(
            "the stored game module {sha256} is damaged"
        )));
    }
    Ok(Some(stored.into()))
}

/// Writes `dir/modules/<sha256>.wasm` for the module `game` names, so that an exported replay
/// plays in the player beside it. Nothing for a built-in game.
pub async fn export(state: &Shared, game: &GameConfig, dir: &Path) -> anyhow::Result<()> {
    let Some(m) = game.as_module() else {
        return Ok(());
    };
    let path = dir
        .join("modules")
        .join(format!("{}.wasm", m.module.sha256));
    if path.exists() {
        return Ok(());
    }
    let bytes = bytes(state, &m.module.sha256)
        .await
        .map_err(|e| anyhow::anyhow!("game module {}: {e}", m.module.name))?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "game module {} {} (sha256 {}) is not in this contest's store",
                m.module.name,
                m.module.version,
                m.module.sha256
            )
        })?;
    std::fs::create_dir_all(dir.join("modules"))?;
    std::fs::write(&path, &bytes[..])?;
    Ok(())
}
