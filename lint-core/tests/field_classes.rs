//! Classes of false or noisy findings met on real repositories no test here had seen, each
//! with the Kubernetes fact that was misread, fixed as a class (never by repository, path or
//! name). One test per class; the inputs are the smallest that show it.

use pvlint_core::{api, Report, Request, Severity, Source};

fn lint(files: &[(&str, &str)]) -> Report {
    api::lint(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        ..Request::default()
    })
}

/// The files applied together (`--together`) under a profile of `nodes`.
fn lint_on(files: &[(&str, &str)], nodes: pvlint_core::profile::Nodes) -> Report {
    let mut req = Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        together: true,
        ..Request::default()
    };
    req.options.cluster.nodes = Some(nodes);
    api::lint(&req)
}

fn lint_each(files: &[(&str, &str)]) -> Report {
    api::lint(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        each_file: true,
        ..Request::default()
    })
}

fn of<'a>(r: &'a Report, rule: &str) -> Vec<(&'a str, Severity, &'a str)> {
    r.findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.location.file.as_str(), f.severity, f.message.as_str()))
        .collect()
}

fn deployment(claim: &str) -> String {
    format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: db}}\nspec:\n  selector: {{matchLabels: {{app: db}}}}\n  template:\n    metadata: {{labels: {{app: db}}}}\n    spec:\n      containers: [{{name: db, image: postgres}}]\n      volumes: [{{name: d, persistentVolumeClaim: {{claimName: {claim}}}}}]\n")
}

fn claim(name: &str, class: Option<&str>) -> String {
    let class = class.map_or(String::new(), |c| format!("  storageClassName: {c}\n"));
    format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}}}\nspec:\n{class}  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 1Gi}}}}\n")
}

/// kind installs `standard` (rancher.io/local-path, node-local) as the default class: a kind
/// cluster config in the input says which cluster the manifests are for, and a local-path
/// volume pins the surged pod to the old pod's node (no Multi-Attach).
#[test]
fn a_kind_config_names_the_default_class() {
    let kind = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\n";
    let files = [
        ("k8s/kind.yaml", kind),
        ("k8s/db.yaml", &deployment("data")),
        ("k8s/pvc.yaml", &claim("data", None)),
    ];
    assert_eq!(of(&lint(&files), "rwo-rolling-surge"), []);
    // Without it, the default profile: a default class whose driver pvlint does not know,
    // and such drivers attach. A warning only because the claim is in another file of the
    // directory (applied together: pvlint's grouping, an assumption); said so, an error.
    let r = lint(&files[1..]);
    assert_eq!(of(&r, "rwo-rolling-surge").len(), 1);
    assert_eq!(of(&r, "rwo-rolling-surge")[0].1, Severity::Warning);
    let r = lint_on(&files[1..], pvlint_core::profile::Nodes::Several);
    assert_eq!(of(&r, "rwo-rolling-surge")[0].1, Severity::Error);
}

/// A hostPath volume without nodeAffinity is a directory on whichever node a pod lands on:
/// the apply set is written for a cluster of one node, against the default profile's several:
/// the surge hazard is a warning that names the volume; said one node, there is none; said
/// several, it is certain. The hint stays in its apply set.
#[test]
fn a_hostpath_volume_without_node_affinity_hints_at_one_node() {
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: disk}\nspec:\n  capacity: {storage: 5Gi}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /mnt/data}\n";
    let files = [
        ("k8s/db.yaml", deployment("data")),
        ("k8s/pvc.yaml", claim("data", None)),
        ("k8s/pv.yaml", pv.to_string()),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let r = lint(&files);
    let found = of(&r, "rwo-rolling-surge");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, Severity::Warning);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "rwo-rolling-surge")
        .unwrap();
    let assumptions = &f.consequence.as_ref().unwrap().assumptions;
    assert!(
        assumptions
            .iter()
            .any(|a| a.contains("hostPath volume disk (k8s/pv.yaml)")),
        "{assumptions:?}"
    );
    use pvlint_core::profile::Nodes;
    assert_eq!(of(&lint_on(&files, Nodes::One), "rwo-rolling-surge"), []);
    assert_eq!(
        of(&lint_on(&files, Nodes::Several), "rwo-rolling-surge")[0].1,
        Severity::Error
    );
    // Another file, applied on its own, does not hear the hint.
    let app = format!("{}---\n{}", deployment("data"), claim("data", None));
    let r = lint_each(&[("k8s/app.yaml", &app), ("k8s/pv.yaml", pv)]);
    assert_eq!(of(&r, "rwo-rolling-surge")[0].1, Severity::Error);
    let r = lint_each(&[("k8s/app.yaml", &app)]);
    assert_eq!(of(&r, "rwo-rolling-surge")[0].1, Severity::Error);
}

/// A class whose name says node-local storage (openebs-lvmsc, zfspv-...) most likely pins its
/// pods to one node: a surge hazard resting on the unknown driver attaching is informational.
#[test]
fn a_class_named_for_node_local_storage_makes_the_surge_informational() {
    let files = [
        ("app/db.yaml", deployment("data")),
        ("app/pvc.yaml", claim("data", Some("openebs-lvmsc"))),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let r = lint(&files);
    let found = of(&r, "rwo-rolling-surge");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, Severity::Info);
}

/// `kubectl apply` refuses objects that have only `metadata.generateName` ("cannot use
/// generate name with apply"): a finding resting on such an object in another file of the
/// directory never happens under `kubectl apply -f DIR`.
#[test]
fn generate_name_objects_are_not_applied_together() {
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {generateName: my-pv-}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  nfs: {server: 10.0.0.1, path: /x}\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {generateName: my-pvc-}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let r = lint(&[("k8s/pv.yaml", pv), ("k8s/pvc.yaml", pvc)]);
    assert_eq!(of(&r, "implicit-default-class"), []);
    // Named, the same pair is the mistake the rule is for.
    let r = lint(&[
        (
            "k8s/pv.yaml",
            &pv.replace("generateName: my-pv-", "name: my-pv"),
        ),
        (
            "k8s/pvc.yaml",
            &pvc.replace("generateName: my-pvc-", "name: my-pvc"),
        ),
    ]);
    assert_eq!(of(&r, "implicit-default-class").len(), 1);
}

/// `kubectl apply -f DIR` creates objects file by file: a claim is admitted before a default
/// StorageClass written in a later file exists, so admission gives it no class and it binds
/// the class-less volume it was written for (DefaultStorageClass admission runs on CREATE
/// only; RetroactiveDefaultStorageClass assigns a class only to a claim no volume matched).
/// Kustomize sorts StorageClasses first: there the claim gets the default class.
#[test]
fn a_default_class_written_after_the_claim_is_not_there_at_admission() {
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: database}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  nfs: {server: 10.0.0.1, path: /db}\n";
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: default\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: disk.csi.azure.com\n";
    let pvc = claim("database", None);
    let files = [
        ("k8s/1-pv.yaml", pv),
        ("k8s/2-pvc.yaml", pvc.as_str()),
        ("k8s/3-class.yaml", sc),
    ];
    let sim = api::simulate(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        ..Request::default()
    })
    .unwrap();
    let c = sim.claims.iter().find(|c| c.name == "database").unwrap();
    assert_eq!(c.volume.as_deref(), Some("database"), "{c:?}");
    assert_eq!(of(&lint(&files), "implicit-default-class"), []);
    // The class first: admission gives the claim the default class, not the volume.
    let first = [
        ("k8s/0-class.yaml", sc),
        ("k8s/1-pv.yaml", pv),
        ("k8s/2-pvc.yaml", pvc.as_str()),
    ];
    assert_eq!(of(&lint(&first), "implicit-default-class").len(), 1);
}

/// A removed API version beside a served definition of the same object in another file is a
/// variant kept for older clusters when both go to one cluster (`--same-cluster`):
/// informational, and it says which file serves now. Applied apart, each directory is judged
/// for the profile's Kubernetes version alone, and there the old file fails.
#[test]
fn a_removed_version_beside_a_served_one_is_a_variant() {
    let old = "apiVersion: storage.k8s.io/v1beta1\nkind: CSIDriver\nmetadata: {name: csi.example.com}\nspec: {attachRequired: false}\n";
    let new = old.replace("storage.k8s.io/v1beta1", "storage.k8s.io/v1");
    let files = [
        ("deploy/k8s.yaml", new.as_str()),
        ("deploy/old/k8s_before_v1_18.yaml", old),
    ];
    let mut req = Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        ..Request::default()
    };
    req.options.cluster.same_cluster = true;
    let r = api::lint(&req);
    let found = of(&r, "removed-api-version");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, Severity::Info);
    assert_eq!(
        of(&lint(&files), "removed-api-version")[0].1,
        Severity::Error
    );
    // Alone, it is what it is: an object the release does not serve.
    assert_eq!(
        of(&lint(&[("k8s.yaml", old)]), "removed-api-version")[0].1,
        Severity::Error
    );
}

/// Strategic-merge directives (`$patch: delete`) exist only in patches: such a document is a
/// patch, never an object with an unknown field. Files beside a kustomization that it does
/// not use (its `patches:` entry commented out) are read as patches too: left out if partial.
#[test]
fn patches_are_not_judged_as_objects() {
    let delete = "$patch: delete\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: redis}\n";
    assert!(lint_each(&[("overlay/delete-redis.yaml", delete)])
        .findings
        .is_empty());
    let kustomization =
        "resources: [../manager]\n#patches:\n#- path: manager_auth_proxy_patch.yaml\n";
    let patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: controller-manager}\nspec:\n  template:\n    spec:\n      containers: [{name: kube-rbac-proxy, image: proxy}]\n";
    let files = [
        ("config/default/kustomization.yaml", kustomization),
        ("config/default/manager_auth_proxy_patch.yaml", patch),
    ];
    assert!(
        lint(&files).findings.is_empty(),
        "{:?}",
        lint(&files).findings
    );
    assert!(lint_each(&files).findings.is_empty());
}

/// A document of a custom group without metadata at all, or a kind Kubernetes does not serve
/// without apiVersion, is some tool's config (nodeadm's NodeConfig, istioctl's profile,
/// operator-sdk's scorecard Configuration): not an object that fails, nothing to report.
#[test]
fn tool_configs_are_not_objects() {
    let node_config =
        "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster: {name: demo}\n";
    let scorecard = "kind: Configuration\napiversion: scorecard.operatorframework.io/v1alpha3\nmetadata: {name: config}\nstages: []\n";
    assert!(lint(&[("nodeconfig.yaml", node_config)])
        .findings
        .is_empty());
    assert!(lint(&[("scorecard/config.yaml", scorecard)])
        .findings
        .is_empty());
    // A built-in kind without apiVersion is a manifest that lost it.
    let deploy = "kind: Deployment\nmetadata: {name: web}\nspec: {}\n";
    assert_eq!(of(&lint(&[("web.yaml", deploy)]), "parse-error").len(), 1);
}

/// A file that does not parse and shows no sign of a manifest (no `apiVersion`, no `kind`) is
/// not one (a tsconfig.json, a cloud config): its syntax errors are not reported.
#[test]
fn unreadable_files_that_are_no_manifests_are_not_reported() {
    let tsconfig =
        "{\n  // comment\n  \"compilerOptions\": {\n    \"target\": \"es2020\",\n  }\n}\n";
    assert!(lint(&[("ui/tsconfig.json", tsconfig)]).findings.is_empty());
    let broken = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: {}\n";
    assert_eq!(of(&lint(&[("cm.yaml", broken)]), "parse-error").len(), 1);
}

/// Templates that parse as YAML: a ytt file (`#@` annotations), a placeholder in a key, a
/// placeholder where every built-in type wants an integer, a stray document with
/// placeholders. Each gets the one template note and nothing else.
#[test]
fn templates_that_parse_are_still_templates() {
    let ytt = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"Deployment\"})\n---\nspec:\n  replicas: 3\n";
    let key = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: op\n  ${COMMENT}namespace: kube-system\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n";
    let int = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: subject}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      securityContext: {runAsUser: $ID}\n      containers: [{name: c, image: i}]\n";
    let stray = "kind: InferencePool\nmetadata:\n  name: ${APP_NAME:-pool}\nspec: {}\n";
    for (name, text) in [
        ("ytt.yaml", ytt),
        ("key.yaml", key),
        ("int.yaml", int),
        ("stray.yaml", stray),
    ] {
        let r = lint(&[(name, text)]);
        let rules: Vec<&str> = r.findings.iter().map(|f| f.rule.as_str()).collect();
        assert_eq!(rules, ["unrendered-template"], "{name}: {:?}", r.findings);
    }
}

/// A claim with a selector never gets a volume from the CSI external-provisioner ("claim
/// Selector is not supported"), but a selector picks volumes made by hand: without the cluster
/// the claim may well bind one, so only with the cluster known is it an error.
#[test]
fn a_selector_claim_waits_for_a_volume_made_by_hand() {
    let sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: ebs.csi.aws.com\n";
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  storageClassName: fast\n  selector: {matchLabels: {tier: db}}\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n";
    let files = [("a/sc.yaml", sc), ("a/pvc.yaml", pvc)];
    assert_eq!(of(&lint(&files), "unbindable-claim")[0].1, Severity::Info);
    let r = api::lint(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        options: pvlint_core::Options {
            complete: true,
            ..Default::default()
        },
        ..Request::default()
    });
    assert_eq!(of(&r, "unbindable-claim")[0].1, Severity::Error);
}
