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

use super::Builder;
use crate::node::{ScalarKind, Str};
use crate::scalar::resolve_plain;
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

    /// A block node starting at `pos` (column `col`; at the start of its line's content or
    /// after `- `), in a block collection indented `parent` (-1: none). Returns the
    /// indentation of the next content line (`pos` on it).
    fn block_node(&mut self, col: usize, parent: isize) -> R<Option<usize>> {
        self.enter()?;
        let c = self.peek();
        let next = self.at(self.pos + 1);
        let r = match c {
            b'-' if self.ws_or_end(self.pos + 1) => self.block_seq(col, false)?,
            b'[' | b'{' => {
                self.flow_node(parent)?;
                self.end_of_line()?;
                self.next_content_line()
            }
            b'"' | b'\'' => {
                let start = self.pos;
                let (text, _) = self.quoted()?;
                if self.peek() == b':' {
                    self.pos = start;
                    self.block_map(col)?
                } else {
                    let span = self.span(start, self.pos);
                    self.b.scalar(text, ScalarKind::Str, span, 0, false);
                    self.end_of_line()?;
                    self.next_content_line()
                }
            }
            c if plain_start(c, next) => {
                let start = self.pos;
                match self.scan_plain(start, false) {
                    (_, Stop::Colon(_)) => self.block_map(col)?,
                    (end, Stop::Other(stop)) => {
                        self.plain(start, end);
                        self.pos = stop;
                        self.end_of_line()?;
                        self.next_content_line()
                    }
                }
            }
            _ => return Err(Unsupported),
        };
        self.depth -= 1;
        Ok(r)
    }

    /// Emits the plain scalar `start..end` of the current line (a value: typed).
    fn plain(&mut self, start: usize, end: usize) {
        let text = &self.text[start..end];
        let span = self.span(start, end);
        self.b
            .scalar(Str::new(text), resolve_plain(text), span, 0, true);
    }

    /// Scans a plain scalar on one line. Returns where its text ends (trailing spaces
    /// excluded) and where it stops. In flow context flow indicators stop it too.
    fn scan_plain(&self, start: usize, flow: bool) -> (usize, Stop) {
        let s = self.s;
        let mut i = start;
        let stop = loop {
            match s.get(i) {
                None | Some(b'\n' | b'\r') => break Stop::Other(i),
                Some(b':') => {
                    let n = self.at(i + 1);
                    if matches!(n, b' ' | b'\n' | b'\r' | 0) || (flow && is_flow_indicator(n)) {
                        break Stop::Colon(i);
                    }
                }
                Some(b' ') if self.at(i + 1) == b'#' => break Stop::Other(i),
                Some(&c) if flow && is_flow_indicator(c) => break Stop::Other(i),
                _ => {}
            }
            i += 1;
        };
        let at = match stop {
            Stop::Colon(i) | Stop::Other(i) => i,
        };
        let mut end = at;
        while end > start && s[end - 1] == b' ' {
            end -= 1;
        }
        (end, stop)
    }

    /// A quoted scalar on one line, `pos` on its opening quote. Escapes other than `\\`,
    /// `\"`, `\/`, `\n`, `\t` are left to saphyr-parser. Like saphyr-parser, the scalar's span
    /// takes in the spaces after the closing quote and a comment after them: `pos` is left
    /// there. Returns the text and the position just after the closing quote.
    fn quoted(&mut self) -> R<(Str, usize)> {
        let q = self.peek();
        let start = self.pos + 1;
        let mut i = start;
        let mut owned: Option<String> = None;
        let mut copied = start;
        loop {
            let c = self.at(i);
            match c {
                b'\n' | b'\r' | 0 => return Err(Unsupported),
                b'\'' if q == b'\'' => {
                    if self.at(i + 1) == b'\'' {
                        let o = owned.get_or_insert_with(String::new);
                        o.push_str(&self.text[copied..=i]);
                        i += 2;
                        copied = i;
                        continue;
                    }
                    break;
                }
                b'"' if q == b'"' => break,
                b'\\' if q == b'"' => {
                    let un = match self.at(i + 1) {
                        b'\\' => '\\',
                        b'"' => '"',
                        b'/' => '/',
                        b'n' => '\n',
                        b't' => '\t',
                        _ => return Err(Unsupported),
                    };
                    let o = owned.get_or_insert_with(String::new);
                    o.push_str(&self.text[copied..i]);
                    o.push(un);
                    i += 2;
                    copied = i;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        let text = match owned {
            None => Str::new(&self.text[start..i]),
            Some(mut o) => {
                o.push_str(&self.text[copied..i]);
                Str::from(o)
            }
        };
        let close = i + 1;
        self.pos = close;
        self.trailing_ws()?;
        Ok((text, close))
    }

    /// A mapping key at `pos`, up to and over its `:`. Returns the position of the `:`.
    fn key(&mut self, flow: bool) -> R<Pos> {
        let start = self.pos;
        match self.peek() {
            b'"' | b'\'' => {
                let (text, close) = self.quoted()?;
                // In flow context a value may follow a quoted key's `:` directly (JSON).
                if self.pos != close
                    || self.peek() != b':'
                    || !(flow || self.ws_or_end(self.pos + 1))
                {
                    return Err(Unsupported);
                }
                let span = self.span(start, self.pos);
                self.b.scalar(text, ScalarKind::Str, span, 0, false);
            }
            c if plain_start(c, self.at(self.pos + 1)) => {
                let (end, Stop::Colon(colon)) = self.scan_plain(start, flow) else {
                    return Err(Unsupported);
                };
                // In flow context saphyr-parser wants a space after a plain key's `:`.
                if colon != end || (flow && self.at(colon + 1) != b' ') {
                    return Err(Unsupported);
                }
                let span = self.span(start, end);
                // Typed as any plain scalar: the builder writes `on:` as the key "true".
                let text = &self.text[start..end];
                self.b
                    .scalar(Str::new(text), resolve_plain(text), span, 0, true);
                self.pos = colon;
            }
            _ => return Err(Unsupported),
        }
        if self.pos - start > MAX_KEY_BYTES {
            return Err(Unsupported);
        }
        let colon = self.pos_at(self.pos);
        self.pos += 1;
        Ok(colon)
    }

    /// A block mapping whose first key is at `pos` (column `col`).
    fn block_map(&mut self, col: usize) -> R<Option<usize>> {
        self.b
            .start(true, 0, self.point(self.pos))
            .map_err(|_| Unsupported)?;
        loop {
            let colon = self.key(false)?;
            let next = self.map_value(col, colon)?;
            match next {
                Some(n) if n == col => {}
                Some(n) if n > col => return Err(Unsupported),
                _ => {
                    self.b.end(self.block_end());
                    return Ok(next);
                }
            }
        }
    }

    /// The value after a block mapping key's `:` (`pos` just after it).
    fn map_value(&mut self, col: usize, colon: Pos) -> R<Option<usize>> {
        self.skip_spaces();
        match self.peek() {
            b'\n' | b'\r' | 0 => {}
            b'#' => self.skip_to_eol(),
            b'[' | b'{' => {
                self.flow_node(col as isize)?;
                self.end_of_line()?;
                return Ok(self.next_content_line());
            }
            b'"' | b'\'' => {
                let start = self.pos;
                let (text, _) = self.quoted()?;
                let span = self.span(start, self.pos);
                self.b.scalar(text, ScalarKind::Str, span, 0, false);
                self.end_of_line()?;
                return Ok(self.next_content_line());
            }
            c if plain_start(c, self.at(self.pos + 1)) => {
                let start = self.pos;
                let (end, Stop::Other(stop)) = self.scan_plain(start, false) else {
                    return Err(Unsupported);
                };
                self.plain(start, end);
                self.pos = stop;
                self.end_of_line()?;
                return Ok(self.next_content_line());
            }
            _ => return Err(Unsupported),
        }
        // Nothing after the `:` on its line: the value is below, or empty.
        let next = self.next_content_line();
        match next {
            Some(n) if n > col => self.block_node(n, col as isize),
            Some(n) if n == col && self.peek() == b'-' && self.ws_or_end(self.pos + 1) => {
                self.block_seq(col, true)
            }
            _ => {
                self.b.scalar(
                    Str::default(),
                    ScalarKind::Null,
                    Span::point(colon),
                    0,
                    true,
                );
                Ok(next)
            }
        }
    }

    /// A block sequence whose first `-` is at `pos` (column `col`). `indentless`: it is a
    /// mapping value at the mapping's own indentation.
    fn block_seq(&mut self, col: usize, indentless: bool) -> R<Option<usize>> {
        let mut first = true;
        let next = loop {
            let dash = self.pos;
            self.pos += 1;
            self.skip_spaces();
            if self.peek() == b'#' {
                return Err(Unsupported);
            }
            if first {
                // saphyr-parser puts an indentless sequence where its first entry starts.
                let at = if indentless { self.pos } else { dash };
                self.b
                    .start(false, 0, self.point(at))
                    .map_err(|_| Unsupported)?;
                first = false;
            }
            let next = if matches!(self.peek(), b'\n' | b'\r' | 0) {
                let mark = self.pos_at(self.pos);
                let next = self.next_content_line();
                match next {
                    Some(n) if n > col => self.block_node(n, col as isize)?,
                    _ => {
                        self.b
                            .scalar(Str::default(), ScalarKind::Null, Span::point(mark), 0, true);
                        next
                    }
                }
            } else {
                let c = self.col(self.pos);
                self.block_node(c, col as isize)?
            };
            match next {
                Some(n) if n == col && self.peek() == b'-' && self.ws_or_end(self.pos + 1) => {}
                Some(n) if n == col && indentless => break next,
                Some(n) if n < col => break next,
                None => break next,
                Some(_) => return Err(Unsupported),
            }
        };
        self.b.end(self.block_end());
        Ok(next)
    }

    /// Skips spaces inside a flow collection where it must not leave the line (around a
    /// key's `:`).
    fn flow_spaces(&mut self) -> R<()> {
        self.skip_spaces();
        match self.peek() {
            b'\n' | b'\r' | 0 | b'#' => Err(Unsupported),
            _ => Ok(()),
        }
    }

    /// Skips spaces, comments and line breaks inside a flow collection, where it may
    /// continue on the next lines (after a bracket or `,`, before `,` or a bracket: pretty
    /// JSON). Continuation lines must be indented more than the enclosing block
    /// collection (`block`), and a comment must follow a space.
    fn flow_break(&mut self, block: isize) -> R<()> {
        let mut after = self.pos;
        loop {
            self.skip_spaces();
            match self.peek() {
                b'#' if self.pos > after => self.skip_to_eol(),
                b'\n' | b'\r' => {}
                b'#' | 0 => return Err(Unsupported),
                _ => {
                    if self.line_start == after {
                        // The first content of a continuation line.
                        let indent = self.pos - self.line_start;
                        if (indent == 0 && self.at_marker()) || indent as isize <= block {
                            return Err(Unsupported);
                        }
                    }
                    return Ok(());
                }
            }
            if self.peek() == 0 {
                return Err(Unsupported);
            }
            self.newline();
            // A comment may start a line.
            after = self.line_start;
            if self.peek() == b'#' {
                self.skip_to_eol();
            }
        }
    }

    /// A flow collection, `pos` on its `[` or `{`, in a block collection indented `block`.
    fn flow_node(&mut self, block: isize) -> R<()> {
        self.enter()?;
        let open = self.pos;
        let map = self.peek() == b'{';
        let close = if map { b'}' } else { b']' };
        self.pos += 1;
        self.trailing_ws()?;
        self.b
            .start(map, 0, self.span(open, self.pos))
            .map_err(|_| Unsupported)?;
        self.flow_break(block)?;
        if self.peek() != close {
            loop {
                if map {
                    self.key(true)?;
                    self.flow_spaces()?;
                    if matches!(self.peek(), b',' | b'}') {
                        return Err(Unsupported);
                    }
                }
                self.flow_item(block)?;
                self.flow_break(block)?;
                match self.peek() {
                    b',' => {
                        self.pos += 1;
                        self.flow_break(block)?;
                        if self.peek() == close {
                            return Err(Unsupported);
                        }
                    }
                    c if c == close => break,
                    _ => return Err(Unsupported),
                }
            }
        }
        let end = self.pos;
        self.pos += 1;
        self.trailing_ws()?;
        self.b.end(self.span(end, self.pos));
        self.depth -= 1;
        Ok(())
    }

    /// A node inside a flow collection: a nested one or a scalar.
    fn flow_item(&mut self, block: isize) -> R<()> {
        match self.peek() {
            b'[' | b'{' => self.flow_node(block),
            b'"' | b'\'' => {
                let start = self.pos;
                let (text, _) = self.quoted()?;
                let span = self.span(start, self.pos);
                self.b.scalar(text, ScalarKind::Str, span, 0, false);
                Ok(())
            }
            c if plain_start(c, self.at(self.pos + 1)) => {
                let start = self.pos;
                let (end, Stop::Other(stop)) = self.scan_plain(start, true) else {
                    return Err(Unsupported);
                };
                self.plain(start, end);
                self.pos = stop;
                Ok(())
            }
            _ => Err(Unsupported),
        }
    }
}
