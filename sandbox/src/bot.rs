//! One running bot: spawn inside the containment layers, line and frame I/O
//! with deadlines, CPU time, freezing, and a precise account of how it ended.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
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
    /// The jail could not be built, or the bot not started in it.
    #[error("the sandbox could not start the bot: {0}")]
    Jail(crate::layers::jail::JailError),
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
    /// The CPU readings' walk of the tree without cgroups (its files kept open).
    tree_walk: reaper::TreeWalk,
    cpu_high_water: Duration,
    frozen: Option<FreezeMethod>,
    warnings: Vec<String>,
    finished: Option<ExitInfo>,
    /// A pidfd of the main process: readable when it exits, so waiting for the exit wakes at
    /// once instead of polling (`None` before Linux 5.3).
    exit_fd: Option<OwnedFd>,
    /// In a jail, `pid` is the namespace's keeper and the bot's own end comes from it.
    jail: Option<JailedKeeper>,
    /// The bot program's pid in a jail, once found.
    program_pid: Option<i32>,
}

/// The keeper of a jailed bot, as [`BotProcess`] follows it.
#[derive(Debug)]
struct JailedKeeper {
    /// The bot's wait status (4 bytes) once it ended; end of file if the keeper died first.
    status: OwnedFd,
    /// The keeper itself was waited for.
    reaped: bool,
}

/// A process started by either path, before the referee's bookkeeping.
struct Started {
    pid: i32,
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
    jail_status: Option<OwnedFd>,
    contained: bool,
}

/// The environment every bot gets, jailed or not: nothing inherited but PATH.
fn base_environment(
    scratch: Option<&std::path::Path>,
) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    let mut env = vec![(
        "PATH".into(),
        std::env::var_os("PATH").unwrap_or_else(|| layers::jail::JAIL_PATH.into()),
    )];
    if let Some(dir) = scratch {
        env.push(("HOME".into(), dir.as_os_str().to_owned()));
        env.push(("TMPDIR".into(), dir.as_os_str().to_owned()));
    }
    env.push(("LANG".into(), "C.UTF-8".into()));
    env
}

/// Starts the bot with `std::process::Command` (no jail): the layers in `pre_exec`.
fn spawn_plain(
    program: &std::path::Path,
    command: &BotCommand,
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    scratch: Option<&std::path::Path>,
    setup: ChildSetup,
) -> io::Result<(i32, OwnedFd, OwnedFd, OwnedFd)> {
    let mut cmd = Command::new(program);
    cmd.arg0(command.program());
    cmd.args(command.argv.iter().skip(1));
    if let Some(dir) = &command.working_dir {
        cmd.current_dir(dir);
    }
    cmd.env_clear();
    cmd.envs(base_environment(scratch));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    setup.install(&mut cmd);
    let spawned = {
        let _gate = reaper::spawn_guard();
        cmd.spawn()
    };
    drop(cmd); // closes the parent's copies of cgroup fds and ruleset
    let mut child = spawned?;
    let pid = child.id() as i32;
    match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
        (Some(i), Some(o), Some(e)) => Ok((pid, i.into(), o.into(), e.into())),
        _ => {
            // Cannot happen with Stdio::piped(); still, never leak the child.
            let _ = child.kill();
            let _ = child.wait();
            Err(io::Error::other("child pipes missing"))
        }
    }
}

/// A failed plain spawn in the words of [`SpawnError`].
fn plain_failure(e: io::Error, program: String) -> SpawnError {
    match (layers::decode(&e), e.raw_os_error()) {
        (Some(s), _) => SpawnError::Containment {
            step: s.step,
            errno: s.errno,
        },
        (None, Some(libc::ENOENT)) => SpawnError::NotFound { program },
        (None, Some(libc::EACCES | libc::ENOEXEC | libc::EISDIR)) => {
            SpawnError::NotExecutable { program }
        }
        _ => SpawnError::Io(e),
    }
}

/// A failed jailed spawn in the words of [`SpawnError`].
fn jail_failure(failure: layers::jail::SpawnFailure, program: &str) -> SpawnError {
    use layers::jail::{JailStage, SpawnFailure};
    match failure {
        SpawnFailure::Io(e) => SpawnError::Io(e),
        SpawnFailure::Jail(e) if e.stage == JailStage::Exec => match e.errno {
            libc::ENOENT => SpawnError::NotFound {
                program: program.to_owned(),
            },
            libc::EACCES | libc::ENOEXEC | libc::EISDIR => SpawnError::NotExecutable {
                program: program.to_owned(),
            },
            _ => SpawnError::Jail(e),
        },
        SpawnFailure::Jail(e) => SpawnError::Jail(e),
    }
}

/// What a jail is made of for one bot.
struct JailPlanInput<'a> {
    support: &'a layers::jail::JailSupport,
    program: &'a std::path::Path,
    command: &'a BotCommand,
    env: &'a [(std::ffi::OsString, std::ffi::OsString)],
    scratch: PathBuf,
    limits: &'a Limits,
    landlock_abi: u32,
}

impl JailPlanInput<'_> {
    fn setup(
        &self,
        cgroup_procs: Vec<OwnedFd>,
        affinity: Option<nix::sched::CpuSet>,
        rlimits: RlimitPlan,
        seccomp: Option<layers::seccomp::SeccompPlan>,
    ) -> Result<layers::jail::JailSetup, String> {
        use layers::jail::{c_string, environment, JailRequest, JailSetup, RootPlan};
        let scratch = &self.scratch;
        // Its own files; what lies in the scratch is the scratch's.
        let mut visible: Vec<PathBuf> = self.command.visible.clone();
        if let Some(dir) = &self.command.working_dir {
            visible.push(dir.clone());
        }
        visible.push(self.program.to_path_buf());
        if self.limits.scratch_dir.is_some() {
            visible.retain(|p| !std::path::absolute(p).is_ok_and(|p| p.starts_with(scratch)));
        }
        let cwd = self
            .command
            .working_dir
            .clone()
            .unwrap_or_else(|| scratch.clone());
        let cwd = std::path::absolute(&cwd).unwrap_or(cwd);
        let request = JailRequest {
            scratch,
            scratch_bytes: self.limits.scratch_bytes,
            visible: &visible,
            cwd: &cwd,
        };
        if self.limits.scratch_bytes.is_none() && self.limits.scratch_dir.is_none() {
            // A bound scratch is a host directory made writable for the bot: never the host's
            // own /tmp, which the default scratch would be.
            return Err(
                "a scratch without a quota (scratch_bytes None) needs a scratch_dir of its own"
                    .into(),
            );
        }
        if self.limits.scratch_bytes.is_none() && !self.support.user_namespace {
            // A bound build directory must be the bot's own to write in.
            std::os::unix::fs::chown(scratch, Some(self.support.uid), Some(self.support.gid))
                .map_err(|e| {
                    format!("cannot give {} to the sandbox user: {e}", scratch.display())
                })?;
        }
        let root = RootPlan::new(self.support, &request)?;
        let landlock = layers::landlock::JailLandlock::new(
            self.landlock_abi,
            scratch,
            self.limits.allow_network,
        )?;
        let mut argv = vec![c_string(self.command.program())?];
        for arg in self.command.argv.iter().skip(1) {
            argv.push(c_string(arg)?);
        }
        if argv.len() > 255 {
            return Err(format!("{} arguments: at most 255", argv.len()));
        }
        let env = environment(scratch, self.env)?;
        if env.len() > 127 {
            return Err(format!("{} environment variables: at most 127", env.len()));
        }
        let ids = (self.support.uid, self.support.gid);
        let network = layers::jail::fresh_network(!self.support.user_namespace);
        Ok(JailSetup {
            root,
            user_namespace: self.support.user_namespace.then_some(ids),
            drop_to: (!self.support.user_namespace).then_some(ids),
            cgroup_procs,
            parent_death_signal: self.limits.die_with_spawning_thread,
            affinity,
            rlimits,
            landlock,
            seccomp,
            program: c_string(self.program.as_os_str())?,
            argv,
            env,
            title: layers::jail::own_title(),
            network,
        })
    }
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
        let jail = containment.jail_support().cloned();
        let mut command = command.clone();
        if jail.is_some() && !command.env.iter().any(|(k, _)| k == "PATH") {
            // Found as the bot will find it: in the jail's system directories.
            command
                .env
                .insert(0, ("PATH".into(), layers::jail::JAIL_PATH.into()));
        }
        let command = &command;
        let program_name = command.program().to_string_lossy().into_owned();
        let program = command.resolve_program().map_err(|p| match p {
            ProgramProblem::NotFound => SpawnError::NotFound {
                program: program_name.clone(),
            },
            ProgramProblem::NotExecutable => SpawnError::NotExecutable {
                program: program_name.clone(),
            },
        })?;
        if let Some(dir) = limits
            .scratch_dir
            .as_ref()
            .filter(|_| jail.is_none() || limits.scratch_bytes.is_none())
        {
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
        let prepare_failed = |cg: &mut Option<BotCgroup>, layer, reason: String| {
            cleanup_on_error(cg);
            SpawnError::Prepare { layer, reason }
        };
        let seccomp = if containment.enabled(Layer::Seccomp) {
            match layers::seccomp::build(limits.allow_network) {
                Ok(p) => Some(p),
                Err(e) => return Err(prepare_failed(&mut cgroup, "seccomp", e.to_string())),
            }
        } else {
            None
        };
        let serial_env = (TOKEN_VAR.into(), token.clone().into());
        let mut env = command.env.clone();
        env.push(serial_env);
        let scratch = limits
            .scratch_dir
            .as_ref()
            .map(|d| std::path::absolute(d).unwrap_or_else(|_| d.clone()));
        let started = match &jail {
            Some(support) => {
                let landlock_on = containment.enabled(Layer::Landlock);
                let request = JailPlanInput {
                    support,
                    program: &program,
                    command,
                    env: &env,
                    scratch: scratch.clone().unwrap_or_else(|| PathBuf::from("/tmp")),
                    limits,
                    landlock_abi: if landlock_on {
                        containment.landlock_abi
                    } else {
                        0
                    },
                };
                let setup = match request.setup(cgroup_fds, affinity, rlimits, seccomp) {
                    Ok(s) => s,
                    Err(e) => return Err(prepare_failed(&mut cgroup, "the jail", e)),
                };
                let contained = !setup.cgroup_procs.is_empty()
                    && setup.landlock.is_some()
                    && setup.seccomp.is_some();
                match layers::jail::spawn(&setup) {
                    Ok(child) => Started {
                        pid: child.pid,
                        stdin: child.stdin,
                        stdout: child.stdout,
                        stderr: child.stderr,
                        jail_status: Some(child.status),
                        contained,
                    },
                    Err(failure) => {
                        cleanup_on_error(&mut cgroup);
                        return Err(jail_failure(failure, &program_name));
                    }
                }
            }
            None => {
                let landlock = if containment.enabled(Layer::Landlock) {
                    match layers::landlock::build(scratch.as_deref(), limits.allow_network) {
                        Ok(r) => Some(r),
                        Err(e) => {
                            return Err(prepare_failed(&mut cgroup, "landlock", e.to_string()))
                        }
                    }
                } else {
                    None
                };
                // See `TreeMarks::contained`.
                let contained = !cgroup_fds.is_empty() && landlock.is_some() && seccomp.is_some();
                let setup = ChildSetup {
                    new_session: containment.enabled(Layer::ProcessGroup),
                    parent_death_signal: limits.die_with_spawning_thread
                        && containment.enabled(Layer::ParentDeathSignal),
                    cgroup_procs: cgroup_fds,
                    affinity,
                    rlimits,
                    landlock,
                    seccomp,
                };
                match spawn_plain(&program, command, &env, scratch.as_deref(), setup) {
                    Ok((pid, stdin, stdout, stderr)) => Started {
                        pid,
                        stdin,
                        stdout,
                        stderr,
                        jail_status: None,
                        contained,
                    },
                    Err(e) => {
                        cleanup_on_error(&mut cgroup);
                        return Err(plain_failure(e, program_name));
                    }
                }
            }
        };
        let Started {
            pid,
            stdin,
            stdout,
            stderr,
            jail_status,
            contained,
        } = started;
        let pipe_inodes = [
            pipe_inode(stdin.as_fd()),
            pipe_inode(stdout.as_fd()),
            pipe_inode(stderr.as_fd()),
        ]
        .into_iter()
        .flatten()
        .collect();
        let marks = TreeMarks {
            root: pid,
            root_unreaped: true,
            env_entry: format!("{TOKEN_VAR}={token}").into_bytes(),
            pipe_inodes,
            contained,
            jailed: jail_status.is_some(),
        };
        for fd in [stdin.as_fd(), stdout.as_fd()] {
            if let Err(e) = set_nonblocking(fd) {
                warnings.push(format!("cannot make a pipe nonblocking: {e}"));
            }
        }
        if let Some(fd) = &jail_status {
            if let Err(e) = set_nonblocking(fd.as_fd()) {
                warnings.push(format!("cannot make the status pipe nonblocking: {e}"));
            }
        }
        let stderr = match StderrDrain::start(stderr, limits.max_stderr_kept) {
            Ok(s) => s,
            Err(e) => {
                reaper::sweep(&marks, cgroup.as_ref(), Duration::from_secs(2));
                let _ = waitpid(Pid::from_raw(pid), None);
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
            tree_walk: reaper::TreeWalk::default(),
            cpu_high_water: Duration::ZERO,
            frozen: None,
            warnings,
            finished: None,
            exit_fd: pidfd_open(pid),
            jail: jail_status.map(|status| JailedKeeper {
                status,
                reaped: false,
            }),
            program_pid: None,
        })
    }

    /// The bot program's own pid, as the referee sees it: in a jail, the keeper's child
    /// (the bot is pid 2 of its namespace); else [`BotProcess::pid`]. For per-process readings
    /// such as `/proc/PID/schedstat`.
    pub fn program_pid(&mut self) -> i32 {
        if self.jail.is_none() {
            return self.pid;
        }
        if let Some(pid) = self.program_pid {
            return pid;
        }
        let children = std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", self.pid));
        let found = children
            .ok()
            .and_then(|c| c.split_whitespace().next().and_then(|p| p.parse().ok()));
        self.program_pid = found;
        found.unwrap_or(self.pid)
    }

    /// The main process id (also the process group and session id); in a jail, the keeper's.
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
                let marks = self.marks_clone();
                let ticks = self.tree_walk.cpu_ticks(&marks) + self.zombie_ticks;
                procfs::ticks_to_duration(ticks)
            }
        };
        self.cpu_high_water = self.cpu_high_water.max(now);
        self.cpu_high_water
    }

    fn marks_clone(&self) -> TreeMarks {
        TreeMarks {
            root: self.marks.root,
            root_unreaped: match &self.jail {
                Some(jail) => !jail.reaped,
                None => self.termination.is_none(),
            },
            env_entry: self.marks.env_entry.clone(),
            pipe_inodes: self.marks.pipe_inodes.clone(),
            contained: self.marks.contained,
            jailed: self.marks.jailed,
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
        if let Some(jail) = &self.jail {
            let mut buf = [0u8; 4];
            match nix::unistd::read(&jail.status, &mut buf) {
                // A pipe write of 4 bytes is atomic.
                Ok(4) => {
                    self.termination = Some(termination_from_status(i32::from_ne_bytes(buf)));
                    return self.termination;
                }
                Err(Errno::EAGAIN | Errno::EINTR) => return None,
                // The keeper died before the bot ended: the keeper's own end is the answer.
                _ => {}
            }
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
        if let Some(jail) = &mut self.jail {
            jail.reaped = true;
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
            let wake = match &self.jail {
                Some(jail) => Some(&jail.status),
                None => self.exit_fd.as_ref(),
            };
            match wake {
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
        let keeper_swept = usize::from(self.keeper_outlived_bot());
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
        self.reap_keeper();
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
        let leftovers = report
            .killed
            .saturating_sub(usize::from(was_running))
            .saturating_sub(keeper_swept);
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

impl BotProcess {
    /// In a jail whose bot has ended: does the keeper still live, because other processes of
    /// the namespace do? It exits within moments of the last one; those are leftovers.
    fn keeper_outlived_bot(&mut self) -> bool {
        let Some(jail) = &self.jail else {
            return false;
        };
        if jail.reaped || self.termination.is_none() {
            return false;
        }
        if let Some(fd) = &self.exit_fd {
            wait_readable(fd.as_fd(), Duration::from_millis(20));
        }
        !self.reap_keeper_now()
    }

    /// Waits for the keeper if it has ended; true once it is reaped.
    fn reap_keeper_now(&mut self) -> bool {
        let Some(jail) = &mut self.jail else {
            return true;
        };
        if !jail.reaped {
            match waitpid(Pid::from_raw(self.pid), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => {}
                Ok(_) | Err(_) => jail.reaped = true,
            }
        }
        jail.reaped
    }

    /// After the sweep killed it: reaps the keeper (at most 5 s).
    fn reap_keeper(&mut self) {
        let until = Instant::now() + Duration::from_secs(5);
        while !self.reap_keeper_now() && Instant::now() < until {
            match &self.exit_fd {
                Some(fd) => wait_readable(fd.as_fd(), Duration::from_millis(50)),
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        }
    }
}

/// A wait status as [`Termination`].
fn termination_from_status(status: i32) -> Termination {
    if libc::WIFEXITED(status) {
        Termination {
            code: Some(libc::WEXITSTATUS(status)),
            signal: None,
            core_dumped: false,
        }
    } else if libc::WIFSIGNALED(status) {
        Termination {
            code: None,
            signal: Some(libc::WTERMSIG(status)),
            core_dumped: libc::WCOREDUMP(status),
        }
    } else {
        Termination {
            code: None,
            signal: None,
            core_dumped: false,
        }
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
