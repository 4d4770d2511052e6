//! The span-carrying document tree every later stage reads.
//!
//! Scalars keep their source text and style; their type is resolved the way
//! Kubernetes' YAML decoder (sigs.k8s.io/yaml, YAML 1.1 rules) resolves it, so
//! `yes` is a boolean and `"yes"` is a string, exactly as `kubectl apply` sees them.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: String,
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

/// Resolves a plain scalar as go-yaml v2 (used by sigs.k8s.io/yaml) does.
pub fn resolve_plain(text: &str) -> ScalarKind {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarKind::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return ScalarKind::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return ScalarKind::Bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return ScalarKind::Float,
        _ => {}
    }
    if is_int(text) {
        ScalarKind::Int
    } else if is_float(text) {
        ScalarKind::Float
    } else {
        ScalarKind::Str
    }
}

fn is_int(t: &str) -> bool {
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    let digits = |s: &str, ok: fn(char) -> bool| {
        s.chars().any(|c| c != '_') && s.chars().all(|c| c == '_' || ok(c))
    };
    if let Some(h) = t.strip_prefix("0x") {
        return digits(h, |c| c.is_ascii_hexdigit());
    }
    if let Some(b) = t.strip_prefix("0b") {
        return digits(b, |c| c == '0' || c == '1');
    }
    digits(t, |c| c.is_ascii_digit())
}

fn is_float(t: &str) -> bool {
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let mut parts = mant.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit() || c == '_');
    let mant_ok = digits(int)
        && frac.is_none_or(digits)
        && (!int.is_empty() || frac.is_some_and(|f| !f.is_empty()))
        && (frac.is_some() || exp.is_some());
    let exp_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    mant_ok && exp_ok
}

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
        self.as_map()?.iter().find(|e| e.key == key)
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// Follows a dotted path of map keys with optional list indices
    /// (`spec.claimRef.uid`, `spec.volumeClaimTemplates[0].spec`).
    pub fn at(&self, path: &str) -> Option<&Node> {
        path.split('.').try_fold(self, |n, seg| {
            let (key, mut rest) = match seg.find('[') {
                Some(i) => (&seg[..i], &seg[i..]),
                None => (seg, ""),
            };
            let mut cur = if key.is_empty() { n } else { n.get(key)? };
            while let Some(r) = rest.strip_prefix('[') {
                let end = r.find(']')?;
                let idx: usize = r[..end].parse().ok()?;
                cur = cur.as_seq()?.get(idx)?;
                rest = &r[end + 1..];
            }
            Some(cur)
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_with_indices() {
        let (docs, _) = crate::yaml::parse_stream("a:\n  - b: {c: 1}\n  - b: {c: [p, q]}\n");
        let r = docs[0].root.as_ref().unwrap();
        assert_eq!(r.at("a[1].b.c[1]").unwrap().as_str(), Some("q"));
        assert!(r.at("a[2].b").is_none());
        assert!(r.at("a[x]").is_none());
    }

    #[test]
    fn plain_scalars_resolve_like_kubectl() {
        assert_eq!(resolve_plain("yes"), ScalarKind::Bool(true));
        assert_eq!(resolve_plain("off"), ScalarKind::Bool(false));
        assert_eq!(resolve_plain("3"), ScalarKind::Int);
        assert_eq!(resolve_plain("-0x1F"), ScalarKind::Int);
        assert_eq!(resolve_plain("1.5"), ScalarKind::Float);
        assert_eq!(resolve_plain("1e3"), ScalarKind::Float);
        assert_eq!(resolve_plain("~"), ScalarKind::Null);
        assert_eq!(resolve_plain("30Gi"), ScalarKind::Str);
        assert_eq!(resolve_plain("1.2.3"), ScalarKind::Str);
        assert_eq!(resolve_plain("25%"), ScalarKind::Str);
        assert_eq!(resolve_plain("e5"), ScalarKind::Str);
        assert_eq!(resolve_plain("."), ScalarKind::Str);
    }
}
