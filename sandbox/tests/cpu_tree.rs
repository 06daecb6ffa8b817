//! CPU time without cgroups: the reading walks the bot's own tree (its root's children lists,
//! and its orphans handed to the referee), never every process on the machine. Shell bots burn
//! CPU in a child, a double-forked grandchild (re-parented to the referee, or to the jail's
//! keeper), a grandchild that also left the session (found by the bot's token), and in
//! short-lived children the shell waits for (their time is in its waited-for times). The root
//! itself only waits, so all it is charged is its tree's. A burner outside the bot is not
//! charged to it.

mod process_support;

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Layer, Limits, ReadEvent};
use process_support::{eventually, full, soon};

/// What the bot does before it prints `ready` and waits for a line on stdin.
const SCENARIOS: [(&str, &str); 4] = [
    ("child", "(while :; do :; done) &"),
    ("double fork", "( (while :; do :; done) & ) ;"),
    (
        "double fork out of the session",
        "( setsid sh -c 'while :; do :; done' & ) ;",
    ),
    // 40 children of some 15 ms of CPU each, waited for, gone before `ready`.
    (
        "short-lived children",
        "for k in $(seq 40); do (i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done); done;",
    ),
];

fn shell_bot(script: &str, containment: &Containment) -> BotProcess {
    let cmd = BotCommand::new("sh")
        .arg("-c")
        .arg(format!("{script} echo ready; read x"));
    let scratch = std::env::temp_dir();
    let limits = Limits {
        scratch_dir: Some(scratch),
        scratch_bytes: Some(4 << 20),
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(&cmd, &limits, containment).expect("a shell bot starts");
    match bot.read_line(soon(60)) {
        ReadEvent::Line(l) => assert_eq!(l, b"ready"),
        other => panic!("no ready: {other:?}"),
    }
    bot
}

/// The containments without cgroups this machine offers: plain processes, and the jail.
fn without_cgroups() -> Vec<(&'static str, Containment)> {
    let mut out = vec![("no cgroups", full().without(Layer::Cgroups))];
    let jailed = Containment::detect().without(Layer::Cgroups);
    if jailed.enabled(Layer::Namespaces) {
        out.push(("jail, no cgroups", jailed));
    } else {
        eprintln!("namespaces unavailable here: the jailed case is skipped");
    }
    out
}

#[test]
fn a_bots_children_are_charged_however_they_run() {
    for (label, containment) in without_cgroups() {
        for (name, script) in SCENARIOS {
            let mut bot = shell_bot(script, &containment);
            let at_ready = bot.cpu_time();
            if name == "short-lived children" {
                // Every child has exited: only the shell's waited-for times hold them.
                assert!(
                    at_ready >= Duration::from_millis(250),
                    "{label}, {name}: {at_ready:?} charged for the exited children"
                );
            } else {
                // On a shared 2-core box 0.3 s of CPU can take several seconds.
                assert!(
                    eventually(Duration::from_secs(30), || bot.cpu_time()
                        >= at_ready + Duration::from_millis(300)),
                    "{label}, {name}: CPU stays at {:?} while a descendant burns",
                    bot.cpu_time()
                );
            }
            let report = bot.finish(Duration::from_millis(200));
            assert!(report.cpu_time >= at_ready, "{label}, {name}: {report:?}");
        }
    }
}

#[test]
fn a_burner_outside_the_bot_is_not_charged_to_it() {
    let mut stranger = std::process::Command::new("sh")
        .args(["-c", "while :; do :; done"])
        .spawn()
        .expect("a burner starts");
    let started = Instant::now();
    for (label, containment) in without_cgroups() {
        let mut bot = shell_bot("", &containment);
        std::thread::sleep(Duration::from_millis(700));
        let cpu = bot.cpu_time();
        bot.finish(Duration::from_millis(200));
        assert!(
            cpu < Duration::from_millis(150),
            "{label}: an idle bot was charged {cpu:?} while a stranger burned for {:?}",
            started.elapsed()
        );
    }
    let _ = stranger.kill();
    let _ = stranger.wait();
}
