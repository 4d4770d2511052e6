//! The fast path: a byte-level parser for the YAML that manifests are almost always made
//! of, producing exactly the events (and positions) saphyr-parser would.
//!
//! It reads block mappings and sequences (indented or not), single-line plain and quoted
//! scalars, flow collections (`[a, b]`, `{a: b}`, pretty-printed JSON) and comments.
//! Anything else — anchors, aliases, tags, block scalars, multi-line scalars, complex keys, directives, tabs, a `\r` outside `\r\n`, control characters, anything it would have to
//! guess about, and every error — makes it give up ([`Unsupported`]) before the document
//! is used, and the caller parses the document again with saphyr-parser. So its output is
//! saphyr-parser's or nothing; `yaml::tests::fast_path_matches_saphyr` checks this on every
//! fixture and example and on thousands of mutations of them.

use std::cell::Cell;

mod block;
mod flow;

use super::build::Builder;
use crate::source::{Pos, Span};

/// The document needs something the fast path leaves to saphyr-parser.
#[derive(Debug)]
pub(super) struct Unsupported;

type R<T> = Result<T, Unsupported>;

/// Deeper documents are left to saphyr-parser (and the builder's bound).
const MAX_DEPTH: usize = 64;
/// YAML limits implicit keys to 1024 characters; longer ones are left to saphyr-parser.
const MAX_KEY_BYTES: usize = 1000;

/// Parses one document (a chunk of `yaml::split_documents`) into `b`.
pub(super) fn parse(text: &str, first_line: u32, b: &mut Builder) -> R<()> {
    let ascii = check_chars(text)?;
    let mut p = P {
        s: text.as_bytes(),
        text,
        pos: 0,
        line: first_line,
        line_start: 0,
        ascii,
        col_cache: Cell::new((0, 0)),
        depth: 0,
        marker: false,
        b,
    };
    p.document()
}

/// Only printable characters and `\n` or `\r\n` (no tab, no other `\r`, no control or special Unicode
/// characters). Returns whether the text is ASCII.
fn check_chars(text: &str) -> R<bool> {
    let s = text.as_bytes();
    let mut ascii = true;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if (0x20..0x7f).contains(&c) || c == b'\n' {
            i += 1;
        } else if c == b'\r' && s.get(i + 1) == Some(&b'\n') {
            // A CRLF line break; a lone `\r` is left to saphyr-parser.
            i += 2;
        } else if c >= 0xc0 {
            ascii = false;
            let ch = text[i..].chars().next().ok_or(Unsupported)?;
            if ch < '\u{a0}'
                || matches!(
                    ch,
                    '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                )
            {
                return Err(Unsupported);
            }
            i += ch.len_utf8();
        } else {
            return Err(Unsupported);
        }
    }
    Ok(ascii)
}

/// Can a plain scalar start with `c` (followed by `next`)? Conservative: indicators and
/// the cases YAML treats specially are left to saphyr-parser.
fn plain_start(c: u8, next: u8) -> bool {
    match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => true,
        b'.' | b'/' | b'_' | b'$' | b'~' | b'(' | b')' | b'+' | b'=' | b'^' | b';' | b'<' => true,
        b'\\' => true,
        b'-' => next.is_ascii_alphanumeric() || next == b'.',
        0xc0.. => true,
        _ => false,
    }
}

fn is_flow_indicator(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

/// Where a plain scalar on one line stops.
enum Stop {
    /// At a `:` that makes it a key (the position of the `:`).
    Colon(usize),
    /// At the line break, the end of the text, a comment or a flow indicator.
    Other(usize),
}

struct P<'t, 'b> {
    s: &'t [u8],
    text: &'t str,
    pos: usize,
    /// Line of `pos` (1-based, in the whole source).
    line: u32,
    line_start: usize,
    ascii: bool,
    /// (byte position, its column) last computed on a non-ASCII document's line.
    col_cache: Cell<(usize, usize)>,
    depth: usize,
    /// A document marker was met after the first line.
    marker: bool,
    b: &'b mut Builder,
}

impl P<'_, '_> {
    /// The byte at `i`, 0 past the end (NUL never occurs: `check_chars`).
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    fn peek(&self) -> u8 {
        self.at(self.pos)
    }

    /// Is the byte at `i` a space, a line break or the end?
    fn ws_or_end(&self, i: usize) -> bool {
        matches!(self.at(i), b' ' | b'\n' | b'\r' | 0)
    }

    /// 0-based column (in characters) of a byte position on the current line. Outside
    /// ASCII, characters are counted from the last position asked for (positions mostly
    /// grow), so a long line costs linear time, not quadratic.
    fn col(&self, pos: usize) -> usize {
        if self.ascii {
            return pos - self.line_start;
        }
        let (mut from, mut col) = self.col_cache.get();
        if from < self.line_start || from > pos {
            (from, col) = (self.line_start, 0);
        }
        col += self.text[from..pos].chars().count();
        self.col_cache.set((pos, col));
        col
    }

    fn pos_at(&self, pos: usize) -> Pos {
        Pos {
            line: self.line,
            column: self.col(pos) as u32 + 1,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span {
            start: self.pos_at(start),
            end: self.pos_at(end),
        }
    }

    fn point(&self, pos: usize) -> Span {
        Span::point(self.pos_at(pos))
    }

    /// Where saphyr-parser ends a block collection: the next token, or at the end of the
    /// text the start of the line after it. (Only seen when a map holds nothing but `<<`.)
    fn block_end(&self) -> Span {
        if self.pos >= self.s.len() && self.pos != self.line_start {
            Span::point(Pos {
                line: self.line + 1,
                column: 1,
            })
        } else {
            self.point(self.pos)
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek() == b' ' {
            self.pos += 1;
        }
    }

    /// After a quoted scalar or a flow bracket saphyr-parser's token takes in the spaces
    /// that follow and a comment after them; so does this (from `pos`, just after it).
    fn trailing_ws(&mut self) -> R<()> {
        let after = self.pos;
        self.skip_spaces();
        if self.peek() == b'#' {
            if self.pos == after {
                return Err(Unsupported);
            }
            self.skip_to_eol();
        }
        Ok(())
    }

    fn skip_to_eol(&mut self) {
        while !matches!(self.peek(), b'\n' | b'\r' | 0) {
            self.pos += 1;
        }
    }

    /// From the start of a line: skips blank and comment lines. Returns the indentation of
    /// the next content line, with `pos` on its first character; `None` at the end.
    fn skip_to_content(&mut self) -> Option<usize> {
        loop {
            let start = self.pos;
            self.skip_spaces();
            match self.peek() {
                0 => return None,
                b'\n' | b'\r' => {}
                b'#' => {
                    self.skip_to_eol();
                    if self.peek() == 0 {
                        return None;
                    }
                }
                _ => return Some(self.pos - start),
            }
            self.newline();
        }
    }

    /// `pos` is on a line break (`\n`, or `\r\n`): moves to the start of the next line.
    fn newline(&mut self) {
        self.pos += if self.peek() == b'\r' { 2 } else { 1 };
        self.line += 1;
        self.line_start = self.pos;
    }

    /// From the end of a line (its break, or the end of the text) to the next content line.
    /// A document marker there (`---` or `...` at column 0) ends the document for every
    /// open node, and makes [`P::document`] give up.
    fn next_content_line(&mut self) -> Option<usize> {
        if self.pos >= self.s.len() {
            return None;
        }
        self.newline();
        let next = self.skip_to_content();
        if next == Some(0) && self.at_marker() {
            self.marker = true;
            return None;
        }
        next
    }

    /// Is `pos` (at column 0) on a `---` or `...` marker?
    fn at_marker(&self) -> bool {
        let rest = &self.s[self.pos..];
        (rest.starts_with(b"---") || rest.starts_with(b"...")) && self.ws_or_end(self.pos + 3)
    }

    /// After a node that ends its line: spaces, an optional comment, the line break.
    fn end_of_line(&mut self) -> R<()> {
        let start = self.pos;
        self.skip_spaces();
        match self.peek() {
            b'\n' | b'\r' | 0 => Ok(()),
            b'#' if self.pos > start => {
                self.skip_to_eol();
                Ok(())
            }
            _ => Err(Unsupported),
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Unsupported);
        }
        Ok(())
    }

    fn document(&mut self) -> R<()> {
        let mut next = self.skip_to_content();
        if next == Some(0) && self.at_marker() {
            if self.peek() != b'-' {
                return Err(Unsupported);
            }
            self.pos += 3;
            self.end_of_line()?;
            next = self.next_content_line();
        }
        let Some(indent) = next else {
            return Err(Unsupported);
        };
        if self.peek() == b'%' {
            return Err(Unsupported);
        }
        match self.block_node(indent, -1)? {
            None if !self.marker => Ok(()),
            _ => Err(Unsupported),
        }
    }
}
