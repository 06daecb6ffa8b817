//! Bots by content hash: a compiled binary or a script, stored once, fetched by any worker and
//! cached on its disk under its hash (checked again after the fetch).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::db::Db;
use crate::payload;

/// The SHA-256 of `bytes`, lower-case hex.
pub fn hash(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Stores `bytes` (idempotent); returns their hash.
pub async fn put(db: &Db, bytes: &[u8]) -> Result<String, sqlx::Error> {
    let h = hash(bytes);
    sqlx::query(&format!(
        "INSERT INTO artefacts (hash, size, content, created_at) VALUES ($1, $2, $3, {}) \
         ON CONFLICT (hash) DO NOTHING",
        db.now()
    ))
    .bind(&h)
    .bind(bytes.len() as i64)
    .bind(payload::pack(bytes))
    .execute(db.pool())
    .await?;
    Ok(h)
}

/// The bytes stored under `hash`, checked against it.
pub async fn get(db: &Db, hash_hex: &str) -> Result<Option<Vec<u8>>, crate::Error> {
    let row = sqlx::query("SELECT content FROM artefacts WHERE hash = $1")
        .bind(hash_hex)
        .fetch_optional(db.pool())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let packed: Vec<u8> = row.try_get(0)?;
    let bytes = payload::unpack(&packed)?;
    if hash(&bytes) != hash_hex {
        return Err(crate::Error::Corrupt(format!(
            "artefact {hash_hex} does not match its hash"
        )));
    }
    Ok(Some(bytes))
}

/// A worker's disk cache of artefacts: `DIR/<hash>`, written atomically, executable.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> std::io::Result<Cache> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(Cache { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The local path of `hash`, fetched from the database when not cached yet.
    pub async fn fetch(&self, db: &Db, hash_hex: &str) -> Result<PathBuf, crate::Error> {
        if hash_hex.len() != 64 || !hash_hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(crate::Error::Corrupt(format!(
                "not an artefact hash: {hash_hex:?}"
            )));
        }
        let path = self.dir.join(hash_hex);
        if path.is_file() {
            return Ok(path);
        }
        let bytes = get(db, hash_hex)
            .await?
            .ok_or_else(|| crate::Error::Missing(format!("artefact {hash_hex}")))?;
        // A name of its own per fetch: two slots of one worker may fetch the same artefact at
        // once, and one must never rename the other's half-written file into place.
        let tmp = self
            .dir
            .join(format!(".{hash_hex}.{:016x}", rand::random::<u64>()));
        std::fs::write(&tmp, &bytes)?;
        set_executable(&tmp)?;
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }
}

fn set_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}
