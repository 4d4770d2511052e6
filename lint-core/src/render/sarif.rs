//! `--format sarif` (SARIF 2.1.0, typed by the serde-sarif crate) and `--format github`
//! (GitHub Actions workflow commands).
//!
//! SARIF: every rule in `tool.driver.rules` with its help text and a help URI into
//! docs/rules.md; each finding a result with its rule index, level, message, physical
//! location (line and column, counted in Unicode code points: `columnKind`), the object as a
//! logical location, a `partialFingerprints` entry that survives lines moving, exact fixes as
//! SARIF `fixes`, and findings a `pvlint.io/ignore` annotation suppressed as results with
//! `suppressions`. For rendered input (Helm, Kustomize) the primary location is the template
//! or source file; the position in the rendered stream is a related location.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use serde_sarif::sarif;

use crate::finding::{Applicability, Finding, Location, Severity};
use crate::report::Report;
use crate::rules::Rule;

/// Where docs/rules.md is published; each rule has an anchor named after its id.
pub const RULES_DOC: &str = "https://github.com/pvlint/pvlint/blob/main/docs/rules.md";

fn level_of(s: Severity) -> sarif::ResultLevel {
    match s {
        Severity::Error => sarif::ResultLevel::Error,
        Severity::Warning => sarif::ResultLevel::Warning,
        Severity::Info => sarif::ResultLevel::Note,
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A file name as a URI reference: unreserved characters and `/` kept, the rest
/// percent-encoded (`<stdin>` becomes `%3Cstdin%3E`).
pub fn uri(file: &str) -> String {
    let mut out = String::new();
    for b in file.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// FNV-1a, 64 bits: stable across runs, platforms and Rust versions.
pub(super) fn fnv(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn region(l: &Location) -> sarif::Region {
    sarif::Region {
        start_line: Some(l.line.into()),
        start_column: Some(l.column.into()),
        end_line: Some(l.end_line.into()),
        end_column: Some(l.end_column.into()),
        ..Default::default()
    }
}

fn artifact(uri_: String) -> sarif::ArtifactLocation {
    sarif::ArtifactLocation {
        uri: Some(uri_),
        ..Default::default()
    }
}

fn text(t: impl Into<String>) -> sarif::Message {
    sarif::Message {
        text: Some(t.into()),
        ..Default::default()
    }
}

/// Where an annotation of a rendered finding goes: the template or source file when the host
/// found it in the repository; else the rendered file itself, at the finding's line, when the
/// input is a file (committed rendered output, whose chart is not in the repository); else
/// (rendered output piped in, `<stdin>`) the template as the tool names it, without a line.
enum Place<'a> {
    Origin(&'a crate::finding::Origin),
    Rendered,
    Named(&'a crate::finding::Origin),
}

fn place(l: &Location) -> Place<'_> {
    match l.origin.as_deref() {
        None => Place::Rendered,
        Some(o) if o.path.is_some() => Place::Origin(o),
        Some(_) if !l.file.starts_with('<') => Place::Rendered,
        Some(o) => Place::Named(o),
    }
}

/// The template or source file a rendered finding came from, as found in the repository.
fn origin_location(o: &crate::finding::Origin) -> sarif::PhysicalLocation {
    sarif::PhysicalLocation {
        artifact_location: Some(artifact(uri(o.path.as_deref().unwrap_or(&o.file)))),
        region: o.line.map(|line| sarif::Region {
            start_line: Some(line.into()),
            start_column: Some(o.column.unwrap_or(1).into()),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn physical(l: &Location) -> sarif::PhysicalLocation {
    sarif::PhysicalLocation {
        artifact_location: Some(artifact(uri(&l.file))),
        region: Some(region(l)),
        ..Default::default()
    }
}

fn named(o: &crate::finding::Origin) -> sarif::PhysicalLocation {
    sarif::PhysicalLocation {
        artifact_location: Some(artifact(uri(&o.file))),
        ..Default::default()
    }
}

fn rule_descriptor(r: &Rule) -> Value {
    let help = format!("{}\n\nFix: {}", r.docs.why, r.docs.fix);
    let markdown = format!(
        "{}\n\n**Why:** {}\n\n**Fix:** {}\n\n**Known problems:** {}",
        r.docs.what, r.docs.why, r.docs.fix, r.docs.known_problems
    );
    json!({
        "id": r.id,
        "name": r.id.split('-').map(|w| {
            let mut c = w.chars();
            c.next().map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect::<String>()).unwrap_or_default()
        }).collect::<String>(),
        "shortDescription": { "text": r.summary },
        "fullDescription": { "text": r.docs.what },
        "help": { "text": help, "markdown": markdown },
        "helpUri": format!("{RULES_DOC}#{}", r.id),
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": { "tags": [r.family.as_str()] },
    })
}

/// `s` as a sentence: it ends with a full stop.
fn sentence(s: &str) -> String {
    let s = s.trim_end();
    if s.ends_with(['.', '!', '?']) {
        s.to_string()
    } else {
        format!("{s}.")
    }
}

/// A finding's message: the headline as the first sentence (GitHub shows only that as the
/// alert's title), then what the cluster does, the help and, for rendered input, where in the
/// rendered stream it is; as text and as Markdown.
fn message(f: &Finding) -> sarif::Message {
    let mut text = sentence(&f.message);
    let mut markdown = format!("**{}**", sentence(&f.message));
    if let Some(c) = f.consequence.as_ref().filter(|c| !c.summary.is_empty()) {
        let c = sentence(&c.summary);
        text.push_str(&format!("\nWhat the cluster does: {c}"));
        markdown.push_str(&format!("\n\nWhat the cluster does: {c}"));
        for a in &f.consequence.as_ref().expect("checked").assumptions {
            markdown.push_str(&format!("\n\n*Assumed:* {a}"));
        }
    }
    if !f.help.is_empty() {
        let h = sentence(&f.help);
        text.push_str(&format!("\nHelp: {h}"));
        markdown.push_str(&format!("\n\n**Help:** {h}"));
    }
    if let Some(o) = &f.location.origin {
        let at = match place(&f.location) {
            Place::Rendered => format!(
                "(Rendered by {} from {}, which is not in the repository.)",
                o.tool, o.file
            ),
            _ => format!(
                "(Line {} of the output of {}, {}.)",
                f.location.line, o.tool, f.location.file
            ),
        };
        text.push_str(&format!("\n{at}"));
        markdown.push_str(&format!("\n\n{at}"));
    }
    sarif::Message {
        text: Some(text),
        markdown: Some(markdown),
        ..Default::default()
    }
}

fn result(f: &Finding, rules: &[&Rule], suppressed: bool) -> sarif::Result {
    let related_location =
        |id: usize, message: sarif::Message, at: sarif::PhysicalLocation| sarif::Location {
            id: Some(id as i64),
            message: Some(message),
            physical_location: Some(at),
            ..Default::default()
        };
    let mut related: Vec<sarif::Location> = Vec::new();
    let primary = match place(&f.location) {
        Place::Origin(o) => {
            related.push(related_location(
                related.len(),
                text(format!("where {} rendered it", o.tool)),
                physical(&f.location),
            ));
            origin_location(o)
        }
        Place::Named(o) => {
            related.push(related_location(
                related.len(),
                text(format!("where {} rendered it", o.tool)),
                physical(&f.location),
            ));
            named(o)
        }
        Place::Rendered => physical(&f.location),
    };
    let location = sarif::Location {
        physical_location: Some(primary),
        logical_locations: f.object.as_ref().map(|o| {
            vec![sarif::LogicalLocation {
                name: Some(o.name.to_string()),
                fully_qualified_name: Some(o.display()),
                kind: Some("object".to_string()),
                ..Default::default()
            }]
        }),
        ..Default::default()
    };
    for r in &f.related {
        let at = match place(&r.location) {
            Place::Origin(o) => origin_location(o),
            Place::Named(o) => named(o),
            Place::Rendered => physical(&r.location),
        };
        related.push(related_location(
            related.len(),
            text(r.message.as_str()),
            at,
        ));
    }
    let object = f.object.as_ref().map(|o| o.display()).unwrap_or_default();
    let file = match place(&f.location) {
        Place::Origin(o) => o.path.as_deref().unwrap_or(o.file.as_str()),
        Place::Named(o) => o.file.as_str(),
        Place::Rendered => f.location.file.as_str(),
    };
    let mut r = sarif::Result::builder().message(message(f)).build();
    r.rule_id = Some(f.rule.to_string());
    r.level = Some(level_of(f.severity));
    r.locations = Some(vec![location]);
    r.partial_fingerprints = Some(BTreeMap::from([(
        "pvlintFinding/v1".to_string(),
        fnv(&[&f.rule, file, &object, &f.path]),
    )]));
    r.properties = Some(sarif::PropertyBag {
        tags: None,
        additional_properties: BTreeMap::from([(
            "family".to_string(),
            Value::String(f.family.to_string()),
        )]),
    });
    r.rule_index = rules.iter().position(|r| r.id == f.rule).map(|i| i as i64);
    if !related.is_empty() {
        r.related_locations = Some(related);
    }
    if let Some(s) = &f.suggestion {
        if s.applicability == Applicability::Exact && !s.edits.is_empty() {
            let replacements = s
                .edits
                .iter()
                .map(|e| {
                    let mut replacement = sarif::Replacement::builder()
                        .deleted_region(sarif::Region {
                            start_line: Some(e.line.into()),
                            start_column: Some(e.column.into()),
                            end_line: Some(e.end_line.into()),
                            end_column: Some(e.end_column.into()),
                            ..Default::default()
                        })
                        .build();
                    replacement.inserted_content = Some(sarif::ArtifactContent {
                        text: Some(e.replacement.to_string()),
                        ..Default::default()
                    });
                    replacement
                })
                .collect::<Vec<_>>();
            let change = sarif::ArtifactChange::builder()
                .artifact_location(artifact(uri(&f.location.file)))
                .replacements(replacements)
                .build();
            let mut fix = sarif::Fix::builder().artifact_changes(vec![change]).build();
            fix.description = Some(text(s.description.as_str()));
            r.fixes = Some(vec![fix]);
        }
    }
    if suppressed {
        let mut suppression = sarif::Suppression::builder()
            .kind(Value::from("inSource"))
            .build();
        suppression.status = Some(Value::from("accepted"));
        suppression.justification =
            Some("pvlint.io/ignore annotation on the object or its pod template".to_string());
        r.suppressions = Some(vec![suppression]);
    }
    r
}

/// The report as a SARIF 2.1.0 log, pretty-printed, with a final newline.
pub fn sarif(report: &Report) -> String {
    let mut out = Vec::new();
    write_sarif(report, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// [`sarif()`], written to `out` as it is produced instead of built in memory.
pub fn write_sarif(report: &Report, mut out: impl std::io::Write) -> std::io::Result<()> {
    let rules = crate::rules::ALL;
    // Results are built as serde-sarif's types, so the compiler holds them to the SARIF
    // model (one JSON tree of the whole log took about 40 times the size of a large input,
    // and typing each result through a JSON value was a third of a large SARIF run).
    let results: Vec<serde_sarif::sarif::Result> = report
        .findings
        .iter()
        .map(|f| result(f, rules, false))
        .chain(report.suppressed.iter().map(|f| result(f, rules, true)))
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "pvlint",
                    "version": report.version,
                    "semanticVersion": report.version,
                    "informationUri": "https://github.com/pvlint/pvlint",
                    "rules": rules.iter().map(|r| rule_descriptor(r)).collect::<Vec<_>>(),
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": [],
            "invocations": [{
                "executionSuccessful": true,
                // The cluster the findings are judged for, each value with where it came from.
                "properties": {
                    "clusterProfile": report.profile.describe(),
                    "profile": serde_json::to_value(&report.profile).unwrap_or_default(),
                },
            }],
        }],
    });
    let mut typed: serde_sarif::sarif::Sarif =
        serde_json::from_value(log).expect("pvlint writes SARIF the serde-sarif model accepts");
    typed.runs[0].results = Some(results);
    serde_json::to_writer_pretty(&mut out, &typed).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// Escapes a workflow command's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow annotations, one line per finding:
/// `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=RULE::HEADLINE`.
pub fn github(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let cmd = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let l = &f.location;
        let mut message = f.message.clone();
        if let Some(c) = &f.consequence {
            message.push_str(&format!("\n{}", c.summary));
        }
        let props = match l
            .origin
            .as_deref()
            .filter(|_| !matches!(place(l), Place::Rendered))
        {
            Some(o) if o.path.is_some() => {
                message.push_str(&format!(
                    "\n(line {} of the output of {}, {})",
                    l.line, o.tool, l.file
                ));
                let mut p = format!(
                    "file={}",
                    escape_property(o.path.as_deref().unwrap_or(&o.file))
                );
                if let Some(line) = o.line {
                    p.push_str(&format!(",line={line},col={}", o.column.unwrap_or(1)));
                }
                p
            }
            Some(o) => {
                message.push_str(&format!(
                    "\n(line {} of the output of {}, {})",
                    l.line, o.tool, l.file
                ));
                format!("file={}", escape_property(&o.file))
            }
            None => {
                if let Some(o) = &l.origin {
                    message.push_str(&format!(
                        "\n(rendered by {} from {}, which is not in the repository)",
                        o.tool, o.file
                    ));
                }
                format!(
                    "file={},line={},col={},endLine={},endColumn={}",
                    escape_property(&l.file),
                    l.line,
                    l.column,
                    l.end_line,
                    l.end_column
                )
            }
        };
        out.push_str(&format!(
            "::{cmd} {props},title={}::{}\n",
            escape_property(&f.rule),
            escape_data(&message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first sentence of a result's message is the headline, short: GitHub shows it as
    /// the alert's title.
    #[test]
    fn the_first_sentence_is_the_headline() {
        let sources = [crate::source::Source::new(
            "pv.yaml",
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: shared\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Delete\n  claimRef: {namespace: default, name: data, uid: 3d65a636-f4c3-4c49-b957-c45673f48bc6}\n  nfs: {server: 10.0.0.1, path: /x}\n",
        )];
        let report = crate::api::lint_sources(&sources, &crate::options::Options::default());
        let log: Value = serde_json::from_str(&sarif(&report)).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert!(!results.is_empty());
        for (r, f) in results.iter().zip(&report.findings) {
            let text = r["message"]["text"].as_str().unwrap();
            let first = text
                .split_inclusive(". ")
                .next()
                .unwrap()
                .lines()
                .next()
                .unwrap();
            assert_eq!(first, sentence(&f.message), "{text}");
            assert!(first.len() < 120, "{first}");
            let md = r["message"]["markdown"].as_str().unwrap();
            assert!(
                md.starts_with(&format!("**{}**", sentence(&f.message))),
                "{md}"
            );
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(escape_data("50% a\nb\r"), "50%25 a%0Ab%0D");
        assert_eq!(escape_property("a,b:c%"), "a%2Cb%3Ac%25");
        assert_eq!(uri("dir/a b.yaml"), "dir/a%20b.yaml");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_ne!(fnv(&["a", "bc"]), fnv(&["ab", "c"]));
    }
}
