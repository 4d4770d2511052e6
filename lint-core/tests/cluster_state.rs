//! Manifests applied onto a given cluster state (`--cluster-state`, the admission policy's
//! cluster): the cluster's objects count as the API server and the controllers count them,
//! and an object of the input replaces the cluster's object of the same name.

use pvlint_core::{api, Options, Report, Request, Severity, Source};

fn lint(manifests: &str, cluster: &str) -> Report {
    api::lint(&Request {
        sources: vec![Source::new("m.yaml", manifests)],
        cluster: vec![Source::new("live.yaml", cluster)],
        options: Options::default(),
        ..Request::default()
    })
}

fn rules(r: &Report) -> Vec<(&str, Severity)> {
    r.findings
        .iter()
        .map(|f| (f.rule.as_str(), f.severity))
        .collect()
}

fn has(r: &Report, rule: &str) -> bool {
    r.findings.iter().any(|f| f.rule == rule)
}

fn class(name: &str, default: bool, created: &str) -> String {
    format!("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: {name}\n  creationTimestamp: \"{created}\"\n  annotations: {{storageclass.kubernetes.io/is-default-class: \"{default}\"}}\nprovisioner: ebs.csi.aws.com\n")
}

/// The DefaultStorageClass admission plugin counts StorageClass objects: the cluster's
/// default and a new one make two; the input's copy of the cluster's own default class is
/// still one object.
#[test]
fn default_classes_are_counted_per_object() {
    let live = class("standard", true, "2026-01-01T00:00:00Z");
    let r = lint(&class("fast", true, "2026-06-01T00:00:00Z"), &live);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "multiple-default-storage-classes")
        .expect("a second default");
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.message.contains("fast, standard (in the cluster)"),
        "{}",
        f.message
    );
    assert!(
        f.consequence.as_ref().unwrap().summary.contains("\"fast\""),
        "the newest default wins"
    );
    // A GitOps repository holding the cluster's own default class: one object.
    let r = lint(&class("standard", true, "2026-01-01T00:00:00Z"), &live);
    assert!(
        !has(&r, "multiple-default-storage-classes"),
        "{:?}",
        rules(&r)
    );
    // Taking the default away from the cluster's class while adding another: one default.
    let r = lint(
        &format!(
            "{}---\n{}",
            class("standard", false, "2026-01-01T00:00:00Z"),
            class("fast", true, "2026-06-01T00:00:00Z")
        ),
        &live,
    );
    assert!(
        !has(&r, "multiple-default-storage-classes"),
        "{:?}",
        rules(&r)
    );
}

/// A class name only the cluster's hand-made volumes use is a label: a claim naming it is
/// the pool's business, not "class not found". A volume a provisioner made keeps the name of
/// a class that may be gone: a new claim of that class stays Pending (ProvisioningFailed
/// "storageclass.storage.k8s.io \"old-ssd\" not found").
#[test]
fn only_static_volumes_make_a_class_a_label() {
    let claim = |class: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: new, namespace: default}}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: {class}\n  resources: {{requests: {{storage: 100Gi}}}}\n")
    };
    let volume = |class: &str, provisioned_by: Option<&str>| {
        let ann = provisioned_by
            .map(|p| format!("  annotations: {{pv.kubernetes.io/provisioned-by: {p}}}\n"))
            .unwrap_or_default();
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{class}\n{ann}spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {{storage: 10Gi}}\n  storageClassName: {class}\n  persistentVolumeReclaimPolicy: Retain\n  csi: {{driver: ebs.csi.aws.com, volumeHandle: vol-1}}\nstatus: {{phase: Available}}\n")
    };
    let r = lint(&claim("pool"), &volume("pool", None));
    assert!(!has(&r, "storage-class-not-found"), "{:?}", rules(&r));
    let r = lint(
        &claim("old-ssd"),
        &volume("old-ssd", Some("ebs.csi.aws.com")),
    );
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "storage-class-not-found")
        .unwrap_or_else(|| panic!("{:?}", rules(&r)));
    assert_eq!(f.severity, Severity::Error);
}

/// A Bound claim of the cluster state on a local disk, at 20Gi or already asking for more.
fn stuck_live(asks: &str, allow: bool) -> String {
    format!(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: storage.k8s.io/v1\n  kind: StorageClass\n  metadata: {{name: local-disks}}\n  provisioner: kubernetes.io/no-provisioner\n  volumeBindingMode: WaitForFirstConsumer\n  allowVolumeExpansion: {allow}\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {{name: sdb, uid: 7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6}}\n  spec:\n    capacity: {{storage: 20Gi}}\n    accessModes: [ReadWriteOnce]\n    storageClassName: local-disks\n    local: {{path: /mnt/disks/sdb}}\n    nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node2]}}]}}]}}}}\n    claimRef: {{namespace: q, name: spool, uid: 2a3b4c5d-6e7f-4081-92a3-b4c5d6e7f809}}\n  status: {{phase: Bound}}\n- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    name: spool\n    namespace: q\n    uid: 2a3b4c5d-6e7f-4081-92a3-b4c5d6e7f809\n    annotations: {{pv.kubernetes.io/bind-completed: \"yes\"}}\n  spec:\n    accessModes: [ReadWriteOnce]\n    storageClassName: local-disks\n    resources: {{requests: {{storage: {asks}}}}}\n    volumeName: sdb\n  status: {{phase: Bound, capacity: {{storage: 20Gi}}}}\n"
    )
}

fn spool(asks: &str) -> String {
    format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: spool, namespace: q}}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: local-disks\n  resources: {{requests: {{storage: {asks}}}}}\n")
}

/// resize-never-done: a resize the class forbids is update-rejected's (the API server refuses
/// it, so nothing waits for a resizer); one it allows, on a local disk nothing expands, is
/// reported, and its fix keeps the volume's size, unless the cluster's claim already asks for
/// more: then the API server refuses a request at or below status.capacity, and the help says so.
#[test]
fn a_resize_nothing_expands() {
    let forbidden = lint(&spool("50Gi"), &stuck_live("20Gi", false));
    assert!(
        has(&forbidden, "update-rejected"),
        "{:?}",
        rules(&forbidden)
    );
    assert!(
        !has(&forbidden, "resize-never-done"),
        "{:?}",
        rules(&forbidden)
    );

    let grown = lint(&spool("50Gi"), &stuck_live("20Gi", true));
    let f = grown
        .findings
        .iter()
        .find(|f| f.rule == "resize-never-done")
        .unwrap_or_else(|| panic!("{:?}", rules(&grown)));
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(
        f.message,
        "claim q/spool asks for 50Gi; nothing expands its 20Gi volume"
    );
    assert!(f.help.starts_with("keep the request at 20Gi"), "{}", f.help);
    assert!(f.suggestion.as_ref().is_some_and(|s| !s.edits.is_empty()));

    let stuck = lint(&spool("50Gi"), &stuck_live("50Gi", true));
    let f = stuck
        .findings
        .iter()
        .find(|f| f.rule == "resize-never-done")
        .unwrap_or_else(|| panic!("{:?}", rules(&stuck)));
    assert!(
        f.help.starts_with("the request cannot go back to 20Gi"),
        "{}",
        f.help
    );
    assert!(f.suggestion.is_none());
}
