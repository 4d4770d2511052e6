//! The one API every host uses: the CLI, the WASI module's JSON ABI, the browser bindings and
//! the admission policy. A [`Request`] (manifests, the cluster state, options, what-if
//! operations) goes in; a [`Report`] (lint) or a [`Simulation`] (simulate) comes out.
//! `lint_json` / `simulate_json` take and give JSON, byte for byte what the CLI prints.

pub use crate::migrate::{
    Change, ChangeKind, MigrateOptions, MigrateRequest, MigratedObject, Migration,
};
use crate::options::Options;
use crate::report::Report;
pub use crate::request::{Operation, Request, OPERATION_FORMS, OPTION_KEYS, REQUEST_KEYS};
use crate::rules::Rule;
use crate::sim::Simulation;
use crate::source::Source;

/// Lints the request's manifests (applied onto its cluster state).
pub fn lint(req: &Request) -> Report {
    crate::pipeline::lint_request(req)
}

/// Lints like [`lint`], and drops each source's text as soon as the objects are read from it,
/// before the typed views are built: for hosts that show no source lines afterwards (JSON,
/// SARIF, CI annotations). On a large input the text is an eighth of the peak memory. The
/// report is the one [`lint`] gives; the sources keep their names, their texts are empty
/// after. Requests with `each_file` or `audit` keep their texts (each file is indexed alone,
/// and Kustomize inputs are looked up across all of them).
pub fn lint_and_drop_texts(req: &mut Request) -> Report {
    crate::pipeline::lint_request_dropping_texts(req)
}

/// Lints named sources together (objects in one may refer to objects in another), as if
/// applied to a cluster pvlint knows nothing about.
pub fn lint_sources(sources: &[Source], options: &Options) -> Report {
    lint(&Request {
        sources: sources.to_vec(),
        options: options.clone(),
        ..Request::default()
    })
}

/// Whether a source holds no document at all: nothing but whitespace, comments and document
/// markers (what a renderer that failed leaves on a pipe).
pub fn is_blank(source: &Source) -> bool {
    crate::yaml::is_blank(&source.text)
}

/// The rules, for documentation.
pub fn rules() -> &'static [&'static Rule] {
    crate::rules::ALL
}

/// What the verdict on one object (as JSON; in `namespace` when the request names it; `old`
/// the live object of an update) depends on in the cluster: the claims, volumes and whether
/// every volume, besides every StorageClass and CSIDriver. For hosts that read the cluster
/// object by object (see [`crate::needs`]).
pub fn needs(
    object: &serde_json::Value,
    namespace: &str,
    old: Option<&serde_json::Value>,
) -> crate::needs::Needs {
    crate::needs::needs(object, namespace, old)
}

/// Simulates the request: the manifests applied onto the cluster state, then each operation.
/// Where timing decides (claims created together, volumes created in the same apply), the
/// outcomes other timings give are listed too (`alternatives`).
pub fn simulate(req: &Request) -> Result<Simulation, String> {
    crate::pipeline::simulate(req)
}

/// Makes exported volumes and claims safe to apply to another cluster (`pvlint migrate`):
/// one document per object, server-populated fields and stale binding identity removed,
/// Retain set; see [`crate::migrate`].
pub fn migrate(req: &MigrateRequest) -> Migration {
    crate::migrate::migrate(req)
}

/// The migration for a JSON [`MigrateRequest`], as JSON (schema `pvlint-migrate/v1`).
pub fn migrate_json(request: &str) -> String {
    match serde_json::from_str::<MigrateRequest>(request) {
        Ok(r) => crate::render::migration_json(&migrate(&r)),
        Err(e) => error_json(&format!("invalid request: {e}")),
    }
}

/// The documents of a YAML or JSON stream as JSON values, typed the way the core (and
/// Kubernetes' YAML decoder) types them: `yes` is a boolean, `"yes"` a string, merge keys
/// applied. Hosts use it to read the same files the core reads (cluster state, settings).
/// The first parse problem is the error, with its line and column.
pub fn documents_json(text: &str) -> Result<Vec<serde_json::Value>, String> {
    crate::value::documents_to_json(text)
}

/// `{"error": "..."}`, the answer to a request that cannot be served.
pub fn error_json(message: &str) -> String {
    let mut s = serde_json::json!({ "error": message }).to_string();
    s.push('\n');
    s
}

/// The lint report for a JSON request, as `pvlint lint --format json` prints it.
pub fn lint_json(request: &str) -> String {
    match Request::from_json(request) {
        Ok(r) => crate::render::json(&lint(&r)),
        Err(e) => error_json(&e),
    }
}

/// The simulation for a JSON request, as `pvlint simulate --format json` prints it.
pub fn simulate_json(request: &str) -> String {
    match Request::from_json(request).and_then(|r| simulate(&r)) {
        Ok(s) => crate::render::simulation_json(&s),
        Err(e) => error_json(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_as_json() {
        let docs =
            documents_json("a: yes\nb: \"yes\"\nc: 0x1F\nd: 1.5\ne: ~\n---\n[1, x]\n").unwrap();
        assert_eq!(
            docs,
            vec![
                serde_json::json!({"a": true, "b": "yes", "c": 31, "d": 1.5, "e": null}),
                serde_json::json!([1, "x"])
            ]
        );
        let e = documents_json("a: [1\n").unwrap_err();
        assert!(e.starts_with("1:") || e.starts_with("2:"), "{e}");
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        assert!(lint_json("not json").contains("\"error\":\"invalid request"));
        let e = lint_json(r#"{"sources": [], "options": {"kubeVersion": "two"}}"#);
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = lint_json(r#"{"sources": [], "bogus": 1}"#);
        assert!(e.contains("unknown key") && e.contains("bogus"), "{e}");
        let e = simulate_json(r#"{"sources": [{"name": "x"}]}"#);
        assert!(e.contains("missing field `text`"), "{e}");
        let e =
            simulate_json(r#"{"sources": [], "operations": [{"op": "deletePv", "name": "nope"}]}"#);
        assert!(e.contains("there is no PersistentVolume nope"), "{e}");
    }
}
