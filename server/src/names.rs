//! Nicknames as the scoreboard shows them: no invisible or direction-changing characters, one
//! spelling (NFKC), and unique by what a reader sees, so that nobody passes for another student
//! or for the course staff.

use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::UnicodeNormalization;

pub const MAX_CHARS: usize = 32;

/// Names no student may take, beside the course staff's own logins and nicknames.
const RESERVED: &[&str] = &["admin", "administrator", "staff", "course staff", "root"];

/// A nickname as typed, checked and in NFKC; the error says what is wrong.
pub fn normalise(raw: &str) -> Result<String, String> {
    let name: String = raw.trim().nfkc().collect();
    let name = name.trim().to_string();
    // In the request's language (English from the CLI's roster import).
    if name.chars().count() > MAX_CHARS {
        return Err(crate::lang::ta(
            "err-nickname-long",
            &[("max", arbiter_i18n::Arg::Num(MAX_CHARS as f64))],
        ));
    }
    if let Some(c) = name.chars().find(|c| invisible(*c)) {
        let code = format!("U+{:04X}", c as u32);
        return Err(crate::lang::ta(
            "err-nickname-invisible",
            &[("char", code.as_str().into())],
        ));
    }
    Ok(name)
}

/// Control, format (bidi controls, zero-width characters, soft hyphen), private-use,
/// unassigned and line or paragraph separator characters.
pub fn invisible(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::PrivateUse
            | G::Unassigned
            | G::Surrogate
            | G::LineSeparator
            | G::ParagraphSeparator
    )
}

/// What two names are compared by: NFKC, lower case, NFKC again (lower-casing can leave a
/// non-normal form), runs of spaces as one.
pub fn key(name: &str) -> String {
    let folded: String = name
        .nfkc()
        .collect::<String>()
        .to_lowercase()
        .nfkc()
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `key` is a reserved name.
pub fn reserved(key: &str) -> bool {
    RESERVED.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes() {
        assert!(normalise("st\u{200b}aff").is_err());
        assert!(normalise("\u{202e}nimda").is_err());
        assert!(normalise("a\u{ad}b").is_err());
        assert_eq!(normalise(" ｆｉｎｅ ").unwrap(), "fine");
        assert_eq!(key("ＡＤＡ"), key("ada"));
        assert_eq!(key("Ada  Lovelace"), key("ada lovelace"));
        assert!(reserved(&key("ＡＤＭＩＮ")));
        assert!(normalise(&"x".repeat(33)).is_err());
    }
}
