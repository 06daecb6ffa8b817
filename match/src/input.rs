//! Reading the files a user names (replays, records, logs, configs, openings) with a size
//! limit, so that `/dev/zero`, `/dev/urandom` or a huge file ends in an error naming the limit
//! instead of eating memory.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// How large one kind of input file may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
    /// What the file is, for the message: "a replay file".
    pub what: &'static str,
}

const MB: u64 = 1 << 20;

/// Replays carry every move and the bots' logs (each capped per move): 64 MB is far above a
/// real one.
pub const REPLAY: Limit = Limit {
    bytes: 64 * MB,
    what: "a replay file",
};
/// A 500-round sessdsa record is about 330 KB.
pub const SESSDSA_RECORD: Limit = Limit {
    bytes: 16 * MB,
    what: "a sessdsa record file",
};
/// A Gobang bridge log holds a whole series of games, a few KB each.
pub const GOBANG_LOG: Limit = Limit {
    bytes: 64 * MB,
    what: "a Gobang bridge log",
};
pub const TOURNAMENT_CONFIG: Limit = Limit {
    bytes: MB,
    what: "a tournament config file",
};
pub const OPENINGS: Limit = Limit {
    bytes: 16 * MB,
    what: "an openings file",
};

/// Why a file could not be read.
#[derive(Debug)]
pub enum InputError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    TooLarge {
        path: PathBuf,
        limit: Limit,
    },
    NotText {
        path: PathBuf,
        what: &'static str,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            InputError::TooLarge { path, limit } => write!(
                f,
                "{} holds more than {} MB, the size limit for {}; stopped reading there",
                path.display(),
                limit.bytes / MB,
                limit.what
            ),
            InputError::NotText { path, what } => {
                write!(f, "{}: not UTF-8 text, so not {what}", path.display())
            }
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The whole file, or an error once more than `limit` bytes have come (a device or a pipe
/// that never ends included).
pub fn read_bytes(path: &Path, limit: Limit) -> Result<Vec<u8>, InputError> {
    let read_error = |source| InputError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let too_large = || InputError::TooLarge {
        path: path.to_path_buf(),
        limit,
    };
    // A regular file says its size: refuse it before reading a byte.
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit.bytes)
    {
        return Err(too_large());
    }
    let mut data = Vec::new();
    file.take(limit.bytes + 1)
        .read_to_end(&mut data)
        .map_err(read_error)?;
    if data.len() as u64 > limit.bytes {
        return Err(too_large());
    }
    Ok(data)
}

/// The whole file as UTF-8 text, within `limit`.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, InputError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| InputError::NotText {
        path: path.to_path_buf(),
        what: limit.what,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Limit = Limit {
        bytes: 1000,
        what: "a test file",
    };

    #[test]
    fn endless_devices_stop_at_the_limit() {
        for dev in ["/dev/zero", "/dev/urandom"] {
            let err = read_bytes(Path::new(dev), TINY).unwrap_err().to_string();
            assert!(err.contains("size limit for a test file"), "{err}");
        }
    }

    #[test]
    fn files_within_and_beyond_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, "x".repeat(1000)).unwrap();
        assert_eq!(read_text(&small, TINY).unwrap().len(), 1000);
        let big = dir.path().join("big");
        std::fs::write(&big, "x".repeat(1001)).unwrap();
        assert!(matches!(
            read_text(&big, TINY),
            Err(InputError::TooLarge { .. })
        ));
        let binary = dir.path().join("binary");
        std::fs::write(&binary, [0xff, 0xfe]).unwrap();
        assert!(read_text(&binary, TINY)
            .unwrap_err()
            .to_string()
            .contains("not UTF-8 text, so not a test file"));
        let missing = read_text(&dir.path().join("missing"), TINY).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read"));
    }
}
