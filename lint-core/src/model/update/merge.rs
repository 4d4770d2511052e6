//! What reaches the API server: the manifest merged into the live object as the tool merges,
//! and how two values differ, as the server's messages show it.

use serde_json::{Map, Value};

use super::{ApplyModel, LAST_APPLIED};
use crate::quantity::Quantity;

/// The object the API server receives: `new` merged into `live` as `model` merges.
pub fn merged(live: &Value, new: &Value, model: &ApplyModel) -> Value {
    let last = match model {
        ApplyModel::ClientSide => live["metadata"]["annotations"][LAST_APPLIED]
            .as_str()
            .and_then(|s| serde_json::from_str::<Value>(s).ok()),
        ApplyModel::SameApply => Some(live.clone()),
        _ => None,
    };
    merge(Some(live), new, last.as_ref())
}

pub(super) fn merge(live: Option<&Value>, new: &Value, last: Option<&Value>) -> Value {
    match (live, new) {
        (Some(Value::Object(l)), Value::Object(n)) => {
            let mut out = l.clone();
            for (k, v) in n {
                if v.is_null() {
                    out.remove(k);
                    continue;
                }
                let merged = merge(l.get(k), v, last.and_then(|p| p.get(k)));
                out.insert(k.clone(), merged);
            }
            if let Some(Value::Object(p)) = last {
                for k in p.keys() {
                    if !n.contains_key(k) {
                        out.remove(k);
                    }
                }
            }
            out.into_iter().collect()
        }
        _ => new.clone(),
    }
}

/// Values the API server fills in when a field is absent: the same as absent.
pub(super) fn is_default(key: &str, v: &Value) -> bool {
    matches!(
        (key, v.as_str()),
        ("volumeMode", Some("Filesystem"))
            | ("podManagementPolicy", Some("OrderedReady"))
            | ("volumeBindingMode", Some("Immediate"))
            | ("reclaimPolicy", Some("Delete"))
    ) || (key == "attachRequired" && *v == Value::Bool(true))
}

/// Zero values: absent once decoded.
pub(super) fn zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.values().all(zero),
        // Go's omitempty: false and 0 are not written back.
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
    }
}

/// A value as the API server compares it: zero values and defaults left out, quantities by
/// value, server-written parts of claim templates (`status`, `creationTimestamp`,
/// `apiVersion`/`kind`) left out.
pub(super) fn canon(v: &Value, key: &str) -> Value {
    match v {
        Value::Object(m) => {
            let template = key == "volumeClaimTemplates";
            let mut out = Map::new();
            for (k, x) in m {
                if zero(x) || is_default(k, x) {
                    continue;
                }
                if template && matches!(k.as_str(), "status" | "apiVersion" | "kind") {
                    continue;
                }
                let c = canon(x, if template { "" } else { k });
                if !zero(&c) {
                    out.insert(k.clone(), c);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| canon(i, key)).collect()),
        Value::String(s) if matches!(key, "storage" | "cpu" | "memory") => {
            match Quantity::parse(s) {
                Ok(q) => Value::String(format!("={}", q.key())),
                Err(_) => v.clone(),
            }
        }
        // Numbers and booleans written as text are decoded the same (`"3"` stays a string
        // the decoder refuses elsewhere): compare as written.
        _ => v.clone(),
    }
}

pub(super) fn same(a: &Value, b: &Value, key: &str) -> bool {
    let norm = |v: &Value| {
        if zero(v) || is_default(key, v) {
            Value::Null
        } else {
            canon(v, key)
        }
    };
    norm(a) == norm(b)
}

/// `a` without `keys` (an object), or null.
pub(super) fn without(a: &Value, keys: &[&str]) -> Value {
    match a {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !keys.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        _ => Value::Null,
    }
}

pub(super) fn show(v: &Value) -> String {
    match v {
        Value::Null => "(unset)".into(),
        _ => {
            let s = v.to_string();
            if s.chars().count() > 160 {
                let cut: String = s.chars().take(157).collect();
                format!("{cut}...")
            } else {
                s
            }
        }
    }
}

/// The first top-level key of two objects whose values differ (or "").
pub(super) fn first_difference(a: &Value, b: &Value) -> String {
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut all = keys(a);
    all.extend(keys(b));
    all.sort();
    all.dedup();
    all.into_iter()
        .find(|k| !same(&a[k.as_str()], &b[k.as_str()], k))
        .unwrap_or_default()
}

/// The deepest place two values differ: its path below them (`[0].spec.resources`) and the
/// two values there.
pub(super) fn deep_difference<'v>(
    a: &'v Value,
    b: &'v Value,
    key: &str,
) -> (String, &'v Value, &'v Value) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            let template = key == "volumeClaimTemplates";
            let differing: Vec<&String> = keys
                .into_iter()
                .filter(|k| !(template && matches!(k.as_str(), "status" | "apiVersion" | "kind")))
                .filter(|k| {
                    !same(
                        &a[k.as_str()],
                        &b[k.as_str()],
                        if template { "" } else { k },
                    )
                })
                .collect();
            match differing.as_slice() {
                [k] => {
                    let below = if template { "" } else { k.as_str() };
                    let (rest, p, q) = deep_difference(&a[k.as_str()], &b[k.as_str()], below);
                    (format!(".{k}{rest}"), p, q)
                }
                _ => (String::new(), a, b),
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let differing: Vec<usize> =
                (0..x.len()).filter(|&i| !same(&x[i], &y[i], key)).collect();
            match differing.as_slice() {
                [i] => {
                    let (rest, p, q) = deep_difference(&x[*i], &y[*i], key);
                    (format!("[{i}]{rest}"), p, q)
                }
                _ => (String::new(), a, b),
            }
        }
        _ => (String::new(), a, b),
    }
}

/// `path: live` and `path: new` at the deepest difference under `field` of two specs.
pub(super) fn difference_at(field: &str, o: &Value, n: &Value) -> (String, String) {
    let (rest, p, q) = deep_difference(&o[field], &n[field], field);
    (
        format!("{field}{rest}: {}", show(p)),
        format!("{field}{rest}: {}", show(q)),
    )
}

pub(super) fn quantity(v: &Value) -> Option<Quantity> {
    v.as_str().and_then(|s| Quantity::parse(s).ok())
}

/// Server-printed `Invalid value: "x"` (strings quoted, other values as JSON).
pub(super) fn invalid_value(v: &Value) -> String {
    v.to_string()
}
