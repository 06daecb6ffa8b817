//! The end of a jailed bot without cgroups: its tree is its pid namespace, found from the
//! keeper down (no search of every process's environment and pipes), and nothing of it
//! survives: a child, a double-forked grandchild that left the session, a burner.

mod process_support;

use std::time::Duration;

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Layer, Limits, ReadEvent};
use process_support::{eventually, marker, processes_with, soon};

#[test]
fn a_jailed_tree_without_cgroups_is_swept_whole() {
    let c = Containment::detect().without(Layer::Cgroups);
    if !c.enabled(Layer::Namespaces) {
        eprintln!("namespaces unavailable here: {:?}", c.isolation_gaps());
        return;
    }
    let m = marker("jail-sweep");
    let script = "sleep 600 & ( setsid sh -c 'while :; do :; done' & ) ; \
                  ( (sleep 600 &) ) ; echo ready; read x";
    let cmd = BotCommand::new("sh")
        .arg("-c")
        .arg(script)
        .env("ARBITER_TEST_MARKER", &m);
    let limits = Limits {
        scratch_dir: Some(std::env::temp_dir()),
        scratch_bytes: Some(4 << 20),
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(&cmd, &limits, &c).expect("a jailed shell starts");
    match bot.read_line(soon(60)) {
        ReadEvent::Line(l) => assert_eq!(l, b"ready"),
        other => panic!("no ready: {other:?}"),
    }
    // The shell, its sleeper, the burner and the orphaned sleeper (the keeper has no marker).
    assert!(
        eventually(Duration::from_secs(10), || processes_with(&m).len() >= 4),
        "the tree did not start: {:?}",
        processes_with(&m)
    );
    // The shell ends when its stdin closes; the sweep kills what it leaves.
    let exit = bot.finish(Duration::from_millis(200));
    assert!(exit.leftover_processes_killed >= 3, "{exit:?}");
    assert_eq!(exit.survivors, 0, "{exit:?}");
    assert!(
        eventually(Duration::from_secs(5), || processes_with(&m).is_empty()),
        "left alive: {:?}",
        processes_with(&m)
    );
}
