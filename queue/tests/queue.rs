//! The queue's contract, on SQLite and PostgreSQL: every job is claimed by one worker at a
//! time, committed exactly once, put back when its lease runs out (the late result is
//! recorded, not counted), and claims are fair between lanes and competitions.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use arbiter_queue::jobs::Counts;
use arbiter_queue::{Commit, JobKind, NewJob};

fn job(lane: &str, n: usize) -> NewJob {
    NewJob {
        lane: lane.to_string(),
        kind: JobKind::Game,
        spec: format!("{{\"n\":{n}}}"),
        sides: [format!("{lane}-a"), format!("{lane}-b")],
        seats: Vec::new(),
        priority: 0,
    }
}

const LEASE: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_job_is_committed_exactly_once() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        let ids = q.enqueue(c, &[job("x", 1)]).await.unwrap();
        let claimed = q
            .claim("w1", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .expect("a job");
        assert_eq!(claimed.id, ids[0], "{}", db.name);
        assert_eq!(claimed.attempt, 1);
        assert!(
            q.claim("w2", &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .is_none(),
            "{}: claimed twice",
            db.name
        );
        assert!(q
            .claim("w2", &[JobKind::Compile], LEASE)
            .await
            .unwrap()
            .is_none());
        assert_eq!(
            q.commit(&claimed, "w1", "{\"winner\":0}", Some(b"replay"))
                .await
                .unwrap(),
            Commit::Committed
        );
        // The same attempt committing again (a retried request) changes nothing.
        assert_eq!(
            q.commit(&claimed, "w1", "{\"winner\":1}", None)
                .await
                .unwrap(),
            Commit::Discarded
        );
        let r = q.result(claimed.id).await.unwrap().expect("a result");
        assert_eq!(r.outcome, "{\"winner\":0}", "{}", db.name);
        assert_eq!(r.payload.as_deref(), Some(&b"replay"[..]));
        assert_eq!(
            q.counts(Some(c)).await.unwrap(),
            Counts {
                done: 1,
                ..Counts::default()
            }
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_expired_lease_puts_the_job_back_and_the_late_result_is_recorded() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        q.enqueue(c, &[job("x", 1)]).await.unwrap();
        let slow = q
            .claim("frozen", &[JobKind::Game], Duration::from_millis(300))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            q.requeue_expired().await.unwrap(),
            0,
            "{}: requeued a live lease",
            db.name
        );
        tokio::time::sleep(Duration::from_millis(600)).await;
        // The frozen worker's heartbeat comes too late to save it once someone requeued.
        assert_eq!(q.requeue_expired().await.unwrap(), 1, "{}", db.name);
        assert!(!q
            .heartbeat(slow.id, &slow.lease_token, LEASE)
            .await
            .unwrap());
        let fresh = q
            .claim("w2", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .expect("requeued");
        assert_eq!(fresh.id, slow.id);
        assert_eq!(fresh.attempt, 2);
        assert_eq!(
            q.commit(&fresh, "w2", "{\"by\":\"w2\"}", None)
                .await
                .unwrap(),
            Commit::Committed
        );
        assert_eq!(
            q.commit(&slow, "frozen", "{\"by\":\"frozen\"}", None)
                .await
                .unwrap(),
            Commit::Discarded
        );
        assert_eq!(
            q.result(slow.id).await.unwrap().unwrap().outcome,
            "{\"by\":\"w2\"}"
        );
        let discarded: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM discarded WHERE worker = 'frozen'")
                .fetch_one(q.db().pool())
                .await
                .unwrap();
        assert_eq!(
            discarded, 1,
            "{}: the late result must be recorded",
            db.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn claims_go_round_robin_between_lanes_and_competitions() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("contest", "c", "{}").await.unwrap();
        // A burst of 12 jobs from one student, 3 from each of two others.
        let mut jobs: Vec<NewJob> = (0..12).map(|n| job("burst", n)).collect();
        jobs.extend((0..3).map(|n| job("alice", n)));
        jobs.extend((0..3).map(|n| job("bob", n)));
        q.enqueue(c, &jobs).await.unwrap();
        let mut first_nine = Vec::new();
        for _ in 0..9 {
            let j = q
                .claim("w", &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .unwrap();
            let lane: String = sqlx::query_scalar("SELECT lane FROM jobs WHERE id = $1")
                .bind(j.id)
                .fetch_one(q.db().pool())
                .await
                .unwrap();
            first_nine.push(lane);
        }
        let count = |l: &str| first_nine.iter().filter(|x| *x == l).count();
        assert_eq!(
            (count("burst"), count("alice"), count("bob")),
            (3, 3, 3),
            "{}: {first_nine:?}",
            db.name
        );

        // A second competition sharing the workers gets half of the next claims.
        let d = q.competition("tournament", "d", "{}").await.unwrap();
        q.enqueue(d, &(0..10).map(|n| job("t", n)).collect::<Vec<_>>())
            .await
            .unwrap();
        let mut by_comp = BTreeMap::new();
        for _ in 0..8 {
            let j = q
                .claim("w", &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .unwrap();
            *by_comp.entry(j.competition).or_insert(0) += 1;
        }
        assert_eq!(by_comp.get(&c), Some(&4), "{}: {by_comp:?}", db.name);
        assert_eq!(by_comp.get(&d), Some(&4), "{}: {by_comp:?}", db.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_claimers_never_share_a_job() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        let n = 120;
        q.enqueue(
            c,
            &(0..n)
                .map(|i| job(&format!("l{}", i % 3), i))
                .collect::<Vec<_>>(),
        )
        .await
        .unwrap();
        let mut tasks = Vec::new();
        for w in 0..6 {
            let q = q.clone();
            tasks.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                let id = format!("w{w}");
                while let Some(j) = q.claim(&id, &[JobKind::Game], LEASE).await.unwrap() {
                    assert_eq!(
                        q.commit(&j, &id, "{}", None).await.unwrap(),
                        Commit::Committed
                    );
                    mine.push(j.id);
                }
                mine
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        let unique: BTreeSet<i64> = all.iter().copied().collect();
        assert_eq!(all.len(), n, "{}: every job claimed once", db.name);
        assert_eq!(unique.len(), n, "{}", db.name);
        let results: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results")
            .fetch_one(q.db().pool())
            .await
            .unwrap();
        assert_eq!(results, n as i64);
        let queued: i64 =
            sqlx::query_scalar("SELECT CAST(COALESCE(SUM(queued), 0) AS BIGINT) FROM lanes")
                .fetch_one(q.db().pool())
                .await
                .unwrap();
        assert_eq!(queued, 0, "{}: lane counters drifted", db.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cancelled_jobs_are_never_claimed_and_replays_elsewhere_avoid_the_worker() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("contest", "c", "{}").await.unwrap();
        let ids = q.enqueue(c, &[job("a", 1), job("b", 2)]).await.unwrap();
        assert_eq!(q.cancel_involving(c, "a-a").await.unwrap(), 1);
        let j = q
            .claim("bad", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(j.id, ids[1], "{}", db.name);
        assert!(q
            .claim("bad", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .is_none());
        q.commit(&j, "bad", "{}", None).await.unwrap();
        assert!(q.replay_elsewhere(j.id, "suspicious").await.unwrap());
        assert!(
            q.claim("bad", &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .is_none(),
            "{}: the bad worker got it again",
            db.name
        );
        let again = q
            .claim("good", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(again.id, j.id);
        assert_eq!(
            q.commit(&again, "good", "{}", None).await.unwrap(),
            Commit::Committed
        );
        assert_eq!(q.result(j.id).await.unwrap().unwrap().worker, "good");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_job_that_keeps_killing_workers_is_given_up() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        q.enqueue(c, &[job("x", 1)]).await.unwrap();
        for attempt in 1..=arbiter_queue::jobs::MAX_ATTEMPTS {
            let j = q
                .claim("w", &[JobKind::Game], Duration::from_millis(50))
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{}: attempt {attempt} found no job", db.name));
            assert_eq!(j.attempt, attempt);
            tokio::time::sleep(Duration::from_millis(120)).await;
            q.requeue_expired().await.unwrap();
        }
        assert!(q
            .claim("w", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .is_none());
        assert_eq!(q.counts(Some(c)).await.unwrap().failed, 1, "{}", db.name);
    }
}

/// An outcome as a worker commits it: `reason` with `culprit` at fault.
fn outcome(reason: &str, culprit: Option<u8>) -> String {
    serde_json::json!({
        "winner": culprit.map(|c| u8::from(c == 0)), "reason": reason, "verdict": reason,
        "culprit": culprit, "moves": 30, "think_ms": [1.0, 1.0], "moves_by": [15, 15],
        "wall_ms": 100.0
    })
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_worker_whose_bots_fail_far_more_than_elsewhere_is_quarantined() {
    quarantined_for(&[], 1).await;
}

/// As for pairs, at tables of three: the failing bot sits in the third seat, which the jobs'
/// two sides do not name (their `job_seats` do).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_worker_whose_bots_fail_from_a_table_s_third_seat_is_quarantined() {
    quarantined_for(&["alice", "bob", "carol"], 2).await;
}

/// 90 games on three workers, `seats` their seats (none: a pair of alice and bob); on "bad"
/// every other game is lost on time by seat `culprit`, which never loses on time elsewhere.
async fn quarantined_for(seats: &[&str], culprit: u8) {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        let jobs: Vec<NewJob> = (0..90)
            .map(|n| NewJob {
                lane: format!("l{}", n % 3),
                kind: JobKind::Game,
                spec: format!("{{\"n\":{n}}}"),
                seats: seats.iter().map(|s| s.to_string()).collect(),
                // A tournament's table names its game and its bots in the sides.
                sides: match seats {
                    [] => ["alice".to_string(), "bob".to_string()],
                    _ => [format!("game {n}"), seats.join(" - ")],
                },
                priority: 0,
            })
            .collect();
        q.enqueue(c, &jobs).await.unwrap();
        // Three workers take turns; on "bad" every other game is lost on time by a bot that
        // never loses on time on the others.
        let mut bad_failed = Vec::new();
        for n in 0..90 {
            let worker = ["good-a", "good-b", "bad"][n % 3];
            let job = q
                .claim(worker, &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .unwrap();
            let fails = worker == "bad" && n % 2 == 0;
            let o = if fails {
                bad_failed.push(job.id);
                outcome("move_time", Some(culprit))
            } else {
                outcome("normal", None)
            };
            assert_eq!(
                q.commit(&job, worker, &o, None).await.unwrap(),
                Commit::Committed
            );
        }
        for w in ["good-a", "good-b", "bad"] {
            register(&q, w).await;
        }
        let policy = arbiter_queue::quarantine::Policy::default();
        let found = arbiter_queue::quarantine::check(&q, &policy).await.unwrap();
        assert_eq!(found.len(), 1, "{}: {found:?}", db.name);
        assert_eq!(found[0].worker, "bad");
        let mut replayed = found[0].replayed.clone();
        replayed.sort_unstable();
        assert_eq!(replayed, bad_failed, "{}", db.name);
        assert_eq!(
            arbiter_queue::workers::state(&q, "bad")
                .await
                .unwrap()
                .as_deref(),
            Some("paused")
        );
        // The replayed games go to the others, never back to the bad worker.
        assert!(q
            .claim("bad", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .is_none());
        let again = q
            .claim("good-a", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .unwrap();
        assert!(bad_failed.contains(&again.id));
        // Judged once: a second check finds nothing new.
        assert!(arbiter_queue::quarantine::check(&q, &policy)
            .await
            .unwrap()
            .is_empty());
    }
}

/// A worker whose games are voided again and again (its machine stalls, its disk fails) is
/// paused like one whose bots fail; the voided games were never results, so nothing is
/// replayed for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_worker_whose_games_are_voided_again_and_again_is_quarantined() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        let jobs: Vec<NewJob> = (0..60).map(|n| job(&format!("l{}", n % 3), n)).collect();
        q.enqueue(c, &jobs).await.unwrap();
        for n in 0..60 {
            let worker = ["good-a", "good-b", "stalls"][n % 3];
            let job = q
                .claim(worker, &[JobKind::Game], LEASE)
                .await
                .unwrap()
                .unwrap();
            if worker == "stalls" && n % 2 == 0 {
                let why = "judging machine stalled 8.0 s at move 31";
                assert!(q.void(&job, worker, why).await.unwrap());
                continue;
            }
            let o = outcome("normal", None);
            q.commit(&job, worker, &o, None).await.unwrap();
        }
        for w in ["good-a", "good-b", "stalls"] {
            register(&q, w).await;
        }
        let policy = arbiter_queue::quarantine::Policy::default();
        let found = arbiter_queue::quarantine::check(&q, &policy).await.unwrap();
        assert_eq!(found.len(), 1, "{}: {found:?}", db.name);
        assert_eq!(found[0].worker, "stalls");
        assert_eq!(found[0].failures, 10);
        assert!(found[0].replayed.is_empty());
        let workers = arbiter_queue::workers::list(&q).await.unwrap();
        let stalls = workers.iter().find(|w| w.id == "stalls").unwrap();
        assert_eq!(stalls.state, "paused");
        assert!(stalls
            .note
            .as_deref()
            .unwrap_or("")
            .contains("10 of its 20 games voided"));
        // The voided games went back to the queue (some played since by the others): every
        // game is played or waiting, none lost, none failed.
        let voids = q.recent_voids(c, 100).await.unwrap();
        assert_eq!(voids.len(), 10, "{}", db.name);
        assert!(voids.iter().all(|(_, _, s)| s == "queued" || s == "done"));
        let n = q.counts(Some(c)).await.unwrap();
        assert_eq!((n.done + n.queued, n.failed, n.running), (60, 0, 0));
        assert_eq!(n.queued, 10);
    }
}

/// A worker frozen past its lease that wakes to find its game spoiled by the stall: the job
/// is someone else's by then, so the void changes nothing but is set aside, as a late result
/// would be.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_void_after_the_lease_was_taken_over_is_set_aside() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("tournament", "t", "{}").await.unwrap();
        q.enqueue(c, &[job("x", 1)]).await.unwrap();
        let frozen = q
            .claim("frozen", &[JobKind::Game], Duration::from_millis(200))
            .await
            .unwrap()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(q.requeue_expired().await.unwrap(), 1);
        let fresh = q
            .claim("w2", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .unwrap();
        let why = "judging machine stalled 9.0 s at move 4";
        assert!(
            !q.void(&frozen, "frozen", why).await.unwrap(),
            "{}",
            db.name
        );
        // The job stays w2's: no void event, one set-aside record.
        assert!(q.recent_voids(c, 10).await.unwrap().is_empty());
        let set_aside: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM discarded WHERE worker = 'frozen'")
                .fetch_one(q.db().pool())
                .await
                .unwrap();
        assert_eq!(set_aside, 1, "{}", db.name);
        assert_eq!(
            q.commit(&fresh, "w2", "{}", None).await.unwrap(),
            Commit::Committed
        );
    }
}

async fn register(q: &arbiter_queue::Queue, id: &str) {
    let mut opts = arbiter_queue::worker::WorkerOptions::local(
        id.to_string(),
        vec![vec![None, None]],
        std::env::temp_dir(),
    );
    opts.version = arbiter_queue::VERSION.to_string();
    arbiter_queue::workers::register(q, &opts).await.unwrap();
}

fn compile(lane: &str, n: usize) -> NewJob {
    NewJob {
        kind: JobKind::Compile,
        ..job(lane, n)
    }
}

/// The numbers of a competition's jobs of `kind`, in id order.
async fn numbers(q: &arbiter_queue::Queue, c: i64, kind: &str) -> Vec<i64> {
    sqlx::query_scalar("SELECT number FROM jobs WHERE competition = $1 AND kind = $2 ORDER BY id")
        .bind(c)
        .bind(kind)
        .fetch_all(q.db().pool())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn games_are_numbered_1_2_3_apart_from_compiles_even_when_added_at_once() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("contest", "c", "{}").await.unwrap();
        let other = q.competition("contest", "d", "{}").await.unwrap();
        // Compiles and games interleaved, in one batch and in many.
        q.enqueue(c, &[compile("a", 0), compile("b", 1)])
            .await
            .unwrap();
        q.enqueue(c, &[job("a", 2), compile("c", 3), job("b", 4)])
            .await
            .unwrap();
        q.enqueue(other, &[compile("a", 5), job("a", 6)])
            .await
            .unwrap();
        // Eight adders at once, each a compile then two games.
        let mut tasks = Vec::new();
        for t in 0..8 {
            let q = q.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..5 {
                    let lane = format!("t{t}");
                    q.enqueue(c, &[compile(&lane, i), job(&lane, i), job(&lane, i)])
                        .await
                        .unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let mut games = numbers(&q, c, "game").await;
        games.sort();
        assert_eq!(games, (1..=82).collect::<Vec<i64>>(), "{}", db.name);
        let mut compiles = numbers(&q, c, "compile").await;
        compiles.sort();
        assert_eq!(compiles, (1..=43).collect::<Vec<i64>>(), "{}", db.name);
        assert_eq!(numbers(&q, other, "game").await, vec![1], "{}", db.name);
        // What a worker holds says its number.
        let held = q
            .claim("w", &[JobKind::Game], LEASE)
            .await
            .unwrap()
            .expect("a game");
        let number: i64 = sqlx::query_scalar("SELECT number FROM jobs WHERE id = $1")
            .bind(held.id)
            .fetch_one(q.db().pool())
            .await
            .unwrap();
        assert_eq!(held.number, number, "{}", db.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_queue_made_before_numbers_gets_its_jobs_numbered_in_order() {
    for db in support::databases().await {
        // The first version of the schema, with jobs in it.
        let raw = arbiter_queue::Db::connect(&db.url).await.unwrap();
        raw.migrate("queue", &arbiter_queue::schema::STEPS[..1])
            .await
            .unwrap();
        let c: i64 = sqlx::query_scalar(
            "INSERT INTO competitions (kind, name, config, created_at) \
             VALUES ('contest', 'c', '{}', 0) RETURNING id",
        )
        .fetch_one(raw.pool())
        .await
        .unwrap();
        for kind in ["compile", "compile", "game", "compile", "game", "game"] {
            sqlx::query(
                "INSERT INTO jobs (competition, lane, kind, spec, state, created_at) \
                 VALUES ($1, 'l', $2, '{}', 'queued', 0)",
            )
            .bind(c)
            .bind(kind)
            .execute(raw.pool())
            .await
            .unwrap();
        }
        raw.close().await;
        let q = support::queue(&db.url).await;
        assert_eq!(numbers(&q, c, "game").await, vec![1, 2, 3], "{}", db.name);
        assert_eq!(
            numbers(&q, c, "compile").await,
            vec![1, 2, 3],
            "{}",
            db.name
        );
        // New jobs go on from there.
        q.enqueue(c, &[job("l", 0), compile("l", 1)]).await.unwrap();
        assert_eq!(
            numbers(&q, c, "game").await,
            vec![1, 2, 3, 4],
            "{}",
            db.name
        );
        assert_eq!(numbers(&q, c, "compile").await, vec![1, 2, 3, 4]);
    }
}

/// Machines started together (a coordinator and its workers on a new database) each bring the
/// schema up to date at once: every one succeeds, and the schema is made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn processes_opening_a_new_database_at_once_all_succeed() {
    for t in support::databases().await {
        let opened: Vec<_> = (0..6)
            .map(|_| {
                let url = t.url.clone();
                tokio::spawn(async move {
                    let db = arbiter_queue::Db::connect(&url).await?;
                    arbiter_queue::Queue::open(db).await.map(drop)
                })
            })
            .collect();
        for (k, task) in opened.into_iter().enumerate() {
            let r = task.await.expect("the task ran");
            assert!(r.is_ok(), "{}: opener {k}: {:?}", t.name, r.err());
        }
        let q = support::queue(&t.url).await;
        let version: i64 =
            sqlx::query_scalar("SELECT version FROM schema_versions WHERE component = 'queue'")
                .fetch_one(q.db().pool())
                .await
                .unwrap();
        assert_eq!(
            version as usize,
            arbiter_queue::schema::STEPS.len(),
            "{}",
            t.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn test_games_wait_for_the_contests_games_and_share_one_numbering() {
    for db in support::databases().await {
        let q = support::queue(&db.url).await;
        let c = q.competition("contest", "c", "{}").await.unwrap();
        let of = |kind: JobKind, n: usize| NewJob {
            kind,
            ..job("u1", n)
        };
        // Test games first, in the lane that has been served least: the contest's game, queued
        // after them in another lane, is claimed first all the same.
        let tests = q
            .enqueue(c, &[of(JobKind::TestGame, 1), of(JobKind::PersonGame, 2)])
            .await
            .unwrap();
        let contest = q.enqueue(c, &[job("u2", 3)]).await.unwrap();
        let every = [JobKind::Game, JobKind::TestGame, JobKind::PersonGame];
        let first = q.claim("w1", &every, LEASE).await.unwrap().unwrap();
        // A person's game is claimed like a compile (someone waits at the page) ...
        assert_eq!(first.id, tests[1], "{}", db.name);
        let second = q.claim("w1", &every, LEASE).await.unwrap().unwrap();
        // ... then the contest's game, then the test game.
        assert_eq!(second.id, contest[0], "{}", db.name);
        let third = q.claim("w1", &every, LEASE).await.unwrap().unwrap();
        assert_eq!(third.id, tests[0], "{}", db.name);
        // Test games are numbered 1, 2 with or without a person, apart from the games.
        assert_eq!((first.number, third.number, second.number), (2, 1, 1));
        // A worker that does not take people's games never gets one.
        q.enqueue(c, &[of(JobKind::PersonGame, 4)]).await.unwrap();
        assert!(q
            .claim("w2", &[JobKind::Game, JobKind::TestGame], LEASE)
            .await
            .unwrap()
            .is_none());
    }
}
