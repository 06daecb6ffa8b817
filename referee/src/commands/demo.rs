//! `arbiter demo`: the README's first command. Builds the sample bots (when the repository
//! has them), runs a short round robin for each game with built-in bots of several strengths
//! and the sample bots, writes one site for all three, and serves it on 127.0.0.1.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::Context;
use clap::Args;

use arbiter_tournament::report::{html, Report};
use arbiter_tournament::runner::{self, RunOptions};
use arbiter_tournament::Tournament;

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Where the tournaments and the site go (default: target/demo, or ./arbiter-demo
    /// outside a checkout)
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Write the site and exit instead of serving it
    #[arg(long)]
    pub no_serve: bool,
    /// Port to serve on (default: a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Games per pairing (even)
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// The web player to embed (default: the one built into arbiter)
    #[arg(long)]
    pub player: Option<PathBuf>,
    /// Only these games (reversi, gomoku, duel2048)
    #[arg(long, value_delimiter = ',')]
    pub only: Option<Vec<String>>,
}

struct DemoGame {
    key: &'static str,
    title: &'static str,
    game_toml: &'static str,
    limits: &'static str,
    builtin: &'static [&'static str],
    /// Sample bots: binary in bots/bin and its arguments.
    samples: &'static [(&'static str, &'static str)],
    /// Python sample bots in bots/python and their arguments.
    python: &'static [(&'static str, &'static str)],
}

const GAMES: [DemoGame; 3] = [
    DemoGame {
        key: "reversi",
        title: "Reversi 8 x 8",
        game_toml: "name = \"reversi\"\nsize = 8",
        limits: "move_ms = 1000\ngame_ms = 30000",
        builtin: &["random", "1", "2", "3"],
        samples: &[("reversi_random", "8"), ("reversi_greedy", "8")],
        python: &[("reversi_greedy.py", "8")],
    },
    DemoGame {
        key: "gomoku",
        title: "Gomoku 15 x 15 (freestyle)",
        game_toml: "name = \"gomoku\"\nsize = 15\nrule = \"freestyle\"",
        limits: "move_ms = 1000\ngame_ms = 30000",
        builtin: &["random", "1", "2"],
        samples: &[("gomocup_random", ""), ("gomocup_greedy", "")],
        python: &[("gomocup_greedy.py", "")],
    },
    DemoGame {
        key: "duel2048",
        title: "The 2048 duel",
        game_toml: "name = \"duel2048\"",
        limits: "game_ms = 5000",
        builtin: &["random", "1", "2"],
        samples: &[("duel_random", ""), ("duel_greedy", "")],
        python: &[("duel_greedy.py", "")],
    },
];

pub fn run(a: &DemoArgs) -> anyhow::Result<ExitCode> {
    if a.games == 0 || a.games % 2 != 0 {
        anyhow::bail!("--games must be even and at least 2");
    }
    let out = match &a.out {
        Some(o) => o.clone(),
        None if Path::new("target").is_dir() => PathBuf::from("target/demo"),
        None => PathBuf::from("arbiter-demo"),
    };
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let out = out.canonicalize()?;
    let started = std::time::Instant::now();
    let samples_dir = build_samples()?;
    let builtin = builtin_available();
    if !builtin {
        eprintln!(
            "note: this arbiter has no built-in bots (`arbiter bot`); using sample bots only"
        );
    }
    let (player, _) = arbiter_tournament::player::load(a.player.as_deref())?;
    let site = out.join("site");
    std::fs::create_dir_all(&site)?;
    let mut sections = Vec::new();
    for g in GAMES
        .iter()
        .filter(|g| a.only.as_ref().is_none_or(|o| o.iter().any(|x| x == g.key)))
    {
        let mut bots: Vec<(String, String)> = Vec::new();
        if builtin {
            for b in g.builtin {
                let name = match *b {
                    "random" => "builtin-random".to_string(),
                    d => format!("builtin-depth{d}"),
                };
                bots.push((name, format!("builtin:{b}")));
            }
        }
        if let Some(dir) = &samples_dir {
            for (bin, args) in g.samples {
                let p = dir.join(bin);
                if p.is_file() {
                    let cmd = format!("{} {args}", shell_words::quote(&p.display().to_string()));
                    bots.push((
                        format!("sample-{}", bin.replace('_', "-")),
                        cmd.trim().to_string(),
                    ));
                }
            }
        }
        let python = Path::new("bots/python");
        if python.is_dir() && python3_available() {
            for (file, args) in g.python {
                let p = python.join(file);
                if p.is_file() {
                    let p = p.canonicalize()?;
                    let cmd = format!(
                        "python3 {} {args}",
                        shell_words::quote(&p.display().to_string())
                    );
                    let stem = file.trim_end_matches(".py").replace('_', "-");
                    bots.push((format!("sample-py-{stem}"), cmd.trim().to_string()));
                }
            }
        }
        if bots.len() < 2 {
            eprintln!("{}: fewer than two bots available, skipped", g.title);
            continue;
        }
        let dir = out.join(g.key);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let mut toml = format!(
            "name = \"Demo: {}\"\nseed = 1\nformat = \"round-robin\"\ngames_per_pairing = {}\noutput = \"out\"\n[game]\n{}\n[limits]\n{}\n",
            g.title, a.games, g.game_toml, g.limits
        );
        for (name, cmd) in &bots {
            toml.push_str(&format!(
                "[[bots]]\nname = \"{name}\"\ncommand = {}\n",
                toml_string(cmd)
            ));
        }
        let cfg = dir.join("tournament.toml");
        std::fs::write(&cfg, toml)?;
        let mut t = Tournament::create(&cfg)?;
        let total = t.store.games(Some("scheduled"))?.len();
        eprintln!("== {}: {} bots, {total} games", g.title, bots.len());
        let s = runner::run(&mut t.store, &t.resolved, &RunOptions::default())?;
        eprintln!("   {} games in {:.1} s", s.played, s.wall.as_secs_f64());
        let report = Report::build(&t)?;
        print!("{}", arbiter_tournament::report::terminal::render(&report));
        html::write_site(
            &report,
            &t.resolved.output,
            &site.join(g.key),
            Some(&player),
        )?;
        sections.push((g.key, g.title, report));
    }
    if sections.is_empty() {
        anyhow::bail!(
            "no game could be played: neither built-in bots nor sample bots are available"
        );
    }
    write_front_page(&site, &sections)?;
    let index = site.join("index.html");
    println!(
        "demo finished in {:.1} s; site: {}",
        started.elapsed().as_secs_f64(),
        index.display()
    );
    if a.no_serve {
        return Ok(ExitCode::SUCCESS);
    }
    serve(&site, a.port)
}

fn toml_string(s: &str) -> String {
    // A TOML basic string: escape backslashes and quotes.
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Runs `make -C bots` (or `bots/build.sh`) when the checkout has sample bots; returns
/// `bots/bin` if it exists afterwards. A failed build is reported and skipped.
fn build_samples() -> anyhow::Result<Option<PathBuf>> {
    let bots = Path::new("bots");
    let run = if bots.join("Makefile").is_file() {
        Some(Command::new("make").arg("-s").arg("-C").arg(bots).output())
    } else if bots.join("build.sh").is_file() {
        Some(Command::new("bash").arg(bots.join("build.sh")).output())
    } else {
        None
    };
    match run {
        Some(Ok(o)) if !o.status.success() => {
            eprintln!(
                "warning: building the sample bots failed; continuing without them\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        Some(Err(e)) => eprintln!("warning: cannot build the sample bots: {e}"),
        _ => {}
    }
    let bin = bots.join("bin");
    Ok(if bin.is_dir() {
        Some(bin.canonicalize()?)
    } else {
        None
    })
}

fn python3_available() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn builtin_available() -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    Command::new(exe)
        .args(["bot", "--help"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn write_front_page(site: &Path, sections: &[(&str, &str, Report)]) -> anyhow::Result<()> {
    let mut h = String::from("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>arbiter demo</title><style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2em auto;padding:0 1em}li{margin:.4em 0}</style></head><body><h1>arbiter demo</h1><p>One short round robin per game. Each links to its standings, crosstable, ratings, per-bot statistics and every game in the replay player.</p><ul>");
    for (key, title, r) in sections {
        let leader = r
            .standings
            .rows
            .first()
            .map(|x| x.bot.as_str())
            .unwrap_or("-");
        h.push_str(&format!(
            "<li><a href=\"{key}/index.html\">{}</a>: {} bots, {} games, leader {}</li>",
            html::esc(title),
            r.bots.len(),
            r.done,
            html::esc(leader)
        ));
    }
    h.push_str("</ul></body></html>\n");
    runner::write_atomic(&site.join("index.html"), h.as_bytes())
}

/// A minimal static file server for the site (GET and HEAD only, files under `root` only).
pub fn serve(root: &Path, port: u16) -> anyhow::Result<ExitCode> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?;
    let addr = listener.local_addr()?;
    println!("serving http://{addr}/ (Ctrl-C to stop)");
    serve_on(listener, root)?;
    Ok(ExitCode::SUCCESS)
}

/// Serves `root` on a listener until the process ends.
pub fn serve_on(listener: TcpListener, root: &Path) -> anyhow::Result<()> {
    let root = root.canonicalize()?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        std::thread::spawn(move || {
            let _ = answer(stream, &root);
        });
    }
    Ok(())
}

fn answer(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Skip the headers.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"method not allowed\n",
            method == "HEAD",
        );
    }
    match resolve(root, target) {
        Some(path) => match std::fs::read(&path) {
            Ok(body) => respond(
                &mut stream,
                "200 OK",
                content_type(&path),
                &body,
                method == "HEAD",
            ),
            Err(_) => respond(
                &mut stream,
                "404 Not Found",
                "text/plain",
                b"not found\n",
                method == "HEAD",
            ),
        },
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            method == "HEAD",
        ),
    }
}

/// Maps a request path to a file under `root`; `..`, absolute escapes and symlinks out of the
/// root are refused.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_decode(path)?;
    let mut p = root.to_path_buf();
    for seg in decoded.split('/') {
        match seg {
            "" | "." => {}
            ".." => return None,
            s if s.contains('\\') || s.contains('\0') => return None,
            s => p.push(s),
        }
    }
    if p.is_dir() {
        p.push("index.html");
    }
    let real = p.canonicalize().ok()?;
    real.starts_with(root).then_some(real)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(p: &Path) -> &'static str {
    match p.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("css") => "text/css",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn respond(
    s: &mut TcpStream,
    status: &str,
    ctype: &str,
    body: &[u8],
    head: bool,
) -> std::io::Result<()> {
    write!(
        s,
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if !head {
        s.write_all(body)?;
    }
    s.flush()
}
