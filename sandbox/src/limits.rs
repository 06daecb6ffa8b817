//! Resource limits and I/O bounds for one bot process.

use std::path::PathBuf;
use std::time::Duration;

/// What one bot may consume, and how much of its output the referee keeps.
///
/// Every field has a conservative default (see [`Limits::default`]); the referee
/// fills the game-specific ones (memory, core, scratch directory) per match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Memory of the bot's whole tree. Enforced by a memory cgroup when one is
    /// available (an out-of-memory kill is then reported exactly), otherwise by
    /// `RLIMIT_AS` on each process if [`Limits::address_space_fallback`] is set.
    pub memory_bytes: Option<u64>,
    /// The CPU core the bot is pinned to (cpuset cgroup when available, plus
    /// `sched_setaffinity`).
    pub cpu_core: Option<usize>,
    /// Maximum number of tasks (processes and threads) in the bot's cgroup
    /// (`pids.max`). Ignored without a pids cgroup: `RLIMIT_NPROC` is useless as
    /// root and counts the uid system-wide.
    pub max_tasks: Option<u64>,
    /// Longest line kept; a longer one yields `ReadEvent::LineTooLong`.
    pub max_line_bytes: usize,
    /// Largest frame body accepted by `read_frame`.
    pub max_frame_bytes: usize,
    /// Total stdout bytes after which reads yield `OutputLimit`.
    pub max_output_bytes: u64,
    /// Size of the kept tail of stderr (the total is still counted).
    pub max_stderr_kept: usize,
    /// `RLIMIT_FSIZE`: largest file the bot may write (in its scratch directory).
    pub max_file_bytes: u64,
    /// `RLIMIT_NOFILE`.
    pub max_open_files: u64,
    /// `RLIMIT_CPU` backstop in whole seconds (the kernel kills with SIGKILL
    /// after the hard limit); the referee's own clocks are the real judge.
    pub cpu_time_backstop: Option<Duration>,
    /// The only directory the bot may write to (besides `/dev/null`).
    pub scratch_dir: Option<PathBuf>,
    /// In a jail, the scratch directory is a fresh tmpfs of this size (the disk quota of the
    /// bot's whole tree; its pages also count towards the memory limit). `None`: the host's
    /// `scratch_dir` itself is bound writable, for a compile whose output must outlive it.
    pub scratch_bytes: Option<u64>,
    /// Allow TCP/UDP sockets. Off by default: Landlock denies TCP bind/connect and
    /// seccomp denies `socket()` for every family but `AF_UNIX`.
    pub allow_network: bool,
    /// How long `send` waits for a bot that does not read its stdin.
    pub write_timeout: Duration,
    /// Use `RLIMIT_AS` = `memory_bytes` when no memory cgroup exists. Breaks
    /// runtimes that reserve large address ranges (Java, Node, Go, ASan builds).
    pub address_space_fallback: bool,
    /// Send SIGKILL to the bot when the *thread* that spawned it exits
    /// (`PR_SET_PDEATHSIG`). Protects against a referee killed with SIGKILL; the
    /// spawning thread must therefore live as long as the bot.
    pub die_with_spawning_thread: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: None,
            cpu_core: None,
            max_tasks: Some(128),
            max_line_bytes: 64 * 1024,
            max_frame_bytes: 1 << 20,
            max_output_bytes: 64 << 20,
            max_stderr_kept: 64 * 1024,
            max_file_bytes: 64 << 20,
            max_open_files: 256,
            cpu_time_backstop: None,
            scratch_dir: None,
            scratch_bytes: Some(crate::layers::jail::DEFAULT_SCRATCH_BYTES),
            allow_network: false,
            write_timeout: Duration::from_secs(2),
            address_space_fallback: true,
            die_with_spawning_thread: true,
        }
    }
}
