//! Faults of the judging machine never decide a game (docs/faults.md): a referee stopped with
//! SIGSTOP longer than the move time, and a scratch directory on a read-only or full file
//! system. The faults are real: this test process (the referee) is stopped by a helper
//! process, and the file systems are real tmpfs mounts (the tests need root; without it they
//! say so and pass nothing).
//!
//! The tests run one at a time: stopping the process stops every test in it.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::{Reason, Replay};
use arbiter_engine::reversi;
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Played, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;

static SERIAL: Mutex<()> = Mutex::new(());

fn workdir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| support::compile_bot("stalls", "reversi_misbehave", "misbehave"))
}

fn bot(name: &str, args: &str) -> BotSpec {
    BotSpec {
        name: name.to_string(),
        command: format!("{} {args}", workdir().join("misbehave").display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
        sees: None,
    }
}

fn spec(move_ms: u64) -> GameSpec {
    let config = GameConfig::Reversi(reversi::Config { size: 8 });
    let mut limits = GameLimits::default_for(&config);
    limits.time.per_move = Some(Duration::from_millis(move_ms));
    limits.time.handshake = Duration::from_millis(2000);
    limits.memory_bytes = Some(256 << 20);
    GameSpec {
        config,
        opening: Vec::new(),
        limits,
        event: None,
        seed: Some(7),
        max_plies: arbiter_match::game::MAX_PLIES,
    }
}

fn play(spec: &GameSpec, bots: &[&BotSpec], scratch: &Path) -> Played {
    let seats = Seats {
        cores: vec![Some(0), Some(1)],
        scratch_root: scratch.to_path_buf(),
    };
    let played = game::play(spec, bots, &seats, &Containment::detect());
    Replay::read(&played.replay.to_json()).expect("the replay reads back");
    played
}

/// Stops this process `after` from now for `stop`, from another process: the referee is
/// frozen as a worker under SIGSTOP or a paused VM is, with its bots running on.
fn freeze_me(after: Duration, stop: Duration) -> Child {
    let script = format!(
        "sleep {}; kill -STOP {pid}; sleep {}; kill -CONT {pid}",
        after.as_secs_f64(),
        stop.as_secs_f64(),
        pid = std::process::id()
    );
    Command::new("sh").args(["-c", &script]).spawn().unwrap()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A referee stopped for 2.5 s in the middle of a game with 1 s moves: the bots did nothing
/// wrong (each answers in 0.15 s), so nobody loses on time. The stalled move is judged on the
/// time the bot had, and the game is voided (the opponent pondered through the stall), with the
/// stall and the move in its reason; played again, it ends as the same game without a stall.
#[test]
fn a_stopped_referee_voids_the_game_instead_of_a_time_loss() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = workdir().join("scratch-stop");
    let spec = spec(1000);
    let (a, b) = (bot("a", "slow 2 8 150"), bot("b", "slow 2 8 150"));
    let started = Instant::now();
    let mut helper = freeze_me(Duration::from_millis(1500), Duration::from_millis(2500));
    let played = play(&spec, &[&a, &b], &scratch);
    helper.wait().unwrap();
    assert!(
        started.elapsed() > Duration::from_millis(3500),
        "the stop fell after the game"
    );
    let result = &played.replay.result;
    assert!(
        !matches!(
            result.reason,
            Reason::MoveTime { .. } | Reason::GameTime { .. }
        ),
        "a stall of the referee lost a bot the game: {result:?}"
    );
    let voided = played.voided.as_ref().expect("the stalled game is voided");
    assert!(
        voided.why.starts_with("judging machine stalled 2.") && voided.why.contains(" at move "),
        "{}",
        voided.why
    );
    assert_eq!(
        result.reason.to_string(),
        format!("aborted: voided: {}", voided.why)
    );

    // The same game without a stall: what the voided one is replaced by.
    let again = game::play_unvoided(|| play(&spec, &[&a, &b], &scratch), |_| {});
    assert_eq!(again.replay.result.reason, Reason::Normal);
    assert!(again.voided.is_none());
}

/// A bot that truly thinks too long loses on time even when the referee stalls during its
/// move: the wait is extended by the stall (1.5 s), not forever, and the bot's 4 s exceed
/// its 1 s plus the stall.
#[test]
fn a_slow_bot_still_loses_on_time_across_a_stall() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = workdir().join("scratch-slow");
    let (slow, fine) = (bot("slow", "sleep 3 8 4000"), bot("fine", "fine"));
    let mut helper = freeze_me(Duration::from_millis(400), Duration::from_millis(1500));
    let played = play(&spec(1000), &[&slow, &fine], &scratch);
    helper.wait().unwrap();
    assert!(played.voided.is_none(), "{:?}", played.voided);
    assert_eq!(played.replay.result.reason.code(), "move_time");
    assert_eq!(
        played.replay.result.reason.culprit(),
        Some(arbiter_engine::Seat::FIRST)
    );
}

/// A tmpfs mounted here for the test, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, options: &str) -> Mount {
        std::fs::create_dir_all(dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir)
            .status()
            .unwrap()
            .success();
        assert!(ok, "mount -o {options} {}", dir.display());
        Mount(dir.to_path_buf())
    }

    fn remount(&self, options: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.0)
            .status()
            .unwrap()
            .success();
        assert!(ok, "remount {options}");
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Scratch directories on a read-only file system, then on a full one: the game is voided
/// (the machine's fault, not "both bots failed" scored as a draw), its reason names no path;
/// once the disk is writable again, the game played again is a normal game.
#[test]
fn a_disk_that_cannot_be_written_voids_the_game_until_it_can() {
    if !is_root() {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (a, b) = (bot("a", "fine"), bot("b", "fine"));
    let spec = spec(1000);

    let dir = workdir().join("ro");
    let mount = Mount::tmpfs(&dir, "ro,size=4m");
    let played = play(&spec, &[&a, &b], &dir.join("scratch"));
    let voided = played.voided.as_ref().expect("read-only: voided");
    assert_eq!(
        voided.why,
        "the judging machine could not write to its disk (read-only file system)"
    );
    assert!(!played.replay.result.reason.to_string().contains('/'));

    // Made writable while the game waits to be played again.
    let remount = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        mount.remount("rw");
        mount
    });
    let again = game::play_unvoided(|| play(&spec, &[&a, &b], &dir.join("scratch")), |_| {});
    let mount = remount.join().unwrap();
    assert_eq!(again.replay.result.reason, Reason::Normal);
    assert!(!again.replay.meta.voided.is_empty());
    assert!(again.replay.meta.voided[0].contains("read-only file system"));
    drop(mount);

    // A full disk (no inode left for the scratch directories).
    let dir = workdir().join("full");
    let _full = Mount::tmpfs(&dir, "size=64k,nr_inodes=2");
    std::fs::create_dir(dir.join("filler")).unwrap();
    let played = play(&spec, &[&a, &b], &dir.join("scratch"));
    let voided = played.voided.as_ref().expect("full: voided");
    assert!(voided.why.ends_with("(disk full)"), "{}", voided.why);
}

/// Another process takes the bot's core: a real-time (SCHED_FIFO) busy loop pinned to core 0
/// for 1.5 s, in the middle of a game of 300 ms moves whose bots sleep 40 ms a move. The bot on
/// core 0 is ready to answer but gets no CPU (at most the 5 % the kernel keeps for other tasks);
/// its wait for a CPU (schedstat) is the machine's, not the bot's: it does not lose on time.
/// The starved move is credited, and voids the game when it was late only because of it.
#[test]
fn a_bot_starved_of_its_cpu_does_not_lose_on_time() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !is_root() {
        eprintln!("skipped: a real-time busy loop needs root");
        return;
    }
    let scratch = workdir().join("scratch-starve");
    let spec = spec(300);
    let (a, b) = (bot("a", "slow 1 8 40"), bot("b", "slow 1 8 40"));
    let hog = "import time\nt = time.time() + 1.5\nwhile time.time() < t: pass\n";
    let mut helper = Command::new("sh")
        .args([
            "-c",
            "sleep 0.4; exec chrt -f 10 taskset -c 0 python3 -c \"$0\"",
        ])
        .arg(hog)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let played = play(&spec, &[&a, &b], &scratch);
    assert!(helper.wait().unwrap().success(), "the busy loop ran");
    assert!(
        started.elapsed() > Duration::from_millis(1900),
        "the busy loop fell after the game"
    );
    let result = &played.replay.result;
    assert!(
        !matches!(
            result.reason,
            Reason::MoveTime { .. } | Reason::GameTime { .. }
        ),
        "a bot starved of its CPU lost on time: {result:?}"
    );
    match &played.voided {
        Some(v) => assert!(v.why.contains("for a CPU"), "{}", v.why),
        None => assert!(
            played
                .replay
                .moves
                .iter()
                .all(|m| m.time_ms.unwrap_or(0.0) < 300.0),
            "a move charged past its time without a loss or a void"
        ),
    }
    eprintln!(
        "starved: {} (voided: {:?})",
        result.reason,
        played.voided.as_ref().map(|v| &v.why)
    );
}

/// A bot kept mostly off its CPU by its own tree (a child spinning on its core while it runs
/// at nice 19) is not starved by the machine: it loses on time, at its deadline, not up to 60 s
/// later. (The kernel still gives it a sliver of CPU, so the check on the tree's CPU time in
/// `Meter::bot_starving` is a second guard this test does not reach alone.)
#[test]
fn a_bot_kept_waiting_by_its_own_processes_loses_on_time() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = workdir().join("scratch-selfstarve");
    let spec = spec(300);
    let (a, b) = (bot("a", "selfstarve 2"), bot("b", "fine"));
    let started = Instant::now();
    let played = play(&spec, &[&a, &b], &scratch);
    let result = &played.replay.result;
    assert!(
        matches!(result.reason, Reason::MoveTime { .. }),
        "{result:?}"
    );
    assert!(played.voided.is_none());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "its own processes bought it time: {:?}",
        started.elapsed()
    );
}
