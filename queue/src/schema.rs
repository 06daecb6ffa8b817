//! The queue's tables, one schema for SQLite and PostgreSQL (`{id}`, `{blob}` are filled in by
//! [`crate::db::Db::ddl`]). Times are Unix milliseconds on the database's clock.

/// Migration steps of the `queue` component: step k takes version k to k + 1.
pub const STEPS: &[&str] = &[V1, V2, V3, V4];

const V1: &str = "
CREATE TABLE competitions (
    id          {id},
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL UNIQUE,
    -- JSON: the game and its limits, what a worker needs besides a job's own spec.
    config      TEXT NOT NULL,
    -- Fair share among competitions that share workers: each claim advances vtime by 1/weight.
    weight      DOUBLE PRECISION NOT NULL DEFAULT 1,
    vtime       DOUBLE PRECISION NOT NULL DEFAULT 0,
    paused      BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);

-- A lane is a fairness unit inside a competition (a student, a tournament): claims go round
-- robin between lanes, so one student's burst of resubmissions cannot starve the others.
CREATE TABLE lanes (
    competition BIGINT NOT NULL REFERENCES competitions(id),
    lane        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    queued      BIGINT NOT NULL DEFAULT 0,
    vtime       DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (competition, lane, kind)
);
CREATE INDEX lanes_ready ON lanes (queued, kind);

CREATE TABLE jobs (
    id          {id},
    competition BIGINT NOT NULL REFERENCES competitions(id),
    lane        TEXT NOT NULL,
    -- 'game' or 'compile'.
    kind        TEXT NOT NULL,
    -- JSON: what to play or compile.
    spec        TEXT NOT NULL,
    -- What the job is about, for finding a submission's or a bot's jobs.
    side0       TEXT NOT NULL DEFAULT '',
    side1       TEXT NOT NULL DEFAULT '',
    -- 'queued', 'running', 'done', 'cancelled', 'failed' (gave up after too many attempts).
    state       TEXT NOT NULL,
    priority    BIGINT NOT NULL DEFAULT 0,
    attempts    BIGINT NOT NULL DEFAULT 0,
    -- The lease: who plays it now, until when, and the key that commits its attempt.
    worker      TEXT,
    lease_token TEXT,
    lease_until BIGINT,
    -- A worker that must not get this job again (its result was judged suspicious).
    avoid_worker TEXT,
    created_at  BIGINT NOT NULL,
    started_at  BIGINT,
    finished_at BIGINT
);
CREATE INDEX jobs_lane ON jobs (competition, lane, kind, state, priority, id);
CREATE INDEX jobs_state ON jobs (state, lease_until);
CREATE INDEX jobs_side0 ON jobs (competition, side0);
CREATE INDEX jobs_side1 ON jobs (competition, side1);

-- One committed result per job: the unique key makes a second commit impossible.
CREATE TABLE results (
    seq         {id},
    job         BIGINT NOT NULL UNIQUE REFERENCES jobs(id),
    competition BIGINT NOT NULL REFERENCES competitions(id),
    lease_token TEXT NOT NULL,
    worker      TEXT NOT NULL,
    -- JSON summary (winner, reason, verdict, moves, times) so standings need no replay.
    outcome     TEXT NOT NULL,
    -- gzip of the replay JSON (or of the compile output).
    payload     {blob},
    created_at  BIGINT NOT NULL
);
CREATE INDEX results_competition ON results (competition, seq);

-- Results that arrived after their lease was taken over, or were set aside as suspicious.
CREATE TABLE discarded (
    id          {id},
    job         BIGINT NOT NULL,
    worker      TEXT NOT NULL,
    lease_token TEXT NOT NULL,
    reason      TEXT NOT NULL,
    outcome     TEXT,
    created_at  BIGINT NOT NULL
);

-- Bots and sources by content hash (SHA-256 of the uncompressed bytes), gzip-compressed.
CREATE TABLE artefacts (
    hash        TEXT PRIMARY KEY,
    size        BIGINT NOT NULL,
    content     {blob} NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE TABLE workers (
    id          TEXT PRIMARY KEY,
    host        TEXT NOT NULL,
    cores       BIGINT NOT NULL,
    slots       BIGINT NOT NULL,
    toolchains  TEXT NOT NULL,
    version     TEXT NOT NULL,
    -- 'active', 'paused' (quarantined or by hand), 'gone' (stopped or silent).
    state       TEXT NOT NULL,
    note        TEXT,
    started_at  BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL
);

-- What happened to jobs and workers that someone may ask about later.
CREATE TABLE events (
    id          {id},
    at          BIGINT NOT NULL,
    job         BIGINT,
    worker      TEXT,
    kind        TEXT NOT NULL,
    detail      TEXT NOT NULL
);

-- Facts about the queue itself: the version of arbiter that set it up.
CREATE TABLE queue_meta (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
)
";

/// Game numbers without gaps: a job's `number` counts the jobs of its kind in its competition
/// (1, 2, 3 ...), so that a contest's games are numbered apart from its compiles while job ids
/// stay the queue's keys. `job_numbers` holds the last number given, taken by one atomic
/// update when jobs are added ([`crate::jobs::enqueue`]). Existing jobs are numbered in id order.
const V2: &str = "
ALTER TABLE jobs ADD COLUMN number BIGINT;
UPDATE jobs SET number = n.k FROM
    (SELECT id, ROW_NUMBER() OVER (PARTITION BY competition, kind ORDER BY id) AS k FROM jobs) AS n
    WHERE n.id = jobs.id;
CREATE UNIQUE INDEX jobs_number ON jobs (competition, kind, number);
CREATE TABLE job_numbers (
    competition BIGINT NOT NULL REFERENCES competitions(id),
    kind        TEXT NOT NULL,
    last        BIGINT NOT NULL,
    PRIMARY KEY (competition, kind)
);
INSERT INTO job_numbers (competition, kind, last)
    SELECT competition, kind, MAX(number) FROM jobs GROUP BY competition, kind
";

/// What holds a worker's judging up (`crate::health`), written with its heartbeat, so that a
/// contest's admin page says why judging paused on other machines too: `trouble` in the
/// queue's words, for `trouble_ms` as of `seen_at`, said until `trouble_until` (three of its
/// heartbeats: a worker killed in trouble is not heard of for long). An update in place of a
/// row that exists: it goes through where a database whose disk is full refuses the inserts
/// of a commit.
const V3: &str = "
ALTER TABLE workers ADD COLUMN trouble TEXT;
ALTER TABLE workers ADD COLUMN trouble_ms BIGINT;
ALTER TABLE workers ADD COLUMN trouble_until BIGINT
";

/// Every seat of a game of more than two seats (`side0` and `side1` hold its first two on the
/// contest site) or of a tournament's game, in seat order: a submission's games are found
/// whatever seat it sat in ([`crate::jobs::INVOLVES`]), and the quarantine judges each seat's
/// bot.
const V4: &str = "
CREATE TABLE job_seats (
    job         BIGINT NOT NULL REFERENCES jobs(id),
    seat        BIGINT NOT NULL,
    side        TEXT NOT NULL,
    PRIMARY KEY (job, seat)
);
CREATE INDEX job_seats_side ON job_seats (side, job)
";
