//! Flow collections (`[a, b]`, `{a: b}`, pretty-printed JSON) inside block content.

use super::{plain_start, Stop, Unsupported, P, R};
use crate::node::ScalarKind;

impl P<'_, '_> {
    /// Skips spaces inside a flow collection where it must not leave the line (around a
    /// key's `:`).
    pub(super) fn flow_spaces(&mut self) -> R<()> {
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
    pub(super) fn flow_break(&mut self, block: isize) -> R<()> {
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
    pub(super) fn flow_node(&mut self, block: isize) -> R<()> {
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
    pub(super) fn flow_item(&mut self, block: isize) -> R<()> {
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
