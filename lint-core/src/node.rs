//! The span-carrying document tree every later stage reads.
//!
//! Scalars keep their source text and style; their type is resolved the way
//! Kubernetes' YAML decoder (sigs.k8s.io/yaml, YAML 1.1 rules) resolves it, so
//! `yes` is a boolean and `"yes"` is a string, exactly as `kubectl apply` sees them.
//!
//! The tree is built to be small: sequences and maps are boxed slices of their final length,
//! and keys and scalar texts are [`Str`]s (16 bytes), which keep strings of up to 14 bytes
//! inline and borrow Kubernetes' longer field names from a table ([`WELL_KNOWN`](crate::string::WELL_KNOWN)) instead of
//! allocating them one by one.

use crate::source::Span;
use crate::string::Str;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    /// Boxed slices rather than `Vec`s: the tree is never edited, and without the capacity a
    /// node is 40 bytes instead of 48.
    Seq(Box<[Node]>),
    Map(Box<[Entry]>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Str,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: Str,
    /// Plain (unquoted, untagged) scalars are typed by their text; all others are strings
    /// unless a core-schema tag says otherwise.
    pub kind: ScalarKind,
}

/// The JSON type a scalar becomes when Kubernetes converts YAML to JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    Null,
    Bool(bool),
    Int,
    Float,
    Str,
}

impl ScalarKind {
    pub fn type_name(self) -> &'static str {
        match self {
            ScalarKind::Null => "null",
            ScalarKind::Bool(_) => "boolean",
            ScalarKind::Int => "integer",
            ScalarKind::Float => "number",
            ScalarKind::Str => "string",
        }
    }
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Node>() == 40 && std::mem::size_of::<Entry>() == 72);

impl Node {
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The string value, only when the scalar really is a string for Kubernetes.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s) if s.kind == ScalarKind::Str => Some(&s.text),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(&self.value, Value::Scalar(s) if s.kind == ScalarKind::Null)
    }

    /// The map entry named `key`, if this is a map that has it.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        let key = key.as_bytes();
        self.as_map()?
            .iter()
            .find(|e| short_eq(e.key.as_bytes(), key))
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// The strings of the list at `key` (a selector requirement's `values`), skipping items
    /// that are not strings; empty when absent or not a list.
    pub fn strings(&self, key: &str) -> Vec<&str> {
        self.get(key)
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect()
    }

    /// Follows a dotted path of map keys with optional list indices
    /// (`spec.claimRef.uid`, `spec.volumeClaimTemplates[0].spec`).
    pub fn at(&self, path: &str) -> Option<&Node> {
        let mut n = self;
        let mut rest = path;
        loop {
            // One `.`-separated segment: a key, then `[i]` indices.
            let (seg, next) = match byte_pos(rest, b'.') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            let (key, mut idx) = match byte_pos(seg, b'[') {
                Some(i) => (&seg[..i], &seg[i..]),
                None => (seg, ""),
            };
            if !key.is_empty() {
                n = n.get(key)?;
            }
            while let Some(r) = idx.strip_prefix('[') {
                let end = byte_pos(r, b']')?;
                let i: usize = r[..end].parse().ok()?;
                n = n.as_seq()?.get(i)?;
                idx = &r[end + 1..];
            }
            match next {
                Some(r) => rest = r,
                None => return Some(n),
            }
        }
    }

    /// A JSON-ish description of the node's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Scalar(s) => s.kind.type_name(),
            Value::Seq(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// Counts this node and everything below it.
    pub fn size(&self) -> usize {
        1 + match &self.value {
            Value::Scalar(_) => 0,
            Value::Seq(s) => s.iter().map(Node::size).sum(),
            Value::Map(m) => m.iter().map(|e| 1 + e.value.size()).sum(),
        }
    }
}

/// Whether two trees hold the same content, whatever their positions, quoting or key order
/// (a manifest written as YAML and as JSON, say).
pub fn same_content(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Scalar(x), Value::Scalar(y)) => match (x.kind, y.kind) {
            (ScalarKind::Bool(p), ScalarKind::Bool(q)) => p == q,
            (ScalarKind::Null, ScalarKind::Null) => true,
            (p, q) => p == q && x.text == y.text,
        },
        (Value::Seq(x), Value::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_content(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|e| {
                    y.iter()
                        .find(|f| f.key == e.key)
                        .is_some_and(|f| same_content(&e.value, &f.value))
                })
        }
        _ => false,
    }
}

/// The first position of an ASCII byte in a short string (paths, keys: a plain loop beats
/// `str::find`'s set-up).
fn byte_pos(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|c| c == b)
}

/// Equality for short byte strings (keys), without a `memcmp` call.
fn short_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    #[test]
    fn paths_with_indices() {
        let (docs, _) = crate::yaml::parse_stream("a:\n  - b: {c: 1}\n  - b: {c: [p, q]}\n");
        let r = docs[0].root.as_ref().unwrap();
        assert_eq!(r.at("a[1].b.c[1]").unwrap().as_str(), Some("q"));
        assert!(r.at("a[2].b").is_none());
        assert!(r.at("a[x]").is_none());
    }
}
