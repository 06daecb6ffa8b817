//! `arbiter game new NAME`: a ready crate with a tiny example game (Nim) and its tests.

use std::path::{Path, PathBuf};

use crate::KitError;

const LIB: &str = include_str!("template/lib.rs.txt");
const MANIFEST: &str = include_str!("template/Cargo.toml.txt");

/// The `arbiter-game` crate of the checkout this program was built from.
pub fn default_kit_path() -> PathBuf {
    crate::build::workspace_root().join("game-kit")
}

/// `connect-four` -> `ConnectFour`.
fn type_name(name: &str) -> String {
    name.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        })
        .collect()
}

/// Writes the crate `dir/name` and returns its directory. `name` is a crate name: lowercase
/// letters, digits and dashes, starting with a letter.
pub fn write(dir: &Path, name: &str, kit: &Path) -> Result<PathBuf, KitError> {
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && name.len() <= 40;
    if !valid {
        return Err(KitError::Host(format!(
            "{name:?} is not a game name: lowercase letters, digits and dashes, starting with a letter"
        )));
    }
    let root = dir.join(name);
    if root.exists() {
        return Err(KitError::Host(format!("{} exists already", root.display())));
    }
    // Cargo reads a relative path from the new crate's directory, not from where `--kit` was
    // typed.
    let kit = std::path::absolute(kit)
        .map_err(|e| KitError::Host(format!("cannot make {} absolute: {e}", kit.display())))?;
    let fill = |t: &str| {
        t.replace("{{name}}", name)
            .replace("{{file}}", &name.replace('-', "_"))
            .replace("{{Type}}", &type_name(name))
            .replace("{{title}}", &type_name(name))
            .replace("{{kit}}", &kit.display().to_string())
    };
    let io = |e: std::io::Error| KitError::Host(format!("cannot write {}: {e}", root.display()));
    std::fs::create_dir_all(root.join("src")).map_err(io)?;
    std::fs::write(root.join("Cargo.toml"), fill(MANIFEST)).map_err(io)?;
    std::fs::write(root.join("src").join("lib.rs"), fill(LIB)).map_err(io)?;
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(type_name("connect-four"), "ConnectFour");
        assert_eq!(type_name("nim"), "Nim");
        let dir = std::env::temp_dir().join(format!("kit-template-{}", std::process::id()));
        assert!(write(&dir, "Bad Name", Path::new(".")).is_err());
        assert!(write(&dir, "9men", Path::new(".")).is_err());
        let root = write(&dir, "nim", Path::new("kit")).unwrap();
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let kit = std::env::current_dir().unwrap().join("kit");
        assert!(
            manifest.contains(&format!("path = \"{}\"", kit.display())),
            "{manifest}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
