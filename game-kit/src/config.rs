//! Reading a game's configuration (a JSON object): numbers in a range, the seat count, and the
//! keys a game takes.

use alloc::string::String;
use alloc::vec::Vec;

use crate::Json;

/// The config key that picks the number of seats of a game that allows several.
pub const PLAYERS: &str = "players";

/// A whole number from a game's config: `default` when `key` is absent, an error in words when
/// it is not a number in `range`.
pub fn config_number(
    config: &Json,
    key: &str,
    default: usize,
    range: core::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    let Some(v) = config.get(key) else {
        return Ok(default);
    };
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            alloc::format!(
                "{key} must be a whole number from {} to {}",
                range.start(),
                range.end()
            )
        })
}

/// The number of seats the config picks (`"players": 3`) among `seats` (the counts the game
/// allows, smallest first), the first by default.
pub fn players(config: &Json, seats: &[usize]) -> Result<usize, String> {
    let first = seats.first().copied().unwrap_or(2);
    let Some(v) = config.get(PLAYERS) else {
        return Ok(first);
    };
    match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
        Some(n) if seats.contains(&n) => Ok(n),
        _ => Err(alloc::format!("players must be {}", counts_words(seats))),
    }
}

/// `2`, `2 or 3`, `2, 3, 4 or 6`.
pub fn counts_words(seats: &[usize]) -> String {
    let words: Vec<String> = seats.iter().map(|n| alloc::format!("{n}")).collect();
    match words.split_last() {
        None => String::from("2"),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => alloc::format!("{} or {last}", rest.join(", ")),
    }
}

/// Why `config` is not a configuration of a game that reads only `keys` (and `players`), if it
/// is not: it must be a JSON object, and a key the game does not read is refused by name (a
/// misspelt key must not fall back to a default without a word).
pub fn check_keys(config: &Json, keys: &[&str]) -> Result<(), String> {
    let Some(object) = config.as_object() else {
        return Err("a game's config must be a JSON object, such as {} or {\"size\": 8}".into());
    };
    let unknown: Vec<&str> = object
        .keys()
        .map(String::as_str)
        .filter(|k| *k != PLAYERS && !keys.contains(k))
        .collect();
    match unknown.first() {
        None => Ok(()),
        Some(first) => {
            let takes = if keys.is_empty() {
                String::from("it takes no keys")
            } else {
                alloc::format!("it takes {}", keys.join(", "))
            };
            Err(alloc::format!(
                "this game has no config key {:?}: {takes}",
                cut(first, 40)
            ))
        }
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut (a key from outside may be
/// long).
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((i, _)) => alloc::format!("{}...", &text[..i]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_checked_by_name() {
        assert!(check_keys(&json!({"cols": 7, "players": 2}), &["cols", "rows"]).is_ok());
        let e = check_keys(&json!({"col": 8}), &["cols", "rows"]).unwrap_err();
        assert!(e.contains("\"col\"") && e.contains("cols, rows"), "{e}");
        assert!(check_keys(&json!(5), &[]).unwrap_err().contains("object"));
        assert!(check_keys(&json!([7, 6]), &["cols"]).is_err());
        let long = "k".repeat(1000);
        let e = check_keys(&json!({ long: 1 }), &[]).unwrap_err();
        assert!(e.len() < 120, "{e}");
    }

    #[test]
    fn players_pick_a_seat_count_in_range() {
        let cc = [2, 3, 4, 6];
        assert_eq!(players(&json!({}), &cc), Ok(2));
        assert_eq!(players(&json!({"players": 4}), &cc), Ok(4));
        let e = players(&json!({"players": 5}), &cc).unwrap_err();
        assert_eq!(e, "players must be 2, 3, 4 or 6");
        assert!(players(&json!({"players": "3"}), &cc).is_err());
        assert_eq!(players(&json!({"players": 3}), &[3]), Ok(3));
        assert_eq!(
            players(&json!({"players": 2}), &[3]).unwrap_err(),
            "players must be 3"
        );
    }
}
