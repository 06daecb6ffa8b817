//! The copied-code report for course staff (issue 27): pairs of students ranked by shared
//! code (`/admin/similarity`, with JSON and CSV), and a pair's two sources side by side with
//! the matched regions in the same colour (`/admin/similarity/pair`). The method is in the
//! `arbiter-similarity` crate; here the contest's submissions, template code and earlier
//! years' sources are gathered. Sources are shown to staff only, and always escaped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arbiter_queue::Db;
use arbiter_similarity::view::{line_regions, Which};
use arbiter_similarity::{
    analyse, export, Cache, Corpus, Document, Language, Origin, Pair, Params, Report, Template,
};
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

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

/// The report over the contest's submissions; compares only pairs not in the cache file.
pub async fn compute(
    db: &Db,
    contest: &Contest,
    dir: &Path,
    opts: &Options,
) -> anyhow::Result<Report> {
    let params = Params::default();
    let mut g = gather(db, contest, dir, opts, &params).await?;
    if !opts.all_versions {
        g.corpus = g.corpus.latest_only();
    }
    let report = run_cached(g.corpus, params, dir.join(CACHE_FILE)).await?;
    Ok(with_notes(report, g.notes))
}

/// One report at a time per process: a second request waits for the first's cache.
static RUNNING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn run_cached(corpus: Corpus, params: Params, cache_path: PathBuf) -> anyhow::Result<Report> {
    let _one = RUNNING.lock().await;
    let report = tokio::task::spawn_blocking(move || {
        let mut cache = Cache::load(&cache_path);
        let report = analyse(&corpus, &params, &mut cache);
        if report.counts.compared > 0 {
            if let Err(e) = cache.save(&cache_path) {
                eprintln!("similarity: could not save {}: {e}", cache_path.display());
            }
        }
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
    g.corpus.documents = submissions(db, contest, params.max_documents, &mut g.notes).await?;
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

/// Every student's submissions, oldest first (staff accounts' are not students').
async fn submissions(
    db: &Db,
    contest: &Contest,
    max: usize,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Document>> {
    let rows: Vec<SubmissionRow> = sqlx::query_as(&format!(
        "{SUBMISSION_COLUMNS} WHERE u.admin = 0 ORDER BY s.id DESC LIMIT $1"
    ))
    .bind(i64::try_from(max).unwrap_or(i64::MAX))
    .fetch_all(db.pool())
    .await?;
    if rows.len() >= max {
        notes.push(format!("only the latest {max} submissions were read"));
    }
    let langs = languages(contest);
    let mut out = Vec::with_capacity(rows.len());
    for row in rows.into_iter().rev() {
        match document(db, &langs, row).await? {
            Ok(d) => out.push(d),
            Err(note) => notes.extend(note),
        }
    }
    Ok(out)
}

type SubmissionRow = (i64, String, String, String);

const SUBMISSION_COLUMNS: &str = "SELECT s.id, u.login, s.language, s.source FROM submissions s \
     JOIN users u ON u.id = s.user_id";

/// A submission's document; `Err` with a note when it cannot be compared (`None`: a
/// language the report does not read, which needs no note).
async fn document(
    db: &Db,
    langs: &HashMap<String, Language>,
    (id, login, key, hash): SubmissionRow,
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
    let report = compute(&state.db, &state.contest, &state.dir, &opts).await?;
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
    let report = run_cached(corpus, Params::default(), state.dir.join(CACHE_FILE)).await?;
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
