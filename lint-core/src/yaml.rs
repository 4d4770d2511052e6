//! YAML/JSON stream → span-carrying [`Node`] trees, one per document.
//!
//! The stream is split at `---` / `...` markers first, so one broken document is
//! reported and the others are still parsed. Each piece is read with the
//! `saphyr-parser` event parser (every event carries its start/end position).
//! On top of it this module adds what Kubernetes' decoder does or needs:
//! merge keys (`<<`), duplicate-key detection, a bound on alias expansion
//! (billion laughs) and on nesting depth, and YAML 1.1 scalar typing.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan};

use crate::node::{resolve_plain, Entry, Node, Scalar, ScalarKind, Value};
use crate::source::{Pos, Span};

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
    /// A key appears twice in one mapping; the first value is kept.
    DuplicateKey,
    /// A mapping key that is not a string (a list or map used as key).
    ComplexKey,
}

#[derive(Debug, Clone)]
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
    for chunk in split_documents(text) {
        if is_blank(chunk.text) {
            continue;
        }
        let index = docs.len();
        let (root, mut found) = parse_chunk(chunk.text, chunk.first_line, index);
        let failed = found
            .iter()
            .any(|i| matches!(i.kind, IssueKind::Syntax | IssueKind::Limit));
        issues.append(&mut found);
        docs.push(Document {
            index,
            root: if failed { None } else { root },
        });
    }
    (docs, issues)
}

pub(crate) struct Chunk<'a> {
    pub(crate) text: &'a str,
    pub(crate) first_line: u32,
}

pub(crate) fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

pub(crate) fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || is_marker(t, "---") || is_marker(t, "...")
    })
}

/// Splits a stream at document markers. A `---` line starts a new piece (the marker
/// stays with it: it may carry content such as `--- {a: 1}`); a `...` line ends one.
/// Per the YAML spec these markers at column 0 always delimit documents, even inside
/// multi-line scalars, so splitting here never changes the meaning of valid input.
pub(crate) fn split_documents(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut only_directives = true;
    let mut offset = 0usize;
    for (line_no, line) in (1u32..).zip(text.split_inclusive('\n')) {
        let content = line.trim_end_matches(['\n', '\r']);
        if is_marker(content, "---") {
            if !only_directives && offset > start {
                chunks.push(Chunk {
                    text: &text[start..offset],
                    first_line: start_line,
                });
                start = offset;
                start_line = line_no;
            }
            only_directives = false;
        } else if is_marker(content, "...") {
            let end = offset + line.len();
            chunks.push(Chunk {
                text: &text[start..end],
                first_line: start_line,
            });
            start = end;
            start_line = line_no + 1;
            only_directives = true;
        } else {
            let t = content.trim();
            if !(t.is_empty() || t.starts_with('#') || t.starts_with('%')) {
                only_directives = false;
            }
        }
        offset += line.len();
    }
    if start < text.len() {
        chunks.push(Chunk {
            text: &text[start..],
            first_line: start_line,
        });
    }
    chunks
}

enum Frame {
    Seq {
        start: Span,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: Span,
        anchor: usize,
        entries: Vec<Entry>,
        merges: Vec<Node>,
        key: Option<(String, Span, bool)>,
    },
}

struct Builder {
    line_offset: u32,
    document: usize,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    expanded: usize,
    root: Option<Node>,
    issues: Vec<ParseIssue>,
}

impl Builder {
    fn span(&self, s: &YSpan) -> Span {
        let conv = |m: &saphyr_parser::Marker| Pos {
            line: m.line() as u32 + self.line_offset,
            column: m.col() as u32 + 1,
        };
        Span {
            start: conv(&s.start),
            end: conv(&s.end),
        }
    }

    fn issue(&mut self, kind: IssueKind, span: Span, message: String) {
        self.issues.push(ParseIssue {
            kind,
            document: self.document,
            span,
            message,
        });
    }

    /// Hands a finished node to its parent. Returns false when a limit was hit.
    fn push(&mut self, node: Node, anchor: usize, is_plain: bool) -> bool {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                merges,
                key,
                ..
            }) => match key.take() {
                None => {
                    let (text, plain) = match &node.value {
                        Value::Scalar(s) => (s.text.clone(), is_plain),
                        _ => {
                            let span = node.span;
                            *key = Some(("<complex key>".into(), span, false));
                            self.issue(
                                IssueKind::ComplexKey,
                                span,
                                "a list or map is used as a mapping key; Kubernetes objects only have string keys".into(),
                            );
                            return true;
                        }
                    };
                    *key = Some((text, node.span, plain));
                }
                Some((k, key_span, plain)) => {
                    if plain && k == "<<" {
                        merges.push(node);
                    } else if let Some(prev) = entries.iter().find(|e| e.key == k) {
                        let first = prev.key_span.start.line;
                        self.issue(
                            IssueKind::DuplicateKey,
                            key_span,
                            format!(
                                "mapping key \"{k}\" already defined at line {first}: kubectl rejects the document; remove one of them"
                            ),
                        );
                    } else {
                        entries.push(Entry {
                            key: k,
                            key_span,
                            value: node,
                        });
                    }
                }
            },
        }
        true
    }

    fn on_event(&mut self, ev: Event<'_>, ys: &YSpan) -> Result<(), ()> {
        let span = self.span(ys);
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let plain = style == ScalarStyle::Plain;
                let kind = match tag.as_deref() {
                    Some(t) if t.is_yaml_core_schema() => match t.suffix.as_str() {
                        "str" => ScalarKind::Str,
                        "int" => ScalarKind::Int,
                        "float" => ScalarKind::Float,
                        "null" => ScalarKind::Null,
                        "bool" => resolve_plain(&text),
                        _ => ScalarKind::Str,
                    },
                    Some(_) => ScalarKind::Str,
                    None if plain => resolve_plain(&text),
                    None => ScalarKind::Str,
                };
                let node = Node {
                    value: Value::Scalar(Scalar {
                        text: text.into_owned(),
                        kind,
                    }),
                    span,
                };
                self.push(node, anchor, plain && tag.is_none());
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    self.issue(
                        IssueKind::Limit,
                        span,
                        format!(
                            "nesting is deeper than {MAX_DEPTH} levels; the document was skipped"
                        ),
                    );
                    return Err(());
                }
                let frame = if matches!(ev, Event::SequenceStart(..)) {
                    Frame::Seq {
                        start: span,
                        anchor,
                        items: Vec::new(),
                    }
                } else {
                    Frame::Map {
                        start: span,
                        anchor,
                        entries: Vec::new(),
                        merges: Vec::new(),
                        key: None,
                    }
                };
                self.stack.push(frame);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let (node, anchor) = match frame {
                    Frame::Seq {
                        start,
                        anchor,
                        items,
                    } => {
                        let end = items.last().map_or(span.end, |n| n.span.end.max(start.end));
                        (
                            Node {
                                value: Value::Seq(items),
                                span: Span {
                                    start: start.start,
                                    end,
                                },
                            },
                            anchor,
                        )
                    }
                    Frame::Map {
                        start,
                        anchor,
                        mut entries,
                        merges,
                        ..
                    } => {
                        let end = entries
                            .last()
                            .map_or(span.end, |e| e.value.span.end.max(start.end));
                        self.apply_merges(&mut entries, merges);
                        (
                            Node {
                                value: Value::Map(entries),
                                span: Span {
                                    start: start.start,
                                    end,
                                },
                            },
                            anchor,
                        )
                    }
                };
                self.push(node, anchor, false);
            }
            Event::Alias(id) => {
                let Some(target) = self.anchors.get(&id) else {
                    self.issue(IssueKind::Syntax, span, "alias to an unknown anchor".into());
                    return Err(());
                };
                self.expanded += target.size();
                if self.expanded > ALIAS_EXPANSION_LIMIT {
                    self.issue(
                        IssueKind::Limit,
                        span,
                        format!(
                            "document contains excessive aliasing (more than {ALIAS_EXPANSION_LIMIT} nodes after expanding aliases); the document was skipped: kubectl refuses it too"
                        ),
                    );
                    return Err(());
                }
                let node = target.clone();
                self.push(node, 0, false);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd => {}
        }
        Ok(())
    }

    /// `<<: *base` / `<<: [*a, *b]`: keys not set explicitly come from the merged maps,
    /// earlier maps first (YAML 1.1 merge-key semantics, as go-yaml implements them).
    fn apply_merges(&mut self, entries: &mut Vec<Entry>, merges: Vec<Node>) {
        for m in merges {
            let maps: Vec<Node> = match m.value {
                Value::Map(_) => vec![m],
                Value::Seq(items) => items,
                Value::Scalar(_) => {
                    self.issue(
                        IssueKind::Syntax,
                        m.span,
                        "the merge key `<<` needs a map or a list of maps".into(),
                    );
                    continue;
                }
            };
            for map in maps {
                if let Value::Map(es) = map.value {
                    for e in es {
                        if !entries.iter().any(|x| x.key == e.key) {
                            entries.push(e);
                        }
                    }
                }
            }
        }
    }
}

fn parse_chunk(text: &str, first_line: u32, document: usize) -> (Option<Node>, Vec<ParseIssue>) {
    let mut b = Builder {
        line_offset: first_line - 1,
        document,
        stack: Vec::new(),
        anchors: HashMap::new(),
        expanded: 0,
        root: None,
        issues: Vec::new(),
    };
    let mut parser = Parser::new_from_str(text);
    let mut docs_seen = 0;
    while let Some(res) = parser.next_event() {
        match res {
            Ok((ev, span)) => {
                if matches!(ev, Event::DocumentStart(_)) {
                    docs_seen += 1;
                    if docs_seen > 1 {
                        // Cannot happen after splitting, but never merge two documents.
                        break;
                    }
                }
                if b.on_event(ev, &span).is_err() {
                    break;
                }
            }
            Err(e) => {
                let m = e.marker();
                let mut pos = Pos {
                    line: m.line() as u32 + b.line_offset,
                    column: m.col() as u32 + 1,
                };
                // An error at the end of this document's text (an unclosed bracket, say) is
                // reported on its last line, not on the next document's `---`.
                if let Some((n, last)) = text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .last()
                {
                    let last_line = first_line + n as u32;
                    if pos.line > last_line {
                        pos = Pos {
                            line: last_line,
                            column: last.chars().count() as u32 + 1,
                        };
                    }
                }
                if e.info().contains("recursion limit") {
                    b.issue(
                        IssueKind::Limit,
                        Span::point(pos),
                        "nesting is too deep (the YAML parser's recursion limit); the document was skipped".into(),
                    );
                } else {
                    b.issue(
                        IssueKind::Syntax,
                        Span::point(pos),
                        format!("{}; the document was skipped", e.info()),
                    );
                }
                break;
            }
        }
    }
    // Drop any half-built frames iteratively (they are bounded by MAX_DEPTH anyway).
    b.stack.clear();
    (b.root, b.issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_keeps_lines() {
        let (docs, issues) = parse_stream("a: 1\n---\nb: [2\n---\n# only a comment\n---\nc: 3\n");
        assert_eq!(docs.len(), 3);
        assert!(docs[0].root.is_some());
        assert!(docs[1].root.is_none());
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].kind, IssueKind::Syntax);
        assert_eq!(issues[0].document, 1);
        let c = docs[2].root.as_ref().unwrap().entry("c").unwrap();
        assert_eq!(c.key_span.start, Pos { line: 7, column: 1 });
        assert_eq!(c.value.span.start, Pos { line: 7, column: 4 });
    }

    #[test]
    fn merge_keys_and_duplicates() {
        let (docs, issues) = parse_stream("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  y: 4\n");
        let m = docs[0].root.as_ref().unwrap().get("m").unwrap();
        assert_eq!(m.get("x").unwrap().as_scalar().unwrap().text, "1");
        assert_eq!(m.get("y").unwrap().as_scalar().unwrap().text, "3");
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].kind, IssueKind::DuplicateKey);
        assert_eq!(issues[0].span.start.line, 5);
    }

    #[test]
    fn billion_laughs_is_bounded() {
        let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for c in 'b'..='j' {
            s.push_str(&format!(
                "{c}: &{c} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            ));
            prev = c;
        }
        let (docs, issues) = parse_stream(&s);
        assert!(docs[0].root.is_none());
        assert_eq!(issues[0].kind, IssueKind::Limit);
    }

    #[test]
    fn deep_nesting_is_refused() {
        for s in [
            "[".repeat(10_000) + &"]".repeat(10_000),
            "a:\n".to_string() + &"- ".repeat(5_000) + "x\n",
        ] {
            let (docs, issues) = parse_stream(&s);
            assert!(docs[0].root.is_none());
            assert_eq!(issues[0].kind, IssueKind::Limit, "{}", issues[0].message);
        }
        // Unclosed: still an error, never a crash.
        let (docs, issues) = parse_stream(&"{".repeat(100_000));
        assert!(docs[0].root.is_none());
        assert!(!issues.is_empty());
    }

    #[test]
    fn json_with_tabs() {
        let (docs, issues) = parse_stream("{\n\t\"kind\": \"PersistentVolume\",\n\t\"n\": 1\n}\n");
        assert!(issues.is_empty());
        let root = docs[0].root.as_ref().unwrap();
        assert_eq!(root.get("kind").unwrap().as_str(), Some("PersistentVolume"));
        assert_eq!(
            root.get("n").unwrap().as_scalar().unwrap().kind,
            ScalarKind::Int
        );
    }

    #[test]
    fn quoted_values_are_strings() {
        let (docs, _) = parse_stream("a: \"yes\"\nb: yes\nc: !!str 5\n");
        let r = docs[0].root.as_ref().unwrap();
        assert_eq!(r.get("a").unwrap().as_str(), Some("yes"));
        assert_eq!(r.get("b").unwrap().as_str(), None);
        assert_eq!(r.get("c").unwrap().as_str(), Some("5"));
    }
}
