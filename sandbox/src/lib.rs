//! The bot-process layer: start an untrusted bot program, talk to it, time it,
//! contain it, and tell exactly how it ended.
//!
//! # Use
//!
//! ```no_run
//! use std::time::{Duration, Instant};
//! use arbiter_sandbox::{BotCommand, BotProcess, Containment, Limits, ReadEvent};
//!
//! let containment = Containment::detect(); // once per referee; warnings() -> log
//! let limits = Limits { memory_bytes: Some(350 << 20), cpu_core: Some(1), ..Limits::default() };
//! let cmd = BotCommand::parse("./my_bot --level 3").expect("valid command");
//! let mut bot = BotProcess::spawn(&cmd, &limits, &containment).expect("started");
//! bot.send_line("START 1").expect("sent");
//! match bot.read_line(Instant::now() + Duration::from_secs(5)) {
//!     ReadEvent::Line(bytes) => println!("{}", String::from_utf8_lossy(&bytes)),
//!     other => println!("bot failed: {other:?}"),
//! }
//! let exit = bot.finish(Duration::from_secs(1));
//! println!("{exit:?}");
//! ```
//!
//! Timing: the referee measures wall time itself (`Instant` around
//! `send`/`read_line`); [`BotProcess::read_line`] returns `Timeout` no earlier
//! than the deadline and usually within 0.1 ms after it (`ppoll` with
//! nanosecond timeouts; late by the timer slack plus scheduling). On a loaded
//! shared machine wake-ups can be late by milliseconds, so the caller should
//! grant a safety margin ([`precise_timers_for_this_thread`] removes the
//! 50 us default timer slack). CPU time of the whole tree comes from
//! [`BotProcess::cpu_time`].
//!
//! # The jail
//!
//! Where the kernel allows it (root, or unprivileged user namespaces), every bot runs in a
//! jail ([`layers::jail`], docs/containment.md): new pid, mount, network, ipc, uts and
//! cgroup namespaces, a read-only root with the system, [`BotCommand::visible`] and a
//! scratch tmpfs of [`Limits::scratch_bytes`], an unprivileged user, a cleared environment.
//! A keeper (pid 1 of the namespace) builds it and reports the bot's status; the layers
//! below then apply to the bot inside it. Without namespaces the same layers apply to a plain
//! child, and [`Containment::isolation_gaps`] says what is missing.
//!
//! # Layers
//!
//! Everything that allocates is prepared *before* fork; the child, in
//! `pre_exec` (or the jail's bot process), only issues system calls, in this order:
//!
//! | layer | catches | when unavailable |
//! |---|---|---|
//! | `setsid` (own session + process group) | children of the bot: one `killpg` kills them | always available |
//! | `PR_SET_PDEATHSIG` = SIGKILL (optional) | the referee being SIGKILLed | fires when the *spawning thread* exits: keep it alive |
//! | cgroup join (`"0"` written to `cgroup.procs` fds opened before fork) | everything below: the bot is inside its groups before its first instruction | see cgroups |
//! | `sched_setaffinity` to `Limits::cpu_core` | sharing the opponent's core | advisory only: a bot can widen its mask (a cpuset cgroup cannot be escaped) |
//! | rlimits: `CORE`=0, `FSIZE`, `NOFILE`, `CPU` backstop, `AS` = memory limit when no memory cgroup | core dumps, huge files, fd exhaustion, memory without cgroups | `AS` breaks Java, Node, Go and ASan binaries (they reserve GBs): disable with `Limits::address_space_fallback` |
//! | Landlock (ABI 6 asked, best effort) | writes outside the scratch dir and `/dev/null`, TCP bind/connect, signals to and abstract sockets of processes outside the tree | older kernels enforce a subset (files: ABI 1, TCP: ABI 4, scopes: ABI 6); none: warning |
//! | seccomp-BPF (allow by default, `EPERM` for the listed calls) | `socket()` of any family but `AF_UNIX` (UDP too), io_uring, ptrace, namespaces, mount, modules, bpf, perf, clock setters... | unsupported architecture or kernel: warning |
//!
//! Cgroups (created per bot under the referee's own group in each hierarchy;
//! removed at the end):
//!
//! - **v2** (pure v2, or the unified half of a hybrid layout): `cgroup.kill`
//!   (atomic kill of the tree, no fork race), `cgroup.freeze`, `cpu.stat`
//!   (CPU of the tree), and if the controllers are enabled for our children:
//!   `memory.max` (+ `memory.swap.max` 0, `memory.oom.group` 1; `memory.events`
//!   `oom_kill` tells an OOM death), `pids.max`, `cpuset.cpus`. In a non-root v2
//!   group that holds processes the kernel refuses to enable controllers for
//!   children: run the referee in a delegated group
//!   ([`Containment::with_cgroup_v2_parent`]).
//! - **v1** (used for whatever v2 does not provide): memory
//!   (`memory.limit_in_bytes`, `memory.memsw.limit_in_bytes` if present,
//!   `memory.oom_control` `oom_kill` counter), pids (`pids.max`, `pids.events`),
//!   cpuset (`cpuset.cpus` = the core), freezer (`freezer.state`), cpuacct
//!   (`cpuacct.usage`).
//! - None (not root, no delegation): process group + sweeps for the tree,
//!   `RLIMIT_AS` for memory, `/proc` for CPU time (10 ms ticks), SIGSTOP/SIGCONT
//!   for freezing, no task limit (`RLIMIT_NPROC` is useless as root and counts
//!   the uid system-wide).
//!
//! # No process outlives its game
//!
//! The referee is a child subreaper ([`install_subreaper`], done by
//! [`Containment::detect`] and [`BotProcess::spawn`]): orphans of a bot's tree
//! come back to the referee, not to init. [`BotProcess::finish`],
//! [`BotProcess::kill_tree`] and `Drop` run a sweep that kills (cgroup kill,
//! `killpg`, then SIGKILL to each member) until nothing is left, finding members
//! by cgroup membership, process group, session, ancestry, the
//! `ARBITER_BOT_TOKEN` environment entry and holding one of the bot's pipes, so
//! a double-fork + `setsid` escapee is found even without cgroups (unless it
//! also clears its environment and closes the pipes: then only cgroups catch
//! it). Members re-parented to the referee are reaped.
//!
//! # How it ended
//!
//! [`ExitInfo`] holds the exit code or signal, whether the referee had to kill
//! it, who sent the signal ([`SignalCause`]: the referee, a limit it set, the
//! program itself, or someone outside), CPU time, peak memory, leftover processes killed, and
//! `memory_exceeded` with its evidence: with a memory cgroup, the `oom_kill`
//! counter (exact: a SIGKILL from the OOM killer is told apart from any other);
//! with `RLIMIT_AS` only, allocations fail inside the bot, which then crashes
//! or exits on its own: reported when it ended abnormally *and* its stderr tail
//! shows a typical allocation-failure message (heuristic).
//!
//! # I/O
//!
//! stdin and stdout are nonblocking pipes polled with deadlines (no thread per
//! read; a bot that does not read cannot block `send` beyond
//! `Limits::write_timeout`). stderr is drained by one thread per bot into a
//! bounded tail (`Limits::max_stderr_kept`), counting the total. Output is
//! bytes; lines over `Limits::max_line_bytes` and frames over
//! `Limits::max_frame_bytes` are reported and skipped with bounded memory.
//! The referee must not die of SIGPIPE: Rust binaries ignore it by default, so
//! writing to a dead bot gives [`SendError::Closed`].
#![deny(unsafe_code)]

pub mod bot;
pub mod command;
pub mod containment;
pub mod doctor;
pub mod framing;
pub mod layers;
mod procfs;
pub mod reaper;
pub mod roundtrip;
mod stderr;

pub use bot::{
    precise_timers_for_this_thread, signal_cause, BotProcess, ExitInfo, FreezeMethod, LimitHit,
    MemoryEnforcement, MemoryEvidence, SendError, SignalCause, SpawnError, Termination, TOKEN_VAR,
};
pub use command::{BotCommand, CommandParseError};
pub use containment::{Containment, Layer, LayerStatus};
pub use framing::{FrameEvent, ReadEvent};
pub use layers::{ChildSetupError, SetupStep};
pub use limits::Limits;
pub use reaper::{install_subreaper, spawn_guarded};
pub use roundtrip::{measure_round_trip, RoundTripError, RoundTripStats};

pub mod limits;
