//! The copied-code report for course staff (issue 27): pairs of students ranked by shared
//! code (`/admin/similarity`, with JSON and CSV), and a pair's two sources side by side with
//! the matched regions in the same colour (`/admin/similarity/pair`). The method is in the
//! `arbiter-similarity` crate; here the contest's submissions, template code and earlier
//! years' sources are gathered. Sources are shown to staff only, and always escaped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_queue::Db;
use arbiter_similarity::view::{line_regions, Which};
use arbiter_similarity::{
    analyse, export, Cache, Corpus, Document, Language, Origin, Pair, Params, Report, Template,
};
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::watch;

use crate::auth::Admin;
use crate::config::Contest;
use crate::error::AppError;
use crate::pages::{render, Layout};
use crate::state::Shared;

/// Template code (sample bots, a starter kit) the staff put in the contest directory.
pub const TEMPLATE_DIR: &str = "similarity/template";
/// Earlier years' sources, one file per former student (sub-folders per year are fine).
pub const EARLIER_DIR: &str = "similarity/earlier";
/// Tiles of every compared pair, keyed by the sources' digests.
pub const CACHE_FILE: &str = "similarity-cache.json";

/// Files read from a reference folder, at most.
const MAX_REFERENCE_FILES: usize = 5_000;
/// Folders deep, at most.
const MAX_REFERENCE_DEPTH: usize = 4;
/// Pairs listed on the page (the exports have all of them).
const MAX_LISTED: usize = 500;
/// Lines of a source shown on a pair's page.
const MAX_SHOWN_LINES: usize = 20_000;

/// One report's choices.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Every version of each student, not only the latest.
    pub all_versions: bool,
    /// Template files or folders, besides DIR/similarity/template.
    pub templates: Vec<PathBuf>,
    /// Earlier years' folders, besides DIR/similarity/earlier.
    pub earlier: Vec<PathBuf>,
}

/// Sources one report was made of, with notes on what was left out.
struct Gathered {
    corpus: Corpus,
    notes: Vec<String>,
}

/// How long a page waits for its report before it answers that the report is being computed
/// (the site answers every request within a minute; a report of a large class with every
/// version, or with many hostile sources, may take longer).
pub const PAGE_WAIT: Duration = Duration::from_secs(20);

/// The report's worker threads run at this nice value: games and the site come first.
const NICE: i32 = 10;

/// A report's outcome, shared by every request that waits for it.
type Outcome = Result<Arc<Report>, Arc<str>>;

/// A report being computed (or the last one computed) for one contest and choice of options.
struct Job {
    key: String,
    id: u64,
    started: Instant,
    done: watch::Receiver<Option<Outcome>>,
}

/// The reports being computed, and the last one finished, per contest and options: a request
/// joins the report already being computed rather than start another, and a request that
/// gave up waiting (a timed-out page) leaves it running, so that the next one finds it.
static JOBS: std::sync::Mutex<Vec<Job>> = std::sync::Mutex::new(Vec::new());
static NEXT_JOB: AtomicU64 = AtomicU64::new(1);
/// Jobs remembered, at most (finished ones are forgotten first).
const MAX_JOBS: usize = 8;

/// One report computes at a time per process (it writes the cache file); its task holds
/// this, not the request that started it.
static RUNNING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Where a report is.
pub enum Progress {
    Done(Arc<Report>),
    /// Still being computed: job `id`, started this long ago.
    Running {
        id: u64,
        since: Duration,
    },
}

/// The report over the contest's submissions, waited for however long it takes (the command
/// line); compares only pairs not in the cache file.
pub async fn compute(
    db: &Db,
    contest: &Contest,
    dir: &Path,
    opts: &Options,
) -> anyhow::Result<Report> {
    match report(db, contest, dir, opts, None, None).await? {
        Progress::Done(r) => Ok(Report::clone(&r)),
        Progress::Running { .. } => anyhow::bail!("the similarity report did not finish"),
    }
}

/// The report, waiting at most `wait` for it. `job` names a report already computed that the
/// caller was told to wait for (a page that reloads itself): its result is reused.
pub async fn report(
    db: &Db,
    contest: &Contest,
    dir: &Path,
    opts: &Options,
    wait: Option<Duration>,
    job: Option<u64>,
) -> anyhow::Result<Progress> {
    let (id, started, mut done) = join_or_start(db, contest, dir, opts, job);
    let finished = async move {
        loop {
            if let Some(outcome) = done.borrow_and_update().clone() {
                return outcome;
            }
            if done.changed().await.is_err() {
                return Err(Arc::from("the report's task stopped"));
            }
        }
    };
    let outcome = match wait {
        None => finished.await,
        Some(wait) => match tokio::time::timeout(wait, finished).await {
            Ok(outcome) => outcome,
            Err(_) => {
                return Ok(Progress::Running {
                    id,
                    since: started.elapsed(),
                })
            }
        },
    };
    outcome
        .map(Progress::Done)
        .map_err(|e| anyhow::anyhow!("similarity report: {e}"))
}

fn join_or_start(
    db: &Db,
    contest: &Contest,
    dir: &Path,
    opts: &Options,
    job: Option<u64>,
) -> (u64, Instant, watch::Receiver<Option<Outcome>>) {
    let key = format!("{}\n{opts:?}", dir.display());
    let mut jobs = JOBS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(j) = jobs.iter().find(|j| j.key == key) {
        let finished = j.done.borrow().is_some();
        if !finished || job == Some(j.id) {
            return (j.id, j.started, j.done.clone());
        }
    }
    let id = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = watch::channel(None);
    jobs.retain(|j| j.key != key);
    while jobs.len() >= MAX_JOBS {
        let oldest = jobs
            .iter()
            .position(|j| j.done.borrow().is_some())
            .unwrap_or(0);
        jobs.remove(oldest);
    }
    let started = Instant::now();
    jobs.push(Job {
        key,
        id,
        started,
        done: rx.clone(),
    });
    let (db, contest, dir, opts) = (db.clone(), contest.clone(), dir.to_path_buf(), opts.clone());
    tokio::spawn(async move {
        let _one = RUNNING.lock().await;
        let outcome = build(&db, &contest, &dir, &opts)
            .await
            .map(Arc::new)
            .map_err(|e| Arc::from(format!("{e:#}")));
        if let Err(e) = &outcome {
            eprintln!("similarity: {e}");
        }
        let _ = tx.send(Some(outcome));
    });
    (id, started, rx)
}

/// The parameters of the site's reports.
fn params() -> Params {
    Params {
        nice: NICE,
        ..Params::default()
    }
}

async fn build(db: &Db, contest: &Contest, dir: &Path, opts: &Options) -> anyhow::Result<Report> {
    let params = params();
    let mut g = gather(db, contest, dir, opts, &params).await?;
    if !opts.all_versions {
        g.corpus = g.corpus.latest_only();
    }
    let cache_path = dir.join(CACHE_FILE);
    let report = tokio::task::spawn_blocking(move || {
        let mut cache = Cache::load(&cache_path);
        let report = analyse(&g.corpus, &params, &mut cache);
        save(&mut cache, &report, &cache_path);
        with_notes(report, g.notes)
    })
    .await?;
    Ok(report)
}

fn save(cache: &mut Cache, report: &Report, path: &Path) {
    if report.counts.compared > 0 {
        if let Err(e) = cache.save(path) {
            eprintln!("similarity: could not save {}: {e}", path.display());
        }
    }
}

/// One pair of a pair page. It does not wait for a report being computed: it reads the cache
/// and tiles the pair itself if need be (one pair, within its budget), and keeps the result
/// only when no report is writing the cache.
async fn run_pair(corpus: Corpus, cache_path: PathBuf) -> anyhow::Result<Report> {
    let writer = RUNNING.try_lock().ok();
    let report = tokio::task::spawn_blocking(move || {
        let mut cache = Cache::load(&cache_path);
        let report = analyse(&corpus, &params(), &mut cache);
        if writer.is_some() {
            save(&mut cache, &report, &cache_path);
        }
        drop(writer);
        report
    })
    .await?;
    Ok(report)
}

fn with_notes(mut report: Report, notes: Vec<String>) -> Report {
    report
        .skipped
        .extend(notes.into_iter().map(|reason| arbiter_similarity::Skipped {
            owner: String::new(),
            version: String::new(),
            reason,
        }));
    report
}

async fn gather(
    db: &Db,
    contest: &Contest,
    dir: &Path,
    opts: &Options,
    params: &Params,
) -> anyhow::Result<Gathered> {
    let mut g = Gathered {
        corpus: Corpus::default(),
        notes: Vec::new(),
    };
    let versions = if opts.all_versions {
        params.max_versions
    } else {
        1
    };
    g.corpus.documents = submissions(db, contest, versions, params, &mut g.notes).await?;
    let mut template_roots = vec![dir.join(TEMPLATE_DIR)];
    template_roots.extend(opts.templates.iter().cloned());
    g.corpus.templates = templates(&template_roots, params, &mut g.notes);
    let mut earlier_roots = vec![dir.join(EARLIER_DIR)];
    earlier_roots.extend(opts.earlier.iter().cloned());
    g.corpus
        .documents
        .extend(earlier_documents(&earlier_roots, params, &mut g.notes));
    Ok(g)
}

/// The language of each of the contest's language keys.
fn languages(contest: &Contest) -> HashMap<String, Language> {
    contest
        .file
        .languages
        .iter()
        .filter_map(|(key, l)| {
            Language::from_key(key)
                .or_else(|| Language::from_file_name(&l.file))
                .map(|lang| (key.clone(), lang))
        })
        .collect()
}

/// Rows read for one report, at most (each is a few numbers and names; sources are read after
/// the rows are chosen).
const MAX_ROWS: usize = 500_000;

/// Every student's latest `versions` submissions, oldest first (staff accounts' are not
/// students'). Sources are chosen before they are read: a version identical to a later one of
/// the same student is left out, one over the size limit is named without being read, and the
/// report's bounds on sources and bytes are applied by fair shares (each student's latest
/// versions first), so that no student's submissions, however many or large, crowd out
/// another's.
async fn submissions(
    db: &Db,
    contest: &Contest,
    versions: usize,
    params: &Params,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Document>> {
    let mut rows: Vec<SubmissionRow> = sqlx::query_as(
        "SELECT id, login, language, source, size FROM (\
           SELECT s.id, u.login, s.language, s.source, s.size, \
             ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY s.id DESC) AS version \
           FROM submissions s JOIN users u ON u.id = s.user_id WHERE u.admin = 0) AS latest \
         WHERE version <= $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(i64::try_from(versions).unwrap_or(i64::MAX))
    .bind(i64::try_from(MAX_ROWS).unwrap_or(i64::MAX))
    .fetch_all(db.pool())
    .await?;
    if rows.len() >= MAX_ROWS {
        notes.push(format!("only the latest {MAX_ROWS} submissions were read"));
    }
    rows.reverse();
    let rows = chosen(rows, params, notes);
    let langs = languages(contest);
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        match document(db, &langs, row).await? {
            Ok(d) => out.push(d),
            Err(note) => notes.extend(note),
        }
    }
    Ok(out)
}

/// The rows whose sources are read (see [`submissions`]), oldest first.
fn chosen(
    rows: Vec<SubmissionRow>,
    params: &Params,
    notes: &mut Vec<String>,
) -> Vec<SubmissionRow> {
    let mut seen = std::collections::HashSet::new();
    let mut keep: Vec<bool> = rows
        .iter()
        .rev()
        .map(|(_, login, _, hash, _)| seen.insert((login.clone(), hash.clone())))
        .collect();
    keep.reverse();
    let mut rows: Vec<SubmissionRow> = rows
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect();
    rows.retain(|(id, _, _, _, size)| {
        let fits = usize::try_from(*size).is_ok_and(|s| s <= params.max_bytes);
        if !fits {
            notes.push(format!(
                "submission #{id}: {size} bytes: over the limit of {}",
                params.max_bytes
            ));
        }
        fits
    });
    for (budget, bytes) in [
        (params.max_documents as u64, false),
        (params.max_total_bytes as u64, true),
    ] {
        let items: Vec<(&str, u64)> = rows
            .iter()
            .map(|(_, login, _, _, size)| {
                let cost = if bytes {
                    u64::try_from(*size).unwrap_or(u64::MAX)
                } else {
                    1
                };
                (login.as_str(), cost)
            })
            .collect();
        let keep = arbiter_similarity::fair::keep(&items, budget);
        let cut = keep.iter().filter(|k| !**k).count();
        if cut > 0 {
            let unit = if bytes { "bytes" } else { "sources" };
            notes.push(format!(
                "{cut} submissions left out, the oldest of the students with most: the report reads at most {budget} {unit}, each student a fair share"
            ));
            rows = rows
                .into_iter()
                .zip(keep)
                .filter_map(|(r, k)| k.then_some(r))
                .collect();
        }
    }
    rows
}

type SubmissionRow = (i64, String, String, String, i64);

const SUBMISSION_COLUMNS: &str =
    "SELECT s.id, u.login, s.language, s.source, s.size FROM submissions s \
     JOIN users u ON u.id = s.user_id";

/// A submission's document; `Err` with a note when it cannot be compared (`None`: a
/// language the report does not read, which needs no note).
async fn document(
    db: &Db,
    langs: &HashMap<String, Language>,
    (id, login, key, hash, _): SubmissionRow,
) -> anyhow::Result<Result<Document, Option<String>>> {
    let Some(&language) = langs.get(&key) else {
        return Ok(Err(None));
    };
    let Some(bytes) = arbiter_queue::artefacts::get(db, &hash).await? else {
        return Ok(Err(Some(format!(
            "submission #{id}: its source is missing"
        ))));
    };
    Ok(Ok(Document {
        owner: login,
        version: format!("#{id}"),
        id: Some(id),
        language,
        origin: Origin::Student,
        source: String::from_utf8_lossy(&bytes).into_owned(),
    }))
}

/// One submission as a document, for a pair's page.
async fn submission_document(state: &Shared, id: i64) -> Result<Document, AppError> {
    let row: Option<SubmissionRow> =
        sqlx::query_as(&format!("{SUBMISSION_COLUMNS} WHERE s.id = $1"))
            .bind(id)
            .fetch_optional(state.db.pool())
            .await?;
    let missing = || AppError::NotFound(format!("submission #{id}"));
    let row = row.ok_or_else(missing)?;
    document(&state.db, &languages(&state.contest), row)
        .await?
        .map_err(|_| missing())
}

fn templates(roots: &[PathBuf], params: &Params, notes: &mut Vec<String>) -> Vec<Template> {
    reference_files(roots, params, notes)
        .into_iter()
        .map(|(name, language, source)| Template {
            name,
            language,
            source,
        })
        .collect()
}

/// Earlier years' sources: each file is one former student, named by its path.
fn earlier_documents(roots: &[PathBuf], params: &Params, notes: &mut Vec<String>) -> Vec<Document> {
    reference_files(roots, params, notes)
        .into_iter()
        .map(|(name, language, source)| Document {
            owner: name.clone(),
            version: name,
            id: None,
            language,
            origin: Origin::Earlier,
            source,
        })
        .collect()
}

/// Source files under `roots` (files or folders), as (path relative to its root, language,
/// text); bounded in count, depth and size.
fn reference_files(
    roots: &[PathBuf],
    params: &Params,
    notes: &mut Vec<String>,
) -> Vec<(String, Language, String)> {
    let mut out = Vec::new();
    for root in roots {
        let mut files = Vec::new();
        walk(root, 0, &mut files);
        if files.len() > MAX_REFERENCE_FILES {
            notes.push(format!(
                "{}: only the first {MAX_REFERENCE_FILES} files were read",
                root.display()
            ));
            files.truncate(MAX_REFERENCE_FILES);
        }
        for path in files {
            if let Some(f) = reference_file(root, &path, params, notes) {
                out.push(f);
            }
        }
    }
    out
}

fn reference_file(
    root: &Path,
    path: &Path,
    params: &Params,
    notes: &mut Vec<String>,
) -> Option<(String, Language, String)> {
    let name = path
        .strip_prefix(root)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned();
    let language = Language::from_file_name(&name)?;
    match crate::read_text(path, params.max_bytes as u64, "a reference source") {
        Ok(text) => Some((name, language, text)),
        Err(e) => {
            notes.push(format!("{name}: {e:#}"));
            None
        }
    }
}

/// Files under `path` in name order (a file is itself), not following symbolic links.
fn walk(path: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if meta.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    if !meta.is_dir() || depth > MAX_REFERENCE_DEPTH || out.len() > MAX_REFERENCE_FILES {
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children.iter().take(MAX_REFERENCE_FILES + 1) {
        walk(child, depth + 1, out);
    }
}

// ---- the pages ----

#[derive(Deserialize)]
pub struct ListQuery {
    /// "1": every version of each student.
    #[serde(default)]
    all: Option<String>,
    /// "json" or "csv": the whole report as a download.
    #[serde(default)]
    format: Option<String>,
    /// The report this page was told to wait for (it reloads itself until it is done).
    #[serde(default)]
    job: Option<u64>,
}

/// One row of the ranked list.
struct Row {
    rank: usize,
    pair: Pair,
    link: String,
    similarity: String,
    share_a: String,
    share_b: String,
}

#[derive(askama::Template)]
#[template(path = "similarity.html")]
struct ListPage {
    l: Layout,
    rows: Vec<Row>,
    report: Report,
    all: bool,
    more: usize,
}

#[derive(askama::Template)]
#[template(path = "similarity_pending.html")]
struct PendingPage {
    l: Layout,
    /// Where the page reloads: the same report, naming its job.
    reload: String,
    seconds: u64,
}

impl ListPage {
    /// How many sources and pairs the report read.
    fn counts_text(&self) -> String {
        let c = &self.report.counts;
        self.l.lang.ta(
            "sim-counts",
            &[
                ("documents", c.documents.into()),
                ("candidates", c.candidate_pairs.into()),
                ("compared", c.compared.into()),
                ("cached", c.from_cache.into()),
            ],
        )
    }
}

pub async fn list(
    State(state): State<Shared>,
    Admin(session): Admin,
    Query(q): Query<ListQuery>,
) -> Result<Response, AppError> {
    let all = q.all.as_deref() == Some("1");
    let opts = Options {
        all_versions: all,
        ..Options::default()
    };
    let progress = report(
        &state.db,
        &state.contest,
        &state.dir,
        &opts,
        Some(PAGE_WAIT),
        q.job,
    )
    .await?;
    let report = match progress {
        Progress::Done(r) => Report::clone(&r),
        Progress::Running { id, since } => return pending(&state, &session, &q, id, since),
    };
    match q.format.as_deref() {
        Some("json") => {
            return download(export::json(&report).map_err(anyhow::Error::from)?, "json")
        }
        Some("csv") => return download(export::csv(&report).map_err(anyhow::Error::from)?, "csv"),
        _ => {}
    }
    let more = report.pairs.len().saturating_sub(MAX_LISTED);
    let rows = report
        .pairs
        .iter()
        .take(MAX_LISTED)
        .enumerate()
        .map(|(n, p)| Row {
            rank: n + 1,
            link: pair_link(p),
            similarity: percent(p.similarity),
            share_a: percent(p.a.share),
            share_b: percent(p.b.share),
            pair: p.clone(),
        })
        .collect();
    render(&ListPage {
        l: Layout::new(
            &state,
            Some(&session),
            crate::lang::t("sim-title"),
            "similarity",
        ),
        rows,
        report,
        all,
        more,
    })
}

/// The report is still being computed: a page that says so and reloads itself (or, for a
/// download, 503 with Retry-After).
fn pending(
    state: &Shared,
    session: &crate::auth::Session,
    q: &ListQuery,
    job: u64,
    since: Duration,
) -> Result<Response, AppError> {
    let mut reload = format!("/admin/similarity?job={job}");
    if q.all.as_deref() == Some("1") {
        reload.push_str("&all=1");
    }
    if matches!(q.format.as_deref(), Some("json" | "csv")) {
        let body = crate::lang::ta(
            "sim-pending-download",
            &[("seconds", since.as_secs().into())],
        );
        let mut r = (axum::http::StatusCode::SERVICE_UNAVAILABLE, body).into_response();
        let h = r.headers_mut();
        h.insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return Ok(r);
    }
    render(&PendingPage {
        l: Layout::new(
            state,
            Some(session),
            crate::lang::t("sim-title"),
            "similarity",
        ),
        reload,
        seconds: since.as_secs(),
    })
}

fn download(body: String, ext: &str) -> Result<Response, AppError> {
    let kind = if ext == "json" {
        "application/json"
    } else {
        "text/csv; charset=utf-8"
    };
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"similarity.{ext}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// The pair page of a listed pair: both sides by submission id, or an earlier year's path.
fn pair_link(p: &Pair) -> String {
    let a = p.a.id.unwrap_or_default();
    match p.b.id {
        Some(b) if !p.earlier => format!("/admin/similarity/pair?a={a}&b={b}"),
        _ => format!(
            "/admin/similarity/pair?a={a}&earlier={}",
            crate::pages::url_encode(&p.b.version)
        ),
    }
}

#[derive(Deserialize)]
pub struct PairQuery {
    a: i64,
    #[serde(default)]
    b: Option<i64>,
    #[serde(default)]
    earlier: Option<String>,
}

/// One line of a side.
struct Line {
    n: usize,
    text: String,
    /// The matched region this line is in (its colour).
    region: Option<usize>,
    /// A region starts here: the line of the other side where it starts.
    jump: Option<u32>,
}

struct Column {
    title: String,
    /// "a" or "b": anchors are `a-L12`.
    side: &'static str,
    other: &'static str,
    lines: Vec<Line>,
    cut: bool,
}

#[derive(askama::Template)]
#[template(path = "similarity_pair.html")]
struct PairPage {
    l: Layout,
    pair: Option<Pair>,
    title: String,
    columns: [Column; 2],
}

impl PairPage {
    /// The share of each side the matched regions cover.
    fn shares_text(&self, p: &Pair) -> String {
        self.l.lang.ta(
            "sim-pair-share",
            &[
                ("a", (p.a.share * 100.0).round().into()),
                ("first", (&self.columns[0].title).into()),
                ("b", (p.b.share * 100.0).round().into()),
                ("second", (&self.columns[1].title).into()),
            ],
        )
    }
}

pub async fn pair(
    State(state): State<Shared>,
    Admin(session): Admin,
    Query(q): Query<PairQuery>,
) -> Result<Response, AppError> {
    let (a, b, templates) = pair_documents(&state, &q).await?;
    let corpus = Corpus {
        documents: vec![a.clone(), b.clone()],
        templates,
    };
    let report = run_pair(corpus, state.dir.join(CACHE_FILE)).await?;
    let pair = report.pairs.into_iter().next();
    let regions = pair.as_ref().map_or(&[][..], |p| &p.regions[..]);
    let left = column(&a, regions, Which::A);
    let right = column(&b, regions, Which::B);
    render(&PairPage {
        l: Layout::new(
            &state,
            Some(&session),
            crate::lang::t("sim-pair-title"),
            "similarity",
        ),
        pair,
        title: format!("{} · {}", left.title, right.title),
        columns: [left, right],
    })
}

/// The two sources of a pair page and the template code.
async fn pair_documents(
    state: &Shared,
    q: &PairQuery,
) -> Result<(Document, Document, Vec<Template>), AppError> {
    let params = Params::default();
    let mut notes = Vec::new();
    let a = submission_document(state, q.a).await?;
    let b = match (&q.b, &q.earlier) {
        (Some(b), _) => submission_document(state, *b).await?,
        (None, Some(name)) => {
            earlier_documents(&[state.dir.join(EARLIER_DIR)], &params, &mut notes)
                .into_iter()
                .find(|d| &d.version == name)
                .ok_or_else(|| AppError::NotFound("that earlier source".into()))?
        }
        (None, None) => return Err(AppError::BadRequest("name the second source".into())),
    };
    let templates = templates(&[state.dir.join(TEMPLATE_DIR)], &params, &mut notes);
    Ok((a, b, templates))
}

fn column(doc: &Document, regions: &[arbiter_similarity::Region], which: Which) -> Column {
    let (side, other) = match which {
        Which::A => ("a", "b"),
        Which::B => ("b", "a"),
    };
    let total = doc.source.lines().count();
    let shown = total.min(MAX_SHOWN_LINES);
    let owner_of = line_regions(regions, which, shown);
    let mut starts: HashMap<usize, u32> = HashMap::new();
    for r in regions {
        let (mine, theirs) = match which {
            Which::A => (r.a_lines.0, r.b_lines.0),
            Which::B => (r.b_lines.0, r.a_lines.0),
        };
        starts.entry(mine as usize).or_insert(theirs);
    }
    let lines = doc
        .source
        .lines()
        .take(shown)
        .enumerate()
        .map(|(i, text)| Line {
            n: i + 1,
            text: text.replace('\t', "    "),
            region: owner_of.get(i).copied().flatten(),
            jump: starts.get(&(i + 1)).copied(),
        })
        .collect();
    Column {
        title: match doc.origin {
            Origin::Student => format!("{} {}", doc.owner, doc.version),
            Origin::Earlier => format!("earlier year: {}", doc.version),
        },
        side,
        other,
        lines,
        cut: total > shown,
    }
}

/// A share as a whole percentage.
fn percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}
