//! pvlint's lint core for JavaScript, via wasm-bindgen (`wasm-bindgen --target web`).
//!
//! Every function takes and returns JSON text, in the same schema as
//! `pvlint lint --format json` (docs/json-schema.md), so browser, CLI and any other host
//! give byte-identical results for the same input.

use pvlint_core::{Options, Source};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
struct InputSource {
    name: String,
    text: String,
}

/// The JSON report for `sources_json` (`[{"name": ..., "text": ...}, ...]`) and `options_json`
/// (`{"kubeVersion": "1.31", "complete": false}`, fields optional). Bad JSON input gives an
/// error string naming the problem, never a panic.
#[wasm_bindgen]
pub fn lint(sources_json: &str, options_json: &str) -> Result<String, JsError> {
    lint_json(sources_json, options_json).map_err(|e| JsError::new(&e))
}

/// Every rule with its documentation, as JSON.
#[wasm_bindgen]
pub fn rules() -> String {
    pvlint_core::render::rules_json(pvlint_core::rules())
}

/// One rule's documentation as Markdown, or `undefined` for an unknown id.
#[wasm_bindgen]
pub fn explain(id: &str) -> Option<String> {
    pvlint_core::rules::find(id).map(pvlint_core::render::explain)
}

/// The version of the lint core.
#[wasm_bindgen]
pub fn version() -> String {
    pvlint_core::VERSION.to_string()
}

/// The pure part of [`lint`], testable natively.
pub fn lint_json(sources_json: &str, options_json: &str) -> Result<String, String> {
    let inputs: Vec<InputSource> = serde_json::from_str(sources_json)
        .map_err(|e| format!("sources: {e} (expected [{{\"name\": ..., \"text\": ...}}])"))?;
    let options: Options = if options_json.trim().is_empty() {
        Options::default()
    } else {
        serde_json::from_str(options_json).map_err(|e| format!("options: {e}"))?
    };
    let sources: Vec<Source> = inputs
        .into_iter()
        .map(|s| Source::new(s.name, s.text))
        .collect();
    Ok(pvlint_core::render::json(&pvlint_core::lint(
        &sources, &options,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_json_as_the_core() {
        let text = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a}\nspec:\n  nfs: {server: 1.2.3.4.5, path: /}\n";
        let out = lint_json(r#"[{"name": "a.yaml", "text": "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a}\nspec:\n  nfs: {server: 1.2.3.4.5, path: /}\n"}]"#, "{}").unwrap();
        let native = pvlint_core::render::json(&pvlint_core::lint(
            &[Source::new("a.yaml", text)],
            &Options::default(),
        ));
        assert_eq!(out, native);
        assert!(out.contains("invalid-nfs-server"));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(lint_json("not json", "")
            .unwrap_err()
            .starts_with("sources:"));
        let e = lint_json("[]", r#"{"kubeVersion": "two"}"#).unwrap_err();
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = lint_json("[]", r#"{"bogus": 1}"#).unwrap_err();
        assert!(e.contains("unknown field"), "{e}");
    }
}
