//! What the CLI does to keep a large input's memory low, checked against the plain paths:
//!
//! - `api::lint_and_drop_texts` (JSON, SARIF and GitHub output) drops each source's text once
//!   the objects are read from it. Its report must be the one `api::lint` gives, including
//!   what is read from the texts after parsing: Helm's `# Source:` comments (the template a
//!   finding's object came from).
//! - `render::write_json` and `render::write_sarif` write the output as it is produced: the
//!   same bytes as the JSON rendered in memory, and every finding in the SARIF log.

mod common;

use std::fs;
use std::path::Path;

use pvlint_core::api::{self, Request};
use pvlint_core::Source;

fn read(rel: &str) -> Source {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Source::new(rel, text)
}

/// Both reports as JSON, and the sources after `lint_and_drop_texts`.
fn both_ways(sources: Vec<Source>, each_file: bool) -> (String, String, Vec<Source>) {
    let mut req = Request::new(sources);
    req.each_file = each_file;
    let kept = serde_json::to_string_pretty(&api::lint(&req)).unwrap();
    let dropped = serde_json::to_string_pretty(&api::lint_and_drop_texts(&mut req)).unwrap();
    (kept, dropped, req.sources)
}

#[test]
fn helm_streams_keep_their_template_names_without_their_texts() {
    let files = [
        "tests/ordinary/nextcloud-helm-rendered.yaml",
        "tests/ordinary/prometheus-server-helm-rendered.yaml",
        "tests/ordinary/bitnami-redis-replication.yaml",
    ];
    let (kept, dropped, sources) = both_ways(files.iter().map(|f| read(f)).collect(), false);
    assert_eq!(kept, dropped);
    // The origins come from `# Source:` comments in the texts: a report without them would
    // still be equal to a report that lost them too, so check they are there.
    let report: serde_json::Value = serde_json::from_str(&dropped).unwrap();
    let origins: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["location"]["origin"]["file"].as_str())
        .collect();
    assert!(
        origins.iter().any(|o| o.contains("/templates/")),
        "no finding names its Helm template: {origins:?}"
    );
    for (s, f) in sources.iter().zip(files) {
        assert_eq!(s.name.as_str(), f, "the names stay");
        assert!(s.text.is_empty(), "{f}: the text was kept");
    }
}

/// Every fixture and example in one request.
#[test]
fn the_fixtures_and_examples_report_the_same_without_their_texts() {
    let root = common::root();
    let sources: Vec<Source> = common::all_inputs()
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&root).unwrap_or(p).to_string_lossy();
            Source::new(name, fs::read_to_string(p).unwrap())
        })
        .collect();
    assert!(sources.len() > 100, "{} inputs", sources.len());
    let (kept, dropped, _) = both_ways(sources, false);
    assert_eq!(kept, dropped);
    let report: serde_json::Value = serde_json::from_str(&dropped).unwrap();
    assert!(report["summary"]["errors"].as_u64().unwrap() > 0);
}

/// `--each-file` indexes one file at a time and looks Kustomize inputs up across all of them:
/// its texts stay.
#[test]
fn each_file_requests_keep_their_texts() {
    let (kept, dropped, sources) = both_ways(
        vec![read("tests/ordinary/bitnami-postgresql-primary.yaml")],
        true,
    );
    assert_eq!(kept, dropped);
    assert!(!sources[0].text.is_empty());
}

/// The CLI writes its JSON as it is produced (`render::write_json`): the same bytes as the
/// JSON rendered in memory, final newline included.
#[test]
fn json_written_as_produced_is_the_rendered_json() {
    let report = api::lint(&Request::new(vec![read(
        "tests/ordinary/bitnami-redis-replication.yaml",
    )]));
    let mut written = Vec::new();
    pvlint_core::render::write_json(&report, &mut written).unwrap();
    let rendered = pvlint_core::render::json(&report);
    assert!(rendered.ends_with("}\n"));
    assert_eq!(String::from_utf8(written).unwrap(), rendered);
}

/// SARIF is written as it is produced (`render::write_sarif`), each result typed by serde-sarif
/// as it is made: one result per finding, in the report's order, at the finding's place.
#[test]
fn sarif_written_as_produced_has_every_finding_in_order() {
    let report = api::lint(&Request::new(vec![read(
        "tests/ordinary/bitnami-redis-replication.yaml",
    )]));
    assert!(!report.findings.is_empty());
    let mut written = Vec::new();
    pvlint_core::render::write_sarif(&report, &mut written).unwrap();
    let text = String::from_utf8(written).unwrap();
    assert!(text.ends_with("}\n"));
    let log: serde_json::Value = serde_json::from_str(&text).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        report.findings.len() + report.suppressed.len()
    );
    for (r, f) in results.iter().zip(&report.findings) {
        assert_eq!(r["ruleId"], f.rule.as_str());
        // A rendered file whose template no host found in the repository (the core alone
        // finds none): the finding points at the rendered file itself, and names the template.
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uri"], f.location.file.as_str());
        if let Some(o) = &f.location.origin {
            let text = r["message"]["text"].as_str().unwrap();
            assert!(text.contains(&format!("from {}", o.file)), "{text}");
        }
        assert_eq!(at["region"]["startLine"], f.location.line);
        assert_eq!(at["region"]["startColumn"], f.location.column);
    }
}
