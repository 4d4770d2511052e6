//! pvlint's lint core: Kubernetes manifests in, storage-hazard findings out.
//!
//! Pure: no I/O, no threads, no clock. The same code runs natively, in the browser, in any
//! WebAssembly host and inside the admission policy, all through [`api`]. Data flows one way:
//! sources → `yaml` documents with spans → `index` of typed objects → `sim` (the PV
//! controller run over the manifests applied onto the cluster state) → `rules` → [`Finding`]s →
//! [`render`] (human, JSON).
//!
//! Architecture invariants:
//! - the simulator is the one place that decides what happens to claims, volumes and storage;
//!   rules read its typed outcomes and never re-derive them;
//! - every finding has a file, line and column that exist in its source;
//! - no input makes the core panic; a broken document never hides the others.

pub mod api;
pub(crate) mod apiversions;
pub mod applyset;
pub(crate) mod audit;
pub(crate) mod binding;
pub(crate) mod drivers;
pub mod finding;
pub(crate) mod index;
pub(crate) mod kube;
pub(crate) mod kustomize;
pub mod migrate;
pub(crate) mod model;
pub(crate) mod node;
pub mod options;
pub mod origin;
pub(crate) mod quantity;
pub mod render;
pub mod rules;
pub(crate) mod scalar;
pub(crate) mod schema;
pub(crate) mod sim;
pub mod source;
mod suppress;
pub(crate) mod template;
mod value;
pub(crate) mod yaml;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use rules::Reads;

pub use api::{Operation, Request};
pub use finding::{
    Applicability, Consequence, Edit, EventText, Finding, Location, ObjectRef, Phase, Related,
    Severity, StorageFate, Suggestion,
};
pub use node::Str;
pub use options::{FieldValidation, KubeVersion, Options, RuleLevel};
pub use rules::{Docs, Family, Rule};
pub use schema::suggest as did_you_mean;
pub use sim::report::{ClaimOutcome, Located, OriginOut, Step, StorageOut, VolumeOutcome};
pub use sim::{ClaimPhase, Event, EventType, Reason, Simulation, VolumePhase};
pub use source::{decode, DecodeError, Source};
pub use value::yaml_to_json;

/// Parts of the report.
pub mod report {
    use serde::{Deserialize, Serialize};

    /// An apply set, as the report names it.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ApplySetOut {
        pub kind: crate::applyset::SetKind,
        /// The directory, kustomization file or source; empty for `--together`.
        pub name: String,
        /// Its files, in input order.
        pub files: Vec<String>,
    }
}

/// Version of the JSON output schema (docs/json-schema.md).
pub const SCHEMA: &str = "pvlint/v1";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub sources: usize,
    pub documents: usize,
    pub objects: usize,
    /// Findings a `pvlint.io/ignore` annotation suppressed (not counted above).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub suppressed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The result of one lint run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: String,
    pub version: String,
    pub options: Options,
    /// What was applied together (see [`applyset`]); a finding's `applySet` is a position here
    /// when there is more than one.
    #[serde(default)]
    pub apply_sets: Vec<report::ApplySetOut>,
    pub findings: Vec<Finding>,
    /// Findings a `pvlint.io/ignore` annotation suppressed, in the same form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<Finding>,
    pub summary: Summary,
}

impl Report {
    /// The highest severity found, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Lints named sources together (objects in one may refer to objects in another), as if
/// applied to a cluster pvlint knows nothing about.
pub fn lint(sources: &[Source], options: &Options) -> Report {
    api::lint(&Request {
        sources: sources.to_vec(),
        options: options.clone(),
        ..Request::default()
    })
}

/// The rules, for documentation.
pub fn rules() -> &'static [&'static Rule] {
    rules::ALL
}

/// Findings of one rule run, before the report is assembled.
#[derive(Default)]
struct Run {
    findings: Vec<Finding>,
    suppressed: Vec<Finding>,
    documents: usize,
    objects: usize,
}

pub(crate) fn lint_request(req: &Request) -> Report {
    let sets = applyset::partition(&req.sources, req.grouping());
    lint_loaded(req, &sets, None)
}

/// [`lint_request`], with each source's text dropped once the objects are read from it (see
/// [`api::lint_and_drop_texts`]): for a request whose input is one apply set.
pub(crate) fn lint_request_dropping_texts(req: &mut Request) -> Report {
    let sets = applyset::partition(&req.sources, req.grouping());
    if req.audit || req.each_file || sets.len() != 1 || sets[0].sources.len() != req.sources.len() {
        return lint_loaded(req, &sets, None);
    }
    let loaded = index::Index::load(&req.sources);
    for s in &mut req.sources {
        s.drop_text();
    }
    lint_loaded(req, &sets, Some(loaded))
}

/// Lints `req`, apply set by apply set; `loaded` is its manifests' index,
/// [loaded](index::Index::load) already (for a request that is one apply set, not an audit).
fn lint_loaded(req: &Request, sets: &[applyset::ApplySet], loaded: Option<index::Index>) -> Report {
    let mut cluster = index::Index::build_for(&req.cluster, req.options.kube_version);
    let cluster_given = !req.cluster.is_empty();
    let mut all = Run::default();
    if req.audit {
        all = audit::run(req, &mut cluster);
    } else if let Some(ix) = loaded {
        let live = index::LiveObjects::of(&cluster);
        let mut ix = ix.with_views(req.options.kube_version);
        let set = SetContext::new(
            &sets[0],
            req.grouping(),
            &req.options,
            sim::Elsewhere::default(),
        );
        all = run_rules(
            &req.sources,
            &mut ix,
            (&cluster, &live, cluster_given),
            &req.options,
            &set,
        );
    } else {
        // With several sets, each finding says which set it is about.
        let tag = sets.len() > 1;
        let live = index::LiveObjects::of(&cluster);
        let mut indexes: Vec<index::Index> = sets
            .iter()
            .map(|set| {
                index::Index::build_set(&req.sources, &set.sources, req.options.kube_version)
            })
            .collect();
        // What the other sets define cluster-wide (each directory's, or each file's with
        // --each-file): the input's best account of the cluster's classes and drivers, as an
        // assumption; not when the cluster is known.
        let elsewhere = if tag && !cluster_given && !req.options.complete {
            sim::Elsewhere::collect(&indexes.iter().collect::<Vec<_>>(), &req.sources)
        } else {
            sim::Elsewhere::default()
        };
        // Every object at a served version, by set: a file that defines an object at a
        // removed version next to one at a served version is a variant for older clusters.
        let served: Vec<Vec<index::Served>> = if tag {
            indexes.iter().map(|ix| ix.served().collect()).collect()
        } else {
            Vec::new()
        };
        for (n, ix) in indexes.iter_mut().enumerate() {
            let mut set =
                SetContext::new(&sets[n], req.grouping(), &req.options, elsewhere.for_set(n));
            if !ix.removed.is_empty() {
                set.served_elsewhere = served
                    .iter()
                    .enumerate()
                    .filter(|&(m, _)| m != n)
                    .flat_map(|(_, s)| s.iter().cloned())
                    .collect();
            }
            let mut run = run_rules(
                &req.sources,
                ix,
                (&cluster, &live, cluster_given),
                &req.options,
                &set,
            );
            if tag {
                for f in run.findings.iter_mut().chain(run.suppressed.iter_mut()) {
                    f.apply_set = Some(n as u32);
                }
            }
            all.findings.extend(run.findings);
            all.suppressed.extend(run.suppressed);
            all.documents += run.documents;
            all.objects += run.objects;
        }
        if tag {
            // A file in two sets (a base two overlays share) says the same about itself in
            // each: once is enough, with the first set's name.
            sort(&mut all.findings);
            dedup_across_sets(&mut all.findings);
            sort(&mut all.suppressed);
            dedup_across_sets(&mut all.suppressed);
        }
    }
    report_cluster_problems(
        &req.sources,
        &req.cluster,
        &cluster,
        &req.options,
        &mut all.findings,
    );
    let count = |s: Severity| all.findings.iter().filter(|f| f.severity == s).count();
    let summary = Summary {
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        sources: req.sources.len(),
        documents: all.documents,
        objects: all.objects,
        suppressed: all.suppressed.len(),
    };
    Report {
        schema: SCHEMA.to_string(),
        version: VERSION.to_string(),
        options: req.options.clone(),
        apply_sets: sets
            .iter()
            .map(|s| report::ApplySetOut {
                kind: s.kind,
                name: s.name.clone(),
                files: s
                    .sources
                    .iter()
                    .map(|&i| req.sources[i].name.to_string())
                    .collect(),
            })
            .collect(),
        findings: all.findings,
        suppressed: all.suppressed,
        summary,
    }
}

/// Drops findings that repeat the one before them but for their apply set (the findings are
/// sorted).
fn dedup_across_sets(findings: &mut Vec<Finding>) {
    findings.dedup_by(|later, earlier| {
        let set = later.apply_set;
        later.apply_set = earlier.apply_set;
        let same = later == earlier;
        later.apply_set = set;
        same
    });
}

/// Runs every rule over the manifests applied onto the cluster; findings sorted, one per root
/// cause.
///
/// The rules that read the objects as written ([`rules::Reads::Written`]) run first, and the
/// annotations the findings need are read; then the YAML trees are released, so that they
/// and the simulation are never in memory together (on a large input each takes about a
/// quarter of the peak). The findings are put together in the rules' order, as if every rule
/// had run after the simulation, once the simulation is dropped.
/// What a run of the rules knows about the apply set it lints.
#[derive(Default)]
struct SetContext {
    /// What the input's other apply sets define cluster-wide.
    elsewhere: sim::Elsewhere,
    /// That the set's files are applied together is pvlint's default (a directory or a
    /// kustomization of several files), not the user's word (`--together`, `--complete`).
    assumed_together: bool,
    /// Applied in file order (not a kustomization, whose output kustomize sorts by kind).
    file_order: bool,
    /// What the input's other apply sets define at a served API version.
    served_elsewhere: Vec<index::Served>,
}

impl SetContext {
    fn new(
        set: &applyset::ApplySet,
        grouping: applyset::Grouping,
        options: &Options,
        elsewhere: sim::Elsewhere,
    ) -> SetContext {
        let assumed =
            grouping == applyset::Grouping::Directory && !options.complete && set.sources.len() > 1;
        SetContext {
            elsewhere,
            assumed_together: assumed,
            file_order: set.kind != applyset::SetKind::Kustomization,
            served_elsewhere: Vec::new(),
        }
    }
}

fn run_rules(
    sources: &[Source],
    ix: &mut index::Index,
    (cluster, live, cluster_given): (&index::Index, &index::LiveObjects<'_>, bool),
    options: &Options,
    set: &SetContext,
) -> Run {
    ix.reject_unknown_fields(options.field_validation);
    ix.check_live_updates(live);
    let elsewhere = &set.elsewhere;
    let enabled: Vec<&Rule> = rules::ALL
        .iter()
        .copied()
        .filter(|r| enabled(r, options))
        .collect();
    // Each rule's findings, in the rules' order.
    let mut found: Vec<Vec<Finding>> = vec![Vec::new(); enabled.len()];
    let unrun = sim::unrun(options, cluster_given);
    run_stage(
        Reads::Written,
        &enabled,
        &mut found,
        &manifest_context(sources, ix, options, &unrun, set),
    );
    let annotations = Annotations::read(ix);
    ix.release_trees();
    let ix: &index::Index = ix;
    // What the input says of its cluster: this set's own hints first, then the others'.
    let mut elsewhere = elsewhere.clone();
    elsewhere.file_order = set.file_order;
    if !cluster_given && !options.complete {
        elsewhere.hints = sim::ClusterHints::of(ix, sources).or(&elsewhere.hints);
    }
    let world = sim::simulate_with(cluster, ix, options, cluster_given, &elsewhere);
    run_stage(
        Reads::Simulation,
        &enabled,
        &mut found,
        &manifest_context(sources, ix, options, &world, set),
    );
    // The simulation is not needed any more: give its memory back before the findings are
    // put in one vector, so that the two are not at the peak together.
    drop(world);
    let mut findings = Vec::with_capacity(found.iter().map(Vec::len).sum());
    for mut rule_found in found {
        findings.append(&mut rule_found);
    }
    only_the_note_on_templates(ix, &mut findings);
    sort(&mut findings);
    one_per_cause(&mut findings);
    if set.assumed_together {
        across_files(sources, ix, &mut findings);
    }
    let (findings, suppressed) = settle(&annotations, options, findings);
    Run {
        findings,
        suppressed,
        documents: ix.documents,
        objects: ix.objects.len(),
    }
}

/// Runs the enabled rules that read `reads`, each into its own slot of `found` (the slots are
/// in the order of `enabled`), against the manifests and `world`.
fn run_stage(
    reads: Reads,
    enabled: &[&'static Rule],
    found: &mut [Vec<Finding>],
    ctx: &rules::Context,
) {
    for (rule, out) in enabled.iter().zip(found.iter_mut()) {
        if rule.reads == reads {
            (rule.check)(ctx, &mut rules::Sink::new(rule, out));
            out.shrink_to_fit();
        }
    }
}

/// The rules' view of the manifests of one apply set against `world`.
fn manifest_context<'a>(
    sources: &'a [Source],
    ix: &'a index::Index,
    options: &'a Options,
    world: &'a sim::World,
    set: &'a SetContext,
) -> rules::Context<'a> {
    rules::Context {
        sources,
        index: ix,
        options,
        sim: world,
        side: sim::Side::Manifest,
        live: None,
        served_elsewhere: &set.served_elsewhere,
    }
}

/// What the objects' annotations say about the findings on them: the files rendered input
/// came from, and what `pvlint.io/ignore` suppresses. Read from the objects as written, before
/// their trees are released; empty for most inputs.
struct Annotations {
    origins: origin::Origins,
    ignored: suppress::Ignored,
}

impl Annotations {
    fn read(ix: &index::Index) -> Annotations {
        Annotations {
            origins: ix.origins.clone(),
            ignored: suppress::collect(ix),
        }
    }
}

/// The rules' configured severities, the files rendered input came from, and suppressions
/// (`pvlint.io/ignore`), applied to findings about the objects the annotations were read
/// from: (kept, suppressed).
fn settle(
    annotations: &Annotations,
    options: &Options,
    mut findings: Vec<Finding>,
) -> (Vec<Finding>, Vec<Finding>) {
    grade(&mut findings);
    for f in &mut findings {
        if let Some(sev) = options
            .rules
            .get(f.rule.as_str())
            .and_then(|l| l.severity())
        {
            f.severity = sev;
        }
    }
    annotations.origins.annotate(&mut findings);
    annotations.ignored.split(findings)
}

/// Certainty decides severity: an error says the input fails (or loses data) on every cluster
/// consistent with it. A finding whose consequence rests on an assumption about the cluster
/// (a class or driver the input does not define, a default class, what else exists there)
/// is at most a warning, whatever the rule says; with that knowledge given (`--complete`,
/// `--cluster-state`, `--against-cluster`, `--default-class`), the same outcome is an error.
/// Rules state their assumptions; this is the one place that grades them. A rule's configured
/// severity (`.pvlint.yaml`) is applied after it, as the user's word.
pub(crate) fn grade(findings: &mut [Finding]) {
    for f in findings {
        if f.severity == Severity::Error && f.rests_on_assumptions() {
            f.severity = Severity::Warning;
        }
    }
}

/// Whether a rule runs under these options (`off` in the config file: not at all).
fn enabled(rule: &Rule, options: &Options) -> bool {
    options.rules.get(rule.id) != Some(&options::RuleLevel::Off)
}

/// A finding that rests on objects of another file of its apply set rests on those files
/// being applied together, which is how pvlint groups a directory (or a kustomization) by
/// default, not something the input says: an assumption, named in the finding.
///
/// `kubectl apply` cannot create an object that has only `metadata.generateName` ("cannot
/// use generate name with apply"; such files are made for `kubectl create`): a finding that
/// rests on one in another file never happens under `kubectl apply -f DIR`, and is dropped.
fn across_files(sources: &[Source], ix: &index::Index, findings: &mut Vec<Finding>) {
    let generated =
        |source: usize, document: usize| ix.generate_named.contains(&(source, document));
    findings.retain(|f| {
        let here = (f.location.source, f.location.document);
        let across = f.related.iter().filter(|r| r.location.source != here.0);
        let mut involved = across
            .map(|r| (r.location.source, r.location.document))
            .peekable();
        involved.peek().is_none()
            || !(generated(here.0, here.1) || involved.any(|(s, d)| generated(s, d)))
    });
    for f in findings.iter_mut() {
        let here = f.location.source;
        let Some(other) = f.related.iter().find(|r| r.location.source != here) else {
            continue;
        };
        let a = sim::Assumption::AppliedTogether {
            file: Str::from(sources[here].name.as_str()),
            other: Str::from(other.location.file.as_str()),
        };
        match &mut f.consequence {
            Some(c) => c.assumptions.push(Str::from(a.describe())),
            None => {
                f.consequence = Some(Box::new(Consequence {
                    summary: Str::default(),
                    subject: None,
                    phase: None,
                    event: None,
                    storage: None,
                    assumptions: vec![Str::from(a.describe())],
                }))
            }
        }
    }
}

/// An unrendered template gets `unrendered-template` and nothing else: a document with a
/// placeholder in a field pvlint reads, and every document of a file whose template syntax
/// breaks YAML, are not what the cluster gets, so what pvlint would say of them as written
/// is not about the cluster.
fn only_the_note_on_templates(ix: &index::Index, findings: &mut Vec<Finding>) {
    let (docs, files) = (&ix.template_docs, &ix.template_files);
    if docs.is_empty() && files.is_empty() {
        return;
    }
    findings.retain(|f| {
        let l = &f.location;
        f.rule == "unrendered-template"
            || !(files.contains(&l.source) || docs.contains(&(l.source, l.document)))
    });
}

/// One finding per root cause: a predicted consequence gives way to the rule that reports
/// the cause, and only the first consequence of a cause is kept.
fn one_per_cause(findings: &mut Vec<Finding>) {
    let causes: HashSet<sim::CauseKey> = findings
        .iter()
        .filter_map(|f| f.cause.as_deref())
        .filter(|(_, role)| *role == sim::Role::Cause)
        .map(|(k, _)| k.clone())
        .collect();
    let mut seen = HashSet::new();
    findings.retain(|f| match f.cause.as_deref() {
        Some((key, sim::Role::Consequence)) => !causes.contains(key) && seen.insert(key.clone()),
        _ => true,
    });
}

/// File order, line, column, severity (highest first), rule, message.
fn sort(findings: &mut Vec<Finding>) {
    // A stable sort of the findings themselves needs scratch space for half of them (several
    // MB of 700-byte findings on a large input, at the run's peak): sort their positions
    // instead (stably, so equal findings keep the order the rules reported them in), then
    // move each finding to its place.
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&findings[a], &findings[b]);
        let ka = (a.location.source, a.location.line, a.location.column);
        let kb = (b.location.source, b.location.line, b.location.column);
        ka.cmp(&kb)
            .then(b.severity.cmp(&a.severity))
            .then(a.rule.cmp(&b.rule))
            .then(a.message.cmp(&b.message))
    });
    permute(findings, order);
    findings.dedup();
}

/// Reorders `items` so that position `i` holds what was at `order[i]` (`order` is a
/// permutation), in place: each cycle of the permutation is walked once, by swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut i = start;
        while order[i] != start {
            let next = order[i];
            items.swap(i, next);
            order[i] = i;
            i = next;
        }
        order[i] = i;
    }
}

/// Documents of the cluster state that could not be read, reported once by the parse-error
/// rule, after the manifests' findings.
fn report_cluster_problems(
    sources: &[Source],
    cluster_sources: &[Source],
    cluster: &index::Index,
    options: &Options,
    out: &mut Vec<Finding>,
) {
    let rule = rules::find("parse-error").expect("the parse-error rule is registered");
    // The rule's settings hold here as for the manifests: off, or another severity.
    if !enabled(rule, options) {
        return;
    }
    let severity = options.rules.get(rule.id).and_then(|l| l.severity());
    let mut found = Vec::new();
    let mut sink = rules::Sink::new(rule, &mut found);
    for d in cluster
        .diags
        .iter()
        .filter(|d| d.kind == model::DiagKind::Parse)
    {
        let f = sink.report_diag(cluster_sources, d);
        f.message = Str::from(format!("cluster state: {}", f.message));
        f.location.source += sources.len();
        if let Some(sev) = severity {
            f.severity = sev;
        }
    }
    drop(sink);
    out.extend(found);
}

/// The pipeline's stages one at a time, for the benchmarks and the profiling driver in
/// `benches/` only: not a stable API (hosts use [`api`]).
#[doc(hidden)]
pub mod stages {
    use crate::index::Index;
    use crate::{Options, Source};

    /// An object index, opaque outside the core.
    #[derive(Default)]
    pub struct Indexed(Index);

    impl Indexed {
        /// How many objects it holds.
        pub fn objects(&self) -> usize {
            self.0.objects.len()
        }
    }

    /// The YAML stage alone: how many documents the text holds.
    pub fn parse(text: &str) -> usize {
        crate::yaml::parse_stream(text).0.len()
    }

    /// Parse, object index and typed views.
    pub fn index(sources: &[Source]) -> Indexed {
        Indexed(Index::build(sources))
    }

    /// What pvlint reads from one file, in kubectl's terms, for the differential test against
    /// the real kubectl (`harness/tests/kubectl_parity.rs`): the objects kubectl's decoder
    /// reads, as JSON (typed as pvlint types YAML), in order, up to the first document that is
    /// not valid YAML/JSON, and whether there is one. A document with a `kind` but no
    /// `apiVersion` is one such object (kubectl decodes it, and only the apply fails); pvlint
    /// reports it and reads no object.
    pub fn decoded(name: &str, text: &str) -> (Vec<serde_json::Value>, bool) {
        use crate::node::Node;
        let sources = [Source::new(name, text)];
        let (docs, issues) = crate::yaml::parse_stream(text);
        let broken = issues
            .iter()
            .filter(|i| i.kind.fails())
            .map(|i| i.document)
            .min();
        let before = |doc: usize| broken.is_none_or(|b| doc < b);
        let ix = Index::load(&sources);
        let mut objects: Vec<(usize, serde_json::Value)> = ix
            .objects
            .iter()
            .filter(|o| before(o.document))
            .map(|o| (o.document, crate::value::convert(o.root())))
            .collect();
        for d in docs.iter().filter(|d| before(d.index)) {
            let Some(root) = &d.root else { continue };
            if root.get("kind").and_then(Node::as_str).is_some()
                && root.get("apiVersion").and_then(Node::as_str).is_none()
            {
                objects.push((d.index, crate::value::convert(root)));
            }
        }
        // Stable: the objects of one document (a List's items) keep their order.
        objects.sort_by_key(|(doc, _)| *doc);
        (
            objects.into_iter().map(|(_, o)| o).collect(),
            broken.is_some(),
        )
    }

    /// The simulation of the manifests on an unknown cluster, run to its fixed point.
    pub fn simulate(manifests: &Indexed, options: &Options) {
        std::hint::black_box(crate::sim::simulate(
            &Index::default(),
            &manifests.0,
            options,
            false,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::permute;

    /// The rules that read the trees ran before the release (their findings are there, and
    /// the annotations still suppress), and no tree outlives it.
    #[test]
    fn run_rules_releases_the_trees_after_the_rules_that_read_them() {
        use crate::{index::Index, Options, Source};
        let text = "\
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  annotations:
    pvlint.io/ignore: server-populated-fields
spec:
  storageClasName: fast
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
status:
  phase: Bound
";
        let sources = vec![Source::new("claim.yaml", text)];
        let mut ix = Index::build(&sources);
        assert!(ix.objects.iter().all(|o| !o.tree_released()));
        let run = super::run_rules(
            &sources,
            &mut ix,
            (
                &Index::default(),
                &crate::index::LiveObjects::of(&Index::default()),
                false,
            ),
            &Options::default(),
            &super::SetContext::default(),
        );
        assert!(ix.objects.iter().all(|o| o.tree_released()));
        let rules =
            |fs: &[crate::Finding]| fs.iter().map(|f| f.rule.to_string()).collect::<Vec<_>>();
        let (kept, suppressed) = (rules(&run.findings), rules(&run.suppressed));
        assert!(kept.contains(&"unknown-field".to_string()), "{kept:?}");
        assert_eq!(suppressed, ["server-populated-fields"], "kept: {kept:?}");
    }

    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        // Every permutation of five items (120), against building the result by indexing.
        fn all(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            let mut out = Vec::new();
            for p in all(n - 1) {
                for at in 0..n {
                    let mut q = p.clone();
                    q.insert(at, n - 1);
                    out.push(q);
                }
            }
            out
        }
        let perms = all(5);
        assert_eq!(perms.len(), 120);
        for order in perms {
            let mut items = vec!["a", "b", "c", "d", "e"];
            let want: Vec<&str> = order.iter().map(|&i| items[i]).collect();
            permute(&mut items, order.clone());
            assert_eq!(items, want, "order {order:?}");
        }
    }
}
