//! YAML/JSON stream → span-carrying [`Node`] trees, one per document.
//!
//! The stream is split at `---` / `...` markers first, so one broken document is
//! reported and the others are still parsed. Each piece is read with the
//! `saphyr-parser` event parser (every event carries its start/end position).
//! On top of it this module adds what Kubernetes' decoder does or needs:
//! merge keys (`<<`), duplicate-key detection, a bound on alias expansion
//! (billion laughs) and on nesting depth, and YAML 1.1 scalar typing.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan};

use crate::node::{Entry, Node, Scalar, ScalarKind, Str, Value};
use crate::scalar::resolve_plain;
use crate::source::{Pos, Span};

mod fast;
mod relax;
mod split;

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

/// A collection being built. Its children wait in the builder's shared `items` / `entries`
/// stacks from `base` on, so every finished collection is allocated once, at its length.
struct Frame {
    start: Span,
    anchor: usize,
    base: usize,
    /// `None` for a sequence.
    map: Option<MapFrame>,
}

#[derive(Default)]
struct MapFrame {
    /// The key waiting for its value: text, span, plain (so `<<` is a merge key).
    key: Option<(Str, Span, bool)>,
    merges: Vec<Node>,
    /// Keys seen so far, with their place among the map's entries and their line, once the
    /// map is too big for a linear duplicate check.
    seen: Option<HashMap<Str, (usize, u32)>>,
}

/// Maps with more entries than this check duplicates through a hash map.
const LINEAR_KEY_CHECK: usize = 16;

/// Builds `Node` trees from parse events (saphyr-parser's, or the fast path's in
/// `yaml/fast.rs`) and adds what Kubernetes' decoder does: merge keys, duplicate keys,
/// bounds on alias expansion and depth. Reused across documents: its stacks keep their
/// capacity.
#[derive(Default)]
pub(crate) struct Builder {
    line_offset: u32,
    /// The column the parsed text starts at on its first line (see `split::Chunk`).
    first_column: u32,
    /// Columns each line of the parsed text was moved by [`relax::relax`] (empty: none).
    shifts: Vec<u32>,
    document: usize,
    stack: Vec<Frame>,
    items: Vec<Node>,
    entries: Vec<Entry>,
    anchors: HashMap<usize, Node>,
    expanded: usize,
    root: Option<Node>,
    issues: Vec<ParseIssue>,
}

impl Builder {
    fn reset(&mut self, first_line: u32, document: usize) {
        self.line_offset = first_line - 1;
        self.first_column = 0;
        self.document = document;
        self.stack.clear();
        self.items.clear();
        self.entries.clear();
        self.anchors.clear();
        self.expanded = 0;
        self.root = None;
        self.issues.clear();
    }

    /// A position of saphyr-parser's (1-based line, 0-based column of the parsed text) in the
    /// source.
    fn pos(&self, m: &saphyr_parser::Marker) -> Pos {
        let shift = self.shifts.get(m.line().wrapping_sub(1)).copied();
        let first = if m.line() == 1 { self.first_column } else { 0 };
        Pos {
            line: m.line() as u32 + self.line_offset,
            column: (m.col() as u32 + 1 + first)
                .saturating_sub(shift.unwrap_or(0))
                .max(1),
        }
    }

    fn span(&self, s: &YSpan) -> Span {
        Span {
            start: self.pos(&s.start),
            end: self.pos(&s.end),
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

    /// Hands a finished node to its parent.
    fn push(&mut self, node: Node, anchor: usize, is_plain: bool) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let Some(frame) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return;
        };
        let Some(m) = &mut frame.map else {
            self.items.push(node);
            return;
        };
        let Some((k, key_span, plain)) = m.key.take() else {
            match node.value {
                // A plain key is typed as any scalar (YAML 1.1), then written back as the JSON
                // key kubectl sends: `on:` is "true", `0x10:` is "16".
                Value::Scalar(s) if is_plain && s.kind != ScalarKind::Str => {
                    match crate::scalar::json_key(&s.text, s.kind) {
                        Some(k) => m.key = Some((Str::from(k), node.span, false)),
                        None => {
                            m.key = Some(("<null key>".into(), node.span, false));
                            self.issue(
                                IssueKind::Syntax,
                                node.span,
                                "a null mapping key: kubectl cannot convert the document to JSON (\"unsupported map key\"); the document was skipped".into(),
                            );
                        }
                    }
                }
                Value::Scalar(s) => m.key = Some((s.text, node.span, is_plain)),
                _ => {
                    let span = node.span;
                    m.key = Some(("<complex key>".into(), span, false));
                    self.issue(
                        IssueKind::ComplexKey,
                        span,
                        "a list or map is used as a mapping key; Kubernetes objects only have string keys".into(),
                    );
                }
            }
            return;
        };
        if plain && k == "<<" {
            m.merges.push(node);
            return;
        }
        let base = frame.base;
        let siblings = &self.entries[base..];
        // The entry this key repeats: its place among the siblings and its line.
        let first = if siblings.len() < LINEAR_KEY_CHECK {
            siblings
                .iter()
                .position(|e| e.key == k)
                .map(|i| (i, siblings[i].key_span.start.line))
        } else {
            let seen = m.seen.get_or_insert_with(|| {
                let mut seen = HashMap::with_capacity(siblings.len() * 2);
                for (i, e) in siblings.iter().enumerate() {
                    seen.entry(e.key.clone())
                        .or_insert((i, e.key_span.start.line));
                }
                seen
            });
            match seen.get(&k) {
                Some(&at) => Some(at),
                None => {
                    seen.insert(k.clone(), (siblings.len(), key_span.start.line));
                    None
                }
            }
        };
        let entry = Entry {
            key: k,
            key_span,
            value: node,
        };
        match first {
            // kubectl converts YAML to JSON with go-yaml, whose maps keep the last value of a
            // repeated key (sigs.k8s.io/yaml, non-strict): so does pvlint, and says so.
            // The same value twice changes nothing: not reported.
            Some((i, line)) => {
                let same = crate::node::same_content(&self.entries[base + i].value, &entry.value);
                let message = format!(
                    "key \"{}\" is defined twice: kubectl keeps this value and drops line {line}'s",
                    entry.key
                );
                self.entries[base + i] = entry;
                if !same {
                    self.issue(IssueKind::DuplicateKey, key_span, message);
                }
            }
            None => self.entries.push(entry),
        }
    }

    pub(crate) fn scalar(
        &mut self,
        text: Str,
        kind: ScalarKind,
        span: Span,
        anchor: usize,
        plain: bool,
    ) {
        if plain && kind == ScalarKind::Float && crate::scalar::is_infinite_or_nan(&text) {
            self.issue(
                IssueKind::Syntax,
                span,
                format!("`{text}` is a float JSON cannot hold: kubectl cannot convert the document to JSON (\"json: unsupported value\"); the document was skipped; quote it if it is meant as a string"),
            );
        }
        let node = Node {
            value: Value::Scalar(Scalar { text, kind }),
            span,
        };
        self.push(node, anchor, plain);
    }

    /// Opens a sequence or a mapping. Fails when nesting is too deep.
    pub(crate) fn start(&mut self, map: bool, anchor: usize, span: Span) -> Result<(), ()> {
        if self.stack.len() >= MAX_DEPTH {
            self.issue(
                IssueKind::Limit,
                span,
                format!("nesting is deeper than {MAX_DEPTH} levels; the document was skipped"),
            );
            return Err(());
        }
        let (base, map) = if map {
            (self.entries.len(), Some(MapFrame::default()))
        } else {
            (self.items.len(), None)
        };
        self.stack.push(Frame {
            start: span,
            anchor,
            base,
            map,
        });
        Ok(())
    }

    /// Closes the innermost collection.
    pub(crate) fn end(&mut self, span: Span) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let start = frame.start;
        let value = match frame.map {
            None => {
                let items: Vec<Node> = self.items.drain(frame.base..).collect();
                let end = items.last().map_or(span.end, |n| n.span.end.max(start.end));
                Node {
                    value: Value::Seq(items.into_boxed_slice()),
                    span: Span {
                        start: start.start,
                        end,
                    },
                }
            }
            Some(m) => {
                let end = self.entries[frame.base..]
                    .last()
                    .map_or(span.end, |e| e.value.span.end.max(start.end));
                if !m.merges.is_empty() {
                    self.apply_merges(frame.base, m.merges);
                }
                let entries: Vec<Entry> = self.entries.drain(frame.base..).collect();
                Node {
                    value: Value::Map(entries.into_boxed_slice()),
                    span: Span {
                        start: start.start,
                        end,
                    },
                }
            }
        };
        self.push(value, frame.anchor, false);
    }

    /// `*name`: a copy of the anchored node. Fails past the expansion bound.
    fn alias(&mut self, id: usize, span: Span) -> Result<(), ()> {
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
        Ok(())
    }

    fn on_event(&mut self, ev: Event<'_>, ys: &YSpan) -> Result<(), ()> {
        let span = self.span(ys);
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let plain = style == ScalarStyle::Plain;
                // `!!merge <<: *base` is the merge key spelled out.
                let merge = tag
                    .as_deref()
                    .is_some_and(|t| t.is_yaml_core_schema() && t.suffix == "merge");
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
                let text = match text {
                    Cow::Borrowed(t) => Str::new(t),
                    Cow::Owned(t) => Str::from(t),
                };
                self.scalar(text, kind, span, anchor, plain && (tag.is_none() || merge));
            }
            Event::SequenceStart(anchor, _) => self.start(false, anchor, span)?,
            Event::MappingStart(anchor, _) => self.start(true, anchor, span)?,
            Event::SequenceEnd | Event::MappingEnd => self.end(span),
            Event::Alias(id) => self.alias(id, span)?,
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
    /// The map's own entries are `self.entries[base..]`.
    fn apply_merges(&mut self, base: usize, merges: Vec<Node>) {
        let mut present: HashSet<Str> =
            self.entries[base..].iter().map(|e| e.key.clone()).collect();
        for m in merges {
            let maps: Vec<Node> = match m.value {
                Value::Map(_) => vec![m],
                Value::Seq(items) => items.into_vec(),
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
                        if present.insert(e.key.clone()) {
                            self.entries.push(e);
                        }
                    }
                }
            }
        }
    }
}

/// Parses one document: with the fast path when `fast` and it can, else with saphyr-parser;
/// a document saphyr-parser refuses only for the indentation of its flow content, which
/// kubectl's go-yaml accepts, is read as go-yaml reads it (see [`relax`]).
fn parse_chunk(
    b: &mut Builder,
    text: &str,
    (first_line, first_column): (u32, u32),
    document: usize,
    fast: bool,
) -> (Option<Node>, Vec<ParseIssue>) {
    b.reset(first_line, document);
    // The fast path counts columns from the text's start: only for text that starts a line.
    if fast && first_column == 0 && fast::parse(text, first_line, b).is_ok() && b.root.is_some() {
        return (b.root.take(), std::mem::take(&mut b.issues));
    }
    b.reset(first_line, document);
    b.first_column = first_column;
    let error = run_saphyr(b, text, first_line);
    if error.is_none() {
        check_keys(b, text, first_line);
    }
    let first = (b.root.take(), std::mem::take(&mut b.issues));
    if !error.is_some_and(|e| e.contains("indentation")) {
        return first;
    }
    let Some(relaxed) = relax::relax(text) else {
        return first;
    };
    b.reset(first_line, document);
    b.first_column = first_column;
    b.shifts = relaxed.shifts;
    let error = run_saphyr(b, &relaxed.text, first_line);
    b.shifts = Vec::new();
    match error {
        None => {
            check_keys(b, text, first_line);
            (b.root.take(), std::mem::take(&mut b.issues))
        }
        Some(_) => first,
    }
}

/// A key that spans lines and is followed by `:` (`{a\n b: c}`): saphyr-parser reads it,
/// go-yaml does not ("did not find expected ',' or '}'": a simple key must fit on one line),
/// so kubectl cannot read the document. Marks the document as failed when there is one.
fn check_keys(b: &mut Builder, text: &str, first_line: u32) {
    fn find(node: &Node, text: &str, first_line: u32) -> Option<Pos> {
        match &node.value {
            Value::Map(entries) => entries.iter().find_map(|e| {
                let k = e.key_span;
                if k.start.line != k.end.line {
                    let line = text
                        .lines()
                        .nth((k.end.line - first_line) as usize)
                        .unwrap_or("");
                    let after: String = line.chars().skip(k.end.column as usize - 1).collect();
                    if after.trim_start_matches([' ', '\t']).starts_with(':') {
                        return Some(k.start);
                    }
                }
                find(&e.value, text, first_line)
            }),
            Value::Seq(items) => items.iter().find_map(|n| find(n, text, first_line)),
            Value::Scalar(_) => None,
        }
    }
    let Some(at) = b.root.as_ref().and_then(|r| find(r, text, first_line)) else {
        return;
    };
    b.root = None;
    b.issue(
        IssueKind::Syntax,
        Span::point(at),
        "this key spans more than one line, which kubectl's YAML reader does not allow (\"did not find expected ',' or '}'\"); the document was skipped".into(),
    );
}

/// Parses `text` with saphyr-parser into `b`; the text of the syntax error, if there is one
/// (it is also recorded as an issue).
fn run_saphyr(b: &mut Builder, text: &str, first_line: u32) -> Option<String> {
    let mut parser = Parser::new_from_str(text);
    let mut docs_seen = 0;
    let mut error = None;
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
                // go-yaml reads one document from each piece kubectl splits off and never
                // looks past its root node (trailing text is not read, let alone an error).
                if b.root.is_some() && b.stack.is_empty() {
                    break;
                }
            }
            Err(e) => {
                let mut pos = b.pos(e.marker());
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
                        let shift = b.shifts.get(n).copied().unwrap_or(0);
                        pos = Pos {
                            line: last_line,
                            column: (last.chars().count() as u32 + 1).saturating_sub(shift),
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
                    error = Some(e.info().to_string());
                }
                break;
            }
        }
    }
    // Drop any half-built frames (they are bounded by MAX_DEPTH anyway).
    b.stack.clear();
    b.items.clear();
    b.entries.clear();
    error
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

    /// apimachinery pkg/util/yaml/decoder.go: a stream that starts with `{` is JSON, decoded
    /// value after value (`kubectl ... -o json` on several files prints such a stream).
    #[test]
    fn a_stream_of_json_objects_is_every_object() {
        let text = "{\n  \"a\": \"}{\\\"\",\n  \"b\": [1, {}]\n}\n{\n  \"c\": 3\n}\n  {\"d\": 4}\n";
        let (docs, issues) = parse_stream(text);
        assert_eq!(issues, vec![]);
        assert_eq!(docs.len(), 3);
        let root = |i: usize| docs[i].root.as_ref().unwrap();
        assert_eq!(root(0).get("a").unwrap().as_scalar().unwrap().text, "}{\"");
        let c = root(1).entry("c").unwrap();
        assert_eq!(c.key_span.start, Pos { line: 6, column: 3 });
        assert_eq!(
            root(2).entry("d").unwrap().key_span.start,
            Pos { line: 8, column: 4 }
        );
        // kubectl 1.36 (apimachinery's YAMLOrJSONDecoder): JSON values one after another,
        // wherever they start; after one value a failing one switches the rest to YAML; after
        // two, a failing one ends the file.
        let read = |text: &str| {
            let (docs, issues) = parse_stream(text);
            let objects = docs.iter().filter(|d| d.root.is_some()).count();
            (objects, issues.iter().any(|i| i.kind.fails()))
        };
        assert_eq!(read("{\"a\": 1}{\"b\": 2}\n"), (2, false));
        assert_eq!(read("{\"a\": 1}\n5\n"), (2, false));
        assert_eq!(read("{\"a\": 1\n{\"b\": 2}\n"), (0, true));
        assert_eq!(read("{\"a\": 1}\n---\nb: 2\n"), (2, false));
        assert_eq!(read("{\"a\": 1}\n{\"b\": 2}\n---\nc: 3\n"), (2, true));
        // JSON with comments is no JSON, nor YAML kubectl reads.
        assert_eq!(read("{\n  \"a\": 1, // note\n  \"b\": 2\n}\n"), (0, true));
        assert_eq!(parse_stream("{a: 1}\n---\n{b: 2}\n").0.len(), 2);
    }

    /// Merge keys (plain or tagged `!!merge`), explicit keys over merged ones, and a repeated
    /// key whose last value wins, as kubectl (go-yaml v2, non-strict) reads them.
    #[test]
    fn merge_keys_and_duplicates() {
        let (docs, issues) = parse_stream(
            "base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3\n  q: 4\nt:\n  !!merge <<: *b\n",
        );
        let root = docs[0].root.as_ref().unwrap();
        let m = root.get("m").unwrap();
        assert_eq!(m.get("p").unwrap().as_scalar().unwrap().text, "1");
        assert_eq!(m.get("q").unwrap().as_scalar().unwrap().text, "4");
        assert_eq!(root.at("t.q").unwrap().as_scalar().unwrap().text, "2");
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].kind, IssueKind::DuplicateKey);
        assert!(!issues[0].kind.fails());
        assert_eq!(issues[0].span.start.line, 5);
    }

    /// A key written twice with the same value changes nothing: no issue.
    #[test]
    fn a_repeated_key_with_the_same_value_is_no_issue() {
        let (docs, issues) = parse_stream("a: 1\nb: {x: [1, 2]}\na: 1\nb:\n  x: [1, 2]\n");
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(
            docs[0]
                .root
                .as_ref()
                .unwrap()
                .get("a")
                .unwrap()
                .as_scalar()
                .unwrap()
                .text,
            "1"
        );
        let (_, issues) = parse_stream("a: 1\na: \"1\"\n");
        assert_eq!(issues.len(), 1, "an int and a string differ");
    }

    /// Plain keys are typed as values are, and written as kubectl writes them into JSON.
    #[test]
    fn typed_keys_become_kubectls_json_keys() {
        // `on` and `y` are both the key "true": the second replaces the first.
        let (docs, issues) = parse_stream("on: a\ny: b\n0x10: c\n\"on\": d\n");
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].kind, IssueKind::DuplicateKey);
        let root = docs[0].root.as_ref().unwrap();
        let keys: Vec<&str> = root
            .as_map()
            .unwrap()
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        assert_eq!(keys, ["true", "16", "on"]);
        assert_eq!(root.get("true").unwrap().as_str(), Some("b"));
        let (docs, _) = parse_stream("~: a\n");
        assert!(docs[0].root.is_none());
        let (docs, issues) = parse_stream("a: .inf\n");
        assert!(docs[0].root.is_none() && issues[0].kind.fails());
        assert!(parse_stream("a: '.inf'\n").1.is_empty());
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

    /// Runs the fast path alone on every document of `text`; where it accepts one, the
    /// result must be exactly saphyr-parser's. Returns (documents accepted, documents).
    fn fast_vs_saphyr(text: &str) -> (usize, usize) {
        let (mut fast_b, mut slow_b) = (Builder::default(), Builder::default());
        let (mut accepted, mut total) = (0, 0);
        for (i, chunk) in split_documents(text).iter().enumerate() {
            if is_blank(chunk.text) {
                continue;
            }
            // The fast path only reads text that starts a line (see `parse_chunk`).
            if chunk.first_column != 0 {
                continue;
            }
            total += 1;
            fast_b.reset(chunk.first_line, i);
            if fast::parse(chunk.text, chunk.first_line, &mut fast_b).is_err() {
                continue;
            }
            accepted += 1;
            let slow = parse_chunk(
                &mut slow_b,
                chunk.text,
                (chunk.first_line, chunk.first_column),
                i,
                false,
            );
            if (&fast_b.root, &fast_b.issues) != (&slow.0, &slow.1) {
                let f = format!("{:#?}", (&fast_b.root, &fast_b.issues));
                let s = format!("{:#?}", (&slow.0, &slow.1));
                let at = f.lines().zip(s.lines()).take_while(|(a, b)| a == b).count();
                let ctx = |t: &str| {
                    t.lines()
                        .skip(at.saturating_sub(12))
                        .take(16)
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                panic!(
                    "fast path differs from saphyr-parser on:\n{}\n--- fast:\n{}\n--- saphyr:\n{}",
                    chunk.text,
                    ctx(&f),
                    ctx(&s)
                );
            }
        }
        (accepted, total)
    }

    fn inputs() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in [root.join("tests/fixtures"), root.join("../examples")] {
            for sub in std::fs::read_dir(dir).unwrap() {
                let sub = sub.unwrap().path();
                if sub.is_dir() {
                    for f in std::fs::read_dir(sub).unwrap() {
                        files.push(f.unwrap().path());
                    }
                }
            }
        }
        files.sort();
        let mut texts: Vec<String> = files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "yaml" || e == "json"))
            .map(|f| std::fs::read_to_string(f).unwrap())
            .collect();
        texts.push(SHAPES.to_string());
        // Every document again as JSON: pretty (2 and 4 spaces) and on one line.
        let mut json = Vec::new();
        for t in &texts {
            for d in parse_stream(t).0 {
                let Some(root) = d.root else { continue };
                let v = to_json(&root);
                let pretty = serde_json::to_string_pretty(&v).unwrap();
                let wide: String = pretty
                    .lines()
                    .map(|l| {
                        let n = l.len() - l.trim_start().len();
                        format!("{}{}\n", " ".repeat(2 * n), l.trim_start())
                    })
                    .collect();
                json.push(format!("{pretty}\n"));
                json.push(wide);
                json.push(v.to_string());
            }
        }
        texts.extend(json);
        // The same with CRLF line breaks.
        let crlf: Vec<String> = texts.iter().map(|t| t.replace('\n', "\r\n")).collect();
        texts.extend(crlf);
        texts
    }

    fn to_json(n: &Node) -> serde_json::Value {
        use serde_json::Value as J;
        match &n.value {
            Value::Scalar(s) => match s.kind {
                ScalarKind::Null => J::Null,
                ScalarKind::Bool(b) => J::Bool(b),
                ScalarKind::Int | ScalarKind::Float => s
                    .text
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map_or_else(|| J::String(s.text.to_string()), J::Number),
                ScalarKind::Str => J::String(s.text.to_string()),
            },
            Value::Seq(items) => J::Array(items.iter().map(to_json).collect()),
            Value::Map(es) => J::Object(
                es.iter()
                    .map(|e| (e.key.to_string(), to_json(&e.value)))
                    .collect(),
            ),
        }
    }

    /// Shapes the fast path reads, and near misses it must leave alone.
    const SHAPES: &str = "a: 1\nb:\n  c: x y  \n  d: [p, q]\n  e: {f: g, h: i}\n  j:\n  - k\n  - l: m\n    n: o\n  p:\nq: \"s\"\nr: []\ns: {}\n---\n# c\na:   # hi\n  - \n  -\n    b: 1\n  - - x\n    - y\nc: http://x:80/a#b # c\n\"d e\": 'it''s'\n---\n- a\n- b:\n- c: {x: [1, {y: z}]}\n-\n---\n{\"a\":1, \"b\": [\"c\", \"d\\\"e\"]}\n---\nk: -1\nl: -.5\nm: ~\nn: 0x1F\no: yes\np: \"yes\"\nq: 1e3\nr: a:b\ns: é ü\nt: [é, {ü: ö}]\n<<: {u: 1}\nu: 2\nv: 1\nv: 2\n---\n  a: 1\n  b:\n  - 2\n---\nplain scalar\n---\n[1, 2]\n---\n\"q\"\n";

    #[test]
    fn fast_path_matches_saphyr() {
        let mut accepted = 0;
        let mut total = 0;
        for t in inputs() {
            let (a, n) = fast_vs_saphyr(&t);
            accepted += a;
            total += n;
        }
        // Nearly every real manifest takes the fast path.
        assert!(
            accepted * 10 >= total * 9,
            "{accepted} of {total} documents"
        );
    }

    /// xorshift64*: deterministic, no dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    const INSERTS: &[&str] = &[
        ":", ": ", " :", "[", "]", "{", "}", ",", ", ", "&a ", "*a", "!!str ", "- ", "-", "-1",
        "\t", "\"", "'", "''", "\\", "\\n", "\\u00e9", "#", " #", " # c", "? ", "|", ">", "%", "@",
        "`", "\r", "é", "\u{85}", "\u{feff}", "\u{2028}", " ", "  ", "\n", "\n  ", "\n- ", "---",
        "...", "<<: ", "~", "null", "yes", "0x", "a", "a: b", "{a: b}", "[a]", "{}", "[]",
    ];

    fn mutate(text: &str, rng: &mut Rng) -> String {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        for _ in 0..1 + rng.below(3) {
            if lines.is_empty() {
                break;
            }
            let i = rng.below(lines.len());
            match rng.below(9) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2..=4 => {
                    let ins = INSERTS[rng.below(INSERTS.len())];
                    let l = &mut lines[i];
                    let cut = l
                        .char_indices()
                        .map(|(b, _)| b)
                        .nth(rng.below(l.chars().count() + 1))
                        .unwrap_or(l.len());
                    l.insert_str(cut, ins);
                }
                5 => lines[i] = format!("{}{}", " ".repeat(1 + rng.below(3)), lines[i]),
                6 => {
                    let n = lines[i].len() - lines[i].trim_start_matches(' ').len();
                    let cut = n.min(1 + rng.below(3));
                    lines[i] = lines[i][cut..].to_string();
                }
                7 => {
                    // Delete one character.
                    let l = &mut lines[i];
                    if let Some((b, _)) = l.char_indices().nth(rng.below(l.chars().count() + 1)) {
                        l.remove(b);
                    }
                }
                _ => {
                    let j = rng.below(lines.len());
                    lines.swap(i, j);
                }
            }
        }
        let mut out = lines.join("\n");
        if rng.below(2) == 0 {
            out.push('\n');
        }
        out
    }

    /// `PVLINT_FUZZ_ROUNDS` and `PVLINT_FUZZ_SEED` run it longer or elsewhere.
    #[test]
    fn fast_path_matches_saphyr_on_mutations() {
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let rounds = env("PVLINT_FUZZ_ROUNDS", 30_000) as usize;
        let texts = inputs();
        let mut rng = Rng(env("PVLINT_FUZZ_SEED", 0x9E37_79B9_7F4A_7C15) | 1);
        let mut accepted = 0;
        for round in 0..rounds {
            let base = &texts[round % texts.len()];
            let mut m = mutate(base, &mut rng);
            if rng.below(4) == 0 {
                m = mutate(&m, &mut rng);
            }
            accepted += fast_vs_saphyr(&m).0;
        }
        assert!(accepted * 3 > rounds, "{accepted} of {rounds}");
    }

    /// Random documents from YAML-ish pieces: structures the fixtures do not have.
    #[test]
    fn fast_path_matches_saphyr_on_random_documents() {
        const PIECES: &[&str] = &[
            "a",
            "b",
            "key",
            "<<",
            "1",
            "-1",
            "yes",
            "~",
            "x y",
            "a:b",
            "http://h/p#f",
            "é",
            ": ",
            ":",
            " ",
            "  ",
            "- ",
            "-",
            "[",
            "]",
            "{",
            "}",
            ", ",
            ",",
            "\"q\"",
            "\"\"",
            "'s'",
            "'it''s'",
            "\"e\\\"x\"",
            " # c",
            "#",
            "{a: b}",
            "[a, b]",
            "{}",
            "[]",
            "&x ",
            "*x",
            "!!str ",
            "|",
            "? ",
            "\t",
        ];
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let rounds = env("PVLINT_FUZZ_ROUNDS", 30_000) as usize;
        let mut rng = Rng(env("PVLINT_FUZZ_SEED", 0x2545_F491_4F6C_DD1D) | 1);
        let mut accepted = 0;
        const KEYS: &[&str] = &["a", "b", "c", "<<", "\"q\"", "'s'", "k k", "a"];
        const VALUES: &[&str] = &[
            "",
            "",
            "1",
            "x",
            "yes",
            "~",
            "\"v\"",
            "'w'",
            "[]",
            "{}",
            "[1, [2]]",
            "{p: q, r: [s]}",
            "{\"j\":1}",
            "a b ",
            "-2",
            "-",
            "x: y",
            "[a,",
            "{<<: {z: 1}}",
        ];
        for round in 0..rounds {
            let mut doc = String::new();
            let mut indent = 0usize;
            for _ in 0..1 + rng.below(8) {
                if round % 2 == 0 {
                    doc.push_str(&" ".repeat(rng.below(4) * 2 + rng.below(2) * rng.below(2)));
                    for _ in 0..1 + rng.below(4) {
                        doc.push_str(PIECES[rng.below(PIECES.len())]);
                    }
                } else {
                    // indentation near the last line's, dashes, a key, a value, a comment
                    indent = match rng.below(6) {
                        0 => indent.saturating_sub(2),
                        1 => indent + 2,
                        2 => indent.saturating_sub(1 + rng.below(4)),
                        _ => indent,
                    };
                    doc.push_str(&" ".repeat(indent));
                    for _ in 0..rng.below(3) {
                        doc.push_str(["- ", "-  ", "-"][rng.below(3)]);
                    }
                    if rng.below(3) > 0 {
                        doc.push_str(KEYS[rng.below(KEYS.len())]);
                        doc.push_str([": ", ":", ":  "][rng.below(3)]);
                    }
                    doc.push_str(VALUES[rng.below(VALUES.len())]);
                    if rng.below(5) == 0 {
                        doc.push_str(["  # c", " #", "#"][rng.below(3)]);
                    }
                }
                doc.push_str(if rng.below(5) == 0 { "\r\n" } else { "\n" });
            }
            accepted += fast_vs_saphyr(&doc).0;
        }
        assert!(accepted * 20 > rounds, "{accepted} of {rounds}");
    }

    /// Positions on very long lines (columns in characters) cost linear time.
    #[test]
    fn long_non_ascii_lines_are_linear() {
        let items = vec!["é"; 200_000].join(", ");
        let (docs, issues) = parse_stream(&format!("a: [{items}]\nb: c\n"));
        assert!(issues.is_empty());
        let root = docs[0].root.as_ref().unwrap();
        let last = root.get("a").unwrap().as_seq().unwrap().last().unwrap();
        assert_eq!(last.span.start.column, 5 + 3 * 199_999);
        assert_eq!(root.entry("b").unwrap().key_span.start.line, 2);
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
