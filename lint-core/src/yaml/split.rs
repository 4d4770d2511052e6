//! Splitting a file into documents the way kubectl does, so that pvlint reads exactly the
//! documents `kubectl apply -f FILE` reads.
//!
//! kubectl reads a file with apimachinery's `YAMLOrJSONDecoder` (pkg/util/yaml/decoder.go):
//!
//! - A file whose first non-space character is `{` may be a stream of JSON values, decoded one
//!   after another with Go's `json.Decoder`. When a value fails to decode and at most one value
//!   has been decoded so far, the stream is ambiguous, and the decoder switches to YAML from
//!   the failing value on (after the whitespace up to the first line break). After two JSON
//!   values a JSON error ends the file.
//! - YAML is split by `YAMLReader`: every line that starts with `---` ends a document. The rest
//!   of that line may only be spaces or a comment, else kubectl stops with "invalid Yaml
//!   document separator". `...` is no separator to it: go-yaml reads one document per piece, so
//!   what follows a `...` line up to the next `---` is never read.
//!
//! The pieces keep their first line, so every position stays the file's own.

use serde::de::IgnoredAny;

use super::IssueKind;
use crate::source::Pos;

/// One piece of a stream: one document, or a part kubectl cannot read.
pub(crate) struct Chunk<'a> {
    pub(crate) text: &'a str,
    pub(crate) first_line: u32,
    /// The column (0-based, in characters) where the text starts on its first line: 0 but for
    /// a JSON value that shares its line with the one before it.
    pub(crate) first_column: u32,
    /// Why this piece is not parsed, decided while splitting.
    pub(crate) unread: Option<Unread>,
}

/// A piece of the stream kubectl does not read as a document.
pub(crate) struct Unread {
    pub(crate) kind: IssueKind,
    pub(crate) at: Pos,
    pub(crate) message: String,
}

/// Is this line (without its line break) a `...` document end marker?
pub(crate) fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

/// What a line that starts with `---` is to kubectl's `YAMLReader`.
enum Separator<'a> {
    /// Not a separator line.
    No,
    /// `---`, with only spaces or a comment after it.
    Yes,
    /// `---` followed by something else: kubectl stops reading the file there.
    Invalid(&'a str),
}

fn separator(line: &str) -> Separator<'_> {
    let Some(rest) = line.strip_prefix("---") else {
        return Separator::No;
    };
    // Go's strings.TrimSpace: Unicode white space.
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('#') {
        Separator::Yes
    } else {
        Separator::Invalid(rest)
    }
}

/// Splits a stream into the documents kubectl reads (see the module docs).
pub(crate) fn split_documents(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    match text
        .trim_start_matches(char::is_whitespace)
        .starts_with('{')
    {
        true => split_json(text, &mut chunks),
        false => split_yaml(text, 0, 1, 0, &mut chunks),
    }
    chunks
}

/// Line number (1-based) of byte `offset` of `text`.
fn line_at(text: &str, offset: usize) -> u32 {
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}

/// A stream that starts with `{`: JSON values one after another, then maybe YAML.
fn split_json<'a>(text: &'a str, out: &mut Vec<Chunk<'a>>) {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
    let mut decoded = 0usize;
    loop {
        let start = values.byte_offset();
        match values.next() {
            None => return,
            Some(Ok(_)) => {
                let end = values.byte_offset();
                // The value's own text, from the start of its line when nothing else is before
                // it there (so columns need no offset).
                let at = start + (text[start..end].len() - text[start..end].trim_start().len());
                let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let (from, first_column) = if text[line_start..at].trim().is_empty() {
                    (line_start.max(start), 0)
                } else {
                    (at, text[line_start..at].chars().count() as u32)
                };
                out.push(Chunk {
                    text: &text[from..end],
                    first_line: line_at(text, at),
                    first_column,
                    unread: None,
                });
                decoded += 1;
            }
            Some(Err(e)) => {
                if decoded > 1 {
                    // An unambiguous JSON stream: the error ends it.
                    let line = e.line() as u32;
                    let line_text = text.lines().nth(line as usize - 1).unwrap_or("");
                    let byte_col = e.column().saturating_sub(1).min(line_text.len());
                    let column = line_text
                        .get(..byte_col)
                        .map_or(1, |s| s.chars().count() as u32 + 1);
                    out.push(Chunk {
                        text: &text[start..],
                        first_line: line_at(text, start),
                        first_column: 0,
                        unread: Some(Unread {
                            kind: IssueKind::Syntax,
                            at: Pos { line, column },
                            message: format!(
                                "invalid JSON ({e}): kubectl reads this file as a stream of JSON objects and stops here"
                            ),
                        }),
                    });
                    return;
                }
                // Ambiguous: the rest is YAML, from the failing value on, after the whitespace
                // up to and including the first line break (`consumeWhitespace`).
                let rest = &text[start..];
                let mut skip = 0;
                for c in rest.chars() {
                    if !c.is_whitespace() {
                        break;
                    }
                    skip += c.len_utf8();
                    if c == '\n' {
                        break;
                    }
                }
                let from = start + skip;
                let line_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
                let column = text[line_start..from].chars().count() as u32;
                split_yaml(text, from, line_at(text, from), column, out);
                return;
            }
        }
    }
}

/// `text[from..]` as YAML documents, split as kubectl's `YAMLReader` splits them; `from` is on
/// line `line`, at column `column`.
fn split_yaml<'a>(
    text: &'a str,
    from: usize,
    mut line: u32,
    column: u32,
    out: &mut Vec<Chunk<'a>>,
) {
    // The piece being read: its start, first line, and whether it is read at all.
    let mut start = from;
    let mut first_line = line;
    let mut first_column = column;
    let mut unread: Option<Unread> = None;
    // After a `...` line: what follows is never read, up to the next separator.
    let mut ended = false;
    let mut offset = from;
    let bytes = text.as_bytes();
    while offset < text.len() {
        let next = bytes[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| offset + i + 1);
        // Only lines that start with `-` or `.` can end a piece.
        let first = bytes[offset];
        if first == b'-' || first == b'.' {
            let content = text[offset..next].trim_end_matches(['\n', '\r']);
            match separator(content) {
                Separator::No => {
                    if !ended && unread.is_none() && is_marker(content, "...") {
                        // The document ends with this line; the rest is never read.
                        out.push(Chunk {
                            text: &text[start..next],
                            first_line,
                            first_column,
                            unread: None,
                        });
                        first_column = 0;
                        start = next;
                        first_line = line + 1;
                        ended = true;
                    }
                }
                sep => {
                    close(
                        text,
                        (start, offset),
                        (first_line, first_column),
                        ended,
                        unread.take(),
                        out,
                    );
                    first_column = 0;
                    ended = false;
                    start = offset;
                    first_line = line;
                    if let Separator::Invalid(rest) = sep {
                        unread = Some(Unread {
                            kind: IssueKind::Syntax,
                            at: Pos { line, column: 4 },
                            message: format!(
                                "invalid Yaml document separator: {rest} (kubectl's own words): `---` may only be followed by a comment, and kubectl stops reading the file here"
                            ),
                        });
                    }
                }
            }
        }
        offset = next;
        line += 1;
    }
    close(
        text,
        (start, text.len()),
        (first_line, first_column),
        ended,
        unread,
        out,
    );
}

/// Ends the piece `text[start..end]`.
fn close<'a>(
    text: &'a str,
    (start, end): (usize, usize),
    (first_line, first_column): (u32, u32),
    ended: bool,
    unread: Option<Unread>,
    out: &mut Vec<Chunk<'a>>,
) {
    if start >= end {
        return;
    }
    let piece = &text[start..end];
    let unread = match unread {
        Some(u) => Some(u),
        None if ended => {
            // Lines after `...`: say so only when they hold something.
            let Some((n, _)) = piece.lines().enumerate().find(|(_, l)| !super::is_blank(l)) else {
                return;
            };
            Some(Unread {
                kind: IssueKind::Ignored,
                at: Pos {
                    line: first_line + n as u32,
                    column: 1,
                },
                message: "kubectl never reads this: `...` ended the document, and no `---` starts another".into(),
            })
        }
        None => None,
    };
    out.push(Chunk {
        text: piece,
        first_line,
        first_column,
        unread,
    });
}
