//! The PV controller's behaviour, ported from the facts of upstream's test tables
//! (pkg/controller/volume/persistentvolume: binder_test.go TestSync, index_test.go,
//! provision_test.go, delete_test.go, recycle_test.go; the DefaultStorageClass admission
//! plugin's admission_test.go). Each case names the upstream test and case it follows. Test
//! helpers upstream give volumes [RWO, ROX], a gcePersistentDisk source and Retain, and claims
//! [RWO, ROX], unless the case says otherwise; so do these.
//!
//! Upstream's TestSync runs one sync; pvlint runs the controller to a fixed point, so cases
//! that only show an intermediate state (1-17 "skip non-available PV", which the next resync
//! makes Available) are not ported.

use pvlint_core::ClassSource;
use pvlint_core::{
    api, ClaimPhase, Operation, Options, Reason, Request, Simulation, Source, VolumePhase,
};

fn pv(name: &str, size: &str, extra: &str) -> String {
    format!("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {name}\nspec:\n  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  capacity: {{storage: {size}}}\n  gcePersistentDisk: {{pdName: {name}}}\n{extra}---\n")
}

fn claim(name: &str, size: &str, extra: &str) -> String {
    format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}\n  namespace: default\nspec:\n  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  resources: {{requests: {{storage: {size}}}}}\n{extra}---\n")
}

/// A cluster with no default StorageClass (upstream's tests register none).
fn run(manifests: &str, cluster: &str) -> Simulation {
    run_with(
        manifests,
        cluster,
        Options {
            complete: true,
            ..Options::default()
        },
        vec![],
    )
}

fn run_with(
    manifests: &str,
    cluster: &str,
    options: Options,
    operations: Vec<Operation>,
) -> Simulation {
    api::simulate(&Request {
        sources: vec![Source::new("m.yaml", manifests)],
        cluster: if cluster.is_empty() {
            vec![]
        } else {
            vec![Source::new("live.yaml", cluster)]
        },
        options,
        operations,
        ..Request::default()
    })
    .unwrap()
}

fn phase(s: &Simulation, claim: &str) -> ClaimPhase {
    s.claims
        .iter()
        .find(|c| c.name == claim)
        .unwrap_or_else(|| panic!("no claim {claim}"))
        .phase
}

fn bound_to(s: &Simulation, claim: &str) -> Option<String> {
    s.claims
        .iter()
        .find(|c| c.name == claim)
        .and_then(|c| c.volume.clone())
}

fn event(s: &Simulation, claim: &str) -> Option<(Reason, String)> {
    let c = s.claims.iter().find(|c| c.name == claim).unwrap();
    c.events.last().map(|e| (e.reason, e.message.to_string()))
}

fn volume_phase(s: &Simulation, volume: &str) -> VolumePhase {
    s.volumes
        .iter()
        .find(|v| v.name == volume)
        .unwrap_or_else(|| panic!("no volume {volume}"))
        .phase
}

#[test]
fn test_sync_1_1_successful_bind() {
    let s = run(
        &(pv("volume1-1", "1Gi", "") + &claim("claim1-1", "1Gi", "")),
        "",
    );
    assert_eq!(phase(&s, "claim1-1"), ClaimPhase::Bound);
    assert_eq!(bound_to(&s, "claim1-1").as_deref(), Some("volume1-1"));
}

#[test]
fn test_sync_1_2_noop_volume_too_small() {
    let s = run(
        &(pv("volume1-2", "1Gi", "") + &claim("claim1-2", "10Gi", "")),
        "",
    );
    assert_eq!(phase(&s, "claim1-2"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim1-2"),
        Some((
            Reason::FailedBinding,
            "no persistent volumes available for this claim and no storage class is set".into()
        ))
    );
}

#[test]
fn test_sync_1_4_smallest_volume() {
    let s = run(
        &(pv("volume1-4_1", "10Gi", "")
            + &pv("volume1-4_2", "1Gi", "")
            + &claim("claim1-4", "1Gi", "")),
        "",
    );
    assert_eq!(bound_to(&s, "claim1-4").as_deref(), Some("volume1-4_2"));
}

#[test]
fn test_sync_1_5_prebound_volume_by_name() {
    let s = run(
        &(pv(
            "volume1-5_1",
            "10Gi",
            "  claimRef: {namespace: default, name: claim1-5}\n",
        ) + &pv("volume1-5_2", "1Gi", "")
            + &claim("claim1-5", "1Gi", "")),
        "",
    );
    assert_eq!(bound_to(&s, "claim1-5").as_deref(), Some("volume1-5_1"));
}

#[test]
fn test_sync_1_7_prebound_volume_to_different_claim() {
    // The claimRef's UID is not the claim's: not this claim's volume (and it is Released).
    let s = run(
        &(pv(
            "volume1-7",
            "10Gi",
            "  claimRef: {namespace: default, name: claim1-7, uid: uid1-777}\n",
        ) + &claim("claim1-7", "1Gi", "")),
        "",
    );
    assert_eq!(phase(&s, "claim1-7"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim1-7").map(|e| e.0),
        Some(Reason::FailedBinding)
    );
    assert_eq!(volume_phase(&s, "volume1-7"), VolumePhase::Released);
}

#[test]
fn test_sync_1_11_and_1_12_selector() {
    let labelled = "  storageClassName: \"\"\n";
    let pvl = "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: volume1-11\n  labels: {foo: \"true\", bar: \"false\"}\nspec:\n  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  capacity: {storage: 10Gi}\n  gcePersistentDisk: {pdName: x}\n---\n";
    let s = run(
        &(pvl.to_string()
            + &claim(
                "claim1-11",
                "1Gi",
                &format!(
                    "{labelled}  selector: {{matchLabels: {{foo: \"true\", bar: \"false\"}}}}\n"
                ),
            )),
        "",
    );
    assert_eq!(
        phase(&s, "claim1-11"),
        ClaimPhase::Bound,
        "1-11 - bind when selector matches"
    );
    let s = run(
        &(pvl.to_string()
            + &claim(
                "claim1-12",
                "1Gi",
                &format!(
                    "{labelled}  selector: {{matchLabels: {{foo: \"true\", bar: \"true\"}}}}\n"
                ),
            )),
        "",
    );
    assert_eq!(
        phase(&s, "claim1-12"),
        ClaimPhase::Pending,
        "1-12 - do not bind when selector does not match"
    );
}

const WAIT_CLASS: &str = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: wait}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n---\n";

#[test]
fn test_sync_1_13_delayed_binding_and_1_14_prebound_pv() {
    let s = run(
        &(WAIT_CLASS.to_string()
            + &pv("volume1-13", "1Gi", "  storageClassName: wait\n")
            + &claim("claim1-13", "1Gi", "  storageClassName: wait\n")),
        "",
    );
    assert_eq!(phase(&s, "claim1-13"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim1-13").map(|e| e.0),
        Some(Reason::WaitForFirstConsumer)
    );
    let s = run(
        &(WAIT_CLASS.to_string()
            + &pv(
                "volume1-14",
                "1Gi",
                "  storageClassName: wait\n  claimRef: {namespace: default, name: claim1-14}\n",
            )
            + &claim("claim1-14", "1Gi", "  storageClassName: wait\n")),
        "",
    );
    assert_eq!(
        phase(&s, "claim1-14"),
        ClaimPhase::Bound,
        "1-14 - successful prebound PV"
    );
}

#[test]
fn test_sync_1_15_prebound_pvc_and_1_16_incompatible_access_mode() {
    let s = run(
        &(pv("volume1-15_1", "10Gi", "")
            + &pv("volume1-15_2", "1Gi", "")
            + &claim("claim1-15", "1Gi", "  volumeName: volume1-15_1\n")),
        "",
    );
    assert_eq!(bound_to(&s, "claim1-15").as_deref(), Some("volume1-15_1"));
    let rwx = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: claim1-16, namespace: default}\nspec:\n  accessModes: [ReadWriteMany]\n  volumeName: volume1-16\n  resources: {requests: {storage: 1Gi}}\n";
    let s = run(&(pv("volume1-16", "1Gi", "") + rwx), "");
    assert_eq!(phase(&s, "claim1-16"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim1-16"),
        Some((
            Reason::VolumeMismatch,
            "Cannot bind to requested volume \"volume1-16\": incompatible accessMode".into()
        ))
    );
}

#[test]
fn test_sync_2_x_claims_prebound_to_volumes() {
    // 2-1: to a volume that does not exist: Pending, no event.
    let s = run(&claim("claim2-1", "10Gi", "  volumeName: volume2-1\n"), "");
    assert_eq!(phase(&s, "claim2-1"), ClaimPhase::Pending);
    assert_eq!(event(&s, "claim2-1"), None);
    // 2-3: to an unbound volume: bound.
    let s = run(
        &(pv("volume2-3", "1Gi", "") + &claim("claim2-3", "1Gi", "  volumeName: volume2-3\n")),
        "",
    );
    assert_eq!(phase(&s, "claim2-3"), ClaimPhase::Bound);
    // 2-4: both name each other: bound.
    let s = run(
        &(pv(
            "volume2-4",
            "1Gi",
            "  claimRef: {namespace: default, name: claim2-4}\n",
        ) + &claim("claim2-4", "1Gi", "  volumeName: volume2-4\n")),
        "",
    );
    assert_eq!(phase(&s, "claim2-4"), ClaimPhase::Bound);
    // 2-8: the selector is not checked for a claim that names its volume.
    let s = run(
        &(pv("volume2-8", "1Gi", "")
            + &claim(
                "claim2-8",
                "1Gi",
                "  volumeName: volume2-8\n  selector: {matchLabels: {foo: bar}}\n",
            )),
        "",
    );
    assert_eq!(phase(&s, "claim2-8"), ClaimPhase::Bound);
    // 2-9: the volume is too small.
    let s = run(
        &(pv("volume2-9", "1Gi", "") + &claim("claim2-9", "2Gi", "  volumeName: volume2-9\n")),
        "",
    );
    assert_eq!(
        event(&s, "claim2-9"),
        Some((
            Reason::VolumeMismatch,
            "Cannot bind to requested volume \"volume2-9\": requested PV is too small".into()
        ))
    );
    // 2-10: the class differs (the claim has none).
    let s = run(
        &(pv("volume2-10", "1Gi", "  storageClassName: gold\n")
            + &claim("claim2-10", "1Gi", "  volumeName: volume2-10\n")),
        "",
    );
    assert_eq!(
        event(&s, "claim2-10"),
        Some((
            Reason::VolumeMismatch,
            "Cannot bind to requested volume \"volume2-10\": storageClassName does not match"
                .into()
        ))
    );
}

#[test]
fn test_sync_2_6_claim_prebound_to_already_bound_volume() {
    let live = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {name: volume2-6, uid: pv-uid}\n  spec:\n    accessModes: [ReadWriteOnce, ReadOnlyMany]\n    capacity: {storage: 1Gi}\n    gcePersistentDisk: {pdName: x}\n    claimRef: {namespace: default, name: claim2-6_1, uid: uid2-6_1}\n  status: {phase: Bound}\n- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    name: claim2-6_1\n    namespace: default\n    uid: uid2-6_1\n    annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n  spec:\n    accessModes: [ReadWriteOnce, ReadOnlyMany]\n    volumeName: volume2-6\n    resources: {requests: {storage: 1Gi}}\n  status: {phase: Bound}\n";
    let s = run(&claim("claim2-6", "1Gi", "  volumeName: volume2-6\n"), live);
    assert_eq!(phase(&s, "claim2-6"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim2-6"),
        Some((
            Reason::FailedBinding,
            "volume \"volume2-6\" already bound to a different claim.".into()
        ))
    );
    assert_eq!(phase(&s, "claim2-6_1"), ClaimPhase::Bound);
}

#[test]
fn test_sync_3_x_bound_claims() {
    let bc = "  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n";
    let bound = |name: &str, spec: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}\n  namespace: default\n{bc}spec:\n  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  resources: {{requests: {{storage: 1Gi}}}}\n{spec}---\n")
    };
    // 3-1: bound claim with missing volumeName.
    let s = run(&bound("claim3-1", ""), "");
    assert_eq!(phase(&s, "claim3-1"), ClaimPhase::Lost);
    assert_eq!(
        event(&s, "claim3-1"),
        Some((
            Reason::ClaimLost,
            "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!"
                .into()
        ))
    );
    // 3-2: bound claim with missing volume.
    let s = run(&bound("claim3-2", "  volumeName: volume3-2\n"), "");
    assert_eq!(
        event(&s, "claim3-2").map(|e| e.1),
        Some("Bound claim has lost its PersistentVolume. Data on the volume is lost!".into())
    );
    // 3-3: bound claim with unbound volume: bound again.
    let s = run(
        &(pv("volume3-3", "10Gi", "") + &bound("claim3-3", "  volumeName: volume3-3\n")),
        "",
    );
    assert_eq!(phase(&s, "claim3-3"), ClaimPhase::Bound);
    // 3-4: bound claim with a volume pre-bound to another UID: Lost, ClaimMisbound.
    let s = run(
        &(pv(
            "volume3-4",
            "10Gi",
            "  claimRef: {namespace: default, name: claim3-4, uid: claim3-4-x}\n",
        ) + &bound("claim3-4", "  volumeName: volume3-4\n")),
        "",
    );
    assert_eq!(phase(&s, "claim3-4"), ClaimPhase::Lost);
    assert_eq!(
        event(&s, "claim3-4").map(|e| e.0),
        Some(Reason::ClaimMisbound)
    );
}

#[test]
fn test_sync_4_x_volumes() {
    // 4-3: bound volume with missing claim (Retain): Released, claimRef kept.
    let s = run(
        &pv(
            "volume4-3",
            "10Gi",
            "  claimRef: {namespace: default, name: claim4-3, uid: uid4-3}\n",
        ),
        "",
    );
    assert_eq!(volume_phase(&s, "volume4-3"), VolumePhase::Released);
    assert_eq!(s.volumes[0].claim.as_deref(), Some("default/claim4-3"));
    // 4-7 / 4-8: a volume bound to a claim that is bound elsewhere: unbound; the controller's
    // binding loses the claimRef, a user's pre-binding keeps the claim's name.
    let live = |annotations: &str| {
        format!("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: volume4-7\n    annotations: {{{annotations}}}\n  spec:\n    accessModes: [ReadWriteOnce, ReadOnlyMany]\n    capacity: {{storage: 10Gi}}\n    gcePersistentDisk: {{pdName: x}}\n    claimRef: {{namespace: default, name: claim4-7, uid: uid4-7}}\n  status: {{phase: Bound}}\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {{name: volume4-7-x}}\n  spec:\n    accessModes: [ReadWriteOnce, ReadOnlyMany]\n    capacity: {{storage: 10Gi}}\n    gcePersistentDisk: {{pdName: y}}\n    claimRef: {{namespace: default, name: claim4-7, uid: uid4-7}}\n  status: {{phase: Bound}}\n- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    name: claim4-7\n    namespace: default\n    uid: uid4-7\n    annotations: {{pv.kubernetes.io/bind-completed: \"yes\"}}\n  spec:\n    accessModes: [ReadWriteOnce, ReadOnlyMany]\n    volumeName: volume4-7-x\n    resources: {{requests: {{storage: 1Gi}}}}\n  status: {{phase: Bound}}\n")
    };
    let s = run("", &live("pv.kubernetes.io/bound-by-controller: \"yes\""));
    let v = s.volumes.iter().find(|v| v.name == "volume4-7").unwrap();
    assert_eq!(
        (v.phase, v.claim.as_deref()),
        (VolumePhase::Available, None),
        "4-7 - bound by controller"
    );
    let s = run("", &live(""));
    let v = s.volumes.iter().find(|v| v.name == "volume4-7").unwrap();
    assert_eq!(
        (v.phase, v.claim.as_deref()),
        (VolumePhase::Available, Some("default/claim4-7")),
        "4-8 - bound by user"
    );
}

#[test]
fn test_sync_13_binding_with_and_without_class() {
    // 13-1: a claim of class gold binds the gold volume, not the smaller class-less one.
    let gold_class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: gold}\nprovisioner: kubernetes.io/no-provisioner\n---\n";
    let s = run(
        &(gold_class.to_string()
            + &pv("volume13-1-1", "1Gi", "")
            + &pv("volume13-1-2", "10Gi", "  storageClassName: gold\n")
            + &claim("claim13-1", "1Gi", "  storageClassName: gold\n")),
        "",
    );
    assert_eq!(bound_to(&s, "claim13-1").as_deref(), Some("volume13-1-2"));
    // 13-2: a claim without class binds the class-less volume, not the smaller gold one.
    let s = run(
        &(gold_class.to_string()
            + &pv("volume13-2-1", "1Gi", "  storageClassName: gold\n")
            + &pv("volume13-2-2", "10Gi", "")
            + &claim("claim13-2", "1Gi", "")),
        "",
    );
    assert_eq!(bound_to(&s, "claim13-2").as_deref(), Some("volume13-2-2"));
}

#[test]
fn test_sync_block_volume_14_3_volume_mode_mismatch() {
    let s = run(
        &(pv("volume14-3", "10Gi", "  volumeMode: Filesystem\n")
            + &claim("claim14-3", "1Gi", "  volumeMode: Block\n")),
        "",
    );
    assert_eq!(phase(&s, "claim14-3"), ClaimPhase::Pending);
}

#[test]
fn test_provision_sync_11_17_external_and_11_18_unknown_internal_provisioner() {
    let class = |p: &str| {
        format!("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: external}}\nprovisioner: {p}\n---\n")
    };
    let s = run(
        &(class("vendor.com/my-volume")
            + &claim("claim11-17", "1Gi", "  storageClassName: external\n")),
        "",
    );
    let c = s.claims.iter().find(|c| c.name == "claim11-17").unwrap();
    assert!(c
        .events
        .iter()
        .any(|e| e.reason == Reason::ExternalProvisioning
            && e.message.contains("'vendor.com/my-volume'")));
    let s = run(
        &(class("kubernetes.io/unknown")
            + &claim("claim11-18", "1Gi", "  storageClassName: external\n")),
        "",
    );
    assert_eq!(phase(&s, "claim11-18"), ClaimPhase::Pending);
    assert_eq!(
        event(&s, "claim11-18"),
        Some((
            Reason::ProvisioningFailed,
            "no volume plugin matched name: kubernetes.io/unknown".into()
        ))
    );
    // 11-14: a class that does not exist.
    let s = run(
        &claim("claim11-14", "1Gi", "  storageClassName: non-existing\n"),
        "",
    );
    assert_eq!(
        event(&s, "claim11-14"),
        Some((
            Reason::ProvisioningFailed,
            "storageclass.storage.k8s.io \"non-existing\" not found".into()
        ))
    );
}

#[test]
fn index_test_finding_volume_with_different_access_modes() {
    let v = |name: &str, modes: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec:\n  accessModes: [{modes}]\n  capacity: {{storage: 10Gi}}\n  gcePersistentDisk: {{pdName: {name}}}\n---\n")
    };
    let c = |modes: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: c, namespace: default}}\nspec:\n  accessModes: [{modes}]\n  resources: {{requests: {{storage: 1Gi}}}}\n")
    };
    let pool = v("gce", "ReadWriteOnce, ReadOnlyMany")
        + &v("ebs", "ReadWriteOnce")
        + &v("nfs", "ReadWriteOnce, ReadOnlyMany, ReadWriteMany");
    for (modes, want) in [
        ("ReadWriteOnce", "ebs"),
        ("ReadWriteOnce, ReadOnlyMany", "gce"),
        ("ReadWriteMany", "nfs"),
        ("ReadOnlyMany", "gce"),
    ] {
        let s = run(&(pool.clone() + &c(modes)), "");
        assert_eq!(bound_to(&s, "c").as_deref(), Some(want), "claim {modes}");
    }
}

#[test]
fn index_test_finding_prebound_volumes() {
    // A volume pre-bound to the claim that is too small, or in an access-mode group that does
    // not hold the claim's modes, is skipped silently: the claim binds pv1.
    let c = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: claim01, namespace: myns}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let one = |name: &str, size: &str, modes: &str, reserved: bool| {
        let cr = if reserved {
            "  claimRef: {namespace: myns, name: claim01}\n"
        } else {
            ""
        };
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec:\n  accessModes: [{modes}]\n  capacity: {{storage: {size}}}\n  gcePersistentDisk: {{pdName: {name}}}\n{cr}---\n")
    };
    let s = run(
        &(one("pv1", "1Gi", "ReadWriteOnce", false)
            + &one("pvBadSize", "1Mi", "ReadWriteOnce", true)
            + c),
        "",
    );
    assert_eq!(bound_to(&s, "claim01").as_deref(), Some("pv1"));
    let s = run(
        &(one("pv1", "1Gi", "ReadWriteOnce", false)
            + &one("pvBadMode", "1Gi", "ReadOnlyMany", true)
            + c),
        "",
    );
    assert_eq!(bound_to(&s, "claim01").as_deref(), Some("pv1"));
    let s = run(
        &(one("pv1", "1Gi", "ReadWriteOnce", false)
            + &one("pv8", "8Gi", "ReadWriteOnce", true)
            + c),
        "",
    );
    assert_eq!(
        bound_to(&s, "claim01").as_deref(),
        Some("pv8"),
        "pre-bind pv8 to the claim"
    );
}

#[test]
fn delete_test_8_10_external_deleter_and_recycle_test_6_3_no_plugin() {
    let s = run(
        &pv("volume8-10", "1Gi", "  claimRef: {namespace: default, name: claim8-10, uid: uid8-10}\n  persistentVolumeReclaimPolicy: Delete\n").replace(
            "metadata:\n  name: volume8-10\n",
            "metadata:\n  name: volume8-10\n  annotations: {pv.kubernetes.io/provisioned-by: external.io/test}\n",
        ),
        "",
    );
    let v = &s.volumes[0];
    assert_eq!(v.phase, VolumePhase::Released);
    assert_eq!(
        (v.storage.fate.as_str(), v.storage.by.as_deref()),
        ("leftToProvisioner", Some("external.io/test"))
    );
    assert!(v.events.is_empty());
    let s = run(&pv("volume6-3", "1Gi", "  claimRef: {namespace: default, name: claim6-3, uid: uid6-3}\n  persistentVolumeReclaimPolicy: Recycle\n"), "");
    let v = &s.volumes[0];
    assert_eq!(v.phase, VolumePhase::Failed);
    assert_eq!(
        v.events[0].message,
        "No recycler plugin found for the volume!"
    );
}

#[test]
fn admission_test_default_class_choice() {
    let class = |name: &str, created: &str| {
        format!("- apiVersion: storage.k8s.io/v1\n  kind: StorageClass\n  metadata:\n    name: {name}\n    creationTimestamp: \"{created}\"\n    annotations: {{storageclass.kubernetes.io/is-default-class: \"true\"}}\n  provisioner: example.com/p\n")
    };
    let live = |a: &str, b: &str| format!("apiVersion: v1\nkind: List\nitems:\n{a}{b}");
    let c = claim("c", "1Gi", "");
    // "two defaults with same creation time, choose the one with smaller name"
    let s = run(
        &c,
        &live(
            &class("default2", "2024-01-01T00:00:00Z"),
            &class("default1", "2024-01-01T00:00:00Z"),
        ),
    );
    assert_eq!(s.claims[0].class.as_deref(), Some("default1"));
    // "two defaults, choose the one with newer creation time"
    let s = run(
        &c,
        &live(
            &class("default1", "2024-01-01T00:00:00Z"),
            &class("default2", "2024-01-01T00:00:01Z"),
        ),
    );
    assert_eq!(s.claims[0].class.as_deref(), Some("default2"));
    // "two defaults, no modification of PVC with class=''"
    let s = run(
        &claim("c", "1Gi", "  storageClassName: \"\"\n"),
        &live(
            &class("a", "2024-01-01T00:00:00Z"),
            &class("b", "2024-01-01T00:00:00Z"),
        ),
    );
    assert_eq!(s.claims[0].class.as_deref(), Some(""));
}

/// The legacy beta annotation `volume.beta.kubernetes.io/storage-class`:
/// component-helpers storage/volume GetPersistentVolumeClaimClass reads it before
/// spec.storageClassName, and PersistentVolumeClaimHasClass counts it as a class, so the
/// DefaultStorageClass admission plugin (setdefault admission.go: "PVC has a class") leaves
/// such a claim alone; the PV controller compares the annotation's class with the volume's.
#[test]
fn get_persistent_volume_claim_class_beta_annotation_first() {
    let default = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: storage.k8s.io/v1\n  kind: StorageClass\n  metadata:\n    name: standard\n    annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\n  provisioner: example.com/p\n";
    let annotated = |ann: &str, spec: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  namespace: default\n  annotations: {{volume.beta.kubernetes.io/storage-class: \"{ann}\"}}\nspec:\n  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  resources: {{requests: {{storage: 1Gi}}}}\n{spec}---\n")
    };
    // The annotation wins over spec.storageClassName.
    let s = run(
        &format!(
            "{}{}",
            annotated("gold", "  storageClassName: silver\n"),
            pv("pv-gold", "1Gi", "  storageClassName: gold\n")
        ),
        default,
    );
    assert_eq!(phase(&s, "c"), ClaimPhase::Bound);
    assert_eq!(s.claims[0].volume.as_deref(), Some("pv-gold"));
    // An empty annotation is a class (""): no default is given, and the claim binds a
    // class-less volume.
    let s = run(
        &format!("{}{}", annotated("", ""), pv("pv-none", "1Gi", "")),
        default,
    );
    assert_eq!(s.claims[0].class.as_deref(), Some(""));
    assert_ne!(s.claims[0].class_source, ClassSource::Admission);
    assert_eq!(s.claims[0].volume.as_deref(), Some("pv-none"));
}
