//! Shared by the tournament integration tests: the fixture Reversi bot, compiled once per test
//! binary, and helpers to write configs and run the real `arbiter` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The compiled fixture bot (`tests/fixtures/tournament/rbot.c`).
pub fn rbot() -> &'static Path {
    static BOT: OnceLock<PathBuf> = OnceLock::new();
    BOT.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c");
        let dir = std::env::temp_dir().join(format!("arbiter-rbot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("rbot");
        let status = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .expect("a C compiler (cc) is needed for the tournament tests");
        assert!(status.success(), "cannot compile {}", src.display());
        out
    })
}

pub fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// A Reversi tournament of fixture bots: `bots` are (name, extra args after SIZE).
pub fn config(
    size: u8,
    format: &str,
    gpp: usize,
    seed: u64,
    limits: &str,
    bots: &[(&str, &str)],
) -> String {
    let mut s = format!(
        "name = \"test\"\nseed = {seed}\nformat = \"{format}\"\ngames_per_pairing = {gpp}\noutput = \"out\"\n[game]\nname = \"reversi\"\nsize = {size}\n[limits]\n{limits}\n"
    );
    for (name, args) in bots {
        s.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\ncommand = \"{} {size} {args}\"\n",
            rbot().display()
        ));
    }
    s
}

pub fn write_config(dir: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("t.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// `report --json` of a tournament directory.
pub fn report_json(out: &Path) -> serde_json::Value {
    let o = arbiter()
        .args(["tournament", "report", "--json"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Every game as (key, winner seat, moves, reason code), sorted by key.
pub fn results(report: &serde_json::Value) -> Vec<(String, Option<u64>, i64, String)> {
    let mut v: Vec<_> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let r = &g["result"];
            (
                g["key"].as_str().unwrap().to_string(),
                r["winner"].as_u64(),
                r["moves"].as_i64().unwrap_or(-1),
                r["reason_code"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    v.sort();
    v
}
