//! Precision on real manifests: the CLI over real repositories, each repository folder linted
//! as a user would lint it (`pvlint lint REPO/`: each directory and kustomization its own apply
//! set) and `--each-file`, every error and warning compared with reviewed verdicts (mode, rule,
//! file, line, severity, verdict, reason). Two corpora:
//!
//! - the shared corpus (`../shared/corpus/realworld`, or `$PVLINT_CORPUS`), verdicts in
//!   `harness/tests/corpus-verdicts.tsv`;
//! - the unseen sample of repositories that are not in it (`$PVLINT_SAMPLE`, rebuilt with
//!   `harness/tests/get-sample.sh DIR` from `harness/tests/sample-sources.txt`; not committed),
//!   verdicts in `harness/tests/sample-verdicts.tsv`.
//!
//! Fails when a finding no one reviewed appears, when a finding judged false comes back, when
//! a true finding disappears or changes severity, or when precision (true findings over all
//! errors and warnings) drops below 95 %. `PVLINT_CORPUS_WRITE=FILE` (or
//! `PVLINT_SAMPLE_WRITE=FILE`) writes the current findings merged with the verdicts (new ones
//! marked `?`) for review.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

type Key = (String, String, String, u32);

/// Writes to stderr past the test harness's capture (it takes only the print macros), so a
/// skipped check is seen under a plain `cargo test`.
macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("PVLINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/realworld")
        });
    p.is_dir().then_some(p)
}

fn sample() -> Option<PathBuf> {
    std::env::var_os("PVLINT_SAMPLE")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
}

/// Every error and warning: its severity, and its headline (for review).
fn findings(root: &Path) -> BTreeMap<Key, (String, String)> {
    let mut out = BTreeMap::new();
    let mut repos: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    for repo in repos {
        for (mode, extra) in [("repo", None), ("each", Some("--each-file"))] {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_pvlint"));
            cmd.args(["lint", "--format", "json", "--fail-on", "never"]);
            cmd.args(extra);
            let o = cmd.arg(&repo).output().unwrap();
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}: {}",
                    repo.display(),
                    String::from_utf8_lossy(&o.stderr)
                )
            });
            for f in v["findings"].as_array().unwrap() {
                let sev = f["severity"].as_str().unwrap();
                // Certainty grading on real input: an error rests on no assumption.
                let assumed = f["consequence"]["assumptions"]
                    .as_array()
                    .is_some_and(|a| !a.is_empty());
                assert!(
                    !(sev == "error" && assumed),
                    "{}: an error that rests on assumptions: {f}",
                    repo.display()
                );
                if sev == "info" {
                    continue;
                }
                let file = f["location"]["file"].as_str().unwrap();
                let rel = Path::new(file)
                    .strip_prefix(root)
                    .map_or(file.to_string(), |p| p.display().to_string());
                let key = (
                    mode.to_string(),
                    f["rule"].as_str().unwrap().to_string(),
                    rel,
                    f["location"]["line"].as_u64().unwrap() as u32,
                );
                let message = f["message"].as_str().unwrap_or_default().to_string();
                out.insert(key, (sev.to_string(), message));
            }
        }
    }
    out
}

struct Verdict {
    severity: String,
    verdict: String,
    reason: String,
}

fn verdicts(text: &str) -> BTreeMap<Key, Verdict> {
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        assert!(
            c.len() >= 6,
            "corpus-verdicts.tsv:{}: needs mode, rule, file, line, severity, verdict[, reason]",
            n + 1
        );
        assert!(
            ["true", "false", "noise"].contains(&c[5]),
            "corpus-verdicts.tsv:{}: verdict is true, false or noise",
            n + 1
        );
        if c[5] != "true" {
            assert!(
                c.len() > 6 && !c[6].trim().is_empty(),
                "corpus-verdicts.tsv:{}: say why it is {}",
                n + 1,
                c[5]
            );
        }
        out.insert(
            (c[0].into(), c[1].into(), c[2].into(), c[3].parse().unwrap()),
            Verdict {
                severity: c[4].into(),
                verdict: c[5].into(),
                reason: c.get(6).unwrap_or(&"").to_string(),
            },
        );
    }
    out
}

#[test]
fn precision_on_real_repositories() {
    let Some(root) = corpus() else {
        loud!("\n########################################################################");
        loud!("## SKIPPED: the real-manifest corpus (../shared/corpus/realworld) is not here.");
        loud!("## Set PVLINT_CORPUS=DIR to the corpus to run the precision regression test.");
        loud!("########################################################################\n");
        return;
    };
    check(
        &root,
        include_str!("corpus-verdicts.tsv"),
        "PVLINT_CORPUS_WRITE",
        "corpus",
    );
}

#[test]
fn precision_on_the_unseen_sample() {
    let Some(root) = sample() else {
        loud!("\n########################################################################");
        loud!("## SKIPPED: the unseen sample is not here (it is not committed).");
        loud!("## Rebuild it: bash harness/tests/get-sample.sh /tmp/sample (needs github.com),");
        loud!("## then: PVLINT_SAMPLE=/tmp/sample cargo test -p pvlint --test corpus");
        loud!("########################################################################\n");
        return;
    };
    check(
        &root,
        include_str!("sample-verdicts.tsv"),
        "PVLINT_SAMPLE_WRITE",
        "sample",
    );
}

/// Lints `root`'s repositories both ways and compares every error and warning with `verdicts`.
fn check(root: &Path, verdicts_text: &str, write_var: &str, what: &str) {
    let now = findings(root);
    let known = verdicts(verdicts_text);
    if let Some(path) = std::env::var_os(write_var) {
        let mut text = String::from("# mode\trule\tfile\tline\tseverity\tverdict\treason\n");
        let mut keys: Vec<&Key> = now
            .keys()
            .chain(known.keys().filter(|k| known[*k].verdict == "false"))
            .collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            let (sev, v, why) = match (now.get(k), known.get(k)) {
                (Some((s, _)), Some(v)) => (s.clone(), v.verdict.clone(), v.reason.clone()),
                (Some((s, m)), None) => (s.clone(), "?".into(), m.clone()),
                (None, Some(v)) => (v.severity.clone(), v.verdict.clone(), v.reason.clone()),
                (None, None) => unreachable!(),
            };
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{sev}\t{v}\t{why}\n",
                k.0, k.1, k.2, k.3
            ));
        }
        std::fs::write(path, text).unwrap();
    }
    let mut problems = Vec::new();
    let (mut t, mut total) = (0, 0);
    for (k, (sev, _)) in &now {
        total += 1;
        match known.get(k) {
            None => problems.push(format!(
                "unreviewed {sev} {} at {}:{} ({})",
                k.1, k.2, k.3, k.0
            )),
            Some(v) if v.verdict == "false" => problems.push(format!(
                "false finding is back: {} at {}:{} ({}): {}",
                k.1, k.2, k.3, k.0, v.reason
            )),
            Some(v) => {
                if v.verdict == "true" {
                    t += 1;
                }
                if v.severity != *sev {
                    problems.push(format!(
                        "{} at {}:{} ({}) changed from {} to {sev}",
                        k.1, k.2, k.3, k.0, v.severity
                    ));
                }
            }
        }
    }
    for (k, v) in &known {
        if v.verdict == "true" && !now.contains_key(k) {
            problems.push(format!(
                "true finding disappeared: {} {} at {}:{} ({})",
                v.severity, k.1, k.2, k.3, k.0
            ));
        }
    }
    let precision = if total == 0 {
        1.0
    } else {
        t as f64 / total as f64
    };
    eprintln!(
        "{what}: {total} errors and warnings, {t} true: precision {:.1} %",
        precision * 100.0
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        precision >= 0.95,
        "precision {:.1} % is below 95 %",
        precision * 100.0
    );
}
