//! The comparison with OpenSpiel's `dou_dizhu` (open-spiel 2.0.2), in the `openspiel` rules:
//! OpenSpiel's chance nodes are driven to arbiter's deal from the seed, then both trees are
//! counted (bidding and play) and whole random games are replayed in OpenSpiel, with the legal
//! moves of every ply compared and the final scores too. The script is
//! `openspiel/perft.py`; without `import pyspiel` the test says why and passes, unless
//! `ARBITER_REQUIRE_OPENSPIEL=1`.

use std::io::Write;
use std::process::{Command, Stdio};

use arbiter_game::{legal, perft, Game};
use game_dou_dizhu::combo::Rules;
use game_dou_dizhu::deal::{Deal, SplitMix};
use game_dou_dizhu::DouDizhu;
use serde_json::{json, Value};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openspiel/perft.py");

fn openspiel_ready() -> bool {
    let probe = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .output();
    let why = match probe {
        Ok(o) if o.status.success() => return true,
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => format!("python3: {e}"),
    };
    let required = std::env::var("ARBITER_REQUIRE_OPENSPIEL").is_ok_and(|v| v == "1");
    assert!(!required, "OpenSpiel is required but missing: {why}");
    eprintln!("skipped, OpenSpiel is missing ({why}): pip install open-spiel==2.0.2");
    false
}

fn run(job: &Value) -> Value {
    let mut child = Command::new("python3")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input = serde_json::to_vec(job).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "perft.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("perft.py answers JSON")
}

fn deal_json(d: &Deal) -> (Value, Value) {
    (json!(d.deck.to_vec()), json!(d.faceup))
}

/// A deal that gives seat 0 (which bids first) 3333 444 555 666 7 8 9 T and the kitty 2 B R:
/// chains from a rank held four times (which OpenSpiel's generator refuses to start there),
/// airplanes of two, three and four trios, the same cards as several airplanes with wings,
/// bombs and the rocket.
fn crafted() -> Deal {
    let id = |rank: u8, suit: u8| suit * 13 + rank;
    let mut seat0: Vec<u8> = (0..4).map(|s| id(0, s)).collect();
    for rank in 1..=3 {
        seat0.extend((0..3).map(|s| id(rank, s)));
    }
    seat0.extend((4..=7).map(|rank| id(rank, 0)));
    let kitty = [id(12, 0), 52, 53];
    let rest: Vec<u8> = (0..54)
        .filter(|c| !seat0.contains(c) && !kitty.contains(c))
        .collect();
    let (mut mine, mut others) = (seat0.into_iter(), rest.into_iter());
    let mut deck = [0u8; 54];
    for (k, slot) in deck.iter_mut().enumerate().take(51) {
        *slot = if k % 3 == 0 {
            mine.next()
        } else {
            others.next()
        }
        .unwrap();
    }
    deck[51..].copy_from_slice(&kitty);
    Deal { deck, faceup: 0 }
}

fn after(deal: &Deal, prefix: &[&str]) -> DouDizhu {
    let mut g = DouDizhu::from_deal(Rules::OpenSpiel, deal).unwrap();
    for text in prefix {
        let mv = g.parse_move(text).unwrap();
        g.play(&mv).unwrap();
    }
    g
}

/// The positions counted: from the deal (the bidding and the first plays), and from the
/// first lead of a landlord who bid 3 (the play alone), for a few seeds and the crafted deal.
fn perft_cases() -> Vec<(String, Deal, Vec<&'static str>, u32)> {
    let mut cases = Vec::new();
    for seed in 0..4 {
        let d = Deal::from_seed(seed);
        cases.push((format!("seed {seed}"), d.clone(), vec![], 7));
        cases.push((format!("seed {seed}"), d, vec!["bid3"], 5));
    }
    let bids = vec!["pass", "bid1", "pass", "bid2", "pass", "pass"];
    cases.push(("seed 7".into(), Deal::from_seed(7), bids, 4));
    cases.push(("the crafted deal".into(), crafted(), vec!["bid3"], 4));
    cases
}

/// A random game played to its end from `deal`, the moves drawn from `seed` after the
/// scripted `start`: each ply's legal moves and the one picked.
fn random_game(deal: &Deal, seed: u64, start: &[&str]) -> (DouDizhu, Vec<Value>) {
    let mut g = DouDizhu::from_deal(Rules::OpenSpiel, deal).unwrap();
    let mut rng = SplitMix(seed.wrapping_mul(31).wrapping_add(5));
    let mut plies = Vec::new();
    let mut scripted = start.iter();
    while let Some(seat) = g.turn().seat() {
        let moves = legal(&g, seat);
        let texts: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
        let pick = match scripted.next() {
            Some(t) => texts.iter().position(|x| x == t).unwrap(),
            None => rng.below(moves.len()),
        };
        plies.push(json!({"legal": texts, "move": texts[pick]}));
        g.play(&moves[pick]).unwrap();
    }
    (g, plies)
}

#[test]
fn perft_and_random_games_match_openspiel() {
    if !openspiel_ready() {
        return;
    }
    let cases = perft_cases();
    let perft_jobs: Vec<Value> = cases
        .iter()
        .map(|(_, deal, prefix, depth)| {
            let (deck, faceup) = deal_json(deal);
            json!({"deck": deck, "faceup": faceup, "prefix": prefix, "depth": depth})
        })
        .collect();
    let mut ends = Vec::new();
    let mut game_jobs = Vec::new();
    // Sixty random deals, a void one, and the crafted deal played five ways.
    let starts: Vec<(Deal, u64, &[&str])> = (0..60u64)
        .map(|s| (Deal::from_seed(s), s, &[][..]))
        .chain([(Deal::from_seed(60), 60, &["pass", "pass", "pass"][..])])
        .chain((0..5).map(|s| (crafted(), 100 + s, &["bid3"][..])))
        .collect();
    for (d, seed, start) in &starts {
        let (g, plies) = random_game(d, *seed, start);
        let (deck, faceup) = deal_json(d);
        let hands: Vec<String> = (0..3).map(|s| d.hand(s).text()).collect();
        game_jobs.push(json!({"deck": deck, "faceup": faceup, "hands": hands, "plies": plies}));
        ends.push(g);
    }
    let answer = run(&json!({"perft": perft_jobs, "games": game_jobs}));
    for (i, (name, deal, prefix, depth)) in cases.iter().enumerate() {
        let ours = perft(&after(deal, prefix), *depth);
        let theirs = answer["perft"][i].as_u64().unwrap();
        eprintln!("{name} after {prefix:?}, depth {depth}: {ours}");
        assert_eq!(
            ours, theirs,
            "perft of {name} after {prefix:?} to depth {depth}"
        );
    }
    let (mut bombs, mut landlord_wins, mut peasant_wins) = (0, 0, 0);
    for (i, g) in ends.iter().enumerate() {
        let theirs = &answer["games"][i];
        assert!(theirs["error"].is_null(), "game {i}: {}", theirs["error"]);
        let returns: Vec<i64> = theirs["returns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_f64().unwrap() as i64)
            .collect();
        let o = g.outcome().unwrap();
        assert_eq!(o.scores, returns, "game {i}: {}", o.reason);
        bombs += usize::from(o.reason.contains("bomb"));
        landlord_wins += usize::from(o.places.iter().filter(|&&p| p == 1).count() == 1);
        peasant_wins += usize::from(o.places.iter().filter(|&&p| p == 1).count() == 2);
    }
    eprintln!("{landlord_wins} landlord wins, {peasant_wins} peasant wins, {bombs} with bombs");
    let mut seen = std::collections::BTreeMap::new();
    for g in &ends {
        for c in g.plays().iter().filter_map(|(_, c)| c.as_ref()) {
            *seen.entry(c.category).or_insert(0) += 1;
        }
    }
    eprintln!("plays by category: {seen:?}");
    use game_dou_dizhu::combo::Category::*;
    let wanted = [Solo, Pair, Trio, TrioSolo, TrioPair, SoloChain, PairChain];
    let wanted = wanted
        .into_iter()
        .chain([AirplaneSolos, AirplanePairs, Bomb, Rocket]);
    for cat in wanted {
        assert!(seen.contains_key(&cat), "no random game played {cat:?}");
    }
    assert!(bombs > 0 && landlord_wins > 0 && peasant_wins > 0);
    assert_eq!(
        ends[60].outcome().unwrap().places,
        [1, 1, 1],
        "the void deal"
    );
}
