//! The binding simulator against the seed scenarios, step by step, through the public API
//! (what-if operations for the timelines). Event texts and behaviour follow
//! pkg/controller/volume/persistentvolume (see each test's upstream reference).

use pvlint_core::{
    api, ClaimOutcome, ClaimPhase, KubeVersion, Operation, Options, Reason, Request, Simulation,
    Source, VolumeOutcome, VolumePhase,
};
use pvlint_core::{ClassSource, Fate};

fn file(rel: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(rel),
    )
    .unwrap()
}

fn sim(text: &str, options: Options, operations: Vec<Operation>) -> Simulation {
    api::simulate(&Request {
        sources: vec![Source::new("m.yaml", text)],
        options,
        operations,
        ..Request::default()
    })
    .unwrap()
}

fn claim<'a>(claims: &'a [ClaimOutcome], name: &str) -> &'a ClaimOutcome {
    claims
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no claim {name}"))
}

fn pv<'a>(volumes: &'a [VolumeOutcome], name: &str) -> &'a VolumeOutcome {
    volumes
        .iter()
        .rev()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no volume {name}"))
}

fn op(s: &str) -> Operation {
    s.parse().unwrap()
}

fn apply(text: &str) -> Operation {
    Operation::Apply {
        sources: vec![Source::new("more.yaml", text)],
    }
}

const PV3: &str = "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv3\nspec:\n  accessModes: [ReadWriteOnce, ReadWriteMany, ReadOnlyMany]\n  capacity:\n    storage: 5Gi\n  nfs:\n    path: /var/nfsshare/v1\n    server: 172.16.51.58.1\n  persistentVolumeReclaimPolicy: Recycle\n";
const MYCLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: myclaim\n  namespace: test\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 5Gi\n";

fn no_default() -> Options {
    Options {
        default_class: Some(String::new()),
        ..Options::default()
    }
}

/// Seed 001 (a cluster with no default StorageClass), as a timeline. Deleting a Bound volume
/// leaves it Terminating (the pv-protection finalizer); the seed's "delete the PV, the claim
/// goes Lost" needs the finalizer removed too (pv_controller_test 5-7: ClaimLost).
#[test]
fn seed_001_phase_transitions_step_by_step() {
    let s = sim(
        PV3,
        no_default(),
        vec![
            apply(MYCLAIM),
            op("delete pv/pv3"),
            op("remove-finalizers pv/pv3"),
            apply(PV3),
            op("delete pvc/test/myclaim"),
            op("remove-claimref pv/pv3"),
        ],
    );
    let st = &s.steps;
    assert_eq!(st.len(), 7);
    // 0. Add the PV: Available.
    assert_eq!(pv(&st[0].volumes, "pv3").phase, VolumePhase::Available);
    // 1. Add the PVC: both Bound.
    assert_eq!(claim(&st[1].claims, "myclaim").phase, ClaimPhase::Bound);
    assert_eq!(
        claim(&st[1].claims, "myclaim").volume.as_deref(),
        Some("pv3")
    );
    assert_eq!(pv(&st[1].volumes, "pv3").phase, VolumePhase::Bound);
    // 2. Delete the PV: Terminating while Bound; the claim stays Bound.
    assert_eq!(claim(&st[2].claims, "myclaim").phase, ClaimPhase::Bound);
    assert!(!pv(&st[2].volumes, "pv3").gone);
    // 3. Without its finalizers the PV goes: the claim is Lost (ClaimLost).
    let c = claim(&st[3].claims, "myclaim");
    assert_eq!(c.phase, ClaimPhase::Lost);
    assert!(c.events.iter().any(|e| e.reason == Reason::ClaimLost
        && e.message == "Bound claim has lost its PersistentVolume. Data on the volume is lost!"));
    // 4. Add the PV again: the bound claim re-binds a volume without claimRef (3-3).
    assert_eq!(claim(&st[4].claims, "myclaim").phase, ClaimPhase::Bound);
    assert_eq!(pv(&st[4].volumes, "pv3").phase, VolumePhase::Bound);
    // 5. Delete the PVC: Released, then Recycle fails on the bad NFS server: Failed.
    let v = pv(&st[5].volumes, "pv3");
    assert_eq!(v.phase, VolumePhase::Failed);
    assert!(
        v.events
            .iter()
            .any(|e| e.reason == Reason::VolumeFailedRecycle),
        "{:?}",
        v.events
    );
    assert_eq!(
        v.claim.as_deref(),
        Some("test/myclaim"),
        "a Failed volume keeps its claimRef"
    );
    // 6. The admin removes claimRef: Available.
    assert_eq!(pv(&st[6].volumes, "pv3").phase, VolumePhase::Available);
}

/// Released with a good server: the recycler wipes it and it is Available again
/// (recycle_test.go: VolumeRecycled, unbindVolume).
#[test]
fn recycle_with_a_reachable_server_makes_the_volume_available() {
    let s = sim(
        &format!(
            "{}---\n{MYCLAIM}",
            PV3.replace("172.16.51.58.1", "172.16.51.58")
        ),
        no_default(),
        vec![op("delete pvc/test/myclaim")],
    );
    let v = pv(&s.volumes, "pv3");
    assert_eq!(v.phase, VolumePhase::Available);
    assert_eq!(v.storage.fate, Fate::Recycled);
    assert!(v.events.iter().any(|e| e.reason == Reason::VolumeRecycled));
}

/// Seed 004: a CSI volume with Delete, deleted before its claim. Without the
/// external-provisioner's finalizer its storage leaks; with it, the driver deletes it.
#[test]
fn seed_004_volume_deleted_before_its_claim() {
    let text = |finalizer: bool| {
        format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pvc-6791\n  annotations: {{pv.kubernetes.io/provisioned-by: csi.vsphere.vmware.com}}\n{}spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {{storage: 5Gi}}\n  claimRef: {{namespace: default, name: data}}\n  csi: {{driver: csi.vsphere.vmware.com, volumeHandle: 2dacf297}}\n  persistentVolumeReclaimPolicy: Delete\n  storageClassName: block\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data}}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: block\n  volumeName: pvc-6791\n  resources: {{requests: {{storage: 5Gi}}}}\n",
            if finalizer {
                "  finalizers: [kubernetes.io/pv-protection, external-provisioner.volume.kubernetes.io/finalizer]\n"
            } else {
                ""
            }
        )
    };
    for (version, finalizer, fate) in [
        ("1.23", false, Fate::Leaked),
        ("1.23", true, Fate::LeftToProvisioner),
        ("1.34", false, Fate::Leaked),
        ("1.34", true, Fate::LeftToProvisioner),
    ] {
        let s = sim(
            &text(finalizer),
            Options {
                kube_version: version.parse().unwrap(),
                ..Options::default()
            },
            vec![op("delete pv/pvc-6791"), op("delete pvc/default/data")],
        );
        // Deleting the Bound volume: Terminating, still Bound (pv-protection).
        assert_eq!(
            pv(&s.steps[1].volumes, "pvc-6791").phase,
            VolumePhase::Bound
        );
        assert!(!pv(&s.steps[1].volumes, "pvc-6791").gone);
        let v = pv(&s.volumes, "pvc-6791");
        assert_eq!(v.storage.fate, fate, "{version} finalizer {finalizer}");
    }
}

#[test]
fn seed_000_before_and_after() {
    let s = sim(
        &file("examples/seed-000-dr-migration/broken.yaml"),
        Options::default(),
        vec![],
    );
    let c = claim(&s.claims, "public-devops-teststatefulset-nginx-online-pvc");
    assert_eq!(c.phase, ClaimPhase::Lost);
    // The claim comes first in the file: synced before its volume exists, it goes Lost with
    // ClaimLost, and no ClaimMisbound follows (recorded on a real v1.34.9 control plane,
    // tests/oracle/31; ClaimMisbound only when the volume is there first).
    assert!(c.events.iter().any(|e| e.reason == Reason::ClaimLost
        && e.message == "Bound claim has lost its PersistentVolume. Data on the volume is lost!"));
    assert!(c.events.iter().all(|e| e.reason != Reason::ClaimMisbound));
    let v = pv(&s.volumes, "pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6");
    assert_eq!(v.phase, VolumePhase::Released);
    assert_eq!(v.storage.fate, Fate::LeftToProvisioner);
    assert_eq!(v.storage.by.as_deref(), Some("com.tencent.cloud.csi.cfs"));

    let s = sim(
        &file("examples/seed-000-dr-migration/fixed.yaml"),
        Options::default(),
        vec![],
    );
    let c = claim(&s.claims, "public-devops-teststatefulset-nginx-online-pvc");
    assert_eq!(c.phase, ClaimPhase::Bound);
    let v = pv(&s.volumes, "pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6");
    assert_eq!(v.phase, VolumePhase::Bound);
    assert_eq!(v.storage.fate, Fate::Kept);
}

#[test]
fn seed_002_pool_binds_smallest_first() {
    let s = sim(
        &file("examples/seed-002-statefulset-pool/fixed-pool.yaml"),
        Options::default(),
        vec![],
    );
    // All three claims exist at once here, and the volumes already exist: each takes the
    // smallest matching volume in ordinal order: pv03, pv04, then the 2Gi pv01.
    assert_eq!(
        claim(&s.claims, "www-web-0").volume.as_deref(),
        Some("pv03")
    );
    assert_eq!(
        claim(&s.claims, "www-web-1").volume.as_deref(),
        Some("pv04")
    );
    assert_eq!(
        claim(&s.claims, "www-web-2").volume.as_deref(),
        Some("pv01")
    );
    assert_eq!(
        pv(&s.volumes, "pv02").phase,
        VolumePhase::Available,
        "class test matches none"
    );
}

/// The seed's own printout (web-0→pv01, web-1→pv03, web-2→pv04) comes from its history:
/// the claims existed (Pending) before pv01..pv04 were created, and pv01 arrived first.
#[test]
fn seed_002_printout_comes_from_claims_that_existed_before_the_volumes() {
    let sts = file("examples/seed-002-statefulset-pool/fixed-pool.yaml");
    let (sts_part, pvs_part) = sts.split_at(sts.find("kind: PersistentVolume").unwrap());
    let pvs_part = format!("apiVersion: v1\n{pvs_part}");
    let sts_part = sts_part
        .trim_end()
        .trim_end_matches("apiVersion: v1")
        .trim_end()
        .trim_end_matches("---");
    // The volumes arrive one by one, in the order `kubectl apply` creates them.
    let ops: Vec<Operation> = pvs_part.split("---\n").map(apply).collect();
    // The tutorial's cluster has no StorageClass "nfs": the input is complete.
    let complete = Options {
        complete: true,
        ..Options::default()
    };
    let s = sim(sts_part, complete, ops);
    assert_eq!(
        claim(&s.steps[0].claims, "www-web-0").phase,
        ClaimPhase::Pending
    );
    assert_eq!(
        claim(&s.claims, "www-web-0").volume.as_deref(),
        Some("pv01")
    );
    assert_eq!(
        claim(&s.claims, "www-web-1").volume.as_deref(),
        Some("pv03")
    );
    assert_eq!(
        claim(&s.claims, "www-web-2").volume.as_deref(),
        Some("pv04")
    );
}

/// stateful_set_control.go, OrderedReady (the default): pod web-2 and its claim are created
/// only once web-1 is Running and Ready, which it never is while www-web-1 is Pending. As
/// recorded on a real v1.34.9 control plane (tests/oracle/07: "web-1 and data-web-1 are never
/// created").
#[test]
fn seed_002_single_volume_leaves_web_1_pending_and_web_2_never_created() {
    let s = sim(
        &file("examples/seed-002-statefulset-pool/broken-single-pv.yaml"),
        Options::default(),
        vec![],
    );
    assert_eq!(
        claim(&s.claims, "www-web-0").volume.as_deref(),
        Some("pv0003")
    );
    let c = claim(&s.claims, "www-web-1");
    assert_eq!(c.phase, ClaimPhase::Pending);
    assert!(
        c.events
            .iter()
            .any(|e| e.reason == Reason::ProvisioningFailed
                && e.message == "storageclass.storage.k8s.io \"nfs\" not found"),
        "{:?}",
        c.events
    );
    assert!(
        s.claims.iter().all(|c| c.name != "www-web-2"),
        "www-web-2 is never created"
    );
    // "nfs" names no StorageClass in the input and its static volumes use it: assumed a label.
    assert!(
        s.assumptions
            .iter()
            .any(|a| a.contains("no StorageClass nfs exists")),
        "{:?}",
        s.assumptions
    );
}

/// binder_test "1-2 - noop" (no class, no match: FailedBinding) and the DefaultStorageClass
/// admission plugin (admission_test "set a default class").
#[test]
fn seed_002_hostpath_claim_too_big_stays_pending() {
    let text = file("examples/seed-002-statefulset-pool/broken-hostpath-too-small.yaml");
    let s = sim(&text, no_default(), vec![]);
    let c = claim(&s.claims, "www-web-0");
    assert_eq!(c.phase, ClaimPhase::Pending);
    assert!(c.events.iter().any(|e| e.reason == Reason::FailedBinding));
    assert_eq!(pv(&s.volumes, "pv-0").phase, VolumePhase::Available);
    // With a default class (almost every cluster), admission gives the claim that class.
    let s = sim(
        &text,
        Options {
            default_class: Some("standard".into()),
            ..Options::default()
        },
        vec![],
    );
    let c = claim(&s.claims, "www-web-0");
    assert_eq!(c.class.as_deref(), Some("standard"));
    assert_eq!(c.class_source, ClassSource::Admission);
}

/// binder_test "4-3 - bound volume with missing claim", then delete_test: an external
/// deleter (CSI) deletes the storage.
#[test]
fn stale_uid_without_the_claim_releases_and_deletes() {
    let s = sim("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: orphan}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n  claimRef: {namespace: a, name: b, uid: \"1234\"}\n  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}\n  persistentVolumeReclaimPolicy: Delete\n", Options::default(), vec![]);
    let v = pv(&s.volumes, "orphan");
    assert_eq!(v.phase, VolumePhase::Released);
    assert_eq!(v.storage.fate, Fate::LeftToProvisioner);
}

/// findDeletablePlugin: nfs is registered but cannot delete ("no deletable volume plugin
/// matched", wrapped by doDeleteVolume); the volume goes Failed and keeps its storage.
#[test]
fn in_tree_nfs_delete_fails() {
    let s = sim("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: nfs-pv}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n  claimRef: {namespace: a, name: gone, uid: \"1234\"}\n  nfs: {server: 10.0.0.1, path: /x}\n  persistentVolumeReclaimPolicy: Delete\n", Options::default(), vec![]);
    let v = pv(&s.volumes, "nfs-pv");
    assert_eq!(v.phase, VolumePhase::Failed);
    assert_eq!(
        v.events[0].message,
        "error getting deleter volume plugin for volume \"nfs-pv\": no deletable volume plugin matched"
    );
    assert_eq!(v.storage.fate, Fate::DeleteFailed);
}

/// binder_test "1-13 - delayed binding": Normal WaitForFirstConsumer; a pod using the claim
/// lets the scheduler choose a node, and the class provisions.
#[test]
fn wait_for_first_consumer() {
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n---\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: local\n  resources: {requests: {storage: 1Gi}}\n";
    let s = sim(&format!("{sc}{pvc}"), Options::default(), vec![]);
    let c = claim(&s.claims, "c");
    assert_eq!(c.phase, ClaimPhase::Pending);
    assert_eq!(c.events[0].reason, Reason::WaitForFirstConsumer);
    let pod = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: x, image: x}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: c}}]\n";
    let s = sim(&format!("{sc}{pvc}{pod}"), Options::default(), vec![]);
    let c = claim(&s.claims, "c");
    assert_eq!(c.phase, ClaimPhase::Bound);
    let v = pv(&s.volumes, c.volume.as_deref().unwrap());
    assert_eq!(v.storage.fate, Fate::Provisioned);
    assert_eq!(v.storage.by.as_deref(), Some("rancher.io/local-path"));
}

/// Admission before 1.26 refuses a claim when several classes are default; from 1.26
/// GetDefaultClass picks the newest, then the smallest name (admission_test "two defaults
/// with same creation time, choose the one with smaller name").
#[test]
fn several_defaults_before_1_26_reject_the_claim() {
    let text = file("lint-core/tests/fixtures/multiple-default-storage-classes/bad.yaml")
        + "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let old = Options {
        kube_version: KubeVersion::new(1, 25),
        ..Options::default()
    };
    let s = sim(&text, old, vec![]);
    assert_eq!(claim(&s.claims, "c").phase, ClaimPhase::Rejected);
    let s = sim(&text, Options::default(), vec![]);
    assert_eq!(claim(&s.claims, "c").class.as_deref(), Some("gp3"));
}

/// CSI migration: kubernetes.io/aws-ebs is served by ebs.csi.aws.com (provisionClaimOperationExternal),
/// and reclaimVolume leaves migrated volumes to the driver.
#[test]
fn volumes_of_migrated_in_tree_provisioners_are_left_to_their_csi_driver() {
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: ebs}\nprovisioner: kubernetes.io/aws-ebs\n---\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: ebs\n  resources: {requests: {storage: 1Gi}}\n";
    let s = sim(
        &format!("{sc}{pvc}"),
        Options::default(),
        vec![op("delete pvc/default/c")],
    );
    let c = claim(&s.steps[0].claims, "c");
    assert!(c.events.iter().any(
        |e| e.reason == Reason::ExternalProvisioning && e.message.contains("'ebs.csi.aws.com'")
    ));
    let v = pv(&s.volumes, c.volume.as_deref().unwrap());
    assert_eq!(v.storage.fate, Fate::LeftToProvisioner);
    assert_eq!(v.storage.by.as_deref(), Some("ebs.csi.aws.com"));
}

/// provision_test "11-18 - unknown internal provisioner": Warning ProvisioningFailed
/// "no volume plugin matched name: ..."; kubernetes.io/no-provisioner takes the same path
/// in Immediate mode.
#[test]
fn unserved_in_tree_provisioners_fail() {
    for p in ["kubernetes.io/no-provisioner", "kubernetes.io/glusterfs"] {
        let text = format!("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: x}}\nprovisioner: {p}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: c}}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: x\n  resources: {{requests: {{storage: 1Gi}}}}\n");
        let s = sim(&text, Options::default(), vec![]);
        let c = claim(&s.claims, "c");
        assert_eq!(c.phase, ClaimPhase::Pending);
        assert_eq!(
            c.events[0].message,
            format!("no volume plugin matched name: {p}")
        );
    }
}

/// A class the input names but does not define is assumed to exist, for every claim: the
/// assumption does not flip once one claim got a volume of that class.
#[test]
fn assumed_classes_stay_assumed_for_every_ordinal() {
    let text = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 3\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: postgres}]}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: standard\n      resources: {requests: {storage: 1Gi}}\n";
    let s = sim(text, Options::default(), vec![]);
    for n in ["data-db-0", "data-db-1", "data-db-2"] {
        assert_eq!(claim(&s.claims, n).phase, ClaimPhase::Bound, "{n}");
    }
    assert!(s
        .assumptions
        .iter()
        .any(|a| a.contains("StorageClass standard")));
}

/// A volume deleted (`kubectl delete pv`) before its claim, per reclaim.md §4: what deletes the
/// storage once the claim is deleted too.
fn deleted_first(manifest: &str, version: &str) -> pvlint_core::VolumeOutcome {
    let claim = "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  volumeName: v\n  resources: {requests: {storage: 1Gi}}\n";
    let s = sim(
        &format!("{manifest}{claim}"),
        Options {
            kube_version: version.parse().unwrap(),
            ..Options::default()
        },
        vec![op("delete pv/v"), op("delete pvc/default/data")],
    );
    // pv-protection: Terminating while Bound (pv_protection_controller isBeingUsed).
    let held = pv(&s.steps[1].volumes, "v");
    assert!(held.terminating && !held.gone, "{version}: {held:?}");
    assert_eq!(held.phase, VolumePhase::Bound);
    pv(&s.volumes, "v").clone()
}

fn volume(annotations: &str, finalizers: &str, policy: &str, source: &str) -> String {
    format!(
        "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: v\n  annotations: {{{annotations}}}\n  finalizers: [{finalizers}]\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {{storage: 1Gi}}\n  storageClassName: \"\"\n  claimRef: {{namespace: default, name: data}}\n  persistentVolumeReclaimPolicy: {policy}\n  {source}\n"
    )
}

/// deleteVolumeOperation: with HonorPVReclaimPolicy off it returns for a volume being deleted
/// ("Volume is already being deleted", delete_test "8-13" of the gate-off era), so a static
/// CSI volume is left Released, and the external-provisioner (sig-storage-lib shouldDelete:
/// Released, Delete, its finalizer present) deletes it: seed 004's fix on 1.23.
#[test]
fn static_csi_volume_with_the_external_finalizer_is_deleted_even_when_deleted_first() {
    let csi = "csi: {driver: csi.vsphere.vmware.com, volumeHandle: h}";
    let with = volume(
        "",
        "kubernetes.io/pv-protection, external-provisioner.volume.kubernetes.io/finalizer",
        "Delete",
        csi,
    );
    for v in ["1.23", "1.34"] {
        let out = deleted_first(&with, v);
        assert_eq!(out.storage.fate, Fate::LeftToProvisioner, "{v}");
        assert_eq!(out.storage.by.as_deref(), Some("csi.vsphere.vmware.com"));
        let without = deleted_first(&volume("", "kubernetes.io/pv-protection", "Delete", csi), v);
        assert_eq!(without.storage.fate, Fate::Leaked, "{v}");
    }
    // On 1.31+ the prediction says what it assumes about the external-provisioner.
    let out = deleted_first(
        &volume("", "kubernetes.io/pv-protection", "Delete", csi),
        "1.34",
    );
    assert!(
        out.why.contains(
            "assumed: the manifest has no external-provisioner.volume.kubernetes.io/finalizer"
        ),
        "{}",
        out.why
    );
}

/// modifyDeletionFinalizers (pv_controller_test "13-3 ... does not have in-tree pv deletion
/// protection finalizer"): with the gate on, an in-tree provisioned volume with Delete gets
/// kubernetes.io/pv-controller, and deleteVolumeOperation deletes it although it is being
/// deleted (delete_test "8-13 - volume has deletion timestamp and processed"); with the gate
/// off it is skipped and the storage stays.
#[test]
fn in_tree_provisioned_volume_deleted_first_follows_honor_pv_reclaim_policy() {
    let pv = volume(
        "pv.kubernetes.io/provisioned-by: kubernetes.io/host-path",
        "kubernetes.io/pv-protection",
        "Delete",
        "hostPath: {path: /tmp/hostpath_pv/v}",
    );
    let on = deleted_first(&pv, "1.34");
    assert_eq!(on.storage.fate, Fate::Deleted);
    assert!(on.gone);
    let off = deleted_first(&pv, "1.30");
    assert_eq!(off.storage.fate, Fate::Leaked);
    assert!(off.gone);
    // A plugin that is gone (glusterfs, removed in 1.26): the finalizer is added anyway, the
    // deleter fails, and the object stays Terminating (reclaim.md §4, modifyDeletionFinalizers
    // does not check the plugin is registered).
    let gone = volume(
        "pv.kubernetes.io/provisioned-by: kubernetes.io/glusterfs",
        "kubernetes.io/pv-protection",
        "Delete",
        "glusterfs: {endpoints: gfs, path: vol}",
    );
    let stuck = deleted_first(&gone, "1.34");
    assert_eq!(stuck.storage.fate, Fate::DeleteFailed);
    assert!(stuck.terminating && !stuck.gone, "{stuck:?}");
    assert_eq!(stuck.phase, VolumePhase::Failed);
}

/// modifyDeletionFinalizers: a CSI-migrated in-tree plugin loses kubernetes.io/pv-controller
/// ("13-7 migration is enabled, volume has both ..."), and reclaimVolume returns at once for
/// pv.kubernetes.io/migrated-to, which kube-controller-manager sets from provisioned-by: the
/// CSI driver deletes only while its own finalizer holds the object.
#[test]
fn migrated_in_tree_volume_deleted_first_needs_the_external_finalizer() {
    let ebs = "awsElasticBlockStore: {volumeID: vol-1}";
    let only_kcm = volume(
        "pv.kubernetes.io/provisioned-by: kubernetes.io/aws-ebs",
        "kubernetes.io/pv-protection, kubernetes.io/pv-controller",
        "Delete",
        ebs,
    );
    assert_eq!(deleted_first(&only_kcm, "1.34").storage.fate, Fate::Leaked);
    let external = volume(
        "pv.kubernetes.io/provisioned-by: kubernetes.io/aws-ebs",
        "kubernetes.io/pv-protection, external-provisioner.volume.kubernetes.io/finalizer",
        "Delete",
        ebs,
    );
    let out = deleted_first(&external, "1.34");
    assert_eq!(out.storage.fate, Fate::LeftToProvisioner);
    assert_eq!(out.storage.by.as_deref(), Some("ebs.csi.aws.com"));
}

/// "13-14 ... has in-tree finalizer, Retain": kube-controller-manager removes
/// kubernetes.io/pv-controller from a Retain volume, so deleting it does not hang.
#[test]
fn retain_volume_loses_the_in_tree_finalizer() {
    let pv = volume(
        "pv.kubernetes.io/provisioned-by: kubernetes.io/host-path",
        "kubernetes.io/pv-protection, kubernetes.io/pv-controller",
        "Retain",
        "hostPath: {path: /tmp/hostpath_pv/v}",
    );
    let out = deleted_first(&pv, "1.34");
    assert!(out.gone);
    assert_eq!(out.storage.fate, Fate::Kept);
}

/// RetroactiveDefaultStorageClass (GA in 1.28): a default class created later is written into
/// claims created without a class (pv_controller.go `assignDefaultStorageClass` in
/// syncUnboundClaim), never into claims with `storageClassName: ""`
/// (pv_controller_test.go TestRetroactiveStorageClassAssignment: "no-sc-class" keeps "").
#[test]
fn a_default_class_created_later_is_given_to_claims_without_one() {
    let claims = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: unset, namespace: app}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: empty, namespace: app}\nspec:\n  storageClassName: \"\"\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let default = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: ebs.csi.aws.com\n";
    let s = sim(
        claims,
        Options {
            complete: true,
            ..Options::default()
        },
        vec![apply(default)],
    );
    let before = &s.steps[0].claims;
    assert_eq!(claim(before, "unset").class, None);
    assert_eq!(claim(before, "unset").phase, ClaimPhase::Pending);
    let after = &s.steps[1].claims;
    let unset = claim(after, "unset");
    assert_eq!(unset.class.as_deref(), Some("standard"));
    assert_eq!(unset.class_source, ClassSource::Retroactive);
    assert_eq!(unset.phase, ClaimPhase::Bound);
    let empty = claim(after, "empty");
    assert_eq!(empty.class.as_deref(), Some(""));
    assert_eq!(empty.phase, ClaimPhase::Pending);
}

/// `scale sts` and `delete sts` follow persistentVolumeClaimRetentionPolicy (oracle cases
/// 08–11 hold the recorded outcomes): whenScaled Retain keeps the claims of a scale-down
/// Bound; a scale-up reuses them; whenDeleted Delete deletes every claim with the set.
#[test]
fn statefulset_scale_and_delete_follow_the_retention_policy() {
    let m = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Retain\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, namespace: app}\nspec:\n  serviceName: web\n  replicas: 3\n  podManagementPolicy: Parallel\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Retain, whenDeleted: Delete}\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: fast\n      resources: {requests: {storage: 1Gi}}\n";
    let s = sim(
        m,
        Options {
            complete: true,
            ..Options::default()
        },
        vec![
            op("scale sts/app/web 1"),
            op("scale sts/app/web --replicas=4"),
            op("delete statefulset/app/web"),
        ],
    );
    let names = |claims: &[ClaimOutcome]| {
        let mut v: Vec<String> = claims
            .iter()
            .map(|c| format!("{} {:?}", c.name, c.phase))
            .collect();
        v.sort();
        v
    };
    let bound = |n: usize| {
        (0..n)
            .map(|i| format!("data-web-{i} Bound"))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&s.steps[1].claims), bound(3), "Retain keeps them");
    let step2 = &s.steps[2].claims;
    assert_eq!(
        names(step2),
        bound(4),
        "a scale-up reuses the retained claims"
    );
    // The retained claims kept their volumes: only data-web-3's is new.
    assert_eq!(s.steps[2].volumes.len(), 4);
    assert!(s.steps[3].claims.is_empty(), "whenDeleted: Delete");
    let released: Vec<_> = s.steps[3]
        .volumes
        .iter()
        .map(|v| (v.phase, v.storage.fate))
        .collect();
    assert_eq!(released, vec![(VolumePhase::Released, Fate::Kept); 4]);
    // Unknown StatefulSets are errors that name what is missing.
    let e = api::simulate(&Request {
        sources: vec![Source::new("m.yaml", m)],
        operations: vec![op("scale sts/app/nope 1")],
        ..Request::default()
    })
    .unwrap_err();
    assert!(e.contains("there is no StatefulSet app/nope"), "{e}");
    assert!("scale sts/app/web -1".parse::<Operation>().is_err());
    assert!("scale pvc/app/web 1".parse::<Operation>().is_err());
}

/// Before 1.27 the StatefulSetAutoDeletePVC gate is off by default (alpha in 1.23, beta and on
/// in 1.27): the API server drops `persistentVolumeClaimRetentionPolicy`
/// (dropStatefulSetDisabledFields) and the controller keeps every claim. A policy that deletes
/// data on 1.34 does nothing on 1.26, and an invalid value is not rejected there.
#[test]
fn claim_retention_needs_the_feature_gate() {
    let m = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, namespace: app}\nspec:\n  serviceName: web\n  replicas: 2\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n      resources: {requests: {storage: 1Gi}}\n";
    let invalid = m.replace("whenScaled: Delete", "whenScaled: Nope");
    let rules_of = |m: &str, version: &str| {
        let report = api::lint(&Request {
            sources: vec![Source::new("m.yaml", m)],
            options: Options {
                kube_version: version.parse().unwrap(),
                ..Options::default()
            },
            ..Request::default()
        });
        let mut v: Vec<String> = report
            .findings
            .iter()
            .map(|f| f.rule.to_string())
            .filter(|r| r == "retention-deletes-data" || r == "invalid-field-value")
            .collect();
        v.sort();
        v
    };
    for v in ["1.34", "1.27"] {
        assert_eq!(rules_of(m, v), ["retention-deletes-data"], "{v}");
        assert_eq!(rules_of(&invalid, v), ["invalid-field-value"], "{v}");
    }
    assert!(rules_of(m, "1.26").is_empty());
    assert!(rules_of(&invalid, "1.26").is_empty());
}

/// findBestMatchForClaim (pkg/controller/volume/persistentvolume/index.go) takes the smallest
/// volume that fits; any of several equal ones may be chosen. A pool of hundreds of equal
/// volumes names ten of them and says there are others, for each claim it serves: the search
/// stops there (issue 34: a static pool of 40,000 volumes took seconds more per doubling).
#[test]
fn a_pool_of_many_equal_volumes_names_ten_and_says_there_are_others() {
    let mut text = String::new();
    for i in 0..25 {
        text.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{i:02}\nspec:\n  capacity:\n    storage: 1Gi\n  accessModes: [ReadWriteOnce]\n  storageClassName: manual\n  nfs:\n    server: 10.0.0.1\n    path: /export/{i}\n---\n"
        ));
    }
    text.push_str("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n  namespace: default\nspec:\n  storageClassName: manual\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n");
    let s = sim(&text, Options::default(), Vec::new());
    let c = claim(&s.claims, "data");
    assert_eq!(c.phase, ClaimPhase::Bound, "{}", c.why);
    let link = c.link.as_ref().expect("a link to its volume");
    assert_eq!(link.tied.len(), 10, "{:?}", link.tied);
    assert!(
        c.why.contains(" and others, equally good"),
        "the explanation says more are as good: {}",
        c.why
    );

    // Three equal volumes: all named, no "others".
    let few: String = text
        .split("---\n")
        .skip(22)
        .collect::<Vec<_>>()
        .join("---\n");
    let s = sim(&few, Options::default(), Vec::new());
    let c = claim(&s.claims, "data");
    assert_eq!(c.link.as_ref().unwrap().tied.len(), 2, "{}", c.why);
    assert!(!c.why.contains("others"), "{}", c.why);
}

/// stateful_set_control.go (OrderedReady): pod N and its claims are created only once pod N-1
/// is Running and Ready, which it is not while its claim is Pending. A pool of 2 fitting
/// volumes for 5 replicas: ordinals 0 and 1 bind, 2 stays Pending, 3 and 4 are not created;
/// a volume applied later lets 2 bind, which creates 3 (Pending: the pool is empty), and 4
/// waits for it. With Parallel, every claim is created and the last three stay Pending.
#[test]
fn an_ordered_ready_statefulset_creates_each_ordinal_once_the_one_before_is_bound() {
    fn pool_pv(name: &str) -> String {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {name}\nspec:\n  storageClassName: pool\n  accessModes: [ReadWriteOnce]\n  capacity:\n    storage: 1Gi\n  hostPath:\n    path: /data/{name}\n")
    }
    let sts = |policy: &str| {
        format!("apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n  namespace: default\nspec:\n  serviceName: db\n  replicas: 5\n  podManagementPolicy: {policy}\n  selector:\n    matchLabels: {{app: db}}\n  template:\n    metadata:\n      labels: {{app: db}}\n    spec:\n      containers:\n      - name: db\n        image: postgres:16\n  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      storageClassName: pool\n      accessModes: [ReadWriteOnce]\n      resources:\n        requests:\n          storage: 1Gi\n")
    };
    let text = format!(
        "{}---\n{}---\n{}",
        pool_pv("a"),
        pool_pv("b"),
        sts("OrderedReady")
    );
    let phases = |claims: &[ClaimOutcome]| -> Vec<(String, ClaimPhase)> {
        claims.iter().map(|c| (c.name.clone(), c.phase)).collect()
    };
    let s = sim(&text, no_default(), vec![]);
    assert_eq!(
        phases(&s.claims),
        vec![
            ("data-db-0".to_string(), ClaimPhase::Bound),
            ("data-db-1".to_string(), ClaimPhase::Bound),
            ("data-db-2".to_string(), ClaimPhase::Pending),
        ],
        "{:#?}",
        s.claims
    );
    let not_created: Vec<&str> = s.not_created.iter().map(|n| n.claim.as_str()).collect();
    assert_eq!(not_created, ["default/data-db-3", "default/data-db-4"]);
    assert!(s.not_created[0]
        .why
        .contains("only once db-2 is Running and Ready"));

    let s = sim(&text, no_default(), vec![apply(&pool_pv("c"))]);
    let after = s.steps.last().unwrap();
    assert_eq!(
        phases(&after.claims),
        vec![
            ("data-db-0".to_string(), ClaimPhase::Bound),
            ("data-db-1".to_string(), ClaimPhase::Bound),
            ("data-db-2".to_string(), ClaimPhase::Bound),
            ("data-db-3".to_string(), ClaimPhase::Pending),
        ],
        "{:#?}",
        after.claims
    );
    let not_created: Vec<&str> = s.not_created.iter().map(|n| n.claim.as_str()).collect();
    assert_eq!(not_created, ["default/data-db-4"]);

    let text = format!(
        "{}---\n{}---\n{}",
        pool_pv("a"),
        pool_pv("b"),
        sts("Parallel")
    );
    let s = sim(&text, no_default(), vec![]);
    assert!(s.not_created.is_empty(), "{:#?}", s.not_created);
    let pending: Vec<&str> = s
        .claims
        .iter()
        .filter(|c| c.phase == ClaimPhase::Pending)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(pending.len(), 3, "{:#?}", s.claims);
}

/// Issue 37 class 7, from pv_controller.go syncUnboundClaim with spec.volumeName: a claim that
/// names a volume too small for it, which another claim of the apply then takes, records
/// VolumeMismatch (its first sync) and then FailedBinding ("already bound to a different
/// claim"); a claim that names a Released volume the deleter removes in the same apply records
/// FailedBinding only if it is synced before the deletion (a real cluster recorded none), so
/// the event is on the way, and the claim waits for a volume of that name without an event.
#[test]
fn events_of_a_named_volume_that_is_taken_or_deleted() {
    let taken = sim(
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: small}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], storageClassName: \"\", hostPath: {path: /tmp/x/small}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: named, namespace: default}\nspec: {accessModes: [ReadWriteOnce], storageClassName: \"\", volumeName: small, resources: {requests: {storage: 2Gi}}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: other, namespace: default}\nspec: {accessModes: [ReadWriteOnce], storageClassName: \"\", resources: {requests: {storage: 1Gi}}}\n",
        Options::default(),
        vec![],
    );
    let reasons: Vec<(Reason, bool)> = claim(&taken.claims, "named")
        .events
        .iter()
        .map(|e| (e.reason, e.transient))
        .collect();
    assert_eq!(
        reasons,
        [
            (Reason::VolumeMismatch, false),
            (Reason::FailedBinding, false)
        ]
    );
    let deleted = sim(
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: old}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], storageClassName: \"\", persistentVolumeReclaimPolicy: Delete, hostPath: {path: /tmp/x/old}, claimRef: {namespace: default, name: gone, uid: 11111111-2222-3333-4444-555555555555}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: wants, namespace: default}\nspec: {accessModes: [ReadWriteOnce], storageClassName: \"\", volumeName: old, resources: {requests: {storage: 1Gi}}}\n",
        Options {
            hostpath_provisioner: true,
            ..Options::default()
        },
        vec![],
    );
    let wants = claim(&deleted.claims, "wants");
    assert_eq!(wants.phase, ClaimPhase::Pending);
    let reasons: Vec<(Reason, bool)> = wants
        .events
        .iter()
        .map(|e| (e.reason, e.transient))
        .collect();
    assert_eq!(reasons, [(Reason::FailedBinding, true)]);
}
