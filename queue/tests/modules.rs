//! Game modules through the queue, on SQLite and PostgreSQL: the coordinator stores a
//! competition's module by its hash; a worker fetches it into its cache, checked, and
//! registers it with that file; a module over the bound, a stored module whose bytes are not
//! its hash, a hash that is not one, and a module never stored are refused with errors that
//! say so, and nothing is written for them.

mod support;

use arbiter_engine::any::GameConfig;
use arbiter_engine::module::{ModuleConfig, ModuleRef};
use arbiter_kit_host::host;
use arbiter_queue::artefacts::{self, Cache};
use arbiter_queue::modules;

/// Connect Four, made distinct per call by a custom section (a valid, other module), so each
/// database's test registers a module this process has not seen.
fn fresh_module(tag: u8) -> Vec<u8> {
    let path = arbiter_kit_host::build::game_module("game-connect-four").expect("it builds");
    let mut bytes = std::fs::read(path).unwrap();
    bytes.extend_from_slice(&[0x00, 0x02, 0x01, tag]);
    bytes
}

fn game_of(module: ModuleRef) -> GameConfig {
    GameConfig::Module(ModuleConfig {
        module,
        config: "{}".into(),
        seed: 1,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_travels_by_its_hash_and_is_checked_on_the_way() {
    for (i, db) in support::databases().await.into_iter().enumerate() {
        let q = support::queue(&db.url).await;
        let bytes = fresh_module(b'a' + i as u8);
        // The coordinator read it (no file: the worker must write one).
        let module = host::register_bytes(&bytes, "c4.wasm").unwrap();
        let game = game_of(module.clone());
        modules::store(q.db(), &game).await.unwrap();
        let stored = artefacts::get(q.db(), &module.sha256).await.unwrap();
        assert_eq!(stored.as_deref(), Some(&bytes[..]), "{}", db.name);

        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path()).unwrap();
        modules::fetch(&cache, q.db(), &game).await.unwrap();
        let file = dir.path().join(format!("{}.wasm", module.sha256));
        assert_eq!(std::fs::read(&file).unwrap(), bytes, "{}", db.name);
        assert_eq!(
            host::module_path(&module.sha256),
            Some(file.canonicalize().unwrap()),
            "{}: the built-in bots load it from the cache",
            db.name
        );
        // A built-in game needs nothing.
        let reversi = GameConfig::default_for("reversi").unwrap();
        modules::store(q.db(), &reversi).await.unwrap();
        modules::fetch(&cache, q.db(), &reversi).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_modules_are_refused_on_fetch() {
    for (i, db) in support::databases().await.into_iter().enumerate() {
        let q = support::queue(&db.url).await;
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path()).unwrap();
        let named = |sha: &str| {
            game_of(ModuleRef {
                name: "c4".into(),
                version: "1".into(),
                sha256: sha.into(),
            })
        };
        let refused = |e: Result<(), arbiter_queue::Error>| e.unwrap_err().to_string();

        // Over 16 MiB: refused by its stored size, never unpacked or written.
        let huge = vec![0u8; (16 << 20) + 1];
        let sha = artefacts::put(q.db(), &huge).await.unwrap();
        let e = refused(modules::fetch(&cache, q.db(), &named(&sha)).await);
        assert!(e.contains("is over 16 MiB"), "{}: {e}", db.name);

        // Stored bytes that are not their hash (a tampered row): refused.
        let good = fresh_module(b'x' + i as u8);
        let sha = artefacts::hash(&good);
        artefacts::put(q.db(), &good).await.unwrap();
        sqlx::query("UPDATE artefacts SET content = $1 WHERE hash = $2")
            .bind(arbiter_queue::payload::pack(b"\0asm\x01\0\0\0"))
            .bind(&sha)
            .execute(q.db().pool())
            .await
            .unwrap();
        let e = refused(modules::fetch(&cache, q.db(), &named(&sha)).await);
        assert!(e.contains("does not match its hash"), "{}: {e}", db.name);
        assert!(!host::is_registered(&sha), "{}", db.name);

        // Not a hash (a path, say), and a hash nobody stored.
        let e = refused(modules::fetch(&cache, q.db(), &named("../../etc/passwd")).await);
        assert!(e.contains("not a sha256"), "{}: {e}", db.name);
        let e = refused(modules::fetch(&cache, q.db(), &named(&"ab".repeat(32))).await);
        assert!(e.contains("missing"), "{}: {e}", db.name);

        // Nothing of these was left in the cache.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{}: {left:?}", db.name);

        // A damaged cached file is fetched again, not trusted.
        let other = fresh_module(b'p' + i as u8);
        let module = host::register_bytes(&other, "c4.wasm").unwrap();
        artefacts::put(q.db(), &other).await.unwrap();
        let file = dir.path().join(format!("{}.wasm", module.sha256));
        std::fs::write(&file, b"damaged").unwrap();
        modules::fetch(&cache, q.db(), &game_of(module))
            .await
            .unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), other, "{}", db.name);
    }
}
