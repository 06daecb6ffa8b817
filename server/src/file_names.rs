//! Compile errors and tracebacks in the student's own words: the file they uploaded
//! (`first_try.c`), not the name the build gives it (`main.c`) nor the judge's cache path
//! (`<artefacts>/` and 64 hex digits).

/// `text` with every `<artefacts>/HASH/` prefix dropped and the build's file name `build`
/// (as a whole name: not `domain.c` for `main.c`) said as `own`.
pub fn own_names(text: &str, build: &str, own: &str) -> String {
    let text = without_artefact_dirs(text);
    if build.is_empty() || build == own {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(build) {
        let name_char = |c: char| c.is_alphanumeric() || "_-".contains(c);
        let before = rest[..i].chars().next_back();
        let mut after = rest[i + build.len()..].chars();
        // A dot after the name is the sentence's end unless a name goes on after it.
        let longer = match after.next() {
            Some('.') => after.next().is_some_and(name_char),
            c => c.is_some_and(name_char),
        };
        let inside = before.is_some_and(|c| name_char(c) || c == '.') || longer;
        out.push_str(&rest[..i]);
        out.push_str(if inside { build } else { own });
        rest = &rest[i + build.len()..];
    }
    out.push_str(rest);
    out
}

/// `text` without the judge's cache directories (`<artefacts>/` then a 64-digit hash and `/`).
fn without_artefact_dirs(text: &str) -> String {
    const DIR: &str = "<artefacts>/";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(DIR) {
        out.push_str(&rest[..i]);
        let after = &rest[i + DIR.len()..];
        let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        match after[hex..].strip_prefix('/') {
            Some(tail) if hex == 64 => rest = tail,
            _ => {
                out.push_str(DIR);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceback_names_the_students_file() {
        let hash = "50c49e6b".repeat(8);
        let tb = format!("  File \"<artefacts>/{hash}/main.py\", line 3, in <module>\n");
        assert_eq!(
            own_names(&tb, "main.py", "first_try.py"),
            "  File \"first_try.py\", line 3, in <module>\n"
        );
    }

    #[test]
    fn a_compile_error_names_the_students_file_and_nothing_else() {
        let log = "main.c:12:5: error: x\ndomain.c main.cpp main.c.\n";
        assert_eq!(
            own_names(log, "main.c", "first_try.c"),
            "first_try.c:12:5: error: x\ndomain.c main.cpp first_try.c.\n"
        );
    }

    #[test]
    fn other_paths_stay() {
        let odd = "<artefacts>/abc/main.py <artefacts>/";
        assert_eq!(own_names(odd, "", ""), odd);
    }
}
