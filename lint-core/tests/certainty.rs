//! Certainty decides severity (ARCHITECTURE.md, "Certainty grading"): an error fails on every
//! cluster consistent with the input, so no finding that rests on an assumption is one; and
//! the same knowledge, whichever way it reaches pvlint (`--complete`, or a cluster state that
//! says the same), gives the same findings with the same severities.

mod common;

use std::collections::BTreeSet;

use pvlint_core::{api, Request, Severity, Source};

/// What a user sees of a finding: where, which rule, how severe.
fn seen(report: &pvlint_core::Report) -> BTreeSet<(String, String, u32, Severity)> {
    report
        .findings
        .iter()
        .map(|f| {
            (
                f.rule.to_string(),
                f.location.file.to_string(),
                f.location.line,
                f.severity,
            )
        })
        .collect()
}

/// Every fixture and example alone, and each example folder as one input of several files
/// (its default apply sets, `--each-file` and `--together`).
fn requests() -> Vec<(String, Request)> {
    let mut out: Vec<(String, Request)> = common::all_inputs()
        .iter()
        .map(|p| {
            let c = common::case(p);
            (c.name, c.request)
        })
        .collect();
    for d in common::sorted_dirs(&common::root().join("examples")) {
        let sources: Vec<Source> = common::all_inputs()
            .into_iter()
            .filter(|p| p.parent() == Some(d.as_path()))
            .flat_map(|p| common::case(&p).request.sources)
            .collect();
        for (how, each_file, together) in [
            ("apply sets", false, false),
            ("--each-file", true, false),
            ("--together", false, true),
        ] {
            out.push((
                format!("{} ({how})", d.display()),
                Request {
                    sources: sources.clone(),
                    each_file,
                    together,
                    ..Request::default()
                },
            ));
        }
    }
    out
}

#[test]
fn a_finding_that_rests_on_an_assumption_is_never_an_error() {
    let (mut assumed, mut errors) = (0, 0);
    for (name, req) in requests() {
        for f in api::lint(&req).findings {
            let assumptions = f
                .consequence
                .as_ref()
                .map_or(&[][..], |c| c.assumptions.as_slice());
            if !assumptions.is_empty() {
                assumed += 1;
                assert_ne!(
                    f.severity,
                    Severity::Error,
                    "{name}: {} at line {} is an error that rests on {assumptions:?}",
                    f.rule,
                    f.location.line
                );
            } else if f.severity == Severity::Error {
                errors += 1;
            }
        }
    }
    // Both kinds are there to be told apart.
    assert!(assumed > 50, "only {assumed} findings with assumptions");
    assert!(errors > 50, "only {errors} certain errors");
}

/// `--complete` says the cluster has nothing the input does not define; an empty cluster
/// state says the same. The findings and their severities must not depend on which.
#[test]
fn complete_and_an_empty_cluster_state_judge_alike() {
    let empty = Source::new("cluster.yaml", "apiVersion: v1\nkind: List\nitems: []\n");
    let mut compared = 0;
    for (name, req) in requests() {
        if !req.cluster.is_empty() || req.audit || req.options.complete {
            continue;
        }
        let mut complete = req.clone();
        complete.options.complete = true;
        let mut state = req.clone();
        state.cluster = vec![empty.clone()];
        let (a, b) = (seen(&api::lint(&complete)), seen(&api::lint(&state)));
        assert_eq!(
            a.symmetric_difference(&b).collect::<Vec<_>>(),
            Vec::<&(String, String, u32, Severity)>::new(),
            "{name}: --complete and an empty --cluster-state disagree"
        );
        compared += 1;
    }
    assert!(compared > 50, "only {compared} inputs compared");
}

/// Knowing more only removes assumptions: a finding pvlint is sure of without the cluster
/// (an error) stays an error when the cluster is known to hold nothing else, or an object it
/// names fails before it (an error there): the input never passes or softens. The profile
/// stays the same: the default profile's default class (of a name no input uses) is there
/// with `--complete` too.
#[test]
fn knowing_the_cluster_never_softens_a_certain_error() {
    for (name, req) in requests() {
        if !req.cluster.is_empty() || req.audit || req.options.complete {
            continue;
        }
        let alone = api::lint(&req);
        let mut complete = req.clone();
        complete.options.complete = true;
        if complete.options.default_class.is_none() {
            complete.options.default_class = Some("the-default".into());
        }
        let complete = api::lint(&complete);
        let known = seen(&complete);
        // The documents --complete finds an error in: an error may give way to an earlier
        // failure of an object it names (a claim that binds nowhere when the cluster holds
        // no default class never reaches the pods that would have shared it).
        let failing: BTreeSet<(String, usize)> = complete
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| (f.location.file.to_string(), f.location.document))
            .collect();
        for f in alone
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
        {
            let key = (
                f.rule.to_string(),
                f.location.file.to_string(),
                f.location.line,
                Severity::Error,
            );
            let named_object_fails = f
                .related
                .iter()
                .any(|r| failing.contains(&(r.location.file.to_string(), r.location.document)));
            assert!(
                known.contains(&key) || named_object_fails,
                "{name}: error {} at line {} without the cluster is gone or softer with --complete, \
                 and no object it names fails instead",
                f.rule,
                f.location.line
            );
        }
    }
}

/// An object the API server rejects is never created: what pvlint says of it is why it is
/// rejected and what its text carries, never how it would behave in the cluster (a hostPath
/// volume's node, an NFS mount, a default class, a rollout). Rules that read only the text
/// may still speak of it.
#[test]
fn a_rejected_object_gets_no_finding_about_its_behaviour() {
    const OF_THE_TEXT: &[&str] = &[
        "invalid-field-value",
        "unknown-field",
        "server-populated-fields",
        "duplicate-object",
        "invalid-suppression",
        "update-rejected",
        "parse-error",
        "ignored-content",
        "unrendered-template",
        "removed-api-version",
    ];
    let mut checked = 0;
    for (name, req) in requests() {
        let report = api::lint(&req);
        let rejected: BTreeSet<(String, usize)> = report
            .findings
            .iter()
            .filter(|f| f.rule == "invalid-field-value" && f.severity == Severity::Error)
            .map(|f| (f.location.file.to_string(), f.location.document))
            .collect();
        checked += rejected.len();
        for f in &report.findings {
            let at = (f.location.file.to_string(), f.location.document);
            assert!(
                !rejected.contains(&at) || OF_THE_TEXT.contains(&f.rule.as_str()),
                "{name}: {} on a rejected object ({}:{}): {}",
                f.rule,
                f.location.file,
                f.location.line,
                f.message
            );
        }
    }
    assert!(checked > 10, "only {checked} rejected objects seen");
}

/// A cluster state of `nodes` schedulable Nodes (Ready, untainted) and nothing else.
fn nodes_state(nodes: usize) -> Source {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for n in 0..nodes {
        text.push_str(&format!(
            "- apiVersion: v1\n  kind: Node\n  metadata: {{name: node-{n}, labels: {{kubernetes.io/hostname: node-{n}}}}}\n  status:\n    conditions: [{{type: Ready, status: \"True\"}}]\n"
        ));
    }
    Source::new("nodes.yaml", text)
}

/// The cluster profile decides severity, and the same knowledge gives the same severity by
/// whichever route it comes: the nodes of the cluster said by the profile (`--nodes`, a
/// settings file's `cluster: {nodes: ...}`, the JavaScript API's profile: one option) or
/// counted from the cluster state's Nodes (`--cluster-state`, and `--against-cluster` and
/// `pvlint cluster`, which read Nodes live). The default profile is the route with no input:
/// saying `nodes: several` changes nothing, except where an apply set holds a hostPath volume
/// written for one node, which the default's finding names as an assumption (at most a
/// warning) and `nodes: several` overrules (an error).
#[test]
fn every_route_to_the_same_profile_judges_alike() {
    use pvlint_core::profile::Nodes;
    let mut compared = 0;
    for (name, req) in requests() {
        if !req.cluster.is_empty() || req.audit || req.options.cluster.nodes.is_some() {
            continue;
        }
        // The default profile and the profile said in full.
        let default = api::lint(&req);
        let mut said = req.clone();
        said.options.cluster.nodes = Some(Nodes::Several);
        let said = api::lint(&said);
        let hinted = |f: &pvlint_core::Finding| {
            f.consequence.as_ref().is_some_and(|c| {
                c.assumptions.iter().any(|a| {
                    a.contains("has no nodeAffinity, as only a cluster of one node allows")
                })
            })
        };
        let plain = |r: &pvlint_core::Report| -> BTreeSet<_> {
            let keep: Vec<_> = r.findings.iter().filter(|f| !hinted(f)).cloned().collect();
            seen(&pvlint_core::Report {
                findings: keep,
                ..r.clone()
            })
        };
        let hint_lines: BTreeSet<_> = default
            .findings
            .iter()
            .filter(|f| hinted(f))
            .map(|f| {
                (
                    f.rule.to_string(),
                    f.location.file.to_string(),
                    f.location.line,
                )
            })
            .collect();
        let said_plain: BTreeSet<_> = plain(&said)
            .into_iter()
            .filter(|(rule, file, line, _)| {
                !hint_lines.contains(&(rule.clone(), file.clone(), *line))
            })
            .collect();
        assert_eq!(
            plain(&default),
            said_plain,
            "{name}: the default profile and nodes: several"
        );
        for f in default.findings.iter().filter(|f| hinted(f)) {
            assert!(
                f.severity < Severity::Error,
                "{name}: {} rests on the hint",
                f.rule
            );
        }
        // Nodes said by the profile, or counted from the cluster state.
        for (count, nodes) in [(1, Nodes::One), (2, Nodes::Several)] {
            let mut by_state = req.clone();
            by_state.cluster = vec![nodes_state(count)];
            let mut by_profile = req.clone();
            by_profile.cluster = vec![nodes_state(0)];
            by_profile.options.cluster.nodes = Some(nodes);
            assert_eq!(
                seen(&api::lint(&by_state)),
                seen(&api::lint(&by_profile)),
                "{name}: {count} Node(s) in the cluster state and nodes: {nodes}"
            );
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} inputs compared");
}

/// Seed 003's rollout on the default profile, with the whole input said complete, and on a
/// cluster state of two Nodes is an error; on one node it is not.
#[test]
fn seed_003_fails_ci_on_every_cluster_of_several_nodes() {
    let path = common::root().join("examples/seed-003-rwo-rolling-update/broken-defaults.yaml");
    let req = common::case(&path).request;
    let surge = |r: &Request| {
        api::lint(r)
            .findings
            .iter()
            .filter(|f| f.rule == "rwo-rolling-surge")
            .map(|f| f.severity)
            .max()
    };
    assert_eq!(surge(&req), Some(Severity::Error), "the default profile");
    let mut complete = req.clone();
    complete.options.complete = true;
    assert_eq!(surge(&complete), Some(Severity::Error), "--complete");
    let mut two = req.clone();
    two.cluster = vec![nodes_state(2)];
    assert_eq!(
        surge(&two),
        Some(Severity::Error),
        "a cluster state of two Nodes"
    );
    let mut one = req.clone();
    one.cluster = vec![nodes_state(1)];
    assert!(
        surge(&one) < Some(Severity::Error),
        "a cluster state of one Node"
    );
    let mut said_one = req;
    said_one.options.cluster.nodes = Some(pvlint_core::profile::Nodes::One);
    assert!(surge(&said_one) < Some(Severity::Error), "nodes: one");
}
