//! One YAML (or JSON) document as a JSON value, typed the way Kubernetes' decoder types YAML
//! (YAML 1.1 scalars: `yes` and `off` are booleans). For hosts' own settings files
//! (`.pvlint.yaml`), so they read YAML exactly as pvlint reads manifests.

use serde_json::{Map, Number, Value};

use crate::node::{Node, ScalarKind, Value as V};

fn convert(n: &Node) -> Value {
    match &n.value {
        V::Scalar(s) => match s.kind {
            ScalarKind::Null => Value::Null,
            ScalarKind::Bool(b) => Value::Bool(b),
            ScalarKind::Int => s
                .text
                .replace('_', "")
                .parse::<i64>()
                .map(|i| Value::Number(i.into()))
                .unwrap_or_else(|_| Value::String(s.text.clone())),
            ScalarKind::Float => s
                .text
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map_or_else(|| Value::String(s.text.clone()), Value::Number),
            ScalarKind::Str => Value::String(s.text.clone()),
        },
        V::Seq(items) => Value::Array(items.iter().map(convert).collect()),
        V::Map(entries) => {
            let mut m = Map::new();
            for e in entries {
                m.insert(e.key.clone(), convert(&e.value));
            }
            Value::Object(m)
        }
    }
}

/// The document's value; an error names the line and column of what is wrong. An empty
/// text is `null`; more than one document is an error.
pub fn yaml_to_json(text: &str) -> Result<Value, String> {
    let (docs, issues) = crate::yaml::parse_stream(text);
    if let Some(i) = issues.first() {
        return Err(format!(
            "{}:{}: {}",
            i.span.start.line, i.span.start.column, i.message
        ));
    }
    if docs.len() > 1 {
        return Err("expected one YAML document, found several".into());
    }
    Ok(docs
        .into_iter()
        .next()
        .and_then(|d| d.root)
        .map_or(Value::Null, |r| convert(&r)))
}
