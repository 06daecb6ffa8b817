//! Reading a game module's file: the one reader every command uses, so that what one refuses
//! the others refuse. A path from outside may name anything: a named pipe (whose open would
//! wait for a writer for ever), a device (`/dev/zero` never ends), a directory, a huge file.

use std::io::Read;
use std::path::Path;

use crate::KitError;

/// The largest module accepted, in bytes: the games in games/ are about 200 KB, and a module
/// travels to workers through the database and to browsers on every game page.
pub const MAX_MODULE_BYTES: usize = 16 << 20;

/// The module's name in messages: its file name.
pub fn label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The bytes of the module at `path`: a regular file of at most [`MAX_MODULE_BYTES`], or an
/// error in words naming the path and what it is instead.
pub fn read(path: &Path) -> Result<Vec<u8>, KitError> {
    let cannot = |what: String| {
        KitError::Host(format!(
            "cannot read game module {}: {what}",
            path.display()
        ))
    };
    // Not following a FIFO's open: O_NONBLOCK makes it return at once, and the type check
    // below refuses it before any read.
    let file = open_without_waiting(path).map_err(|e| cannot(e.to_string()))?;
    let meta = file.metadata().map_err(|e| cannot(e.to_string()))?;
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(cannot(format!(
            "it is {}, not a regular file (a module is a .wasm file)",
            kind_words(&kind)
        )));
    }
    if meta.len() > MAX_MODULE_BYTES as u64 {
        return Err(too_large(path, meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_MODULE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(e.to_string()))?;
    // The file may have grown since it was measured.
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

fn too_large(path: &Path, len: u64) -> KitError {
    KitError::Host(format!(
        "game module {} is {} MiB: at most {} MiB",
        path.display(),
        len.div_ceil(1 << 20),
        MAX_MODULE_BYTES >> 20
    ))
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc_o_nonblock())
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// O_NONBLOCK on Linux (every architecture arbiter builds for), without a libc dependency.
#[cfg(unix)]
const fn libc_o_nonblock() -> i32 {
    0o4000
}

#[cfg(unix)]
fn kind_words(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn kind_words(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &Path) -> String {
        read(path).unwrap_err().to_string()
    }

    #[test]
    fn only_a_bounded_regular_file_is_read() {
        let dir = std::env::temp_dir().join(format!("module-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = refusal(&dir);
        assert!(e.contains("a directory"), "{e}");
        assert!(refusal(Path::new("/dev/zero")).contains("a device"));
        assert!(refusal(&dir.join("absent.wasm")).contains("absent.wasm"));
        let fifo = dir.join("pipe.wasm");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let started = std::time::Instant::now();
            let e = refusal(&fifo);
            assert!(e.contains("a named pipe"), "{e}");
            assert!(
                started.elapsed().as_secs() < 5,
                "a FIFO must not be waited on"
            );
        }
        let big = dir.join("big.wasm");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_MODULE_BYTES as u64 + 1)
            .unwrap();
        let e = refusal(&big);
        assert!(e.contains("at most 16 MiB"), "{e}");
        let small = dir.join("small.wasm");
        std::fs::write(&small, b"\0asm").unwrap();
        assert_eq!(read(&small).unwrap(), b"\0asm");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
