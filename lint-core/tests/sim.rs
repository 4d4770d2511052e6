//! The binding simulator against the seed scenarios, step by step.

use pvlint_core::index::Index;
use pvlint_core::sim::{self, ClaimPhase, Storage, VolumePhase, World};
use pvlint_core::{Options, Source};

fn ix(text: &str) -> Index {
    Index::build(&[Source::new("m.yaml", text)])
}

fn file(rel: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(rel),
    )
    .unwrap()
}

fn claim<'a>(w: &'a World, name: &str) -> &'a sim::SimPvc {
    w.claims
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no claim {name}"))
}

fn pv<'a>(w: &'a World, name: &str) -> &'a sim::SimPv {
    w.pvs
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no volume {name}"))
}

const PV3: &str = "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv3\nspec:\n  accessModes: [ReadWriteOnce, ReadWriteMany, ReadOnlyMany]\n  capacity:\n    storage: 5Gi\n  nfs:\n    path: /var/nfsshare/v1\n    server: 172.16.51.58.1\n  persistentVolumeReclaimPolicy: Recycle\n";
const MYCLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: myclaim\n  namespace: test\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 5Gi\n";

/// Seed 001 (on a 2017 cluster: no default StorageClass).
#[test]
fn seed_001_phase_transitions_step_by_step() {
    let opts = Options {
        default_class: Some(String::new()),
        ..Options::default()
    };
    let mut w = World::new(&opts);
    // 1. Add the PV: Available.
    w.apply(&ix(PV3));
    w.run();
    assert_eq!(pv(&w, "pv3").phase, VolumePhase::Available);
    // 2. Add the PVC: both Bound.
    w.apply(&ix(MYCLAIM));
    w.run();
    assert_eq!(claim(&w, "myclaim").phase, ClaimPhase::Bound);
    assert_eq!(claim(&w, "myclaim").volume_name.as_deref(), Some("pv3"));
    assert_eq!(pv(&w, "pv3").phase, VolumePhase::Bound);
    // 3. Delete the PV: the claim is Lost (ClaimLost).
    w.delete_pv("pv3");
    w.run();
    let c = claim(&w, "myclaim");
    assert_eq!(c.phase, ClaimPhase::Lost);
    assert!(c.events.iter().any(|e| e.reason == "ClaimLost"
        && e.message == "Bound claim has lost its PersistentVolume. Data on the volume is lost!"));
    // 4. Add the PV again: the bound claim re-binds a volume without claimRef.
    w.apply(&ix(PV3));
    w.run();
    assert_eq!(claim(&w, "myclaim").phase, ClaimPhase::Bound);
    assert_eq!(pv(&w, "pv3").phase, VolumePhase::Bound);
    // 5.+6. Delete the PVC: Released, then Recycle fails on the bad NFS server: Failed.
    w.delete_claim("test", "myclaim");
    w.run();
    let v = pv(&w, "pv3");
    assert_eq!(v.phase, VolumePhase::Failed);
    assert!(
        v.events.iter().any(|e| e.reason == "VolumeFailedRecycle"),
        "{:?}",
        v.events
    );
    assert!(v.claim_ref.is_some(), "a Failed volume keeps its claimRef");
    // 7. The admin removes claimRef: Available.
    w.clear_claim_ref("pv3");
    w.run();
    assert_eq!(pv(&w, "pv3").phase, VolumePhase::Available);
}

/// Released with a good server: the recycler wipes it and it is Available again.
#[test]
fn recycle_with_a_reachable_server_makes_the_volume_available() {
    let mut w = World::new(&Options {
        default_class: Some(String::new()),
        ..Options::default()
    });
    w.apply(&ix(&PV3.replace("172.16.51.58.1", "172.16.51.58")));
    w.apply(&ix(MYCLAIM));
    w.run();
    w.delete_claim("test", "myclaim");
    w.run();
    let v = pv(&w, "pv3");
    assert_eq!(v.phase, VolumePhase::Available);
    assert_eq!(v.storage, Storage::Recycled);
}

#[test]
fn seed_000_before_and_after() {
    let before = ix(&file("examples/seed-000-dr-migration/broken.yaml"));
    let w = sim::simulate(&Index::default(), &before, &Options::default());
    let c = claim(&w, "public-devops-teststatefulset-nginx-online-pvc");
    assert_eq!(c.phase, ClaimPhase::Lost);
    assert!(c.events.iter().any(|e| e.reason == "ClaimMisbound"
        && e.message == "Two claims are bound to the same volume, this one is bound incorrectly"));
    let v = pv(&w, "pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6");
    assert_eq!(v.phase, VolumePhase::Released);
    assert_eq!(
        v.storage,
        Storage::LeftToProvisioner {
            provisioner: "com.tencent.cloud.csi.cfs".into()
        }
    );

    let after = ix(&file("examples/seed-000-dr-migration/fixed.yaml"));
    let w = sim::simulate(&Index::default(), &after, &Options::default());
    let c = claim(&w, "public-devops-teststatefulset-nginx-online-pvc");
    assert_eq!(c.phase, ClaimPhase::Bound);
    let v = pv(&w, "pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6");
    assert_eq!(v.phase, VolumePhase::Bound);
    assert_eq!(v.storage, Storage::Kept);
}

#[test]
fn seed_002_pool_binds_smallest_first() {
    let m = ix(&file("examples/seed-002-statefulset-pool/fixed-pool.yaml"));
    let w = sim::simulate(&Index::default(), &m, &Options::default());
    // All three claims exist at once here, and the volumes already exist: each takes the
    // smallest matching volume in ordinal order — pv03, pv04, then the 2Gi pv01.
    assert_eq!(claim(&w, "www-web-0").volume_name.as_deref(), Some("pv03"));
    assert_eq!(claim(&w, "www-web-1").volume_name.as_deref(), Some("pv04"));
    assert_eq!(claim(&w, "www-web-2").volume_name.as_deref(), Some("pv01"));
    assert_eq!(
        pv(&w, "pv02").phase,
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
    let mut w = World::new(&Options::default());
    w.apply(&ix(sts_part));
    w.run();
    assert_eq!(claim(&w, "www-web-0").phase, ClaimPhase::Pending);
    // The volumes arrive one by one, in the order `kubectl apply` creates them.
    for doc in pvs_part.split("---\n") {
        w.apply(&ix(doc));
        w.run();
    }
    assert_eq!(claim(&w, "www-web-0").volume_name.as_deref(), Some("pv01"));
    assert_eq!(claim(&w, "www-web-1").volume_name.as_deref(), Some("pv03"));
    assert_eq!(claim(&w, "www-web-2").volume_name.as_deref(), Some("pv04"));
}

#[test]
fn seed_002_single_volume_leaves_web_1_and_web_2_pending() {
    let m = ix(&file(
        "examples/seed-002-statefulset-pool/broken-single-pv.yaml",
    ));
    let w = sim::simulate(&Index::default(), &m, &Options::default());
    assert_eq!(
        claim(&w, "www-web-0").volume_name.as_deref(),
        Some("pv0003")
    );
    for name in ["www-web-1", "www-web-2"] {
        let c = claim(&w, name);
        assert_eq!(c.phase, ClaimPhase::Pending, "{name}");
        assert!(
            c.events.iter().any(|e| e.reason == "ProvisioningFailed"
                && e.message == "storageclass.storage.k8s.io \"nfs\" not found"),
            "{:?}",
            c.events
        );
    }
}

#[test]
fn seed_002_hostpath_claim_too_big_stays_pending() {
    let m = ix(&file(
        "examples/seed-002-statefulset-pool/broken-hostpath-too-small.yaml",
    ));
    // No default class in this cluster: the claim stays unset and only the class-less volume could match.
    let w = sim::simulate(
        &Index::default(),
        &m,
        &Options {
            default_class: Some(String::new()),
            ..Options::default()
        },
    );
    let c = claim(&w, "www-web-0");
    assert_eq!(c.phase, ClaimPhase::Pending);
    assert!(c.events.iter().any(|e| e.reason == "FailedBinding"));
    assert_eq!(pv(&w, "pv-0").phase, VolumePhase::Available);
    // With a default class (almost every cluster), admission gives the claim that class.
    let w = sim::simulate(
        &Index::default(),
        &m,
        &Options {
            default_class: Some("standard".into()),
            ..Options::default()
        },
    );
    let c = claim(&w, "www-web-0");
    assert_eq!(c.class.as_deref(), Some("standard"));
    assert!(
        c.reasons[0].contains("DefaultStorageClass admission"),
        "{:?}",
        c.reasons
    );
}

#[test]
fn stale_uid_without_the_claim_releases_and_deletes() {
    // The volume was exported without its claim: the claim is "not found", Released, Delete runs.
    let m = ix("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: orphan}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n  claimRef: {namespace: a, name: b, uid: \"1234\"}\n  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}\n  persistentVolumeReclaimPolicy: Delete\n");
    let w = sim::simulate(&Index::default(), &m, &Options::default());
    let v = pv(&w, "orphan");
    assert_eq!(v.phase, VolumePhase::Released);
    assert!(v.storage.is_deleted());
}

#[test]
fn in_tree_nfs_delete_fails() {
    let m = ix("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: nfs-pv}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n  claimRef: {namespace: a, name: gone, uid: \"1234\"}\n  nfs: {server: 10.0.0.1, path: /x}\n  persistentVolumeReclaimPolicy: Delete\n");
    let w = sim::simulate(&Index::default(), &m, &Options::default());
    let v = pv(&w, "nfs-pv");
    assert_eq!(v.phase, VolumePhase::Failed);
    assert_eq!(
        v.events[0].message,
        "error getting deleter volume plugin for volume \"nfs-pv\": no volume plugin matched"
    );
    assert_eq!(v.storage, Storage::Kept);
}

#[test]
fn wait_for_first_consumer() {
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n---\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: local\n  resources: {requests: {storage: 1Gi}}\n";
    let w = sim::simulate(
        &Index::default(),
        &ix(&format!("{sc}{pvc}")),
        &Options::default(),
    );
    let c = claim(&w, "c");
    assert_eq!(c.phase, ClaimPhase::Pending);
    assert_eq!(c.events[0].reason, "WaitForFirstConsumer");
    let pod = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: x, image: x}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: c}}]\n";
    let w = sim::simulate(
        &Index::default(),
        &ix(&format!("{sc}{pvc}{pod}")),
        &Options::default(),
    );
    let c = claim(&w, "c");
    assert_eq!(c.phase, ClaimPhase::Bound);
    assert!(
        matches!(&pv(&w, c.volume_name.as_deref().unwrap()).storage, Storage::Provisioned { provisioner } if provisioner == "rancher.io/local-path")
    );
}

#[test]
fn several_defaults_before_1_26_reject_the_claim() {
    let text = file("lint-core/tests/fixtures/multiple-default-storage-classes/bad.yaml")
        + "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let old = Options {
        kube_version: pvlint_core::KubeVersion::new(1, 25),
        ..Options::default()
    };
    let w = sim::simulate(&Index::default(), &ix(&text), &old);
    assert_eq!(w.rejected.len(), 1);
    let w = sim::simulate(&Index::default(), &ix(&text), &Options::default());
    // Created together: same creationTimestamp, so the name decides: "gp3" < "standard".
    assert_eq!(claim(&w, "c").class.as_deref(), Some("gp3"));
}

#[test]
fn volumes_of_in_tree_provisioners_are_reclaimed_by_their_source_type() {
    // kubernetes.io/aws-ebs creates awsElasticBlockStore volumes, which CSI migration serves:
    // when the claim goes, the EBS CSI driver deletes the disk (not an in-tree deleter).
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: ebs}\nprovisioner: kubernetes.io/aws-ebs\n---\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: ebs\n  resources: {requests: {storage: 1Gi}}\n";
    let mut w = World::new(&Options::default());
    w.apply(&ix(&format!("{sc}{pvc}")));
    w.run();
    let v = claim(&w, "c").volume_name.clone().expect("provisioned");
    assert_eq!(pv(&w, &v).source_kind, "awsElasticBlockStore");
    w.delete_claim("default", "c");
    w.run();
    assert!(
        matches!(&pv(&w, &v).storage, Storage::LeftToProvisioner { provisioner } if provisioner.contains("awsElasticBlockStore")),
        "{:?}",
        pv(&w, &v).storage
    );
}
