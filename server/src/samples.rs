//! The sample bots (`bots/c`, `bots/python`), carried by the binary: `contest demo` submits
//! them for its students, and the submit page offers them as starter bots, in any directory
//! (an installed arbiter has no checkout beside it).

use arbiter_match::protocol::ProtocolKind;

/// One sample bot: its path under `bots/` and its source.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub path: &'static str,
    pub text: &'static str,
}

macro_rules! sample {
    ($path:literal) => {
        Sample {
            path: $path,
            text: include_str!(concat!("../../bots/", $path)),
        }
    };
}

/// Every sample bot in `bots/c` and `bots/python` (a test checks that none is missing).
pub const SAMPLES: &[Sample] = &[
    sample!("c/duel_greedy.c"),
    sample!("c/duel_random.c"),
    sample!("c/gobang_greedy.c"),
    sample!("c/gobang_random.c"),
    sample!("c/gomocup_greedy.c"),
    sample!("c/gomocup_random.c"),
    sample!("c/kit_random.c"),
    sample!("c/reversi_greedy.c"),
    sample!("c/reversi_random.c"),
    sample!("python/duel_greedy.py"),
    sample!("python/duel_random.py"),
    sample!("python/gobang_greedy.py"),
    sample!("python/gobang_random.py"),
    sample!("python/gomocup_greedy.py"),
    sample!("python/gomocup_random.py"),
    sample!("python/kit_random.py"),
    sample!("python/reversi_greedy.py"),
    sample!("python/reversi_random.py"),
    sample!("python/sessdsa_host.py"),
];

/// The sample bot at `path` (under `bots/`).
pub fn get(path: &str) -> Option<&'static Sample> {
    SAMPLES.iter().find(|s| s.path == path)
}

/// The starter bot for `protocol` in a language whose source file is `file` (`main.c`,
/// `main.cpp`, `main.py`): the greedy sample, the one worth improving on. C++ gets the C
/// sample: every C sample compiles as C++ (a test checks it with g++).
pub fn starter(protocol: ProtocolKind, file: &str) -> Option<&'static Sample> {
    let (dir, ext) = match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("c" | "cpp" | "cc" | "cxx") => ("c", "c"),
        Some("py") => ("python", "py"),
        _ => return None,
    };
    get(&format!("{dir}/{}.{ext}", stem(protocol)))
}

/// The starter bot's file stem for each protocol (`reversi-board` bots are the `reversi`
/// ones; the kit's sample knows no game, so it plays a random legal move).
fn stem(protocol: ProtocolKind) -> &'static str {
    match protocol {
        ProtocolKind::Reversi | ProtocolKind::ReversiBoard => "reversi_greedy",
        ProtocolKind::Gobang => "gobang_greedy",
        ProtocolKind::Gomocup => "gomocup_greedy",
        ProtocolKind::Duel => "duel_greedy",
        ProtocolKind::Kit => "kit_random",
    }
}

/// Writes every sample bot under `dir` (as `dir/c/...`, `dir/python/...`).
pub fn write_all(dir: &std::path::Path) -> std::io::Result<()> {
    for s in SAMPLES {
        let path = dir.join(s.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, s.text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_bot_in_the_repository_is_carried() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots");
        for (dir, ext) in [("c", "c"), ("python", "py")] {
            for entry in std::fs::read_dir(root.join(dir)).expect("bots dir") {
                let name = entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned();
                if name.ends_with(&format!(".{ext}")) {
                    let path = format!("{dir}/{name}");
                    assert!(get(&path).is_some(), "{path} is not in samples::SAMPLES");
                }
            }
        }
    }

    #[test]
    fn every_protocol_has_a_starter_in_c_cpp_and_python() {
        for p in ProtocolKind::ALL {
            for file in ["main.c", "main.cpp", "main.py"] {
                assert!(starter(p, file).is_some(), "no {file} starter for {p}");
            }
        }
        assert!(starter(ProtocolKind::Reversi, "main.java").is_none());
    }

    /// C++ is offered the C samples, so each must compile as C++ as the contest's C++
    /// language compiles (`g++ -std=gnu++17`); skipped where g++ is not installed.
    #[test]
    fn the_c_samples_compile_as_cpp() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots");
        for s in SAMPLES.iter().filter(|s| s.path.starts_with("c/")) {
            let out = std::process::Command::new("g++")
                .args(["-std=gnu++17", "-fsyntax-only", "-x", "c++"])
                .arg(root.join(s.path))
                .output();
            let out = match out {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    eprintln!("SKIPPED: g++ is not installed");
                    return;
                }
                other => other.expect("g++ runs"),
            };
            assert!(
                out.status.success(),
                "{} does not compile as C++: {}",
                s.path,
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
