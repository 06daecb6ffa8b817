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
}

/// Live members of the tree (zombies excluded), and zombie members whose parent
/// is the referee (they need reaping).
fn members(marks: &TreeMarks, cgroup: Option<&BotCgroup>) -> (Vec<i32>, Vec<i32>) {
    if let (true, Some(cg)) = (marks.contained, cgroup) {
        return contained_members(marks, cg);
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

/// CPU time of the live tree from `/proc` (10 ms ticks): own plus waited-for
/// children's times of every member.
pub(crate) fn tree_cpu_ticks(marks: &TreeMarks) -> u64 {
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
