//! Reading `/proc`: process tree, CPU times, environment markers, open pipes.
//! Every reader tolerates processes vanishing mid-scan (they return `None`).

use std::path::Path;
use std::time::Duration;

/// The fields of `/proc/<pid>/stat` the process layer needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProcStat {
    pub pid: i32,
    pub state: u8,
    pub ppid: i32,
    pub pgrp: i32,
    pub session: i32,
    /// utime + stime, in clock ticks.
    pub own_ticks: u64,
    /// cutime + cstime (waited-for children), in clock ticks.
    pub children_ticks: u64,
    /// Threads (field 20).
    pub threads: u32,
}

impl ProcStat {
    pub(crate) fn is_zombie(&self) -> bool {
        self.state == b'Z' || self.state == b'X'
    }
}

/// Parses the text of `/proc/<pid>/stat`; `comm` may hold spaces and parentheses,
/// so fields are counted from the last `)`.
pub(crate) fn parse_stat(text: &str) -> Option<ProcStat> {
    let open = text.find('(')?;
    let pid = text.get(..open)?.trim().parse().ok()?;
    let close = text.rfind(')')?;
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // rest[0] = state (field 3), so field n is rest[n - 3].
    let field = |n: usize| rest.get(n - 3).copied();
    let num = |n: usize| field(n).and_then(|f| f.parse::<i64>().ok());
    let ticks = |n: usize| num(n).map(|v| v.max(0) as u64);
    Some(ProcStat {
        pid,
        state: *field(3)?.as_bytes().first()?,
        ppid: num(4)? as i32,
        pgrp: num(5)? as i32,
        session: num(6)? as i32,
        own_ticks: ticks(14)? + ticks(15)?,
        children_ticks: ticks(16)? + ticks(17)?,
        threads: num(20)?.clamp(0, i64::from(u32::MAX)) as u32,
    })
}

pub(crate) fn read_stat(pid: i32) -> Option<ProcStat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

/// This process's children, of every one of its threads (`/proc/self/task/*/children`).
pub(crate) fn own_children() -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok()),
        );
    }
    out
}

/// The children of every thread of `pid` (`/proc/<pid>/task/*/children`; a zombie child is
/// still listed until it is reaped). Empty when `pid` is gone.
pub(crate) fn children_of(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok()),
        );
    }
    out
}

/// Whether the kernel lists children in `/proc/<pid>/task/<tid>/children` (it needs
/// `CONFIG_PROC_CHILDREN`, set by the common distributions); checked once.
pub(crate) fn children_lists_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        let me = std::process::id();
        Path::new(&format!("/proc/{me}/task/{me}/children")).exists()
    })
}

/// Whether `pid`'s cgroup (any hierarchy) is one named `leaf`; a zombie still names the
/// cgroup it died in.
pub(crate) fn in_cgroup_named(pid: i32, leaf: &str) -> bool {
    let text = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap_or_default();
    text.lines()
        .any(|l| l.rsplit('/').next().is_some_and(|last| last == leaf))
}

/// Every visible process id (thread-group leaders only).
pub(crate) fn list_pids() -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// All user-space processes with their stat, one snapshot. Kernel threads (kthreadd, pid
/// 2, and its children) are left out: no bot can become one, and they are most of the
/// processes on a quiet machine, each costing an environ and an fd-table read in a sweep.
pub(crate) fn snapshot() -> Vec<ProcStat> {
    const KTHREADD: i32 = 2;
    list_pids()
        .into_iter()
        .filter_map(read_stat)
        .filter(|p| p.pid != KTHREADD && p.ppid != KTHREADD)
        .collect()
}

/// True when the process's environment contains exactly `entry` (`KEY=value`).
pub(crate) fn environ_contains(pid: i32, entry: &[u8]) -> bool {
    match std::fs::read(format!("/proc/{pid}/environ")) {
        Ok(env) => env.split(|&b| b == 0).any(|e| e == entry),
        Err(_) => false,
    }
}

/// True when the process holds an fd on one of the given pipe inodes.
pub(crate) fn holds_pipe(pid: i32, inodes: &[u64]) -> bool {
    if inodes.is_empty() {
        return false;
    }
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter_map(|target| pipe_inode(&target))
        .any(|ino| inodes.contains(&ino))
}

fn pipe_inode(target: &Path) -> Option<u64> {
    let s = target.to_str()?;
    s.strip_prefix("pipe:[")?.strip_suffix(']')?.parse().ok()
}

/// Kernel clock ticks per second for `/proc/<pid>/stat` times.
pub(crate) fn ticks_per_second() -> u64 {
    use nix::unistd::{sysconf, SysconfVar};
    match sysconf(SysconfVar::CLK_TCK) {
        Ok(Some(t)) if t > 0 => t as u64,
        _ => 100,
    }
}

pub(crate) fn ticks_to_duration(ticks: u64) -> Duration {
    let hz = ticks_per_second();
    Duration::from_secs(ticks / hz) + Duration::from_nanos((ticks % hz) * 1_000_000_000 / hz)
}

/// Pids whose ancestry (by ppid) reaches `root`, `root` excluded.
pub(crate) fn descendants(all: &[ProcStat], root: i32) -> Vec<i32> {
    let mut found = vec![root];
    let mut i = 0;
    while let Some(&parent) = found.get(i) {
        for p in all {
            if p.ppid == parent && !found.contains(&p.pid) {
                found.push(p.pid);
            }
        }
        i += 1;
    }
    found.remove(0);
    found
}

/// Pids in the text of a children list.
pub(crate) fn parse_pids(text: &str) -> impl Iterator<Item = i32> + '_ {
    text.split_whitespace().filter_map(|p| p.parse().ok())
}

/// A `/proc` file read afresh at each [`KeptFile::read`]: one `pread` at offset 0 (the kernel
/// produces the text anew), no path lookup. The open file stays bound to its process: once
/// that process is reaped it reads nothing, so a pid number given to another process is
/// never read as the old one.
pub(crate) struct KeptFile(std::fs::File);

impl KeptFile {
    pub(crate) fn open(path: &str) -> Option<KeptFile> {
        std::fs::File::open(path).ok().map(KeptFile)
    }

    /// The text, or `None` once the process is gone (a stat then fails; a children list
    /// reads empty, as the list of a process without children does), or when the text does
    /// not fit 4 KiB (no stat is that long; a longer children list is read by path instead).
    pub(crate) fn read<'b>(&self, buf: &'b mut [u8; 4096]) -> Option<&'b str> {
        use std::os::unix::fs::FileExt;
        let n = self.0.read_at(buf, 0).ok()?;
        if n == buf.len() {
            return None;
        }
        std::str::from_utf8(buf.get(..n)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_odd_comm() {
        let line = "1234 (a b) c)) S 1 1234 1234 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 5 0 0";
        let s = parse_stat(line);
        assert_eq!(
            s,
            Some(ProcStat {
                pid: 1234,
                state: b'S',
                ppid: 1,
                pgrp: 1234,
                session: 1234,
                own_ticks: 10,
                children_ticks: 3,
                threads: 1
            })
        );
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn own_process_is_readable() {
        let me = std::process::id() as i32;
        let s = read_stat(me);
        assert_eq!(s.map(|s| s.pid), Some(me));
        assert!(list_pids().contains(&me));
    }

    #[test]
    fn snapshot_holds_user_processes_only() {
        let all = snapshot();
        let me = std::process::id() as i32;
        assert!(all.iter().any(|p| p.pid == me));
        assert!(all.iter().all(|p| p.pid != 2 && p.ppid != 2));
    }

    #[test]
    fn descendants_follow_ppid_chains() {
        let mk = |pid, ppid| ProcStat {
            pid,
            state: b'S',
            ppid,
            pgrp: pid,
            session: pid,
            own_ticks: 0,
            children_ticks: 0,
            threads: 1,
        };
        let all = [mk(10, 1), mk(11, 10), mk(12, 11), mk(13, 1), mk(14, 12)];
        let mut d = descendants(&all, 10);
        d.sort();
        assert_eq!(d, vec![11, 12, 14]);
    }
}
