//! Builds [`Node`] trees from parse events (saphyr-parser's, or the fast path's in
//! `fast.rs`), with what Kubernetes' decoder adds: merge keys, duplicate keys, bounds on
//! alias expansion and depth; and parses one document with the fast path, saphyr-parser, or
//! go-yaml's lenient flow indentation ([`super::relax`]).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan};

use super::{fast, relax, IssueKind, ParseIssue, ALIAS_EXPANSION_LIMIT, MAX_DEPTH};
use crate::node::{Entry, Node, Scalar, ScalarKind, Value};
use crate::scalar::resolve_plain;
use crate::source::{Pos, Span};
use crate::string::Str;

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
    pub(super) root: Option<Node>,
    pub(super) issues: Vec<ParseIssue>,
}

impl Builder {
    pub(super) fn reset(&mut self, first_line: u32, document: usize) {
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
pub(super) fn parse_chunk(
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
    // A plain scalar as the whole document that runs on to a `:` (a shell prompt pasted
    // above `kubectl get -o yaml` output: `$ kubectl get pvc -o yaml` + `apiVersion: v1`):
    // go-yaml's scanner finds the `:` where no key may start and fails ("mapping values are
    // not allowed in this context"); saphyr-parser ends the document at the scalar.
    if let Some(Node {
        value: Value::Scalar(_),
        span,
    }) = &b.root
    {
        let line = text
            .lines()
            .nth(span.end.line.saturating_sub(first_line) as usize)
            .unwrap_or("");
        let after: String = line
            .chars()
            .skip(span.end.column.saturating_sub(1) as usize)
            .collect();
        if after.trim_start_matches([' ', '\t']).starts_with(':') {
            let at = Pos {
                line: span.end.line,
                column: span.end.column
                    + (after.len() - after.trim_start_matches([' ', '\t']).len()) as u32,
            };
            b.root = None;
            b.issue(
                IssueKind::Syntax,
                Span::point(at),
                "mapping values are not allowed in this context; the document was skipped".into(),
            );
            return;
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
