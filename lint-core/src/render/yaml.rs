//! JSON values as block-style YAML, the way `kubectl get -o yaml` reads: for `pvlint cluster
//! --save` and `--format policyreport`, through the core's one YAML writer (`yaml/write.rs`).

use serde_json::Value;

/// `v` as a YAML document (no `---`), with a final newline.
pub fn yaml(v: &Value) -> String {
    crate::yaml::write::write(v)
}
