//! A cluster that answers the policy's lookups from a list of objects (a fixture's
//! cluster.yaml): shared by the native hostile-input tests and the cargo-fuzz targets.

use pvlint_kubewarden::context::Lookup;
use serde_json::Value;

/// A cluster that answers from a fixture's cluster.yaml.
pub struct State(pub Vec<Value>);

fn is(v: &Value, api: &str, kind: &str) -> bool {
    v["apiVersion"] == api && v["kind"] == kind
}

impl Lookup for State {
    fn get(
        &self,
        api: &str,
        kind: &str,
        ns: Option<&str>,
        name: &str,
    ) -> Result<Option<Value>, String> {
        Ok(self
            .0
            .iter()
            .find(|v| {
                is(v, api, kind)
                    && v["metadata"]["name"] == name
                    && v["metadata"]["namespace"].as_str() == ns
            })
            .cloned())
    }
    fn list_all(&self, api: &str, kind: &str) -> Result<Vec<Value>, String> {
        Ok(self
            .0
            .iter()
            .filter(|v| is(v, api, kind))
            .cloned()
            .collect())
    }
    fn list_namespaced(&self, api: &str, kind: &str, ns: &str) -> Result<Vec<Value>, String> {
        Ok(self
            .0
            .iter()
            .filter(|v| is(v, api, kind) && v["metadata"]["namespace"] == ns)
            .cloned()
            .collect())
    }
}
