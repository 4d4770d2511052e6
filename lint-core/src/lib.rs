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
pub mod sim;
pub mod source;
pub mod yaml;

use serde::{Deserialize, Serialize};

pub use finding::{Finding, Location, ObjectRef, Related, Severity, Suggestion};
pub use options::{KubeVersion, Options};
pub use rules::{Family, Rule};
pub use source::Source;

/// Version of the JSON output schema (docs/json-schema.md).
pub const SCHEMA: &str = "pvlint/v1";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: String,
    pub version: String,
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

/// Lints a set of named sources together (objects in one may refer to objects in another),
/// as if applied to an empty cluster.
pub fn lint(sources: &[Source], options: &Options) -> Report {
    lint_with_cluster(sources, &[], options)
}

/// Lints `sources` as if applied onto the cluster whose objects `cluster` holds (the output of
/// `kubectl get pv,pvc,storageclass,csidriver -A -o yaml`).
pub fn lint_with_cluster(sources: &[Source], cluster: &[Source], options: &Options) -> Report {
    let index = index::Index::build(sources);
    let cluster_index = index::Index::build(cluster);
    let world = sim::simulate(&cluster_index, &index, options);
    let ctx = rules::Context {
        sources,
        index: &index,
        options,
        sim: &world,
        cluster_known: !cluster.is_empty() || options.complete,
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
            .then(a.rule.cmp(&b.rule))
            .then(a.message.cmp(&b.message))
    });
    findings.dedup();
    // One finding per root cause: a predicted consequence gives way to the rule that reports the cause.
    let primary: std::collections::HashSet<String> = findings
        .iter()
        .filter_map(|f| f.cause.as_ref().filter(|c| c.1).map(|c| c.0.clone()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    findings.retain(|f| match &f.cause {
        Some((key, false)) => !primary.contains(key) && seen.insert(key.clone()),
        _ => true,
    });
    // Problems in the cluster-state input itself.
    for d in cluster_index
        .diags
        .iter()
        .filter(|d| d.kind == model::DiagKind::Parse)
    {
        findings.push(Finding {
            rule: "parse-error".into(),
            family: "validity".into(),
            severity: d.severity,
            message: format!("cluster state: {}", d.message),
            object: None,
            path: d.field.path.clone(),
            location: Location::new(&cluster[d.source].name, d.document, d.field.span),
            help: d.help.clone(),
            suggestion: None,
            related: Vec::new(),
            cause: None,
        });
    }
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
        schema: SCHEMA.to_string(),
        version: VERSION.to_string(),
        options: options.clone(),
        findings,
        summary,
    }
}

/// Lints every source on its own (objects in one source do not see objects in another) and
/// merges the results into one report, in source order.
pub fn lint_each(sources: &[Source], cluster: &[Source], options: &Options) -> Report {
    let mut merged = lint(&[], options);
    for s in sources {
        let r = lint_with_cluster(std::slice::from_ref(s), cluster, options);
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

/// Simulates the PV controller over `sources` applied onto `cluster`.
pub fn simulate(sources: &[Source], cluster: &[Source], options: &Options) -> sim::SimReport {
    let index = index::Index::build(sources);
    let cluster_index = index::Index::build(cluster);
    sim::simulate(&cluster_index, &index, options).report()
}

/// Every rule pvlint has.
pub fn rules() -> &'static [&'static Rule] {
    rules::ALL
}
