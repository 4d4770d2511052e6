//! Reports for CI systems other than GitHub's: JUnit XML (Jenkins, GitLab's and Azure's test
//! reports, CircleCI) and GitLab Code Quality (the merge request widget). Both are pure
//! functions of the report, as the other renderers are.

use std::collections::HashMap;
use std::fmt::Write;

use crate::finding::{Finding, Severity};
use crate::report::Report;

/// Where a CI system should show a finding: the template or source file for rendered input
/// when the host found it in the repository, else the file linted.
fn path_and_line(f: &Finding) -> (&str, u32) {
    match f.location.origin.as_deref() {
        Some(o) if o.path.is_some() => (
            o.path.as_deref().unwrap_or(&o.file),
            o.line.unwrap_or(f.location.line),
        ),
        _ => (f.location.file.as_str(), f.location.line),
    }
}

/// A finding's text for people: the headline, what the cluster does, the help.
fn details(f: &Finding) -> String {
    let mut out = f.message.to_string();
    if let Some(c) = f.consequence.as_ref().filter(|c| !c.summary.is_empty()) {
        let _ = write!(out, "\nWhat the cluster does: {}", c.summary);
        for a in &c.assumptions {
            let _ = write!(out, "\nAssumed: {a}");
        }
    }
    if !f.help.is_empty() {
        let _ = write!(out, "\nHelp: {}", f.help);
    }
    out
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: one test suite per file linted (`testsuite name` is the file), one failed test
/// case per finding (`failure type` is its severity, the message its headline, the text what
/// the cluster does and the help), and one passing case for a file without findings, so every
/// file linted shows in the test report.
pub fn junit(report: &Report) -> String {
    // Every file linted, in the report's order (a file of two apply sets once), then the
    // findings of each.
    let mut by_file: Vec<(&str, Vec<&Finding>)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    let files = report.apply_sets.iter().flat_map(|s| s.files.iter());
    for file in files
        .map(String::as_str)
        .chain(report.findings.iter().map(|f| path_and_line(f).0))
    {
        at.entry(file).or_insert_with(|| {
            by_file.push((file, Vec::new()));
            by_file.len() - 1
        });
    }
    for f in &report.findings {
        by_file[at[path_and_line(f).0]].1.push(f);
    }
    let total: usize = by_file.iter().map(|(_, fs)| fs.len().max(1)).sum();
    let failures = report.findings.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"pvlint\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">"
    );
    for (file, findings) in &by_file {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
            xml(file),
            findings.len().max(1),
            findings.len()
        );
        if findings.is_empty() {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"no storage hazards\"/>",
                xml(file)
            );
        }
        for f in findings {
            let (path, line) = path_and_line(f);
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"{}: {} ({}:{})\">",
                xml(file),
                f.rule,
                xml(&f.message),
                xml(path),
                line
            );
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                f.severity.as_str(),
                xml(&format!(
                    "{}[{}]: {}",
                    f.severity.as_str(),
                    f.rule,
                    f.message
                )),
                xml(&details(f))
            );
            let _ = writeln!(out, "    </testcase>");
        }
        let _ = writeln!(out, "  </testsuite>");
    }
    out.push_str("</testsuites>\n");
    out
}

/// GitLab Code Quality (`artifacts: reports: codequality`): a JSON array of issues, each with
/// a description, the rule as `check_name`, a fingerprint that is unique in the report and
/// survives lines moving (rule, file, object, field; a number appended for repeats), a
/// severity (error → major, warning → minor, info → info, as GitLab's ESLint formatter maps
/// them) and the file and line.
pub fn gitlab(report: &Report) -> String {
    let mut used: HashMap<String, usize> = HashMap::new();
    let issues: Vec<serde_json::Value> = report
        .findings
        .iter()
        .map(|f| {
            let (path, line) = path_and_line(f);
            let object = f.object.as_ref().map(|o| o.display()).unwrap_or_default();
            let base = super::sarif::fnv(&[&f.rule, path, &object, &f.path]);
            let n = used.entry(base.clone()).or_default();
            *n += 1;
            let fingerprint = if *n == 1 {
                base
            } else {
                super::sarif::fnv(&[&base, &n.to_string()])
            };
            serde_json::json!({
                "description": format!("{}[{}]: {}", f.severity.as_str(), f.rule, f.message),
                "check_name": f.rule,
                "fingerprint": fingerprint,
                "severity": match f.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                "location": { "path": path, "lines": { "begin": line } },
                "content": { "body": details(f) },
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).expect("issues always serialise");
    s.push('\n');
    s
}
