//! The end of a game: a place for every seat.

use alloc::string::String;
use alloc::vec::Vec;

use crate::Seat;

/// The end of a game by its rules: each seat's place, its final score, and why.
///
/// Places count from 1 (first) as sports rank ties: seats that tie share the best place of
/// their group, and the next place skips (two seats tied first, the third is third: `[1, 1,
/// 3]`). A two-seat game's win is `[1, 2]` or `[2, 1]`, its draw `[1, 1]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// The place of each seat, seat 0 first.
    pub places: Vec<u32>,
    /// Final score per seat, as shown to people.
    pub scores: Vec<i64>,
    /// Why the game ended, in words ("four in a row", "no move for second").
    pub reason: String,
}

impl Outcome {
    /// `winner` first and every other seat second (a draw: all first); scores 1 for the
    /// winner, else 0.
    pub fn win(winner: Option<Seat>, seats: usize, reason: &str) -> Outcome {
        Outcome {
            places: (0..seats)
                .map(|s| if winner.is_some_and(|w| w != s) { 2 } else { 1 })
                .collect(),
            scores: win_scores(winner, seats),
            reason: reason.into(),
        }
    }

    /// `winner` first and every other seat second (`None`: a draw, all first), with the
    /// given scores (one per seat).
    pub fn decided(winner: Option<Seat>, scores: Vec<i64>, reason: &str) -> Outcome {
        Outcome {
            places: Outcome::win(winner, scores.len(), reason).places,
            scores,
            reason: reason.into(),
        }
    }

    /// Places from scores: the highest score first, equal scores sharing a place.
    pub fn by_scores(scores: Vec<i64>, reason: &str) -> Outcome {
        Outcome {
            places: places_from(&scores),
            scores,
            reason: reason.into(),
        }
    }

    /// The end of a two-seat game won by making a line (`line`: "four in a row") and drawn
    /// when the board fills: `None` while neither has happened.
    pub fn line_or_full(winner: Option<Seat>, full: bool, line: &str) -> Option<Outcome> {
        let reason = match winner {
            Some(_) => line,
            None if full => "the board is full",
            None => return None,
        };
        Some(Outcome::win(winner, 2, reason))
    }

    /// The one seat alone in first place, if there is one.
    pub fn winner(&self) -> Option<Seat> {
        let mut first = self.places.iter().enumerate().filter(|(_, p)| **p == 1);
        match (first.next(), first.next()) {
            (Some((s, _)), None) => Some(s),
            _ => None,
        }
    }

    /// Why these places are not a ranking of `seats` seats, if they are not.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        if self.places.len() != seats || self.scores.len() != seats {
            return Err(alloc::format!(
                "an outcome has {} places and {} scores for {seats} seats",
                self.places.len(),
                self.scores.len()
            ));
        }
        check_places(&self.places)
    }
}

/// 1 for the winning seat, 0 for the others (all 0 with no winner).
pub fn win_scores(winner: Option<Seat>, seats: usize) -> Vec<i64> {
    (0..seats).map(|s| i64::from(winner == Some(s))).collect()
}

/// Each seat's place by `keys`, highest first, equal keys sharing the best place of their
/// group (`[5, 9, 5]` gives `[2, 1, 2]`).
pub fn places_from<K: Ord>(keys: &[K]) -> Vec<u32> {
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|other| *other > k).count() as u32)
        .collect()
}

/// Why `places` is not a ranking, if it is not: every place must be 1 plus the number of
/// seats placed better (so ties share the best place of their group and the next skips).
pub fn check_places(places: &[u32]) -> Result<(), String> {
    for &p in places {
        let better = places.iter().filter(|&&q| q < p).count() as u32;
        if p != better + 1 {
            return Err(alloc::format!(
                "places {places:?} are not a ranking: place {p} has {better} seats before it"
            ));
        }
    }
    Ok(())
}

/// As the ABI writes it: `places`, and `winner` for the readers of two-seat games.
#[derive(serde::Serialize, serde::Deserialize)]
struct Written {
    #[serde(default)]
    places: Option<Vec<u32>>,
    #[serde(default)]
    winner: Option<Seat>,
    scores: Vec<i64>,
    reason: String,
}

impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Written {
            places: Some(self.places.clone()),
            winner: self.winner(),
            scores: self.scores.clone(),
            reason: self.reason.clone(),
        }
        .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Outcome {
    /// Version 1 of the ABI wrote only `winner` (two seats): its places follow from it.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let w = Written::deserialize(d)?;
        let seats = w.scores.len();
        let places = match w.places {
            Some(p) => p,
            None => Outcome::win(w.winner, seats, "").places,
        };
        Ok(Outcome {
            places,
            scores: w.scores,
            reason: w.reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_rank_with_shared_ties() {
        assert_eq!(places_from(&[5, 9, 5]), [2, 1, 2]);
        assert_eq!(places_from(&[3, 3, 1, 0]), [1, 1, 3, 4]);
        assert!(check_places(&[1, 1, 3]).is_ok());
        assert!(check_places(&[1, 2, 2]).is_ok());
        assert!(check_places(&[1, 1, 2]).is_err());
        assert!(check_places(&[2, 3]).is_err());
        assert!(check_places(&[1, 0]).is_err());
        let o = Outcome::win(Some(1), 3, "won");
        assert_eq!(o.places, [2, 1, 2]);
        assert_eq!(o.winner(), Some(1));
        assert_eq!(Outcome::win(None, 2, "draw").winner(), None);
        assert!(o.check(3).is_ok() && o.check(2).is_err());
    }

    #[test]
    fn version_one_outcomes_read_as_places() {
        let o: Outcome =
            serde_json::from_str(r#"{"winner":1,"scores":[0,1],"reason":"r"}"#).unwrap();
        assert_eq!(o.places, [2, 1]);
        let d: Outcome =
            serde_json::from_str(r#"{"winner":null,"scores":[3,3],"reason":"r"}"#).unwrap();
        assert_eq!(d.places, [1, 1]);
        let json = serde_json::to_string(&Outcome::win(Some(0), 2, "x")).unwrap();
        assert_eq!(
            json,
            r#"{"places":[1,2],"winner":0,"scores":[1,0],"reason":"x"}"#
        );
    }
}
