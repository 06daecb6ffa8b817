//! A hostile class, through the real contest server, its workers and its compiles
//! (docs/containment.md). One student's bot (tests/bots/hostile.c) tries, during its games,
//! to read another student's bot, the database, the contest directory and /etc/shadow, to
//! look at other processes, to change the server's limits and priority and to signal it, to
//! reach a UNIX socket and the server outside, to fill the disk, and it reads the
//! environment; another student's source includes host files. Every attempt must fail, and
//! the test checks it from outside: the server's limits, priority and life, the listening
//! sockets, and the absence of every secret from what the attacker's author can download.

use crate::contest_support;

use std::io::ErrorKind;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use contest_support::{api_token, arbiter, free_port, init_contest, wait_up, CONFIG};
use serde_json::Value;

/// The soft `Max open files` limit and the nice value of `pid`.
fn limits_and_nice(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let files = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .to_string();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = stat.rsplit_once(')').unwrap().1;
    let nice = after.split_whitespace().nth(16).unwrap().to_string();
    (files, nice)
}

async fn submit(base: &str, login: &str, source: String) -> i64 {
    let token = api_token(base, login).await;
    let form = reqwest::multipart::Form::new().text("language", "c").part(
        "file",
        reqwest::multipart::Part::bytes(source.into_bytes()).file_name("main.c"),
    );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/submissions"))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{login}'s submission");
    let v: Value = r.json().await.unwrap();
    v["id"].as_i64().expect("a submission id")
}

/// Every string in `v` (a replay), joined.
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Kills the server when the test ends, passed or not.
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.0 as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_bot_sees_and_reaches_nothing_but_its_own_world() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let roster = "login,name,role\nta,The TA,staff\nattacker,A,student\nvictim,V,student\nincluder,I,student\n";
    let config = CONFIG.replace("{file} 8 0 slow", "{file} 8 0");
    let pool = init_contest(&dir, &config, roster).await;
    let dir = std::fs::canonicalize(&dir).unwrap();
    let nonce = format!("{:x}", std::process::id() as u64 * 7919 + 17);
    let env_secret = format!("ENVSECRET{nonce}");
    let socket_path = tmp.path().join("outside.sock");
    let outside = UnixListener::bind(&socket_path).unwrap();
    outside.set_nonblocking(true).unwrap();
    let abstract_name = format!("arbiter-hostile-{nonce}");
    let abstract_listener = {
        use std::os::linux::net::SocketAddrExt;
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(&abstract_name).unwrap();
        UnixListener::bind_addr(&addr).unwrap()
    };
    abstract_listener.set_nonblocking(true).unwrap();

    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = arbiter()
        .args(["contest", "serve"])
        .arg(&dir)
        .args(["--workers", "1", "--listen", &format!("127.0.0.1:{port}")])
        .env("HOSTILE_MARKER", &env_secret)
        .stdout(Stdio::null())
        .stderr(match std::env::var_os("HOSTILE_LOG") {
            Some(path) => Stdio::from(std::fs::File::create(path).unwrap()),
            None => Stdio::null(),
        })
        .spawn()
        .expect("arbiter contest serve");
    let _stop = KillOnDrop(server.id());
    wait_up(&base).await;
    let server_pid = server.id();
    let before = limits_and_nice(server_pid);

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let victim = format!(
        "__attribute__((used)) static const char secret[] = \"SECRET-{nonce}\";\n{}",
        std::fs::read_to_string(root.join("tests/fixtures/tournament/rbot.c")).unwrap()
    );
    let attacker = format!(
        "#define SERVER_PID {server_pid}\n#define SERVER_PORT {port}\n\
         #define OUTSIDE_SOCKET \"{}\"\n#define ABSTRACT_NAME \"{abstract_name}\"\n\
         #define CONTEST_DIR \"{}\"\n{}",
        socket_path.display(),
        dir.display(),
        std::fs::read_to_string(root.join("tests/bots/hostile.c")).unwrap()
    );
    let includer = format!(
        "#include \"/etc/shadow\"\n#include \"{}/contest.toml\"\nint main(void) {{ return 0; }}\n",
        dir.display()
    );
    submit(&base, "victim", victim).await;
    let attacker_id = submit(&base, "attacker", attacker).await;
    let included = submit(&base, "includer", includer).await;

    // Both games of the attacker against the victim, and the includer's compile.
    let t0 = Instant::now();
    loop {
        let games: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let status: String = sqlx::query_scalar("SELECT status FROM submissions WHERE id = $1")
            .bind(included)
            .fetch_one(&pool)
            .await
            .unwrap();
        if games >= 2 && status != "pending" {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "games not played in time ({games} done)"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The server lives, answers, and kept its limits and priority.
    assert!(server.try_wait().unwrap().is_none(), "the server died");
    assert!(reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .unwrap()
        .status()
        .is_success());
    assert_eq!(
        limits_and_nice(server_pid),
        before,
        "the server's limits or nice changed"
    );
    // Nobody connected to the sockets outside.
    for listener in [&outside, &abstract_listener] {
        let err = listener.accept().err().map(|e| e.kind());
        assert_eq!(
            err,
            Some(ErrorKind::WouldBlock),
            "a bot reached a socket outside"
        );
    }

    // What the attacker's author can download: the replays of its games.
    let token = api_token(&base, "attacker").await;
    let http = reqwest::Client::new();
    let games: Value = http
        .get(format!("{base}/api/games?submission={attacker_id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<i64> = games
        .as_array()
        .expect("a list of games")
        .iter()
        .filter_map(|g| g["id"].as_i64())
        .collect();
    assert!(!ids.is_empty(), "no games of the attacker: {games}");
    let mut report = String::new();
    for id in ids {
        let text = http
            .get(format!("{base}/api/games/{id}/replay"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        strings(&serde_json::from_str(&text).unwrap(), &mut report);
    }
    let attacks: Vec<&str> = report.lines().filter(|l| l.starts_with("ATTACK")).collect();
    assert!(
        attacks.iter().any(|l| l.starts_with("ATTACK done")),
        "the attacker's report is not in its replays:\n{report}"
    );
    let got: Vec<&&str> = attacks.iter().filter(|l| l.contains("GOT")).collect();
    // Reading its own environment and /etc/passwd (the jail's own) is allowed; nothing else.
    // The keeper's command line is blanked: its length is all it shows.
    let blank = |l: &str| {
        l.contains("cmdline of another process")
            && l.rsplit_once("bytes: ")
                .is_some_and(|(_, s)| s.chars().all(|c| c == '.'))
    };
    let allowed =
        |l: &str| l.contains("my own environment") || l.contains("the host's passwd") || blank(l);
    for tried in [
        "the keeper's root",
        "the keeper's working directory",
        "shadow through the keeper's root",
        "/etc/shadow through a link",
        "the database through a link",
    ] {
        assert!(
            attacks.iter().any(|l| l.contains(tried)),
            "the attack on {tried} did not run:\n{report}"
        );
    }
    let reached: Vec<&&&str> = got.iter().filter(|l| !allowed(l)).collect();
    assert!(
        reached.is_empty(),
        "the attacker reached:\n{reached:#?}\n\nfull report:\n{report}"
    );
    for secret in [
        format!("SECRET-{nonce}"),
        env_secret.clone(),
        "$argon2".into(),
        "root:*".into(),
        "root:!".into(),
        "SQLite format".into(),
    ] {
        assert!(!report.contains(&secret), "{secret} leaked:\n{report}");
    }
    assert!(
        !report.contains("name = \"Test contest\""),
        "the configuration leaked"
    );
    let visible = attacks
        .iter()
        .find(|l| l.starts_with("ATTACK processes visible"))
        .expect("the process list");
    let pids = visible
        .trim_start_matches("ATTACK processes visible: ")
        .split('(')
        .next()
        .unwrap()
        .split_whitespace()
        .count();
    assert!(pids <= 2, "the bot saw other processes: {visible}");
    let disk = attacks
        .iter()
        .find_map(|l| l.strip_prefix("ATTACK disk written: "))
        .and_then(|l| l.trim_end_matches(" MB").parse::<u64>().ok())
        .expect("the disk figure");
    assert!(disk <= 64, "the bot wrote {disk} MB past its 64 MB quota");

    // The includer's compile failed without showing a host file.
    let (status, log): (String, Option<String>) =
        sqlx::query_as("SELECT status, compile_log FROM submissions WHERE id = $1")
            .bind(included)
            .fetch_one(&pool)
            .await
            .unwrap();
    let log = log.unwrap_or_default();
    assert_eq!(status, "failed", "{log}");
    assert!(
        !log.contains("root:"),
        "a host file in the compile log:\n{log}"
    );
    assert!(
        !log.contains("Test contest"),
        "the contest file in the compile log:\n{log}"
    );
    assert!(log.contains("No such file"), "{log}");

    let _ = server.kill();
    let _ = server.wait();
}

/// A judging machine that cannot isolate bots refuses to judge, saying what is missing and
/// how to override; `arbiter match` warns and plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judging_without_isolation_is_refused_unless_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    init_contest(&dir, CONFIG, "login,name,role\ns1,S,student\n").await;
    let port = free_port();
    let out = arbiter()
        .args(["contest", "serve"])
        .arg(&dir)
        .args(["--workers", "1", "--listen", &format!("127.0.0.1:{port}")])
        .env("ARBITER_CONTAINMENT_OFF", "namespaces")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "served without isolation: {err}");
    assert!(
        err.contains("namespaces") && err.contains("--unsafe-containment"),
        "{err}"
    );

    let mut server = arbiter()
        .args(["contest", "serve"])
        .arg(&dir)
        .args(["--workers", "1", "--unsafe-containment"])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("ARBITER_CONTAINMENT_OFF", "namespaces")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _stop = KillOnDrop(server.id());
    wait_up(&format!("http://127.0.0.1:{port}")).await;
    assert!(server.try_wait().unwrap().is_none());

    let out = arbiter()
        .args([
            "match",
            "reversi",
            "--size",
            "8",
            "builtin:random",
            "builtin:random",
        ])
        .args(["--games", "1", "-o"])
        .arg(tmp.path().join("games"))
        .env("ARBITER_CONTAINMENT_OFF", "namespaces")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("namespaces"), "no warning: {err}");
}
