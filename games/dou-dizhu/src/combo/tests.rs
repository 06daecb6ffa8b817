use super::*;
use crate::deal::Deal;
use Category::*;

fn cards(text: &str) -> Cards {
    Cards::parse(text).unwrap()
}

fn std_of(text: &str) -> Option<(Category, u8, u8)> {
    classify(&cards(text), Rules::Standard).map(|c| (c.category, c.head, c.len))
}

fn os_of(text: &str) -> Option<(Category, u8, u8)> {
    classify(&cards(text), Rules::OpenSpiel).map(|c| (c.category, c.head, c.len))
}

#[test]
fn every_standard_category_is_read_from_its_cards() {
    let cases = [
        ("7", Solo, 4, 1),
        ("R", Solo, 14, 1),
        ("77", Pair, 4, 1),
        ("222", Trio, 12, 1),
        ("3339", TrioSolo, 0, 1),
        ("333R", TrioSolo, 0, 1),
        ("33399", TrioPair, 0, 1),
        ("34567", SoloChain, 0, 5),
        ("3456789TJQKA", SoloChain, 0, 12),
        ("334455", PairChain, 0, 3),
        ("333444", Airplane, 0, 2),
        ("333444555666", Airplane, 0, 4),
        ("33344456", AirplaneSolos, 0, 2),
        ("333444BR", AirplaneSolos, 0, 2),
        ("3334445566", AirplanePairs, 0, 2),
        ("333345", FourSolos, 0, 1),
        ("3333BR", FourSolos, 0, 1),
        ("33334455", FourPairs, 0, 1),
        ("33334444", Shuttle, 0, 2),
        ("333344445678", ShuttleSolos, 0, 2),
        ("3333444455667788", ShuttlePairs, 0, 2),
        ("2222", Bomb, 12, 1),
        ("BR", Rocket, 13, 1),
    ];
    for (text, cat, head, len) in cases {
        assert_eq!(std_of(text), Some((cat, head, len)), "{text}");
    }
    // KKK AAA with the 2 and a joker as solo wings: the 2 may be a wing, never a chain.
    assert_eq!(std_of("KKKAAA2B"), Some((AirplaneSolos, 10, 2)));
    assert_eq!(std_of("AAA222"), None, "2s are never in a chain");
}

#[test]
fn what_is_no_combination_in_the_standard_rules() {
    let refused = [
        "34",             // two solos
        "3344",           // two pairs: a pair chain needs three
        "3456",           // four solos: a chain needs five
        "JQKA2",          // the 2 is never in a chain
        "QQKKAA22",       // nor in a pair chain
        "33345",          // a trio takes one solo or one pair
        "333445",         // nor both
        "333344",         // four takes two different solos or two pairs (Botzone)
        "33334",          // four with one solo
        "33344455",       // solo wings are distinct ranks (Botzone)
        "333444555777",   // the trios are not in a row
        "333444555666BR", // four trios, two wings
        "3333444456",     // a shuttle of two takes four wings
        "33334444555566", // a trio-less shuttle's wings: 3 fours take 6
    ];
    for text in refused {
        assert_eq!(std_of(text), None, "{text}");
    }
}

#[test]
fn the_openspiel_rules_read_fewer_categories_and_write_wings_with_a_dash() {
    assert_eq!(os_of("333345"), None, "no four with two");
    assert_eq!(os_of("33334444"), None, "no shuttle");
    assert_eq!(os_of("33344456"), None, "wings need the dash");
    assert_eq!(os_of("333444555666"), Some((Airplane, 0, 4)));
    assert_eq!(os_of("3339"), Some((TrioSolo, 0, 1)));
    let winged = |chain: &str, wings: &str| {
        parse_winged(&cards(chain), &cards(wings)).map(|c| (c.category, c.head, c.len))
    };
    assert_eq!(winged("333444", "55"), Some((AirplaneSolos, 0, 2)));
    assert_eq!(winged("333444555", "666"), Some((AirplaneSolos, 0, 3)));
    assert_eq!(winged("444555666", "333"), Some((AirplaneSolos, 1, 3)));
    assert_eq!(winged("333444", "5566"), Some((AirplanePairs, 0, 2)));
    assert_eq!(winged("333444", "BR"), None, "never the rocket as wings");
    assert_eq!(winged("333444", "5555"), None, "pairs are distinct");
    assert_eq!(winged("333444", "3"), None);
    assert_eq!(winged("333555", "67"), None, "not in a row");
    assert_eq!(winged("333444", "567"), None, "three wings on two trios");
    let c = parse_winged(&cards("444555666"), &cards("333")).unwrap();
    assert_eq!(c.text(Rules::OpenSpiel), "444555666-333");
    assert_eq!(c.text(Rules::Standard), "333444555666");
}

fn play(text: &str) -> Combo {
    classify(&cards(text), Rules::Standard).unwrap()
}

#[test]
fn what_beats_what() {
    let beats = |a: &str, b: &str| play(a).beats(&play(b), Rules::Standard);
    assert!(beats("4", "3") && !beats("3", "3") && !beats("3", "4"));
    assert!(beats("R", "B") && beats("B", "2"));
    assert!(beats("55", "44") && !beats("55", "4"), "a pair on a solo");
    assert!(
        beats("45678", "34567") && !beats("456789", "34567"),
        "same length"
    );
    assert!(
        beats("4443", "3335") && !beats("44433", "3335"),
        "same wings"
    );
    assert!(
        beats("44455536", "333444KA"),
        "the chain decides, not the wings"
    );
    assert!(!beats("33344456", "444555KA"));
    assert!(beats("444456", "3333KA") && !beats("444456", "3333"));
    assert!(beats("3333", "3456789TJQKA") && beats("3333", "444456"));
    assert!(beats("4444", "3333") && !beats("3333", "4444"));
    assert!(beats("BR", "2222") && !beats("2222", "BR"));
    assert!(beats("3333", "44445555"), "a bomb beats a shuttle");
    let os = play("3333").beats(&play("BR"), Rules::OpenSpiel);
    assert!(os, "OpenSpiel's generator lets a bomb follow the rocket");
}

/// The landlord's twenty cards of a few deals, and hands with chains of trios and fours.
fn hands() -> Vec<Cards> {
    let mut out: Vec<Cards> = (0..40)
        .map(|seed| {
            let d = Deal::from_seed(seed);
            let mut h = d.hand(0);
            h.add(&d.kitty());
            h
        })
        .collect();
    out.extend(
        [
            "3333444555666789TJ2R",
            "33334444555566667777",
            "333444555666777888BR",
        ]
        .map(cards),
    );
    out
}

#[test]
fn each_standard_play_is_its_cards_alone_and_reads_back() {
    for hand in hands() {
        let mut all = Vec::new();
        plays(&hand, Rules::Standard, Want::All, &mut all);
        let mut seen = std::collections::HashSet::new();
        for c in &all {
            assert!(hand.holds(&c.cards));
            assert!(seen.insert(c.cards), "{} twice", c.cards.text());
            assert_eq!(
                classify(&c.cards, Rules::Standard),
                Some(*c),
                "{}",
                c.text(Rules::Standard)
            );
            assert!(c.text(Rules::Standard).len() <= 20);
        }
    }
}

#[test]
fn the_openspiel_plays_read_back_from_their_text() {
    for hand in hands() {
        let mut all = Vec::new();
        plays(&hand, Rules::OpenSpiel, Want::All, &mut all);
        let mut seen = std::collections::HashSet::new();
        for c in &all {
            let text = c.text(Rules::OpenSpiel);
            assert!(seen.insert(text.clone()), "{text} twice");
            let back = match text.split_once('-') {
                Some((a, b)) => parse_winged(&cards(a), &cards(b)),
                None => classify(&c.cards, Rules::OpenSpiel),
            };
            assert_eq!(back, Some(*c), "{text}");
        }
    }
}

#[test]
fn the_same_cards_are_three_openspiel_plays_and_one_standard_play() {
    let hand = cards("333444555666789");
    let twelve = cards("333444555666");
    let count = |rules| {
        let mut all = Vec::new();
        plays(&hand, rules, Want::All, &mut all);
        let texts: Vec<String> = all
            .iter()
            .filter(|c| c.cards == twelve)
            .map(|c| c.text(rules))
            .collect();
        texts
    };
    assert_eq!(
        count(Rules::OpenSpiel),
        ["333444555666", "333444555-666", "444555666-333"]
    );
    assert_eq!(count(Rules::Standard), ["333444555666"]);
}

#[test]
fn openspiel_starts_no_chain_at_a_rank_held_four_times() {
    let hand = cards("33334567899");
    let texts = |rules| {
        let mut all = Vec::new();
        plays(&hand, rules, Want::All, &mut all);
        all.iter()
            .filter(|c| matches!(c.category, SoloChain | PairChain))
            .map(|c| c.text(rules))
            .collect::<Vec<_>>()
    };
    let os = texts(Rules::OpenSpiel);
    assert!(!os.contains(&"34567".to_string()), "{os:?}");
    assert!(os.contains(&"45678".to_string()));
    assert!(texts(Rules::Standard).contains(&"34567".to_string()));
}

#[test]
fn kickers_follow_each_rule_set() {
    let hand = cards("333444555BR");
    let wings = |rules| {
        let mut all = Vec::new();
        plays(&hand, rules, Want::Beating(AirplaneSolos), &mut all);
        all.iter()
            .filter(|c| c.category == AirplaneSolos && c.len == 2 && c.head == 0)
            .map(|c| c.text(rules))
            .collect::<std::collections::BTreeSet<_>>()
    };
    // Standard: two distinct solos, the jokers too; OpenSpiel: a rank up to three times,
    // never both jokers.
    let set = |t: [&str; 3]| t.map(String::from).into_iter().collect();
    assert_eq!(
        wings(Rules::Standard),
        set(["3334445B", "3334445R", "333444BR"])
    );
    assert_eq!(
        wings(Rules::OpenSpiel),
        set(["333444-55", "333444-5B", "333444-5R"])
    );
}
