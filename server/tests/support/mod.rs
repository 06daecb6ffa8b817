//! A contest served in-process on a free loopback port, on SQLite or (when the test script
//! provides one) PostgreSQL, and a browser-like client: cookies, CSRF tokens scraped from
//! forms, the JSON API.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use reqwest::{Client, Response, StatusCode};

pub struct TestContest {
    pub dir: tempfile::TempDir,
    pub addr: SocketAddr,
    pub admin_password: String,
    pub db: Option<String>,
}

/// `contest.toml` for the tests: 8 x 8 Reversi through `reversi-board` (the sample bots learn
/// the size from BOARD), short limits, no interval between submissions.
pub fn config(extra: &str) -> String {
    format!(
        r#"name = "Test contest"
[game]
name = "reversi"
size = 8
protocol = "reversi-board"
[limits]
move_ms = 2000
game_ms = 20000
[submissions]
max_bytes = 65536
min_interval_s = 0
daily_budget_s = 0
games_per_pairing = 2
{extra}
[languages.c]
name = "C"
file = "main.c"
compile = "gcc -O1 -o {{out}} {{src}}"
compile_time_ms = 8000
compile_memory_mb = 512
run = "{{file}}"
[languages.python]
name = "Python 3"
file = "main.py"
compile = "python3 -m py_compile {{src}}"
run_source = true
run = "python3 -u {{file}}"
"#
    )
}

pub fn bots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots")
}

/// Databases to run each test on: SQLite always, PostgreSQL when `ARBITER_TEST_PG` is set.
pub async fn databases() -> Vec<Option<String>> {
    let mut out = vec![None];
    if let Some(url) = fresh_pg().await {
        out.push(Some(url));
    }
    out
}

pub async fn fresh_pg() -> Option<String> {
    let Ok(base) = std::env::var("ARBITER_TEST_PG") else {
        if std::env::var("ARBITER_REQUIRE_PG").as_deref() == Ok("1") {
            panic!("ARBITER_REQUIRE_PG=1 but ARBITER_TEST_PG is not set");
        }
        eprintln!("ARBITER_TEST_PG not set: PostgreSQL part skipped (scripts/test.sh sets it)");
        return None;
    };
    let admin = arbiter_queue::Db::connect(&base)
        .await
        .expect("connect to ARBITER_TEST_PG");
    let name = format!("c{:016x}", rand::random::<u64>());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(admin.pool())
        .await
        .expect("create database");
    admin.close().await;
    let (prefix, _) = base
        .rsplit_once('/')
        .expect("a database name in ARBITER_TEST_PG");
    Some(format!("{prefix}/{name}"))
}

impl TestContest {
    /// Initialises a contest with `roster` (CSV) and serves it with `workers` local slots.
    pub async fn start(
        db: Option<String>,
        extra_config: &str,
        roster: &str,
        workers: usize,
    ) -> TestContest {
        Self::start_with(db, &config(extra_config), roster, workers, |_| {}).await
    }

    /// [`TestContest::start`] with a whole `contest.toml` and a last say on the serve options
    /// (trusted proxies, timeouts).
    pub async fn start_with(
        db: Option<String>,
        contest_toml: &str,
        roster: &str,
        workers: usize,
        adjust: impl FnOnce(&mut arbiter_server::ServeOptions),
    ) -> TestContest {
        let dir = tempfile::tempdir().expect("temp dir");
        let admin_password = arbiter_server::init(
            dir.path(),
            "Test contest",
            "reversi",
            Some(8),
            None,
            db.as_deref(),
        )
        .await
        .expect("init");
        std::fs::write(dir.path().join("contest.toml"), contest_toml).expect("config");
        Self::serve_dir(dir, admin_password, db, roster, workers, adjust).await
    }

    /// A contest whose game is a module, made by `arbiter contest init --game-module FILE
    /// --game-config JSON` (`arbiter_server::init_module`) and served as it wrote it.
    pub async fn start_module(
        db: Option<String>,
        module: &Path,
        module_config: Option<&str>,
        roster: &str,
        workers: usize,
    ) -> TestContest {
        let dir = tempfile::tempdir().expect("temp dir");
        let admin_password = arbiter_server::init_module(
            dir.path(),
            "Module contest",
            module,
            module_config,
            db.as_deref(),
        )
        .await
        .expect("init --game-module");
        Self::serve_dir(dir, admin_password, db, roster, workers, |_| {}).await
    }

    /// Imports `roster` into the contest in `dir` and serves it.
    async fn serve_dir(
        dir: tempfile::TempDir,
        admin_password: String,
        db: Option<String>,
        roster: &str,
        workers: usize,
        adjust: impl FnOnce(&mut arbiter_server::ServeOptions),
    ) -> TestContest {
        let roster_path = dir.path().join("roster.csv");
        std::fs::write(&roster_path, roster).expect("roster");
        arbiter_server::users(dir.path(), db.as_deref(), &roster_path, None)
            .await
            .expect("users");
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut opts = serve_options(dir.path(), db.clone(), workers);
        adjust(&mut opts);
        tokio::spawn(async move {
            if let Err(e) = arbiter_server::serve(opts, Some(tx)).await {
                panic!("serve: {e:#}");
            }
        });
        let addr = rx.await.expect("the server started");
        TestContest {
            dir,
            addr,
            admin_password,
            db,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Serves the same contest directory again (as after a restart, with whatever contest.toml
    /// and files it has now), without judging slots; returns the new server's address.
    pub async fn serve_again(&self) -> SocketAddr {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let opts = serve_options(self.dir.path(), self.db.clone(), 0);
        tokio::spawn(async move {
            if let Err(e) = arbiter_server::serve(opts, Some(tx)).await {
                panic!("serve again: {e:#}");
            }
        });
        rx.await.expect("the server started again")
    }

    /// The contest's database, as the server opened it.
    pub async fn database(&self) -> arbiter_queue::Db {
        let url = self
            .db
            .clone()
            .unwrap_or_else(|| self.dir.path().join("contest.db").display().to_string());
        arbiter_queue::Db::connect(&url)
            .await
            .expect("the contest's database")
    }

    pub fn client(&self) -> Browser {
        Browser {
            http: Client::builder()
                .cookie_store(true)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            base: self.url(""),
            csrf: String::new(),
        }
    }
}

/// A test server's options: any free port, the built-in player, no pace.
fn serve_options(dir: &Path, db: Option<String>, workers: usize) -> arbiter_server::ServeOptions {
    arbiter_server::ServeOptions {
        dir: dir.to_path_buf(),
        listen: "127.0.0.1:0".parse().unwrap(),
        workers,
        db,
        player: None,
        secure_cookies: false,
        trusted_proxies: Vec::new(),
        limits: Default::default(),
        demo_bots: None,
        pace: std::time::Duration::ZERO,
        unsafe_containment: false,
    }
}

/// A browser: cookies, and the CSRF token of the last form seen.
pub struct Browser {
    pub http: Client,
    pub base: String,
    pub csrf: String,
}

pub fn scrape_csrf(html: &str) -> Option<String> {
    let at = html.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    Some(html[at..].split('"').next()?.to_string())
}

impl Browser {
    /// A GET: the status, and the redirect's target or the body; the page's CSRF token kept.
    pub async fn get(&mut self, path: &str) -> (StatusCode, String) {
        let (status, body) = self.peek(path).await;
        if let Some(t) = scrape_csrf(&body) {
            self.csrf = t;
        }
        (status, body)
    }

    /// [`Browser::get`] that leaves the browser as it was (no CSRF token taken): for polling
    /// in a closure.
    pub async fn peek(&self, path: &str) -> (StatusCode, String) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        read(r).await
    }

    pub async fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> (StatusCode, String) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .form(fields)
            .send()
            .await
            .expect("POST");
        read(r).await
    }

    /// Signs in through the form; returns the redirect target.
    pub async fn sign_in(&mut self, login: &str, password: &str) -> (StatusCode, String) {
        self.get("/login").await;
        let csrf = self.csrf.clone();
        self.post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("login", login),
                ("password", password),
                ("next", "/"),
            ],
        )
        .await
    }

    /// A first sign-in: the student number as password, then the forced change.
    pub async fn first_sign_in(&mut self, login: &str, nickname: &str, new_password: &str) {
        let (status, to) = self.sign_in(login, login).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "sign in {login}");
        assert!(
            to.ends_with("/account"),
            "a first sign-in goes to the account page, not {to}"
        );
        let (status, to) = self.get("/submit").await;
        assert_eq!(
            (status, to.as_str()),
            (StatusCode::SEE_OTHER, "/account"),
            "pages wait for the password change"
        );
        self.get("/account").await;
        let csrf = self.csrf.clone();
        let (status, to) = self
            .post_form(
                "/account",
                &[
                    ("csrf", &csrf),
                    ("nickname", nickname),
                    ("current", login),
                    ("new_password", new_password),
                    ("confirm", new_password),
                ],
            )
            .await;
        assert_eq!(status, StatusCode::SEE_OTHER, "password change: {to}");
    }

    /// Submits a file through the form; returns the submission id.
    pub async fn submit_file(
        &mut self,
        language: &str,
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Result<i64, (StatusCode, String)> {
        self.get("/submit").await;
        let form = Form::new()
            .text("csrf", self.csrf.clone())
            .text("language", language.to_string())
            .part("file", Part::bytes(bytes).file_name(file_name.to_string()));
        let r = self
            .http
            .post(format!("{}/submit", self.base))
            .multipart(form)
            .send()
            .await
            .expect("POST /submit");
        let (status, body) = read(r).await;
        if status == StatusCode::SEE_OTHER {
            Ok(body
                .rsplit('/')
                .next()
                .and_then(|id| id.parse().ok())
                .expect("a submission id"))
        } else {
            Err((status, body))
        }
    }

    pub async fn api_token(&self, login: &str, password: &str) -> (StatusCode, serde_json::Value) {
        let r = self
            .http
            .post(format!("{}/api/login", self.base))
            .json(&serde_json::json!({ "login": login, "password": password }))
            .send()
            .await
            .expect("POST /api/login");
        let status = r.status();
        (status, r.json().await.unwrap_or_default())
    }
}

async fn read(r: Response) -> (StatusCode, String) {
    let status = r.status();
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = r.text().await.unwrap_or_default();
    (status, location.unwrap_or(body))
}

/// The course staff's account past its first sign-in (nickname "staff", password "staff
/// password"), on the admin page.
pub async fn staff(c: &TestContest) -> Browser {
    let mut b = c.client();
    let (status, to) = b.sign_in("admin", &c.admin_password).await;
    assert_eq!((status, to.as_str()), (StatusCode::SEE_OTHER, "/account"));
    b.get("/account").await;
    let csrf = b.csrf.clone();
    let pw = c.admin_password.clone();
    let (status, body) = b
        .post_form(
            "/account",
            &[
                ("csrf", &csrf),
                ("nickname", "staff"),
                ("current", &pw),
                ("new_password", "staff password"),
                ("confirm", "staff password"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let (status, page) = b.get("/admin").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    b
}

/// Polls `f` until it returns `Some`, for at most `timeout`.
pub async fn wait_for<T, F, Fut>(timeout: Duration, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let t0 = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(t0.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The API's view of a submission.
pub async fn api_submission(c: &TestContest, token: &str, id: i64) -> serde_json::Value {
    Client::new()
        .get(c.url(&format!("/api/submissions/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .expect("GET submission")
        .json()
        .await
        .expect("JSON")
}

/// A student past the first sign-in (password "LOGIN horse battery"), with an API token.
pub async fn student(c: &TestContest, login: &str, nickname: &str) -> (Browser, String) {
    let mut b = c.client();
    let password = format!("{login} horse battery");
    b.first_sign_in(login, nickname, &password).await;
    let (_, token) = b.api_token(login, &password).await;
    (b, token["token"].as_str().expect("a token").to_string())
}
