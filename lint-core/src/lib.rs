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
    let cluster_index = index::Index::build(cluster);
    let mut run = run_rules(sources, &cluster_index, !cluster.is_empty(), options);
    report_cluster_problems(cluster, &cluster_index, &mut run.findings);
    run.into_report(sources.len(), options)
}

/// Lints every source on its own (objects in one source do not see objects in another), all
/// onto the same cluster state, and merges the results into one report, in source order.
pub fn lint_each(sources: &[Source], cluster: &[Source], options: &Options) -> Report {
    let cluster_index = index::Index::build(cluster);
    let mut all = Run::default();
    for s in sources {
        let run = run_rules(
            std::slice::from_ref(s),
            &cluster_index,
            !cluster.is_empty(),
            options,
        );
        all.findings.extend(run.findings);
        all.documents += run.documents;
        all.objects += run.objects;
    }
    report_cluster_problems(cluster, &cluster_index, &mut all.findings);
    all.into_report(sources.len(), options)
}

/// Findings of one rule run, before the report is assembled.
#[derive(Default)]
struct Run {
    findings: Vec<Finding>,
    documents: usize,
    objects: usize,
}

impl Run {
    fn into_report(self, sources: usize, options: &Options) -> Report {
        let count = |s: Severity| self.findings.iter().filter(|f| f.severity == s).count();
        let summary = Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            sources,
            documents: self.documents,
            objects: self.objects,
        };
        Report {
            schema: SCHEMA.to_string(),
            version: VERSION.to_string(),
            options: options.clone(),
            findings: self.findings,
            summary,
        }
    }
}

/// Runs every rule over `sources` applied onto the cluster; findings sorted, one per root cause.
fn run_rules(
    sources: &[Source],
    cluster_index: &index::Index,
    cluster_given: bool,
    options: &Options,
) -> Run {
    let index = index::Index::build(sources);
    let world = sim::simulate(cluster_index, &index, options);
    let ctx = rules::Context {
        sources,
        index: &index,
        options,
        sim: &world,
        cluster_known: cluster_given || options.complete,
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
    Run {
        findings,
        documents: index.documents,
        objects: index.objects.len(),
    }
}

/// Documents of the cluster state that could not be read, reported once by the parse-error rule.
fn report_cluster_problems(
    cluster: &[Source],
    cluster_index: &index::Index,
    out: &mut Vec<Finding>,
) {
    let rule = rules::find("parse-error").expect("the parse-error rule is registered");
    let mut sink = rules::Sink { rule, out };
    for d in cluster_index
        .diags
        .iter()
        .filter(|d| d.kind == model::DiagKind::Parse)
    {
        let f = sink.report_diag(&cluster[d.source].name, d);
        f.message = format!("cluster state: {}", f.message);
    }
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
