//! Named inputs and positions inside them.
//!
//! Every position pvlint reports is 1-based (line and column), columns counted in
//! Unicode scalar values, as editors and rustc do.

use serde::{Deserialize, Serialize};

/// One named input: a file name (or `<stdin>`) and its text. In JSON: `{"name", "text"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "NamedText")]
pub struct Source {
    /// Shared: every finding's location carries it, and cloning it only counts a reference.
    pub name: crate::string::Str,
    pub text: String,
    /// Byte offset of the start of every [`STRIDE`]th line (lines 1, 1 + STRIDE, ...): a
    /// line in between is found by scanning fewer than STRIDE line breaks. Every line's
    /// offset took 1.6 MB for the 7.3 MB benchmark corpus, alive through the whole lint.
    line_starts: Vec<usize>,
    lines: u32,
}

/// Lines between two recorded line starts (see `Source::line_starts`).
const STRIDE: usize = 32;

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let breaks = || {
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1)
        };
        let lines = breaks().count() + 1;
        let mut line_starts = Vec::with_capacity(lines.div_ceil(STRIDE));
        line_starts.push(0);
        line_starts.extend(breaks().skip(STRIDE - 1).step_by(STRIDE));
        Source {
            name: crate::string::Str::from(name.into()).shared(),
            lines: u32::try_from(lines).unwrap_or(u32::MAX),
            text,
            line_starts,
        }
    }

    /// The text of a 1-based line, without its line break.
    pub fn line(&self, line: u32) -> Option<&str> {
        let idx = (line as usize).checked_sub(1)?;
        let mut start = *self.line_starts.get(idx / STRIDE)?;
        for _ in 0..idx % STRIDE {
            start += self.text.get(start..)?.find('\n')? + 1;
        }
        let rest = self.text.get(start..)?;
        let l = rest.find('\n').map_or(rest, |i| &rest[..=i]);
        Some(l.trim_end_matches('\n').trim_end_matches('\r'))
    }

    /// Gives back the text's memory; the name stays. [`Source::line`] finds no line after.
    pub(crate) fn drop_text(&mut self) {
        self.text = String::new();
        self.line_starts = Vec::new();
    }

    pub fn line_count(&self) -> u32 {
        self.lines
    }
}

/// Why bytes could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub line: u32,
    pub column: u32,
    pub offset: usize,
    pub message: String,
}

/// Bytes → text the way kubectl reads a manifest: UTF-8 (a BOM is dropped), or UTF-16 with
/// a byte-order mark (little or big endian), which kubectl's YAML decoder also accepts.
pub fn decode(bytes: &[u8]) -> Result<String, DecodeError> {
    let utf16 = |data: &[u8], le: bool| -> Result<String, DecodeError> {
        if data.len() % 2 != 0 {
            return Err(DecodeError {
                line: 1,
                column: 1,
                offset: bytes.len() - 1,
                message: "UTF-16 text with an odd number of bytes".into(),
            });
        }
        let units: Vec<u16> = data
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units).map_err(|_| DecodeError {
            line: 1,
            column: 1,
            offset: 2,
            message: "invalid UTF-16 (an unpaired surrogate)".into(),
        })
    };
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(rest, true);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(rest, false);
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(t) => Ok(t.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let valid = &body[..at];
            let line = valid.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let column = valid.iter().rev().take_while(|&&b| b != b'\n').count() as u32 + 1;
            Err(DecodeError {
                line,
                column,
                offset: at,
                message: format!("not UTF-8 text (byte offset {at}); save the file as UTF-8"),
            })
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamedText {
    name: String,
    text: String,
}

impl From<NamedText> for Source {
    fn from(n: NamedText) -> Source {
        Source::new(n.name, n.text)
    }
}

impl Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Source", 2)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("text", &self.text)?;
        st.end()
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        self.name == other.name && self.text == other.text
    }
}

impl Eq for Source {}

/// Index of a [`Source`] in the slice given to [`crate::lint`].
pub type SourceId = usize;

/// A 1-based line/column position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// A range in one source: start inclusive, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    pub fn point(p: Pos) -> Span {
        Span { start: p, end: p }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line, as the table of every line's start read it, around the recorded ones.
    #[test]
    fn lines_between_recorded_starts() {
        for text in [
            String::new(),
            "a".to_string(),
            "a\n".to_string(),
            "\n\n".to_string(),
            "a: 1\r\nb: 2\r\n".to_string(),
            (1..=100).map(|i| format!("line {i}\n")).collect::<String>(),
            (1..=64).map(|i| format!("é{i}\r\n")).collect::<String>() + "last",
        ] {
            let src = Source::new("t.yaml", text.clone());
            let want: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
            assert_eq!(src.line_count() as usize, want.len(), "{text:?}");
            for (i, w) in want.iter().enumerate() {
                assert_eq!(
                    src.line(i as u32 + 1),
                    Some(*w),
                    "line {} of {text:?}",
                    i + 1
                );
            }
            assert_eq!(src.line(0), None);
            assert_eq!(src.line(want.len() as u32 + 1), None, "{text:?}");
        }
    }

    #[test]
    fn decodes_what_kubectl_reads() {
        assert_eq!(decode(b"a: 1\n").unwrap(), "a: 1\n");
        assert_eq!(decode(b"\xEF\xBB\xBFa: 1").unwrap(), "a: 1");
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "kind: PersistentVolume\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(decode(&le).unwrap(), "kind: PersistentVolume\n");
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("a: é".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&be).unwrap(), "a: é");
        let e = decode(b"a: 1\nb: \xFF\n").unwrap_err();
        assert_eq!((e.line, e.column, e.offset), (2, 4, 8));
        assert!(decode(&[0xFF, 0xFE, 0x41]).is_err());
    }
}
