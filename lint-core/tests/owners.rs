//! Claims whose ownerReferences name owners by UID (`stale-owner-reference`): the facts of the
//! garbage collector, pkg/controller/garbagecollector/garbagecollector.go.
//! - `isDangling`: an owner is looked up by kind and name (in the dependent's namespace when
//!   the kind is namespaced); not found, or found with another UID, it is dangling.
//! - `attemptToDeleteItem`: with at least one solid owner the object stays ("item has at least
//!   one existing owner, will not garbage collect") and only the dangling references are
//!   patched away; with every owner dangling, the object is deleted (the default case).
//! - `apiResource` fails for a kind the cluster does not serve: the item is retried, not deleted.
//! - objectmeta.go `validateOwnerReference`: apiVersion, kind, name and uid must not be empty,
//!   or the API server rejects the object.

use pvlint_core::{api, Finding, Options, Report, Request, Severity, Source, StorageFate};

const OWNED: &str = "apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data-db-0
  namespace: shop
  uid: 0b6d2f4e-5a71-4c39-9e8d-3c2b1a0f9e87
  ownerReferences:
    - apiVersion: apps/v1
      kind: StatefulSet
      name: db
      uid: 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44
      controller: true
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  volumeName: pv-db-0
  resources:
    requests:
      storage: 20Gi
";

/// The volume the exported claim names, re-created by name (claimRef without uid).
fn volume(policy: &str) -> String {
    format!(
        "apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-db-0
spec:
  accessModes: [ReadWriteOnce]
  capacity:
    storage: 20Gi
  storageClassName: manual
  persistentVolumeReclaimPolicy: {policy}
  claimRef:
    namespace: shop
    name: data-db-0
  csi:
    driver: ebs.csi.aws.com
    volumeHandle: vol-0a1b2c3d
"
    )
}

fn statefulset(uid: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: shop
  uid: {uid}
spec:
  serviceName: db
  selector:
    matchLabels: {{app: db}}
  template:
    metadata:
      labels: {{app: db}}
    spec:
      containers:
        - name: db
          image: postgres:16
"
    )
}

/// The claim with its owner's uid written as `uid` (YAML, quotes included).
fn with_owner_uid(uid: &str) -> String {
    OWNED.replace(
        "      uid: 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44\n",
        &format!("      uid: {uid}\n"),
    )
}

/// The claim with a second owner, a ConfigMap.
fn two_owners() -> String {
    OWNED.replace(
        "      controller: true\n",
        "      controller: true\n    - apiVersion: v1\n      kind: ConfigMap\n      name: keep\n      uid: 11111111-2222-4333-8444-555555555555\n",
    )
}

/// The claim owned by a CloudNativePG Cluster (a custom kind).
fn owned_by_cnpg() -> String {
    OWNED.replace(
        "apiVersion: apps/v1\n      kind: StatefulSet",
        "apiVersion: postgresql.cnpg.io/v1\n      kind: Cluster",
    )
}

fn lint(manifests: &[&str], cluster: &[&str], options: Options) -> Report {
    api::lint(&Request {
        sources: vec![Source::new("m.yaml", manifests.join("---\n"))],
        cluster: if cluster.is_empty() {
            Vec::new()
        } else {
            vec![Source::new("live.yaml", cluster.join("---\n"))]
        },
        options,
        ..Request::default()
    })
}

fn owner_findings(r: &Report) -> Vec<&Finding> {
    r.findings
        .iter()
        .filter(|f| f.rule == "stale-owner-reference")
        .collect()
}

fn the_finding(r: &Report) -> &Finding {
    let found = owner_findings(r);
    assert_eq!(found.len(), 1, "{:#?}", r.findings);
    found[0]
}

/// Without the cluster, the owner's absence is the one assumption: a warning, and the volume
/// the claim is bound to goes with it (reclaimPolicy Delete).
#[test]
fn a_copied_owner_uid_deletes_the_claim_and_its_volume() {
    let pv = volume("Delete");
    let r = lint(&[OWNED, &pv], &[], Options::default());
    let f = the_finding(&r);
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(
        f.message,
        "PersistentVolumeClaim shop/data-db-0 keeps ownerReferences from another cluster"
    );
    let c = f.consequence.as_ref().unwrap();
    assert!(
        c.summary.contains("deletes the claim")
            && c.summary
                .contains("PersistentVolume pv-db-0 has reclaimPolicy Delete"),
        "{}",
        c.summary
    );
    assert_eq!(c.storage, Some(StorageFate::Deleted));
    assert_eq!(c.assumptions.len(), 1, "{:?}", c.assumptions);
    assert!(c.assumptions[0].contains(
        "no StatefulSet db with UID 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44 exists in the cluster"
    ));
    // The finding points at the owner's uid.
    assert_eq!(f.location.line, 11);
}

/// Retained, the data stays; the claim still goes.
#[test]
fn with_a_retained_volume_the_claim_goes_and_the_data_stays() {
    let pv = volume("Retain");
    let r = lint(&[OWNED, &pv], &[], Options::default());
    let c = the_finding(&r).consequence.clone().unwrap();
    assert_eq!(c.storage, Some(StorageFate::Kept));
    assert!(c.summary.contains("released and kept"), "{}", c.summary);
}

/// isDangling: the owner re-created from the input has a new UID, so it is not the owner named.
/// Whether the cluster has it already is not known (pvlint reads a cluster's storage objects,
/// and --complete judges as an empty cluster state does): a warning in both cases.
#[test]
fn the_owner_re_created_from_the_input_is_another_object() {
    let pv = volume("Delete");
    let sts = statefulset("7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44");
    let r = lint(&[OWNED, &pv, &sts], &[], Options::default());
    assert_eq!(the_finding(&r).severity, Severity::Warning);
    let complete = Options {
        complete: true,
        ..Options::default()
    };
    let r = lint(&[OWNED, &pv, &sts], &[], complete);
    assert_eq!(the_finding(&r).severity, Severity::Warning);
}

/// Against the cluster state: the owner there with that UID is solid (no finding); with
/// another UID it is dangling, for certain. A cluster state without the owner's kind (a dump of
/// volumes and claims) leaves its absence assumed.
#[test]
fn the_cluster_state_decides() {
    let pv = volume("Delete");
    let same = statefulset("7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44");
    let r = lint(&[OWNED, &pv], &[&same], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
    let other = statefulset("0d9e8f7a-0000-4000-8000-000000000001");
    let r = lint(&[OWNED, &pv], &[&other], Options::default());
    let f = the_finding(&r);
    assert_eq!(f.severity, Severity::Error);
    assert!(f.consequence.as_ref().unwrap().assumptions.is_empty());
    let class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\nprovisioner: ebs.csi.aws.com\n";
    let r = lint(&[OWNED, &pv], &[class], Options::default());
    assert_eq!(the_finding(&r).severity, Severity::Warning);
}

/// A claim exported without metadata.uid (kubectl-neat) is still recognised by its status.
#[test]
fn a_status_marks_an_export() {
    let neat = OWNED
        .replace("  uid: 0b6d2f4e-5a71-4c39-9e8d-3c2b1a0f9e87\n", "")
        .replace(
            "      storage: 20Gi\n",
            "      storage: 20Gi\nstatus:\n  phase: Bound\n",
        );
    assert!(neat.contains("phase: Bound") && !neat.contains("0b6d2f4e"));
    let pv = volume("Delete");
    let r = lint(&[&neat, &pv], &[], Options::default());
    assert_eq!(the_finding(&r).severity, Severity::Warning);
}

/// One owner the cluster state has with another UID, one it lacks: the second stays an
/// assumption (a warning), and the message says what was found.
#[test]
fn what_the_cluster_state_shows_and_what_it_does_not() {
    let two = two_owners();
    let other = statefulset("0d9e8f7a-0000-4000-8000-000000000001");
    let pv = volume("Delete");
    let r = lint(&[&two, &pv], &[&other], Options::default());
    let f = the_finding(&r);
    assert_eq!(f.severity, Severity::Warning);
    let c = f.consequence.as_ref().unwrap();
    assert!(
        c.summary.contains("StatefulSet db has UID 0d9e8f7a-0000-4000-8000-000000000001 here, not 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44")
            && c.summary.contains("no ConfigMap keep with UID 11111111-2222-4333-8444-555555555555"),
        "{}",
        c.summary
    );
    assert_eq!(c.assumptions.len(), 1, "{:?}", c.assumptions);
    assert!(c.assumptions[0].contains("ConfigMap keep"));
}

/// A custom owner the cluster state has with another UID: its kind is served, its absence
/// certain. Owners are matched by API group too: a kind of the same name in another group is
/// not the owner.
#[test]
fn a_custom_owner_found_with_another_uid_is_certain() {
    let cnpg = owned_by_cnpg();
    let found = "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: db\n  namespace: shop\n  uid: 0d9e8f7a-0000-4000-8000-000000000001\n";
    let pv = volume("Delete");
    let r = lint(&[&cnpg, &pv], &[found], Options::default());
    let f = the_finding(&r);
    assert_eq!(f.severity, Severity::Error);
    assert!(f.consequence.as_ref().unwrap().assumptions.is_empty());
    let elsewhere = found.replace("postgresql.cnpg.io/v1", "cluster.x-k8s.io/v1beta1");
    let r = lint(&[&cnpg, &pv], &[&elsewhere], Options::default());
    assert_eq!(the_finding(&r).severity, Severity::Warning);
}

/// A claim that is not bound to a volume of the input is new here: what the garbage collector
/// deletes holds no data of the source cluster.
#[test]
fn a_new_claim_loses_no_data() {
    let unbound = OWNED.replace("  volumeName: pv-db-0\n", "");
    let class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: manual\nprovisioner: ebs.csi.aws.com\nvolumeBindingMode: WaitForFirstConsumer\n";
    let r = lint(&[&unbound, class], &[], Options::default());
    let c = the_finding(&r).consequence.clone().unwrap();
    assert_eq!(c.storage, None);
    assert!(c.summary.contains("cannot start"), "{}", c.summary);
}

/// References without a mark of an export (no uid, status or bind-completed on the claim) may
/// be written for this cluster, or be a controller's at admission: not judged.
#[test]
fn a_claim_that_was_not_exported_is_not_judged() {
    let written = OWNED.replace("  uid: 0b6d2f4e-5a71-4c39-9e8d-3c2b1a0f9e87\n", "");
    assert_ne!(written, OWNED);
    let pv = volume("Delete");
    let r = lint(&[&written, &pv], &[], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
}

/// attemptToDeleteItem: one solid owner keeps the object.
#[test]
fn one_existing_owner_keeps_the_claim() {
    let two = two_owners();
    let keep = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n  namespace: shop\n  uid: 11111111-2222-4333-8444-555555555555\n";
    let pv = volume("Delete");
    let r = lint(&[&two, &pv], &[keep], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
    // Neither exists: both are named, each as an assumption.
    let r = lint(&[&two, &pv], &[], Options::default());
    let f = the_finding(&r);
    let c = f.consequence.as_ref().unwrap();
    assert!(
        c.summary.contains("no StatefulSet db with UID 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44; no ConfigMap keep with UID"),
        "{}",
        c.summary
    );
    assert_eq!(c.assumptions.len(), 2, "{:?}", c.assumptions);
}

/// validateOwnerReference: an incomplete reference is the API server's rejection, not this
/// rule's finding.
#[test]
fn an_incomplete_reference_is_not_judged() {
    let no_uid = with_owner_uid("\"\"");
    let pv = volume("Delete");
    let r = lint(&[&no_uid, &pv], &[], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
}

/// A claim the cluster already has is updated, not created: not judged.
#[test]
fn a_claim_of_the_cluster_is_not_judged() {
    let pv = volume("Delete");
    let live = OWNED.replace(
        "  uid: 0b6d2f4e-5a71-4c39-9e8d-3c2b1a0f9e87\n",
        "  uid: 99999999-8888-4777-8666-555555555555\n",
    );
    assert_ne!(live, OWNED);
    let r = lint(&[OWNED, &pv], &[&live, &pv], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
}

/// apiResource: a custom kind must be served before the owner can be looked up.
#[test]
fn a_custom_owner_kind_must_be_served() {
    let cnpg = owned_by_cnpg();
    let pv = volume("Delete");
    let r = lint(&[&cnpg, &pv], &[], Options::default());
    let c = the_finding(&r).consequence.clone().unwrap();
    assert!(
        c.assumptions
            .iter()
            .any(|a| a.contains("the cluster serves Cluster (postgresql.cnpg.io/v1)")),
        "{:?}",
        c.assumptions
    );
}

/// A template placeholder in a reference (an unrendered chart) names no owner yet: not judged,
/// and the claim is read as before.
#[test]
fn a_placeholder_in_a_reference_is_not_judged() {
    let templated = with_owner_uid("\"{{ .Values.ownerUid }}\"");
    let pv = volume("Delete");
    let r = lint(&[&templated, &pv], &[], Options::default());
    assert!(owner_findings(&r).is_empty(), "{:#?}", owner_findings(&r));
    // Read as the same claim without references (an empty uid, by contrast, is rejected:
    // ValidateOwnerReferences, "must not be empty").
    let plain = OWNED.replace(
        "  ownerReferences:\n    - apiVersion: apps/v1\n      kind: StatefulSet\n      name: db\n      uid: 7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44\n      controller: true\n",
        "",
    );
    assert!(!plain.contains("ownerReferences"));
    let rules = |r: &Report| {
        r.findings
            .iter()
            .map(|f| f.rule.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rules(&r),
        rules(&lint(&[&plain, &pv], &[], Options::default()))
    );
}
