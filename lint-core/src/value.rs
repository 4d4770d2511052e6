//! YAML (or JSON) documents as JSON values, typed the way Kubernetes' decoder types YAML
//! (YAML 1.1 scalars: `yes` and `off` are booleans, `0x1F` an integer). For hosts' own files
//! (`.pvlint.yaml`, a policy's settings, cluster-state files), so they read YAML exactly as
//! pvlint reads manifests.

use serde_json::{Number, Value};

use crate::node::{Node, ScalarKind, Value as V};
use crate::yaml::ParseIssue as Issue;

pub(crate) fn convert(n: &Node) -> Value {
    match &n.value {
        V::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.to_string(), convert(&e.value)))
                .collect(),
        ),
        V::Seq(items) => Value::Array(items.iter().map(convert).collect()),
        V::Scalar(s) => match s.kind {
            ScalarKind::Null => Value::Null,
            ScalarKind::Bool(b) => Value::Bool(b),
            ScalarKind::Int => match crate::scalar::int_value(&s.text) {
                Some(v) => i64::try_from(v)
                    .map(Value::from)
                    .or_else(|_| u64::try_from(v).map(Value::from))
                    .unwrap_or_else(|_| Value::String(s.text.to_string())),
                None => Value::String(s.text.to_string()),
            },
            ScalarKind::Float => crate::scalar::float_value(&s.text)
                .and_then(Number::from_f64)
                .map_or_else(|| Value::String(s.text.to_string()), Value::Number),
            ScalarKind::Str => Value::String(s.text.to_string()),
        },
    }
}

fn located(i: &Issue) -> String {
    format!(
        "{}:{}: {}",
        i.span.start.line, i.span.start.column, i.message
    )
}

/// The document's value; an error names the line and column of what is wrong. An empty
/// text is `null`; more than one document is an error.
pub fn yaml_to_json(text: &str) -> Result<Value, String> {
    let (docs, issues) = crate::yaml::parse_stream(text);
    if let Some(i) = issues.first() {
        return Err(located(i));
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

/// Every document of a stream; the first parse problem that leaves a document out (not a
/// duplicate key, whose last value is kept, as kubectl keeps it) is the error, with its line
/// and column.
pub fn documents_to_json(text: &str) -> Result<Vec<Value>, String> {
    let (docs, issues) = crate::yaml::parse_stream(text);
    if let Some(i) = issues.iter().find(|i| i.kind.fails()) {
        return Err(located(i));
    }
    Ok(docs
        .iter()
        .filter_map(|d| d.root.as_ref().map(convert))
        .collect())
}
