//! The bounds of what a match, tournament or contest may ask for: limits that cannot work are
//! refused with the bound named (a 1 ms game loses every game on its first move; 2^64 ms or
//! 2^63 MB overflow), where the command line, a tournament's [limits] and a contest's meet.

use crate::game::LimitOverrides;

/// The longest time limit (move, game, handshake, tolerance): a day.
pub const MAX_TIME_MS: u64 = 24 * 3600 * 1000;
/// The shortest move or game time (0 = none): below the scheduler's granularity a bot cannot
/// answer at all.
pub const MIN_TIME_MS: u64 = 10;
/// The least memory a bot can start in (0 = none): a C program with libc, or Python, needs more.
pub const MIN_MEMORY_MB: u64 = 16;
/// The most memory a bot may be given: a terabyte.
pub const MAX_MEMORY_MB: u64 = 1 << 20;
/// The deepest `builtin:N` (plies of search; the ladder's levels are 1 to 5).
pub const MAX_BUILTIN_DEPTH: u32 = 64;

impl LimitOverrides {
    /// Refuses limits that cannot work, naming the bound; `Ok` carries warnings about ones that
    /// are only unusual. Names are the config's (`move_ms`); the command line's flags say the
    /// same in their own words through [`flag_name`].
    pub fn check(&self) -> Result<Vec<String>, String> {
        let times = [
            ("move_ms", self.move_ms, MIN_TIME_MS),
            ("game_ms", self.game_ms, MIN_TIME_MS),
            ("handshake_ms", self.handshake_ms, MIN_TIME_MS),
            ("tolerance_ms", self.tolerance_ms, 0),
        ];
        for (key, value, min) in times {
            let Some(ms) = value else { continue };
            if ms > MAX_TIME_MS {
                return Err(format!("{key} = {ms}: at most {MAX_TIME_MS} ms (a day)"));
            }
            // 0 is "no limit" for move and game times, never for the handshake.
            let none_allowed = matches!(key, "move_ms" | "game_ms" | "tolerance_ms");
            if ms < min && !(ms == 0 && none_allowed) {
                let zero = if none_allowed { " (or 0 for none)" } else { "" };
                return Err(format!(
                    "{key} = {ms}: at least {min} ms{zero}: no bot can answer in less"
                ));
            }
        }
        if let Some(mb) = self.memory_mb {
            if mb != 0 && !(MIN_MEMORY_MB..=MAX_MEMORY_MB).contains(&mb) {
                return Err(format!(
                    "memory_mb = {mb}: from {MIN_MEMORY_MB} to {MAX_MEMORY_MB} MB (or 0 for none)"
                ));
            }
        }
        Ok(self.warnings())
    }

    fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if let (Some(mv), Some(game)) = (self.move_ms, self.game_ms) {
            if mv > 0 && game > 0 && game < mv {
                w.push(format!(
                    "game_ms = {game} is less than move_ms = {mv}: the game clock decides"
                ));
            }
        }
        w
    }
}

/// The command-line flag of a config key, for messages about flags.
pub fn flag_name(message: &str) -> String {
    [
        ("move_ms", "--move-time"),
        ("game_ms", "--game-time"),
        ("handshake_ms", "--handshake-time"),
        ("tolerance_ms", "--time-tolerance"),
        ("memory_mb", "--memory"),
    ]
    .iter()
    .fold(message.to_string(), |m, (key, flag)| {
        m.replace(&format!("{key} ="), flag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(f: impl FnOnce(&mut LimitOverrides)) -> Result<Vec<String>, String> {
        let mut l = LimitOverrides::default();
        f(&mut l);
        l.check()
    }

    #[test]
    fn limits_that_cannot_work_are_refused_with_their_bound() {
        let e = check(|l| l.memory_mb = Some(1)).expect_err("1 MB");
        assert!(e.contains("from 16 to 1048576 MB"), "{e}");
        assert!(check(|l| l.memory_mb = Some(1 << 63)).is_err());
        assert!(check(|l| l.move_ms = Some(u64::MAX)).is_err());
        assert!(check(|l| l.tolerance_ms = Some(u64::MAX)).is_err());
        assert!(check(|l| l.handshake_ms = Some(u64::MAX)).is_err());
        let e = check(|l| l.game_ms = Some(1)).expect_err("1 ms");
        assert!(e.contains("at least 10 ms"), "{e}");
        assert!(check(|l| l.handshake_ms = Some(0)).is_err());
    }

    #[test]
    fn usual_limits_and_none_pass() {
        assert_eq!(check(|l| l.memory_mb = Some(0)), Ok(vec![]));
        assert_eq!(check(|l| l.game_ms = Some(0)), Ok(vec![]));
        assert_eq!(check(|l| l.tolerance_ms = Some(0)), Ok(vec![]));
        let ok = check(|l| {
            l.move_ms = Some(1000);
            l.game_ms = Some(180_000);
            l.memory_mb = Some(350);
        });
        assert_eq!(ok, Ok(vec![]));
        let unusual = check(|l| {
            l.move_ms = Some(1000);
            l.game_ms = Some(500);
        });
        assert_eq!(unusual.map(|w| w.len()), Ok(1));
    }

    #[test]
    fn messages_about_flags_name_the_flags() {
        assert_eq!(flag_name("memory_mb = 1: from 16"), "--memory 1: from 16");
    }
}
