//! Which containment layers work on this machine, probed once per referee.

use std::path::PathBuf;

use super::layers::cgroup::{CgroupSupport, V1Controller};
use super::layers::jail::{self, JailSupport};
use super::layers::{landlock, seccomp};
use super::reaper;

/// One containment layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Own session and process group (`setsid`), killed as a group.
    ProcessGroup,
    /// The referee is a child subreaper; escaped orphans come back to it.
    Subreaper,
    /// `setrlimit`: CORE, FSIZE, NOFILE, AS (fallback), CPU (backstop).
    Rlimits,
    /// Landlock file-system, network and scope rules.
    Landlock,
    /// seccomp-BPF syscall filter.
    Seccomp,
    /// Per-bot cgroups (v2 and/or v1 controllers).
    Cgroups,
    /// Only the cgroup v1 controllers (to run on v2 alone).
    CgroupV1,
    /// Only the cgroup v2 hierarchy (to run on v1 alone).
    CgroupV2,
    /// `sched_setaffinity` pinning.
    Affinity,
    /// SIGKILL when the spawning thread exits.
    ParentDeathSignal,
    /// A world of its own: pid, mount, network, ipc, uts and cgroup namespaces, a root with
    /// only the system, its files and a scratch tmpfs, an unprivileged user, no inherited
    /// environment ([`crate::layers::jail`]).
    Namespaces,
}

/// One line of the containment report (for `arbiter doctor`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerStatus {
    /// Short name, e.g. `landlock` or `cgroup v1 memory`.
    pub name: String,
    /// Usable on this machine (and not disabled).
    pub ok: bool,
    /// Version, path or reason.
    pub detail: String,
}

/// The probed (and possibly selectively disabled) containment layers.
#[derive(Clone, Debug)]
pub struct Containment {
    pub(crate) subreaper: Result<(), String>,
    /// Landlock ABI version, 0 when unsupported.
    pub(crate) landlock_abi: u32,
    pub(crate) seccomp: Result<(), String>,
    pub(crate) cgroups: CgroupSupport,
    pub(crate) online_cpus: Vec<usize>,
    pub(crate) disabled: Vec<Layer>,
    /// What a jail is built from, or why none can be made here.
    pub(crate) jail: Result<JailSupport, String>,
}

impl Containment {
    /// Probes every layer. Side effect: makes the calling process a child
    /// subreaper (see [`reaper::install_subreaper`]), and on pure cgroup v2 may
    /// enable controllers for the children of the referee's own group.
    pub fn detect() -> Containment {
        let seccomp = if !seccomp::kernel_supports() {
            Err("kernel without seccomp".to_owned())
        } else {
            seccomp::build(false).map(|_| ()).map_err(|e| e.to_string())
        };
        let online_cpus = match nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0)) {
            Ok(set) => (0..nix::sched::CpuSet::count())
                .filter(|&c| set.is_set(c).unwrap_or(false))
                .collect(),
            Err(_) => Vec::new(),
        };
        let support = JailSupport::for_this_machine();
        let containment = Containment {
            subreaper: reaper::install_subreaper(),
            landlock_abi: landlock::probe_abi(),
            seccomp,
            cgroups: CgroupSupport::detect(),
            online_cpus,
            disabled: Vec::new(),
            jail: jail::probe(&support).map(|()| support),
        };
        containment.without_listed(std::env::var("ARBITER_CONTAINMENT_OFF").ok().as_deref())
    }

    /// Switches off the layers named in `list` (`namespaces,seccomp`...): what
    /// `ARBITER_CONTAINMENT_OFF` does, to try a machine that lacks them.
    fn without_listed(mut self, list: Option<&str>) -> Containment {
        for name in list.unwrap_or("").split(',').map(str::trim) {
            let layer = match name {
                "namespaces" => Layer::Namespaces,
                "seccomp" => Layer::Seccomp,
                "landlock" => Layer::Landlock,
                "cgroups" => Layer::Cgroups,
                _ => continue,
            };
            self = self.without(layer);
        }
        self
    }

    /// Also shows `path` (a toolchain outside the system directories: `/opt/pypy`, a
    /// Python installation) read-only to every jailed bot and compile.
    pub fn with_system_path(mut self, path: impl Into<std::path::PathBuf>) -> Containment {
        if let Ok(support) = &mut self.jail {
            let path = path.into();
            if !support.system.contains(&path) {
                support.system.push(path);
            }
        }
        self
    }

    /// For course staff's judging (`contest serve`, `worker`): an error naming what is
    /// missing, which layers still hold and the fix, unless `unsafe_allowed`
    /// (`--unsafe-containment`), when the gaps are only warnings.
    pub fn require_isolation(&self, unsafe_allowed: bool) -> Result<Vec<String>, String> {
        let gaps = self.isolation_gaps();
        if gaps.is_empty() {
            return Ok(Vec::new());
        }
        if unsafe_allowed {
            return Ok(gaps
                .into_iter()
                .map(|g| format!("--unsafe-containment: judging without {g}"))
                .collect());
        }
        let holding: Vec<String> = self
            .report()
            .into_iter()
            .filter(|l| l.ok)
            .map(|l| l.name)
            .collect();
        Err(format!(
            "refusing to judge students' bots without isolation: {}. Still holding: {}. \
             Without it a bot can read other students' bots and the contest's files. \
             See docs/containment.md for the fix (`arbiter doctor` shows every layer), or pass \
             --unsafe-containment to judge anyway",
            gaps.join("; "),
            holding.join(", ")
        ))
    }

    /// The jail's make-up, when bots are jailed.
    pub(crate) fn jail_support(&self) -> Option<&JailSupport> {
        match (&self.jail, self.disabled.contains(&Layer::Namespaces)) {
            (Ok(s), false) => Some(s),
            _ => None,
        }
    }

    /// The layers that keep one student's bot from seeing or touching anything but its own
    /// world, when one of them is missing here: what is missing, and why. Course staff must
    /// not judge without them (`--unsafe-containment` to override).
    pub fn isolation_gaps(&self) -> Vec<String> {
        let mut gaps = Vec::new();
        match (&self.jail, self.disabled.contains(&Layer::Namespaces)) {
            (Err(why), _) => gaps.push(format!("namespaces: {why}")),
            (Ok(_), true) => gaps.push("namespaces: disabled".into()),
            _ => {}
        }
        if !self.enabled(Layer::Seccomp) {
            gaps.push(format!(
                "seccomp: {}",
                self.seccomp
                    .as_ref()
                    .err()
                    .map_or("disabled", String::as_str)
            ));
        }
        gaps
    }

    /// Process group, subreaper and rlimits only: for tests and for
    /// `--no-sandbox` style runs.
    pub fn minimal() -> Containment {
        Containment::detect()
            .without(Layer::Landlock)
            .without(Layer::Seccomp)
            .without(Layer::Cgroups)
            .without(Layer::Affinity)
            .without(Layer::Namespaces)
    }

    /// The same probe with one layer switched off.
    pub fn without(mut self, layer: Layer) -> Containment {
        if !self.disabled.contains(&layer) {
            self.disabled.push(layer);
        }
        self
    }

    /// Uses cgroups below `parent` (a delegated v2 group) instead of the
    /// referee's own group.
    pub fn with_cgroup_v2_parent(mut self, parent: PathBuf) -> Containment {
        let controllers = std::fs::read_to_string(parent.join("cgroup.subtree_control"))
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        self.cgroups.unified = Some((parent, controllers));
        self
    }

    /// Is the layer usable and not disabled?
    pub fn enabled(&self, layer: Layer) -> bool {
        if self.disabled.contains(&layer) {
            return false;
        }
        match layer {
            Layer::ProcessGroup | Layer::Rlimits | Layer::ParentDeathSignal => true,
            Layer::Subreaper => self.subreaper.is_ok(),
            Layer::Landlock => self.landlock_abi > 0,
            Layer::Seccomp => self.seccomp.is_ok(),
            Layer::Cgroups => self.cgroup_support().is_some(),
            Layer::CgroupV1 => {
                !self.cgroups.v1.is_empty() && !self.disabled.contains(&Layer::Cgroups)
            }
            Layer::CgroupV2 => {
                self.cgroups.unified.is_some() && !self.disabled.contains(&Layer::Cgroups)
            }
            Layer::Affinity => !self.online_cpus.is_empty(),
            Layer::Namespaces => self.jail.is_ok(),
        }
    }

    /// The usable cgroup hierarchies, minus the disabled ones.
    pub(crate) fn cgroup_support(&self) -> Option<CgroupSupport> {
        if self.disabled.contains(&Layer::Cgroups) {
            return None;
        }
        let mut support = self.cgroups.clone();
        if self.disabled.contains(&Layer::CgroupV1) {
            support.v1.clear();
        }
        if self.disabled.contains(&Layer::CgroupV2) {
            support.unified = None;
        }
        (support.unified.is_some() || !support.v1.is_empty()).then_some(support)
    }

    /// CPUs the referee may run bots on.
    pub fn online_cpus(&self) -> &[usize] {
        &self.online_cpus
    }

    /// Can the memory limit be enforced by a cgroup (exact OOM detection)?
    pub fn memory_cgroup(&self) -> bool {
        self.cgroup_support().is_some_and(|s| s.memory())
    }

    /// One status line per layer (and per cgroup controller).
    pub fn report(&self) -> Vec<LayerStatus> {
        let off = |layer| self.disabled.contains(&layer);
        let line = |name: &str, ok: bool, detail: String| LayerStatus {
            name: name.to_owned(),
            ok,
            detail,
        };
        let mut out = vec![line(
            "process group",
            !off(Layer::ProcessGroup),
            "setsid in the child; the group is killed as a whole".into(),
        )];
        out.push(match &self.subreaper {
            Ok(()) => line(
                "subreaper",
                !off(Layer::Subreaper),
                "PR_SET_CHILD_SUBREAPER set".into(),
            ),
            Err(e) => line("subreaper", false, e.clone()),
        });
        out.push(line(
            "rlimits",
            !off(Layer::Rlimits),
            "CORE=0, FSIZE, NOFILE; AS when no memory cgroup".into(),
        ));
        out.push(line(
            "landlock",
            self.enabled(Layer::Landlock),
            match (self.landlock_abi, off(Layer::Landlock)) {
                (0, _) => "not supported by this kernel".into(),
                (abi, true) => format!("ABI {abi} available, disabled"),
                (abi, false) if abi >= 6 => {
                    format!("ABI {abi} or newer: files, TCP, signal and abstract-socket scopes")
                }
                (abi, false) if abi >= 4 => format!("ABI {abi}: files and TCP (no scopes)"),
                (abi, false) => format!("ABI {abi}: files only (no TCP rules)"),
            },
        ));
        out.push(match &self.seccomp {
            Ok(()) if off(Layer::Seccomp) => line("seccomp", false, "disabled".into()),
            Ok(()) => line(
                "seccomp",
                true,
                "socket() except AF_UNIX, io_uring, ptrace, namespaces, mount... -> EPERM".into(),
            ),
            Err(e) => line("seccomp", false, e.clone()),
        });
        let cg_off = off(Layer::Cgroups);
        match &self.cgroups.unified {
            Some((dir, ctrls)) => out.push(line(
                "cgroup v2",
                !cg_off && !off(Layer::CgroupV2),
                format!(
                    "{} controllers [{}]; kill, freeze, cpu.stat",
                    dir.display(),
                    ctrls.join(" ")
                ),
            )),
            None => {
                let why = self
                    .cgroups
                    .problems
                    .iter()
                    .find_map(|p| p.strip_prefix("cgroup v2: "))
                    .unwrap_or("unavailable");
                out.push(line("cgroup v2", false, why.to_owned()));
            }
        }
        for ctrl in V1Controller::ALL {
            let name = format!("cgroup v1 {}", ctrl.name());
            match self.cgroups.v1_dir(ctrl) {
                Some(dir) => out.push(line(
                    &name,
                    !cg_off && !off(Layer::CgroupV1),
                    dir.display().to_string(),
                )),
                None => {
                    let prefix = format!("cgroup v1 {}: ", ctrl.name());
                    let why = self
                        .cgroups
                        .problems
                        .iter()
                        .find_map(|p| p.strip_prefix(prefix.as_str()))
                        .unwrap_or("unavailable")
                        .to_owned();
                    out.push(line(&name, false, why));
                }
            }
        }
        for problem in self
            .cgroups
            .problems
            .iter()
            .filter(|p| p.starts_with("cgroup v2: cannot enable"))
        {
            out.push(line("cgroup v2 controller", false, problem.clone()));
        }
        out.push(line(
            "affinity",
            self.enabled(Layer::Affinity),
            format!(
                "cpus {:?} (advisory: a cpuset cgroup cannot be widened)",
                self.online_cpus
            ),
        ));
        out.push(line(
            "parent death signal",
            !off(Layer::ParentDeathSignal),
            "SIGKILL when the spawning thread exits (if Limits::die_with_spawning_thread)".into(),
        ));
        out.extend(self.jail_report());
        out
    }

    /// The jail's lines: each namespace, the root, the user, the quota, the environment.
    fn jail_report(&self) -> Vec<LayerStatus> {
        let line = |name: &str, ok: bool, detail: String| LayerStatus {
            name: name.to_owned(),
            ok,
            detail,
        };
        let support = match (&self.jail, self.disabled.contains(&Layer::Namespaces)) {
            (Err(why), _) => {
                return vec![line(
                    "namespaces",
                    false,
                    format!("{why}; bots then see the whole file system, other processes and the host's sockets"),
                )]
            }
            (Ok(_), true) => return vec![line("namespaces", false, "available, disabled".into())],
            (Ok(s), false) => s,
        };
        let mut out = vec![
            line(
                "pid namespace",
                true,
                "the bot is pid 2 of its own namespace; /proc shows only it".into(),
            ),
            line(
                "mount namespace",
                true,
                format!(
                    "a read-only root with {} and the bot's own files only",
                    support
                        .system
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            ),
            line(
                "network namespace",
                true,
                "its own, with a loopback that is down (made ahead of the spawn when root): no \
                 socket reaches outside or another bot"
                    .into(),
            ),
            line(
                "ipc, uts, cgroup namespaces",
                true,
                "SysV IPC, hostname and the cgroup tree are its own".into(),
            ),
        ];
        out.push(if support.user_namespace {
            line(
                "user",
                true,
                format!(
                    "user namespace: runs as our uid {} with no capabilities",
                    support.uid
                ),
            )
        } else {
            line(
                "user",
                true,
                format!("runs as uid {} gid {} (not root)", support.uid, support.gid),
            )
        });
        out.push(line(
            "disk quota",
            true,
            format!(
                "scratch is a tmpfs of {} MB by default (Limits::scratch_bytes)",
                jail::DEFAULT_SCRATCH_BYTES >> 20
            ),
        ));
        out.push(line(
            "environment",
            true,
            format!(
                "cleared: PATH={}, HOME and TMPDIR = scratch, LANG, ARBITER_*",
                jail::JAIL_PATH
            ),
        ));
        out
    }

    /// The report lines that are not ok, as warnings (printed once by the caller).
    pub fn warnings(&self) -> Vec<String> {
        self.report()
            .into_iter()
            .filter(|l| !l.ok)
            .map(|l| format!("containment: {} unavailable: {}", l.name, l.detail))
            .collect()
    }
}
