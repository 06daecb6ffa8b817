//! Seed 002's tokens: the Base64 of `BASE/MATCH/SEAT` (a seat) or `BASE/_MATCH` (spectators).
//! A seat's `MATCH` is `ID.SECRET`, the secret 128 random bits.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use rand::RngCore;

/// A new seat secret.
pub fn secret() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The token of a seat, given the hub's websocket base (`ws://host/live/ws`).
pub fn seat(base: &str, id: u64, secret: &str, seat: usize) -> String {
    STANDARD.encode(format!("{base}/{id}.{secret}/{seat}"))
}

/// The token of a game's spectators.
pub fn spectator(base: &str, id: u64) -> String {
    STANDARD.encode(format!("{base}/_{id}"))
}

/// What a websocket path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Spectator {
        id: u64,
    },
    Seat {
        id: u64,
        secret: String,
        seat: usize,
    },
}

/// Reads the last path parts of a websocket URL: `_ID`, or `ID.SECRET` and `SEAT`.
pub fn parse_path(matching: &str, seat: Option<&str>) -> Option<Target> {
    match seat {
        None => Some(Target::Spectator {
            id: matching.strip_prefix('_')?.parse().ok()?,
        }),
        Some(s) => {
            let (id, secret) = matching.split_once('.')?;
            let seat: usize = s.parse().ok()?;
            if seat >= arbiter_engine::Seat::MAX || secret.len() != 22 {
                return None;
            }
            Some(Target::Seat {
                id: id.parse().ok()?,
                secret: secret.to_string(),
                seat,
            })
        }
    }
}

/// The URL inside a token, with the path parts after the base.
pub fn decode(token: &str) -> Option<String> {
    let bytes = STANDARD.decode(token.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        let s = secret();
        assert_eq!(s.len(), 22);
        let t = seat("ws://h/live/ws", 7, &s, 1);
        let url = decode(&t).unwrap();
        assert_eq!(url, format!("ws://h/live/ws/7.{s}/1"));
        let parts: Vec<&str> = url.rsplitn(3, '/').collect();
        assert_eq!(
            parse_path(parts[1], Some(parts[0])),
            Some(Target::Seat {
                id: 7,
                secret: s,
                seat: 1
            })
        );
        assert_eq!(parse_path("_7", None), Some(Target::Spectator { id: 7 }));
        assert_eq!(parse_path("7", None), None);
        assert_eq!(parse_path("7.short", Some("0")), None);
        // Up to 8 seats: 0 to 7.
        let seven = format!("7.{}", "k".repeat(22));
        assert!(parse_path(&seven, Some("7")).is_some());
        assert_eq!(parse_path(&seven, Some("8")), None);
        assert_eq!(parse_path(&seven, Some("-1")), None);
        assert_eq!(parse_path(&seven, Some("99999999999999999999999")), None);
        assert_eq!(
            decode(&spectator("ws://h/live/ws", 3)).unwrap(),
            "ws://h/live/ws/_3"
        );
    }
}
