//! Landlock file-system and network rules, built before fork and enforced in
//! the child with `landlock_restrict_self`.
//!
//! Policy: read and execute anywhere; write, create and remove only beneath the
//! scratch directory, plus writing to `/dev/null`; no TCP bind or connect unless
//! the network is allowed (ABI 4+); no signals to processes outside the bot's
//! own tree and no connecting to abstract UNIX sockets created outside it (ABI
//! 6+). Rules apply to files opened after exec; already-open fds (the pipes) are
//! unaffected. Compatibility is best-effort: an older kernel enforces the subset
//! it knows.

use std::path::Path;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, PathFdError,
    Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus, Scope,
    ABI,
};

/// The newest ABI this code asks for.
const TARGET_ABI: ABI = ABI::V6;

/// Highest Landlock ABI the running kernel supports (0 when unsupported).
pub(crate) fn probe_abi() -> u32 {
    let candidates = [
        (ABI::V1, 1),
        (ABI::V2, 2),
        (ABI::V3, 3),
        (ABI::V4, 4),
        (ABI::V5, 5),
        (ABI::V6, 6),
    ];
    let mut best = 0;
    for (abi, n) in candidates {
        let created = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.create());
        match created {
            Ok(_) => best = n,
            Err(_) => break,
        }
    }
    best
}

/// Why the ruleset could not be built.
#[derive(Debug, thiserror::Error)]
pub enum LandlockBuildError {
    /// The kernel or the crate refused the ruleset.
    #[error("landlock ruleset: {0}")]
    Ruleset(#[from] RulesetError),
    /// A rule's path cannot be opened.
    #[error("landlock path: {0}")]
    Path(#[from] PathFdError),
}

/// Builds the ruleset in the parent; the child only calls `restrict_self`.
pub(crate) fn build(
    scratch: Option<&Path>,
    allow_network: bool,
) -> Result<RulesetCreated, LandlockBuildError> {
    let read = AccessFs::from_read(TARGET_ABI);
    let all = AccessFs::from_all(TARGET_ABI);
    let mut ruleset = Ruleset::default().handle_access(all)?;
    if !allow_network {
        ruleset = ruleset.handle_access(AccessNet::from_all(TARGET_ABI))?;
    }
    ruleset = ruleset.scope(Scope::from_all(TARGET_ABI))?;
    let mut created = ruleset.create()?;
    created = created.add_rule(PathBeneath::new(PathFd::new("/")?, read))?;
    if let Ok(null) = PathFd::new("/dev/null") {
        created = created.add_rule(PathBeneath::new(
            null,
            AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
        ))?;
    }
    if let Some(dir) = scratch {
        created = created.add_rule(PathBeneath::new(PathFd::new(dir)?, all))?;
    }
    Ok(created)
}

/// Enforces the ruleset on the calling (forked, single-threaded) process.
/// Also sets `no_new_privs`. Returns false when the kernel enforced nothing.
pub(crate) fn enforce(ruleset: RulesetCreated) -> Result<bool, RulesetError> {
    let status = ruleset.restrict_self()?;
    Ok(status.ruleset != RulesetStatus::NotEnforced)
}

/// Landlock inside a jail. The rules name the jail's own root and scratch, which exist only
/// in the keeper's mount namespace: the ruleset is made here, its rules are added by the bot
/// itself with raw system calls before `restrict_self`.
#[derive(Debug)]
pub(crate) struct JailLandlock {
    ruleset: std::os::fd::OwnedFd,
    read_exec: u64,
    all: u64,
    device: u64,
    scratch: std::ffi::CString,
}

/// The ABI the ruleset is made for: the kernel's, up to the one this code asks for.
fn effective_abi(kernel_abi: u32) -> ABI {
    match kernel_abi.min(6) {
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        _ => ABI::V6,
    }
}

impl JailLandlock {
    /// The ruleset (no rules yet) with the same handled accesses as [`build`]. `None` when the
    /// kernel has no Landlock.
    pub(crate) fn new(
        kernel_abi: u32,
        scratch: &Path,
        allow_network: bool,
    ) -> Result<Option<JailLandlock>, String> {
        if kernel_abi == 0 {
            return Ok(None);
        }
        let abi = effective_abi(kernel_abi);
        let all = AccessFs::from_all(abi);
        let mut ruleset = Ruleset::default()
            .handle_access(all)
            .map_err(|e| e.to_string())?;
        if !allow_network {
            ruleset = ruleset
                .handle_access(AccessNet::from_all(abi))
                .map_err(|e| e.to_string())?;
        }
        ruleset = ruleset
            .scope(Scope::from_all(abi))
            .map_err(|e| e.to_string())?;
        let created = ruleset.create().map_err(|e| e.to_string())?;
        let Some(fd) = Option::<std::os::fd::OwnedFd>::from(created) else {
            return Ok(None);
        };
        let device = (AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate) & all;
        use std::os::unix::ffi::OsStrExt;
        Ok(Some(JailLandlock {
            ruleset: fd,
            read_exec: AccessFs::from_read(abi).bits(),
            all: all.bits(),
            device: device.bits(),
            scratch: std::ffi::CString::new(scratch.as_os_str().as_bytes())
                .map_err(|_| "the scratch path holds a NUL byte".to_string())?,
        }))
    }

    /// The ruleset's descriptor (the keeper keeps it open for the bot).
    pub(crate) fn raw_fd(&self) -> std::os::fd::RawFd {
        use std::os::fd::AsRawFd;
        self.ruleset.as_raw_fd()
    }

    /// In the bot, after it entered its root: read and execute beneath `/`, everything
    /// beneath the scratch, read and write on the devices; then restrict itself. Only system
    /// calls; returns the errno of the one that failed.
    #[allow(unsafe_code)]
    pub(crate) fn enforce_in_jail(&self) -> Result<(), i32> {
        #[repr(C, packed)]
        struct PathBeneathAttr {
            allowed_access: u64,
            parent_fd: i32,
        }
        const RULE_PATH_BENEATH: libc::c_long = 1;
        use std::os::fd::AsRawFd;
        // /tmp is the scratch too, or the tmpfs that holds it.
        let rules: [(&std::ffi::CStr, u64); 7] = [
            (c"/", self.read_exec),
            (self.scratch.as_c_str(), self.all),
            (c"/tmp", self.all),
            (c"/dev/null", self.device),
            (c"/dev/zero", self.device),
            (c"/dev/urandom", self.device),
            (c"/dev/random", self.device),
        ];
        let errno = || nix::errno::Errno::last_raw();
        // SAFETY: plain system calls on NUL-terminated paths and a struct on this stack.
        unsafe {
            for (path, access) in rules {
                let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                if fd < 0 {
                    continue; // a device this machine does not have
                }
                let attr = PathBeneathAttr {
                    allowed_access: access,
                    parent_fd: fd,
                };
                let r = libc::syscall(
                    libc::SYS_landlock_add_rule,
                    self.ruleset.as_raw_fd(),
                    RULE_PATH_BENEATH,
                    &attr as *const PathBeneathAttr,
                    0u32,
                );
                libc::close(fd);
                if r < 0 {
                    return Err(errno());
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 {
                return Err(errno());
            }
            if libc::syscall(
                libc::SYS_landlock_restrict_self,
                self.ruleset.as_raw_fd(),
                0u32,
            ) < 0
            {
                return Err(errno());
            }
        }
        Ok(())
    }
}
