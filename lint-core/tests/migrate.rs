//! `pvlint migrate` through the API: every seed export, the shared corpus's `kubectl get -o
//! yaml` exports and a generated 5,000-volume export come out as manifests that lint without
//! stale-identity findings and simulate with every claim Bound to the volume it had; the
//! output is idempotent. The choice of what to strip is tested against the alternatives
//! through the simulator (pv_controller.go syncUnboundClaim / syncBoundClaim, binder_test
//! "2-4", "3-3", "3-6").

use pvlint_core::Fate;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pvlint_core::api::{self, MigrateOptions, MigrateRequest, Migration};
use pvlint_core::{ClaimPhase, Reason, Request, Simulation, Source, VolumePhase};

/// Writes to stderr past the test harness's capture (it takes only the print macros), so a
/// skipped check is seen under a plain `cargo test`.
macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn migrate(sources: Vec<Source>, options: MigrateOptions) -> Migration {
    api::migrate(&MigrateRequest { sources, options })
}

/// Simulates `text`, then applies `more` to the result (a claim created afterwards).
fn sim_then_apply(text: &str, more: &str) -> Simulation {
    api::simulate(&Request {
        sources: vec![Source::new("out.yaml", text)],
        operations: vec![api::Operation::Apply {
            sources: vec![Source::new("claim.yaml", more)],
        }],
        ..Request::default()
    })
    .unwrap()
}

fn sim(text: &str) -> Simulation {
    api::simulate(&Request::new(vec![Source::new("out.yaml", text)])).unwrap()
}

/// What a user checks after a migration; `what` names the input in failure messages.
fn check_migrated(what: &str, input: &[Source], m: &Migration) {
    assert!(m.errors.is_empty(), "{what}: {:?}", m.errors);
    let out = m.yaml();
    // Idempotent: migrating the output changes nothing.
    let again = migrate(
        vec![Source::new("out.yaml", out.clone())],
        MigrateOptions::default(),
    );
    assert_eq!(again.yaml(), out, "{what}: not idempotent");
    assert!(
        again.objects.iter().all(|o| o.changes.is_empty()),
        "{what}: second run changed {:?}",
        again
            .objects
            .iter()
            .flat_map(|o| &o.changes)
            .collect::<Vec<_>>()
    );
    // Objects migrate warned about may still be reported; no other object may.
    let warned: Vec<String> = m
        .objects
        .iter()
        .filter(|o| !o.warnings.is_empty())
        .map(|o| o.object.display())
        .collect();
    let report = api::lint(&Request::new(vec![Source::new("out.yaml", out.clone())]));
    // Lint clean but for what the input itself gets wrong (an invalid object, two claims
    // naming one volume, two different copies of one object): every error or warning on
    // the output is one the input had too, on the same object (names as migrated).
    let before: Vec<(String, String)> = api::lint(&Request::new(input.to_vec()))
        .findings
        .iter()
        .map(|f| {
            let obj = f.object.as_ref().map(|o| o.display()).unwrap_or_default();
            (f.rule.to_string(), obj)
        })
        .collect();
    let renamed = |o: &str| {
        m.objects.iter().any(|x| {
            x.object.display() == o && x.changes.iter().any(|c| c.path.contains("namespace"))
        })
    };
    for f in &report.findings {
        let obj = f.object.as_ref().map(|o| o.display()).unwrap_or_default();
        if f.severity >= pvlint_core::Severity::Warning && !warned.contains(&obj) && !renamed(&obj)
        {
            assert!(
                before.contains(&(f.rule.to_string(), obj.clone())),
                "{what}: migrate's output has a new {} {} on {obj}: {}\n{out}",
                f.severity.as_str(),
                f.rule,
                f.message
            );
        }
        if f.family != "stale-identity" {
            continue;
        }
        assert!(
            warned.contains(&obj),
            "{what}: stale-identity finding on an object migrate did not warn about: {} {}\n{out}",
            f.rule,
            f.message
        );
    }
    // Every claim whose volume is in the input binds to it; the rest wait, warned about.
    let volumes_before = volume_names(input);
    let texts: HashMap<String, &str> = m
        .objects
        .iter()
        .map(|o| (o.object.display(), o.text.as_str()))
        .collect();
    let s = sim(&out);
    for c in &s.claims {
        let key = format!("PersistentVolumeClaim {}/{}", c.namespace, c.name);
        if warned.contains(&key) {
            assert_ne!(c.phase, ClaimPhase::Lost, "{what}: {key} Lost");
            continue;
        }
        assert_eq!(
            c.phase,
            ClaimPhase::Bound,
            "{what}: {key}: {}\n{out}",
            c.why
        );
        if let Some(v) = &c.volume {
            if volumes_before.contains(v) {
                let named = texts
                    .get(&key)
                    .is_some_and(|t| t.contains(&format!("volumeName: {v}")));
                assert!(named, "{what}: {key} bound to {v}, not the volume it named");
            }
        }
    }
    for v in &s.volumes {
        assert_ne!(v.storage.fate, Fate::Deleted, "{what}: {} deleted", v.name);
        assert_ne!(
            v.storage.fate,
            Fate::LeftToProvisioner,
            "{what}: {} deleted",
            v.name
        );
        assert_ne!(
            v.phase,
            VolumePhase::Released,
            "{what}: {} Released",
            v.name
        );
    }
}

fn volume_names(input: &[Source]) -> std::collections::HashSet<String> {
    let m = migrate(input.to_vec(), MigrateOptions::default());
    m.objects
        .iter()
        .filter(|o| o.object.kind == "PersistentVolume")
        .map(|o| o.object.name.to_string())
        .collect()
}

fn read(p: &Path) -> Source {
    Source::new(p.display().to_string(), std::fs::read_to_string(p).unwrap())
}

/// The seed exports: `kubectl get -o yaml` output among the examples.
#[test]
fn seed_exports_migrate_to_bound_claims() {
    for f in [
        "examples/seed-000-dr-migration/broken.yaml",
        "examples/seed-000-dr-migration/seed-fix.yaml",
        "examples/seed-001-phase-transitions/exported-after-binding.yaml",
    ] {
        let input = vec![read(&root().join(f))];
        let m = migrate(input.clone(), MigrateOptions::default());
        assert!(
            m.objects.iter().any(|o| !o.changes.is_empty()),
            "{f}: nothing changed"
        );
        check_migrated(f, &input, &m);
        assert!(m.objects.iter().all(|o| o.warnings.is_empty()), "{f}");
        let s = sim(&m.yaml());
        assert!(s.claims.iter().all(|c| c.phase == ClaimPhase::Bound), "{f}");
    }
}

/// Seed 004's `kubectl get pv pvc-a7b7e3ba-... -o yaml` (a CSI volume with the
/// external-provisioner's finalizer), exported alone: its claim is not in the input, so it is
/// warned about and stays pre-bound by name; applying the claim afterwards binds it.
const SEED_004_PV: &str = r#"apiVersion: v1
kind: PersistentVolume
metadata:
  annotations:
    pv.kubernetes.io/provisioned-by: csi.vsphere.vmware.com
  creationTimestamp: "2021-11-17T19:28:56Z"
  finalizers:
  - kubernetes.io/pv-protection
  - external-provisioner.volume.kubernetes.io/finalizer
  name: pvc-a7b7e3ba-f837-45ba-b243-dec7d8aaed53
  resourceVersion: "194711"
  uid: 087f14f2-4157-4e95-8a70-8294b039d30e
spec:
  accessModes:
  - ReadWriteOnce
  capacity:
    storage: 1Gi
  claimRef:
    apiVersion: v1
    kind: PersistentVolumeClaim
    name: example-vanilla-block-pvc
    namespace: default
    resourceVersion: "194677"
    uid: a7b7e3ba-f837-45ba-b243-dec7d8aaed53
  csi:
    driver: csi.vsphere.vmware.com
    fsType: ext4
    volumeAttributes:
      storage.kubernetes.io/csiProvisionerIdentity: 1637110610497-8081-csi.vsphere.vmware.com
      type: vSphere CNS Block Volume
    volumeHandle: 2dacf297-803f-4ccc-afc7-3d3c3f02051e
  persistentVolumeReclaimPolicy: Delete
  storageClassName: example-vanilla-block-sc
  volumeMode: Filesystem
status:
  phase: Bound
"#;

#[test]
fn seed_004_export_of_a_volume_alone() {
    let input = vec![Source::new("seed-004-pv.yaml", SEED_004_PV)];
    let before = sim(SEED_004_PV);
    // As exported: its claim (with that UID) is not there, the volume is Released and, with
    // Delete, left to the CSI driver to delete.
    assert_eq!(before.volumes[0].phase, VolumePhase::Released);
    let m = migrate(input.clone(), MigrateOptions::default());
    check_migrated("seed 004 export", &input, &m);
    let w = &m.objects[0].warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("its claim default/example-vanilla-block-pvc is not in the input"),
        "{}",
        w[0]
    );
    let out = m.yaml();
    for gone in [
        "uid:",
        "resourceVersion",
        "creationTimestamp",
        "status:",
        "persistentVolumeReclaimPolicy: Delete",
    ] {
        assert!(!out.contains(gone), "{gone} is still there:\n{out}");
    }
    assert!(
        out.contains("persistentVolumeReclaimPolicy: Retain"),
        "{out}"
    );
    assert!(out.contains("name: example-vanilla-block-pvc"), "{out}");
    // Pre-bound by name: Available, kept for the claim, the storage kept.
    let s = sim(&out);
    assert_eq!(s.volumes[0].phase, VolumePhase::Available);
    assert_eq!(
        s.volumes[0].claim.as_deref(),
        Some("default/example-vanilla-block-pvc")
    );
    assert_eq!(s.volumes[0].storage.fate, Fate::Kept);
    // The claim applied afterwards (as the seed's `kubectl get pvc` shows it) binds it.
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: example-vanilla-block-pvc, namespace: default}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n  storageClassName: example-vanilla-block-sc\n";
    let s = sim_then_apply(&out, claim);
    let c = s
        .claims
        .iter()
        .find(|c| c.name == "example-vanilla-block-pvc")
        .unwrap();
    assert_eq!(
        (c.phase, c.volume.as_deref()),
        (
            ClaimPhase::Bound,
            Some("pvc-a7b7e3ba-f837-45ba-b243-dec7d8aaed53")
        )
    );
}

/// Seed 000 in full: the claim re-binds, the CFS volume is kept (Retain), comments and
/// field order survive, and what changed is listed with the reason.
#[test]
fn seed_000_output() {
    let input = read(&root().join("examples/seed-000-dr-migration/broken.yaml"));
    let m = migrate(vec![input], MigrateOptions::default());
    let out = m.yaml();
    assert!(
        out.starts_with("# Seed 000: an active-active DR setup."),
        "{out}"
    );
    assert!(!out.contains("uid:"), "{out}");
    assert!(!out.contains("resourceVersion"), "{out}");
    assert!(!out.contains("bind-completed"), "{out}");
    assert!(out.contains("volumeName: pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"));
    assert!(out.contains("  claimRef:\n    apiVersion: v1\n    kind: PersistentVolumeClaim\n    name: public-devops-teststatefulset-nginx-online-pvc\n    namespace: test\n  csi:"), "{out}");
    assert!(out.contains("persistentVolumeReclaimPolicy: Retain"));
    let pv = &m.objects[1];
    assert_eq!(pv.object.kind, "PersistentVolume");
    let paths: Vec<&str> = pv.changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "metadata.uid",
            "metadata.creationTimestamp",
            "spec.claimRef.uid",
            "spec.claimRef.resourceVersion",
            "spec.persistentVolumeReclaimPolicy"
        ]
    );
    let s = sim(&out);
    let c = &s.claims[0];
    assert_eq!(c.phase, ClaimPhase::Bound);
    assert!(c.why.contains("name each other"), "{}", c.why);
    assert_eq!(s.volumes[0].storage.fate, Fate::Kept);
}

/// The three ways to re-bind an exported pair, through the simulator.
#[test]
fn what_keeps_each_volume_bound_to_its_claim() {
    let claim = |bind_completed: bool| {
        format!(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n  namespace: app\n{}spec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n  volumeName: vol\n  resources: {{requests: {{storage: 1Gi}}}}\n",
            if bind_completed {
                "  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n"
            } else {
                ""
            }
        )
    };
    let volume = |claim_ref: bool| {
        format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: vol\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {{storage: 1Gi}}\n  storageClassName: fast\n  csi: {{driver: x.csi.example.com, volumeHandle: h}}\n{}",
            if claim_ref {
                "  claimRef: {namespace: app, name: data}\n"
            } else {
                ""
            }
        )
    };
    // A claim that matches the volume too, and comes first.
    let rival = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: rival\n  namespace: app\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n  resources: {requests: {storage: 1Gi}}\n";
    let phase_of = |text: &str, name: &str| {
        let s = sim(text);
        let c = s.claims.iter().find(|c| c.name == name).unwrap().clone();
        (c.phase, c.volume, c.events)
    };
    // bind-completed kept, claimRef without uid: a bound claim needs matching UIDs (3-6).
    let (p, _, ev) = phase_of(&format!("{}---\n{}", volume(true), claim(true)), "data");
    assert_eq!(p, ClaimPhase::Lost);
    assert!(ev.iter().any(|e| e.reason == Reason::ClaimMisbound));
    // bind-completed kept, claimRef dropped: re-bound (3-3), but the volume is free until
    // then, and a rival claim seen first takes it.
    let (p, _, _) = phase_of(&format!("{}---\n{}", volume(false), claim(true)), "data");
    assert_eq!(p, ClaimPhase::Bound);
    let text = format!("{rival}---\n{}---\n{}", volume(false), claim(true));
    assert_eq!(phase_of(&text, "rival").1.as_deref(), Some("vol"));
    assert_eq!(phase_of(&text, "data").0, ClaimPhase::Lost);
    // migrate's choice: bind-completed dropped, claimRef keeps name and namespace: bound
    // without checks (2-4), and the rival never gets the volume.
    let (p, v, _) = phase_of(&format!("{}---\n{}", volume(true), claim(false)), "data");
    assert_eq!((p, v.as_deref()), (ClaimPhase::Bound, Some("vol")));
    let text = format!("{rival}---\n{}---\n{}", volume(true), claim(false));
    assert_eq!(phase_of(&text, "data").1.as_deref(), Some("vol"));
    assert_ne!(phase_of(&text, "rival").1.as_deref(), Some("vol"));
    // And migrate produces exactly that from the export.
    let exported = format!(
        "{}---\n{}",
        volume(true).replace(
            "claimRef: {namespace: app, name: data}",
            "claimRef: {namespace: app, name: data, uid: 1111, resourceVersion: \"9\"}"
        ),
        claim(true)
    );
    let m = migrate(
        vec![Source::new("e.yaml", exported)],
        MigrateOptions::default(),
    );
    let s = sim(&format!("{rival}---\n{}", m.yaml()));
    let data = s.claims.iter().find(|c| c.name == "data").unwrap();
    assert_eq!(
        (data.phase, data.volume.as_deref()),
        (ClaimPhase::Bound, Some("vol"))
    );
}

#[test]
fn warnings_for_what_cannot_be_made_safe() {
    let pv_only = "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: orphan\n  uid: 5\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  claimRef: {namespace: gone, name: c, uid: 7}\n  persistentVolumeReclaimPolicy: Delete\n  nfs: {server: 10.0.0.1, path: /x}\n";
    let m = migrate(
        vec![Source::new("a.yaml", pv_only)],
        MigrateOptions::default(),
    );
    let w = &m.objects[0].warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("its claim gone/c is not in the input"),
        "{}",
        w[0]
    );
    // Still pre-bound by name: Available, reserved; applying the claim later binds it.
    let out = m.yaml();
    assert!(
        out.contains("claimRef: {namespace: gone, name: c}") || out.contains("name: c"),
        "{out}"
    );
    let s = sim(&out);
    assert_eq!(s.volumes[0].phase, VolumePhase::Available);
    assert_eq!(s.volumes[0].claim.as_deref(), Some("gone/c"));
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: gone}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n  storageClassName: other\n";
    let s = sim_then_apply(&out, claim);
    let c = s.claims.iter().find(|c| c.name == "c").unwrap();
    assert_eq!(
        (c.phase, c.volume.as_deref()),
        (ClaimPhase::Bound, Some("orphan"))
    );

    // A claim whose volume is not in the input: Pending (not Lost), warned.
    let claim_only = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: d\n  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n  volumeName: missing\n";
    let before = sim(claim_only);
    assert_eq!(before.claims[0].phase, ClaimPhase::Lost);
    let m = migrate(
        vec![Source::new("b.yaml", claim_only)],
        MigrateOptions::default(),
    );
    assert!(m.objects[0].warnings[0].contains("its volume missing is not in the input"));
    let after = sim(&m.yaml());
    assert_eq!(after.claims[0].phase, ClaimPhase::Pending);

    // --keep-reclaim-policy keeps Delete, and says what that means.
    let m = migrate(
        vec![Source::new("a.yaml", pv_only)],
        MigrateOptions {
            keep_reclaim_policy: true,
            ..MigrateOptions::default()
        },
    );
    assert!(m.yaml().contains("persistentVolumeReclaimPolicy: Delete"));
    assert!(m.objects[0]
        .warnings
        .iter()
        .any(|w| w.contains("keeps reclaimPolicy Delete")));
}

#[test]
fn class_and_namespace_mapping() {
    let input = read(&root().join("examples/seed-000-dr-migration/broken.yaml"));
    let mut o = MigrateOptions::default();
    o.map_class.insert("cfs-hp".into(), "nas-fast".into());
    o.map_namespace.insert("test".into(), "staging".into());
    let m = migrate(vec![input.clone()], o.clone());
    let out = m.yaml();
    assert!(!out.contains("cfs-hp"), "{out}");
    assert_eq!(out.matches("storageClassName: nas-fast").count(), 2);
    assert!(out.contains("  namespace: staging\n"), "{out}");
    assert!(out.contains("    namespace: staging\n"), "claimRef: {out}");
    assert!(!out.contains("namespace: test"), "{out}");
    let s = sim(&out);
    assert_eq!(s.claims[0].namespace, "staging");
    assert_eq!(s.claims[0].phase, ClaimPhase::Bound);
    // Idempotent with the same options.
    let again = migrate(vec![Source::new("o.yaml", out.clone())], o);
    assert_eq!(again.yaml(), out);
    check_migrated("mapped seed 000", &[input], &m);
}

/// The shared corpus's `kubectl get -o yaml` exports (files with PVs or claims carrying
/// server-populated fields), each repository's exports migrated together.
#[test]
fn corpus_exports() {
    let candidates = [
        std::env::var("PVLINT_SHARED_DIR").map(PathBuf::from).ok(),
        Some(root().join("../shared")),
        Some(root().join("../../shared")),
    ];
    let Some(corpus) = candidates
        .into_iter()
        .flatten()
        .map(|p| p.join("corpus/realworld"))
        .find(|p| p.is_dir())
    else {
        loud!("\n######## SKIPPED corpus_exports: ../shared/corpus/realworld not found (set PVLINT_SHARED_DIR to the shared folder) ########\n");
        return;
    };
    let mut by_repo: HashMap<String, Vec<Source>> = HashMap::new();
    let mut files = Vec::new();
    walk(&corpus, &mut files);
    files.sort();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let src = Source::new(f.display().to_string(), text);
        let m = migrate(vec![src.clone()], MigrateOptions::default());
        if !m.errors.is_empty() {
            continue;
        }
        let export = m.objects.iter().any(|o| {
            matches!(
                o.object.kind.as_str(),
                "PersistentVolume" | "PersistentVolumeClaim"
            ) && o.changes.iter().any(|c| {
                c.path == "status"
                    || c.path == "metadata.uid"
                    || c.path == "metadata.resourceVersion"
                    || c.path == "spec.claimRef.uid"
                    || c.path.ends_with("bind-completed")
            })
        });
        if export {
            let repo = f
                .strip_prefix(&corpus)
                .unwrap()
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .into_owned();
            by_repo.entry(repo).or_default().push(src);
        }
    }
    assert!(
        by_repo.len() >= 3,
        "expected several repositories with exports, found {:?}",
        by_repo.keys()
    );
    let mut objects = 0;
    for (repo, sources) in &by_repo {
        let m = migrate(sources.clone(), MigrateOptions::default());
        objects += m.objects.len();
        check_migrated(repo, sources, &m);
    }
    eprintln!(
        "corpus_exports: {} repositories, {objects} objects migrated",
        by_repo.len()
    );
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        {
            out.push(p);
        }
    }
}

#[path = "../benches/export.rs"]
mod export;
use export::generated_export;

#[test]
fn generated_1000_volume_export() {
    let input = vec![Source::new("export.yaml", generated_export(1000))];
    let before = api::simulate(&Request::new(input.clone())).unwrap();
    assert!(before.claims.iter().all(|c| c.phase == ClaimPhase::Lost));
    let m = migrate(input.clone(), MigrateOptions::default());
    assert_eq!(m.objects.len(), 2_000);
    assert!(m.objects.iter().all(|o| o.warnings.is_empty()));
    check_migrated("generated export", &input, &m);
    let s = sim(&m.yaml());
    assert_eq!(s.claims.len(), 1000);
    assert!(s.claims.iter().all(|c| c.phase == ClaimPhase::Bound));
    assert!(s.volumes.iter().all(|v| v.storage.fate == Fate::Kept));
}

/// Seed 001's export: claim myclaim names no class, nor does its volume pv3 (a cluster of
/// 2017, without a default class). Applied to a cluster with a default StorageClass, the
/// DefaultStorageClass admission plugin gives the claim that class; the pair still binds
/// (mutual pre-binding: syncUnboundClaim binds without checkVolumeSatisfyClaim), but the claim
/// then carries a class its volume does not have. migrate writes `storageClassName: ""` on
/// the claim, which keeps it class-less.
#[test]
fn a_classless_claim_keeps_its_classless_volume_where_a_default_class_exists() {
    let input =
        read(&root().join("examples/seed-001-phase-transitions/exported-after-binding.yaml"));
    let cluster = Source::new(
        "live.yaml",
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: rancher.io/local-path\n",
    );
    let on_cluster = |text: &str| {
        api::simulate(&Request {
            sources: vec![Source::new("m.yaml", text)],
            cluster: vec![cluster.clone()],
            ..Request::default()
        })
        .unwrap()
    };
    let m = migrate(vec![input.clone()], MigrateOptions::default());
    let out = m.yaml();
    assert!(out.contains("  storageClassName: \"\"\n"), "{out}");
    let claim = m
        .objects
        .iter()
        .find(|o| o.object.kind == "PersistentVolumeClaim")
        .unwrap();
    assert!(
        claim
            .changes
            .iter()
            .any(|c| c.path == "spec.storageClassName" && c.why.contains("DefaultStorageClass")),
        "{:?}",
        claim.changes
    );
    // Without the explicit "" (the same output, the line taken out), the claim gets the
    // default class and binds with it; with it, it binds class-less.
    let without = on_cluster(&out.replace("  storageClassName: \"\"\n", ""));
    assert_eq!(
        (without.claims[0].phase, without.claims[0].class.as_deref()),
        (ClaimPhase::Bound, Some("standard"))
    );
    let after = on_cluster(&out);
    assert_eq!(
        (
            after.claims[0].phase,
            after.claims[0].volume.as_deref(),
            after.claims[0].class.as_deref()
        ),
        (ClaimPhase::Bound, Some("pv3"), Some(""))
    );
}

/// `storageClassName: null` is unset, as the API server reads it: the claim gets `""` too,
/// in place (no second key); a claim with the beta class annotation has a class and is left
/// alone.
#[test]
fn a_null_class_is_unset_and_the_beta_annotation_is_a_class() {
    let pair = |claim_class: &str, claim_ann: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv1}}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity: {{storage: 1Gi}}\n  claimRef: {{namespace: default, name: c1, uid: 11111111-2222-4333-8444-555555555555}}\n  nfs: {{server: 10.0.0.1, path: /x}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c1\n  namespace: default\n{claim_ann}spec:\n  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 1Gi}}}}\n{claim_class}  volumeName: pv1\n")
    };
    let m = migrate(
        vec![Source::new(
            "a.yaml",
            pair("  storageClassName: null\n", ""),
        )],
        MigrateOptions::default(),
    );
    let out = m.yaml();
    assert_eq!(out.matches("storageClassName").count(), 1, "{out}");
    assert!(out.contains("storageClassName: \"\""), "{out}");
    let m = migrate(
        vec![Source::new(
            "b.yaml",
            pair(
                "",
                "  annotations: {volume.beta.kubernetes.io/storage-class: \"\"}\n",
            ),
        )],
        MigrateOptions::default(),
    );
    assert!(!m.yaml().contains("storageClassName"), "{}", m.yaml());
}

/// The migrated export applied over the broken one that is already in the cluster: created
/// without a last-applied configuration (`kubectl create`, a restore), the live volume keeps
/// its stale claimRef.uid and the live claim its bind-completed, which the migrated files no
/// longer carry and `kubectl apply` does not remove. The finding points at the live volume
/// and its `kubectl patch`, not at the manifests; the claim is the cluster's (its UID is the
/// cluster's, not one "it gets when it is created"). Applied by `kubectl apply` instead (oracle
/// case 31), the three-way merge removes them and nothing is Lost.
#[test]
fn migrated_files_over_a_broken_live_export_point_at_the_live_volume() {
    let exported = read(&root().join("examples/seed-000-dr-migration/broken.yaml"));
    let m = migrate(vec![exported.clone()], MigrateOptions::default());
    // The broken export as the target cluster holds it: the claim got a UID of its own.
    let live = exported.text.replacen(
        "uid: 3d65a636-f4c3-4c49-b957-c45673f48bc6\n",
        "uid: 99999999-0000-4000-8000-000000000001\n",
        1,
    );
    let r = api::lint(&Request {
        sources: vec![Source::new("migrated.yaml", m.yaml())],
        cluster: vec![Source::new("dr.yaml", live)],
        ..Request::default()
    });
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "claim-will-be-lost")
        .unwrap_or_else(|| panic!("{:#?}", r.findings));
    assert!(
        f.help.contains("the cluster's objects keep it"),
        "{}",
        f.help
    );
    let s = f.suggestion.as_ref().expect("the patch");
    assert!(
        s.snippet.as_deref().is_some_and(|c| c
            .starts_with("kubectl patch pv pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6 --type json")),
        "{s:?}"
    );
    let summary = &f.consequence.as_ref().unwrap().summary;
    assert!(
        summary.contains("is not this claim's UID 99999999-0000-4000-8000-000000000001"),
        "{summary}"
    );
    assert!(!summary.contains("when it is created"), "{summary}");
}

/// An exported Job (`kubectl get job -o yaml`): the API server of a new cluster rejects it
/// (batch ValidateGeneratedSelector: its template's controller-uid labels and its selector carry
/// the source cluster's uid). migrate removes what generateSelector wrote, keeps what the user
/// wrote (the job-name labels, the containers), and the result lints clean; a Job with
/// `manualSelector: true` is the user's own selector and is left alone.
#[test]
fn exported_jobs_are_repaired() {
    let fixture =
        read(&root().join("lint-core/tests/fixtures/invalid-field-value/bad-exported-job.yaml"));
    let errors = |text: &str| -> Vec<String> {
        api::lint(&Request {
            sources: vec![Source::new("job.yaml", text)],
            ..Request::default()
        })
        .findings
        .iter()
        .filter(|f| f.severity == pvlint_core::Severity::Error)
        .map(|f| f.message.to_string())
        .collect()
    };
    assert_eq!(
        errors(&fixture.text).len(),
        3,
        "{:?}",
        errors(&fixture.text)
    );
    let m = migrate(vec![fixture], MigrateOptions::default());
    let out = m.yaml();
    assert!(errors(&out).is_empty(), "{:?}\n{out}", errors(&out));
    let yaml: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!yaml.iter().any(|l| l.contains("controller-uid")), "{out}");
    assert!(
        !yaml.iter().any(|l| l.trim_start().starts_with("selector:")),
        "{out}"
    );
    assert!(
        out.contains("job-name: reindex") && out.contains("image: busybox:1.36"),
        "{out}"
    );
    let removed: Vec<&str> = m.objects[0]
        .changes
        .iter()
        .map(|c| c.path.as_str())
        .collect();
    assert!(removed.contains(&"spec.selector"), "{removed:?}");
    let manual = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: m}\nspec:\n  manualSelector: true\n  selector: {matchLabels: {controller-uid: x}}\n  template:\n    metadata: {labels: {controller-uid: x}}\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n";
    let m = migrate(
        vec![Source::new("m.yaml", manual)],
        MigrateOptions::default(),
    );
    assert!(
        m.objects[0].changes.is_empty(),
        "{:?}",
        m.objects[0].changes
    );
}
