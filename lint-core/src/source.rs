//! Named inputs and positions inside them.
//!
//! Every position pvlint reports is 1-based (line and column), columns counted in
//! Unicode scalar values, as editors and rustc do.

use serde::Serialize;

/// One named input: a file name (or `<stdin>`) and its text.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Byte offset of every line's start. `u32`: a source larger than 4 GiB cannot be linted
    /// anyway (offsets past that saturate, and `line` then returns `None`).
    line_starts: Vec<u32>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let lines = text.bytes().filter(|&b| b == b'\n').count();
        let mut line_starts = Vec::with_capacity(lines + 1);
        line_starts.push(0);
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
        );
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The text of a 1-based line, without its line break.
    pub fn line(&self, line: u32) -> Option<&str> {
        let idx = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(idx)? as usize;
        let end = self
            .line_starts
            .get(idx + 1)
            .map_or(self.text.len(), |&e| e as usize);
        let l = self.text.get(start..end)?;
        Some(l.trim_end_matches('\n').trim_end_matches('\r'))
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }
}

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
