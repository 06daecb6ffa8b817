//! `arbiter demo` end to end (with sample bots made from the fixture bot) and its file server.

use crate::tournament_support;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

use tournament_support::*;

#[test]
fn demo_builds_sample_bots_runs_and_writes_the_site() {
    let tmp = tempfile::tempdir().unwrap();
    // A checkout-like directory whose bots/Makefile builds two Reversi "sample bots".
    let bots = tmp.path().join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/tournament/rbot.c");
    std::fs::write(
        bots.join("Makefile"),
        format!(
            "all:\n\tmkdir -p bin\n\tcc -O2 -o bin/reversi_random {0}\n\tcc -O2 -o bin/reversi_greedy {0}\n",
            src.display()
        ),
    )
    .unwrap();
    let o = arbiter()
        .current_dir(tmp.path())
        .args(["demo", "--no-serve", "--only", "reversi", "--out", "demo"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stderr}\n{stdout}");
    assert!(
        tmp.path().join("bots/bin/reversi_greedy").is_file(),
        "the Makefile ran"
    );
    let site = tmp.path().join("demo/site");
    assert!(
        stdout.contains("site: ") && stdout.contains("index.html"),
        "{stdout}"
    );
    let front = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(front.contains("reversi/index.html"), "{front}");
    let index = std::fs::read_to_string(site.join("reversi/index.html")).unwrap();
    assert!(index.contains("sample-reversi-greedy"));
    let rep = report_json(&tmp.path().join("demo/reversi/out"));
    assert!(rep["done"].as_u64().unwrap() >= 2);
    assert_eq!(rep["done"], rep["scheduled"]);
}

fn get(port: u16, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn the_server_serves_the_site_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    std::fs::create_dir_all(root.join("games")).unwrap();
    std::fs::write(root.join("index.html"), "<h1>hello</h1>").unwrap();
    std::fs::write(
        root.join("games/game-000001.js"),
        "window.ARBITER_REPLAY = {};",
    )
    .unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "secret").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let r = root.clone();
    std::thread::spawn(move || arbiter::commands::demo::serve_on(listener, &r));
    let home = get(port, "/");
    assert!(
        home.starts_with("HTTP/1.1 200") && home.contains("<h1>hello</h1>"),
        "{home}"
    );
    let js = get(port, "/games/game-000001.js?x=1");
    assert!(
        js.contains("text/javascript") && js.contains("ARBITER_REPLAY"),
        "{js}"
    );
    for bad in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/games/../../secret.txt",
        "/nope.html",
    ] {
        let r = get(port, bad);
        assert!(r.starts_with("HTTP/1.1 404"), "{bad}: {r}");
        assert!(!r.contains("secret"), "{bad}");
    }
}
