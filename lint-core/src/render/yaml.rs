//! JSON values as block-style YAML, the way `kubectl get -o yaml` reads: for `pvlint cluster
//! --save` and `--format policyreport`. A string is written plain only when the core's own
//! YAML 1.1 reading (sigs.k8s.io/yaml's) gives it back as the same string; otherwise it is
//! double-quoted with JSON escapes (valid YAML), so every value reads back exactly.

use serde_json::Value;

/// `v` as a YAML document (no `---`), with a final newline.
pub fn yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => seq(&mut out, a, 0),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
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

fn string(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("strings serialise")
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

fn map(out: &mut String, m: &serde_json::Map<String, Value>, indent: usize) {
    let mut first = true;
    for (k, v) in m {
        if !first || out.ends_with('\n') || out.is_empty() {
            out.push_str(&" ".repeat(indent));
        }
        first = false;
        out.push_str(&string(k));
        out.push(':');
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                map(out, inner, indent + 2);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                seq(out, items, indent);
            }
            other => {
                out.push(' ');
                out.push_str(&scalar(other));
                out.push('\n');
            }
        }
    }
}

fn seq(out: &mut String, a: &[Value], indent: usize) {
    for v in a {
        out.push_str(&" ".repeat(indent));
        out.push_str("- ");
        if is_block(v) {
            match v {
                // The first entry goes on the dash's line, the rest under it.
                Value::Object(m) => map(out, m, indent + 2),
                Value::Array(items) => {
                    out.push('\n');
                    seq(out, items, indent + 2);
                }
                _ => unreachable!(),
            }
        } else {
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_as_the_same_value() {
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
        let text = yaml(&v);
        let (docs, issues) = crate::yaml::parse_stream(&text);
        assert!(issues.is_empty(), "{issues:?}\n{text}");
        let root = docs[0].root.as_ref().unwrap();
        let ann = root.at("items[0].metadata.annotations").unwrap();
        assert_eq!(ann.get("x/y").unwrap().as_str(), Some("yes"));
        assert_eq!(ann.get("n").unwrap().as_str(), Some("10"));
        assert_eq!(ann.get("e").unwrap().as_str(), Some(""));
        assert_eq!(ann.get("q").unwrap().as_str(), Some("a: b"));
        assert_eq!(ann.get("nl").unwrap().as_str(), Some("two\nlines"));
        assert_eq!(
            root.at("items[0].spec.accessModes[0]").unwrap().as_str(),
            Some("ReadWriteOnce")
        );
        assert!(
            text.contains("x/y: \"yes\""),
            "yes is a boolean in YAML 1.1: quoted\n{text}"
        );
        assert!(text.contains("storage: 1Gi"), "plain where safe\n{text}");
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
        let text = yaml(&v);
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
}
