//! Everyday use from the command line: `pvlint migrate`, what-if timelines, SARIF (validated
//! against the official SARIF 2.1.0 schema) and GitHub annotations, `.pvlint.yaml`, and
//! `pvlint.io/ignore` suppressions.

#[path = "common/stdin.rs"]
mod stdin;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bin_in(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pvlint"));
    c.current_dir(dir);
    c
}

fn run(args: &[&str]) -> Output {
    bin_in(&repo()).args(args).output().unwrap()
}

fn with_stdin(args: &[&str], input: &str) -> Output {
    stdin::piped(bin_in(&repo()).args(args), input)
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh directory under target/ for one test.
fn scratch(name: &str) -> PathBuf {
    let d = repo().join("target/test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SEED_000: &str = "examples/seed-000-dr-migration/broken.yaml";

// ---- migrate ------------------------------------------------------------------------

#[test]
fn migrate_writes_yaml_and_says_what_changed() {
    let o = run(&["migrate", SEED_000]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let yaml = out(&o);
    assert!(yaml.contains("persistentVolumeReclaimPolicy: Retain"));
    assert!(!yaml.contains("uid:"));
    assert_eq!(yaml.matches("\n---\n").count(), 1, "{yaml}");
    let summary = err(&o);
    assert!(
        summary.contains("set spec.persistentVolumeReclaimPolicy: Delete → Retain"),
        "{summary}"
    );
    assert!(summary.contains("migrated 2 objects: 2 changed, 0 warnings"));
    // Idempotent through the CLI: the output, migrated again, is the same.
    let again = with_stdin(&["migrate", "-"], &yaml);
    assert_eq!(out(&again), yaml);
    assert!(err(&again).contains("0 changed"), "{}", err(&again));
    // The output lints without stale-identity findings and simulates Bound.
    let lint = with_stdin(&["lint", "-", "--format", "json"], &yaml);
    let report: Value = serde_json::from_str(&out(&lint)).unwrap();
    assert!(report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["family"] != "stale-identity"));
    let sim = with_stdin(&["simulate", "-"], &yaml);
    assert!(
        out(&sim)
            .contains("it and volume pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6 name each other"),
        "{}",
        out(&sim)
    );
}

#[test]
fn migrate_out_dir_explain_json_and_mappings() {
    let dir = scratch("migrate-out");
    let o = run(&[
        "migrate",
        "--out",
        dir.to_str().unwrap(),
        "--map-namespace",
        "test=staging",
        "--map-class",
        "cfs-hp=nas",
        SEED_000,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "", "with --out nothing goes to stdout");
    let claim =
        std::fs::read_to_string(dir.join(
            "persistentvolumeclaim-staging-public-devops-teststatefulset-nginx-online-pvc.yaml",
        ))
        .unwrap();
    assert!(claim.contains("namespace: staging") && claim.contains("storageClassName: nas"));
    let pv = std::fs::read_to_string(
        dir.join("persistentvolume-pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6.yaml"),
    )
    .unwrap();
    assert!(pv.contains("    namespace: staging\n"), "{pv}");

    let o = run(&["migrate", "--explain", SEED_000]);
    let text = out(&o);
    assert!(
        text.contains(
            "  - removed spec.claimRef.uid: the claim gets a new UID in the target cluster"
        ),
        "{text}"
    );
    assert!(
        !text.contains("apiVersion:"),
        "--explain prints the account, not the YAML"
    );

    let o = run(&["migrate", "--json", SEED_000]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["schema"], "pvlint-migrate/v1");
    assert_eq!(v["objects"][1]["changes"][2]["path"], "spec.claimRef.uid");

    let o = run(&["migrate", "--map-class", "nothing", SEED_000]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--map-class \"nothing\": write it as OLD=NEW"),
        "{}",
        err(&o)
    );
}

#[test]
fn migrate_refuses_unreadable_documents() {
    let o = with_stdin(
        &["migrate", "-"],
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a}\n---\nkind: [\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(out(&o), "");
    assert!(err(&o).contains("<stdin>:5:"), "{}", err(&o));
    assert!(err(&o).contains("nothing written"), "{}", err(&o));
}

// ---- timelines ----------------------------------------------------------------------

const T: &str = "examples/seed-001-phase-transitions/timeline";

/// Seed 001's seven steps, as examples/README.md runs them.
#[test]
fn seed_001_timeline() {
    let pv3 = format!("{T}/pv3.yaml");
    let claim = format!("apply {T}/myclaim.yaml");
    let again = format!("apply {T}/pv3.yaml");
    let o = run(&[
        "simulate",
        "--no-default-class",
        &pv3,
        "--then",
        &claim,
        "--then",
        "delete pv/pv3",
        "--then",
        "remove-finalizers pv/pv3",
        "--then",
        &again,
        "--then",
        "delete pvc/test/myclaim",
        "--then",
        "remove-claimref pv/pv3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let steps: Vec<&str> = text.split("=== ").skip(1).collect();
    assert_eq!(steps.len(), 7, "{text}");
    let row = |i: usize, name: &str| {
        steps[i]
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in step {i}: {}", steps[i]))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(row(0, "pv3 ").starts_with("pv3 Available"));
    assert!(row(1, "test/myclaim").starts_with("test/myclaim Bound pv3"));
    assert!(row(2, "pv3 ").starts_with("pv3 Bound (Terminating)"));
    assert!(row(3, "test/myclaim").starts_with("test/myclaim Lost"));
    assert!(steps[3].contains("ClaimLost  Bound claim has lost its PersistentVolume"));
    assert!(row(4, "test/myclaim").starts_with("test/myclaim Bound pv3"));
    assert!(row(5, "pv3 ").starts_with("pv3 Failed test/myclaim"));
    assert!(steps[5].contains("VolumeFailedRecycle"));
    assert!(row(6, "pv3 ").starts_with("pv3 Available -"));
    // Events are listed in the step that emits them, not again.
    assert_eq!(text.matches("ClaimLost").count(), 1, "{text}");
    assert!(steps[4].contains("EVENTS (new in this step)\n(none)"));
}

/// Seed 004: a CSI volume deleted before its claim, with and without the finalizer, on
/// Kubernetes 1.23 (the report's release).
#[test]
fn seed_004_timelines() {
    let fate = |file: &str| {
        let o = run(&[
            "simulate",
            "--kube-version",
            "1.23",
            file,
            "--then",
            "delete pv/example-vanilla-block-pv",
            "--then",
            "delete pvc/default/example-vanilla-block-pvc",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let text = out(&o);
        let last = text.split("=== ").last().unwrap().to_string();
        assert!(text.contains("Bound (Terminating)"), "{text}");
        last
    };
    let broken = fate("examples/seed-004-pv-deleted-before-pvc/broken.yaml");
    assert!(
        broken.contains("LEAKED (PV gone, storage stays)"),
        "{broken}"
    );
    let fixed = fate("examples/seed-004-pv-deleted-before-pvc/fixed.yaml");
    assert!(
        fixed.contains("DELETED by csi.vsphere.vmware.com"),
        "{fixed}"
    );
}

#[test]
fn bad_operations_are_usage_errors_naming_the_forms() {
    for bad in [
        "drop pv/x",
        "delete deployment/x",
        "remove-claimref pvc/a/b",
        "delete",
    ] {
        let o = run(&["simulate", SEED_000, "--then", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let e = err(&o);
        assert!(e.contains(&format!("\"{bad}\" is not an operation")), "{e}");
        for form in [
            "'delete pv/NAME'",
            "'delete pvc/NAMESPACE/NAME'",
            "'delete pod/NAMESPACE/NAME'",
            "'remove-claimref pv/NAME'",
            "'remove-finalizers pv/NAME'",
            "'apply FILE'",
        ] {
            assert!(e.contains(form), "{e}");
        }
        assert_eq!(out(&o), "");
    }
    let o = run(&["simulate", SEED_000, "--then", "delete pv/nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("there is no PersistentVolume nope"),
        "{}",
        err(&o)
    );
}

// ---- SARIF and GitHub -----------------------------------------------------------------

/// The official SARIF 2.1.0 schema, as the serde-sarif crate ships it (src/schema.json), with
/// the `language` pattern fixed: upstream's `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$` has a
/// stray `]` that Rust's regex engine rejects.
fn sarif_schema() -> Value {
    // The registry's unpacked sources ($CARGO_HOME/registry/src/*/serde-sarif-0.8.*), where
    // building pvlint-core put them; else ask `cargo metadata`.
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap();
    let from_registry = std::fs::read_dir(home.join("registry/src"))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|index| {
            std::fs::read_dir(index.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("serde-sarif-0.8."))
        })
        .map(|p| p.join("src/schema.json"))
        .find(|p| p.is_file());
    let path = from_registry.unwrap_or_else(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let meta = Command::new(cargo)
            .args(["metadata", "--format-version", "1"])
            .current_dir(repo())
            .output()
            .unwrap();
        assert!(meta.status.success(), "{}", err(&meta));
        let meta: Value = serde_json::from_slice(&meta.stdout).unwrap();
        let manifest = meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "serde-sarif")
            .and_then(|p| p["manifest_path"].as_str())
            .expect("serde-sarif is a dependency")
            .to_string();
        Path::new(&manifest)
            .parent()
            .unwrap()
            .join("src/schema.json")
    });
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    fn fix(v: &mut Value, fixed: &mut usize) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "pattern" && x == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" {
                        *x = Value::String("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into());
                        *fixed += 1;
                    } else {
                        fix(x, fixed);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| fix(x, fixed)),
            _ => {}
        }
    }
    let mut fixed = 0;
    fix(&mut schema, &mut fixed);
    assert!(fixed > 0, "the language pattern was not found to fix");
    schema
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&sarif_schema())
        .expect("the fixed schema compiles");
    let docs = std::fs::read_to_string(repo().join("docs/rules.md")).unwrap();
    let mut results = 0;
    for path in [
        "examples/",
        "lint-core/tests/fixtures/invalid-suppression/good.yaml",
        "lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml",
    ] {
        let o = run(&["lint", "--format", "sarif", path]);
        let log: Value = serde_json::from_str(&out(&o)).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{path}: {errors:#?}");
        let run = &log["runs"][0];
        // Every rule: help text and a help URI whose anchor exists in docs/rules.md.
        for r in run["tool"]["driver"]["rules"].as_array().unwrap() {
            let id = r["id"].as_str().unwrap();
            assert!(r["help"]["text"].as_str().unwrap().len() > 40, "{id}");
            let uri = r["helpUri"].as_str().unwrap();
            assert!(uri.ends_with(&format!("docs/rules.md#{id}")), "{uri}");
            assert!(
                docs.contains(&format!("## `{id}`")) || docs.contains(&format!("## {id}")),
                "docs/rules.md has no section for {id}"
            );
        }
        for res in run["results"].as_array().unwrap() {
            results += 1;
            let region = &res["locations"][0]["physicalLocation"]["region"];
            assert!(region["startLine"].as_u64().unwrap() >= 1, "{res}");
            assert!(region["startColumn"].as_u64().unwrap() >= 1, "{res}");
            assert_eq!(
                run["tool"]["driver"]["rules"][res["ruleIndex"].as_u64().unwrap() as usize]["id"],
                res["ruleId"]
            );
            assert_eq!(
                res["partialFingerprints"]["pvlintFinding/v1"]
                    .as_str()
                    .unwrap()
                    .len(),
                16
            );
        }
        if path.contains("invalid-suppression/good") {
            let suppressed: Vec<&Value> = run["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r.get("suppressions").is_some())
                .collect();
            assert_eq!(suppressed.len(), 1);
            assert_eq!(suppressed[0]["ruleId"], "rwo-rolling-surge");
            assert_eq!(suppressed[0]["suppressions"][0]["kind"], "inSource");
        }
    }
    assert!(results > 10, "only {results} results");
    // Fingerprints survive the finding moving down the file.
    let text = std::fs::read_to_string(
        repo().join("lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml"),
    )
    .unwrap();
    let print = |t: &str| {
        let o = with_stdin(&["lint", "-", "--format", "sarif"], t);
        let log: Value = serde_json::from_str(&out(&o)).unwrap();
        log["runs"][0]["results"][0]["partialFingerprints"].clone()
    };
    assert_eq!(print(&text), print(&format!("# moved\n\n{text}")));
}

#[test]
fn github_annotations_are_escaped() {
    let dir = scratch("github");
    let file = dir.join("a,b:c.yaml");
    std::fs::copy(
        repo().join("lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml"),
        &file,
    )
    .unwrap();
    let o = bin_in(&dir)
        .args(["lint", "--format", "github", "a,b:c.yaml"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let line = text
        .lines()
        .find(|l| l.contains("title=stale-claim-ref-uid"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.starts_with("::error file=a%2Cb%3Ac.yaml,line="),
        "{line}"
    );
    assert!(line.contains(",col="), "{line}");
    let message = line.split_once("::").unwrap().1.split_once("::").unwrap().1;
    assert!(
        !message.contains('\n') && message.contains("%0A"),
        "{message}"
    );
    assert!(text.lines().all(|l| l.starts_with("::")), "{text}");
}

// ---- .pvlint.yaml ---------------------------------------------------------------------

#[test]
fn config_file_found_upward_and_flags_win() {
    let dir = scratch("config");
    let sub = dir.join("deploy/prod");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(
        repo().join("examples/seed-004-pv-deleted-before-pvc/broken.yaml"),
        sub.join("pv.yaml"),
    )
    .unwrap();
    let lint = |args: &[&str]| {
        let o = bin_in(&sub)
            .args(["lint", "--format", "json", "pv.yaml"])
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            serde_json::from_str::<Value>(&out(&o)).unwrap_or(Value::Null),
            err(&o),
        )
    };
    let severity = |v: &Value| {
        v["findings"][0]["severity"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    // No config: current release, the finding is info.
    let (_, v, _) = lint(&[]);
    assert_eq!(severity(&v), "info");
    // kubeVersion from the config two directories up: a warning.
    std::fs::write(dir.join(".pvlint.yaml"), "kubeVersion: \"1.23\"\n").unwrap();
    let (code, v, _) = lint(&[]);
    assert_eq!(severity(&v), "warning");
    assert_eq!(code, Some(0));
    assert_eq!(v["options"]["kubeVersion"], "1.23");
    // A flag wins over the file.
    let (_, v, _) = lint(&["--kube-version", "1.34"]);
    assert_eq!(severity(&v), "info");
    // Severity and failOn from the file.
    std::fs::write(
        dir.join(".pvlint.yaml"),
        "kubeVersion: \"1.23\"\nfailOn: warning\nrules:\n  delete-policy-without-finalizer: error\n",
    )
    .unwrap();
    let (code, v, _) = lint(&[]);
    assert_eq!(severity(&v), "error");
    assert_eq!(code, Some(1));
    // Off.
    std::fs::write(
        dir.join(".pvlint.yaml"),
        "kubeVersion: \"1.23\"\nrules:\n  delete-policy-without-finalizer: off\n",
    )
    .unwrap();
    let (_, v, _) = lint(&[]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v}");
    // --config names another file; unknown keys and rules are errors with a suggestion.
    let other = dir.join("other.yaml");
    std::fs::write(&other, "kubeVersio: 1.23\n").unwrap();
    let (code, _, e) = lint(&["--config", other.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        e.contains("unknown setting \"kubeVersio\" (did you mean kubeVersion?)"),
        "{e}"
    );
    std::fs::write(&other, "rules:\n  delete-policy-without-finalize: off\n").unwrap();
    let (code, _, e) = lint(&["--config", other.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        e.contains("did you mean delete-policy-without-finalizer?"),
        "{e}"
    );
    // clusterState relative to the config file.
    std::fs::write(sub.join("state.yaml"), "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: example-vanilla-block-sc}\nprovisioner: csi.vsphere.vmware.com\n").unwrap();
    std::fs::write(
        &other,
        "clusterState: deploy/prod/state.yaml\ncomplete: true\n",
    )
    .unwrap();
    let (code, v, e) = lint(&["--config", other.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(v["options"]["complete"], true);
}

// ---- suppressions -----------------------------------------------------------------------

#[test]
fn suppressions_end_to_end() {
    // Both objects of seed 000 carry annotations already.
    let text = std::fs::read_to_string(repo().join(SEED_000)).unwrap();
    let before: Value =
        serde_json::from_str(&out(&with_stdin(&["lint", "-", "--format", "json"], &text))).unwrap();
    let n = before["findings"].as_array().unwrap().len();
    assert!(n > 0);
    // Suppress everything on every object.
    let all = text.replace(
        "metadata:\n  annotations:\n",
        "metadata:\n  annotations:\n    pvlint.io/ignore: all\n",
    );
    assert_eq!(all.matches("pvlint.io/ignore").count(), 2);
    let o = with_stdin(&["lint", "-", "--format", "json"], &all);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["summary"]["suppressed"].as_u64().unwrap() as usize, n);
    assert_eq!(v["suppressed"].as_array().unwrap().len(), n);
    let human = with_stdin(&["lint", "-", "--color", "never"], &all);
    assert!(out(&human).contains(&format!("({n} suppressed by pvlint.io/ignore)")));
    // A misspelt rule suppresses nothing and is itself reported.
    let typo = text.replace(
        "metadata:\n  annotations:\n",
        "metadata:\n  annotations:\n    pvlint.io/ignore: stale-claim-ref-ui\n",
    );
    let v: Value =
        serde_json::from_str(&out(&with_stdin(&["lint", "-", "--format", "json"], &typo))).unwrap();
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"invalid-suppression"), "{rules:?}");
    assert!(rules.contains(&"stale-claim-ref-uid"), "{rules:?}");
}

// ---- pre-commit ---------------------------------------------------------------------------

/// The hook's entry, run as pre-commit runs it: the changed files appended as arguments.
#[test]
fn pre_commit_hook_takes_file_names() {
    let hooks = pvlint_core::yaml_to_json(
        &std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap(),
    )
    .unwrap();
    let hook = &hooks[0];
    assert_eq!(hook["id"], "pvlint");
    let entry: Vec<&str> = hook["entry"].as_str().unwrap().split_whitespace().collect();
    assert_eq!(entry[0], "pvlint");
    let files = [
        "examples/seed-000-dr-migration/broken.yaml",
        "examples/seed-003-rwo-rolling-update/fixed-recreate.yaml",
    ];
    let o = bin_in(&repo())
        .args(&entry[1..])
        .args(files)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).contains("examples/seed-000-dr-migration/broken.yaml:"));
    let o = bin_in(&repo())
        .args(&entry[1..])
        .arg("examples/seed-003-rwo-rolling-update/fixed-recreate.yaml")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // Both hooks take the same files: manifests, and not a chart's templates, Chart.yaml or
    // values, CI or tool configuration.
    let re = hook["files"].as_str().unwrap();
    assert_eq!(re, r"\.(ya?ml|json)$");
    assert_eq!(hooks[1]["files"], hook["files"]);
    assert_eq!(hooks[1]["exclude"], hook["exclude"]);
    let exclude = hook["exclude"].as_str().unwrap();
    for name in [
        "templates/",
        "Chart\\.ya?ml$",
        "values[^/]*",
        "\\.pvlint\\.ya?ml$",
        "\\.github/",
    ] {
        assert!(exclude.contains(name), "{name} in {exclude}");
    }
}

// ---- other CI formats ---------------------------------------------------------------

/// A rendered file committed without its chart: `# Source:` names a template that is not in
/// the repository. SARIF and GitHub annotations land on the rendered file, at the finding's
/// line (a file that exists), and name the template in the message.
#[test]
fn rendered_output_without_its_chart_is_annotated_where_it_is() {
    let dir = scratch("rendered-no-chart");
    let bad = std::fs::read_to_string(
        repo().join("lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml"),
    )
    .unwrap();
    let rendered = format!("---\n# Source: mychart/templates/volume.yaml\n{bad}");
    std::fs::create_dir_all(dir.join("rendered")).unwrap();
    std::fs::write(dir.join("rendered/all.yaml"), &rendered).unwrap();
    let o = bin_in(&dir)
        .args(["lint", "--format", "sarif", "rendered/all.yaml"])
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    let result = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "stale-claim-ref-uid")
        .unwrap()
        .clone();
    let loc = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"], "rendered/all.yaml",
        "{result:#}"
    );
    assert!(
        loc["region"]["startLine"].as_u64().unwrap() > 2,
        "{result:#}"
    );
    let text = result["message"]["text"].as_str().unwrap();
    assert!(
        text.contains(
            "Rendered by helm from mychart/templates/volume.yaml, which is not in the repository"
        ),
        "{text}"
    );
    let o = bin_in(&dir)
        .args(["lint", "--format", "github", "rendered/all.yaml"])
        .output()
        .unwrap();
    let line = out(&o)
        .lines()
        .find(|l| l.contains("title=stale-claim-ref-uid"))
        .unwrap()
        .to_string();
    assert!(
        line.starts_with("::error file=rendered/all.yaml,line="),
        "{line}"
    );
    assert!(
        line.contains("mychart/templates/volume.yaml, which is not in the repository"),
        "{line}"
    );
    // With the chart in the repository, the template itself is annotated.
    std::fs::create_dir_all(dir.join("mychart/templates")).unwrap();
    std::fs::write(
        dir.join("mychart/Chart.yaml"),
        "apiVersion: v2\nname: mychart\nversion: 0.1.0\n",
    )
    .unwrap();
    std::fs::write(dir.join("mychart/templates/volume.yaml"), &bad).unwrap();
    let o = bin_in(&dir)
        .args(["lint", "--format", "github", "rendered/all.yaml"])
        .output()
        .unwrap();
    assert!(
        out(&o).contains("::error file=mychart/templates/volume.yaml,line="),
        "{}",
        out(&o)
    );
}

/// `--format junit`: well-formed JUnit XML, a suite per file linted (a passing case for a file
/// without findings), a failed case per finding with its severity as the failure's type.
#[test]
fn junit_reports_every_file_and_finding() {
    let o = run(&[
        "lint",
        "--format",
        "junit",
        "--each-file",
        "examples/seed-003-rwo-rolling-update/",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let xml = out(&o);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 6, "one suite per file: {xml}");
    let failures: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(
        root.attribute("failures"),
        Some(failures.len().to_string().as_str())
    );
    let surge = failures
        .iter()
        .find(|f| {
            f.attribute("message")
                .is_some_and(|m| m.starts_with("error[rwo-rolling-surge]"))
        })
        .unwrap_or_else(|| panic!("{xml}"));
    assert_eq!(surge.attribute("type"), Some("error"));
    assert!(
        surge.text().unwrap().contains("What the cluster does:"),
        "{xml}"
    );
    let fixed = suites
        .iter()
        .find(|s| {
            s.attribute("name") == Some("examples/seed-003-rwo-rolling-update/fixed-recreate.yaml")
        })
        .unwrap();
    assert!(fixed
        .descendants()
        .all(|n| !n.has_tag_name("failure") || n.attribute("type") == Some("info")));
}

/// `--format gitlab`: GitLab Code Quality issues, each with the fields GitLab reads, a
/// fingerprint unique in the report, and GitLab's severities.
#[test]
fn gitlab_code_quality_issues_have_what_gitlab_reads() {
    let o = run(&["lint", "--format", "gitlab", "--each-file", "examples/"]);
    let issues: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(issues.len() > 10);
    let mut fingerprints = std::collections::BTreeSet::new();
    for i in &issues {
        assert!(
            i["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{i}"
        );
        assert!(i["check_name"].as_str().is_some(), "{i}");
        assert!(
            fingerprints.insert(i["fingerprint"].as_str().unwrap().to_string()),
            "{i}"
        );
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&i["severity"].as_str().unwrap()),
            "{i}"
        );
        assert!(
            i["location"]["path"]
                .as_str()
                .is_some_and(|p| repo().join(p).is_file()),
            "{i}"
        );
        assert!(
            i["location"]["lines"]["begin"]
                .as_u64()
                .is_some_and(|l| l > 0),
            "{i}"
        );
    }
    assert!(issues
        .iter()
        .any(|i| i["check_name"] == "rwo-rolling-surge" && i["severity"] == "major"));
}

/// The human output names the cluster profile once, above the findings, and orders each file's
/// findings by severity; `.pvlint.yaml`'s `cluster:` section changes the profile and says so.
#[test]
fn the_profile_is_said_once_and_the_settings_file_changes_it() {
    let o = run(&["lint", "--color", "never", SEED_000]);
    let text = out(&o);
    assert!(
        text.starts_with("cluster: several nodes, a default StorageClass of unknown name, CSI drivers without a known CSIDriver attach, Kubernetes 1.34 (the default profile)\n"),
        "{text}"
    );
    assert_eq!(text.matches("cluster: ").count(), 1);
    let severities: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once('[').map(|(s, _)| s))
        .filter(|s| ["error", "warning", "info"].contains(s))
        .collect();
    let mut sorted = severities.clone();
    sorted.sort_by_key(|s| ["error", "warning", "info"].iter().position(|x| x == s));
    assert_eq!(severities, sorted, "{text}");
    let dir = scratch("profile-config");
    std::fs::copy(
        repo().join("examples/seed-003-rwo-rolling-update/broken-defaults.yaml"),
        dir.join("app.yaml"),
    )
    .unwrap();
    let lint = || {
        bin_in(&dir)
            .args(["lint", "--color", "never", "app.yaml"])
            .output()
            .unwrap()
    };
    let o = lint();
    assert_eq!(o.status.code(), Some(1), "the default profile: {}", out(&o));
    std::fs::write(dir.join(".pvlint.yaml"), "cluster:\n  nodes: one\n").unwrap();
    let o = lint();
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).starts_with("cluster: one node ("), "{}", out(&o));
    assert!(!out(&o).contains("rwo-rolling-surge"), "{}", out(&o));
    // A flag wins over the file.
    let o = bin_in(&dir)
        .args(["lint", "--nodes", "several", "app.yaml"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    // The same key in two places is an error.
    std::fs::write(
        dir.join(".pvlint.yaml"),
        "kubeVersion: \"1.31\"\ncluster:\n  kubeVersion: \"1.30\"\n",
    )
    .unwrap();
    let o = lint();
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("kubeVersion is set twice"), "{}", err(&o));
    std::fs::write(dir.join(".pvlint.yaml"), "cluster:\n  nodes: two\n").unwrap();
    let o = lint();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("\"two\" is not a node layout"),
        "{}",
        err(&o)
    );
}

/// `--format concise`: a line per finding, `FILE:LINE:COL: SEVERITY[RULE] HEADLINE`.
#[test]
fn concise_is_a_line_per_finding() {
    let o = run(&["lint", "--format", "concise", SEED_000]);
    let text = out(&o);
    assert!(
        text.contains(&format!(
            "{SEED_000}:46:10: error[stale-claim-ref-uid] PersistentVolume "
        )),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with(SEED_000)).count(),
        5,
        "{text}"
    );
}
