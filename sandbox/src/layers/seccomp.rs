//! A seccomp-BPF filter compiled before fork and loaded in the child.
//!
//! Default: allow. Refused with `EPERM` (the bot sees an ordinary error, it is
//! not killed): `socket()` for any family but `AF_UNIX` (unless the network is
//! allowed), io_uring (whose operations bypass seccomp), ptrace and
//! process_vm_*, namespace creation (`unshare`, `setns`, `clone` with
//! `CLONE_NEW*`), mounts, kernel modules, kexec, reboot, bpf, perf_event_open,
//! userfaultfd, keyctl, clock and host setters, swap, acct, quotactl.
//! `clone3` gets `ENOSYS` so that libc falls back to `clone`, whose flags the
//! filter can inspect.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The architecture seccompiler can compile for, if this is one.
pub(crate) fn target_arch() -> Option<TargetArch> {
    match std::env::consts::ARCH {
        "x86_64" => Some(TargetArch::x86_64),
        "aarch64" => Some(TargetArch::aarch64),
        "riscv64" => Some(TargetArch::riscv64),
        _ => None,
    }
}

/// Does the kernel have seccomp filters (`Seccomp:` in /proc/self/status)?
pub(crate) fn kernel_supports() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Seccomp:")))
        .unwrap_or(false)
}

/// Why the filter could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SeccompBuildError {
    /// seccompiler does not know this CPU architecture.
    #[error("seccomp: unsupported architecture {0}")]
    UnsupportedArch(&'static str),
    /// seccompiler rejected the rules.
    #[error("seccomp: {0}")]
    Compile(#[from] seccompiler::BackendError),
    /// seccompiler rejected the program.
    #[error("seccomp: {0}")]
    Program(#[from] seccompiler::Error),
}

fn deny_always() -> Vec<i64> {
    vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_name_to_handle_at,
        libc::SYS_open_by_handle_at,
        // Reaching other processes: a pidfd, comparing their kernel objects, the kernel log.
        libc::SYS_pidfd_open,
        libc::SYS_pidfd_send_signal,
        libc::SYS_pidfd_getfd,
        libc::SYS_process_madvise,
        libc::SYS_kcmp,
        libc::SYS_syslog,
    ]
}

/// Calls that act on a process named by its pid in argument `.1`: allowed on the caller
/// itself (pid 0) only. Inside a jail there is nobody else to name anyway; this is the second
/// wall (`prlimit(getppid(), RLIMIT_NOFILE, ...)` once took a contest server down).
const SELF_ONLY: [(i64, u8); 9] = [
    (libc::SYS_prlimit64, 0),
    (libc::SYS_sched_setaffinity, 0),
    (libc::SYS_sched_setscheduler, 0),
    (libc::SYS_sched_setparam, 0),
    (libc::SYS_sched_setattr, 0),
    (libc::SYS_migrate_pages, 0),
    (libc::SYS_move_pages, 0),
    // setpriority(which, who, prio) and ioprio_set(which, who, prio): `who` is the pid.
    (libc::SYS_setpriority, 1),
    (libc::SYS_ioprio_set, 1),
];

const CLONE_NAMESPACE_FLAGS: [u64; 7] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
];

/// The compiled filters; loaded one after the other in the child (the kernel
/// applies the strictest verdict of all loaded filters).
#[derive(Debug)]
pub(crate) struct SeccompPlan {
    programs: Vec<BpfProgram>,
}

impl SeccompPlan {
    /// Loads the filters on the calling (forked) process; also sets
    /// `no_new_privs`. No allocation.
    pub(crate) fn apply(&self) -> Result<(), seccompiler::Error> {
        for program in &self.programs {
            seccompiler::apply_filter(program)?;
        }
        Ok(())
    }
}

/// Compiles the filters (in the parent, before fork).
pub(crate) fn build(allow_network: bool) -> Result<SeccompPlan, SeccompBuildError> {
    let arch = target_arch().ok_or(SeccompBuildError::UnsupportedArch(std::env::consts::ARCH))?;
    let eperm = SeccompAction::Errno(libc::EPERM as u32);
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for nr in deny_always() {
        rules.insert(nr, Vec::new());
    }
    if !allow_network {
        let cond = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )?;
        rules.insert(libc::SYS_socket, vec![SeccompRule::new(vec![cond])?]);
    }
    for (nr, arg) in SELF_ONLY {
        let other = SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, 0)?;
        rules.insert(nr, vec![SeccompRule::new(vec![other])?]);
    }
    let mut clone_rules = Vec::new();
    for flag in CLONE_NAMESPACE_FLAGS {
        let cond = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )?;
        clone_rules.push(SeccompRule::new(vec![cond])?);
    }
    rules.insert(libc::SYS_clone, clone_rules);
    let main: BpfProgram =
        SeccompFilter::new(rules, SeccompAction::Allow, eperm, arch)?.try_into()?;
    // clone3 passes its flags in memory, out of seccomp's reach: ENOSYS makes
    // glibc and musl fall back to clone(), whose flags the first filter checks.
    let mut clone3 = BTreeMap::new();
    clone3.insert(libc::SYS_clone3, Vec::new());
    let enosys = SeccompAction::Errno(libc::ENOSYS as u32);
    let second: BpfProgram =
        SeccompFilter::new(clone3, SeccompAction::Allow, enosys, arch)?.try_into()?;
    let mut programs = vec![main, second];
    programs.extend(x32_filter());
    Ok(SeccompPlan { programs })
}

/// On x86_64, the x32 ABI reaches the same kernel with the syscall number's bit 30 set, past
/// every rule above (they name x86_64 numbers): refuse all of it.
fn x32_filter() -> Option<BpfProgram> {
    if std::env::consts::ARCH != "x86_64" {
        return None;
    }
    const LD_W_ABS: u16 = 0x20;
    const JEQ_K: u16 = 0x15;
    const JGE_K: u16 = 0x35;
    const RET_K: u16 = 0x06;
    const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    const RET_ALLOW: u32 = 0x7fff_0000;
    const RET_ERRNO: u32 = 0x0005_0000;
    let op = |code, jt, jf, k| seccompiler::sock_filter { code, jt, jf, k };
    Some(vec![
        op(LD_W_ABS, 0, 0, 4), // arch
        op(JEQ_K, 0, 3, AUDIT_ARCH_X86_64),
        op(LD_W_ABS, 0, 0, 0), // syscall number
        op(JGE_K, 0, 1, X32_SYSCALL_BIT),
        op(RET_K, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        op(RET_K, 0, 0, RET_ALLOW),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_compile_on_this_arch() {
        if target_arch().is_none() {
            return;
        }
        let plan = build(false).map_err(|e| e.to_string());
        assert!(
            plan.as_ref()
                .is_ok_and(|p| p.programs.len() >= 2 && !p.programs[0].is_empty()),
            "{plan:?}"
        );
        assert!(build(true).is_ok());
    }
}
