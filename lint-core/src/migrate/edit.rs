//! The changes applied to the original text (comments and order kept), or to the tree of a
//! flow-style document.

use super::plan::{node_at, Action, Seg};
use super::split::indent;
use crate::node::{Entry, Node, Scalar, ScalarKind, Value};
use crate::source::Pos;
use crate::yaml::write::string as format_str;

/// A text's lines, for turning positions into byte offsets.
pub(super) struct Lines<'a> {
    pub(super) text: &'a str,
    pub(super) starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    pub(super) fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// The 1-based line, without its line break.
    pub(super) fn line(&self, n: u32) -> &'a str {
        let Some(&start) = self.starts.get(n as usize - 1) else {
            return "";
        };
        let end = self
            .starts
            .get(n as usize)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset where a 1-based line starts (the text's length past the end).
    pub(super) fn line_start(&self, n: u32) -> usize {
        self.starts
            .get(n as usize - 1)
            .copied()
            .unwrap_or(self.text.len())
    }

    pub(super) fn offset(&self, p: Pos) -> usize {
        let start = self.line_start(p.line);
        let line = &self.text[start..];
        line.char_indices()
            .nth(p.column as usize - 1)
            .map_or(self.text.len(), |(i, _)| start + i)
    }

    pub(super) fn char_at(&self, p: Pos) -> Option<char> {
        self.text[self.offset(p)..].chars().next()
    }

    /// The lines of a block sequence item whose content starts at `start` and whose next
    /// sibling starts on line `next`, de-indented to a document of its own.
    pub(super) fn cut_item(&self, start: Pos, next: u32) -> String {
        let first = self.line(start.line);
        let content_col = start.column as usize - 1;
        let mut out: Vec<String> = vec![first.chars().skip(content_col).collect()];
        let mut n = start.line + 1;
        while n <= self.count() && n < next {
            let l = self.line(n);
            let t = l.trim();
            // The item ends at the first line of content left of its own (the next `-`, or the
            // List's next key); blank and comment lines belong to it wherever they start.
            if !t.is_empty() && !t.starts_with('#') && indent(l) < content_col {
                break;
            }
            let strip = indent(l).min(content_col);
            out.push(l[strip..].to_string());
            n += 1;
        }
        while out.last().is_some_and(|l| l.trim().is_empty()) {
            out.pop();
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }
}

/// Edits the text in place; None when an edit touches flow-style YAML or a multi-line scalar.
pub(super) fn apply_text(text: &str, root: &Node, actions: &[Action]) -> Option<String> {
    let lines = Lines::new(text);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for a in actions {
        match a {
            Action::Remove(p) => {
                let (parent, key) = p.split_at(p.len() - 1);
                let Seg::Key(key) = &key[0] else { return None };
                let pnode = node_at(root, parent)?;
                if lines.char_at(pnode.span.start) == Some('{') {
                    return None;
                }
                let entry = pnode.entry(key)?;
                let (first, last) = entry_lines(&lines, entry)?;
                edits.push((
                    lines.line_start(first),
                    lines.line_start(last + 1),
                    String::new(),
                ));
            }
            Action::Set(p, to) => {
                let n = node_at(root, p)?;
                if n.span.start.line != n.span.end.line || n.as_scalar().is_none() {
                    return None;
                }
                let (a, b) = (lines.offset(n.span.start), lines.offset(n.span.end));
                let quote = text[a..].chars().next();
                let new = match quote {
                    Some('"') => serde_json::to_string(to).ok()?,
                    Some('\'') => format!("'{}'", to.replace('\'', "''")),
                    _ => format_str(to),
                };
                edits.push((a, b, new));
            }
            Action::Insert {
                map,
                after,
                key,
                value,
            } => {
                let m = node_at(root, map)?;
                if lines.char_at(m.span.start) == Some('{') {
                    return None;
                }
                let entry = m.entry(after)?;
                let (first, last) = entry_lines(&lines, entry)?;
                let ind = indent(lines.line(first));
                let at = lines.line_start(last + 1);
                let mut line = format!(
                    "{}{}: {}\n",
                    " ".repeat(ind),
                    format_str(key),
                    format_str(value)
                );
                if at == text.len() && !text.ends_with('\n') {
                    line.insert(0, '\n');
                }
                edits.push((at, at, line));
            }
        }
    }
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    for w in edits.windows(2) {
        // Sorted from the end: the later edit must start at or after the earlier one's end.
        if w[1].1 > w[0].0 && !(w[1].0 == w[1].1 && w[1].0 == w[0].0) {
            return None;
        }
    }
    let mut out = text.to_string();
    for (a, b, s) in edits {
        out.replace_range(a..b, &s);
    }
    Some(out)
}

/// The lines a block-map entry spans: its key's line to the last line of its value
/// (more-indented lines, and `- ` items at the key's own indentation, kubectl's style).
pub(super) fn entry_lines(lines: &Lines, e: &Entry) -> Option<(u32, u32)> {
    let first = e.key_span.start.line;
    let l = lines.line(first);
    let key_indent = e.key_span.start.column as usize - 1;
    // The key must start its line (not `- key:` or `{key: ...}`).
    if indent(l) != key_indent || l.len() < key_indent {
        return None;
    }
    let mut last = first;
    let mut n = first + 1;
    while n <= lines.count() {
        let t = lines.line(n);
        if t.trim().is_empty() {
            n += 1;
            continue;
        }
        let i = indent(t);
        let item = i == key_indent && (t[i..].starts_with("- ") || &t[i..] == "-");
        if i > key_indent || item {
            last = n;
            n += 1;
        } else {
            break;
        }
    }
    // The value must not run past what the parser saw (a flow collection closing later).
    let end = e.value.span.end;
    if end.line > last
        && !(end.column == 1 && end.line == last + 1)
        && !value_ends_by(lines, e, last)
    {
        return None;
    }
    Some((first, last))
}

/// A block scalar's span ends at the next token; everything up to `last` is still its own.
pub(super) fn value_ends_by(lines: &Lines, e: &Entry, last: u32) -> bool {
    let end = e.value.span.end;
    (last + 1..end.line).all(|n| lines.line(n).trim().is_empty())
        && lines
            .line(end.line)
            .chars()
            .take(end.column as usize - 1)
            .all(|c| c == ' ')
}

pub(super) fn apply_tree(root: &mut Node, a: &Action) {
    pub(super) fn at_mut<'a>(n: &'a mut Node, p: &[Seg]) -> Option<&'a mut Node> {
        p.iter().try_fold(n, |n, seg| match (seg, &mut n.value) {
            (Seg::Key(k), Value::Map(m)) => {
                m.iter_mut().find(|e| &e.key == k).map(|e| &mut e.value)
            }
            (Seg::Index(i), Value::Seq(s)) => s.get_mut(*i),
            _ => None,
        })
    }
    match a {
        Action::Remove(p) => {
            let (parent, key) = p.split_at(p.len() - 1);
            if let (Some(n), Seg::Key(k)) = (at_mut(root, parent), &key[0]) {
                if let Value::Map(m) = &mut n.value {
                    let mut v = std::mem::take(m).into_vec();
                    v.retain(|e| &e.key != k);
                    *m = v.into_boxed_slice();
                }
            }
        }
        Action::Set(p, to) => {
            if let Some(n) = at_mut(root, p) {
                n.value = Value::Scalar(Scalar {
                    text: to.clone().into(),
                    kind: ScalarKind::Str,
                });
            }
        }
        Action::Insert {
            map,
            after,
            key,
            value,
        } => {
            if let Some(Node {
                value: Value::Map(m),
                span,
            }) = at_mut(root, map)
            {
                let at = m
                    .iter()
                    .position(|e| &e.key == after)
                    .map_or(m.len(), |i| i + 1);
                let span = *span;
                let mut v = std::mem::take(m).into_vec();
                v.insert(
                    at,
                    Entry {
                        key: key.clone().into(),
                        key_span: span,
                        value: Node {
                            value: Value::Scalar(Scalar {
                                text: value.clone().into(),
                                kind: ScalarKind::Str,
                            }),
                            span,
                        },
                    },
                );
                *m = v.into_boxed_slice();
            }
        }
    }
}
