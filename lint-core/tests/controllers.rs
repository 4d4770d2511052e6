//! Objects that controllers of this cluster write must not look like imports. The
//! external-provisioner's PV for a Pending claim carries every signal of a volume copied from
//! another cluster (provisioned-by, a pvc-<uid> name, claimRef.uid, Delete), yet names this
//! cluster's claim by its UID (csi-provisioner controller.go, ProvisionExt / the PV it builds).
//! The same files are the admission fixture `provisioner-creates-pv`, where a false finding
//! would refuse every dynamically provisioned volume.

use std::path::Path;

use pvlint_core::{api, Request, Source};

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../wasm/kubewarden/tests/fixtures/provisioner-creates-pv")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn request(cluster: &str) -> Request {
    let review: serde_json::Value = serde_json::from_str(&fixture("request.json")).unwrap();
    let pv = review["request"]["object"].to_string();
    Request {
        sources: vec![Source::new("pv.json", pv)],
        cluster: vec![Source::new("cluster.yaml", cluster)],
        ..Request::default()
    }
}

#[test]
fn the_provisioners_volume_for_a_claim_of_this_cluster_is_no_import() {
    let report = api::lint(&request(&fixture("cluster.yaml")));
    let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, Vec::<&str>::new(), "{:#?}", report.findings);
}

#[test]
fn the_same_volume_against_a_claim_with_another_uid_is_one() {
    // The claim here has another UID: the volume comes from elsewhere (seed 000).
    let cluster = fixture("cluster.yaml").replace(
        "uid: 7f3e2a91-5b6c-4d8e-9f0a-1b2c3d4e5f60",
        "uid: 00000000-1111-4222-8333-444444444444",
    );
    let report = api::lint(&request(&cluster));
    let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.as_str()).collect();
    assert!(
        rules.contains(&"delete-policy-on-imported-volume"),
        "{rules:?}"
    );
    assert!(rules.contains(&"stale-claim-ref-uid"), "{rules:?}");
}

/// Kubewarden's audit scanner sends every existing object as a CREATE; a Retain volume whose
/// claim was deleted (Released) still names that claim's UID. It is this cluster's own volume
/// (same name and metadata.uid in the cluster state), not a copy from another cluster.
#[test]
fn the_clusters_own_released_volume_is_not_stale() {
    let pv = "apiVersion: v1
kind: PersistentVolume
metadata:
  name: pvc-11111111-2222-4333-8444-555555555555
  uid: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
  annotations:
    pv.kubernetes.io/provisioned-by: ebs.csi.aws.com
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 10Gi}
  claimRef: {kind: PersistentVolumeClaim, namespace: shop, name: data-db-0, uid: 11111111-2222-4333-8444-555555555555}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0a1b2c3d4e5f67890}
  persistentVolumeReclaimPolicy: Retain
  storageClassName: gp3
status:
  phase: Released
";
    let run = |manifest: &str| {
        let report = api::lint(&Request {
            sources: vec![Source::new("pv.yaml", manifest)],
            cluster: vec![Source::new("cluster.yaml", pv)],
            ..Request::default()
        });
        report
            .findings
            .iter()
            .map(|f| f.rule.clone())
            .collect::<Vec<_>>()
    };
    let own = run(pv);
    assert!(!own.iter().any(|r| r == "stale-claim-ref-uid"), "{own:?}");
    // The same volume under another metadata.uid is a copy: its claimRef.uid is stale.
    let copy = run(&pv.replace("uid: 9a8b7c6d", "uid: 0b8b7c6d"));
    assert!(copy.iter().any(|r| r == "stale-claim-ref-uid"), "{copy:?}");
}
