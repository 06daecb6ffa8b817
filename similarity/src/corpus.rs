//! What is compared: the students' documents (each a version of one student's source), the
//! earlier years' sources, and the template code that never counts as shared.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::language::Language;

/// Where a document comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A student of this contest.
    Student,
    /// A reference source from an earlier year: matched against students, never against
    /// another earlier source.
    Earlier,
}

/// One source file of one owner.
#[derive(Clone, Debug)]
pub struct Document {
    /// The student's login, or the earlier source's name.
    pub owner: String,
    /// Which version: a submission number, a file name.
    pub version: String,
    /// The submission id, when the source is a contest submission.
    pub id: Option<i64>,
    pub language: Language,
    pub origin: Origin,
    pub source: String,
}

impl Document {
    /// The key of this source in the results cache: language and text, so that an unchanged
    /// resubmission costs nothing.
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.language.name().as_bytes());
        h.update([0]);
        h.update(self.source.as_bytes());
        hex(&h.finalize()[..16])
    }
}

/// Template code of one language (a sample bot, a starter kit).
#[derive(Clone, Debug)]
pub struct Template {
    pub name: String,
    pub language: Language,
    pub source: String,
}

#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub documents: Vec<Document>,
    pub templates: Vec<Template>,
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Corpus {
    /// Keeps each student's last document (callers list versions oldest first): the default
    /// report covers each student's latest submission. Earlier years' sources all stay.
    pub fn latest_only(mut self) -> Corpus {
        let mut seen = std::collections::HashSet::new();
        let mut kept: Vec<Document> = Vec::new();
        for d in self.documents.into_iter().rev() {
            if d.origin == Origin::Earlier || seen.insert(d.owner.clone()) {
                kept.push(d);
            }
        }
        kept.reverse();
        self.documents = kept;
        self
    }
}
