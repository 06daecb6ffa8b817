//! Per-bot control groups: cgroup v2 (pure or the unified half of a hybrid
//! layout) and the v1 controllers memory, pids, cpuset, freezer and cpuacct.
//!
//! The referee creates one group per bot below its own group in each
//! hierarchy, opens each group's `cgroup.procs` before fork, and the child
//! writes `"0"` to those fds in `pre_exec`, so the bot is inside the groups
//! before its first instruction and every descendant inherits them.

use std::fs;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The v1 controllers the process layer uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V1Controller {
    /// `memory.limit_in_bytes`, `memory.oom_control` (oom_kill counter).
    Memory,
    /// `pids.max`, `pids.events`.
    Pids,
    /// `cpuset.cpus`: a pin the bot cannot widen.
    Cpuset,
    /// `freezer.state`: freeze the whole tree between turns.
    Freezer,
    /// `cpuacct.usage`: CPU time of the whole tree in nanoseconds.
    Cpuacct,
}

impl V1Controller {
    pub(crate) const ALL: [V1Controller; 5] = [
        V1Controller::Memory,
        V1Controller::Pids,
        V1Controller::Cpuset,
        V1Controller::Freezer,
        V1Controller::Cpuacct,
    ];

    /// The controller's name in mount options and `/proc/self/cgroup`.
    pub fn name(self) -> &'static str {
        match self {
            V1Controller::Memory => "memory",
            V1Controller::Pids => "pids",
            V1Controller::Cpuset => "cpuset",
            V1Controller::Freezer => "freezer",
            V1Controller::Cpuacct => "cpuacct",
        }
    }
}

/// Where per-bot groups can be created, as found by [`CgroupSupport::detect`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CgroupSupport {
    /// v2 directory under which bot groups are created, with the controllers
    /// enabled for its children (`memory`, `pids`, `cpuset`, `cpu`...).
    pub unified: Option<(PathBuf, Vec<String>)>,
    /// v1 controller -> directory under which bot groups are created.
    pub v1: Vec<(V1Controller, PathBuf)>,
    /// Why some hierarchy or controller is unusable (for `doctor`).
    pub problems: Vec<String>,
}

struct Mount {
    root: String,
    mount_point: PathBuf,
    fs_type: String,
    super_options: String,
}

fn mounts() -> Vec<Mount> {
    let text = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let mut right = right.split(' ');
            let fs_type = right.next()?.to_owned();
            let _source = right.next()?;
            let super_options = right.next().unwrap_or("").to_owned();
            Some(Mount {
                root: unescape_mount(left.get(3)?),
                mount_point: PathBuf::from(unescape_mount(left.get(4)?)),
                fs_type,
                super_options,
            })
        })
        .filter(|m| m.fs_type == "cgroup" || m.fs_type == "cgroup2")
        .collect()
}

fn unescape_mount(s: &str) -> String {
    s.replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// `/proc/self/cgroup` lines: (controllers, path).
fn own_groups() -> Vec<(String, String)> {
    let text = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let _id = parts.next()?;
            let ctrls = parts.next()?.to_owned();
            let path = parts.next()?.to_owned();
            Some((ctrls, path))
        })
        .collect()
}

/// Our own group's directory inside a mount (handles a mount whose root is a
/// sub-group, as in containers without a cgroup namespace).
fn join_group(mount: &Mount, group_path: &str) -> PathBuf {
    let rel = if mount.root != "/" {
        group_path
            .strip_prefix(mount.root.as_str())
            .unwrap_or(group_path)
    } else {
        group_path
    };
    mount.mount_point.join(rel.trim_start_matches('/'))
}

fn probe_writable(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!("arbiter-probe-{}", std::process::id()));
    fs::create_dir(&probe)
        .map_err(|e| format!("cannot create a group in {}: {e}", dir.display()))?;
    fs::remove_dir(&probe)
        .map_err(|e| format!("cannot remove probe group {}: {e}", probe.display()))
}

impl CgroupSupport {
    /// Finds the hierarchies, our place in them, and whether we may create groups.
    /// On pure v2 it also tries to enable the wanted controllers for our group's
    /// children (this fails with EBUSY in a non-root group that holds processes;
    /// run the referee in a delegated group to get them).
    pub fn detect() -> CgroupSupport {
        let mut support = CgroupSupport::default();
        let mounts = mounts();
        let groups = own_groups();
        if mounts.is_empty() {
            support
                .problems
                .push("no cgroup filesystem mounted".to_owned());
            return support;
        }
        // cgroup v2
        if let (Some(mount), Some((_, path))) = (
            mounts.iter().find(|m| m.fs_type == "cgroup2"),
            groups.iter().find(|(c, _)| c.is_empty()),
        ) {
            let dir = join_group(mount, path);
            match probe_writable(&dir) {
                Ok(()) => {
                    let enabled = enable_v2_controllers(&dir, &mut support.problems);
                    support.unified = Some((dir, enabled));
                }
                Err(e) => support.problems.push(format!("cgroup v2: {e}")),
            }
        } else {
            support
                .problems
                .push("cgroup v2: no unified hierarchy".to_owned());
        }
        // cgroup v1 controllers
        for ctrl in V1Controller::ALL {
            let mount = mounts.iter().find(|m| {
                m.fs_type == "cgroup" && m.super_options.split(',').any(|o| o == ctrl.name())
            });
            let group = groups
                .iter()
                .find(|(c, _)| c.split(',').any(|n| n == ctrl.name()))
                .map(|(_, p)| p.as_str());
            match (mount, group) {
                (Some(mount), Some(path)) => {
                    let dir = join_group(mount, path);
                    match probe_writable(&dir) {
                        Ok(()) => support.v1.push((ctrl, dir)),
                        Err(e) => support
                            .problems
                            .push(format!("cgroup v1 {}: {e}", ctrl.name())),
                    }
                }
                _ => {
                    let v2_has = support.unified.as_ref().is_some_and(|(_, c)| {
                        let want = if ctrl == V1Controller::Cpuacct {
                            "cpu"
                        } else {
                            ctrl.name()
                        };
                        c.iter().any(|x| x == want) || ctrl == V1Controller::Freezer
                    });
                    if !v2_has {
                        support
                            .problems
                            .push(format!("cgroup v1 {}: not mounted", ctrl.name()));
                    }
                }
            }
        }
        support
    }

    /// The v1 parent directory of a controller, when usable.
    pub fn v1_dir(&self, ctrl: V1Controller) -> Option<&Path> {
        self.v1
            .iter()
            .find(|(c, _)| *c == ctrl)
            .map(|(_, p)| p.as_path())
    }

    /// Whether a v2 controller is enabled for bot groups.
    pub fn v2_has(&self, name: &str) -> bool {
        self.unified
            .as_ref()
            .is_some_and(|(_, c)| c.iter().any(|x| x == name))
    }

    /// Can memory be limited (and an OOM kill be detected)?
    pub fn memory(&self) -> bool {
        self.v2_has("memory") || self.v1_dir(V1Controller::Memory).is_some()
    }
}

fn enable_v2_controllers(dir: &Path, problems: &mut Vec<String>) -> Vec<String> {
    let read_list = |file: &str| -> Vec<String> {
        fs::read_to_string(dir.join(file))
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    let available = read_list("cgroup.controllers");
    let mut enabled = read_list("cgroup.subtree_control");
    for want in ["memory", "pids", "cpuset", "cpu"] {
        if enabled.iter().any(|c| c == want) {
            continue;
        }
        if !available.iter().any(|c| c == want) {
            continue;
        }
        match write_file(&dir.join("cgroup.subtree_control"), &format!("+{want}")) {
            Ok(()) => enabled.push(want.to_owned()),
            Err(e) => problems.push(format!(
                "cgroup v2: cannot enable {want} for children of {}: {e}",
                dir.display()
            )),
        }
    }
    enabled
}

fn write_file(path: &Path, value: &str) -> io::Result<()> {
    let mut f = fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(value.as_bytes())
}

fn read_trim(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

/// `key value` lines (memory.events, cpu.stat, memory.oom_control, pids.events).
fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next()? == key).then_some(())?;
        it.next()?.parse().ok()
    })
}

/// The groups of one bot.
#[derive(Debug)]
pub(crate) struct BotCgroup {
    v2: Option<PathBuf>,
    v2_controllers: Vec<String>,
    v1: Vec<(V1Controller, PathBuf)>,
    /// The CPU usage file, kept open: the referee reads it after every move, and opening a
    /// cgroup file costs more than reading it.
    cpu_file: std::sync::OnceLock<Option<(fs::File, CpuFormat)>>,
}

/// How the kept-open CPU usage file reports.
#[derive(Clone, Copy, Debug)]
enum CpuFormat {
    /// v1 `cpuacct.usage`: nanoseconds.
    Nanos,
    /// v2 `cpu.stat`: `usage_usec N` among other keys.
    StatMicros,
}

/// What the groups enforce, as configured at creation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Enforced {
    pub memory: bool,
    pub tasks: bool,
    pub cpuset: bool,
}

impl BotCgroup {
    /// Creates the groups named `name` and applies the limits; every failure
    /// becomes a warning and the rest goes on. Returns the groups, the
    /// `cgroup.procs` fds for the child to join, and what is enforced.
    pub(crate) fn create(
        support: &CgroupSupport,
        name: &str,
        memory: Option<u64>,
        tasks: Option<u64>,
        core: Option<usize>,
        warnings: &mut Vec<String>,
    ) -> (BotCgroup, Vec<OwnedFd>, Enforced) {
        let mut group = BotCgroup {
            v2: None,
            v2_controllers: Vec::new(),
            v1: Vec::new(),
            cpu_file: std::sync::OnceLock::new(),
        };
        let mut fds = Vec::new();
        let mut enforced = Enforced::default();
        let mut make = |parent: &Path, what: &str, fds: &mut Vec<OwnedFd>| -> Option<PathBuf> {
            let dir = parent.join(name);
            if let Err(e) = fs::create_dir(&dir) {
                warnings.push(format!(
                    "cgroup {what}: cannot create {}: {e}",
                    dir.display()
                ));
                return None;
            }
            match fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
            {
                Ok(f) => {
                    fds.push(OwnedFd::from(f));
                    Some(dir)
                }
                Err(e) => {
                    warnings.push(format!("cgroup {what}: cannot open cgroup.procs: {e}"));
                    let _ = fs::remove_dir(&dir);
                    None
                }
            }
        };
        let mut local_warnings = Vec::new();
        if let Some((parent, controllers)) = &support.unified {
            if let Some(dir) = make(parent, "v2", &mut fds) {
                group.v2_controllers = controllers.clone();
                let has = |c: &str| controllers.iter().any(|x| x == c);
                if let (true, Some(bytes)) = (has("memory"), memory) {
                    match write_file(&dir.join("memory.max"), &bytes.to_string()) {
                        Ok(()) => enforced.memory = true,
                        Err(e) => local_warnings.push(format!("cgroup v2 memory.max: {e}")),
                    }
                    let _ = write_file(&dir.join("memory.swap.max"), "0");
                    let _ = write_file(&dir.join("memory.oom.group"), "1");
                }
                if let (true, Some(n)) = (has("pids"), tasks) {
                    match write_file(&dir.join("pids.max"), &n.to_string()) {
                        Ok(()) => enforced.tasks = true,
                        Err(e) => local_warnings.push(format!("cgroup v2 pids.max: {e}")),
                    }
                }
                if let (true, Some(core)) = (has("cpuset"), core) {
                    match write_file(&dir.join("cpuset.cpus"), &core.to_string()) {
                        Ok(()) => enforced.cpuset = true,
                        Err(e) => local_warnings.push(format!("cgroup v2 cpuset.cpus: {e}")),
                    }
                }
                group.v2 = Some(dir);
            }
        }
        for (ctrl, parent) in &support.v1 {
            let ctrl = *ctrl;
            // v2 controllers take precedence where both exist.
            let v2_covers = match ctrl {
                V1Controller::Memory => enforced.memory,
                V1Controller::Pids => enforced.tasks,
                V1Controller::Cpuset => enforced.cpuset,
                V1Controller::Freezer => group.v2.is_some(),
                V1Controller::Cpuacct => group.v2.is_some(),
            };
            let needed = match ctrl {
                V1Controller::Memory => memory.is_some(),
                V1Controller::Pids => tasks.is_some(),
                V1Controller::Cpuset => core.is_some(),
                V1Controller::Freezer | V1Controller::Cpuacct => true,
            };
            if v2_covers || !needed {
                continue;
            }
            if ctrl == V1Controller::Cpuset {
                // Must be set before any task joins; fd opened after configuring.
                let dir = parent.join(name);
                if let Err(e) = fs::create_dir(&dir) {
                    local_warnings.push(format!("cgroup v1 cpuset: {e}"));
                    continue;
                }
                let mems = read_trim(&parent.join("cpuset.mems")).unwrap_or_else(|| "0".into());
                let cpus = core.map(|c| c.to_string()).unwrap_or_default();
                let configured = write_file(&dir.join("cpuset.mems"), &mems)
                    .and_then(|()| write_file(&dir.join("cpuset.cpus"), &cpus))
                    .and_then(|()| {
                        fs::OpenOptions::new()
                            .write(true)
                            .open(dir.join("cgroup.procs"))
                    });
                match configured {
                    Ok(f) => {
                        fds.push(OwnedFd::from(f));
                        enforced.cpuset = true;
                        group.v1.push((ctrl, dir));
                    }
                    Err(e) => {
                        local_warnings.push(format!("cgroup v1 cpuset (cpus {cpus}): {e}"));
                        let _ = fs::remove_dir(&dir);
                    }
                }
                continue;
            }
            let Some(dir) = make(parent, ctrl.name(), &mut fds) else {
                continue;
            };
            match (ctrl, memory, tasks) {
                (V1Controller::Memory, Some(bytes), _) => {
                    match write_file(&dir.join("memory.limit_in_bytes"), &bytes.to_string()) {
                        Ok(()) => enforced.memory = true,
                        Err(e) => local_warnings.push(format!("cgroup v1 memory limit: {e}")),
                    }
                    let memsw = dir.join("memory.memsw.limit_in_bytes");
                    if memsw.exists() {
                        let _ = write_file(&memsw, &bytes.to_string());
                    }
                }
                (V1Controller::Pids, _, Some(n)) => {
                    match write_file(&dir.join("pids.max"), &n.to_string()) {
                        Ok(()) => enforced.tasks = true,
                        Err(e) => local_warnings.push(format!("cgroup v1 pids.max: {e}")),
                    }
                }
                _ => {}
            }
            group.v1.push((ctrl, dir));
        }
        warnings.extend(local_warnings);
        (group, fds, enforced)
    }

    fn v1_dir(&self, ctrl: V1Controller) -> Option<&Path> {
        self.v1
            .iter()
            .find(|(c, _)| *c == ctrl)
            .map(|(_, p)| p.as_path())
    }

    fn all_dirs(&self) -> impl Iterator<Item = &Path> {
        self.v2
            .iter()
            .map(PathBuf::as_path)
            .chain(self.v1.iter().map(|(_, p)| p.as_path()))
    }

    /// The groups' own name (the same in every hierarchy).
    pub(crate) fn leaf(&self) -> Option<&str> {
        self.all_dirs().next()?.file_name()?.to_str()
    }

    /// The group directories (for diagnostics and tests).
    pub(crate) fn dirs(&self) -> Vec<PathBuf> {
        self.all_dirs().map(Path::to_path_buf).collect()
    }

    /// Processes in any of the bot's groups.
    pub(crate) fn procs(&self) -> Vec<i32> {
        let mut pids: Vec<i32> = Vec::new();
        for dir in self.all_dirs() {
            let text = fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
            for pid in text.lines().filter_map(|l| l.trim().parse().ok()) {
                if !pids.contains(&pid) {
                    pids.push(pid);
                }
            }
        }
        pids
    }

    /// CPU time of the whole tree: v1 `cpuacct.usage` (ns) or v2 `cpu.stat`
    /// `usage_usec` (us).
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        use std::os::unix::fs::FileExt;
        let kept = self.cpu_file.get_or_init(|| {
            if let Some(dir) = self.v1_dir(V1Controller::Cpuacct) {
                if let Ok(f) = fs::File::open(dir.join("cpuacct.usage")) {
                    return Some((f, CpuFormat::Nanos));
                }
            }
            let dir = self.v2.as_ref()?;
            fs::File::open(dir.join("cpu.stat"))
                .ok()
                .map(|f| (f, CpuFormat::StatMicros))
        });
        let (file, format) = kept.as_ref()?;
        // Reading at offset 0 makes the kernel produce the file afresh.
        let mut buf = [0u8; 512];
        let n = file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(buf.get(..n)?).ok()?;
        match format {
            CpuFormat::Nanos => text.trim().parse().ok().map(Duration::from_nanos),
            CpuFormat::StatMicros => text
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))
                .and_then(|v| v.trim().parse().ok())
                .map(Duration::from_micros),
        }
    }

    /// Freezes the tree and waits (up to `timeout`) until the kernel says it is
    /// frozen. `Ok(false)` when no freezer is available.
    pub(crate) fn set_frozen(&self, frozen: bool, timeout: Duration) -> io::Result<bool> {
        let until = Instant::now() + timeout;
        if let Some(dir) = &self.v2 {
            let file = dir.join("cgroup.freeze");
            if file.exists() {
                write_file(&file, if frozen { "1" } else { "0" })?;
                let want = if frozen { 1 } else { 0 };
                while keyed(&dir.join("cgroup.events"), "frozen") != Some(want) {
                    if Instant::now() >= until {
                        return Err(io::Error::new(io::ErrorKind::TimedOut, "cgroup.freeze"));
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                return Ok(true);
            }
        }
        if let Some(dir) = self.v1_dir(V1Controller::Freezer) {
            let file = dir.join("freezer.state");
            let want = if frozen { "FROZEN" } else { "THAWED" };
            write_file(&file, want)?;
            while read_trim(&file).as_deref() != Some(want) {
                if Instant::now() >= until {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "freezer.state"));
                }
                std::thread::sleep(Duration::from_micros(200));
                write_file(&file, want)?;
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Kills every process in the groups: `cgroup.kill` when the kernel has it
    /// (atomic, no fork race), otherwise freeze, SIGKILL each member, thaw.
    pub(crate) fn kill_all(&self) {
        use nix::sys::signal::{kill, Signal};
        use nix::unistd::Pid;
        if let Some(dir) = &self.v2 {
            let file = dir.join("cgroup.kill");
            if file.exists() && write_file(&file, "1").is_ok() {
                return;
            }
        }
        let frozen = self
            .set_frozen(true, Duration::from_millis(200))
            .unwrap_or(false);
        for pid in self.procs() {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        if frozen {
            let _ = self.set_frozen(false, Duration::from_millis(200));
        }
    }

    /// Number of OOM kills in the memory group.
    pub(crate) fn oom_kills(&self) -> Option<u64> {
        if self.v2_controllers.iter().any(|c| c == "memory") {
            if let Some(dir) = &self.v2 {
                if let Some(n) = keyed(&dir.join("memory.events"), "oom_kill") {
                    return Some(n);
                }
            }
        }
        let dir = self.v1_dir(V1Controller::Memory)?;
        keyed(&dir.join("memory.oom_control"), "oom_kill")
    }

    /// Times the memory limit was hit (v1 `memory.failcnt`, v2 `max` event).
    pub(crate) fn memory_limit_hits(&self) -> Option<u64> {
        if self.v2_controllers.iter().any(|c| c == "memory") {
            if let Some(dir) = &self.v2 {
                return keyed(&dir.join("memory.events"), "max");
            }
        }
        let dir = self.v1_dir(V1Controller::Memory)?;
        read_trim(&dir.join("memory.failcnt")).and_then(|s| s.parse().ok())
    }

    /// Peak memory of the tree (v2 `memory.peak`, v1 `memory.max_usage_in_bytes`).
    pub(crate) fn peak_memory(&self) -> Option<u64> {
        if self.v2_controllers.iter().any(|c| c == "memory") {
            if let Some(dir) = &self.v2 {
                if let Some(v) = read_trim(&dir.join("memory.peak")).and_then(|s| s.parse().ok()) {
                    return Some(v);
                }
            }
        }
        let dir = self.v1_dir(V1Controller::Memory)?;
        read_trim(&dir.join("memory.max_usage_in_bytes")).and_then(|s| s.parse().ok())
    }

    /// Times a fork was refused by `pids.max`.
    pub(crate) fn task_limit_hits(&self) -> Option<u64> {
        if self.v2_controllers.iter().any(|c| c == "pids") {
            if let Some(dir) = &self.v2 {
                return keyed(&dir.join("pids.events"), "max");
            }
        }
        let dir = self.v1_dir(V1Controller::Pids)?;
        keyed(&dir.join("pids.events"), "max")
    }

    /// Removes the groups (retrying briefly while the last tasks finish exiting).
    pub(crate) fn remove(&mut self, warnings: &mut Vec<String>) {
        let dirs: Vec<PathBuf> = self.all_dirs().map(Path::to_path_buf).collect();
        for dir in dirs {
            let mut attempt = 0;
            loop {
                match fs::remove_dir(&dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                    Err(e) if attempt >= 200 => {
                        warnings.push(format!("cannot remove cgroup {}: {e}", dir.display()));
                        break;
                    }
                    Err(_) => {
                        attempt += 1;
                        std::thread::sleep(Duration::from_millis(5));
                    }
                }
            }
        }
        self.v2 = None;
        self.v1.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_parses_event_files() {
        let dir = tempfile::tempdir().map_err(|e| e.to_string());
        let Ok(dir) = dir else { return };
        let p = dir.path().join("memory.events");
        assert!(fs::write(&p, "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n").is_ok());
        assert_eq!(keyed(&p, "oom_kill"), Some(1));
        assert_eq!(keyed(&p, "max"), Some(3));
        assert_eq!(keyed(&p, "nope"), None);
    }

    #[test]
    fn join_group_strips_mount_root() {
        let m = Mount {
            root: "/docker/abc".into(),
            mount_point: PathBuf::from("/sys/fs/cgroup/memory"),
            fs_type: "cgroup".into(),
            super_options: "rw,memory".into(),
        };
        assert_eq!(
            join_group(&m, "/docker/abc/x"),
            PathBuf::from("/sys/fs/cgroup/memory/x")
        );
        let m2 = Mount {
            root: "/".into(),
            ..m
        };
        assert_eq!(join_group(&m2, "/"), PathBuf::from("/sys/fs/cgroup/memory"));
    }
}
