//! What is applied together (`pvlint_core::applyset`): each directory, each kustomization root
//! and standard input is linted as one apply set, as `kubectl apply -f DIR` / `-k DIR` apply
//! them; `--together` makes the input one; `--each-file` each file one. Sets applied apart
//! never meet, unless the profile says they go to one cluster (`--same-cluster`): then the
//! StorageClasses and volumes other sets define stand, as assumptions, for the cluster's.

use pvlint_core::applyset::SetKind;
use pvlint_core::{api, Report, Request, Severity, Source};

fn lint(files: &[(&str, &str)], together: bool) -> Report {
    api::lint(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        together,
        ..Request::default()
    })
}

/// The sets linted apart, onto one cluster (`--same-cluster`).
fn lint_one_cluster(files: &[(&str, &str)]) -> Report {
    let mut req = Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        ..Request::default()
    };
    req.options.cluster.same_cluster = true;
    api::lint(&req)
}

/// The findings of one file, as a user reads them (rule, line, severity, message).
fn of_file<'r>(r: &'r Report, file: &str) -> Vec<(&'r str, u32, Severity, &'r str)> {
    r.findings
        .iter()
        .filter(|f| f.location.file == file)
        .map(|f| {
            (
                f.rule.as_str(),
                f.location.line,
                f.severity,
                f.message.as_str(),
            )
        })
        .collect()
}

fn rules(r: &Report) -> Vec<(&str, &str, Severity)> {
    r.findings
        .iter()
        .map(|f| (f.rule.as_str(), f.location.file.as_str(), f.severity))
        .collect()
}

const CLAIM_RWX: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteMany]\n  storageClassName: files\n  resources: {requests: {storage: 1Gi}}\n";
const CLAIM_RWO: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: disks\n  resources: {requests: {storage: 1Gi}}\n";
const WEB_3: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n      volumes: [{name: d, persistentVolumeClaim: {claimName: shared}}]\n";

/// Two examples that each define claim `shared`, one ReadWriteMany for three replicas, one
/// ReadWriteOnce for one pod: apart, neither is a redefinition of the other, and the replicas
/// share the ReadWriteMany claim of their own directory.
#[test]
fn independent_directories_are_independent() {
    let files = [
        ("examples/shared-files/claim.yaml", CLAIM_RWX),
        ("examples/shared-files/web.yaml", WEB_3),
        ("examples/one-disk/claim.yaml", CLAIM_RWO),
    ];
    let r = lint(&files, false);
    assert_eq!(r.apply_sets.len(), 2);
    assert!(r.apply_sets.iter().all(|s| s.kind == SetKind::Directory));
    assert_eq!(
        r.apply_sets[0].files,
        [
            "examples/shared-files/claim.yaml",
            "examples/shared-files/web.yaml"
        ]
    );
    assert!(
        !rules(&r)
            .iter()
            .any(|(rule, _, _)| *rule == "duplicate-object" || rule.starts_with("rwo-")),
        "{:#?}",
        r.findings
    );
    // Linted together, the ReadWriteOnce claim replaces the other... unless the API server
    // refuses the update: it does (a claim's spec is immutable), so the first definition
    // stands and the replicas still share the ReadWriteMany claim.
    let r = lint(&files, true);
    assert_eq!(r.apply_sets.len(), 1);
    assert!(
        rules(&r).contains(&(
            "duplicate-object",
            "examples/shared-files/claim.yaml",
            Severity::Info
        )),
        "{:#?}",
        r.findings
    );
    assert!(!rules(&r)
        .iter()
        .any(|(rule, _, _)| rule.starts_with("rwo-")));
}

/// A class one example uses only as a label of its static volumes is not a label elsewhere.
#[test]
fn a_static_pool_label_stays_in_its_directory() {
    let pool = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv0}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  storageClassName: manual\n  nfs: {server: 10.0.0.1, path: /x}\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: big}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: manual\n  resources: {requests: {storage: 50Gi}}\n";
    let apart = lint(&[("a/pv.yaml", pool), ("b/claim.yaml", claim)], false);
    assert_eq!(
        apart.summary.errors + apart.summary.warnings,
        0,
        "{:#?}",
        apart.findings
    );
    // Together, "manual" is a label of the pool and the big claim fits no volume of it.
    let together = lint(&[("a/pv.yaml", pool), ("b/claim.yaml", claim)], true);
    assert!(
        together.summary.errors + together.summary.warnings > 0,
        "{:#?}",
        together.findings
    );
}

/// `kubectl apply -k overlays/prod`: the overlay reaches the base through its directory; the
/// base's file is in both overlays' sets and its findings are reported once.
#[test]
fn kustomization_roots_share_their_base() {
    let k = |res: &str| {
        format!("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [{res}]\n")
    };
    let files = [
        ("app/base/kustomization.yaml", k("claim.yaml, web.yaml")),
        ("app/base/claim.yaml", CLAIM_RWO.to_string()),
        ("app/base/web.yaml", WEB_3.to_string()),
        ("app/overlays/prod/kustomization.yaml", k("../../base")),
        ("app/overlays/dev/kustomization.yaml", k("../../base")),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let r = lint(&files, false);
    let kinds: Vec<(SetKind, &str)> = r
        .apply_sets
        .iter()
        .map(|s| (s.kind, s.name.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                SetKind::Kustomization,
                "app/overlays/prod/kustomization.yaml"
            ),
            (
                SetKind::Kustomization,
                "app/overlays/dev/kustomization.yaml"
            ),
        ]
    );
    let shared: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "rwo-shared-by-replicas")
        .collect();
    assert_eq!(shared.len(), 1, "{:#?}", r.findings);
    assert_eq!(shared[0].apply_set, Some(0));
}

/// StorageClasses another apply set defines stand for the cluster's: a repository's infra/
/// installs a node-local default class, its apps/ claims use the default.
/// A directory's findings do not depend on its sibling directories: the default class
/// `infra/` defines is not `apps/`'s when the two are applied apart, and the one-node hint of
/// a hostPath volume in one directory does not make another's cluster one node.
#[test]
fn sets_applied_apart_never_meet() {
    let infra = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local-path\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n";
    let hostpath = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: scratch}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /tmp/scratch}\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let app = format!("{claim}---\n{WEB_3}");
    let alone = lint(&[("apps/web.yaml", &app)], false);
    let expected = of_file(&alone, "apps/web.yaml");
    // The default profile: a default class whose driver is not known attaches; several nodes.
    assert!(
        expected
            .iter()
            .any(|(rule, _, sev, _)| *rule == "rwo-shared-by-replicas" && *sev == Severity::Error),
        "{expected:#?}"
    );
    for siblings in [
        vec![("infra/sc.yaml", infra)],
        vec![("local/pv.yaml", hostpath)],
        vec![("infra/sc.yaml", infra), ("local/pv.yaml", hostpath)],
    ] {
        let mut files = siblings.clone();
        files.push(("apps/web.yaml", &app));
        let r = lint(&files, false);
        assert_eq!(
            of_file(&r, "apps/web.yaml"),
            expected,
            "beside {siblings:?}"
        );
        // --each-file: the same as the file alone.
        let mut req = Request {
            sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
            each_file: true,
            ..Request::default()
        };
        assert_eq!(of_file(&api::lint(&req), "apps/web.yaml"), expected);
        // Said to go to one cluster, they meet.
        req.each_file = false;
        req.options.cluster.same_cluster = true;
        assert_ne!(
            of_file(&api::lint(&req), "apps/web.yaml"),
            expected,
            "beside {siblings:?} on one cluster"
        );
    }
}

#[test]
fn classes_defined_elsewhere_are_assumed_installed_on_one_cluster() {
    let infra = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local-path\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let app = format!("{claim}---\n{WEB_3}");
    let with_infra = lint_one_cluster(&[("infra/sc.yaml", infra), ("apps/web.yaml", &app)]);
    assert!(
        !with_infra
            .findings
            .iter()
            .any(|f| f.rule.starts_with("rwo-")),
        "{:#?}",
        with_infra.findings
    );
    // Alone, the default profile's default class: its driver is not known, and such drivers
    // attach.
    let alone = lint(&[("apps/web.yaml", &app)], false);
    assert!(alone
        .findings
        .iter()
        .any(|f| f.rule == "rwo-shared-by-replicas" && f.severity == Severity::Error));
    // Two sets defining the default differently: neither is assumed.
    let other = infra.replace("rancher.io/local-path", "ebs.csi.aws.com");
    let conflicting = lint_one_cluster(&[
        ("infra/a/sc.yaml", infra),
        ("infra/b/sc.yaml", &other),
        ("apps/web.yaml", &app),
    ]);
    assert!(conflicting
        .findings
        .iter()
        .any(|f| f.rule == "rwo-shared-by-replicas"));
}

/// The report's `static-pool-shortfall` finding (the test fails without one).
fn shortfall(r: &pvlint_core::Report) -> &pvlint_core::Finding {
    r.findings
        .iter()
        .find(|f| f.rule == "static-pool-shortfall")
        .unwrap_or_else(|| panic!("{:#?}", r.findings))
}

/// On one cluster (`--same-cluster`), volumes another apply set defines join the static pool as that set's classes do (the same
/// assumption: the set is applied to the cluster too): a StatefulSet whose no-provisioner class
/// and local volumes live in `infra/` is not short of the volumes it finds there, and is short
/// only of those it does not (AK2-Yana/ak2-k8s's layout: base/volumes, base/deployments).
#[test]
fn volumes_defined_elsewhere_join_the_pool() {
    let class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local-storage}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n";
    let pv = |n: u32| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: local-{n}}}\nspec:\n  storageClassName: local-storage\n  capacity: {{storage: 10Gi}}\n  accessModes: [ReadWriteOnce]\n  local: {{path: /data/{n}}}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node-{n}]}}]\n")
    };
    let sts = |replicas: u32| {
        format!("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec:\n  replicas: {replicas}\n  serviceName: db\n  selector: {{matchLabels: {{app: db}}}}\n  template:\n    metadata: {{labels: {{app: db}}}}\n    spec:\n      containers: [{{name: db, image: postgres}}]\n  volumeClaimTemplates:\n  - metadata: {{name: data}}\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: local-storage\n      resources: {{requests: {{storage: 1Gi}}}}\n")
    };
    let pool = format!("{}---\n{}", pv(0), pv(1));
    let fits = lint_one_cluster(&[
        ("infra/class.yaml", class),
        ("infra/pv.yaml", &pool),
        ("apps/db.yaml", &sts(2)),
    ]);
    assert!(
        !fits
            .findings
            .iter()
            .any(|f| f.rule == "static-pool-shortfall" || f.rule == "unbindable-claim"),
        "{:#?}",
        fits.findings
    );
    let short = lint_one_cluster(&[
        ("infra/class.yaml", class),
        ("infra/pv.yaml", &pool),
        ("apps/db.yaml", &sts(3)),
    ]);
    let f = shortfall(&short);
    assert!(
        f.message.contains(
            "2 in another apply set (local-0 in infra/pv.yaml, local-1 in infra/pv.yaml)"
        ),
        "{}",
        f.message
    );
    assert!(f.help.starts_with("create 1 more volume(s)"), "{}", f.help);
    assert!(f.severity < Severity::Error, "an assumption: {f:#?}");
    // Parallel creates every pod: each short ordinal waits, none is "never created".
    let parallel = sts(4).replace(
        "serviceName: db",
        "serviceName: db\n  podManagementPolicy: Parallel",
    );
    let r = lint_one_cluster(&[
        ("infra/class.yaml", class),
        ("infra/pv.yaml", &pool),
        ("apps/db.yaml", &parallel),
    ]);
    let f = shortfall(&r);
    let summary = &f.consequence.as_ref().expect("a consequence").summary;
    assert!(
        summary.contains("claims data-db-2, data-db-3 find no volume")
            && summary.contains("pods db-2, db-3 never start")
            && !summary.contains("OrderedReady"),
        "{summary}"
    );
    // Without the infra set the pool is empty: both ordinals are short.
    let alone = lint_one_cluster(&[("apps/db.yaml", &sts(2))]);
    assert!(
        !alone
            .findings
            .iter()
            .any(|f| f.message.contains("another apply set")),
        "{:#?}",
        alone.findings
    );
}

/// replicas is an int32: with a pool elsewhere, only the ordinals a volume there can reach are
/// looked at (the first ones, and those a volume's claimRef reserves), the others counted; a
/// StatefulSet of a hundred million replicas is judged at once, not ordinal by ordinal.
#[test]
fn a_huge_statefulset_against_a_pool_elsewhere_names_what_it_reaches() {
    let class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local-storage}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n";
    let pv = |name: &str, reserve: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec:\n  storageClassName: local-storage\n  capacity: {{storage: 10Gi}}\n  accessModes: [ReadWriteOnce]\n{reserve}  local: {{path: /data}}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node-0]}}]\n")
    };
    // One volume for any claim, one reserved for ordinal 70,000,000.
    let pool = format!(
        "{}---\n{}",
        pv("local-a", ""),
        pv(
            "local-far",
            "  claimRef: {namespace: default, name: data-db-70000000}\n"
        )
    );
    let sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 100000000\n  podManagementPolicy: Parallel\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: db, image: postgres}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: local-storage\n      resources: {requests: {storage: 1Gi}}\n";
    let r = lint_one_cluster(&[
        ("infra/class.yaml", class),
        ("infra/pv.yaml", &pool),
        ("apps/db.yaml", sts),
    ]);
    let f = shortfall(&r);
    let summary = &f.consequence.as_ref().expect("a consequence").summary;
    assert!(
        summary.contains("bound (local-a to data-db-0, local-far to data-db-70000000)")
            && summary.contains("claims data-db-1, data-db-2, data-db-3 find no volume")
            && summary.contains("pods db-1, db-2, db-3 never start, nor do 99999995 more"),
        "{summary}"
    );
    assert!(
        f.message.contains("2 in another apply set"),
        "{}",
        f.message
    );
}

/// On one cluster, a claim that binds only a volume another apply set defines still binds on a cluster that
/// holds that set: two replicas mounting it contend for a ReadWriteOnce volume, and the claim
/// is not reported as staying Pending.
#[test]
fn a_claim_fitted_by_another_sets_volume_binds() {
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: nfs-data}\nspec:\n  storageClassName: \"\"\n  capacity: {storage: 5Gi}\n  accessModes: [ReadWriteOnce]\n  iscsi: {targetPortal: \"10.0.0.1:3260\", iqn: \"iqn.2001-04.com.example:storage\", lun: 0}\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  resources: {requests: {storage: 1Gi}}\n";
    let app = format!("{claim}---\n{WEB_3}");
    let r = lint_one_cluster(&[("storage/pv.yaml", pv), ("apps/web.yaml", &app)]);
    let rules = rules(&r);
    assert!(
        rules
            .iter()
            .any(|(rule, _, _)| *rule == "rwo-shared-by-replicas"),
        "{rules:?}"
    );
    assert!(
        !rules.iter().any(|(rule, _, _)| *rule == "unbindable-claim"),
        "{rules:?}"
    );
}

/// On one cluster, a claim without a storageClassName gets the class another set marks default only if that
/// class is the cluster's default: the finding that rests on it says so (GetDefaultClass picks
/// the newest of several defaults, and the cluster may hold another).
#[test]
fn a_default_class_from_elsewhere_is_named_as_the_default() {
    let infra = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: ebs\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: ebs.csi.aws.com\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let app = format!("{claim}---\n{WEB_3}");
    let r = lint_one_cluster(&[("infra/sc.yaml", infra), ("apps/web.yaml", &app)]);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "rwo-shared-by-replicas")
        .unwrap_or_else(|| panic!("{:#?}", r.findings));
    let assumptions = &f.consequence.as_ref().expect("a consequence").assumptions;
    assert!(
        assumptions
            .iter()
            .any(|a| a.contains("infra/sc.yaml") && a.contains("the cluster's only default class")),
        "{assumptions:#?}"
    );
    assert_eq!(f.severity, Severity::Warning);
}

/// Every YAML and JSON file under `dir`, named by its path from `dir`, sorted.
fn files_under(dir: &std::path::Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
            {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    let name = p.strip_prefix(dir).unwrap().display().to_string();
                    out.push(Source::new(name, text));
                }
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A finding as the user reads it, without the apply set it was reported in.
fn as_read(f: &pvlint_core::Finding) -> serde_json::Value {
    let mut v = serde_json::to_value(f).unwrap();
    v.as_object_mut().unwrap().remove("applySet");
    v
}

/// The inputs the isolation tests run on: the examples, and each repository of the shared
/// corpora when they are there (`../shared/corpus`, or `$PVLINT_CORPUS`'s parent).
fn isolation_inputs() -> Vec<(String, Vec<Source>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![("examples".to_string(), files_under(&root.join("examples")))];
    let corpora = std::env::var_os("PVLINT_CORPUS")
        .map(|c| std::path::PathBuf::from(c).join(".."))
        .unwrap_or_else(|| root.join("../shared/corpus"));
    let mut found = false;
    for corpus in ["realworld", "realworld3"] {
        let Ok(repos) = std::fs::read_dir(corpora.join(corpus)) else {
            continue;
        };
        let mut repos: Vec<_> = repos
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        repos.sort();
        for repo in repos {
            found = true;
            out.push((repo.display().to_string(), files_under(&repo)));
        }
    }
    if !found {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: the shared corpus ({}) is not here; the isolation tests ran on the examples only. \
             Set PVLINT_CORPUS=DIR/realworld to run them on it.",
            corpora.display()
        );
    }
    out
}

/// `--each-file` gives each file what it gets alone, byte for byte: what one file defines (a
/// default class, a CSIDriver, a hostPath volume that suggests one node) never reaches another.
/// Over every example and every file of the shared corpora. The one exception is a file's role,
/// not a cluster fact: a file a kustomization of the input uses as a patch is not applied in
/// any mode, and gets only the note that says so.
#[test]
fn each_file_is_every_file_alone() {
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for (name, sources) in isolation_inputs() {
        let each = api::lint(&Request {
            sources: sources.clone(),
            each_file: true,
            ..Request::default()
        });
        for s in &sources {
            let alone = api::lint(&Request {
                sources: vec![s.clone()],
                ..Request::default()
            });
            let got: Vec<_> = each
                .findings
                .iter()
                .filter(|f| f.location.file == s.name)
                .map(as_read)
                .collect();
            let want: Vec<_> = alone.findings.iter().map(as_read).collect();
            // A file a kustomization of the input uses as a patch, component or replacement
            // source is not a manifest anything applies: in every mode it gets the one note
            // that says so (what it is, not what a cluster does), and nothing else.
            let used_by_kustomization = got.iter().any(|f| {
                f["rule"] == "unrendered-template"
                    && f["related"].as_array().is_some_and(|r| {
                        r.iter().any(|x| {
                            x["location"]["file"].as_str().is_some_and(|f| {
                                f.ends_with("kustomization.yaml")
                                    || f.ends_with("kustomization.yml")
                            })
                        })
                    })
            });
            if used_by_kustomization {
                assert!(
                    got.iter().all(|f| f["rule"] == "unrendered-template"),
                    "{name}: {}: a kustomization's patch gets only its note: {got:#?}",
                    s.name
                );
                continue;
            }
            // A kustomization's replacement targets likewise: the note on the placeholder says
            // what writes the field; everything else is what the file gets alone.
            let (got, want): (Vec<_>, Vec<_>) = if got
                .iter()
                .chain(&want)
                .any(|f| f["rule"] == "unrendered-template")
            {
                let notes = |v: Vec<serde_json::Value>| -> Vec<serde_json::Value> {
                    v.into_iter()
                        .filter(|f| f["rule"] != "unrendered-template")
                        .collect()
                };
                (notes(got), notes(want))
            } else {
                (got, want)
            };
            if got != want {
                let rules = |v: &[serde_json::Value]| -> Vec<String> {
                    v.iter()
                        .map(|f| {
                            format!("{}:{}:{}", f["rule"], f["location"]["line"], f["severity"])
                        })
                        .collect()
                };
                mismatches.push(format!(
                    "{name}: {}: each {:?} alone {:?}",
                    s.name,
                    rules(&got),
                    rules(&want)
                ));
            }
            checked += 1;
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} files differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(checked >= 20, "only {checked} files checked");
}

/// A directory's findings do not depend on its sibling directories: each directory set of a
/// repository (one no file of which another set shares) gives, linted in the repository, what
/// its files give linted alone.
#[test]
fn a_directory_is_judged_as_if_alone() {
    let mut checked = 0;
    for (name, sources) in isolation_inputs() {
        let all = api::lint(&Request {
            sources: sources.clone(),
            ..Request::default()
        });
        if all.apply_sets.len() < 2 {
            continue;
        }
        for (n, set) in all.apply_sets.iter().enumerate() {
            let shared = all
                .apply_sets
                .iter()
                .enumerate()
                .any(|(m, o)| m != n && o.files.iter().any(|f| set.files.contains(f)));
            if set.kind != SetKind::Directory || shared {
                continue;
            }
            let mine: Vec<Source> = sources
                .iter()
                .filter(|s| set.files.iter().any(|f| *f == s.name))
                .cloned()
                .collect();
            let alone = api::lint(&Request {
                sources: mine,
                ..Request::default()
            });
            if alone.apply_sets.len() != 1 {
                continue; // the files alone partition otherwise (a kustomization among them)
            }
            let got: Vec<_> = all
                .findings
                .iter()
                .filter(|f| f.apply_set == Some(n as u32))
                .map(as_read)
                .collect();
            let want: Vec<_> = alone.findings.iter().map(as_read).collect();
            assert_eq!(
                got, want,
                "{name}: directory {} beside its siblings",
                set.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} directories checked");
}
