//! Named inputs and positions inside them.
//!
//! Every position pvlint reports is 1-based (line and column), columns counted in
//! Unicode scalar values, as editors and rustc do.

use serde::{Deserialize, Serialize};

/// One named input: a file name (or `<stdin>`) and its text. In JSON: `{"name", "text"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "NamedText")]
pub struct Source {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The text of a 1-based line, without its line break.
    pub fn line(&self, line: u32) -> Option<&str> {
        let idx = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(idx)?;
        let end = self
            .line_starts
            .get(idx + 1)
            .copied()
            .unwrap_or(self.text.len());
        let l = &self.text[start..end];
        Some(l.trim_end_matches('\n').trim_end_matches('\r'))
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamedText {
    name: String,
    text: String,
}

impl From<NamedText> for Source {
    fn from(n: NamedText) -> Source {
        Source::new(n.name, n.text)
    }
}

impl Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Source", 2)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("text", &self.text)?;
        st.end()
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        self.name == other.name && self.text == other.text
    }
}

impl Eq for Source {}

/// Index of a [`Source`] in the slice given to [`crate::lint`].
pub type SourceId = usize;

/// A 1-based line/column position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// A range in one source: start inclusive, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    pub fn point(p: Pos) -> Span {
        Span { start: p, end: p }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}
