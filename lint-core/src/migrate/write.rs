//! A tree written out as block YAML (kubectl's style).

use crate::node::{Entry, Node, ScalarKind, Value};

/// Block YAML for a node (kubectl's style: sequence items at their key's indentation).
pub(super) fn emit(n: &Node) -> String {
    let mut out = String::new();
    match &n.value {
        Value::Map(m) if !m.is_empty() => emit_map(&mut out, m, 0),
        Value::Seq(s) if !s.is_empty() => emit_seq(&mut out, s, 0),
        _ => {
            out.push_str(&inline(n));
            out.push('\n');
        }
    }
    out
}

pub(super) fn inline(n: &Node) -> String {
    match &n.value {
        Value::Scalar(s) => match s.kind {
            ScalarKind::Str => format_str(&s.text),
            ScalarKind::Null => "null".into(),
            _ => s.text.to_string(),
        },
        Value::Map(_) => "{}".into(),
        Value::Seq(_) => "[]".into(),
    }
}

pub(super) fn emit_map(out: &mut String, m: &[Entry], ind: usize) {
    for e in m {
        out.push_str(&" ".repeat(ind));
        out.push_str(&format_str(&e.key));
        out.push(':');
        emit_value(out, &e.value, ind);
    }
}

/// After `key:` (at indentation `ind`).
pub(super) fn emit_value(out: &mut String, v: &Node, ind: usize) {
    match &v.value {
        Value::Map(m) if !m.is_empty() => {
            out.push('\n');
            emit_map(out, m, ind + 2);
        }
        Value::Seq(s) if !s.is_empty() => {
            out.push('\n');
            emit_seq(out, s, ind);
        }
        _ => {
            out.push(' ');
            out.push_str(&inline(v));
            out.push('\n');
        }
    }
}

pub(super) fn emit_seq(out: &mut String, s: &[Node], ind: usize) {
    for item in s {
        match &item.value {
            Value::Map(m) if !m.is_empty() => {
                // The map at ind + 2, its first line's indentation turned into `- `.
                let mut block = String::new();
                emit_map(&mut block, m, ind + 2);
                out.push_str(&" ".repeat(ind));
                out.push_str("- ");
                out.push_str(&block[ind + 2..]);
            }
            Value::Seq(inner) if !inner.is_empty() => {
                out.push_str(&" ".repeat(ind));
                out.push_str("-\n");
                emit_seq(out, inner, ind + 2);
            }
            _ => {
                out.push_str(&" ".repeat(ind));
                out.push_str("- ");
                out.push_str(&inline(item));
                out.push('\n');
            }
        }
    }
}

/// A string as a plain scalar when it reads back as the same string, else double-quoted.
pub(super) fn format_str(t: &str) -> String {
    let plain = !t.is_empty()
        && crate::scalar::plain_is_same_string(t)
        && !t.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` \t".contains(c))
        && !t.ends_with([' ', ':', '\t'])
        && !t.contains(": ")
        && !t.contains(" #")
        && !t.chars().any(|c| c.is_control() || c == '\u{feff}');
    if plain {
        t.to_string()
    } else {
        serde_json::to_string(t).unwrap_or_else(|_| format!("\"{t}\""))
    }
}
