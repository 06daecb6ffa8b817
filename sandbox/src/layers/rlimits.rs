//! Resource limits set in the child before exec (`setrlimit` is
//! async-signal-safe).

use nix::sys::resource::{setrlimit, Resource};

/// The limits one child gets, computed before fork.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RlimitPlan {
    pub(crate) entries: Vec<(Resource, u64)>,
}

impl RlimitPlan {
    /// `CORE` 0 always; `FSIZE`, `NOFILE`; `AS` only when no memory cgroup
    /// enforces the limit; `CPU` as an optional backstop.
    pub(crate) fn new(
        address_space: Option<u64>,
        file_bytes: u64,
        open_files: u64,
        cpu_seconds: Option<u64>,
    ) -> Self {
        let mut entries = vec![
            (Resource::RLIMIT_CORE, 0),
            (Resource::RLIMIT_FSIZE, file_bytes),
            (Resource::RLIMIT_NOFILE, open_files.max(16)),
        ];
        if let Some(bytes) = address_space {
            entries.push((Resource::RLIMIT_AS, bytes));
        }
        if let Some(secs) = cpu_seconds {
            entries.push((Resource::RLIMIT_CPU, secs.max(1)));
        }
        RlimitPlan { entries }
    }

    /// Applies soft = hard = value. Runs in the forked child: no allocation.
    pub(crate) fn apply(&self) -> nix::Result<()> {
        for &(resource, value) in &self.entries {
            setrlimit(resource, value, value)?;
        }
        Ok(())
    }
}
