//! Continuous draining of a bot's stderr into a bounded tail.
//!
//! An undrained stderr pipe fills (64 KiB) and blocks the bot, which then
//! looks like a timeout; so a dedicated thread reads it all the time, keeps the
//! last `max_kept` bytes and counts the total. The thread polls with a short
//! timeout so that it can be stopped even if an unkillable process keeps the
//! pipe open.

use std::collections::VecDeque;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use nix::poll::{poll, PollFd, PollFlags, PollTimeout};

#[derive(Debug)]
struct Shared {
    tail: Mutex<VecDeque<u8>>,
    total: AtomicU64,
    stop: AtomicBool,
}

/// Handle on the draining thread.
#[derive(Debug)]
pub(crate) struct StderrDrain {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl StderrDrain {
    /// Starts draining `fd` (the read end of the bot's stderr pipe).
    pub(crate) fn start(fd: OwnedFd, max_kept: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            tail: Mutex::new(VecDeque::new()),
            total: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || drain(fd, &worker, max_kept))?;
        Ok(StderrDrain {
            shared,
            thread: Some(thread),
        })
    }

    /// The kept tail (at most `max_kept` bytes, the newest ones).
    pub(crate) fn tail(&self) -> Vec<u8> {
        match self.shared.tail.lock() {
            Ok(t) => t.iter().copied().collect(),
            Err(p) => p.into_inner().iter().copied().collect(),
        }
    }

    /// Bytes written to stderr so far.
    pub(crate) fn total(&self) -> u64 {
        self.shared.total.load(Ordering::Relaxed)
    }

    /// Stops the thread (after it drained what is buffered) and joins it.
    pub(crate) fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for StderrDrain {
    fn drop(&mut self) {
        self.stop();
    }
}

fn drain(fd: OwnedFd, shared: &Shared, max_kept: usize) {
    let mut chunk = vec![0u8; 64 * 1024];
    let mut reads_after_stop = 0u32;
    loop {
        let stopping = shared.stop.load(Ordering::Relaxed);
        if stopping {
            // A flood from a process that could not be killed must not keep
            // the referee waiting forever.
            reads_after_stop += 1;
            if reads_after_stop > 64 {
                return;
            }
        }
        let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
        let ready = match poll(&mut fds, PollTimeout::from(50u16)) {
            Ok(n) => n,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(_) => return,
        };
        if ready == 0 {
            if stopping {
                return;
            }
            continue;
        }
        match nix::unistd::read(&fd, &mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                shared.total.fetch_add(n as u64, Ordering::Relaxed);
                let data = chunk.get(..n).unwrap_or(&[]);
                let mut tail = match shared.tail.lock() {
                    Ok(t) => t,
                    Err(p) => p.into_inner(),
                };
                let keep = data.len().min(max_kept);
                tail.extend(&data[data.len() - keep..]);
                let excess = tail.len().saturating_sub(max_kept);
                tail.drain(..excess);
            }
            Err(nix::errno::Errno::EINTR) | Err(nix::errno::Errno::EAGAIN) => {}
            Err(_) => return,
        }
    }
}
