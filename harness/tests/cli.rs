//! The `pvlint` binary as a user runs it.

#[path = "common/scratch.rs"]
mod scratch;
#[path = "common/stdin.rs"]
mod stdin;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use scratch::Scratch;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pvlint"));
    c.current_dir(repo());
    c.env_remove("NO_COLOR");
    c
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

const BAD: &str = "lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml";
const GOOD: &str = "lint-core/tests/fixtures/stale-claim-ref-uid/good.yaml";

#[test]
fn exit_codes_follow_fail_on() {
    assert_eq!(run(&["lint", GOOD]).status.code(), Some(0));
    assert_eq!(run(&["lint", BAD]).status.code(), Some(1));
    assert_eq!(
        run(&["lint", "--fail-on", "never", BAD]).status.code(),
        Some(0)
    );
    // Only a warning in this file: fails with --fail-on warning, passes by default.
    let warn = "lint-core/tests/fixtures/hostpath-persistent-volume/good.yaml";
    let seed4 = "examples/seed-004-pv-deleted-before-pvc/broken.yaml";
    assert_eq!(run(&["lint", warn]).status.code(), Some(0));
    assert_eq!(run(&["lint", seed4]).status.code(), Some(0));
    assert_eq!(
        run(&["lint", "--fail-on", "info", seed4]).status.code(),
        Some(1)
    );
    assert_eq!(
        run(&[
            "lint",
            "--fail-on",
            "warning",
            "--kube-version",
            "1.23",
            seed4
        ])
        .status
        .code(),
        Some(1)
    );
}

#[test]
fn human_output_points_at_the_field_with_a_caret() {
    let o = run(&["lint", "--color", "never", BAD]);
    let out = stdout(&o);
    assert!(out.contains("error[stale-claim-ref-uid]"), "{out}");
    assert!(out.contains(&format!("--> {BAD}:15:10")), "{out}");
    assert!(
        out.contains("15 |     uid: 3d65a636-f4c3-4c49-b957-c45673f48bc6"),
        "{out}"
    );
    assert!(
        out.contains("   |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour when asked for none");
    let coloured = stdout(&run(&["lint", "--color", "always", BAD]));
    assert!(coloured.contains("\x1b[1;31merror"), "{coloured}");
}

#[test]
fn json_output_is_the_documented_schema() {
    let o = run(&["lint", "--format", "json", BAD]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["schema"], "pvlint/v1");
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "stale-claim-ref-uid");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["family"], "stale-identity");
    assert_eq!(f["path"], "spec.claimRef.uid");
    assert_eq!(f["object"]["kind"], "PersistentVolume");
    assert_eq!(f["object"]["name"], "shared-data");
    assert_eq!(f["location"]["file"], BAD);
    assert_eq!(f["location"]["line"], 15);
    assert_eq!(f["location"]["column"], 10);
    assert!(f["suggestion"]["snippet"].is_string());
    assert_eq!(v["summary"]["errors"], 1);
    assert_eq!(v["options"]["kubeVersion"], "1.34");
}

#[test]
fn a_line_wider_than_a_terminal_is_shown_as_a_window_around_the_caret() {
    // 100,000 nested flow sequences on one line: the excerpt is 160 characters of it,
    // cut with `…`, and the caret stays under the column the location names.
    let line = format!("data: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\n{line}\n");
    let o = with_stdin(&["lint", "--color", "never", "-"], &text);
    let out = stdout(&o);
    assert!(out.len() < 2_000, "{} bytes of output", out.len());
    let at = out.find("--> <stdin>:4:").expect(&out);
    let column: usize = out[at + 14..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|c| c.parse().ok())
        .expect(&out);
    let lines: Vec<&str> = out.lines().collect();
    let excerpt = lines
        .iter()
        .position(|l| l.starts_with("4 | "))
        .expect(&out);
    let shown = &lines[excerpt]["4 | ".len()..];
    assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
    assert_eq!(shown.chars().count(), 162, "{shown}");
    let caret = lines[excerpt + 1]["  | ".len()..].find('^').expect(&out);
    // The window starts 40 characters before the column, after its `…`.
    assert_eq!(caret, 41, "column {column}: {}", lines[excerpt + 1]);
    assert!(column > 200, "the error is past the first window: {column}");
}

#[test]
fn stdin_is_read_with_a_dash() {
    let bad = std::fs::read_to_string(repo().join(BAD)).unwrap();
    let o = with_stdin(&["lint", "--format", "json", "-"], &bad);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["findings"][0]["location"]["file"], "<stdin>");
}

#[test]
fn unreadable_paths_are_reported_and_the_rest_is_still_linted() {
    let o = run(&["lint", "--format", "json", "does/not/exist.yaml", BAD]);
    assert_eq!(o.status.code(), Some(2), "I/O errors exit 2");
    assert!(
        stderr(&o).contains("does/not/exist.yaml: no such file or directory"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["findings"][0]["rule"], "stale-claim-ref-uid",
        "the readable file was linted"
    );
}

#[test]
fn non_utf8_input_names_the_position() {
    let dir = Scratch::new("cli-nonutf8");
    let p = dir.join("latin1.yaml");
    std::fs::write(
        &p,
        b"apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: caf\xe9\n",
    )
    .unwrap();
    let o = bin()
        .args(["lint", p.to_str().unwrap(), BAD])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("latin1.yaml:4:12: not UTF-8 text"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("stale-claim-ref-uid"));
}

/// PowerShell's `>` writes UTF-16 with a byte-order mark; kubectl reads it, so does pvlint.
#[test]
fn utf16_input_with_a_bom_is_text() {
    let dir = Scratch::new("cli-utf16");
    let text = std::fs::read_to_string(repo().join(BAD)).unwrap();
    for (name, bom, le) in [
        ("le.yaml", [0xFF, 0xFE], true),
        ("be.yaml", [0xFE, 0xFF], false),
    ] {
        let mut bytes = bom.to_vec();
        for u in text.encode_utf16() {
            bytes.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let o = bin()
        .args([
            "lint",
            "--each-file",
            "--format",
            "json",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "stale-claim-ref-uid")
        .map(|f| f["location"]["file"].as_str().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("le.yaml")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("be.yaml")), "{files:?}");
}

#[test]
fn directories_are_walked_recursively_and_sorted() {
    let dir = Scratch::new("cli-walk");
    std::fs::create_dir_all(dir.join("b/nested")).unwrap();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::copy(repo().join(BAD), dir.join("b/nested/pv.yml")).unwrap();
    std::fs::copy(repo().join(GOOD), dir.join("a.json.yaml")).unwrap();
    std::fs::write(dir.join(".git/ignored.yaml"), "not: [valid").unwrap();
    std::fs::write(dir.join("notes.txt"), "ignored").unwrap();
    // Third-party copies are not the repository's manifests.
    for third in ["vendor/k8s.io/test", "web/node_modules/pkg"] {
        std::fs::create_dir_all(dir.join(third)).unwrap();
        std::fs::copy(repo().join(BAD), dir.join(third).join("pv.yaml")).unwrap();
    }
    let o = bin()
        .args([
            "lint",
            "--each-file",
            "--format",
            "json",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["sources"], 2, "{}", stdout(&o));
    assert!(v["findings"][0]["location"]["file"]
        .as_str()
        .unwrap()
        .ends_with("b/nested/pv.yml"));
    // Named on the command line, a vendored directory is read.
    let o = run(&[
        "lint",
        "--format",
        "json",
        dir.join("vendor").to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["sources"], 1, "{}", stdout(&o));
}

/// A walk does not enter hidden directories; those that hold manifest files are named once,
/// on stderr (stdout stays the report), and never `.git`.
#[test]
fn hidden_directories_with_manifests_are_named() {
    let dir = Scratch::new("cli-hidden");
    for d in [".ci", ".git", "k8s"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::copy(repo().join(GOOD), dir.join("k8s/pvc.yaml")).unwrap();
    std::fs::copy(repo().join(BAD), dir.join(".ci/pv.yaml")).unwrap();
    std::fs::copy(repo().join(BAD), dir.join(".git/pv.yaml")).unwrap();
    let o = run(&["lint", "--format", "json", dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["sources"], 1, "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("skipped ") && err.contains(".ci/ (hidden"),
        "{err}"
    );
    assert!(!err.contains(".git"), "{err}");
    // Named on the command line, it is read.
    let o = run(&[
        "lint",
        "--format",
        "json",
        dir.join(".ci").to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["sources"], 1, "{}", stdout(&o));
    assert!(!stderr(&o).contains("hidden"), "{}", stderr(&o));
}

/// A Chainsaw test's files (kyverno/chainsaw: `Test.spec.steps[].try[].assert.file`) hold
/// partial objects to wait for, which no apply sends: they are not linted, and the summary
/// says so (as ripgrep says what it ignores) and names them in the JSON report.
#[test]
fn test_suite_assertions_are_skipped_and_named() {
    let dir = Scratch::new("cli-chainsaw");
    let t = dir.join("e2e/pvc-bound");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(
        t.join("chainsaw-test.yaml"),
        "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: pvc-bound\nspec:\n  steps:\n  - try:\n    - assert:\n        file: assert-bound.yaml\n",
    )
    .unwrap();
    // A status-only claim: applied, the API server would reject it (no spec.accessModes).
    std::fs::write(
        t.join("assert-bound.yaml"),
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nstatus:\n  phase: Bound\n",
    )
    .unwrap();
    let o = run(&["lint", "--color", "never", dir.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("error["), "{out}");
    assert!(
        out.contains(
            "skipped: 1 test-suite file (not applied: a Chainsaw test's assert or error file):"
        ) && out.trim_end().ends_with("e2e/pvc-bound/assert-bound.yaml"),
        "{out}"
    );
    let o = run(&["lint", "--format", "json", dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["skipped"][0]["why"],
        "chainsawAssertion",
        "{}",
        stdout(&o)
    );
    assert!(v["skipped"][0]["file"]
        .as_str()
        .unwrap()
        .ends_with("assert-bound.yaml"));
    // Without the Test that names it, the same file is an apply, and rejected.
    std::fs::remove_file(t.join("chainsaw-test.yaml")).unwrap();
    let o = run(&["lint", "--color", "never", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(!stdout(&o).contains("skipped:"));
}

/// `pvlint lint` with no path lints the working directory, naming its files as found there
/// (`k8s/claim.yaml`, as ripgrep names them); `--enable`/`--disable` turn rules on and off
/// over the settings file, and an unknown rule id says what was meant.
#[test]
fn lint_without_a_path_lints_the_working_directory() {
    let dir = Scratch::new("cli-no-path");
    std::fs::create_dir_all(dir.path("k8s")).unwrap();
    std::fs::copy(repo().join(BAD), dir.path("k8s/claim.yaml")).unwrap();
    let o = bin()
        .current_dir(&*dir)
        .args(["lint", "--color", "never"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("--> k8s/claim.yaml:"), "{}", stdout(&o));
    let o = bin()
        .current_dir(&*dir)
        .args([
            "lint",
            "--disable",
            "stale-claim-ref-uid,server-populated-fields",
        ])
        .output()
        .unwrap();
    assert!(
        !stdout(&o).contains("stale-claim-ref-uid"),
        "{}",
        stdout(&o)
    );
    std::fs::write(
        dir.path(".pvlint.yaml"),
        "rules:\n  stale-claim-ref-uid: off\n",
    )
    .unwrap();
    let o = bin()
        .current_dir(&*dir)
        .args(["lint", "--enable", "stale-claim-ref-uid"])
        .output()
        .unwrap();
    assert!(
        stdout(&o).contains("error[stale-claim-ref-uid]"),
        "{}",
        stdout(&o)
    );
    let o = run(&["lint", "--disable", "stale-claim-ref", GOOD]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(did you mean stale-claim-ref-uid?)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn empty_or_unknown_usage_exits_2() {
    assert_eq!(run(&[]).status.code(), Some(2), "no subcommand");
    let o = run(&["lint", "--no-such-flag", GOOD]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unexpected argument '--no-such-flag'"));
    assert_eq!(
        run(&["lint", "--format", "yaml", GOOD]).status.code(),
        Some(2)
    );
    // Help and version are not errors.
    for args in [&["--help"][..], &["lint", "--help"], &["--version"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(!stdout(&o).is_empty() && stderr(&o).is_empty(), "{args:?}");
    }
    assert_eq!(
        run(&["lint", "--kube-version", "latest", GOOD])
            .status
            .code(),
        Some(2)
    );
    let o = run(&["explain", "stale-claim-ref"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean stale-claim-ref-uid?"),
        "{}",
        stderr(&o)
    );
    let dir = Scratch::new("cli-empty");
    assert_eq!(
        bin()
            .args(["lint", dir.to_str().unwrap()])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn rules_and_explain() {
    let table = stdout(&run(&["rules"]));
    for r in pvlint_rules() {
        assert!(table.contains(&r), "{r} missing from `pvlint rules`");
    }
    let doc = stdout(&run(&["explain", "rwo-rolling-surge"]));
    for section in [
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## How to fix",
    ] {
        assert!(doc.contains(section), "{section} missing: {doc}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["rules", "--format", "json"]).stdout).unwrap();
    assert_eq!(json.as_array().unwrap().len(), pvlint_rules().len());
}

#[test]
fn docs_rules_md_is_generated_from_the_code() {
    let generated = stdout(&run(&["rules", "--format", "markdown"]));
    let committed = std::fs::read_to_string(repo().join("docs/rules.md")).unwrap_or_default();
    assert!(
        generated == committed,
        "docs/rules.md is stale: run `cargo run -p pvlint -- rules --format markdown > docs/rules.md`"
    );
}

#[test]
fn readme_rule_table_is_generated_from_the_code() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let table = pvlint_core_table();
    assert!(
        readme.contains(&table),
        "README.md's rule table is stale; regenerate it from `pvlint rules --format markdown`"
    );
}

fn pvlint_core_table() -> String {
    let md = stdout(&run(&["rules", "--format", "markdown"]));
    let start = md.find("| rule |").unwrap();
    let end = md[start..].find("\n\n").map(|e| start + e).unwrap();
    md[start..end].replace("](#", "](docs/rules.md#")
}

#[test]
fn main_job_on_the_examples() {
    let o = run(&["lint", "--each-file", "--color", "never", "examples/"]);
    assert_eq!(o.status.code(), Some(1), "the broken examples have errors");
    let out = stdout(&o);
    for rule in [
        "stale-claim-ref-uid",
        "invalid-nfs-server",
        "unknown-field",
        "rwo-rolling-surge",
        "delete-policy-on-imported-volume",
    ] {
        assert!(out.contains(&format!("[{rule}]")), "{rule} missing");
    }
    assert!(
        out.lines().last().unwrap().starts_with("pvlint: "),
        "summary line last"
    );
}

fn pvlint_rules() -> Vec<String> {
    let o = run(&["rules", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn simulate_prints_claims_volumes_and_events() {
    let o = run(&[
        "simulate",
        "examples/seed-002-statefulset-pool/broken-single-pv.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("default/www-web-0  Bound    pv0003"), "{out}");
    assert!(out.contains("default/www-web-1  Pending"), "{out}");
    assert!(
        out.contains("Warning  ProvisioningFailed  storageclass.storage.k8s.io \"nfs\" not found"),
        "{out}"
    );
    let j: serde_json::Value = serde_json::from_slice(
        &run(&[
            "simulate",
            "--format",
            "json",
            "examples/seed-000-dr-migration/broken.yaml",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(j["schema"], "pvlint-simulation/v1");
    assert_eq!(j["claims"][0]["phase"], "Lost");
    // The claim comes first in the file: synced before its volume exists (tests/oracle/31).
    assert_eq!(j["claims"][0]["events"][0]["reason"], "ClaimLost");
    assert_eq!(j["volumes"][0]["phase"], "Released");
    assert_eq!(j["volumes"][0]["storage"]["fate"], "leftToProvisioner");
}

#[test]
fn default_class_flags_change_the_prediction() {
    let f = "examples/seed-002-statefulset-pool/broken-hostpath-too-small.yaml";
    let none = stdout(&run(&["simulate", "--no-default-class", f]));
    assert!(none.contains("Normal  FailedBinding  no persistent volumes available for this claim and no storage class is set"), "{none}");
    let named = stdout(&run(&["simulate", "--default-class", "standard", f]));
    assert!(named.contains("default/www-web-0  Bound"), "{named}");
    assert!(named.contains("standard"), "{named}");
    assert_eq!(
        run(&["simulate", "--default-class", "x", "--no-default-class", f])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn cluster_state_is_applied_onto() {
    let dir = "lint-core/tests/fixtures/claim-will-be-lost";
    let without = run(&["lint", "--format", "json", &format!("{dir}/bad.yaml")]);
    let v: serde_json::Value = serde_json::from_slice(&without.stdout).unwrap();
    assert!(!v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["rule"] == "claim-will-be-lost"));
    let with = run(&[
        "lint",
        "--format",
        "json",
        "--cluster-state",
        &format!("{dir}/bad.cluster.yaml"),
        &format!("{dir}/bad.yaml"),
    ]);
    assert_eq!(with.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule"] == "claim-will-be-lost"),
        "{v}"
    );
    let missing = run(&["lint", "--cluster-state", "nope.yaml", GOOD]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("--cluster-state nope.yaml: no such file or directory"),
        "{}",
        stderr(&missing)
    );
}

fn with_stdin(args: &[&str], input: &str) -> Output {
    stdin::piped(bin().args(args), input)
}

/// A `helm template` that failed leaves an empty pipe: that is an error, not a clean lint,
/// unless the user says an empty input is fine.
#[test]
fn an_empty_input_is_an_error_unless_allowed() {
    for input in ["", "\n", "# nothing here\n---\n...\n"] {
        for cmd in ["lint", "simulate"] {
            let o = with_stdin(&[cmd, "-"], input);
            assert_eq!(o.status.code(), Some(2), "{cmd} {input:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("the input is empty")
                    && stderr(&o).contains("set -o pipefail")
                    && stderr(&o).contains("--allow-empty"),
                "{}",
                stderr(&o)
            );
            let o = with_stdin(&[cmd, "--allow-empty", "-"], input);
            assert_eq!(o.status.code(), Some(0), "{cmd} {input:?}: {}", stderr(&o));
        }
    }
    // One blank file among others is no empty input.
    let scratch = Scratch::new("cli-blank");
    let blank = scratch.path("blank.yaml");
    std::fs::write(&blank, "# to be written\n").unwrap();
    let o = run(&["lint", GOOD, blank.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["lint", blank.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `--complete` on simulate: names the input does not define do not exist, so a claim of an
/// undefined class waits (ProvisioningFailed) instead of being assumed provisioned.
#[test]
fn simulate_takes_complete() {
    let file = "examples/seed-002-statefulset-pool/broken-single-pv.yaml";
    let assumed = stdout(&run(&["simulate", "--format", "json", file]));
    let complete = stdout(&run(&["simulate", "--format", "json", "--complete", file]));
    let a: serde_json::Value = serde_json::from_str(&assumed).unwrap();
    let c: serde_json::Value = serde_json::from_str(&complete).unwrap();
    assert!(
        !a["assumptions"].as_array().unwrap().is_empty(),
        "{assumed}"
    );
    assert!(
        c["assumptions"].as_array().unwrap().is_empty(),
        "{complete}"
    );
    assert!(complete.contains("not found"), "{complete}");
}

/// `migrate --format json` prints the migration, as `--json` always did.
#[test]
fn migrate_takes_format_json() {
    let file = "examples/seed-000-dr-migration/broken.yaml";
    let json = run(&["migrate", "--format", "json", file]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    assert!(stdout(&json).contains("\"schema\": \"pvlint-migrate/v1\""));
    assert_eq!(stdout(&json), stdout(&run(&["migrate", "--json", file])));
    let yaml = run(&["migrate", "--format", "yaml", file]);
    assert!(stdout(&yaml).starts_with("apiVersion:") || stdout(&yaml).contains("\nkind:"));
}

/// Run as a kubectl plugin (a `kubectl-pvlint` link on PATH), the usage names it so.
#[test]
fn as_a_kubectl_plugin_the_usage_says_kubectl_pvlint() {
    let dir = Scratch::new("cli-plugin");
    let link = dir.path("kubectl-pvlint");
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_pvlint"), &link).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(env!("CARGO_BIN_EXE_pvlint"), &link).unwrap();
    let o = Command::new(&link)
        .args(["lint", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("Usage: kubectl pvlint lint"),
        "{}",
        stderr(&o)
    );
    let o = Command::new(&link)
        .args(["lint", GOOD])
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// The README's sample output is the tool's own: each `<!-- sample: pvlint ARGS -->` block holds
/// what `pvlint ARGS` prints in the repository's root, as an indented code block.
/// `PVLINT_UPDATE_README=1 cargo test -p pvlint --test cli readme` writes them.
#[test]
fn readme_samples_are_the_tools_output() {
    for readme in ["README.md", "examples/README.md"] {
        samples_are_the_tools_output(readme);
    }
}

/// Checks (or with `PVLINT_UPDATE_README=1`, writes) the sample blocks of one README.
fn samples_are_the_tools_output(name: &str) {
    let path = repo().join(name);
    let readme = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut rest = readme.as_str();
    let mut samples = 0;
    while let Some(at) = rest.find("<!-- sample: pvlint ") {
        let open_end = rest[at..].find("-->").unwrap() + at + 3;
        let args: Vec<&str> = rest[at + "<!-- sample: pvlint ".len()..open_end - 3]
            .split_whitespace()
            .collect();
        let close = rest[open_end..]
            .find("<!-- end of sample -->")
            .expect("each sample block ends with <!-- end of sample -->")
            + open_end;
        let o = run(&args);
        let block: String = stdout(&o)
            .lines()
            .map(|l| {
                if l.is_empty() {
                    "\n".to_string()
                } else {
                    format!("    {l}\n")
                }
            })
            .collect();
        out.push_str(&rest[..open_end]);
        out.push_str("\n\n");
        out.push_str(&block);
        out.push('\n');
        rest = &rest[close..];
        samples += 1;
    }
    out.push_str(rest);
    assert!(samples > 0, "{name} has no sample block");
    if std::env::var_os("PVLINT_UPDATE_README").is_some() {
        std::fs::write(&path, &out).unwrap();
    } else {
        assert!(
            out == readme,
            "{name}'s sample output is not what pvlint prints: run \
             `PVLINT_UPDATE_README=1 cargo test -p pvlint --test cli readme`"
        );
    }
}

/// The README and the packages' READMEs link only inside the repository: an address outside
/// it (a project site, a registry page) is named, not linked.
#[test]
fn readmes_link_only_inside_the_repository() {
    for file in [
        "README.md",
        "docs/crates/pvlint.md",
        "docs/crates/pvlint-core.md",
        "wasm/npm/README.md",
    ] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("](http") && !line.contains("](//"),
                "{file}:{}: a link outside the repository: {line}",
                n + 1
            );
        }
    }
}

/// A run longer than the delay shows one progress line on a terminal's stderr, rewritten in
/// place and cleared before the report; never in a pipe or a file (CI logs, JSON consumers).
/// `script` (util-linux) gives the run a terminal; the delay is set to 0 so that a small input
/// shows it (the real delay is two seconds).
#[test]
fn the_progress_line_shows_on_a_terminal_and_never_in_a_pipe() {
    let piped = bin()
        .args(["lint", "--format", "json", "examples/seed-000-dr-migration"])
        .env("PVLINT_PROGRESS_AFTER_MS", "0")
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&piped.stderr).contains("pvlint: "),
        "no progress line in a pipe: {:?}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert!(
        stdout(&piped).starts_with('{'),
        "the JSON report is untouched"
    );

    if Command::new("script").arg("--version").output().is_err() {
        println!(
            "################################################################################"
        );
        println!("## SKIPPED: the progress line on a terminal: `script` (util-linux) is not");
        println!("## installed here. Install it (apt-get install bsdutils) and run");
        println!("##   cargo test -p pvlint --test cli the_progress_line");
        println!(
            "################################################################################"
        );
        return;
    }
    let cmd = format!(
        "{} lint --format json examples/seed-000-dr-migration > /dev/null",
        env!("CARGO_BIN_EXE_pvlint")
    );
    let on_tty = |env: &[(&str, &str)]| {
        let mut c = Command::new("script");
        c.args(["-qec", &cmd, "/dev/null"])
            .current_dir(repo())
            .env("PVLINT_PROGRESS_AFTER_MS", "0")
            .env_remove("CI");
        for (k, v) in env {
            c.env(k, v);
        }
        String::from_utf8_lossy(&c.output().unwrap().stdout).to_string()
    };
    let shown = on_tty(&[("TERM", "xterm")]);
    assert!(
        shown.contains("\r\x1b[2Kpvlint: reading the input (0 s)")
            || shown.contains("\r\x1b[2Kpvlint: linting 3 files (0 s)"),
        "the line says what pvlint does: {shown:?}"
    );
    assert!(
        shown.ends_with("\r\x1b[2K"),
        "the line is cleared at the end: {shown:?}"
    );
    assert!(
        !on_tty(&[("TERM", "xterm"), ("CI", "true")]).contains("pvlint: "),
        "never in CI"
    );
    assert!(
        !on_tty(&[("TERM", "dumb")]).contains("pvlint: "),
        "never on a dumb terminal"
    );
}
