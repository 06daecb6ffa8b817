//! The languages the report reads, and how a submission's language key or file name maps to one.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Python,
}

impl Language {
    /// A contest's language key (`c`, `cpp`, `python3`, ...): contest.toml names languages
    /// freely, so the key is read loosely.
    pub fn from_key(key: &str) -> Option<Language> {
        let k = key.to_ascii_lowercase();
        if k.starts_with("py") {
            Some(Language::Python)
        } else if k.contains("cpp") || k.contains("c++") || k.contains("cxx") || k == "cc" {
            Some(Language::Cpp)
        } else if k == "c" || k.starts_with("c1") || k.starts_with("c9") || k == "gnuc" {
            Some(Language::C)
        } else {
            None
        }
    }

    /// By a file's extension.
    pub fn from_file_name(name: &str) -> Option<Language> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "c" | "h" => Some(Language::C),
            "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => Some(Language::Cpp),
            "py" => Some(Language::Python),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Python => "python",
        }
    }

    pub(crate) fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_extensions() {
        assert_eq!(Language::from_key("c"), Some(Language::C));
        assert_eq!(Language::from_key("cpp17"), Some(Language::Cpp));
        assert_eq!(Language::from_key("python3"), Some(Language::Python));
        assert_eq!(Language::from_key("java"), None);
        assert_eq!(Language::from_file_name("bot.PY"), Some(Language::Python));
        assert_eq!(Language::from_file_name("x.hpp"), Some(Language::Cpp));
        assert_eq!(Language::from_file_name("README"), None);
    }
}
