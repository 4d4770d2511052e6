//! rwo-rolling-surge across the Deployment controller's fencepost arithmetic.

use pvlint_core::{lint, Options, Severity, Source};

fn deployment(replicas: Option<i64>, strategy: &str, modes: &str, class: &str) -> String {
    let replicas = replicas
        .map(|r| format!("  replicas: {r}\n"))
        .unwrap_or_default();
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n{replicas}{strategy}  selector:\n    matchLabels: {{app: d}}\n  template:\n    metadata:\n      labels: {{app: d}}\n    spec:\n      containers:\n      - {{name: c, image: x}}\n      volumes:\n      - name: v\n        persistentVolumeClaim:\n          claimName: data\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [{modes}]\n  storageClassName: {class}\n  resources:\n    requests:\n      storage: 1Gi\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: gp3\nprovisioner: ebs.csi.aws.com\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: nfs\nprovisioner: nfs.csi.k8s.io\n"
    )
}

fn rolling(surge: &str, unavailable: &str) -> String {
    format!("  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: {surge}\n      maxUnavailable: {unavailable}\n")
}

fn surge_finding(text: &str) -> Option<(Severity, String)> {
    surge_finding_on(text, &Options::default())
}

/// The surge finding under `options` (a cluster profile).
fn surge_finding_on(text: &str, options: &Options) -> Option<(Severity, String)> {
    let r = lint(&[Source::new("d.yaml", text)], options);
    r.findings
        .iter()
        .find(|f| f.rule == "rwo-rolling-surge")
        .map(|f| {
            let c = f.consequence.as_ref().expect("a consequence");
            let text = format!(
                "{} | {} | assumed: {}",
                f.message,
                c.summary,
                c.assumptions.join("; ")
            );
            (f.severity, text)
        })
}

#[test]
fn default_strategy_by_replica_count() {
    // (replicas, expected): defaults 25%/25% → surge ceil, unavailable floor.
    let cases = [
        (None, Some(Severity::Error)),       // 1: surge 1, unavailable 0
        (Some(1), Some(Severity::Error)),    // surge 1, unavailable 0
        (Some(2), Some(Severity::Error)),    // surge 1, unavailable 0
        (Some(4), Some(Severity::Warning)),  // surge 1, unavailable 1
        (Some(10), Some(Severity::Warning)), // surge 3, unavailable 2
        (Some(0), None),                     // nothing runs
    ];
    // ReadWriteOncePod: the scheduler refuses the surge pod on any node, so whether the rollout
    // hangs is the arithmetic alone (a ReadWriteOnce volume also needs the pods on two nodes).
    for (replicas, expected) in cases {
        let got = surge_finding(&deployment(replicas, "", "ReadWriteOncePod", "gp3")).map(|f| f.0);
        assert_eq!(got, expected, "replicas {replicas:?}");
        // ReadWriteOnce on an attachable driver: the same hazard on the default profile's
        // cluster of several nodes, where the scheduler's default spreading puts the new pod
        // on another node; none on a cluster of one node.
        let rwo = deployment(replicas, "", "ReadWriteOnce", "gp3");
        assert_eq!(surge_finding(&rwo).map(|f| f.0), expected);
        let mut one = Options::default();
        one.cluster.nodes = Some(pvlint_core::profile::Nodes::One);
        assert_eq!(surge_finding_on(&rwo, &one), None);
        // ReadWriteOncePod is refused on one node too.
        let rwop = deployment(replicas, "", "ReadWriteOncePod", "gp3");
        assert_eq!(surge_finding_on(&rwop, &one).map(|f| f.0), expected);
    }
    let (_, msg) = surge_finding(&deployment(Some(10), "", "ReadWriteOnce", "gp3")).unwrap();
    assert!(
        msg.contains(
            "replicas 10, maxSurge 25% (default) → 3 surge pods, maxUnavailable 25% (default) → 2"
        ),
        "{msg}"
    );
}

#[test]
fn explicit_values() {
    let cases = [
        ("1", "1", 1, Some(Severity::Warning)), // seed 003 as reported
        ("1", "0", 1, Some(Severity::Error)),
        ("0", "1", 1, None),                              // the recommended fix
        ("\"50%\"", "0", 3, Some(Severity::Error)),       // surge ceil(1.5)=2, unavailable 0
        ("\"10%\"", "\"10%\"", 1, Some(Severity::Error)), // surge 1, unavailable floor(0.1)=0
        ("\"0%\"", "\"10%\"", 5, None),                   // surge 0
        ("2", "\"50%\"", 2, Some(Severity::Warning)),
    ];
    for (surge, unav, replicas, expected) in cases {
        let got = surge_finding(&deployment(
            Some(replicas),
            &rolling(surge, unav),
            "ReadWriteOncePod",
            "gp3",
        ))
        .map(|f| f.0);
        assert_eq!(
            got, expected,
            "maxSurge {surge}, maxUnavailable {unav}, replicas {replicas}"
        );
    }
}

#[test]
fn both_zero_is_rejected_not_resolved() {
    let text = deployment(Some(1), &rolling("0", "0"), "ReadWriteOnce", "gp3");
    let r = lint(&[Source::new("d.yaml", text.as_str())], &Options::default());
    assert!(r.findings.iter().any(|f| f.rule == "invalid-field-value"
        && f.message.contains("may not be 0 when `maxSurge` is 0")));
    // Upstream resolves both-0 to unavailable 1 and surge 0: no surge hazard.
    assert!(surge_finding(&text).is_none());
}

#[test]
fn recreate_and_access_modes() {
    let recreate = "  strategy:\n    type: Recreate\n";
    assert!(surge_finding(&deployment(Some(1), recreate, "ReadWriteOnce", "gp3")).is_none());
    assert!(surge_finding(&deployment(Some(1), "", "ReadWriteMany", "gp3")).is_none());
    assert!(surge_finding(&deployment(
        Some(1),
        "",
        "ReadWriteOnce, ReadOnlyMany",
        "gp3"
    ))
    .is_none());
    // NFS never attaches: no Multi-Attach claim for RWO...
    assert!(surge_finding(&deployment(Some(1), "", "ReadWriteOnce", "nfs")).is_none());
    // ...but ReadWriteOncePod is enforced by the scheduler on every driver.
    let (sev, msg) = surge_finding(&deployment(Some(1), "", "ReadWriteOncePod", "nfs")).unwrap();
    assert_eq!(sev, Severity::Error);
    assert!(msg.contains("ReadWriteOncePod access mode"), "{msg}");
    // A class the input does not define: assumed to exist (its driver not known, and such
    // drivers attach), a warning that says so.
    let (sev, msg) = surge_finding(&deployment(Some(1), "", "ReadWriteOnce", "mystery")).unwrap();
    assert_eq!(sev, Severity::Warning);
    assert!(
        msg.contains("assumed: StorageClass mystery, which the input does not define, exists"),
        "{msg}"
    );
}

#[test]
fn csidriver_objects_decide_attachability() {
    let base = deployment(Some(1), "", "ReadWriteOnce", "gp3");
    let detached = format!("{base}---\napiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata:\n  name: ebs.csi.aws.com\nspec:\n  attachRequired: false\n");
    assert!(surge_finding(&detached).is_none());
    let attached = format!("{base}---\napiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata:\n  name: ebs.csi.aws.com\nspec:\n  podInfoOnMount: true\n");
    assert!(
        surge_finding(&attached).is_some(),
        "attachRequired defaults to true"
    );
}

/// manageJob: a Job runs min(parallelism, completions) pods at once (completions unset: a work
/// queue of `parallelism` pods).
#[test]
fn job_pods_count_parallelism_and_completions() {
    let job = |spec: &str| {
        format!("apiVersion: batch/v1\nkind: Job\nmetadata: {{name: j}}\nspec:\n{spec}  template:\n    spec:\n      restartPolicy: Never\n      containers: [{{name: c, image: x}}]\n      volumes: [{{name: v, persistentVolumeClaim: {{claimName: data}}}}]\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data}}\nspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {{requests: {{storage: 1Gi}}}}\n")
    };
    let shared = |spec: &str| {
        let r = lint(&[Source::new("j.yaml", job(spec))], &Options::default());
        r.findings
            .iter()
            .any(|f| f.rule == "rwo-shared-by-replicas")
    };
    assert!(
        !shared("  parallelism: 4\n  completions: 1\n"),
        "one completion: one pod at a time"
    );
    assert!(shared("  parallelism: 4\n  completions: 8\n"));
    assert!(shared("  parallelism: 2\n"), "work queue: parallelism pods");
    assert!(!shared(""), "defaults: one pod");
}
