//! The Kubewarden policy under the waPC host: every fixture of wasm/kubewarden/tests/fixtures
//! through `pvlint admission-test` (the real .wasm, the real host), the same decisions as
//! `pvlint lint --cluster-state` on the same objects, a kwctl replay session, grants, limits.

#[path = "common/policy.rs"]
mod policy;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use pvlint::admission::{self, Answers, Grants, Limits, Policy};
use serde_json::{json, Value};

fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(policy::repo().join("wasm/kubewarden/tests/fixtures"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
    v.sort();
    v
}

fn doc(p: &Path) -> Value {
    pvlint_core::api::documents_json(&std::fs::read_to_string(p).unwrap())
        .unwrap()
        .remove(0)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn admission_test(dir: &Path, answers: Option<&str>, extra: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pvlint"));
    cmd.arg("admission-test")
        .arg("--policy")
        .arg(policy::module_file())
        .arg("--request")
        .arg(dir.join("request.json"))
        .args(extra);
    if let Some(a) = answers.map(|a| dir.join(a)).filter(|p| p.exists()) {
        cmd.arg("--cluster-state").arg(a);
    }
    if dir.join("settings.yaml").exists() {
        cmd.arg("--settings").arg(dir.join("settings.yaml"));
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

fn rules(resp: &Value, key: &str) -> BTreeSet<String> {
    resp["auditAnnotations"][key]
        .as_str()
        .map(|s| s.split(',').map(String::from).collect())
        .unwrap_or_default()
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks one run against the fixture's expect.json.
fn check(dir: &Path, run: &Run) {
    let name = dir.file_name().unwrap().to_string_lossy();
    let expect = doc(&dir.join("expect.json"));
    assert_eq!(
        run.code,
        expect["exit"].as_i64().unwrap() as i32,
        "{name}: exit status\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    for s in strs(&expect["stderr"]) {
        assert!(
            run.stderr.contains(&s),
            "{name}: stderr lacks {s:?}:\n{}",
            run.stderr
        );
    }
    if run.code == 2 {
        assert!(run.stdout.is_empty(), "{name}: {}", run.stdout);
        return;
    }
    let review: Value = serde_json::from_str(&run.stdout).unwrap();
    let resp = &review["response"];
    assert_eq!(review["kind"], "AdmissionReview");
    let reqdoc = doc(&dir.join("request.json"));
    let uid = reqdoc
        .pointer("/request/uid")
        .or_else(|| reqdoc.get("uid"))
        .cloned();
    assert_eq!(Some(resp["uid"].clone()), uid, "{name}");
    assert_eq!(resp["allowed"], run.code == 0, "{name}");
    if let Some(r) = expect.get("rejected") {
        let want: BTreeSet<String> = strs(r).into_iter().collect();
        assert_eq!(
            rules(resp, "pvlint-rejected"),
            want,
            "{name}: rejected rules\n{}",
            run.stdout
        );
    }
    if let Some(w) = expect.get("warned") {
        let want: BTreeSet<String> = strs(w).into_iter().collect();
        assert_eq!(
            rules(resp, "pvlint-warned"),
            want,
            "{name}: warned rules\n{}",
            run.stdout
        );
    }
    if let Some(m) = expect["message"].as_str() {
        let got = resp["status"]["message"].as_str().unwrap_or("");
        assert!(got.contains(m), "{name}: message {got:?} lacks {m:?}");
    }
    if let Some(w) = expect["warning"].as_str() {
        let got = strs(&resp["warnings"]);
        assert!(
            got.iter().any(|g| g.contains(w)),
            "{name}: warnings {got:?} lack {w:?}"
        );
    }
    if expect["warned"].as_array().is_some_and(Vec::is_empty) && expect.get("warning").is_none() {
        assert!(
            resp.get("warnings").is_none(),
            "{name}: unexpected warnings {}",
            resp["warnings"]
        );
    }
}

#[test]
fn every_fixture_gets_its_decision_under_the_wapc_host() {
    let all = fixtures();
    assert!(all.len() >= 20, "fixtures went missing");
    for dir in &all {
        let run = admission_test(dir, Some("cluster.yaml"), &["--format", "json"]);
        check(dir, &run);
    }
}

/// Every kind the policy validates (metadata.yml's rules) is judged in at least one fixture,
/// and every seed scenario has its request.
#[test]
fn every_validated_kind_and_seed_has_a_fixture() {
    let mut kinds = BTreeSet::new();
    let mut names = BTreeSet::new();
    for dir in fixtures() {
        names.insert(dir.file_name().unwrap().to_string_lossy().into_owned());
        let req = doc(&dir.join("request.json"));
        let req = req.get("request").cloned().unwrap_or(req);
        if let Some(k) = req.pointer("/kind/kind").and_then(Value::as_str) {
            kinds.insert(k.to_string());
        }
    }
    for kind in [
        "PersistentVolume",
        "PersistentVolumeClaim",
        "StorageClass",
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "ReplicaSet",
        "Job",
        "CronJob",
        "Pod",
    ] {
        assert!(
            kinds.contains(kind),
            "no fixture judges a {kind}: {kinds:?}"
        );
    }
    for seed in ["seed-000", "seed-001", "seed-002", "seed-003", "seed-004"] {
        assert!(
            names.iter().any(|n| n.starts_with(seed)),
            "no fixture for {seed}"
        );
    }
}

#[test]
fn a_kwctl_replay_session_gives_the_same_decision() {
    let dir = policy::repo().join("wasm/kubewarden/tests/fixtures/seed-003-deployment-rwo-claim");
    let replayed = admission_test(&dir, Some("session.yml"), &["--format", "json"]);
    check(&dir, &replayed);
    let from_state = admission_test(&dir, Some("cluster.yaml"), &["--format", "json"]);
    assert_eq!(replayed.stdout, from_state.stdout);
}

#[test]
fn human_output_and_exit_codes() {
    let dir = policy::repo().join("wasm/kubewarden/tests/fixtures/seed-000-stale-claim-ref-uid");
    let run = admission_test(&dir, Some("cluster.yaml"), &[]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with("DENIED\nmessage:\n  error[stale-claim-ref-uid]: PersistentVolume"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("audit annotations:\n  pvlint-rejected: "),
        "{}",
        run.stdout
    );
    let clean = policy::repo().join("wasm/kubewarden/tests/fixtures/clean-statefulset");
    let run = admission_test(&clean, Some("cluster.yaml"), &[]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "ALLOWED\n"));
    // Errors: exit 2 with a message that names the file.
    let run = admission_test(
        &dir,
        Some("nope.yaml"),
        &["--settings", "/nonexistent/settings.yaml"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--settings /nonexistent/settings.yaml"),
        "{}",
        run.stderr
    );
}

/// The object as the user applied it: what the API server added before admission removed.
fn applied_object(request: &Value) -> Value {
    let mut o = request["object"].clone();
    // A Job's pod-template labels and selector that generateSelector filled with the new uid
    // (the user wrote neither).
    let uid = o["metadata"]["uid"].clone();
    if o["kind"] == "Job" && !uid.is_null() {
        for path in [
            "/spec/template/metadata/labels",
            "/spec/selector/matchLabels",
        ] {
            if let Some(m) = o.pointer_mut(path).and_then(Value::as_object_mut) {
                m.retain(|k, v| !(k.ends_with("controller-uid") && *v == uid));
            }
        }
        if o["spec"]["selector"]["matchLabels"] == json!({}) {
            o["spec"].as_object_mut().unwrap().remove("selector");
        }
    }
    let m = o["metadata"].as_object_mut().unwrap();
    for k in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "generation",
        "managedFields",
    ] {
        m.remove(k);
    }
    o.as_object_mut().unwrap().remove("status");
    o
}

#[test]
fn decisions_match_pvlint_lint_with_the_whole_cluster_state() {
    let tmp = policy::repo()
        .join("target")
        .join("policy-module")
        .join(format!("diff-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut compared = 0;
    for dir in fixtures() {
        let request = doc(&dir.join("request.json"));
        let Some(req) = request.get("request") else {
            continue;
        };
        let settings = if dir.join("settings.yaml").exists() {
            doc(&dir.join("settings.yaml"))
        } else {
            json!({})
        };
        if req["operation"] != "CREATE"
            || settings.get("skipNamespaces").is_some()
            || !dir.join("cluster.yaml").exists()
        {
            continue;
        }
        let run = admission_test(&dir, Some("cluster.yaml"), &["--format", "json"]);
        if run.code == 2 {
            continue;
        }
        let resp = serde_json::from_str::<Value>(&run.stdout).unwrap()["response"].clone();
        let obj = tmp.join(format!(
            "{}.json",
            dir.file_name().unwrap().to_string_lossy()
        ));
        std::fs::write(&obj, applied_object(req).to_string()).unwrap();
        let kube = settings["kubeVersion"].as_str().unwrap_or("1.34");
        // The policy's cluster profile is the CLI's settings file's `cluster:` section.
        let config = tmp.join(format!(
            "{}.pvlint.yaml",
            dir.file_name().unwrap().to_string_lossy()
        ));
        let section = settings.get("cluster").cloned().unwrap_or(Value::Null);
        std::fs::write(&config, json!({ "cluster": section }).to_string()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_pvlint"))
            .args([
                "lint",
                "--format",
                "json",
                "--kube-version",
                kube,
                "--config",
            ])
            .arg(&config)
            .arg("--cluster-state")
            .arg(dir.join("cluster.yaml"))
            .arg(&obj)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let findings = report["findings"].as_array().unwrap();
        let warn_only: BTreeSet<String> = strs(&settings["warnRules"]).into_iter().collect();
        let reject_always: BTreeSet<String> = strs(&settings["rejectRules"]).into_iter().collect();
        let (mut reject, mut warn) = (BTreeSet::new(), BTreeSet::new());
        for f in findings {
            let rule = f["rule"].as_str().unwrap().to_string();
            if reject_always.contains(&rule)
                || (f["severity"] == "error" && !warn_only.contains(&rule))
            {
                reject.insert(rule);
            } else {
                warn.insert(rule);
            }
        }
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(
            rules(&resp, "pvlint-rejected"),
            reject,
            "{name}: rejected vs pvlint lint"
        );
        assert_eq!(
            rules(&resp, "pvlint-warned"),
            warn,
            "{name}: warned vs pvlint lint"
        );
        assert_eq!(resp["allowed"], reject.is_empty(), "{name}");
        // The CLI exits 1 exactly when the policy refuses (same threshold: error).
        if warn_only.is_empty() && reject_always.is_empty() {
            assert_eq!(
                out.status.code(),
                Some(if reject.is_empty() { 0 } else { 1 }),
                "{name}"
            );
        }
        // Rejection message: the CLI's headlines, with rule ids.
        for f in findings
            .iter()
            .filter(|f| reject.contains(f["rule"].as_str().unwrap()))
        {
            let line = format!(
                "{}[{}]: {}",
                f["severity"].as_str().unwrap(),
                f["rule"].as_str().unwrap(),
                f["message"].as_str().unwrap()
            );
            assert!(
                resp["status"]["message"].as_str().unwrap().contains(&line),
                "{name}: {line}"
            );
        }
        compared += 1;
    }
    assert!(compared >= 6, "only {compared} fixtures compared");
    let _ = std::fs::remove_dir_all(&tmp);
}

fn evaluator_with<'p>(policy: &'p Policy, cluster: &str) -> admission::Evaluator<'p> {
    policy
        .evaluator(Answers::load(cluster, policy.grants()).unwrap())
        .unwrap()
}

fn seed(name: &str) -> (Value, String) {
    let dir = policy::repo()
        .join("wasm/kubewarden/tests/fixtures")
        .join(name);
    let req = doc(&dir.join("request.json"))["request"].clone();
    (
        req,
        std::fs::read_to_string(dir.join("cluster.yaml")).unwrap(),
    )
}

#[test]
fn protocol_and_settings_as_policy_server_calls_them() {
    let p = Policy::load(policy::module(), Limits::default()).unwrap();
    let mut ev = p.evaluator(Answers::empty(p.grants())).unwrap();
    assert_eq!(ev.protocol_version().unwrap(), "v1");
    assert!(
        ev.validate_settings(&json!({"warnRules": ["rwo-rolling-surge"]}))
            .valid
    );
    let bad = ev.validate_settings(&json!({"ignoreRule": ["x"]}));
    assert!(!bad.valid);
    assert!(bad.message.unwrap().contains("did you mean ignoreRules?"));
    let md = p.metadata.as_ref().unwrap();
    assert_eq!(md["protocolVersion"], "v1");
    assert_eq!(md["backgroundAudit"], true);
    assert_eq!(md["executionMode"], "kubewarden-wapc");
}

#[test]
fn a_kind_not_granted_degrades_to_the_manifest_only_verdict_with_policy_servers_words() {
    // The metadata forgets StorageClass: policy-server refuses the lookup, the policy judges
    // the object alone and says why.
    let mut md = policy::metadata();
    md["contextAwareResources"] = json!([{"apiVersion": "v1", "kind": "PersistentVolume"}]);
    let raw = pvlint::admission::annotate::write_metadata(policy::module(), &md).unwrap();
    let p = Policy::load(&raw, Limits::default()).unwrap();
    let (req, cluster) = seed("seed-003-deployment-rwo-claim");
    let d = evaluator_with(&p, &cluster).validate(&req, &json!({}));
    assert!(d.allowed, "{d:?}");
    assert!(
        d.warnings[0].contains("Policy has not been granted access to Kubernetes storage.k8s.io/v1/StorageClass resources. The violation has been reported."),
        "{:?}",
        d.warnings
    );
    // Host capabilities are gated too.
    let mut md = policy::metadata();
    md["hostCapabilities"] = json!(["kubernetes/get_resource"]);
    let raw = pvlint::admission::annotate::write_metadata(policy::module(), &md).unwrap();
    let p = Policy::load(&raw, Limits::default()).unwrap();
    let d = evaluator_with(&p, &cluster).validate(&req, &json!({}));
    assert!(
        d.warnings[0].contains("'kubernetes/list_resources_all' host capability"),
        "{:?}",
        d.warnings
    );
}

#[test]
fn a_huge_request_is_a_clean_rejection_within_the_memory_limit() {
    let limits = Limits {
        timeout_ms: 10_000,
        max_memory: 48 << 20,
    };
    let p = Policy::load(policy::module(), limits).unwrap();
    let (req, cluster) = seed("seed-003-deployment-rwo-claim");
    let mut ev = evaluator_with(&p, &cluster);
    let mut huge = req.clone();
    huge["object"]["metadata"]["annotations"]["blob"] = json!("x".repeat(64 << 20));
    let d = ev.validate(&huge, &json!({}));
    assert!(!d.allowed);
    assert_eq!(d.code, Some(500), "{d:?}");
    assert!(d.message.as_deref().unwrap().contains("48 MiB"), "{d:?}");
    // The instance was rebuilt: the next request is judged as usual.
    let d = ev.validate(&req, &json!({}));
    assert_eq!(
        d.audit_annotations["pvlint-rejected"], "rwo-rolling-surge",
        "{d:?}"
    );
}

#[test]
fn a_deeply_nested_request_is_a_clean_rejection() {
    let p = Policy::load(policy::module(), Limits::default()).unwrap();
    let mut ev = p.evaluator(Answers::empty(p.grants())).unwrap();
    let depth = 200_000;
    let payload = format!(
        "{{\"request\": {{\"uid\": \"u\", \"object\": {}{}}}, \"settings\": {{}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let d = ev.validate_payload("u", payload.as_bytes());
    assert!(!d.allowed);
    assert_eq!(d.code, None, "the policy itself refused it: {d:?}");
    assert!(d.message.unwrap().contains("recursion limit exceeded"));
}

/// A waPC guest that never returns.
const ENDLESS: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "wapc_init"))
  (func (export "__guest_call") (param i32 i32) (result i32)
    (loop $forever (br $forever))
    (i32.const 0)))"#;

#[test]
fn a_guest_that_never_returns_is_stopped_at_the_deadline() {
    let p = Policy::load(
        ENDLESS.as_bytes(),
        Limits {
            timeout_ms: 300,
            max_memory: 16 << 20,
        },
    )
    .unwrap();
    let mut ev = p.evaluator(Answers::empty(Grants::default())).unwrap();
    let d = ev.validate(&json!({"uid": "u"}), &json!({}));
    assert!(!d.allowed);
    assert_eq!(d.code, Some(500));
    assert!(
        d.message
            .as_deref()
            .unwrap()
            .contains("did not finish within 300 ms"),
        "{d:?}"
    );
    // And again: the rebuilt instance is stopped too (no stuck state).
    let d = ev.validate(&json!({"uid": "v"}), &json!({}));
    assert_eq!(d.uid, "v");
    assert!(d.message.unwrap().contains("did not finish"));
}

#[test]
fn policy_annotate_writes_the_metadata_section() {
    let tmp = policy::repo().join("target").join("policy-module");
    let raw = tmp.join(format!("raw-{}.wasm", std::process::id()));
    // Strip the section again to start from a plain module.
    let mut md_less = policy::module().to_vec();
    md_less = strip_metadata(&md_less);
    std::fs::write(&raw, &md_less).unwrap();
    let out = tmp.join(format!("annotated-{}.wasm", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_pvlint"))
        .args(["policy", "annotate", "--metadata"])
        .arg(policy::repo().join("wasm/kubewarden/metadata.yml"))
        .arg("--output")
        .arg(&out)
        .arg(&raw)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let annotated = std::fs::read(&out).unwrap();
    let md = pvlint::admission::annotate::read_metadata(&annotated)
        .unwrap()
        .unwrap();
    assert_eq!(md["protocolVersion"], "v1");
    assert_eq!(md["mutating"], false);
    assert_eq!(
        md["contextAwareResources"],
        json!([{"apiVersion": "v1", "kind": "PersistentVolume"}, {"apiVersion": "v1", "kind": "PersistentVolumeClaim"},
               {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass"}, {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver"}])
    );
    // The annotated module still compiles and runs.
    assert!(Policy::load(&annotated, Limits::default()).is_ok());
    // A bad metadata file is refused with what is wrong.
    let bad = tmp.join(format!("bad-{}.yml", std::process::id()));
    std::fs::write(&bad, "rules: []\nmutating: false\nexecutionMode: wapc\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pvlint"))
        .args(["policy", "annotate", "--metadata"])
        .arg(&bad)
        .arg("-o")
        .arg(&out)
        .arg(&raw)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("executionMode \"wapc\" is not one of"));
    for f in [raw, out, bad] {
        let _ = std::fs::remove_file(f);
    }
}

fn strip_metadata(module: &[u8]) -> Vec<u8> {
    // Re-annotating replaces the section; writing `null` and then cutting the section off the
    // end leaves the module as it was built.
    let with_null = pvlint::admission::annotate::write_metadata(module, &Value::Null).unwrap();
    let section_len = 1 + 1 + 1 + pvlint::admission::annotate::METADATA_SECTION.len() + 4;
    with_null[..with_null.len() - section_len].to_vec()
}

/// The README's example of the policy is what it answers: the `$ pvlint admission-test ...`
/// block (its arguments, with the real module for `pvlint-policy.wasm`) prints the lines the
/// README shows under it.
#[test]
fn the_readme_example_is_what_the_policy_answers() {
    let readme = std::fs::read_to_string(policy::repo().join("README.md")).unwrap();
    let start = readme
        .find("    $ pvlint admission-test --policy pvlint-policy.wasm")
        .expect("README.md shows `$ pvlint admission-test --policy pvlint-policy.wasm ...`");
    let mut lines = readme[start..].lines();
    let mut command = String::new();
    for line in lines.by_ref() {
        let l = line.trim();
        command.push_str(l.trim_end_matches('\\'));
        command.push(' ');
        if !l.ends_with('\\') {
            break;
        }
    }
    let shown: Vec<&str> = lines
        .take_while(|l| l.starts_with("    "))
        .map(|l| &l[4..])
        .collect();
    let args: Vec<&str> = command.split_whitespace().skip(2).collect();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pvlint"));
    cmd.current_dir(policy::repo());
    for a in &args {
        if *a == "pvlint-policy.wasm" {
            cmd.arg(policy::module_file());
        } else {
            cmd.arg(a);
        }
    }
    let out = cmd.output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        printed.lines().collect::<Vec<_>>(),
        shown,
        "README.md's admission example is not what `pvlint {}` prints",
        args.join(" ")
    );
    assert_eq!(
        out.status.code(),
        Some(if shown[0] == "DENIED" { 1 } else { 0 })
    );
}
