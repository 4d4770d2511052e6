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
/// names fails before it (an error there): the input never passes or softens.
#[test]
fn knowing_the_cluster_never_softens_a_certain_error() {
    for (name, req) in requests() {
        if !req.cluster.is_empty() || req.audit || req.options.complete {
            continue;
        }
        let alone = api::lint(&req);
        let mut complete = req.clone();
        complete.options.complete = true;
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
