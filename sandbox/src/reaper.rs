//! Making sure no process outlives its game.
//!
//! The referee becomes a *child subreaper* (`PR_SET_CHILD_SUBREAPER`, set once
//! per referee process by [`install_subreaper`], which [`super::BotProcess::spawn`]
//! and [`super::Containment::detect`] call): orphans of a bot's tree (the
//! double-fork-and-setsid escapee) are re-parented to the referee instead of
//! init, so they stay visible and reapable. The flag is process-wide and
//! inherited by nothing; its only side effect is that the referee must reap
//! such orphans, which the sweep does for the processes it kills.
//!
//! A sweep finds a bot's tree by several independent marks, so that leaving
//! one of them is not enough to escape:
//! - membership in one of the bot's cgroups;
//! - the bot's process group or session (it starts with `setsid`);
//! - ancestry leading to the bot (while the bot is not yet reaped);
//! - the environment entry `ARBITER_BOT_TOKEN=<unique>` given to the bot;
//! - holding one of the bot's stdio pipes.
//!
//! Between fork and exec a new child of the referee briefly holds copies of all
//! the referee's fds, other bots' pipes included, and must not be taken for an
//! escapee of those bots. Spawns hold a shared gate; a process that matches a
//! tree by its pipes alone is confirmed under the exclusive gate, when no child
//! is between fork and exec. Only that confirmation is exclusive, so the sweeps
//! of concurrent games do not queue behind each other or block their spawns.

use std::sync::{OnceLock, RwLock};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

use super::layers::cgroup::BotCgroup;
use super::procfs;

static SUBREAPER: OnceLock<Result<(), String>> = OnceLock::new();
static SPAWN_GATE: RwLock<()> = RwLock::new(());

/// Makes the referee a child subreaper (idempotent; the first result is kept).
pub fn install_subreaper() -> Result<(), String> {
    SUBREAPER
        .get_or_init(|| {
            nix::sys::prctl::set_child_subreaper(true)
                .map_err(|e| format!("PR_SET_CHILD_SUBREAPER failed: {e}"))
        })
        .clone()
}

/// Held while spawning (shared) so that no pipe match is confirmed (exclusive)
/// meanwhile.
///
/// Between fork and exec a child holds copies of all the referee's fds,
/// including bots' pipes, and a sweep would take it for an escapee. Code of
/// the referee that starts other child processes while bots run should hold
/// this guard around `Command::spawn` (which returns only once the child has
/// exec'd or failed).
pub fn spawn_guard() -> std::sync::RwLockReadGuard<'static, ()> {
    SPAWN_GATE
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `command.spawn()` under [`spawn_guard`]: for any other child process (a Saiblo logic, a
/// compiler in a test) started while bots may be swept in other threads.
pub fn spawn_guarded(command: &mut std::process::Command) -> std::io::Result<std::process::Child> {
    let _gate = spawn_guard();
    command.spawn()
}

fn sweep_guard() -> std::sync::RwLockWriteGuard<'static, ()> {
    SPAWN_GATE
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The marks that identify one bot's tree.
#[derive(Debug)]
pub(crate) struct TreeMarks {
    /// The bot's pid = its process group and session id.
    pub root: i32,
    /// Whether `root` is not yet reaped (ancestry is only meaningful then).
    pub root_unreaped: bool,
    /// `ARBITER_BOT_TOKEN=...` as bytes.
    pub env_entry: Vec<u8>,
    /// Inodes of the stdio pipes.
    pub pipe_inodes: Vec<u64>,
    /// The bot's cgroup holds its whole tree: it was placed there at spawn, and Landlock
    /// (no write to any `cgroup.procs`) with seccomp (no `clone3` into another cgroup) keep
    /// every descendant in it. Then the cgroup, process group, session and ancestry find every
    /// member, and the costly search of every process's environment and open pipes is skipped.
    pub contained: bool,
    /// `root` is the keeper of the bot's jail, init of its pid namespace: every process of
    /// the tree is in that namespace (no process leaves its pid namespace, and seccomp refuses
    /// the calls that would make another), descends from the keeper while it lives (orphans
    /// re-parent to it), and dies with it (the kernel kills a namespace whose init ends). Then
    /// the keeper's descendants are the tree, found from the children lists, without the
    /// search of every process's environment and pipes.
    pub jailed: bool,
}

/// Live members of the tree (zombies excluded), and zombie members whose parent
/// is the referee (they need reaping).
fn members(marks: &TreeMarks, cgroup: Option<&BotCgroup>) -> (Vec<i32>, Vec<i32>) {
    if let (true, Some(cg)) = (marks.contained, cgroup) {
        return contained_members(marks, cg);
    }
    if marks.jailed && procfs::children_lists_available() {
        return jailed_members(marks);
    }
    let me = std::process::id() as i32;
    let all = procfs::snapshot();
    let in_cgroup = cgroup.map(BotCgroup::procs).unwrap_or_default();
    let descendants = if marks.root_unreaped {
        procfs::descendants(&all, marks.root)
    } else {
        Vec::new()
    };
    // Once the bot is reaped, its pid may be given to another process: a group or session
    // named by that pid is the bot's only if it descends from us (the subreaper), never, say,
    // a PostgreSQL backend (each one leads its own session) that got the number.
    // Walked only when some process names the number (rarely: a group left behind).
    let ours = std::cell::OnceCell::new();
    let mut live = Vec::new();
    let mut zombies = Vec::new();
    let mut by_pipe_only = Vec::new();
    for p in &all {
        if p.pid == me || p.pid <= 1 {
            continue;
        }
        let in_group = (p.pgrp == marks.root || p.session == marks.root)
            && (marks.root_unreaped
                || ours
                    .get_or_init(|| procfs::descendants(&all, me))
                    .contains(&p.pid));
        let marked = in_group
            || in_cgroup.contains(&p.pid)
            || descendants.contains(&p.pid)
            || (!marks.contained
                && !p.is_zombie()
                && procfs::environ_contains(p.pid, &marks.env_entry));
        if marked {
            if p.is_zombie() {
                if p.ppid == me && p.pid != marks.root {
                    zombies.push(p.pid);
                }
            } else {
                live.push(p.pid);
            }
        } else if !marks.contained
            && !p.is_zombie()
            && procfs::holds_pipe(p.pid, &marks.pipe_inodes)
        {
            by_pipe_only.push(p.pid);
        }
    }
    if !by_pipe_only.is_empty() {
        // A child of the referee between fork and exec holds the pipes too: ask again
        // when no spawn is under way (spawn returns after exec, which closes them).
        let _gate = sweep_guard();
        live.extend(
            by_pipe_only
                .into_iter()
                .filter(|&pid| procfs::holds_pipe(pid, &marks.pipe_inodes)),
        );
    }
    (live, zombies)
}

/// Reaps the killed processes that became zombies of the referee (members
/// lose their marks once dead: no environ, no fds, maybe no cgroup).
fn reap_killed(killed: &[i32], root: i32) {
    let me = std::process::id() as i32;
    let zombies: Vec<i32> = killed
        .iter()
        .copied()
        .filter(|&pid| pid != root)
        .filter(|&pid| procfs::read_stat(pid).is_some_and(|s| s.is_zombie() && s.ppid == me))
        .collect();
    reap(&zombies);
}

fn reap(pids: &[i32]) {
    for &pid in pids {
        match waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) | Ok(_) | Err(_) => {}
        }
    }
}

/// What a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SweepReport {
    /// Distinct processes sent SIGKILL (the bot itself included if alive).
    pub killed: usize,
    /// Processes still alive when the sweep gave up.
    pub survivors: usize,
}

/// Kills every member of the tree, repeating until none is left (or `budget`
/// runs out), and reaps the members re-parented to the referee. The bot
/// itself (`marks.root`) is killed but not reaped: its exit status belongs to
/// [`super::BotProcess`].
pub(crate) fn sweep(
    marks: &TreeMarks,
    cgroup: Option<&BotCgroup>,
    budget: Duration,
) -> SweepReport {
    let until = Instant::now() + budget;
    let mut killed: Vec<i32> = Vec::new();
    let mut pause = Duration::from_micros(200);
    loop {
        // Scan before killing, so that the report counts every member.
        let (live, zombies) = members(marks, cgroup);
        reap(&zombies);
        for &pid in &live {
            if !killed.contains(&pid) {
                killed.push(pid);
            }
        }
        if let Some(cg) = cgroup {
            cg.kill_all();
        }
        kill_group(marks, Signal::SIGKILL);
        for &pid in &live {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        if live.is_empty() && marks.contained {
            // An empty cgroup stays empty: no member is left to create another.
            reap_killed(&killed, marks.root);
            return SweepReport {
                killed: killed.len(),
                survivors: 0,
            };
        }
        if live.is_empty() {
            // One more pass for members created or re-parented meanwhile.
            std::thread::sleep(Duration::from_millis(1));
            let (live_again, zombies) = members(marks, cgroup);
            reap(&zombies);
            reap_killed(&killed, marks.root);
            if live_again.is_empty() {
                return SweepReport {
                    killed: killed.len(),
                    survivors: 0,
                };
            }
            continue;
        }
        if Instant::now() >= until {
            let (still, _) = members(marks, cgroup);
            return SweepReport {
                killed: killed.len(),
                survivors: still.len(),
            };
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
        reap_killed(&killed, marks.root);
    }
}

/// [`members`] of a contained tree: the live ones are those its cgroup lists, the dead ones
/// handed to us (as subreaper) are our zombie children of its group, session or cgroup. No
/// walk of every process on the machine.
fn contained_members(marks: &TreeMarks, cg: &BotCgroup) -> (Vec<i32>, Vec<i32>) {
    let me = std::process::id() as i32;
    let live: Vec<i32> = cg.procs().into_iter().filter(|&p| p != me).collect();
    let leaf = cg.leaf();
    let zombies = procfs::own_children()
        .into_iter()
        .filter(|&pid| pid != marks.root)
        .filter(|&pid| {
            procfs::read_stat(pid).is_some_and(|s| {
                s.is_zombie()
                    && (s.pgrp == marks.root
                        || s.session == marks.root
                        || leaf.is_some_and(|l| procfs::in_cgroup_named(pid, l)))
            })
        })
        .collect();
    (live, zombies)
}

/// [`members`] of a jailed tree: the keeper and its descendants while the keeper is unreaped
/// (once it is, its namespace is empty). No zombie is the referee's to reap: the keeper reaps
/// them all, and the keeper itself belongs to [`super::BotProcess`].
fn jailed_members(marks: &TreeMarks) -> (Vec<i32>, Vec<i32>) {
    if !marks.root_unreaped {
        return (Vec::new(), Vec::new());
    }
    let mut queue = vec![marks.root];
    let mut live = Vec::new();
    let mut i = 0;
    while let Some(&pid) = queue.get(i) {
        i += 1;
        if i > MAX_TREE {
            break;
        }
        match procfs::read_stat(pid) {
            Some(s) if !s.is_zombie() => {
                live.push(pid);
                queue.extend(procfs::children_of(pid));
            }
            _ => {}
        }
    }
    (live, Vec::new())
}

/// Signals the bot's process group while the bot is unreaped: until then no other process can
/// hold its number. Afterwards the group's members are signalled one by one ([`members`]).
fn kill_group(marks: &TreeMarks, signal: Signal) {
    if marks.root_unreaped {
        let _ = nix::sys::signal::killpg(Pid::from_raw(marks.root), signal);
    }
}

/// Sends a signal to every live member (SIGSTOP / SIGCONT freezing fallback).
pub(crate) fn signal_tree(marks: &TreeMarks, cgroup: Option<&BotCgroup>, signal: Signal) -> usize {
    kill_group(marks, signal);
    let (live, _) = members(marks, cgroup);
    for &pid in &live {
        let _ = kill(Pid::from_raw(pid), signal);
    }
    live.len()
}

/// The most processes a CPU reading walks: far above any bot's process limit.
const MAX_TREE: usize = 4096;
/// The most members whose files a [`TreeWalk`] keeps open (two each): a fork bomb must not
/// use up the referee's descriptors. Members beyond are read by path.
const MAX_KEPT: usize = 16;
/// How often the referee's children are looked through for the bot's orphans.
const ORPHAN_LOOK: Duration = Duration::from_millis(50);

/// A process of the tree with its `stat` and its main thread's `children` kept open.
struct Kept {
    pid: i32,
    stat: procfs::KeptFile,
    children: Option<procfs::KeptFile>,
}

impl Kept {
    fn open(pid: i32) -> Option<Kept> {
        Some(Kept {
            pid,
            stat: procfs::KeptFile::open(&format!("/proc/{pid}/stat"))?,
            children: procfs::KeptFile::open(&format!("/proc/{pid}/task/{pid}/children")),
        })
    }
}

/// CPU readings of one bot's tree without cgroups, from `/proc` (10 ms ticks): own plus
/// waited-for children's times of every member, live or zombie. A child's time moves into its
/// parent's waited-for times when it is reaped, so short-lived children cannot hide theirs.
///
/// Walked from the bot's own tree only: its root (a jailed bot's root is the keeper, init of
/// its pid namespace: every process of the jail descends from it, double-forked ones included,
/// and the keeper's waited-for times hold the ones it reaped), and the referee's own children
/// that are the bot's orphans (a double fork outside a jail re-parents to the referee, the
/// subreaper): those in the bot's process group or session, or carrying its token, looked for
/// every [`ORPHAN_LOOK`] (an orphan's times stay in its stat, a zombie's too, until the sweep
/// reaps it: found late, it is still counted whole). Only when the kernel has no children
/// lists, or the referee is not the subreaper (orphans would go to init), is every process on
/// the machine read, as before.
///
/// Between readings the members' files stay open: a reading of a one-process bot is two
/// `pread`s.
#[derive(Default)]
pub(crate) struct TreeWalk {
    kept: Vec<Kept>,
    orphans: Vec<i32>,
    looked: Option<Instant>,
}

impl std::fmt::Debug for TreeWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeWalk")
            .field("kept", &self.kept.iter().map(|k| k.pid).collect::<Vec<_>>())
            .field("orphans", &self.orphans)
            .finish()
    }
}

impl TreeWalk {
    pub(crate) fn cpu_ticks(&mut self, marks: &TreeMarks) -> u64 {
        let subreaper = matches!(SUBREAPER.get(), Some(Ok(())));
        if !subreaper || !procfs::children_lists_available() {
            return scanned_tree_cpu_ticks(marks);
        }
        if self.looked.is_none_or(|t| t.elapsed() >= ORPHAN_LOOK) {
            self.orphans = own_orphans_of(marks);
            self.looked = Some(Instant::now());
        }
        let mut queue: Vec<i32> = Vec::new();
        if marks.root_unreaped {
            queue.push(marks.root);
        }
        queue.extend(&self.orphans);
        let mut seen: Vec<i32> = Vec::new();
        let mut total = 0;
        let mut buf = [0u8; 4096];
        let mut i = 0;
        while let Some(&pid) = queue.get(i) {
            i += 1;
            if seen.len() >= MAX_TREE || seen.contains(&pid) {
                continue;
            }
            seen.push(pid);
            let Some(stat) = self.stat(pid, &mut buf) else {
                continue;
            };
            total += stat.own_ticks + stat.children_ticks;
            if !stat.is_zombie() {
                self.children(pid, stat.threads, &mut queue, &mut buf);
            }
        }
        // Files of processes no longer in the tree are closed.
        self.kept.retain(|k| seen.contains(&k.pid));
        total
    }

    /// `pid`'s stat through its kept file (reopened once if that file's process is gone: the
    /// number may name a new member), else by path.
    fn stat(&mut self, pid: i32, buf: &mut [u8; 4096]) -> Option<procfs::ProcStat> {
        if let Some(at) = self.kept.iter().position(|k| k.pid == pid) {
            if let Some(s) = self.kept[at].stat.read(buf).and_then(procfs::parse_stat) {
                return Some(s);
            }
            self.kept.swap_remove(at);
        }
        if self.kept.len() < MAX_KEPT {
            if let Some(k) = Kept::open(pid) {
                let s = k.stat.read(buf).and_then(procfs::parse_stat);
                self.kept.push(k);
                return s;
            }
        }
        procfs::read_stat(pid)
    }

    /// Appends `pid`'s children to `queue`: from its main thread's kept list when it has one
    /// thread, else from every thread's list.
    fn children(&self, pid: i32, threads: u32, queue: &mut Vec<i32>, buf: &mut [u8; 4096]) {
        let kept = self.kept.iter().find(|k| k.pid == pid);
        if threads == 1 {
            if let Some(text) = kept.and_then(|k| k.children.as_ref()?.read(buf)) {
                queue.extend(procfs::parse_pids(text));
                return;
            }
        }
        queue.extend(procfs::children_of(pid));
    }
}

/// The referee's children that belong to the bot without being its root: orphans of its tree
/// handed to the subreaper. Reads the stat of each child of the referee (its bots' roots and
/// such orphans: a few), and the environment of those outside the bot's group and session.
fn own_orphans_of(marks: &TreeMarks) -> Vec<i32> {
    procfs::own_children()
        .into_iter()
        .filter(|&pid| pid != marks.root)
        .filter(|&pid| {
            procfs::read_stat(pid).is_some_and(|s| {
                s.pgrp == marks.root
                    || s.session == marks.root
                    || (!s.is_zombie() && procfs::environ_contains(pid, &marks.env_entry))
            })
        })
        .collect()
}

/// [`tree_cpu_ticks`] from a scan of every process on the machine (the fallback).
fn scanned_tree_cpu_ticks(marks: &TreeMarks) -> u64 {
    let all = procfs::snapshot();
    let mut ids = if marks.root_unreaped {
        procfs::descendants(&all, marks.root)
    } else {
        Vec::new()
    };
    if marks.root_unreaped {
        ids.push(marks.root);
    }
    all.iter()
        .filter(|p| ids.contains(&p.pid) || p.pgrp == marks.root || p.session == marks.root)
        .map(|p| p.own_ticks + p.children_ticks)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session leader that is not ours (an orphan of `sh`, adopted by init), as a PostgreSQL
    /// backend is: its pid named as a reaped bot's must not make it a member.
    #[test]
    fn a_reaped_bots_number_names_no_stranger() {
        let out = std::process::Command::new("sh")
            .args(["-c", "setsid sleep 30 >/dev/null 2>&1 & echo $!"])
            .output()
            .expect("sh");
        let pid: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        // Wait until setsid has made it a session leader.
        let deadline = Instant::now() + Duration::from_secs(5);
        while procfs::read_stat(pid).is_none_or(|s| s.session != pid) {
            assert!(Instant::now() < deadline, "setsid did not run");
            std::thread::sleep(Duration::from_millis(5));
        }
        let marks = |root_unreaped| TreeMarks {
            root: pid,
            root_unreaped,
            env_entry: b"ARBITER_BOT_TOKEN=none".to_vec(),
            pipe_inodes: Vec::new(),
            contained: false,
            jailed: false,
        };
        let (after_reap, _) = members(&marks(false), None);
        let (unreaped, _) = members(&marks(true), None);
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        assert!(
            !after_reap.contains(&pid),
            "a stranger with the bot's number was a member"
        );
        assert!(
            unreaped.contains(&pid),
            "the unreaped bot's own session is a member"
        );
    }
}
