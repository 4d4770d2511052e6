//! Random JSON and random edits of a JSON document, for the hostile-input tests of the
//! policy (natively here, under the waPC host in harness/tests/admission_fuzz.rs).

use proptest::prelude::*;
use serde_json::Value;

pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-zA-Z0-9./:-]{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "ReadWriteOnce",
            "Delete",
            "Retain",
            "",
            "0",
            "1.5Gi",
            "-1",
            "CREATE",
            "UPDATE",
            "v1"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every path to a node of `v`.
pub fn paths(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| {
            paths(
                c,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| paths(c, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// Replaces the nodes at the chosen positions.
pub fn mutate(mut v: Value, picks: &[(usize, Value)]) -> Value {
    for (i, new) in picks {
        let mut all = Vec::new();
        paths(&v, String::new(), &mut all);
        let p = &all[i % all.len()];
        if p.is_empty() {
            continue;
        }
        if let Some(slot) = v.pointer_mut(p) {
            *slot = new.clone();
        }
    }
    v
}
