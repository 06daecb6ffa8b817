//! The jail alone (docs/containment.md): a jailed shell runs as an unprivileged user, sees
//! only the system, its own files and its scratch, only its own processes, and nothing of
//! the referee's environment. Skipped with a note where the kernel refuses namespaces.

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Layer, Limits, ReadEvent};

fn run_jailed(script: &str, marker: &str) -> Option<String> {
    let c = Containment::detect();
    if !c.enabled(Layer::Namespaces) {
        eprintln!("namespaces unavailable here: {:?}", c.isolation_gaps());
        return None;
    }
    let scratch = tempfile::tempdir().unwrap();
    let limits = Limits {
        scratch_dir: Some(scratch.path().to_path_buf()),
        scratch_bytes: Some(4 << 20),
        ..Limits::default()
    };
    std::env::set_var("ARBITER_JAIL_TEST_SECRET", marker);
    let cmd = BotCommand::new("sh").arg("-c").arg(script);
    let mut bot = BotProcess::spawn(&cmd, &limits, &c).expect("a jailed shell starts");
    let mut out = String::new();
    let until = Instant::now() + Duration::from_secs(10);
    while let ReadEvent::Line(line) = bot.read_line(until) {
        out.push_str(&String::from_utf8_lossy(&line));
        out.push('\n');
    }
    let exit = bot.finish(Duration::from_secs(1));
    assert_eq!(
        exit.code,
        Some(0),
        "{out}\n{}",
        String::from_utf8_lossy(&bot.stderr_tail())
    );
    Some(out)
}

#[test]
fn a_jailed_bot_sees_its_own_world_only() {
    let marker = format!("secret-{}", std::process::id());
    let script = "id -u; ls /; echo PIDS $(ls /proc | grep -c '^[0-9]'); env; \
                  echo hi > /tmp/x && echo TMP ok; \
                  head -c 5000000 /dev/zero > $TMPDIR/big; echo WROTE $(wc -c < $TMPDIR/big); \
                  ls /home /root /work 2>&1 | head -3";
    let Some(out) = run_jailed(script, &marker) else {
        return;
    };
    let uid = nix::unistd::geteuid().as_raw();
    let expected = if uid == 0 { 65534 } else { uid };
    assert_eq!(
        out.lines().next(),
        Some(expected.to_string().as_str()),
        "{out}"
    );
    for hidden in ["home\n", "root\n", "work\n", "var\n", "run\n"] {
        assert!(
            !out.contains(hidden),
            "the host's /{} is visible:\n{out}",
            hidden.trim()
        );
    }
    assert!(out.contains("usr\n") && out.contains("proc\n"), "{out}");
    // The keeper, the shell and the pipeline counting them: nothing of the host's hundreds.
    let pids: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("PIDS "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a count");
    assert!(pids <= 6, "other processes seen:\n{out}");
    assert!(
        !out.contains(&marker),
        "the referee's environment leaked:\n{out}"
    );
    let wrote: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("WROTE "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a size");
    assert!(wrote <= 4 << 20, "wrote {wrote} bytes past a 4 MB quota");
    assert!(out.contains("TMP ok"), "/tmp is not writable:\n{out}");
}

/// Starts a jailed Python program; returns the process and the first line it prints.
fn python_bot(c: &Containment, scratch: &std::path::Path, program: &str) -> (BotProcess, String) {
    let limits = Limits {
        scratch_dir: Some(scratch.to_path_buf()),
        scratch_bytes: Some(4 << 20),
        ..Limits::default()
    };
    let cmd = BotCommand::new("python3").arg("-c").arg(program);
    let mut bot = BotProcess::spawn(&cmd, &limits, c).expect("a jailed python starts");
    let line = match bot.read_line(Instant::now() + Duration::from_secs(10)) {
        ReadEvent::Line(l) => String::from_utf8_lossy(&l).into_owned(),
        other => panic!(
            "no line: {other:?} {}",
            String::from_utf8_lossy(&bot.stderr_tail())
        ),
    };
    (bot, line)
}

/// Two bots at once cannot meet through an abstract UNIX socket, the one socket family seccomp
/// leaves them that needs no shared file: each has a network namespace of its own.
#[test]
fn two_jailed_bots_cannot_meet_through_an_abstract_socket() {
    let c = Containment::detect();
    if !c.enabled(Layer::Namespaces) {
        eprintln!("namespaces unavailable here: {:?}", c.isolation_gaps());
        return;
    }
    let name = format!("arbiter-jail-test-{}", std::process::id());
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let listen = format!(
        "import os, socket, sys\n\
         s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n\
         s.bind('\\0{name}'); s.listen(1)\n\
         print('LISTENING', os.readlink('/proc/self/ns/net'), flush=True)\n\
         sys.stdin.readline()\n"
    );
    let (mut listener, first) = python_bot(&c, dirs[0].path(), &listen);
    let connect = format!(
        "import os, socket\n\
         s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n\
         net = os.readlink('/proc/self/ns/net')\n\
         try:\n    s.connect('\\0{name}'); print('CONNECTED', net, flush=True)\n\
         except OSError as e:\n    print('REFUSED', net, e.errno, flush=True)\n"
    );
    let (mut other, second) = python_bot(&c, dirs[1].path(), &connect);
    listener.close_stdin();
    listener.finish(Duration::from_secs(1));
    other.finish(Duration::from_secs(1));
    assert!(first.starts_with("LISTENING "), "{first}");
    assert!(
        second.starts_with("REFUSED "),
        "one bot reached another's abstract socket: {second}"
    );
    let shared = first.split_whitespace().nth(1) == second.split_whitespace().nth(1);
    assert!(
        !shared,
        "two bots in one network namespace: {first} / {second}"
    );
}

/// A bot run from the host's /tmp (`cd /tmp; arbiter match ...`): its working directory is
/// shown, and its scratch beneath /tmp still gets its own quota.
#[test]
fn a_bot_run_from_the_hosts_tmp_starts() {
    let c = Containment::detect();
    if !c.enabled(Layer::Namespaces) {
        eprintln!("namespaces unavailable here: {:?}", c.isolation_gaps());
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let limits = Limits {
        scratch_dir: Some(scratch.path().to_path_buf()),
        scratch_bytes: Some(4 << 20),
        ..Limits::default()
    };
    let marker = tempfile::Builder::new()
        .prefix("arbiter-jail-cwd-")
        .tempfile_in("/tmp")
        .unwrap();
    let name = marker
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let script = format!("pwd; ls /tmp/{name} && echo SEEN; echo x > $TMPDIR/f && echo WROTE");
    let cmd = BotCommand::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir("/tmp")
        .of_ones_own();
    let mut bot = BotProcess::spawn(&cmd, &limits, &c).expect("a bot run from /tmp starts");
    let mut out = String::new();
    let until = Instant::now() + Duration::from_secs(10);
    while let ReadEvent::Line(line) = bot.read_line(until) {
        out.push_str(&String::from_utf8_lossy(&line));
        out.push('\n');
    }
    bot.finish(Duration::from_secs(1));
    assert!(out.starts_with("/tmp\n"), "{out}");
    assert!(out.contains("SEEN") && out.contains("WROTE"), "{out}");
}

/// Two bots at once cannot even learn of each other through the abstract socket namespace: a
/// name one bot holds is free for the other (no shared namespace to squat in, or to signal
/// through by binding names), and neither lists the other's sockets in /proc/net/unix.
#[test]
fn two_jailed_bots_share_no_abstract_names() {
    let c = Containment::detect();
    if !c.enabled(Layer::Namespaces) {
        eprintln!("namespaces unavailable here: {:?}", c.isolation_gaps());
        return;
    }
    let name = format!("arbiter-squat-{}", std::process::id());
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let hold = format!(
        "import socket, sys\n\
         s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n\
         s.bind('\\0{name}')\n\
         print('HOLDING', flush=True)\n\
         sys.stdin.readline()\n"
    );
    let (mut holder, first) = python_bot(&c, dirs[0].path(), &hold);
    let take = format!(
        "import socket\n\
         listed = '{name}' in open('/proc/net/unix').read()\n\
         s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n\
         try:\n    s.bind('\\0{name}'); print('FREE', listed, flush=True)\n\
         except OSError as e:\n    print('TAKEN', listed, e.errno, flush=True)\n"
    );
    let (mut other, second) = python_bot(&c, dirs[1].path(), &take);
    holder.close_stdin();
    holder.finish(Duration::from_secs(1));
    other.finish(Duration::from_secs(1));
    assert_eq!(first.trim(), "HOLDING");
    assert_eq!(
        second.trim(),
        "FREE False",
        "one bot sees another's abstract name"
    );
}
