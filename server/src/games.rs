//! Games as pages show them: the games of a submission grouped by opponent, and replays cut
//! to what the viewer may see (a bot's DEBUG output and stderr only for its author and the
//! course staff when logs are private; never the paths of the machine that played it).

use std::collections::BTreeMap;

use arbiter_engine::replay::Replay;
use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::auth::Session;
use crate::error::AppError;
use crate::state::Shared;
use crate::store::{self, side_id, Submission};

/// One game of a submission.
#[derive(Clone, Debug, Serialize)]
pub struct GameRow {
    /// The game's number in the contest (1, 2, 3 ...): what pages, links and the API call it.
    pub id: i64,
    /// The queue's job behind it (its replay's key), never shown.
    #[serde(skip)]
    pub job: i64,
    /// Submission ids in seat order (two, or N at a table).
    pub seats: Vec<i64>,
    /// `queued`, `running`, `done`, `cancelled`, `failed`.
    pub state: String,
    pub winner: Option<u8>,
    /// At a table: each seat's place (1 = first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u32>>,
    pub verdict: Option<String>,
    pub reason: Option<String>,
    pub moves: Option<u32>,
    /// The seat at fault (a crash, a timeout, an illegal move), if any.
    #[serde(default)]
    pub culprit: Option<u8>,
    /// The result's sequence number: against a frozen board's, it tells a result from after
    /// the freeze.
    #[serde(skip)]
    pub seq: Option<i64>,
}

/// What a viewer may not see while the scoreboard is frozen: the results after the freeze's
/// last one (`Some(seq)`), or nothing hidden (`None`: not frozen, or course staff).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cutoff(pub Option<i64>);

impl Cutoff {
    /// The cutoff for this viewer now.
    pub async fn of(state: &Shared, viewer: Option<&Session>) -> Result<Cutoff, AppError> {
        if viewer.is_some_and(|s| s.user.admin) {
            return Ok(Cutoff(None));
        }
        Ok(Cutoff(
            crate::scoreboard::frozen(state).await?.map(|b| b.seq),
        ))
    }

    pub fn frozen(&self) -> bool {
        self.0.is_some()
    }

    /// Whether this game's result is one the viewer may not see.
    pub fn hides(&self, g: &GameRow) -> bool {
        matches!((self.0, g.seq), (Some(cut), Some(seq)) if seq > cut)
    }

    /// The games as the viewer may see them: a result after the freeze becomes a game in the
    /// state `frozen`, with no winner, verdict or length.
    pub fn apply(&self, games: &mut [GameRow]) {
        for g in games.iter_mut().filter(|g| self.hides(g)) {
            g.state = FROZEN.into();
            g.winner = None;
            g.places = None;
            g.verdict = None;
            g.reason = None;
            g.moves = None;
            g.culprit = None;
        }
    }
}

/// The state of a game whose result the frozen scoreboard hides.
pub const FROZEN: &str = "frozen";

#[derive(Deserialize)]
struct OutcomeView {
    winner: Option<u8>,
    #[serde(default)]
    places: Option<Vec<u32>>,
    verdict: String,
    reason: String,
    moves: u32,
    #[serde(default)]
    culprit: Option<u8>,
}

/// Every game a submission takes part in, oldest first.
pub async fn of_submission(state: &Shared, submission: i64) -> Result<Vec<GameRow>, AppError> {
    let side = Submission::side(submission);
    let rows = sqlx::query(&format!(
        "SELECT j.number, j.side0, j.side1, j.state, r.outcome, r.seq, j.id FROM jobs j \
         LEFT JOIN results r ON r.job = j.id \
         WHERE j.competition = $1 AND j.kind = 'game' AND {} \
         ORDER BY j.id LIMIT 20000",
        arbiter_queue::jobs::INVOLVES
    ))
    .bind(state.competition)
    .bind(&side)
    .fetch_all(state.db.pool())
    .await?;
    let mut tables = crate::tables::seats_of_jobs(state, &side, "").await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let job: i64 = r.try_get(6)?;
        let seats = match tables.remove(&job) {
            Some(seats) => seats,
            None => pair_seats(r.try_get(1)?, r.try_get(2)?),
        };
        out.push(row(
            r.try_get::<Option<i64>, _>(0)?.unwrap_or(0),
            job,
            seats,
            r.try_get(3)?,
            (r.try_get(4)?, r.try_get(5)?),
        ));
    }
    Ok(out)
}

/// The two seats of a pairing's game, from its sides.
fn pair_seats(s0: String, s1: String) -> Vec<i64> {
    vec![side_id(&s0).unwrap_or(0), side_id(&s1).unwrap_or(0)]
}

/// A game's row from its job and its result (outcome and sequence number), if any.
pub(crate) fn row(
    id: i64,
    job: i64,
    seats: Vec<i64>,
    state: String,
    (outcome, seq): (Option<String>, Option<i64>),
) -> GameRow {
    let view = outcome.and_then(|o| serde_json::from_str::<OutcomeView>(&o).ok());
    GameRow {
        id,
        job,
        seats,
        state,
        winner: view.as_ref().and_then(|v| v.winner),
        places: view.as_ref().and_then(|v| v.places.clone()),
        verdict: view.as_ref().map(|v| v.verdict.clone()),
        reason: view.as_ref().map(|v| v.reason.clone()),
        moves: view.as_ref().map(|v| v.moves),
        culprit: view.as_ref().and_then(|v| v.culprit),
        seq,
    }
}

/// Game number `id` of the contest: its two submissions and state, or `NotFound`.
pub async fn game(state: &Shared, id: i64) -> Result<GameRow, AppError> {
    let row = sqlx::query(
        "SELECT j.side0, j.side1, j.state, r.outcome, r.seq, j.id FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.number = $1 AND j.competition = $2 AND j.kind = 'game'",
    )
    .bind(id)
    .bind(state.competition)
    .fetch_optional(state.db.pool())
    .await?
    .ok_or_else(|| AppError::NotFound(crate::lang::ta("err-game", &[("id", id.to_string().into())])))?;
    let job: i64 = row.try_get(5)?;
    let at_table: Vec<String> =
        sqlx::query_scalar("SELECT side FROM job_seats WHERE job = $1 ORDER BY seat")
            .bind(job)
            .fetch_all(state.db.pool())
            .await?;
    let seats = match at_table.is_empty() {
        true => pair_seats(row.try_get(0)?, row.try_get(1)?),
        false => at_table.iter().map(|s| side_id(s).unwrap_or(0)).collect(),
    };
    Ok(self::row(
        id,
        job,
        seats,
        row.try_get(2)?,
        (row.try_get(3)?, row.try_get(4)?),
    ))
}

/// The number of the game that is job `job` (0 if it has none).
pub async fn number_of(state: &Shared, job: i64) -> Result<i64, AppError> {
    let number: Option<Option<i64>> = sqlx::query_scalar("SELECT number FROM jobs WHERE id = $1")
        .bind(job)
        .fetch_optional(state.db.pool())
        .await?;
    Ok(number.flatten().unwrap_or(0))
}

/// Whether this viewer may see games at all.
pub fn may_watch(state: &Shared, viewer: Option<&Session>) -> bool {
    state.rules().scoreboard.public || viewer.is_some()
}

/// A game module of the contest, asked for as `<sha256>.wasm` (the player's `modules/` URL), for
/// whoever may watch the games: the player needs it to show them. Only a module the contest was
/// served with is found ([`crate::modules`]), whatever this process has loaded.
pub async fn module_file(
    state: &Shared,
    file: &str,
    viewer: Option<&Session>,
) -> Result<std::sync::Arc<[u8]>, AppError> {
    if !may_watch(state, viewer) {
        return Err(AppError::Forbidden(crate::lang::t("err-sign-in-to-watch")));
    }
    let sha = file.strip_suffix(".wasm").unwrap_or_default();
    crate::modules::bytes(state, sha)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("the game module {file}")))
}

/// The seats whose private output the viewer may see.
async fn own_seats(
    state: &Shared,
    g: &GameRow,
    viewer: Option<&Session>,
) -> Result<Vec<bool>, AppError> {
    let n = g.seats.len();
    let Some(s) = viewer else {
        return Ok(vec![false; n]);
    };
    if s.user.admin || !state.rules().scoreboard.private_logs {
        return Ok(vec![true; n]);
    }
    let mut own = vec![false; n];
    for (i, sub) in g.seats.iter().enumerate() {
        if let Some(sub) = store::submission(&state.db, *sub).await? {
            own[i] = sub.user_id == s.user.id;
        }
    }
    Ok(own)
}

/// The replay of a finished game, as this viewer may see it.
pub async fn replay_for(
    state: &Shared,
    id: i64,
    viewer: Option<&Session>,
) -> Result<String, AppError> {
    if !may_watch(state, viewer) {
        return Err(AppError::Forbidden(crate::lang::t("err-sign-in-to-watch")));
    }
    let g = game(state, id).await?;
    if Cutoff::of(state, viewer).await?.hides(&g) {
        return Err(AppError::Forbidden(crate::lang::ta(
            "err-replay-frozen",
            &[("id", id.to_string().into())],
        )));
    }
    let text = arbiter_queue::worker::replay_text(&state.queue, g.job)
        .await?
        .ok_or_else(|| {
            AppError::NotFound(format!("the replay of game {id} (it is {})", g.state))
        })?;
    let mut replay = Replay::from_json(&text)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("stored replay of game {id}: {e}")))?;
    let own = own_seats(state, &g, viewer).await?;
    redact(&mut replay, &own);
    if let Some(f) = &mut replay.failure {
        let sub = g.seats.get(f.seat.index()).copied().unwrap_or(0);
        if let Some(s) = store::submission(&state.db, sub).await? {
            let build = crate::routes::submissions::build_file(state, &s.language);
            for text in [&mut f.stderr, &mut f.log].into_iter().flatten() {
                *text = crate::file_names::own_names(text, &build, &s.file_name);
            }
        }
    }
    Ok(replay.to_json())
}

/// A finished game's verdict in `lang` (`job`: its queue job), said from its replay's reason (the stored outcome
/// keeps only the English words, `english`, which stay when the replay cannot be read).
pub async fn verdict_in(
    state: &Shared,
    job: i64,
    lang: arbiter_i18n::Lang,
    english: &str,
) -> String {
    if lang == arbiter_i18n::Lang::En {
        return english.to_string();
    }
    let replay = arbiter_queue::worker::replay_text(&state.queue, job)
        .await
        .ok()
        .flatten()
        .and_then(|text| Replay::from_json(&text).ok());
    match replay {
        Some(r) => arbiter_i18n::verdict::reason(lang, &r.result.reason),
        None => english.to_string(),
    }
}

/// What the player shows in place of another author's bot output: said, so that it does not
/// read as a bot that printed nothing.
pub const HIDDEN_OUTPUT: &str = "hidden: only the author sees this bot's output";

/// `text`, if any, replaced by [`HIDDEN_OUTPUT`].
fn hide(text: &mut Option<String>) {
    if text.is_some() {
        *text = Some(HIDDEN_OUTPUT.into());
    }
}

/// Removes what a viewer may not see: other seats' logs and stderr (saying they are hidden);
/// every command line (it holds paths of the judging machine).
pub fn redact(replay: &mut Replay, own: &[bool]) {
    let own = |seat: Seat| own.get(seat.index()).copied().unwrap_or(false);
    for p in &mut replay.players {
        p.command = None;
    }
    for m in &mut replay.moves {
        if !own(m.seat) {
            hide(&mut m.log);
        }
        // A simultaneous turn's other moves.
        for w in m.with.iter_mut().filter(|w| !own(w.seat)) {
            hide(&mut w.log);
        }
    }
    let retired = replay.retired.iter_mut().filter_map(|r| r.failure.as_mut());
    for f in replay.failure.iter_mut().chain(retired) {
        if !own(f.seat) {
            hide(&mut f.log);
            f.stderr = Some(HIDDEN_OUTPUT.into());
        }
    }
    if let Some(tails) = &mut replay.meta.stderr {
        for (k, tail) in tails.iter_mut().enumerate() {
            if !Seat::from_index(k).is_some_and(own) {
                tail.clear();
            }
        }
        if tails.iter().all(String::is_empty) {
            replay.meta.stderr = None;
        }
    }
}

/// The games of a submission by the other submissions of the game: its opponent in a
/// pairing, the others at its table (ascending).
pub fn by_opponent(submission: i64, games: &[GameRow]) -> BTreeMap<Vec<i64>, Vec<&GameRow>> {
    let mut map: BTreeMap<Vec<i64>, Vec<&GameRow>> = BTreeMap::new();
    for g in games {
        let mut others = g.others(submission);
        others.sort_unstable();
        map.entry(others).or_default().push(g);
    }
    map
}

impl GameRow {
    /// The seat `submission` sat in (the first if it is not in the game).
    pub fn seat_of(&self, submission: i64) -> usize {
        self.seats
            .iter()
            .position(|&s| s == submission)
            .unwrap_or(0)
    }

    /// The other seats' submissions, in seat order.
    pub fn others(&self, submission: i64) -> Vec<i64> {
        let me = self.seat_of(submission);
        (self.seats.iter().enumerate())
            .filter(|&(k, _)| k != me)
            .map(|(_, &s)| s)
            .collect()
    }

    /// `submission`'s place in a finished game at a table.
    pub fn place_of(&self, submission: i64) -> Option<u32> {
        self.places.as_ref()?.get(self.seat_of(submission)).copied()
    }
}

/// The submission's own output in its finished games: DEBUG lines move by move and the
/// failure's stderr, as one text file (bounded). Games `cutoff` hides are left out.
pub async fn logs_text(
    state: &Shared,
    submission: i64,
    cutoff: Cutoff,
) -> Result<String, AppError> {
    const MAX: usize = 8 << 20;
    // In the reader's language; the bots' own lines as they wrote them.
    let lang = crate::lang::current();
    let mut games = of_submission(state, submission).await?;
    cutoff.apply(&mut games);
    let mut out = String::new();
    for g in games.iter().filter(|g| g.state == "done") {
        let Some(text) = arbiter_queue::worker::replay_text(&state.queue, g.job).await? else {
            continue;
        };
        let Ok(replay) = Replay::from_json(&text) else {
            continue;
        };
        let me = Seat::from_index(g.seat_of(submission)).unwrap_or(Seat::FIRST);
        let others: Vec<&str> = (replay.players.iter())
            .filter(|p| p.seat != me)
            .map(|p| p.name.as_str())
            .collect();
        let opponent = others.join(", ");
        let seat = lang.t(seat_words(&replay.game, me));
        let head = lang.ta(
            "logs-game",
            &[
                ("game", g.id.into()),
                ("seat", seat.as_str().into()),
                ("opponent", opponent.as_str().into()),
                ("outcome", in_words(g, submission).into()),
            ],
        );
        out.push_str(&format!("=== {head}\n"));
        for (i, ply) in replay.moves.iter().enumerate() {
            // A simultaneous turn: this seat's move may be one played with the first.
            if let Some(m) = ply.records().find(|m| m.seat == me) {
                if let Some(log) = &m.log {
                    let label = lang.ta(
                        "logs-move",
                        &[("n", (i + 1).into()), ("move", m.mv.as_str().into())],
                    );
                    out.push_str(&format!("{label}\n{}\n", log.trim_end()));
                }
            }
        }
        if let Some(f) = replay.failure.as_ref().filter(|f| f.seat == me) {
            if let Some(log) = &f.log {
                let label = lang.t("logs-before-failure");
                out.push_str(&format!("{label}\n{}\n", log.trim_end()));
            }
            if let Some(err) = &f.stderr {
                let label = lang.t("logs-stderr");
                out.push_str(&format!("{label}\n{}\n", err.trim_end()));
            }
        }
        if out.len() > MAX {
            let mut cut = MAX;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str(&format!("\n[... {}]\n", lang.t("logs-cut")));
            break;
        }
    }
    if out.is_empty() {
        out.push_str(&lang.t("logs-none"));
        out.push('\n');
    }
    Ok(out)
}

/// The message of a seat as the game calls it: "Black (first to move)", "second".
fn seat_words(game: &arbiter_engine::any::GameConfig, seat: Seat) -> &'static str {
    use arbiter_engine::platform::SeatNaming;
    const BEYOND: [&str; 6] = [
        "seat-third",
        "seat-fourth",
        "seat-fifth",
        "seat-sixth",
        "seat-seventh",
        "seat-eighth",
    ];
    match (game.seat_naming(), seat) {
        (SeatNaming::Order, Seat::FIRST) => "logs-seat-first",
        (SeatNaming::Order, Seat::SECOND) => "logs-seat-second",
        (SeatNaming::Colours, Seat::FIRST) => "logs-seat-black",
        (SeatNaming::Colours, Seat::SECOND) => "logs-seat-white",
        (_, s) => BEYOND[(s.index() - 2) % BEYOND.len()],
    }
}

/// How one game went for `submission`, in words: "lost: crashed (signal 11) at move 9 (your
/// bot)", "won: normal end after 60 moves", "being played".
pub fn in_words(g: &GameRow, submission: i64) -> String {
    let lang = crate::lang::current();
    let me = g.seat_of(submission) as u8;
    let outcome = match (g.state.as_str(), g.winner, g.place_of(submission)) {
        ("done", _, Some(place)) => lang.ta(
            "words-placed",
            &[
                ("place", lang.ta("place-nth", &[("n", place.into())]).into()),
                ("seats", g.seats.len().into()),
            ],
        ),
        ("done", None, None) => lang.t("words-drawn"),
        ("done", Some(w), None) if w == me => lang.t("words-won"),
        ("done", Some(_), None) => lang.t("words-lost"),
        ("queued", ..) => return lang.t("words-queued"),
        ("running", ..) => return lang.t("words-running"),
        (FROZEN, ..) => return lang.t("words-frozen"),
        (other, ..) => return crate::pages::closed(lang, "status", other),
    };
    let verdict = match &g.verdict {
        Some(v) => {
            arbiter_i18n::verdict::in_table(lang, g.reason.as_deref().unwrap_or("normal"), v)
        }
        None => lang.t("words-no-verdict"),
    };
    let moves = g.moves.unwrap_or(0);
    let how = match g.reason.as_deref() {
        Some("normal") => lang.ta(
            "words-after",
            &[
                ("verdict", verdict.as_str().into()),
                ("moves", moves.into()),
            ],
        ),
        _ => lang.ta(
            "words-at",
            &[
                ("verdict", verdict.as_str().into()),
                ("move", (moves + 1).into()),
            ],
        ),
    };
    let line = match g.culprit {
        Some(c) if c == me => "words-line-mine",
        Some(_) => "words-line-theirs",
        None => "words-line",
    };
    lang.ta(
        line,
        &[
            ("outcome", outcome.as_str().into()),
            ("how", how.as_str().into()),
        ],
    )
}

#[cfg(test)]
mod words_tests {
    use super::*;

    #[test]
    fn a_crash_reads_as_a_crash_at_its_move() {
        let g = GameRow {
            id: 3,
            job: 9,
            seats: vec![7, 8],
            state: "done".into(),
            winner: Some(1),
            places: None,
            verdict: Some("crashed (signal 11)".into()),
            reason: Some("crash".into()),
            moves: Some(8),
            culprit: Some(0),
            seq: None,
        };
        assert_eq!(
            in_words(&g, 7),
            "lost: crashed (signal 11) at move 9 (your bot)"
        );
        assert_eq!(
            in_words(&g, 8),
            "won: crashed (signal 11) at move 9 (the opponent)"
        );
    }
}
