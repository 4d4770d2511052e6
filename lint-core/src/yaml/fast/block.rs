//! Block nodes: mappings and sequences by indentation, plain and quoted scalars, keys.

use super::{is_flow_indicator, plain_start, Stop, Unsupported, MAX_KEY_BYTES, P, R};
use crate::node::ScalarKind;
use crate::scalar::resolve_plain;
use crate::source::{Pos, Span};
use crate::string::Str;

impl P<'_, '_> {
    /// A block node starting at `pos` (column `col`; at the start of its line's content or
    /// after `- `), in a block collection indented `parent` (-1: none). Returns the
    /// indentation of the next content line (`pos` on it).
    pub(super) fn block_node(&mut self, col: usize, parent: isize) -> R<Option<usize>> {
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
    pub(super) fn plain(&mut self, start: usize, end: usize) {
        let text = &self.text[start..end];
        let span = self.span(start, end);
        self.b
            .scalar(Str::new(text), resolve_plain(text), span, 0, true);
    }

    /// Scans a plain scalar on one line. Returns where its text ends (trailing spaces
    /// excluded) and where it stops. In flow context flow indicators stop it too.
    pub(super) fn scan_plain(&self, start: usize, flow: bool) -> (usize, Stop) {
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
    pub(super) fn quoted(&mut self) -> R<(Str, usize)> {
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
    pub(super) fn key(&mut self, flow: bool) -> R<Pos> {
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
    pub(super) fn block_map(&mut self, col: usize) -> R<Option<usize>> {
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
    pub(super) fn map_value(&mut self, col: usize, colon: Pos) -> R<Option<usize>> {
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
    pub(super) fn block_seq(&mut self, col: usize, indentless: bool) -> R<Option<usize>> {
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
}
