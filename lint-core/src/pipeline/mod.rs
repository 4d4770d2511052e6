//! The lint pipeline: each apply set indexed, simulated and judged by the rules; the findings
//! graded, one per root cause, sorted and suppressed ([`findings`]); and the audit of a live
//! cluster's own objects ([`audit`]). Hosts reach it through [`crate::api`].

mod audit;
mod findings;
mod profile;
mod simulate;

pub(crate) use simulate::simulate;

use crate::applyset;
use crate::finding::{Finding, Severity};
use crate::index;
use crate::model;
use crate::options::{Options, RuleLevel};
use crate::origin;
use crate::report::{ApplySetOut, Report, Summary, SCHEMA, VERSION};
use crate::request::Request;
use crate::rules::{self, Reads, Reported, Rule};
use crate::sim;
use crate::source::Source;
use crate::string::Str;
use crate::suppress;

use findings::{
    across_files, dedup_across_sets, one_per_cause, only_the_note_on_templates, settle, sort,
};

/// Findings of one rule run, before the report is assembled.
#[derive(Default)]
struct Run {
    findings: Vec<Reported>,
    suppressed: Vec<Reported>,
    documents: usize,
    objects: usize,
}

pub(crate) fn lint_request(req: &Request) -> Report {
    let (sets, skipped) = applyset::partition_skipping(&req.sources, req.grouping());
    lint_loaded(req, &sets, skipped, None)
}

/// [`lint_request`], with each source's text dropped once the objects are read from it (see
/// [`crate::api::lint_and_drop_texts`]): for a request whose input is one apply set.
pub(crate) fn lint_request_dropping_texts(req: &mut Request) -> Report {
    let (sets, skipped) = applyset::partition_skipping(&req.sources, req.grouping());
    if req.audit || req.each_file || sets.len() != 1 || sets[0].sources.len() != req.sources.len() {
        return lint_loaded(req, &sets, skipped, None);
    }
    let loaded = index::Index::load(&req.sources);
    for s in &mut req.sources {
        s.drop_text();
    }
    lint_loaded(req, &sets, skipped, Some(loaded))
}

/// Lints `req`, apply set by apply set; `loaded` is its manifests' index,
/// [loaded](index::Index::load) already (for a request that is one apply set, not an audit).
/// `skipped`: the sources no set holds (test assertions), named in the report.
fn lint_loaded(
    req: &Request,
    sets: &[applyset::ApplySet],
    skipped: Vec<applyset::Skipped>,
    loaded: Option<index::Index>,
) -> Report {
    let mut cluster = index::Index::build_for(&req.cluster, req.options.target());
    let cluster_given = !req.cluster.is_empty();
    let profile = profile::resolve(&req.options, &profile::state_facts(&req.cluster, &cluster));
    let mut all = Run::default();
    if req.audit {
        all = audit::run(req, &mut cluster, &profile);
    } else if let Some(ix) = loaded {
        let live = index::LiveObjects::of(&cluster);
        let mut ix = ix.with_views(req.options.target(), req.options.field_validation);
        let set = SetContext::new(&sets[0], req.grouping(), sim::Elsewhere::default());
        all = run_rules(
            &req.sources,
            &mut ix,
            (&cluster, &live, cluster_given),
            (&req.options, &profile),
            &set,
        );
    } else {
        // With several sets, each finding says which set it is about.
        let tag = sets.len() > 1;
        let live = index::LiveObjects::of(&cluster);
        let kustomize = crate::kustomize::Facts::of(&req.sources);
        let mut indexes: Vec<index::Index> = sets
            .iter()
            .map(|set| {
                index::Index::build_set(
                    &req.sources,
                    &kustomize,
                    &set.sources,
                    req.options.target(),
                    req.options.field_validation,
                )
            })
            .collect();
        // Sets applied apart never meet, unless the profile says they go to one cluster
        // (`sameCluster`): then what the other sets define cluster-wide (each directory's, or
        // each file's with --each-file) is the input's best account of the cluster's classes,
        // drivers and volumes, as an assumption; not when the cluster is known.
        let shared = tag && profile.same_cluster.value;
        let elsewhere = if shared && !cluster_given && !req.options.complete {
            sim::Elsewhere::collect(&indexes.iter().collect::<Vec<_>>(), &req.sources)
        } else {
            sim::Elsewhere::default()
        };
        // Every object at a served version, by set: on one cluster, a file that defines an
        // object at a removed version next to one at a served version elsewhere is a variant
        // for older clusters.
        let served: Vec<Vec<index::Served>> = if shared {
            indexes.iter().map(|ix| ix.served().collect()).collect()
        } else {
            Vec::new()
        };
        for (n, ix) in indexes.iter_mut().enumerate() {
            let mut set = SetContext::new(&sets[n], req.grouping(), elsewhere.for_set(n));
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
                (&req.options, &profile),
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
        profile,
        apply_sets: sets
            .iter()
            .map(|s| ApplySetOut {
                kind: s.kind,
                name: s.name.clone(),
                files: s
                    .sources
                    .iter()
                    .map(|&i| req.sources[i].name.to_string())
                    .collect(),
            })
            .collect(),
        findings: all.findings.into_iter().map(Finding::from).collect(),
        suppressed: all.suppressed.into_iter().map(Finding::from).collect(),
        skipped,
        summary,
    }
}

/// What a run of the rules knows about the apply set it lints.
#[derive(Default)]
struct SetContext {
    /// What the input's other apply sets define cluster-wide.
    elsewhere: sim::Elsewhere,
    /// That the set's files are applied together is pvlint's default (a directory of several
    /// files), not the user's word (`--together`) nor the input's (a kustomization builds its
    /// resources into one apply, `kubectl apply -k`). `--complete` says what exists, not how
    /// it is applied: an empty cluster state says the same, and leaves the grouping open too.
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
        elsewhere: sim::Elsewhere,
    ) -> SetContext {
        let assumed = grouping == applyset::Grouping::Directory
            && set.kind == applyset::SetKind::Directory
            && set.sources.len() > 1;
        SetContext {
            elsewhere,
            assumed_together: assumed,
            file_order: set.kind != applyset::SetKind::Kustomization,
            served_elsewhere: Vec::new(),
        }
    }
}

/// Runs every rule over the manifests applied onto the cluster; findings sorted, one per root
/// cause.
///
/// The rules that read the objects as written ([`rules::Reads::Written`]) run first, and the
/// annotations the findings need are read; then the YAML trees are released, so that they
/// and the simulation are never in memory together (on a large input each takes about a
/// quarter of the peak). The findings are put together in the rules' order, as if every rule
/// had run after the simulation, once the simulation is dropped.
fn run_rules(
    sources: &[Source],
    ix: &mut index::Index,
    (cluster, live, cluster_given): (&index::Index, &index::LiveObjects<'_>, bool),
    (options, profile): (&Options, &crate::profile::Profile),
    set: &SetContext,
) -> Run {
    ix.check_live_updates(live);
    let elsewhere = &set.elsewhere;
    let enabled: Vec<&Rule> = rules::ALL
        .iter()
        .copied()
        .filter(|r| enabled(r, options))
        .collect();
    // Each rule's findings, in the rules' order.
    let mut found: Vec<Vec<Reported>> = vec![Vec::new(); enabled.len()];
    let unrun = sim::unrun(options, cluster_given);
    run_stage(
        Reads::Written,
        &enabled,
        &mut found,
        &manifest_context(
            sources,
            ix,
            (options, profile),
            &unrun,
            set,
            cluster_given.then_some(cluster),
        ),
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
        &manifest_context(
            sources,
            ix,
            (options, profile),
            &world,
            set,
            cluster_given.then_some(cluster),
        ),
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
    found: &mut [Vec<Reported>],
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
    (options, profile): (&'a Options, &'a crate::profile::Profile),
    world: &'a sim::World,
    set: &'a SetContext,
    cluster: Option<&'a index::Index>,
) -> rules::Context<'a> {
    rules::Context {
        sources,
        index: ix,
        options,
        sim: world,
        side: sim::Side::Manifest,
        live: None,
        served_elsewhere: &set.served_elsewhere,
        cluster,
        profile,
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

/// Whether a rule runs under these options (`off` in the config file: not at all).
fn enabled(rule: &Rule, options: &Options) -> bool {
    options.rules.get(rule.id) != Some(&RuleLevel::Off)
}

/// Documents of the cluster state that could not be read, reported once by the parse-error
/// rule, after the manifests' findings.
fn report_cluster_problems(
    sources: &[Source],
    cluster_sources: &[Source],
    cluster: &index::Index,
    options: &Options,
    out: &mut Vec<Reported>,
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

#[cfg(test)]
mod tests {
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
            (
                &Options::default(),
                &super::profile::resolve(&Options::default(), &Default::default()),
            ),
            &super::SetContext::default(),
        );
        assert!(ix.objects.iter().all(|o| o.tree_released()));
        let rules = |fs: &[crate::rules::Reported]| {
            fs.iter().map(|f| f.rule.to_string()).collect::<Vec<_>>()
        };
        let (kept, suppressed) = (rules(&run.findings), rules(&run.suppressed));
        assert!(kept.contains(&"unknown-field".to_string()), "{kept:?}");
        assert_eq!(suppressed, ["server-populated-fields"], "kept: {kept:?}");
    }
}
