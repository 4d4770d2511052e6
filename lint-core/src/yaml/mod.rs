//! YAML/JSON stream → span-carrying [`Node`] trees, one per document.
//!
//! The stream is split at `---` / `...` markers first, so one broken document is
//! reported and the others are still parsed. Each piece is read with the
//! `saphyr-parser` event parser (every event carries its start/end position).
//! On top of it this module adds what Kubernetes' decoder does or needs:
//! merge keys (`<<`), duplicate-key detection, a bound on alias expansion
//! (billion laughs) and on nesting depth, and YAML 1.1 scalar typing.

use crate::node::Node;
use crate::source::Span;

mod build;
mod fast;
mod relax;
mod split;
pub(crate) mod write;

use build::{parse_chunk, Builder};

pub(crate) use split::{is_marker, split_documents};

/// At most this many nodes may be produced by expanding aliases in one document.
pub const ALIAS_EXPANSION_LIMIT: usize = 100_000;
/// Deeper nesting than this is refused (it would only serve to exhaust the stack).
pub const MAX_DEPTH: usize = 256;

/// One parsed document of a stream.
#[derive(Debug)]
pub struct Document {
    /// 0-based index of the document in its source (empty documents are not counted).
    pub index: usize,
    /// `None` when the document could not be parsed.
    pub root: Option<Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueKind {
    /// The document is not valid YAML/JSON; it was skipped.
    Syntax,
    /// Aliases expand to too many nodes, or nesting is too deep; the document was skipped.
    Limit,
    /// A key appears twice in one mapping; the last value is kept, as kubectl keeps it.
    DuplicateKey,
    /// A mapping key that is not a string (a list or map used as key): kubectl cannot read the
    /// document ("invalid map key"); it was skipped.
    ComplexKey,
    /// Text kubectl never reads (after a `...` line, up to the next `---`).
    Ignored,
}

impl IssueKind {
    /// Whether the document is left out: kubectl cannot read it either.
    pub fn fails(self) -> bool {
        matches!(
            self,
            IssueKind::Syntax | IssueKind::Limit | IssueKind::ComplexKey
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParseIssue {
    pub kind: IssueKind,
    pub document: usize,
    pub span: Span,
    pub message: String,
}

/// Parses every document of `text`.
pub fn parse_stream(text: &str) -> (Vec<Document>, Vec<ParseIssue>) {
    let mut docs = Vec::new();
    let mut issues = Vec::new();
    let mut b = Builder::default();
    for chunk in split_documents(text) {
        if let Some(u) = chunk.unread {
            // Not a document kubectl reads: reported, not parsed.
            let document = match u.kind {
                IssueKind::Ignored => docs.len().saturating_sub(1),
                _ => {
                    docs.push(Document {
                        index: docs.len(),
                        root: None,
                    });
                    docs.len() - 1
                }
            };
            issues.push(ParseIssue {
                kind: u.kind,
                document,
                span: Span::point(u.at),
                message: u.message,
            });
            continue;
        }
        if is_blank(chunk.text) {
            continue;
        }
        let index = docs.len();
        let (root, mut found) = parse_chunk(
            &mut b,
            chunk.text,
            (chunk.first_line, chunk.first_column),
            index,
            true,
        );
        let failed = found.iter().any(|i| i.kind.fails());
        issues.append(&mut found);
        docs.push(Document {
            index,
            root: if failed { None } else { root },
        });
    }
    (docs, issues)
}

pub(crate) fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || is_marker(t, "---") || is_marker(t, "...")
    })
}

#[cfg(test)]
mod tests;
