//! Every rule's fixtures: `bad*.yaml` must trigger the rule, `good*.yaml` must not (each
//! under the options its `# pvlint:` header declares). Snapshots pin the findings of the rule
//! under test only, so a snapshot changes when that rule changes; tests/examples.rs pins the
//! full output of the seed scenarios, where rules interact.

mod common;

use std::fs;

use common::{case, fixtures, fixtures_dir};
use pvlint_core::{api, render, Severity};

#[test]
fn every_rule_has_fixtures_that_trigger_it_and_fixes_that_do_not() {
    let mut problems = Vec::new();
    for rule in pvlint_core::rules() {
        let dir = fixtures_dir().join(rule.id);
        assert!(
            dir.is_dir(),
            "rule {} has no fixtures/{}/ folder",
            rule.id,
            rule.id
        );
        let bad = fixtures(rule.id, "bad");
        let good = fixtures(rule.id, "good");
        assert!(!bad.is_empty(), "rule {} has no bad*.yaml fixture", rule.id);
        assert!(
            !good.is_empty(),
            "rule {} has no good*.yaml fixture",
            rule.id
        );
        for f in &bad {
            let c = case(f);
            let r = api::lint(&c.request);
            if !r.findings.iter().any(|x| x.rule == rule.id) {
                problems.push(format!(
                    "{} does not trigger {}: {:?}",
                    c.name,
                    rule.id,
                    r.findings
                        .iter()
                        .map(|x| (&x.rule, &x.message))
                        .collect::<Vec<_>>()
                ));
            }
        }
        for f in &good {
            let c = case(f);
            let r = api::lint(&c.request);
            for x in r.findings.iter().filter(|x| x.rule == rule.id) {
                problems.push(format!("{} triggers {}: {}", c.name, rule.id, x.message));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn fixed_fixtures_have_no_errors_at_all() {
    let mut problems = Vec::new();
    for rule in pvlint_core::rules() {
        for f in fixtures(rule.id, "good") {
            let c = case(&f);
            let r = api::lint(&c.request);
            let errors: Vec<_> = r
                .findings
                .iter()
                .filter(|x| x.severity == Severity::Error)
                .map(|x| format!("{}: {}: {}", c.name, x.rule, x.message))
                .collect();
            problems.extend(errors);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Headlines are short: what is wrong, on which object. The rest goes in the consequence.
#[test]
fn headlines_are_short() {
    let mut problems = Vec::new();
    for f in common::all_inputs() {
        let c = case(&f);
        for x in api::lint(&c.request).findings {
            if x.rule == "parse-error" || x.rule == "invalid-field-value" {
                continue; // the API server's own words, quoted
            }
            if x.message.chars().count() > 100 {
                problems.push(format!(
                    "{}: {} headline is {} characters: {}",
                    c.name,
                    x.rule,
                    x.message.chars().count(),
                    x.message
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn fixture_snapshots() {
    for rule in pvlint_core::rules() {
        for f in fixtures(rule.id, "") {
            let c = case(&f);
            let mut report = api::lint(&c.request);
            report.findings.retain(|x| x.rule == rule.id);
            let all: Vec<_> = c
                .request
                .sources
                .iter()
                .chain(&c.request.cluster)
                .cloned()
                .collect();
            let out = render::human(&report, &all, render::HumanOptions::default());
            insta::assert_snapshot!(c.name.replace('/', "__"), out);
        }
    }
}

#[test]
fn docs_examples_are_the_fixtures() {
    for rule in pvlint_core::rules() {
        let dir = fixtures_dir().join(rule.id);
        assert_eq!(
            rule.docs.example,
            fs::read_to_string(dir.join("bad.yaml")).unwrap(),
            "{}",
            rule.id
        );
        assert_eq!(
            rule.docs.fixed,
            fs::read_to_string(dir.join("good.yaml")).unwrap(),
            "{}",
            rule.id
        );
        assert!(
            !rule.docs.known_problems.trim().is_empty(),
            "{} states no known problems",
            rule.id
        );
    }
}

#[test]
fn fixture_headers_are_checked() {
    assert!(common::header("# pvlint: --bogus\n").is_err());
    assert!(common::header("# pvlint: --kube-version\n").is_err());
    let (o, c) = common::header(
        "# pvlint: --kube-version 1.23 --no-default-class --cluster-state x.yaml\nkind: X\n",
    )
    .unwrap();
    assert_eq!(o.kube_version, pvlint_core::KubeVersion::new(1, 23));
    assert_eq!(o.default_class.as_deref(), Some(""));
    assert_eq!(c.as_deref(), Some("x.yaml"));
}

/// What each rule's docs say of its severities is what it does: every grade names a fixture
/// of the rule, and linted under its header's profile that fixture's most severe finding of
/// the rule has the grade's severity. The rule's highest severity (the rules table's) is its
/// highest grade, and every severity a `bad*.yaml` fixture shows is graded.
#[test]
fn the_documented_severities_are_what_the_rules_report() {
    let mut problems = Vec::new();
    for rule in pvlint_core::rules() {
        let grades = rule.docs.grades;
        if grades.is_empty() {
            problems.push(format!("{}: no grades in its docs", rule.id));
            continue;
        }
        let highest = grades.iter().map(|g| g.severity).max().unwrap();
        if highest != rule.severity {
            problems.push(format!(
                "{}: the table says {}, its highest grade is {}",
                rule.id,
                rule.severity.as_str(),
                highest.as_str()
            ));
        }
        for g in grades {
            let path = fixtures_dir().join(rule.id).join(g.example);
            if !path.is_file() {
                problems.push(format!(
                    "{}: grade example {} is not a fixture",
                    rule.id, g.example
                ));
                continue;
            }
            let c = case(&path);
            let worst = api::lint(&c.request)
                .findings
                .iter()
                .filter(|f| f.rule == rule.id)
                .map(|f| f.severity)
                .max();
            if worst != Some(g.severity) {
                problems.push(format!(
                    "{}: the docs say {} for {} ({}); the rule reports {:?}",
                    rule.id,
                    g.severity.as_str(),
                    g.example,
                    g.when,
                    worst
                ));
            }
        }
        for f in fixtures(rule.id, "bad") {
            let c = case(&f);
            for sev in api::lint(&c.request)
                .findings
                .iter()
                .filter(|x| x.rule == rule.id)
                .map(|x| x.severity)
            {
                if !grades.iter().any(|g| g.severity == sev) {
                    problems.push(format!(
                        "{}: {} reports {} but no grade in the docs says when",
                        rule.id,
                        c.name,
                        sev.as_str()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
