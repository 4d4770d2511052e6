//! pvlint's lint core: Kubernetes manifests in, storage-hazard findings out.
//!
//! Pure: no I/O, no threads, no clock. The same code runs natively, in the browser and
//! in any WebAssembly host. Data flows one way:
//! sources → [`yaml`] documents with spans → [`index::Index`] of typed objects →
//! [`rules`] → [`Finding`]s → [`render`] (human, JSON).

pub mod facts;
pub mod finding;
pub mod index;
pub mod kube;
pub mod model;
pub mod node;
pub mod options;
pub mod quantity;
pub mod render;
pub mod rules;
pub mod schema;
pub mod source;
pub mod yaml;

use serde::Serialize;

pub use finding::{Finding, Location, ObjectRef, Related, Severity, Suggestion};
pub use options::{KubeVersion, Options};
pub use rules::{Family, Rule};
pub use source::Source;

/// Version of the JSON output schema (docs/json-schema.md).
pub const SCHEMA: &str = "pvlint/v1";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub sources: usize,
    pub documents: usize,
    pub objects: usize,
}

/// The result of one lint run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: &'static str,
    pub version: &'static str,
    pub options: Options,
    pub findings: Vec<Finding>,
    pub summary: Summary,
}

impl Report {
    /// The highest severity found, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Lints a set of named sources together (objects in one may refer to objects in another).
pub fn lint(sources: &[Source], options: &Options) -> Report {
    let index = index::Index::build(sources);
    let ctx = rules::Context {
        sources,
        index: &index,
        options,
    };
    let mut findings = Vec::new();
    for rule in rules::ALL {
        let mut sink = rules::Sink {
            rule,
            out: &mut findings,
        };
        (rule.check)(&ctx, &mut sink);
    }
    let order: std::collections::HashMap<&str, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .rev()
        .collect();
    findings.sort_by(|a, b| {
        let ka = (
            order.get(a.location.file.as_str()),
            a.location.line,
            a.location.column,
        );
        let kb = (
            order.get(b.location.file.as_str()),
            b.location.line,
            b.location.column,
        );
        ka.cmp(&kb)
            .then(b.severity.cmp(&a.severity))
            .then(a.rule.cmp(b.rule))
            .then(a.message.cmp(&b.message))
    });
    findings.dedup();
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let summary = Summary {
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        sources: sources.len(),
        documents: index.documents,
        objects: index.objects.len(),
    };
    Report {
        schema: SCHEMA,
        version: VERSION,
        options: options.clone(),
        findings,
        summary,
    }
}

/// Lints every source on its own (objects in one source do not see objects in another) and
/// merges the results into one report, in source order.
pub fn lint_each(sources: &[Source], options: &Options) -> Report {
    let mut merged = lint(&[], options);
    for s in sources {
        let r = lint(std::slice::from_ref(s), options);
        merged.findings.extend(r.findings);
        merged.summary.errors += r.summary.errors;
        merged.summary.warnings += r.summary.warnings;
        merged.summary.infos += r.summary.infos;
        merged.summary.documents += r.summary.documents;
        merged.summary.objects += r.summary.objects;
    }
    merged.summary.sources = sources.len();
    merged
}

/// Every rule pvlint has.
pub fn rules() -> &'static [&'static Rule] {
    rules::ALL
}
