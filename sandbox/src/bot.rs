//! One running bot: spawn inside the containment layers, line and frame I/O
//! with deadlines, CPU time, freezing, and a precise account of how it ended.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{ppoll, PollFd, PollFlags};
use nix::sys::signal::Signal;
use nix::sys::time::TimeSpec;
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

use super::command::{BotCommand, ProgramProblem};
use super::containment::{Containment, Layer};
use super::framing::{FrameEvent, ReadEvent, StdoutBuffer};
use super::layers::cgroup::{BotCgroup, Enforced};
use super::layers::rlimits::RlimitPlan;
use super::layers::{self, ChildSetup, SetupStep};
use super::limits::Limits;
use super::procfs;
use super::reaper::{self, TreeMarks};
use super::stderr::StderrDrain;

/// The environment variable that marks every process of a bot's tree.
pub const TOKEN_VAR: &str = "ARBITER_BOT_TOKEN";

static SPAWN_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Why a bot could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// The program does not exist (or a script's interpreter does not).
    #[error("bot program not found: {program}")]
    NotFound { program: String },
    /// The program exists but cannot be executed (mode, directory, format).
    #[error("bot program not executable: {program}")]
    NotExecutable { program: String },
    /// A containment step failed in the child before exec.
    #[error("containment step {step:?} failed in the bot process: {}", Errno::from_raw(*errno))]
    Containment { step: SetupStep, errno: i32 },
    /// A containment layer could not be prepared (e.g. missing scratch dir).
    #[error("cannot prepare {layer}: {reason}")]
    Prepare { layer: &'static str, reason: String },
    /// Any other failure to create the process or its pipes.
    #[error("cannot start bot: {0}")]
    Io(#[from] io::Error),
}

impl SpawnError {
    /// "Failed to start" in the contest sense: the bot's own fault (missing or
    /// broken program) rather than the referee's.
    pub fn is_bot_fault(&self) -> bool {
        matches!(
            self,
            SpawnError::NotFound { .. } | SpawnError::NotExecutable { .. }
        )
    }
}

/// Why a write to the bot's stdin did not complete.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The bot did not read fast enough; `written` bytes went through.
    #[error("bot did not read its input in time ({written} bytes written)")]
    Timeout { written: usize },
    /// The bot closed its stdin (or exited), or the referee closed it.
    #[error("bot's stdin is closed")]
    Closed,
    /// Unexpected I/O error.
    #[error("write to bot failed: {0}")]
    Io(io::Error),
}

/// How the bot's main process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Termination {
    /// Exit code, when it exited.
    pub code: Option<i32>,
    /// Signal number, when a signal killed it.
    pub signal: Option<i32>,
    /// The kernel reported a core dump (never written: RLIMIT_CORE is 0).
    pub core_dumped: bool,
}

/// How the memory limit is enforced for this bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryEnforcement {
    /// No memory limit was asked for, or nothing could enforce it.
    None,
    /// A memory cgroup limits the whole tree; OOM kills are counted exactly.
    Cgroup,
    /// `RLIMIT_AS` per process: allocations fail inside the bot.
    AddressSpaceRlimit,
}

/// Why `memory_exceeded` was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryEvidence {
    /// Not exceeded (as far as can be told).
    None,
    /// The memory cgroup's `oom_kill` counter is non-zero.
    CgroupOomKill { kills: u64 },
    /// Kernel without an `oom_kill` counter: the limit was hit (failcnt / max
    /// events) and the bot died by SIGKILL.
    CgroupLimitThenSigkill,
    /// `RLIMIT_AS` only: the bot ended abnormally and its stderr tail shows a
    /// typical allocation-failure message (`Cannot allocate memory`,
    /// `MemoryError`, `std::bad_alloc`, `memory allocation of`, `out of memory`,
    /// `OutOfMemoryError`).
    AllocationFailureMessage,
}

/// Who ended the main process by a signal, as far as the referee can tell: it knows what it
/// killed and which limits it set; a fault or an abort is the program's own; the rest came from
/// somewhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalCause {
    /// [`BotProcess::finish`] killed it: it was still running when the referee ended it.
    Referee,
    /// The kernel, enforcing a limit the referee set.
    Limit(LimitHit),
    /// The program itself: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL), `abort()`, a trap, a
    /// timer it set, a write to a closed pipe.
    Itself,
    /// Nothing the referee did or set explains it: another process sent it (or the machine's
    /// own out-of-memory killer).
    Outside,
}

/// A limit whose enforcement ends a process by a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// The memory cgroup's out-of-memory kill (SIGKILL).
    Memory,
    /// `RLIMIT_CPU` (SIGXCPU, then SIGKILL).
    CpuTime,
    /// `RLIMIT_FSIZE` (SIGXFSZ).
    FileSize,
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitHit::Memory => "memory limit",
            LimitHit::CpuTime => "CPU time limit",
            LimitHit::FileSize => "file size limit",
        })
    }
}

/// Who sent `signal`, from what the referee knows at the end.
pub fn signal_cause(
    signal: i32,
    killed_by_referee: bool,
    memory: MemoryEvidence,
    cpu_time: Duration,
    cpu_backstop: Option<Duration>,
) -> SignalCause {
    if killed_by_referee {
        return SignalCause::Referee;
    }
    let cpu_limit_hit = cpu_backstop.is_some_and(|b| cpu_time >= b.max(Duration::from_secs(1)));
    match signal {
        libc::SIGKILL
            if matches!(
                memory,
                MemoryEvidence::CgroupOomKill { .. } | MemoryEvidence::CgroupLimitThenSigkill
            ) =>
        {
            SignalCause::Limit(LimitHit::Memory)
        }
        libc::SIGXCPU => SignalCause::Limit(LimitHit::CpuTime),
        libc::SIGKILL if cpu_limit_hit => SignalCause::Limit(LimitHit::CpuTime),
        libc::SIGXFSZ => SignalCause::Limit(LimitHit::FileSize),
        libc::SIGSEGV
        | libc::SIGBUS
        | libc::SIGFPE
        | libc::SIGILL
        | libc::SIGTRAP
        | libc::SIGABRT
        | libc::SIGSYS
        | libc::SIGPIPE
        | libc::SIGALRM
        | libc::SIGVTALRM
        | libc::SIGPROF
        | libc::SIGSTKFLT => SignalCause::Itself,
        _ => SignalCause::Outside,
    }
}

/// Everything known about a finished bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitInfo {
    /// Exit code of the main process, if it exited.
    pub code: Option<i32>,
    /// Signal that killed the main process, if any.
    pub signal: Option<i32>,
    /// The kernel reported a core dump.
    pub core_dumped: bool,
    /// The main process was still running when `finish` killed it.
    pub killed_by_referee: bool,
    /// Who sent `signal`, when a signal ended the main process.
    pub signal_cause: Option<SignalCause>,
    /// The bot died of (or hit) its memory limit; see `memory_evidence`.
    pub memory_exceeded: bool,
    /// How `memory_exceeded` was decided.
    pub memory_evidence: MemoryEvidence,
    /// How the memory limit was enforced.
    pub memory_enforcement: MemoryEnforcement,
    /// A fork or thread creation was refused by `pids.max`.
    pub task_limit_hit: bool,
    /// Peak memory of the tree (cgroup) when known.
    pub peak_memory_bytes: Option<u64>,
    /// CPU time of the whole tree (see [`BotProcess::cpu_time`]).
    pub cpu_time: Duration,
    /// Processes of the tree other than the main one that were still alive at
    /// the end and killed (escapees, forgotten children).
    pub leftover_processes_killed: usize,
    /// Processes that could not be killed (should be 0).
    pub survivors: usize,
    /// Total bytes written to stdout.
    pub stdout_total_bytes: u64,
    /// Total bytes written to stderr.
    pub stderr_total_bytes: u64,
}

/// How `freeze` stopped the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreezeMethod {
    /// cgroup freezer (v2 `cgroup.freeze` or v1 `freezer.state`): the whole
    /// tree, escapees included, atomically.
    Cgroup,
    /// SIGSTOP / SIGCONT to the process group and every found member.
    Signals,
}

/// A running (or finished) bot.
///
/// Dropping it kills the whole tree and cleans up, so no process outlives its
/// game even when the referee's own code returns early with an error.
#[derive(Debug)]
pub struct BotProcess {
    pid: i32,
    stdin: Option<OwnedFd>,
    stdout: OwnedFd,
    stdout_eof: bool,
    stdout_total: u64,
    out: StdoutBuffer,
    chunk: Vec<u8>,
    limits: Limits,
    stderr: StderrDrain,
    cgroup: Option<BotCgroup>,
    enforced: Enforced,
    memory_enforcement: MemoryEnforcement,
    marks: TreeMarks,
    termination: Option<Termination>,
    zombie_ticks: u64,
    cpu_high_water: Duration,
    frozen: Option<FreezeMethod>,
    warnings: Vec<String>,
    finished: Option<ExitInfo>,
    /// A pidfd of the main process: readable when it exits, so waiting for the exit wakes at
    /// once instead of polling (`None` before Linux 5.3).
    exit_fd: Option<OwnedFd>,
}

fn set_nonblocking(fd: BorrowedFd<'_>) -> nix::Result<()> {
    let flags = OFlag::from_bits_truncate(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK)).map(|_| ())
}

/// A pidfd for `pid` (Linux 5.3 and later), or `None`.
fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

/// Waits up to `timeout` for `fd` to become readable (a pidfd: the process exited).
fn wait_readable(fd: BorrowedFd<'_>, timeout: Duration) {
    let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
    let _ = ppoll(&mut fds, Some(TimeSpec::from_duration(timeout)), None);
}

fn pipe_inode(fd: BorrowedFd<'_>) -> Option<u64> {
    nix::sys::stat::fstat(fd).ok().map(|st| st.st_ino)
}

/// Waits for `fd` to become ready for `events` until `deadline`.
/// Returns false on timeout. Precision: ppoll takes nanoseconds; the wake-up is
/// late by the timer slack (50 us by default) plus scheduling latency, never
/// early.
fn wait_ready(fd: BorrowedFd<'_>, events: PollFlags, deadline: Instant) -> io::Result<bool> {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        let left = deadline - now;
        let mut fds = [PollFd::new(fd, events)];
        match ppoll(&mut fds, Some(TimeSpec::from_duration(left)), None) {
            Ok(0) => continue,
            Ok(_) => return Ok(true),
            Err(Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Lowers the calling thread's timer slack to 1 ns (`PR_SET_TIMERSLACK`), so
/// that deadline wake-ups are late only by scheduling latency instead of the
/// default 50 us slack. Per thread: call it on each thread that runs games.
pub fn precise_timers_for_this_thread() -> Result<(), String> {
    nix::sys::prctl::set_timerslack(1).map_err(|e| format!("PR_SET_TIMERSLACK failed: {e}"))
}

enum Fill {
    Data,
    Timeout,
    Eof,
}

impl BotProcess {
    /// Starts the bot inside every enabled containment layer.
    ///
    /// Degradation: a layer that fails while being set up for this bot (e.g.
    /// a cgroup that cannot be created) is recorded in [`BotProcess::warnings`]
    /// and the others still apply; a layer that fails inside the child before
    /// exec is a [`SpawnError::Containment`].
    pub fn spawn(
        command: &BotCommand,
        limits: &Limits,
        containment: &Containment,
    ) -> Result<BotProcess, SpawnError> {
        let mut warnings = Vec::new();
        if containment.enabled(Layer::Subreaper) {
            if let Err(e) = reaper::install_subreaper() {
                warnings.push(e);
            }
        }
        let program_name = command.program().to_string_lossy().into_owned();
        let program = command.resolve_program().map_err(|p| match p {
            ProgramProblem::NotFound => SpawnError::NotFound {
                program: program_name.clone(),
            },
            ProgramProblem::NotExecutable => SpawnError::NotExecutable {
                program: program_name.clone(),
            },
        })?;
        if let Some(dir) = &limits.scratch_dir {
            if !dir.is_dir() {
                return Err(SpawnError::Prepare {
                    layer: "scratch directory",
                    reason: format!("{} is not a directory", dir.display()),
                });
            }
        }

        let serial = SPAWN_COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let token = format!("{}-{serial}-{nanos}", std::process::id());

        // cgroups
        let (mut cgroup, cgroup_fds, enforced) = match containment.cgroup_support() {
            Some(support) => {
                let name = format!("arbiter-{}-{serial}", std::process::id());
                let (cg, fds, enforced) = BotCgroup::create(
                    &support,
                    &name,
                    limits.memory_bytes,
                    limits.max_tasks,
                    limits.cpu_core,
                    &mut warnings,
                );
                (Some(cg), fds, enforced)
            }
            None => (None, Vec::new(), Enforced::default()),
        };
        let memory_enforcement = match limits.memory_bytes {
            None => MemoryEnforcement::None,
            Some(_) if enforced.memory => MemoryEnforcement::Cgroup,
            Some(_) if limits.address_space_fallback && containment.enabled(Layer::Rlimits) => {
                MemoryEnforcement::AddressSpaceRlimit
            }
            Some(_) => {
                warnings.push("memory limit not enforced: no memory cgroup, no RLIMIT_AS".into());
                MemoryEnforcement::None
            }
        };
        let address_space = match memory_enforcement {
            MemoryEnforcement::AddressSpaceRlimit => limits.memory_bytes,
            _ => None,
        };
        let rlimits = if containment.enabled(Layer::Rlimits) {
            RlimitPlan::new(
                address_space,
                limits.max_file_bytes,
                limits.max_open_files,
                limits.cpu_time_backstop.map(|d| d.as_secs().max(1)),
            )
        } else {
            RlimitPlan::default()
        };
        let affinity = match (limits.cpu_core, containment.enabled(Layer::Affinity)) {
            (Some(core), true) if !containment.online_cpus().contains(&core) => {
                warnings.push(format!(
                    "affinity: cpu {core} is not among the referee's cpus {:?}; not pinned",
                    containment.online_cpus()
                ));
                None
            }
            (Some(core), true) => {
                let mut set = nix::sched::CpuSet::new();
                match set.set(core) {
                    Ok(()) => Some(set),
                    Err(e) => {
                        warnings.push(format!("affinity: cannot pin to cpu {core}: {e}"));
                        None
                    }
                }
            }
            _ => None,
        };
        let cleanup_on_error = |cg: &mut Option<BotCgroup>| {
            if let Some(cg) = cg {
                cg.remove(&mut Vec::new());
            }
        };
        let landlock = if containment.enabled(Layer::Landlock) {
            match layers::landlock::build(limits.scratch_dir.as_deref(), limits.allow_network) {
                Ok(r) => Some(r),
                Err(e) => {
                    cleanup_on_error(&mut cgroup);
                    return Err(SpawnError::Prepare {
                        layer: "landlock",
                        reason: e.to_string(),
                    });
                }
            }
        } else {
            None
        };
        let seccomp = if containment.enabled(Layer::Seccomp) {
            match layers::seccomp::build(limits.allow_network) {
                Ok(p) => Some(p),
                Err(e) => {
                    cleanup_on_error(&mut cgroup);
                    return Err(SpawnError::Prepare {
                        layer: "seccomp",
                        reason: e.to_string(),
                    });
                }
            }
        } else {
            None
        };

        // See `TreeMarks::contained`.
        let contained = !cgroup_fds.is_empty() && landlock.is_some() && seccomp.is_some();
        let mut cmd = Command::new(&program);
        cmd.arg0(command.program());
        cmd.args(command.argv.iter().skip(1));
        if let Some(dir) = &command.working_dir {
            cmd.current_dir(dir);
        }
        if let Some(dir) = &limits.scratch_dir {
            // Temporary files can only be written there. Absolute: the bot may start in
            // another directory, where a relative path would name nothing (or something else).
            cmd.env(
                "TMPDIR",
                std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
            );
        }
        for (k, v) in &command.env {
            cmd.env(k, v);
        }
        cmd.env(TOKEN_VAR, &token);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        ChildSetup {
            new_session: containment.enabled(Layer::ProcessGroup),
            parent_death_signal: limits.die_with_spawning_thread
                && containment.enabled(Layer::ParentDeathSignal),
            cgroup_procs: cgroup_fds,
            affinity,
            rlimits,
            landlock,
            seccomp,
        }
        .install(&mut cmd);

        let spawned = {
            let _gate = reaper::spawn_guard();
            cmd.spawn()
        };
        drop(cmd); // closes the parent's copies of cgroup fds and ruleset
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                cleanup_on_error(&mut cgroup);
                return Err(match (layers::decode(&e), e.raw_os_error()) {
                    (Some(s), _) => SpawnError::Containment {
                        step: s.step,
                        errno: s.errno,
                    },
                    (None, Some(libc::ENOENT)) => SpawnError::NotFound {
                        program: program_name,
                    },
                    (None, Some(libc::EACCES | libc::ENOEXEC | libc::EISDIR)) => {
                        SpawnError::NotExecutable {
                            program: program_name,
                        }
                    }
                    _ => SpawnError::Io(e),
                });
            }
        };
        let pid = child.id() as i32;
        let marks_pipes = |a: Option<u64>, b: Option<u64>, c: Option<u64>| {
            [a, b, c].into_iter().flatten().collect::<Vec<u64>>()
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            // Cannot happen with Stdio::piped(); still, never leak the child.
            let marks = TreeMarks {
                root: pid,
                root_unreaped: true,
                env_entry: format!("{TOKEN_VAR}={token}").into_bytes(),
                pipe_inodes: Vec::new(),
                contained: false,
            };
            reaper::sweep(&marks, cgroup.as_ref(), Duration::from_secs(2));
            let _ = child.wait();
            cleanup_on_error(&mut cgroup);
            return Err(SpawnError::Io(io::Error::other("child pipes missing")));
        };
        let stdin = OwnedFd::from(stdin);
        let stdout = OwnedFd::from(stdout);
        let stderr = OwnedFd::from(stderr);
        let pipe_inodes = marks_pipes(
            pipe_inode(stdin.as_fd()),
            pipe_inode(stdout.as_fd()),
            pipe_inode(stderr.as_fd()),
        );
        let marks = TreeMarks {
            root: pid,
            root_unreaped: true,
            env_entry: format!("{TOKEN_VAR}={token}").into_bytes(),
            pipe_inodes,
            contained,
        };
        for fd in [stdin.as_fd(), stdout.as_fd()] {
            if let Err(e) = set_nonblocking(fd) {
                warnings.push(format!("cannot make a pipe nonblocking: {e}"));
            }
        }
        let stderr = match StderrDrain::start(stderr, limits.max_stderr_kept) {
            Ok(s) => s,
            Err(e) => {
                reaper::sweep(&marks, cgroup.as_ref(), Duration::from_secs(2));
                let _ = child.wait();
                cleanup_on_error(&mut cgroup);
                return Err(SpawnError::Io(e));
            }
        };
        Ok(BotProcess {
            pid,
            stdin: Some(stdin),
            stdout,
            stdout_eof: false,
            stdout_total: 0,
            out: StdoutBuffer::new(limits.max_line_bytes, limits.max_frame_bytes),
            chunk: vec![0u8; 64 * 1024],
            limits: limits.clone(),
            stderr,
            cgroup,
            enforced,
            memory_enforcement,
            marks,
            termination: None,
            zombie_ticks: 0,
            cpu_high_water: Duration::ZERO,
            frozen: None,
            warnings,
            finished: None,
            exit_fd: pidfd_open(pid),
        })
    }

    /// The main process id (also the process group and session id).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Layers that degraded while spawning this bot.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// How the memory limit is enforced.
    pub fn memory_enforcement(&self) -> MemoryEnforcement {
        self.memory_enforcement
    }

    /// The bot's cgroup directories (empty without cgroups, and after `finish`
    /// removed them).
    pub fn cgroup_dirs(&self) -> Vec<std::path::PathBuf> {
        self.cgroup
            .as_ref()
            .map(BotCgroup::dirs)
            .unwrap_or_default()
    }

    /// Whether a pids cgroup bounds the number of tasks.
    pub fn task_limit_enforced(&self) -> bool {
        self.enforced.tasks
    }

    /// Whether a cpuset cgroup pins the bot (unescapable).
    pub fn cpuset_enforced(&self) -> bool {
        self.enforced.cpuset
    }

    /// Writes all bytes, waiting at most `Limits::write_timeout`.
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), SendError> {
        let deadline = Instant::now() + self.limits.write_timeout;
        self.send_until(bytes, deadline)
    }

    /// Writes `line` plus LF.
    pub fn send_line(&mut self, line: &str) -> Result<(), SendError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.send(&bytes)
    }

    /// Writes a 4-byte big-endian length then `body` (Saiblo framing).
    pub fn send_frame(&mut self, body: &[u8]) -> Result<(), SendError> {
        let len = u32::try_from(body.len())
            .map_err(|_| SendError::Io(io::Error::other("frame longer than 4 GiB")))?;
        let mut bytes = Vec::with_capacity(body.len() + 4);
        bytes.extend_from_slice(&len.to_be_bytes());
        bytes.extend_from_slice(body);
        self.send(&bytes)
    }

    /// Writes all bytes with nonblocking writes, polling until `deadline`.
    /// On timeout the stream is left with a partial message: treat the bot
    /// as failed.
    pub fn send_until(&mut self, bytes: &[u8], deadline: Instant) -> Result<(), SendError> {
        let Some(stdin) = &self.stdin else {
            return Err(SendError::Closed);
        };
        let mut written = 0;
        while written < bytes.len() {
            match nix::unistd::write(stdin, &bytes[written..]) {
                Ok(n) => written += n,
                Err(Errno::EINTR) => {}
                Err(Errno::EAGAIN) => {
                    match wait_ready(stdin.as_fd(), PollFlags::POLLOUT, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Err(SendError::Timeout { written }),
                        Err(e) => return Err(SendError::Io(e)),
                    }
                }
                Err(Errno::EPIPE) => return Err(SendError::Closed),
                Err(e) => return Err(SendError::Io(e.into())),
            }
        }
        Ok(())
    }

    /// Closes the bot's stdin (it sees end of file).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn fill(&mut self, deadline: Instant) -> Fill {
        loop {
            match nix::unistd::read(&self.stdout, &mut self.chunk) {
                Ok(0) => return Fill::Eof,
                Ok(n) => {
                    self.stdout_total += n as u64;
                    self.out.push(self.chunk.get(..n).unwrap_or(&[]));
                    return Fill::Data;
                }
                Err(Errno::EINTR) => continue,
                Err(Errno::EAGAIN) => {}
                Err(e) => {
                    self.warnings
                        .push(format!("read from bot stdout failed: {e}"));
                    return Fill::Eof;
                }
            }
            match wait_ready(self.stdout.as_fd(), PollFlags::POLLIN, deadline) {
                Ok(true) => {}
                Ok(false) => return Fill::Timeout,
                Err(e) => {
                    self.warnings
                        .push(format!("poll on bot stdout failed: {e}"));
                    return Fill::Eof;
                }
            }
        }
    }

    /// Next line from stdout, waiting until `deadline` at most.
    ///
    /// Lines end with LF, CR LF or CR (a CR line is delivered at once; a LF
    /// right after it is then skipped). An unterminated last line is delivered
    /// at end of file, then `Closed`. Lines already buffered are returned even
    /// if the deadline has passed. Precision (`ppoll`, nanosecond timeout): the call
    /// returns `Timeout` no earlier than `deadline` and typically within
    /// 0.1 ms after it on an idle machine (a few ms on a loaded one).
    pub fn read_line(&mut self, deadline: Instant) -> ReadEvent {
        loop {
            if let Some(event) = self.out.next_line() {
                return event;
            }
            if self.stdout_eof {
                return self.out.line_at_eof();
            }
            if self.stdout_total > self.limits.max_output_bytes {
                return ReadEvent::OutputLimit;
            }
            match self.fill(deadline) {
                Fill::Data => {}
                Fill::Timeout => return ReadEvent::Timeout,
                Fill::Eof => self.stdout_eof = true,
            }
        }
    }

    /// Next length-prefixed frame (4-byte big-endian length, then the body).
    pub fn read_frame(&mut self, deadline: Instant) -> FrameEvent {
        loop {
            if let Some(event) = self.out.next_frame() {
                return event;
            }
            if self.stdout_eof {
                return self.out.frame_at_eof();
            }
            if self.stdout_total > self.limits.max_output_bytes {
                return FrameEvent::OutputLimit;
            }
            match self.fill(deadline) {
                Fill::Data => {}
                Fill::Timeout => return FrameEvent::Timeout,
                Fill::Eof => self.stdout_eof = true,
            }
        }
    }

    /// Total bytes read from stdout so far.
    pub fn stdout_total_bytes(&self) -> u64 {
        self.stdout_total
    }

    /// The newest `Limits::max_stderr_kept` bytes of stderr.
    pub fn stderr_tail(&self) -> Vec<u8> {
        self.stderr.tail()
    }

    /// Bytes written to stderr so far.
    pub fn stderr_total_bytes(&self) -> u64 {
        self.stderr.total()
    }

    /// CPU time (user + system) used by the whole tree so far; never decreases.
    ///
    /// Sources, best first: the cgroup (`cpuacct.usage` in ns on v1,
    /// `cpu.stat usage_usec` on v2: counts every process that ever ran in the
    /// group, escapees included); else `/proc/<pid>/stat` of the live tree plus
    /// the times of waited-for children, in clock ticks (10 ms); after the
    /// main process exited, its zombie's final times.
    pub fn cpu_time(&mut self) -> Duration {
        let now = match self.cgroup.as_ref().and_then(BotCgroup::cpu_time) {
            Some(t) => t,
            None => {
                let ticks = reaper::tree_cpu_ticks(&self.marks_clone()) + self.zombie_ticks;
                procfs::ticks_to_duration(ticks)
            }
        };
        self.cpu_high_water = self.cpu_high_water.max(now);
        self.cpu_high_water
    }

    fn marks_clone(&self) -> TreeMarks {
        TreeMarks {
            root: self.marks.root,
            root_unreaped: self.termination.is_none(),
            env_entry: self.marks.env_entry.clone(),
            pipe_inodes: self.marks.pipe_inodes.clone(),
            contained: self.marks.contained,
        }
    }

    /// Stops the whole tree (between turns, `--no-ponder`). Waits until the
    /// cgroup freezer reports it frozen (at most 1 s, then falls back to
    /// signals).
    pub fn freeze(&mut self) -> FreezeMethod {
        if let Some(cg) = &self.cgroup {
            match cg.set_frozen(true, Duration::from_secs(1)) {
                Ok(true) => {
                    self.frozen = Some(FreezeMethod::Cgroup);
                    return FreezeMethod::Cgroup;
                }
                Ok(false) => {}
                Err(e) => self
                    .warnings
                    .push(format!("cgroup freeze failed: {e}; using SIGSTOP")),
            }
        }
        reaper::signal_tree(&self.marks_clone(), self.cgroup.as_ref(), Signal::SIGSTOP);
        self.frozen = Some(FreezeMethod::Signals);
        FreezeMethod::Signals
    }

    /// Resumes a frozen tree.
    pub fn thaw(&mut self) {
        match self.frozen.take() {
            Some(FreezeMethod::Cgroup) => {
                if let Some(cg) = &self.cgroup {
                    if let Err(e) = cg.set_frozen(false, Duration::from_secs(1)) {
                        self.warnings.push(format!("cgroup thaw failed: {e}"));
                    }
                }
            }
            Some(FreezeMethod::Signals) => {
                reaper::signal_tree(&self.marks_clone(), self.cgroup.as_ref(), Signal::SIGCONT);
            }
            None => {}
        }
    }

    /// Has the main process ended? Reaps it once; later calls return the same
    /// answer. Its final CPU times are captured from the zombie first.
    pub fn try_wait(&mut self) -> Option<Termination> {
        if self.termination.is_some() {
            return self.termination;
        }
        let pid = Pid::from_raw(self.pid);
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(Id::Pid(pid), flags) {
            Ok(WaitStatus::StillAlive) => return None,
            Ok(_) => {}
            Err(Errno::EINTR) => return None,
            Err(_) => {
                // ECHILD: someone else reaped it; we cannot know how it ended.
                self.termination = Some(Termination {
                    code: None,
                    signal: None,
                    core_dumped: false,
                });
                return self.termination;
            }
        }
        if let Some(stat) = procfs::read_stat(self.pid) {
            self.zombie_ticks = stat.own_ticks + stat.children_ticks;
        }
        let term = match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::Exited(_, code)) => Termination {
                code: Some(code),
                signal: None,
                core_dumped: false,
            },
            Ok(WaitStatus::Signaled(_, sig, core)) => Termination {
                code: None,
                signal: Some(sig as i32),
                core_dumped: core,
            },
            Ok(_) => return None,
            Err(_) => Termination {
                code: None,
                signal: None,
                core_dumped: false,
            },
        };
        self.termination = Some(term);
        self.termination
    }

    fn wait_exit(&mut self, budget: Duration) -> Option<Termination> {
        self.wait_for_exit(Instant::now() + budget)
    }

    /// Waits until the main process exits or `deadline` passes; returns how it ended, if it
    /// did. Wakes as soon as it exits (pidfd), else polls.
    pub fn wait_for_exit(&mut self, deadline: Instant) -> Option<Termination> {
        let mut pause = Duration::from_micros(100);
        loop {
            if let Some(t) = self.try_wait() {
                return Some(t);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            match &self.exit_fd {
                Some(fd) => wait_readable(fd.as_fd(), left.min(Duration::from_millis(50))),
                None => {
                    std::thread::sleep(pause.min(left));
                    pause = (pause * 2).min(Duration::from_millis(10));
                }
            }
        }
    }

    /// Kills the whole tree now (cgroup kill, process group, sweep for
    /// escapees) and reaps the main process. Returns the number of processes
    /// sent SIGKILL by the sweep.
    pub fn kill_tree(&mut self) -> usize {
        let report = reaper::sweep(
            &self.marks_clone(),
            self.cgroup.as_ref(),
            Duration::from_secs(5),
        );
        if report.survivors > 0 {
            self.warnings
                .push(format!("{} processes survived SIGKILL", report.survivors));
        }
        self.wait_exit(Duration::from_secs(5));
        report.killed
    }

    /// Ends the bot: closes its stdin, lets it exit by itself for up to `grace`,
    /// then kills whatever remains of the tree, reads the final accounting
    /// (CPU, memory, OOM and task-limit counters), removes the cgroups and
    /// stops the stderr thread. Idempotent.
    pub fn finish(&mut self, grace: Duration) -> ExitInfo {
        if let Some(info) = &self.finished {
            return info.clone();
        }
        if self.frozen.is_some() {
            self.thaw();
        }
        self.stdin = None;
        self.wait_exit(grace);
        let was_running = self.termination.is_none();
        let report = reaper::sweep(
            &self.marks_clone(),
            self.cgroup.as_ref(),
            Duration::from_secs(5),
        );
        let term = self
            .wait_exit(Duration::from_secs(5))
            .unwrap_or(Termination {
                code: None,
                signal: None,
                core_dumped: false,
            });
        let cpu_time = self.cpu_time();
        let cg = self.cgroup.as_ref();
        let oom_kills = cg.and_then(BotCgroup::oom_kills);
        let limit_hits = cg.and_then(BotCgroup::memory_limit_hits);
        let peak = cg.and_then(BotCgroup::peak_memory);
        let task_hits = cg.and_then(BotCgroup::task_limit_hits).unwrap_or(0);
        self.stderr.stop();
        let tail = self.stderr.tail();
        let abnormal = term.signal.is_some() || term.code.is_some_and(|c| c != 0);
        let evidence = match self.memory_enforcement {
            MemoryEnforcement::Cgroup => match (oom_kills, limit_hits) {
                (Some(k), _) if k > 0 => MemoryEvidence::CgroupOomKill { kills: k },
                (None, Some(h)) if h > 0 && term.signal == Some(libc::SIGKILL) && !was_running => {
                    MemoryEvidence::CgroupLimitThenSigkill
                }
                _ => MemoryEvidence::None,
            },
            MemoryEnforcement::AddressSpaceRlimit if abnormal && allocation_failure(&tail) => {
                MemoryEvidence::AllocationFailureMessage
            }
            _ => MemoryEvidence::None,
        };
        let mut warnings = Vec::new();
        if let Some(cg) = &mut self.cgroup {
            cg.remove(&mut warnings);
        }
        self.warnings.extend(warnings);
        let leftovers = report.killed.saturating_sub(usize::from(was_running));
        let info = ExitInfo {
            code: term.code,
            signal: term.signal,
            core_dumped: term.core_dumped,
            killed_by_referee: was_running,
            signal_cause: term.signal.map(|signal| {
                signal_cause(
                    signal,
                    was_running,
                    evidence,
                    cpu_time,
                    self.limits.cpu_time_backstop,
                )
            }),
            memory_exceeded: evidence != MemoryEvidence::None,
            memory_evidence: evidence,
            memory_enforcement: self.memory_enforcement,
            task_limit_hit: task_hits > 0,
            peak_memory_bytes: peak,
            cpu_time,
            leftover_processes_killed: leftovers,
            survivors: report.survivors,
            stdout_total_bytes: self.stdout_total,
            stderr_total_bytes: self.stderr.total(),
        };
        self.finished = Some(info.clone());
        info
    }
}

/// Typical messages of an allocation failure under `RLIMIT_AS`.
fn allocation_failure(stderr_tail: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 6] = [
        b"Cannot allocate memory",
        b"MemoryError",
        b"std::bad_alloc",
        b"memory allocation of",
        b"out of memory",
        b"OutOfMemoryError",
    ];
    PATTERNS.iter().any(|p| {
        stderr_tail
            .windows(p.len())
            .any(|w| w.eq_ignore_ascii_case(p))
    })
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.finished.is_none() {
            self.finish(Duration::ZERO);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_can_move_between_threads() {
        fn assert_send<T: Send>() {}
        assert_send::<BotProcess>();
        assert_send::<ExitInfo>();
    }

    #[test]
    fn who_sent_the_signal() {
        let none = MemoryEvidence::None;
        let oom = MemoryEvidence::CgroupOomKill { kills: 1 };
        let t = Duration::from_secs(3);
        let cause =
            |sig, by_referee, mem, backstop| signal_cause(sig, by_referee, mem, t, backstop);
        assert_eq!(cause(libc::SIGKILL, true, none, None), SignalCause::Referee);
        assert_eq!(
            cause(libc::SIGKILL, false, oom, None),
            SignalCause::Limit(LimitHit::Memory)
        );
        assert_eq!(
            cause(libc::SIGKILL, false, none, None),
            SignalCause::Outside
        );
        assert_eq!(
            cause(libc::SIGTERM, false, none, None),
            SignalCause::Outside
        );
        let backstop = Some(Duration::from_secs(2));
        assert_eq!(
            cause(libc::SIGKILL, false, none, backstop),
            SignalCause::Limit(LimitHit::CpuTime)
        );
        assert_eq!(
            cause(libc::SIGXCPU, false, none, None),
            SignalCause::Limit(LimitHit::CpuTime)
        );
        assert_eq!(
            cause(libc::SIGXFSZ, false, none, None),
            SignalCause::Limit(LimitHit::FileSize)
        );
        assert_eq!(cause(libc::SIGSEGV, false, none, None), SignalCause::Itself);
        assert_eq!(cause(libc::SIGABRT, false, oom, None), SignalCause::Itself);
    }

    #[test]
    fn allocation_failure_patterns() {
        assert!(allocation_failure(b"malloc: Cannot allocate memory\n"));
        assert!(allocation_failure(b"Traceback...\nMemoryError\n"));
        assert!(allocation_failure(
            b"memory allocation of 1024 bytes failed"
        ));
        assert!(!allocation_failure(b"segfault"));
    }
}
