//! Block YAML as `kubectl get -o yaml` writes it (sequence items at their key's indentation):
//! the one writer for every tree pvlint writes out — a flow-style document `pvlint migrate`
//! writes again, a saved cluster state, PolicyReports. A string is written plain only when the
//! core's own YAML 1.1 reading (sigs.k8s.io/yaml's) gives it back as the same string and it is
//! made of characters no YAML reader takes for syntax; otherwise it is double-quoted with JSON
//! escapes (valid YAML), so every value reads back exactly. Other scalars (null, booleans,
//! numbers) are written as they are.

use std::borrow::Cow;

use crate::node::{Node, ScalarKind, Value};

/// A tree the writer can write: YAML trees and JSON values.
pub(crate) trait Tree {
    fn shape(&self) -> Shape<'_, Self>;
}

/// One node of a tree, as the writer sees it.
pub(crate) enum Shape<'a, T: ?Sized> {
    Map(Vec<(&'a str, &'a T)>),
    Seq(Vec<&'a T>),
    /// A string: plain when that reads back as the same string, else quoted.
    Str(&'a str),
    /// Null, a boolean or a number: written as it is.
    Other(Cow<'a, str>),
}

impl Tree for Node {
    fn shape(&self) -> Shape<'_, Node> {
        match &self.value {
            Value::Map(m) => Shape::Map(m.iter().map(|e| (e.key.as_str(), &e.value)).collect()),
            Value::Seq(s) => Shape::Seq(s.iter().collect()),
            Value::Scalar(s) => match s.kind {
                ScalarKind::Str => Shape::Str(&s.text),
                ScalarKind::Null => Shape::Other(Cow::Borrowed("null")),
                _ => Shape::Other(Cow::Borrowed(&s.text)),
            },
        }
    }
}

impl Tree for serde_json::Value {
    fn shape(&self) -> Shape<'_, serde_json::Value> {
        use serde_json::Value as J;
        match self {
            J::Null => Shape::Other(Cow::Borrowed("null")),
            J::Bool(b) => Shape::Other(Cow::Owned(b.to_string())),
            J::Number(n) => Shape::Other(Cow::Owned(n.to_string())),
            J::String(s) => Shape::Str(s),
            J::Array(a) => Shape::Seq(a.iter().collect()),
            J::Object(m) => Shape::Map(m.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        }
    }
}

/// `tree` as a YAML document (no `---`), with a final newline.
pub(crate) fn write<T: Tree + ?Sized>(tree: &T) -> String {
    let mut out = String::new();
    match tree.shape() {
        Shape::Map(m) if !m.is_empty() => map(&mut out, &m, 0),
        Shape::Seq(s) if !s.is_empty() => seq(&mut out, &s, 0),
        other => {
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
    out
}

/// A string as a scalar: plain when that is safe (see the module docs), else double-quoted.
pub(crate) fn string(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("strings serialise")
    }
}

fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let last = s.chars().last().expect("non-empty");
    (first.is_ascii_alphanumeric() || first == '/' || first == '.')
        && last != ' '
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || " ._/-=+@,()^".contains(c))
        && !s.contains(": ")
        && !s.contains(" #")
        && crate::scalar::plain_is_same_string(s)
}

fn inline<T: Tree + ?Sized>(shape: Shape<'_, T>) -> String {
    match shape {
        Shape::Str(s) => string(s),
        Shape::Other(text) => text.into_owned(),
        Shape::Map(_) => "{}".into(),
        Shape::Seq(_) => "[]".into(),
    }
}

/// A map's entries at `indent`; the first on the current line when it follows a `- `.
fn map<T: Tree + ?Sized>(out: &mut String, entries: &[(&str, &T)], indent: usize) {
    for (n, (k, v)) in entries.iter().enumerate() {
        if n > 0 || out.ends_with('\n') || out.is_empty() {
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(&string(k));
        out.push(':');
        match v.shape() {
            Shape::Map(inner) if !inner.is_empty() => {
                out.push('\n');
                map(out, &inner, indent + 2);
            }
            Shape::Seq(items) if !items.is_empty() => {
                out.push('\n');
                seq(out, &items, indent);
            }
            other => {
                out.push(' ');
                out.push_str(&inline(other));
                out.push('\n');
            }
        }
    }
}

/// A sequence's items at `indent`, each after `- `.
fn seq<T: Tree + ?Sized>(out: &mut String, items: &[&T], indent: usize) {
    for item in items {
        out.push_str(&" ".repeat(indent));
        match item.shape() {
            // The first entry goes on the dash's line, the rest under it.
            Shape::Map(m) if !m.is_empty() => {
                out.push_str("- ");
                map(out, &m, indent + 2);
            }
            Shape::Seq(inner) if !inner.is_empty() => {
                out.push_str("-\n");
                seq(out, &inner, indent + 2);
            }
            other => {
                out.push_str("- ");
                out.push_str(&inline(other));
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reads_back_as_the_same_value() {
        let v = serde_json::json!({
            "apiVersion": "v1",
            "kind": "List",
            "items": [
                {"metadata": {"name": "a", "annotations": {"x/y": "yes", "n": "10", "e": "", "q": "a: b", "nl": "two\nlines"}},
                 "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}, "empty": {}, "none": [], "n": 3, "t": true, "z": null}},
                [["nested"]],
                "plain"
            ]
        });
        let text = write(&v);
        let (docs, issues) = crate::yaml::parse_stream(&text);
        assert!(issues.is_empty(), "{issues:?}\n{text}");
        assert_eq!(crate::value::convert(docs[0].root.as_ref().unwrap()), v);
        assert!(
            text.contains("x/y: \"yes\""),
            "yes is a boolean in YAML 1.1: quoted\n{text}"
        );
        assert!(text.contains("storage: 1Gi"), "plain where safe\n{text}");
        assert!(!text.lines().any(|l| l.ends_with(' ')), "{text}");
    }

    /// Strings a YAML 1.1 reader (PyYAML, yq v3, go-yaml into a typed field) takes for dates,
    /// timestamps or sexagesimal numbers are quoted, as well as booleans and nulls.
    #[test]
    fn dates_timestamps_and_sexagesimals_are_quoted() {
        let v = serde_json::json!({"metadata": {"annotations": {
            "date": "2019-12-01",
            "at": "2019-12-01T13:50:44-07:00",
            "spaced": "2001-12-14 21:59:43.10 -5",
            "clock": "12:30:00",
            "switch": "off",
            "tilde": "~",
            "version": "v1.2.3",
        }}});
        let text = write(&v);
        for line in [
            "date: \"2019-12-01\"",
            "at: \"2019-12-01T13:50:44-07:00\"",
            "spaced: \"2001-12-14 21:59:43.10 -5\"",
            "clock: \"12:30:00\"",
            "switch: \"off\"",
            "tilde: \"~\"",
            "version: v1.2.3",
        ] {
            assert!(text.contains(line), "{line}\n{text}");
        }
    }

    /// A YAML tree is written with its scalars as they were typed: `yes` stays the boolean
    /// it is, `0x1F` the number, and the document reads back the same.
    #[test]
    fn yaml_trees_keep_their_scalars() {
        let text = "{a: yes, b: \"yes\", c: 0x1F, d: [1, {e: ~}], f: {}, \"g h\": [[x]]}";
        let (docs, _) = crate::yaml::parse_stream(text);
        let root = docs[0].root.as_ref().unwrap();
        let out = write(root);
        assert_eq!(
            out,
            "a: yes\nb: \"yes\"\nc: 0x1F\nd:\n- 1\n- e: null\nf: {}\ng h:\n-\n  - x\n"
        );
        let (again, issues) = crate::yaml::parse_stream(&out);
        assert!(issues.is_empty());
        assert!(crate::node::same_content(
            again[0].root.as_ref().unwrap(),
            root
        ));
    }
}
