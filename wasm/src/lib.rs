//! pvlint's lint core as WebAssembly, built from one crate three ways:
//!
//! - `wasm32-unknown-unknown` + `wasm-bindgen --target web|no-modules`: the JavaScript package
//!   and the playground ([`browser`]): functions taking and returning plain JS objects.
//! - `wasm32-wasip1`: a core module with a small JSON ABI for any WASI host ([`abi`],
//!   documented in docs/embedding.md). The `pvlint --engine wasm` harness runs it under wasmtime.
//! - natively, the same request handling is tested like any Rust code.
//!
//! All three produce the JSON that `pvlint lint --format json` prints, byte for byte.

#[cfg(target_os = "wasi")]
pub mod abi;
#[cfg(not(target_os = "wasi"))]
pub mod browser;

use pvlint_core::{Options, Source};
use serde::Deserialize;

/// A named manifest text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSource {
    pub name: String,
    pub text: String,
}

/// What every entry point takes: manifests, the optional cluster state, and options.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Request {
    pub sources: Vec<InputSource>,
    pub cluster: Vec<InputSource>,
    pub options: Options,
    /// Lint each source on its own (`pvlint lint --each-file`).
    pub each_file: bool,
}

impl Request {
    pub fn parse(json: &str) -> Result<Request, String> {
        serde_json::from_str(json).map_err(|e| format!("invalid request: {e}"))
    }

    fn sources(list: &[InputSource]) -> Vec<Source> {
        list.iter()
            .map(|s| Source::new(s.name.clone(), s.text.clone()))
            .collect()
    }

    pub fn lint(&self) -> pvlint_core::Report {
        let sources = Self::sources(&self.sources);
        let cluster = Self::sources(&self.cluster);
        if self.each_file {
            pvlint_core::lint_each(&sources, &cluster, &self.options)
        } else {
            pvlint_core::lint_with_cluster(&sources, &cluster, &self.options)
        }
    }

    pub fn simulate(&self) -> pvlint_core::sim::SimReport {
        pvlint_core::simulate(
            &Self::sources(&self.sources),
            &Self::sources(&self.cluster),
            &self.options,
        )
    }
}

/// `{"error": "..."}`, the answer to a request that cannot be served.
pub fn error_json(message: &str) -> String {
    let mut s = serde_json::json!({ "error": message }).to_string();
    s.push('\n');
    s
}

/// The lint report for a JSON request, as `pvlint lint --format json` prints it.
pub fn lint_json(request: &str) -> String {
    match Request::parse(request) {
        Ok(r) => pvlint_core::render::json(&r.lint()),
        Err(e) => error_json(&e),
    }
}

/// The simulation for a JSON request, as `pvlint simulate --format json` prints it.
pub fn simulate_json(request: &str) -> String {
    match Request::parse(request) {
        Ok(r) => pvlint_core::render::simulation_json(&r.simulate()),
        Err(e) => error_json(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PV: &str = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a}\nspec:\n  nfs: {server: 1.2.3.4.5, path: /}\n";

    #[test]
    fn same_json_as_the_core() {
        let req = serde_json::json!({"sources": [{"name": "a.yaml", "text": PV}]}).to_string();
        let native = pvlint_core::render::json(&pvlint_core::lint(
            &[Source::new("a.yaml", PV)],
            &Options::default(),
        ));
        assert_eq!(lint_json(&req), native);
        assert!(native.contains("invalid-nfs-server"));
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        assert!(lint_json("not json").contains("\"error\":\"invalid request"));
        let e = lint_json(r#"{"sources": [], "options": {"kubeVersion": "two"}}"#);
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = lint_json(r#"{"sources": [], "bogus": 1}"#);
        assert!(e.contains("unknown field"), "{e}");
        let e = simulate_json(r#"{"sources": [{"name": "x"}]}"#);
        assert!(e.contains("missing field `text`"), "{e}");
    }
}
