//! The bot's own world: namespaces, a root of its own, an unprivileged user.
//!
//! A jailed bot is started by a `clone` with new pid, mount, network, ipc and uts namespaces
//! (and a user namespace when arbiter is not root). The cloned process is the namespace's
//! init ("keeper"): it joins the bot's cgroups, builds the root, forks the bot (pid 2 of the
//! namespace), reaps everything in it and reports the bot's wait status on a pipe. The bot
//! is not pid 1 because pid 1 ignores the signals it sends itself: `abort()` would then end
//! as SIGSEGV and a C++ exception would read as a segfault.
//!
//! The root is a small read-only tmpfs holding, at their host paths:
//! - the system's program directories (`/usr`, `/lib`..., read-only binds; merged-usr
//!   symlinks recreated) and a few files of `/etc` the loader and the interpreters read;
//! - the bot's own files ([`crate::BotCommand::visible`]), read-only;
//! - its scratch directory: a tmpfs of bounded size (the disk quota), also at `/tmp`, or for
//!   a compile the host directory bound writable;
//! - `/proc` of its own pid namespace, and `/dev` with null, zero, random and urandom;
//! - an `/etc/passwd` and `/etc/group` naming only its user.
//!
//! Nothing else of the host is there: not the contest directory, the artefact store, the
//! database, `/tmp`, `/run` or `/home`. The network namespace has only a loopback that is
//! down, so no socket reaches outside; each bot has its own (made ahead as root,
//! [`fresh_network`]).
//!
//! Everything that allocates happens here in the parent; the keeper and the bot only issue
//! system calls on what was prepared (they are copies of a multi-threaded process).

use std::collections::BTreeSet;
use std::ffi::{CStr, CString, OsStr};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use nix::errno::Errno;

use super::landlock::JailLandlock;
use super::rlimits::RlimitPlan;
use super::seccomp::SeccompPlan;

/// Where the root is assembled, in the keeper's private mount namespace (the host's own
/// `/tmp` is covered only there).
const BASE: &str = "/tmp";

/// The system directories every jail sees, when they exist.
pub const SYSTEM_PATHS: [&str; 7] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// Files and directories of `/etc` that the dynamic loader, `cc` and the interpreters read.
/// Not `/etc/passwd` (a jail gets its own), never `/etc/shadow`.
pub const ETC_PATHS: [&str; 9] = [
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/python3",
    "/etc/python3.11",
    "/etc/python3.12",
];

/// The user a jailed bot runs as when arbiter runs as root: `nobody`.
pub const JAIL_ID: u32 = 65534;

/// The PATH inside a jail.
pub const JAIL_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The disk quota of a bot's scratch directory when none is set.
pub const DEFAULT_SCRATCH_BYTES: u64 = 64 << 20;

/// What a jail may be built from on this machine, probed once.
#[derive(Clone, Debug)]
pub struct JailSupport {
    /// arbiter is not root: the jail needs a user namespace, and the bot keeps our uid.
    pub user_namespace: bool,
    /// The uid and gid the bot runs as.
    pub uid: u32,
    pub gid: u32,
    /// Read-only system paths (directories, files or symlinks) present here.
    pub system: Vec<PathBuf>,
}

impl JailSupport {
    /// The paths of this machine, and our identity.
    pub fn for_this_machine() -> JailSupport {
        let root = nix::unistd::geteuid().is_root();
        let mut system: Vec<PathBuf> = SYSTEM_PATHS
            .iter()
            .chain(ETC_PATHS.iter())
            .map(PathBuf::from)
            .filter(|p| p.symlink_metadata().is_ok())
            .collect();
        system.dedup();
        JailSupport {
            user_namespace: !root,
            uid: if root {
                JAIL_ID
            } else {
                nix::unistd::geteuid().as_raw()
            },
            gid: if root {
                JAIL_ID
            } else {
                nix::unistd::getegid().as_raw()
            },
            system,
        }
    }
}

/// What one jail holds besides the system: the bot's scratch and its own files.
#[derive(Clone, Debug)]
pub(crate) struct JailRequest<'a> {
    /// Its scratch directory's path (host and jail: the same).
    pub scratch: &'a Path,
    /// A tmpfs of this size at `scratch`; `None`: bind the host directory writable.
    pub scratch_bytes: Option<u64>,
    /// Files and directories it sees read-only, at their host paths.
    pub visible: &'a [PathBuf],
    /// Its working directory (must be visible, or the scratch).
    pub cwd: &'a Path,
}

/// One step of building the root, in order.
#[derive(Debug)]
enum Step {
    Mkdir(CString),
    /// A directory owned by the bot's user (the scratch inside /tmp).
    OwnedDir(CString, u32, u32),
    Touch(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    /// Bind `source` at `target`, then remount with `flags`. A host source is opened by the
    /// keeper before the base covers `/tmp` (a mount of the parent's namespace cannot be
    /// bound from the new one), and bound through `/proc/self/fd/N`.
    Bind {
        source: CString,
        host: bool,
        fd: std::cell::Cell<i32>,
        target: CString,
        flags: libc::c_ulong,
        /// With the mounts beneath it. Not for a source that holds the root being built
        /// (the host's `/tmp`, where a bot run from there works): they would come along.
        recursive: bool,
    },
    Mount {
        fstype: CString,
        target: CString,
        flags: libc::c_ulong,
        data: CString,
    },
    WriteFile {
        path: CString,
        content: Vec<u8>,
    },
    ReadOnly(CString),
}

/// Where the keeper or the bot failed, as the parent is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum JailStage {
    Session = 1,
    ParentDeathSignal,
    /// Joining the empty network namespace made ahead.
    Network,
    UserNamespace,
    CgroupJoin,
    CgroupNamespace,
    /// Building the root (the step's index is in the message).
    Root,
    PivotRoot,
    Hostname,
    Fork,
    Affinity,
    Rlimits,
    DropPrivileges,
    WorkingDirectory,
    Landlock,
    Seccomp,
    Exec,
}

impl JailStage {
    const ALL: [JailStage; 17] = [
        JailStage::Session,
        JailStage::ParentDeathSignal,
        JailStage::Network,
        JailStage::UserNamespace,
        JailStage::CgroupJoin,
        JailStage::CgroupNamespace,
        JailStage::Root,
        JailStage::PivotRoot,
        JailStage::Hostname,
        JailStage::Fork,
        JailStage::Affinity,
        JailStage::Rlimits,
        JailStage::DropPrivileges,
        JailStage::WorkingDirectory,
        JailStage::Landlock,
        JailStage::Seccomp,
        JailStage::Exec,
    ];

    fn from_code(code: u32) -> Option<JailStage> {
        JailStage::ALL.into_iter().find(|s| *s as u32 == code)
    }
}

/// A failure reported by the keeper or the bot before exec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JailError {
    pub stage: JailStage,
    pub errno: i32,
    /// For [`JailStage::Root`]: the path being mounted or made.
    pub detail: Option<String>,
}

impl std::fmt::Display for JailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} failed: {}",
            self.stage,
            Errno::from_raw(self.errno)
        )?;
        if let Some(d) = &self.detail {
            write!(f, " ({d})")?;
        }
        Ok(())
    }
}

/// The root, prepared in the parent.
#[derive(Debug)]
pub(crate) struct RootPlan {
    steps: Vec<Step>,
    made: BTreeSet<PathBuf>,
    /// Paths bound whole (system and visible): nothing beneath them is bound again.
    bound: Vec<PathBuf>,
    cwd: CString,
}

fn cstr(bytes: &[u8]) -> Result<CString, String> {
    CString::new(bytes).map_err(|_| "a path holds a NUL byte".to_string())
}

fn inside(path: &Path) -> Result<CString, String> {
    let mut bytes = BASE.as_bytes().to_vec();
    bytes.extend_from_slice(path.as_os_str().as_bytes());
    cstr(&bytes)
}

/// An absolute path without `..`, `.` or empty parts.
fn plain_absolute(path: &Path) -> Result<PathBuf, String> {
    let abs = std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = PathBuf::from("/");
    for c in abs.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Prefix(_) => return Err(format!("{}: not a Unix path", path.display())),
        }
    }
    Ok(out)
}

/// May the jail's user read and enter `dir`, by its mode bits?
fn enterable(dir: &Path, support: &JailSupport) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = dir.metadata() else {
        return false;
    };
    let mode = meta.mode();
    let bits = if meta.uid() == support.uid {
        mode >> 6
    } else if meta.gid() == support.gid {
        mode >> 3
    } else {
        mode
    };
    bits & 0o5 == 0o5
}

/// The mount flags that must be kept on a bind (a user namespace may not clear them).
fn locked_flags(fd: &OwnedFd) -> libc::c_ulong {
    match nix::sys::statvfs::fstatvfs(fd) {
        Ok(st) => {
            // The kernel's ST_* bits, read raw: nix names ST_RELATIME for glibc only, and the
            // static (musl) build must know it too.
            const ST_NOEXEC: libc::c_ulong = 0x0008;
            const ST_NOATIME: libc::c_ulong = 0x0400;
            const ST_NODIRATIME: libc::c_ulong = 0x0800;
            const ST_RELATIME: libc::c_ulong = 0x1000;
            let f = st.flags().bits() as libc::c_ulong;
            let mut out = 0;
            for (st_flag, ms_flag) in [
                (ST_NOEXEC, libc::MS_NOEXEC),
                (ST_NOATIME, libc::MS_NOATIME),
                (ST_NODIRATIME, libc::MS_NODIRATIME),
                (ST_RELATIME, libc::MS_RELATIME),
            ] {
                if f & st_flag != 0 {
                    out |= ms_flag;
                }
            }
            out
        }
        Err(_) => 0,
    }
}

impl RootPlan {
    /// The root for one bot.
    pub(crate) fn new(support: &JailSupport, req: &JailRequest<'_>) -> Result<RootPlan, String> {
        let mut plan = RootPlan {
            steps: Vec::new(),
            made: BTreeSet::new(),
            bound: Vec::new(),
            cwd: cstr(b"/")?,
        };
        for path in &support.system {
            plan.system_path(path)?;
        }
        plan.bound = support
            .system
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        let scratch = plain_absolute(req.scratch)?;
        // Real paths, directories before what they hold: what a bound directory or a system
        // path already shows is not bound again.
        let mut visible: Vec<PathBuf> = req
            .visible
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        visible.sort_by_key(|p| p.components().count());
        visible.dedup();
        if visible.iter().any(|p| p == Path::new("/")) {
            return Err("the whole file system cannot be made visible to a bot".into());
        }
        let in_visible = visible.iter().any(|p| scratch.starts_with(p));
        let tmp_holds_scratch = !in_visible && scratch.starts_with("/tmp");
        if tmp_holds_scratch {
            // First, so that visible paths beneath /tmp are bound on top of it.
            plan.tmp_tmpfs(support, req.scratch_bytes)?;
        }
        for path in visible {
            if plan.covered(&path) {
                continue;
            }
            if path.is_dir() && !enterable(&path, support) {
                // A private directory (a `mktemp -d`) is not shown to another user whole: its
                // path exists, empty, and the files named inside it are bound one by one.
                plan.dir(&path)?;
                continue;
            }
            plan.bind(&path, &path, false)?;
            plan.bound.push(path);
        }
        plan.dev()?;
        plan.dir(Path::new("/proc"))?;
        plan.steps.push(Step::Mount {
            fstype: cstr(b"proc")?,
            target: inside(Path::new("/proc"))?,
            flags: libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            data: cstr(b"")?,
        });
        plan.scratch(support, &scratch, req.scratch_bytes, in_visible)?;
        plan.identity(support)?;
        let cwd = plain_absolute(req.cwd)?;
        plan.cwd = cstr(cwd.as_os_str().as_bytes())?;
        Ok(plan)
    }

    /// Is `path` already shown by a bound path?
    fn covered(&self, path: &Path) -> bool {
        self.bound.iter().any(|b| path.starts_with(b))
    }

    fn dir(&mut self, path: &Path) -> Result<(), String> {
        let mut at = PathBuf::from("/");
        for c in path.components() {
            if let Component::Normal(part) = c {
                at.push(part);
                if self.made.insert(at.clone()) {
                    self.steps.push(Step::Mkdir(inside(&at)?));
                }
            }
        }
        Ok(())
    }

    fn system_path(&mut self, path: &Path) -> Result<(), String> {
        let Ok(meta) = path.symlink_metadata() else {
            return Ok(());
        };
        if meta.file_type().is_symlink() {
            // Merged /usr: /bin -> usr/bin. Recreate the link; its target is bound itself.
            let target =
                std::fs::read_link(path).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(parent) = path.parent() {
                self.dir(parent)?;
            }
            if self.made.insert(path.to_path_buf()) {
                self.steps.push(Step::Symlink {
                    target: cstr(target.as_os_str().as_bytes())?,
                    link: inside(path)?,
                });
            }
            return Ok(());
        }
        self.bind(path, path, false)
    }

    /// Binds host `source` at `target` (inside), read-only unless `writable`.
    fn bind(&mut self, source: &Path, target: &Path, writable: bool) -> Result<(), String> {
        if self.made.contains(target) {
            return Ok(());
        }
        let fd = nix::fcntl::open(
            source,
            nix::fcntl::OFlag::O_PATH | nix::fcntl::OFlag::O_CLOEXEC,
            nix::sys::stat::Mode::empty(),
        )
        .map_err(|e| format!("cannot open {} for the sandbox: {e}", source.display()))?;
        let is_dir = nix::sys::stat::fstat(&fd)
            .map(|st| st.st_mode & libc::S_IFMT == libc::S_IFDIR)
            .map_err(|e| format!("{}: {e}", source.display()))?;
        if let Some(parent) = target.parent() {
            self.dir(parent)?;
        }
        self.made.insert(target.to_path_buf());
        let at = inside(target)?;
        self.steps.push(if is_dir {
            Step::Mkdir(at.clone())
        } else {
            Step::Touch(at.clone())
        });
        let mut flags = libc::MS_NOSUID | libc::MS_NODEV | locked_flags(&fd);
        if !writable {
            flags |= libc::MS_RDONLY;
        }
        self.steps.push(Step::Bind {
            source: cstr(source.as_os_str().as_bytes())?,
            host: true,
            fd: std::cell::Cell::new(-1),
            target: at,
            flags,
            recursive: !Path::new(BASE).starts_with(source),
        });
        Ok(())
    }

    /// A `/dev` of its own: null, zero, random, urandom, and the usual links.
    fn dev(&mut self) -> Result<(), String> {
        let dev = Path::new("/dev");
        self.dir(dev)?;
        self.steps.push(Step::Mount {
            fstype: cstr(b"tmpfs")?,
            target: inside(dev)?,
            flags: libc::MS_NOSUID | libc::MS_NOEXEC,
            data: cstr(b"size=64k,nr_inodes=64,mode=0755")?,
        });
        for name in ["null", "zero", "random", "urandom"] {
            let path = dev.join(name);
            if path.exists() {
                let fd = nix::fcntl::open(
                    &path,
                    nix::fcntl::OFlag::O_PATH | nix::fcntl::OFlag::O_CLOEXEC,
                    nix::sys::stat::Mode::empty(),
                )
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
                self.made.insert(path.clone());
                self.steps.push(Step::Touch(inside(&path)?));
                self.steps.push(Step::Bind {
                    source: cstr(path.as_os_str().as_bytes())?,
                    host: true,
                    fd: std::cell::Cell::new(-1),
                    target: inside(&path)?,
                    flags: libc::MS_NOSUID | libc::MS_NOEXEC | locked_flags(&fd),
                    recursive: true,
                });
            }
        }
        for (link, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
            ("shm", "/tmp"),
        ] {
            self.steps.push(Step::Symlink {
                target: cstr(target.as_bytes())?,
                link: inside(&dev.join(link))?,
            });
        }
        self.steps.push(Step::ReadOnly(inside(dev)?));
        Ok(())
    }

    /// tmpfs options for the bot's user.
    fn tmpfs_data(support: &JailSupport, size: u64, mode: &str) -> Result<CString, String> {
        cstr(
            format!(
                "size={},nr_inodes=16384,mode={mode},uid={},gid={}",
                size.max(4096),
                support.uid,
                support.gid
            )
            .as_bytes(),
        )
    }

    /// A tmpfs at /tmp that will hold the scratch (one quota for both).
    fn tmp_tmpfs(&mut self, support: &JailSupport, bytes: Option<u64>) -> Result<(), String> {
        let tmp = Path::new("/tmp");
        self.dir(tmp)?;
        self.steps.push(Step::Mount {
            fstype: cstr(b"tmpfs")?,
            target: inside(tmp)?,
            flags: libc::MS_NOSUID | libc::MS_NODEV,
            data: Self::tmpfs_data(support, bytes.unwrap_or(DEFAULT_SCRATCH_BYTES), "1777")?,
        });
        Ok(())
    }

    /// The scratch: a tmpfs of `bytes` (or the host directory bound writable), and /tmp.
    /// Where it lies decides how: inside a visible directory (mounted on the directory the
    /// host made there; /tmp is then not writable), beneath /tmp (a directory of the /tmp
    /// tmpfs made first), or elsewhere (its own mount, bound at /tmp as well).
    fn scratch(
        &mut self,
        support: &JailSupport,
        scratch: &Path,
        bytes: Option<u64>,
        in_visible: bool,
    ) -> Result<(), String> {
        let tmp = Path::new("/tmp");
        if !in_visible && scratch.starts_with(tmp) {
            let before = self.steps.len();
            self.dir(scratch)?;
            for step in &mut self.steps[before..] {
                if let Step::Mkdir(path) = step {
                    *step = Step::OwnedDir(path.clone(), support.uid, support.gid);
                }
            }
            if bytes.is_none() {
                self.made.remove(scratch);
                self.bind(scratch, scratch, true)?;
            }
            return Ok(());
        }
        if !in_visible {
            self.dir(scratch)?;
        }
        match bytes {
            Some(bytes) => self.steps.push(Step::Mount {
                fstype: cstr(b"tmpfs")?,
                target: inside(scratch)?,
                flags: libc::MS_NOSUID | libc::MS_NODEV,
                data: Self::tmpfs_data(support, bytes, "0700")?,
            }),
            None => {
                self.made.remove(scratch);
                self.bind(scratch, scratch, true)?;
            }
        }
        if !scratch.starts_with(tmp) {
            self.dir(tmp)?;
            self.steps.push(Step::Bind {
                source: inside(scratch)?,
                host: false,
                fd: std::cell::Cell::new(-1),
                target: inside(tmp)?,
                flags: libc::MS_NOSUID | libc::MS_NODEV,
                recursive: true,
            });
        }
        Ok(())
    }

    /// `/etc/passwd` and `/etc/group` that name only the bot's user, and a read-only root.
    fn identity(&mut self, support: &JailSupport) -> Result<(), String> {
        let etc = Path::new("/etc");
        self.dir(etc)?;
        let (uid, gid) = (support.uid, support.gid);
        let passwd =
            format!("root:x:0:0:root:/:/bin/false\nbot:x:{uid}:{gid}:bot:/tmp:/bin/false\n");
        let group = format!("root:x:0:\nbot:x:{gid}:\n");
        for (name, content) in [("passwd", passwd), ("group", group)] {
            let path = etc.join(name);
            if self.made.insert(path.clone()) {
                self.steps.push(Step::WriteFile {
                    path: inside(&path)?,
                    content: content.into_bytes(),
                });
            }
        }
        Ok(())
    }

    /// Opens every host source of a bind, in the keeper before the base is mounted.
    fn open_sources(&self) -> Result<(), (usize, i32)> {
        for (i, step) in self.steps.iter().enumerate() {
            if let Step::Bind {
                source,
                host: true,
                fd,
                ..
            } = step
            {
                // SAFETY: a plain system call on a NUL-terminated path.
                #[allow(unsafe_code)]
                let opened = unsafe { libc::open(source.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
                if opened < 0 {
                    return Err((i, Errno::last_raw()));
                }
                fd.set(opened);
            }
        }
        Ok(())
    }

    /// Runs every step in the keeper. No allocation. On failure: the step's index.
    fn build(&self) -> Result<(), (usize, i32)> {
        for (i, step) in self.steps.iter().enumerate() {
            step.run().map_err(|e| (i, e))?;
        }
        Ok(())
    }

    fn describe(&self, index: usize) -> String {
        match self.steps.get(index) {
            Some(Step::Mkdir(p) | Step::OwnedDir(p, ..) | Step::Touch(p) | Step::ReadOnly(p)) => {
                shown(p)
            }
            Some(Step::Symlink { link, .. }) => shown(link),
            Some(Step::Bind { target, .. } | Step::Mount { target, .. }) => shown(target),
            Some(Step::WriteFile { path, .. }) => shown(path),
            None => format!("step {index}"),
        }
    }
}

/// A path inside the jail as the bot sees it (without the base it was built in).
fn shown(p: &CString) -> String {
    let bytes = p.as_bytes();
    let rest = bytes.strip_prefix(BASE.as_bytes()).unwrap_or(bytes);
    String::from_utf8_lossy(rest).into_owned()
}

fn check(ret: libc::c_int) -> Result<(), i32> {
    if ret < 0 {
        Err(Errno::last_raw())
    } else {
        Ok(())
    }
}

impl Step {
    #[allow(unsafe_code)]
    fn run(&self) -> Result<(), i32> {
        let null = std::ptr::null::<libc::c_char>();
        // SAFETY: every pointer is a NUL-terminated string owned by the plan, alive for the
        // call; these are plain system calls.
        unsafe {
            match self {
                Step::Mkdir(p) => {
                    let r = libc::mkdir(p.as_ptr(), 0o755);
                    if r < 0 && Errno::last_raw() != libc::EEXIST {
                        return Err(Errno::last_raw());
                    }
                    Ok(())
                }
                Step::OwnedDir(p, uid, gid) => {
                    let r = libc::mkdir(p.as_ptr(), 0o700);
                    if r < 0 && Errno::last_raw() != libc::EEXIST {
                        return Err(Errno::last_raw());
                    }
                    check(libc::chown(p.as_ptr(), *uid, *gid))
                }
                Step::Touch(p) => {
                    let fd = libc::open(
                        p.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                        0o644,
                    );
                    check(fd)?;
                    libc::close(fd);
                    Ok(())
                }
                Step::Symlink { target, link } => {
                    check(libc::symlink(target.as_ptr(), link.as_ptr()))
                }
                Step::Bind {
                    source,
                    host,
                    fd,
                    target,
                    flags,
                    recursive,
                } => {
                    let mut via_fd = [0u8; 32];
                    let from = if *host {
                        fd_path(fd.get(), &mut via_fd)
                    } else {
                        source.as_ptr()
                    };
                    let recursive = if *recursive { libc::MS_REC } else { 0 };
                    check(libc::mount(
                        from,
                        target.as_ptr(),
                        null,
                        libc::MS_BIND | recursive,
                        std::ptr::null(),
                    ))?;
                    check(libc::mount(
                        null,
                        target.as_ptr(),
                        null,
                        libc::MS_BIND | libc::MS_REMOUNT | flags,
                        std::ptr::null(),
                    ))
                }
                Step::Mount {
                    fstype,
                    target,
                    flags,
                    data,
                } => check(libc::mount(
                    fstype.as_ptr(),
                    target.as_ptr(),
                    fstype.as_ptr(),
                    *flags,
                    data.as_ptr().cast(),
                )),
                Step::WriteFile { path, content } => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_TRUNC | libc::O_CLOEXEC,
                        0o644,
                    );
                    check(fd)?;
                    let n = libc::write(fd, content.as_ptr().cast(), content.len());
                    libc::close(fd);
                    if n < 0 || n as usize != content.len() {
                        return Err(libc::EIO);
                    }
                    Ok(())
                }
                Step::ReadOnly(p) => check(libc::mount(
                    null,
                    p.as_ptr(),
                    null,
                    libc::MS_BIND
                        | libc::MS_REMOUNT
                        | libc::MS_RDONLY
                        | libc::MS_NOSUID
                        | libc::MS_NODEV,
                    std::ptr::null(),
                )),
            }
        }
    }
}

/// Everything the keeper and the bot do, prepared in the parent.
pub(crate) struct JailSetup {
    pub(crate) root: RootPlan,
    pub(crate) user_namespace: Option<(u32, u32)>,
    pub(crate) drop_to: Option<(u32, u32)>,
    pub(crate) cgroup_procs: Vec<OwnedFd>,
    pub(crate) parent_death_signal: bool,
    pub(crate) affinity: Option<nix::sched::CpuSet>,
    pub(crate) rlimits: RlimitPlan,
    pub(crate) landlock: Option<JailLandlock>,
    pub(crate) seccomp: Option<SeccompPlan>,
    pub(crate) program: CString,
    pub(crate) argv: Vec<CString>,
    pub(crate) env: Vec<CString>,
    /// Where the referee's own command line and environment lie in memory (from
    /// `/proc/self/stat`): the keeper, a copy of the referee, blanks its copy of them, so that
    /// a bot reading `/proc/1/cmdline` learns nothing (a database URL, a password).
    pub(crate) title: Option<[usize; 4]>,
    /// An empty network namespace made ahead for this bot ([`fresh_network`]); `None`: the
    /// keeper's clone makes one.
    pub(crate) network: Option<OwnedFd>,
}

/// How many empty network namespaces wait made ahead of time.
const NETWORKS_AHEAD: usize = 4;

/// An empty network namespace of its own for the next bot, made ahead of time by a thread of
/// its own: making one costs about 4 ms (most of the jail's cost), which then falls outside the
/// spawn. Each is used once: bots that shared one would see each other's abstract socket names
/// in `/proc/net/unix` and could signal through binding them. `None` (arbiter not root: a bot
/// in a user namespace of its own could not join one of ours; the pool empty or failing;
/// `ARBITER_JAIL_NETNS_AHEAD=0`): the keeper's clone makes one.
pub(crate) fn fresh_network(root: bool) -> Option<OwnedFd> {
    static POOL: std::sync::OnceLock<Option<std::sync::Arc<NetworkPool>>> =
        std::sync::OnceLock::new();
    if !root {
        return None;
    }
    POOL.get_or_init(NetworkPool::start).as_ref()?.take()
}

struct NetworkPool {
    ready: std::sync::Mutex<Vec<OwnedFd>>,
    taken: std::sync::Condvar,
}

impl NetworkPool {
    fn start() -> Option<std::sync::Arc<NetworkPool>> {
        if std::env::var_os("ARBITER_JAIL_NETNS_AHEAD").is_some_and(|v| v == "0") {
            return None;
        }
        let pool = std::sync::Arc::new(NetworkPool {
            ready: std::sync::Mutex::new(Vec::new()),
            taken: std::sync::Condvar::new(),
        });
        let filler = std::sync::Arc::clone(&pool);
        std::thread::Builder::new()
            .name("arbiter-netns".into())
            .spawn(move || filler.fill())
            .ok()?;
        Some(pool)
    }

    /// Keeps [`NETWORKS_AHEAD`] namespaces ready; ends at the first that cannot be made.
    fn fill(&self) {
        loop {
            {
                let Ok(mut ready) = self.ready.lock() else {
                    return;
                };
                while ready.len() >= NETWORKS_AHEAD {
                    ready = match self.taken.wait(ready) {
                        Ok(r) => r,
                        Err(_) => return,
                    };
                }
            }
            // unshare moves only this thread, into the new namespace; the descriptor keeps it.
            let made = nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNET)
                .ok()
                .and_then(|()| std::fs::File::open("/proc/thread-self/ns/net").ok());
            let Some(file) = made else { return };
            let Ok(mut ready) = self.ready.lock() else {
                return;
            };
            ready.push(OwnedFd::from(file));
        }
    }

    fn take(&self) -> Option<OwnedFd> {
        let taken = self.ready.lock().ok()?.pop();
        self.taken.notify_one();
        taken
    }
}

/// `arg_start arg_end env_start env_end` of this process.
pub(crate) fn own_title() -> Option<[usize; 4]> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    // Fields 48..=51 (1-based); `after` starts at field 3.
    let fields: Vec<&str> = after.split_whitespace().collect();
    let get = |n: usize| fields.get(n - 3)?.parse::<usize>().ok();
    Some([get(48)?, get(49)?, get(50)?, get(51)?])
}

/// The keeper, as the parent holds it.
pub(crate) struct JailChild {
    /// The keeper's pid (the namespace's init, seen from outside).
    pub(crate) pid: i32,
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
    pub(crate) stderr: OwnedFd,
    /// Readable once the bot ended: its wait status (4 bytes), or end of file when the keeper
    /// died first.
    pub(crate) status: OwnedFd,
}

/// Raw descriptors the keeper works with (numbers >= 10, so that dup2 onto 0..2 is safe).
struct KeeperFds {
    stdin: RawFd,
    stdout: RawFd,
    stderr: RawFd,
    error: RawFd,
    status: RawFd,
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let (r, w) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
    Ok((high(r)?, high(w)?))
}

/// The same descriptor at a number of at least 10 (close-on-exec).
fn high(fd: OwnedFd) -> std::io::Result<OwnedFd> {
    if fd.as_raw_fd() >= 10 {
        return Ok(fd);
    }
    let n = nix::fcntl::fcntl(&fd, nix::fcntl::FcntlArg::F_DUPFD_CLOEXEC(10))?;
    // SAFETY: F_DUPFD_CLOEXEC returned a new descriptor that nothing else owns.
    #[allow(unsafe_code)]
    Ok(unsafe { OwnedFd::from_raw_fd(n) })
}

/// Starts the keeper; returns once the bot has exec'd, or with what failed.
pub(crate) fn spawn(setup: &JailSetup) -> Result<JailChild, SpawnFailure> {
    let (stdin_r, stdin_w) = pipe().map_err(SpawnFailure::Io)?;
    let (stdout_r, stdout_w) = pipe().map_err(SpawnFailure::Io)?;
    let (stderr_r, stderr_w) = pipe().map_err(SpawnFailure::Io)?;
    let (error_r, error_w) = pipe().map_err(SpawnFailure::Io)?;
    let (status_r, status_w) = pipe().map_err(SpawnFailure::Io)?;
    let fds = KeeperFds {
        stdin: stdin_r.as_raw_fd(),
        stdout: stdout_w.as_raw_fd(),
        stderr: stderr_w.as_raw_fd(),
        error: error_w.as_raw_fd(),
        status: status_w.as_raw_fd(),
    };
    let mut flags =
        libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
    if setup.network.is_none() {
        flags |= libc::CLONE_NEWNET;
    }
    if setup.user_namespace.is_some() {
        flags |= libc::CLONE_NEWUSER;
    }
    let pid = {
        let _gate = super::super::reaper::spawn_guard();
        // SAFETY: a fork-like clone (no new stack, no shared memory): the child runs on a
        // copy of this stack and only issues system calls on data prepared above, then execs
        // or exits; it never returns from `keeper`.
        #[allow(unsafe_code)]
        unsafe {
            let ret = libc::syscall(
                libc::SYS_clone,
                (flags | libc::SIGCHLD) as libc::c_ulong,
                0usize,
                0usize,
                0usize,
                0usize,
            );
            if ret == 0 {
                keeper(setup, &fds);
            }
            ret
        }
    };
    drop((stdin_r, stdout_w, stderr_w, error_w, status_w));
    if pid < 0 {
        return Err(SpawnFailure::Io(std::io::Error::last_os_error()));
    }
    let pid = pid as i32;
    match read_failure(&error_r, &setup.root) {
        None => Ok(JailChild {
            pid,
            stdin: stdin_w,
            stdout: stdout_r,
            stderr: stderr_r,
            status: status_r,
        }),
        Some(err) => {
            // The keeper exits after reporting; kill it in case the bot's fork got further.
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
            let _ = nix::sys::wait::waitpid(nix::unistd::Pid::from_raw(pid), None);
            Err(SpawnFailure::Jail(err))
        }
    }
}

/// Why the jail could not start the bot.
#[derive(Debug)]
pub(crate) enum SpawnFailure {
    Io(std::io::Error),
    Jail(JailError),
}

/// Reads the error pipe to its end: nothing means the bot exec'd.
fn read_failure(error: &OwnedFd, root: &RootPlan) -> Option<JailError> {
    let mut buf = [0u8; 12];
    let mut got = 0;
    while got < buf.len() {
        match nix::unistd::read(error, &mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(Errno::EINTR) => continue,
            Err(_) => break,
        }
    }
    if got < 12 {
        return None;
    }
    let word = |i: usize| u32::from_ne_bytes([buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]);
    let stage = JailStage::from_code(word(0)).unwrap_or(JailStage::Exec);
    let detail = (stage == JailStage::Root).then(|| root.describe(word(8) as usize));
    Some(JailError {
        stage,
        errno: word(4) as i32,
        detail,
    })
}

/// Tells the parent what failed, then exits. Async-signal-safe.
fn fail(error_fd: RawFd, stage: JailStage, errno: i32, index: usize) -> ! {
    let mut buf = [0u8; 12];
    buf[..4].copy_from_slice(&(stage as u32).to_ne_bytes());
    buf[4..8].copy_from_slice(&(errno as u32).to_ne_bytes());
    buf[8..].copy_from_slice(&(index as u32).to_ne_bytes());
    // SAFETY: write and _exit are async-signal-safe; buf lives on this stack.
    #[allow(unsafe_code)]
    unsafe {
        libc::write(error_fd, buf.as_ptr().cast(), buf.len());
        libc::_exit(127)
    }
}

/// Writes `content` to `path` (the keeper's own uid and gid maps).
#[allow(unsafe_code)]
fn write_proc_file(path: &CStr, content: &[u8]) -> Result<(), i32> {
    // SAFETY: plain system calls on a NUL-terminated path and a live buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let n = libc::write(fd, content.as_ptr().cast(), content.len());
        libc::close(fd);
        if n < 0 {
            return Err(Errno::last_raw());
        }
    }
    Ok(())
}

/// `/proc/self/fd/N` as a C string in `buf`. No allocation.
fn fd_path(fd: i32, buf: &mut [u8; 32]) -> *const libc::c_char {
    let prefix = b"/proc/self/fd/";
    let mut digits = [0u8; 10];
    let d = decimal(fd.max(0) as u32, &mut digits);
    buf[..prefix.len()].copy_from_slice(prefix);
    buf[prefix.len()..prefix.len() + d.len()].copy_from_slice(d);
    buf[prefix.len() + d.len()] = 0;
    buf.as_ptr().cast()
}

/// A decimal number into `buf`; returns the used part. No allocation.
fn decimal(mut n: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    &buf[i..]
}

/// "ID ID 1": maps our own id to itself.
fn id_map(id: u32, out: &mut [u8; 40]) -> usize {
    let mut digits = [0u8; 10];
    let d = decimal(id, &mut digits);
    let mut len = 0;
    for part in [d, b" ", d, b" 1\n"] {
        out[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    }
    len
}

/// The namespace's init: builds the world, forks the bot, reaps, reports.
#[allow(unsafe_code)]
fn keeper(setup: &JailSetup, fds: &KeeperFds) -> ! {
    let err = fds.error;
    // SAFETY (whole function): only system calls on prepared data; never returns.
    unsafe {
        // A copy of the referee holds every descriptor of the referee (other bots' pipes, the
        // database): keep only its own. Not dumpable: its /proc files stay closed to the bot.
        if let Some(net) = &setup.network {
            if libc::setns(net.as_raw_fd(), libc::CLONE_NEWNET) < 0 {
                fail(err, JailStage::Network, Errno::last_raw(), 0);
            }
        }
        close_all_but(&keep_list(setup, fds));
        if let Some([arg_start, arg_end, env_start, env_end]) = setup.title {
            for (start, end) in [(arg_start, arg_end), (env_start, env_end)] {
                if end > start {
                    std::ptr::write_bytes(start as *mut u8, 0, end - start);
                }
            }
        }
        if libc::setsid() < 0 {
            fail(err, JailStage::Session, Errno::last_raw(), 0);
        }
        if setup.parent_death_signal
            && libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) < 0
        {
            fail(err, JailStage::ParentDeathSignal, Errno::last_raw(), 0);
        }
        if let Some((uid, gid)) = setup.user_namespace {
            let mut map = [0u8; 40];
            let steps: [(&CStr, &[u8]); 1] = [(c"/proc/self/setgroups", b"deny")];
            for (path, content) in steps {
                if let Err(e) = write_proc_file(path, content) {
                    fail(err, JailStage::UserNamespace, e, 0);
                }
            }
            let n = id_map(uid, &mut map);
            if let Err(e) = write_proc_file(c"/proc/self/uid_map", &map[..n]) {
                fail(err, JailStage::UserNamespace, e, 1);
            }
            let n = id_map(gid, &mut map);
            if let Err(e) = write_proc_file(c"/proc/self/gid_map", &map[..n]) {
                fail(err, JailStage::UserNamespace, e, 2);
            }
        }
        // After the id maps (a process that is not dumpable cannot write its own).
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        for fd in &setup.cgroup_procs {
            if libc::write(fd.as_raw_fd(), b"0".as_ptr().cast(), 1) < 0 {
                fail(err, JailStage::CgroupJoin, Errno::last_raw(), 0);
            }
        }
        // Joined first, so that the bot's cgroup is the root it sees.
        if libc::unshare(libc::CLONE_NEWCGROUP) < 0 {
            fail(err, JailStage::CgroupNamespace, Errno::last_raw(), 0);
        }
        enter_root(setup, err);
        let name = b"arbiter";
        if libc::sethostname(name.as_ptr().cast(), name.len()) < 0 {
            fail(err, JailStage::Hostname, Errno::last_raw(), 0);
        }
        let bot = libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        );
        if bot < 0 {
            fail(err, JailStage::Fork, Errno::last_raw(), 0);
        }
        if bot == 0 {
            bot_process(setup, fds);
        }
        libc::close(err);
        for fd in [0, 1, 2, fds.stdin, fds.stdout, fds.stderr] {
            libc::close(fd);
        }
        reap(bot as libc::pid_t, fds.status)
    }
}

/// The descriptors the keeper needs, sorted. At most 16 (cgroups: at most 7).
fn keep_list(setup: &JailSetup, fds: &KeeperFds) -> ([RawFd; 16], usize) {
    let mut keep = [RawFd::MAX; 16];
    let mut n = 0;
    let landlock = setup.landlock.as_ref().map(|l| l.raw_fd());
    let cgroups = setup.cgroup_procs.iter().map(|f| f.as_raw_fd());
    for fd in [fds.stdin, fds.stdout, fds.stderr, fds.error, fds.status]
        .into_iter()
        .chain(landlock)
        .chain(cgroups)
    {
        if n < keep.len() {
            keep[n] = fd;
            n += 1;
        }
    }
    keep[..n].sort_unstable();
    (keep, n)
}

/// Closes every descriptor not in `keep`.
#[allow(unsafe_code)]
unsafe fn close_all_but(keep: &([RawFd; 16], usize)) {
    let (list, n) = keep;
    let mut from: u32 = 0;
    for &fd in &list[..*n] {
        let fd = fd as u32;
        if fd > from {
            libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32);
        }
        from = fd + 1;
    }
    libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
}

/// Mounts the root and moves into it.
#[allow(unsafe_code)]
unsafe fn enter_root(setup: &JailSetup, err: RawFd) {
    let null = std::ptr::null::<libc::c_char>();
    if libc::mount(
        null,
        c"/".as_ptr(),
        null,
        libc::MS_REC | libc::MS_PRIVATE,
        std::ptr::null(),
    ) < 0
    {
        fail(err, JailStage::Root, Errno::last_raw(), usize::MAX);
    }
    if let Err((index, errno)) = setup.root.open_sources() {
        fail(err, JailStage::Root, errno, index);
    }
    let base = c"/tmp";
    if libc::mount(
        c"tmpfs".as_ptr(),
        base.as_ptr(),
        c"tmpfs".as_ptr(),
        libc::MS_NOSUID | libc::MS_NODEV,
        c"size=1m,nr_inodes=4096,mode=0755".as_ptr().cast(),
    ) < 0
    {
        fail(err, JailStage::Root, Errno::last_raw(), usize::MAX);
    }
    if let Err((index, errno)) = setup.root.build() {
        fail(err, JailStage::Root, errno, index);
    }
    if libc::chdir(base.as_ptr()) < 0
        || libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) < 0
        || libc::umount2(c".".as_ptr(), libc::MNT_DETACH) < 0
        || libc::chdir(c"/".as_ptr()) < 0
    {
        fail(err, JailStage::PivotRoot, Errno::last_raw(), 0);
    }
    let ro = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
    if libc::mount(null, c"/".as_ptr(), null, ro, std::ptr::null()) < 0 {
        fail(err, JailStage::PivotRoot, Errno::last_raw(), 1);
    }
}

/// Reaps every process of the namespace; reports the bot's status once. When the keeper
/// exits, the kernel kills whatever is left in the namespace.
#[allow(unsafe_code)]
unsafe fn reap(bot: libc::pid_t, status_fd: RawFd) -> ! {
    loop {
        let mut status: libc::c_int = 0;
        let pid = libc::waitpid(-1, &mut status, libc::__WALL);
        if pid == bot {
            let bytes = status.to_ne_bytes();
            libc::write(status_fd, bytes.as_ptr().cast(), bytes.len());
        } else if pid < 0 && Errno::last_raw() != libc::EINTR {
            libc::_exit(0);
        }
    }
}

/// The bot, pid 2 of its namespace: limits, user, filters, exec.
#[allow(unsafe_code)]
unsafe fn bot_process(setup: &JailSetup, fds: &KeeperFds) -> ! {
    let err = fds.error;
    for (from, to) in [(fds.stdin, 0), (fds.stdout, 1), (fds.stderr, 2)] {
        if libc::dup2(from, to) < 0 {
            fail(err, JailStage::Exec, Errno::last_raw(), 0);
        }
    }
    // No descriptor of the referee survives the exec, whatever its flags.
    libc::syscall(
        libc::SYS_close_range,
        3u32,
        u32::MAX,
        libc::CLOSE_RANGE_CLOEXEC,
    );
    // Rust ignores SIGPIPE; a program expects the default, and no blocked signals.
    libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    let mut empty: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut empty);
    libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
    if let Some(set) = &setup.affinity {
        if nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), set).is_err() {
            fail(err, JailStage::Affinity, Errno::last_raw(), 0);
        }
    }
    if let Err(e) = setup.rlimits.apply() {
        fail(err, JailStage::Rlimits, e as i32, 0);
    }
    if let Some((uid, gid)) = setup.drop_to {
        // Raw system calls: glibc's wrappers would wait for the referee's other threads to
        // change their ids too, and in this copy of the process those threads do not exist.
        let (u, g) = (uid as libc::c_long, gid as libc::c_long);
        if libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) < 0
            || libc::syscall(libc::SYS_setresgid, g, g, g) < 0
            || libc::syscall(libc::SYS_setresuid, u, u, u) < 0
        {
            fail(err, JailStage::DropPrivileges, Errno::last_raw(), 0);
        }
    }
    if libc::chdir(setup.root.cwd.as_ptr()) < 0 {
        fail(err, JailStage::WorkingDirectory, Errno::last_raw(), 0);
    }
    if let Some(landlock) = &setup.landlock {
        if let Err(e) = landlock.enforce_in_jail() {
            fail(err, JailStage::Landlock, e, 0);
        }
    }
    if let Some(plan) = &setup.seccomp {
        if plan.apply().is_err() {
            fail(err, JailStage::Seccomp, Errno::last_raw(), 0);
        }
    }
    let mut argv: [*const libc::c_char; 256] = [std::ptr::null(); 256];
    for (slot, arg) in argv.iter_mut().zip(setup.argv.iter().take(255)) {
        *slot = arg.as_ptr();
    }
    let mut envp: [*const libc::c_char; 128] = [std::ptr::null(); 128];
    for (slot, var) in envp.iter_mut().zip(setup.env.iter().take(127)) {
        *slot = var.as_ptr();
    }
    libc::execve(setup.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
    fail(err, JailStage::Exec, Errno::last_raw(), 0)
}

/// Probes once whether a jail can be made here: a keeper that builds a minimal root and
/// exits. Returns the reason when not.
pub(crate) fn probe(support: &JailSupport) -> Result<(), String> {
    let scratch = std::env::temp_dir();
    let req = JailRequest {
        scratch: &scratch,
        scratch_bytes: Some(1 << 20),
        visible: &[],
        cwd: Path::new("/"),
    };
    let root = RootPlan::new(support, &req)?;
    let setup = JailSetup {
        root,
        user_namespace: support.user_namespace.then_some((support.uid, support.gid)),
        drop_to: (!support.user_namespace).then_some((support.uid, support.gid)),
        cgroup_procs: Vec::new(),
        parent_death_signal: true,
        affinity: None,
        rlimits: RlimitPlan::default(),
        landlock: None,
        network: None,
        seccomp: None,
        program: c"/bin/true".to_owned(),
        argv: vec![c"true".to_owned()],
        env: Vec::new(),
        title: None,
    };
    let child = match spawn(&setup) {
        Ok(c) => c,
        Err(SpawnFailure::Io(e)) => return Err(explain_clone(e)),
        Err(SpawnFailure::Jail(e)) => return Err(e.to_string()),
    };
    let _ = nix::sys::wait::waitpid(nix::unistd::Pid::from_raw(child.pid), None);
    Ok(())
}

/// What to do when `clone` with namespaces is refused.
fn explain_clone(e: std::io::Error) -> String {
    let hint = match e.raw_os_error() {
        Some(libc::EPERM) => {
            "the kernel or the container refuses new namespaces: allow unprivileged user namespaces \
             (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu \
             kernel.apparmor_restrict_unprivileged_userns=0), run arbiter as root, or give its \
             container CAP_SYS_ADMIN (docker: --security-opt seccomp=unconfined --cap-add SYS_ADMIN)"
        }
        Some(libc::ENOSPC) => "the namespace limit is reached (/proc/sys/user/max_*_namespaces)",
        Some(libc::EINVAL) => "this kernel lacks one of the namespaces (CONFIG_*_NS)",
        _ => "",
    };
    format!(
        "namespaces refused: {e}{}{hint}",
        if hint.is_empty() { "" } else { "; " }
    )
}

/// The environment of a jailed bot: nothing inherited.
pub(crate) fn environment(
    scratch: &Path,
    extra: &[(std::ffi::OsString, std::ffi::OsString)],
) -> Result<Vec<CString>, String> {
    let mut vars: Vec<(Vec<u8>, Vec<u8>)> = vec![
        (b"PATH".to_vec(), JAIL_PATH.as_bytes().to_vec()),
        (b"HOME".to_vec(), scratch.as_os_str().as_bytes().to_vec()),
        (b"TMPDIR".to_vec(), scratch.as_os_str().as_bytes().to_vec()),
        (b"LANG".to_vec(), b"C.UTF-8".to_vec()),
    ];
    for (k, v) in extra {
        let k = k.as_bytes().to_vec();
        vars.retain(|(name, _)| *name != k);
        vars.push((k, v.as_bytes().to_vec()));
    }
    vars.into_iter()
        .map(|(k, v)| {
            let mut entry = k;
            entry.push(b'=');
            entry.extend_from_slice(&v);
            cstr(&entry)
        })
        .collect()
}

/// An `OsStr` as a C string.
pub(crate) fn c_string(s: &OsStr) -> Result<CString, String> {
    cstr(s.as_bytes())
}
