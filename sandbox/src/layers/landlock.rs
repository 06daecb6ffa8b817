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
