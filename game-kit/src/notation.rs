//! Chess-style squares (`a1` bottom left, `j10`), shared by the games' notations.

use alloc::string::String;

use crate::view::column_letter;

/// `col`, `row` (row 0 at the bottom) as `a1`.
pub fn square(col: usize, row: usize) -> String {
    let mut s = String::with_capacity(5);
    push_square(&mut s, col, row);
    s
}

/// Appends `a1` for `col`, `row` to `out`. Written by hand: `format!` costs several times more
/// inside a wasm interpreter, and a legal-move list formats thousands of squares.
pub fn push_square(out: &mut String, col: usize, row: usize) {
    if col >= 26 {
        out.push(char::from(b'a' + (col / 26 - 1) as u8));
    }
    out.push(char::from(b'a' + (col % 26) as u8));
    let n = row + 1;
    if n >= 100 {
        out.push(char::from(b'0' + (n / 100 % 10) as u8));
    }
    if n >= 10 {
        out.push(char::from(b'0' + (n / 10 % 10) as u8));
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Reads a square of a `cols x rows` board at the start of `text`; returns it (row 0 at the
/// bottom) and the rest of the text.
pub fn read_square(text: &str, cols: usize, rows: usize) -> Option<((usize, usize), &str)> {
    let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
    let digits = text[letters..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if !(1..=2).contains(&letters) || !(1..=3).contains(&digits) {
        return None;
    }
    let col = (0..cols).find(|&c| column_letter(c as u16) == text[..letters])?;
    let row: usize = text[letters..letters + digits].parse().ok()?;
    (1..=rows)
        .contains(&row)
        .then(|| ((col, row - 1), &text[letters + digits..]))
}

/// Reads exactly one square.
pub fn parse_square(text: &str, cols: usize, rows: usize) -> Option<(usize, usize)> {
    match read_square(text, cols, rows)? {
        (sq, "") => Some(sq),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        assert_eq!(square(0, 0), "a1");
        assert_eq!(square(9, 9), "j10");
        assert_eq!(parse_square("j10", 10, 10), Some((9, 9)));
        assert_eq!(parse_square("k1", 10, 10), None);
        assert_eq!(parse_square("a11", 10, 10), None);
        assert_eq!(parse_square("a0", 10, 10), None);
        assert_eq!(parse_square("a1x", 10, 10), None);
        assert_eq!(read_square("d1-d7", 10, 10), Some(((3, 0), "-d7")));
        for c in 0..20 {
            for r in 0..19 {
                assert_eq!(parse_square(&square(c, r), 20, 19), Some((c, r)));
            }
        }
    }
}
