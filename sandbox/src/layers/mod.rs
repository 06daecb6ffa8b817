//! Containment layers prepared in the parent and applied in the forked child.
//!
//! `pre_exec` runs between fork and exec in a copy of a multi-threaded
//! process, so it must only make async-signal-safe calls: everything that
//! allocates (Landlock ruleset, seccomp BPF, cgroup fds, CPU set, rlimit
//! values) is built here, before fork, and the child only issues syscalls.

pub mod cgroup;
pub mod jail;
pub mod landlock;
pub mod rlimits;
pub mod seccomp;

use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::sched::CpuSet;

/// The step of `pre_exec` that failed, recovered from the errno the child
/// reports (see [`ChildSetupError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupStep {
    /// `setsid()`.
    Session,
    /// `PR_SET_PDEATHSIG`.
    ParentDeathSignal,
    /// Writing our pid to a cgroup's `cgroup.procs`.
    CgroupJoin,
    /// `sched_setaffinity`.
    Affinity,
    /// `setrlimit`.
    Rlimits,
    /// `landlock_restrict_self`.
    Landlock,
    /// Loading the seccomp filter.
    Seccomp,
}

const STEPS: [SetupStep; 7] = [
    SetupStep::Session,
    SetupStep::ParentDeathSignal,
    SetupStep::CgroupJoin,
    SetupStep::Affinity,
    SetupStep::Rlimits,
    SetupStep::Landlock,
    SetupStep::Seccomp,
];

/// std reports a `pre_exec` failure as the raw OS error the closure returned;
/// the step is encoded in it so the parent can say which layer failed.
const STEP_BASE: i32 = 0x4152_0000;

fn encode(step: SetupStep, errno: i32) -> std::io::Error {
    let index = STEPS.iter().position(|s| *s == step).unwrap_or(0) as i32;
    std::io::Error::from_raw_os_error(STEP_BASE + (index << 12) + (errno & 0xfff))
}

/// A containment step failed in the child before exec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildSetupError {
    /// Which step.
    pub step: SetupStep,
    /// The errno it failed with.
    pub errno: i32,
}

/// Recognises an error produced by [`encode`].
pub(crate) fn decode(err: &std::io::Error) -> Option<ChildSetupError> {
    let raw = err.raw_os_error()?;
    if raw & !0xffff != STEP_BASE {
        return None;
    }
    let step = *STEPS.get(((raw >> 12) & 0xf) as usize)?;
    Some(ChildSetupError {
        step,
        errno: raw & 0xfff,
    })
}

/// Everything the child must apply, built before fork.
pub(crate) struct ChildSetup {
    pub(crate) new_session: bool,
    pub(crate) parent_death_signal: bool,
    pub(crate) cgroup_procs: Vec<OwnedFd>,
    pub(crate) affinity: Option<CpuSet>,
    pub(crate) rlimits: rlimits::RlimitPlan,
    pub(crate) landlock: Option<::landlock::RulesetCreated>,
    pub(crate) seccomp: Option<seccomp::SeccompPlan>,
}

impl ChildSetup {
    /// Registers the setup as the command's `pre_exec` hook.
    pub(crate) fn install(self, command: &mut Command) {
        let mut setup = self;
        let hook = move || setup.apply_in_child();
        // SAFETY: `apply_in_child` only performs async-signal-safe system calls
        // (setsid, prctl, write, sched_setaffinity, setrlimit,
        // landlock_restrict_self, seccomp) on data prepared before fork; it
        // does not allocate on its success path, takes no locks and touches no
        // state shared with other threads of the parent.
        #[allow(unsafe_code)]
        unsafe {
            command.pre_exec(hook);
        }
    }

    fn apply_in_child(&mut self) -> std::io::Result<()> {
        use nix::errno::Errno;
        let fail = |step, e: Errno| encode(step, e as i32);
        if self.new_session {
            nix::unistd::setsid().map_err(|e| fail(SetupStep::Session, e))?;
        }
        if self.parent_death_signal {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
                .map_err(|e| fail(SetupStep::ParentDeathSignal, e))?;
        }
        for fd in &self.cgroup_procs {
            nix::unistd::write(fd, b"0").map_err(|e| fail(SetupStep::CgroupJoin, e))?;
        }
        if let Some(set) = &self.affinity {
            nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), set)
                .map_err(|e| fail(SetupStep::Affinity, e))?;
        }
        self.rlimits
            .apply()
            .map_err(|e| fail(SetupStep::Rlimits, e))?;
        if let Some(ruleset) = self.landlock.take() {
            self::landlock::enforce(ruleset)
                .map_err(|_| fail(SetupStep::Landlock, Errno::last()))?;
        }
        if let Some(plan) = &self.seccomp {
            plan.apply()
                .map_err(|_| fail(SetupStep::Seccomp, Errno::last()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_codes_roundtrip() {
        for step in STEPS {
            let e = encode(step, libc::EPERM);
            assert_eq!(
                decode(&e),
                Some(ChildSetupError {
                    step,
                    errno: libc::EPERM
                })
            );
        }
        assert_eq!(
            decode(&std::io::Error::from_raw_os_error(libc::ENOENT)),
            None
        );
    }
}
