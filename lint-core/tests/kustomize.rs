//! Files a kustomization in the input uses as patches (kustomize's strategic merge,
//! sigs.k8s.io/kustomize/api/types Kustomization.Patches / PatchesStrategicMerge): never
//! applied as written, so never checked as objects of their own — except a complete patch of a
//! base pvlint cannot see, which is the best picture of that object there is. The objects a
//! patch of the same apply set changes are left out of the analysis (pvlint does not merge
//! patches), with a note, as templates are.

use pvlint_core::{api, Report, Request, Severity, Source};

fn lint(files: &[(&str, &str)], each_file: bool) -> Report {
    api::lint(&Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        each_file,
        ..Request::default()
    })
}

fn rules_at<'a>(r: &'a Report, file: &str) -> Vec<(&'a str, Severity)> {
    r.findings
        .iter()
        .filter(|f| f.location.file == file)
        .map(|f| (f.rule.as_str(), f.severity))
        .collect()
}

const OVERLAY: &str = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ../../base\npatches:\n- path: size.yaml\n";
const BASE_CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n";
const PARTIAL_PATCH: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  resources:\n    requests:\n      storage: 50Gi\n";

#[test]
fn a_partial_patch_is_not_an_invalid_object() {
    for each_file in [false, true] {
        let r = lint(
            &[
                ("app/overlays/prod/kustomization.yaml", OVERLAY),
                ("app/overlays/prod/size.yaml", PARTIAL_PATCH),
                ("app/base/claim.yaml", BASE_CLAIM),
            ],
            each_file,
        );
        assert_eq!(
            rules_at(&r, "app/overlays/prod/size.yaml"),
            vec![("unrendered-template", Severity::Info)],
            "each_file={each_file}: {:#?}",
            r.findings
        );
        assert_eq!(
            r.summary.errors + r.summary.warnings,
            0,
            "{:#?}",
            r.findings
        );
    }
}

#[test]
fn without_its_kustomization_a_patch_is_read_as_an_object() {
    // Documented known problem: lint the folder, not the patch alone.
    let r = lint(&[("size.yaml", PARTIAL_PATCH)], true);
    assert!(r
        .findings
        .iter()
        .any(|f| f.rule == "invalid-field-value" && f.severity == Severity::Error));
}

#[test]
fn a_complete_patch_of_a_remote_base_is_read_as_the_object() {
    // Shaped like a real repository: the base is a URL, the patch makes local-path the default.
    let kustomization = "resources:\n- https://raw.githubusercontent.com/rancher/local-path-provisioner/v0.0.26/deploy/local-path-storage.yaml\npatches:\n- path: storage.yaml\n";
    let class = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local-path\n  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\nreclaimPolicy: Delete\n";
    let app = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n      containers:\n      - name: a\n        image: a\n      volumes:\n      - name: d\n        persistentVolumeClaim:\n          claimName: data\n";
    let files = [
        ("infra/local-path/kustomization.yaml", kustomization),
        ("infra/local-path/storage.yaml", class),
        ("apps/app.yaml", app),
    ];
    // On one cluster (`--same-cluster`), the default class is local-path (node-local, nothing
    // attaches): the surge is harmless.
    let mut req = Request {
        sources: files.iter().map(|(n, t)| Source::new(*n, *t)).collect(),
        ..Request::default()
    };
    req.options.cluster.same_cluster = true;
    let r = api::lint(&req);
    assert!(
        !r.findings.iter().any(|f| f.rule == "rwo-rolling-surge"),
        "{:#?}",
        r.findings
    );
    // Applied apart, or without the patch, the default profile's default class (its driver
    // not known, and such drivers attach): the rollout hangs.
    for r in [lint(&files, false), lint(&[files[2]], false)] {
        assert!(r
            .findings
            .iter()
            .any(|f| f.rule == "rwo-rolling-surge" && f.severity == Severity::Error));
    }
}

#[test]
fn a_patch_whose_target_is_in_the_input_is_not_a_second_definition() {
    let r = lint(
        &[
            (
                "o/kustomization.yaml",
                "resources: [../b]\npatchesStrategicMerge:\n- claim-patch.yaml\n",
            ),
            ("o/claim-patch.yaml", BASE_CLAIM),
            ("b/claim.yaml", BASE_CLAIM),
        ],
        false,
    );
    // Not two definitions of one claim.
    assert!(
        !r.findings.iter().any(|f| f.rule == "duplicate-object"),
        "{:#?}",
        r.findings
    );
    assert_eq!(
        r.summary.errors + r.summary.warnings,
        0,
        "{:#?}",
        r.findings
    );
}

/// A field a kustomization's `replacements` overwrite (sigs.k8s.io/kustomize/api/types
/// Replacement: `targets[].select`, `targets[].fieldPaths`) holds a placeholder as written:
/// the object gets the unrendered-template note, not findings about the placeholder.
#[test]
fn a_replacement_target_is_a_placeholder() {
    let kustomization = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [claim.yaml, env.yaml]\nreplacements:\n- source: {kind: ConfigMap, name: env, fieldPath: data.class}\n  targets:\n  - select: {kind: PersistentVolumeClaim, name: uploads}\n    fieldPaths: [spec.storageClassName]\n";
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  storageClassName: CLASS_FROM_ENV\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n";
    let env = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: env\ndata:\n  class: fast\n";
    let r = lint(
        &[
            ("app/kustomization.yaml", kustomization),
            ("app/claim.yaml", claim),
            ("app/env.yaml", env),
        ],
        false,
    );
    assert_eq!(
        rules_at(&r, "app/claim.yaml"),
        [("unrendered-template", Severity::Info)],
        "{:#?}",
        r.findings
    );
    // Without the kustomization, the value is taken as written (and the API server rejects
    // it: a class name is a lowercase RFC 1123 subdomain).
    let r = lint(&[("app/claim.yaml", claim)], false);
    assert!(
        rules_at(&r, "app/claim.yaml")
            .iter()
            .any(|(rule, _)| *rule == "invalid-field-value"),
        "{:#?}",
        r.findings
    );
}

/// A base's Deployment mounting a volume only its overlays declare (each overlay's patch adds
/// it: hostPath in one, a claim in another): linted with the overlay that patches it, its pod
/// template as written is not what reaches the API server, so a mount of an undeclared volume
/// is not reported (pkg/apis/core/validation ValidateVolumeMounts judges the rendered object).
/// Applied alone (`--each-file`), the file reaches the API server as written and is rejected.
#[test]
fn a_mount_an_overlay_patch_declares_is_judged_with_the_patch() {
    const KUSTOMIZATION: &str = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ../../base\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: plex\n    spec:\n      template:\n        spec:\n          volumes:\n          - name: media\n            hostPath:\n              path: /srv/media\n";
    const BASE_KUSTOMIZATION: &str = "resources:\n- deployment.yaml\n";
    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: plex\nspec:\n  selector:\n    matchLabels: {app: plex}\n  template:\n    metadata:\n      labels: {app: plex}\n    spec:\n      containers:\n      - name: plex\n        image: plexinc/pms-docker:1.41\n        volumeMounts:\n        - name: media\n          mountPath: /data\n";
    let files = [
        ("plex/overlays/dev/kustomization.yaml", KUSTOMIZATION),
        ("plex/base/kustomization.yaml", BASE_KUSTOMIZATION),
        ("plex/base/deployment.yaml", DEPLOYMENT),
    ];
    let together = lint(&files, false);
    assert!(
        rules_at(&together, "plex/base/deployment.yaml")
            .iter()
            .all(|(rule, _)| *rule != "invalid-field-value"),
        "{:#?}",
        together.findings
    );
    let alone = lint(&files, true);
    assert!(
        rules_at(&alone, "plex/base/deployment.yaml")
            .contains(&("invalid-field-value", Severity::Error)),
        "{:#?}",
        alone.findings
    );
}

/// A base claim that leaves its size to each overlay (the overlay's strategic-merge patch
/// adds `resources.requests.storage`): kustomize merges the patch before kubectl applies it
/// (sigs.k8s.io/kustomize/api/internal/builtins PatchTransformer), so the claim the API server
/// gets has a size. pvlint does not merge patches: the patched object is left out of the
/// analysis with a note, as a template is, not judged as written. Applied alone it is rejected.
#[test]
fn an_object_an_overlay_patch_completes_is_not_judged_as_written() {
    const BASE_KUSTOMIZATION: &str = "resources:\n- pvc.yml\n";
    const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: main\nspec:\n  accessModes: [ReadWriteOnce]\n";
    const OVERLAY: &str = "resources:\n- ../base\npatches:\n- path: patch-pvc.yml\n";
    const PATCH: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: main\nspec:\n  storageClassName: manual\n  resources:\n    requests:\n      storage: 30Gi\n";
    let files = [
        ("gitea/base/kustomization.yml", BASE_KUSTOMIZATION),
        ("gitea/base/pvc.yml", CLAIM),
        ("gitea/dev/kustomization.yml", OVERLAY),
        ("gitea/dev/patch-pvc.yml", PATCH),
    ];
    let together = lint(&files, false);
    assert_eq!(
        rules_at(&together, "gitea/base/pvc.yml"),
        [("unrendered-template", Severity::Info)],
        "{:#?}",
        together.findings
    );
    assert_eq!(together.summary.errors + together.summary.warnings, 0);
    let alone = lint(&files, true);
    assert!(
        rules_at(&alone, "gitea/base/pvc.yml").contains(&("invalid-field-value", Severity::Error)),
        "{:#?}",
        alone.findings
    );
}

/// A patch named by `target:` (a JSON 6902 patch: kustomize api/types Patch.Target) and a
/// patch file the input lacks (kustomize fails without it, or a file left out of the input
/// supplies it) leave what they may change out of the analysis: a surge that a patch may turn
/// into Recreate is not reported, nor a claim's missing size.
#[test]
fn targets_and_missing_patch_files_leave_what_they_may_change_out() {
    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        volumeMounts: [{name: data, mountPath: /data}]\n      volumes:\n      - name: data\n        persistentVolumeClaim: {claimName: data}\n";
    const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: gp3\n  resources: {requests: {storage: 1Gi}}\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: gp3\nprovisioner: ebs.csi.aws.com\n";
    let surge = |k: &str| {
        let r = lint(
            &[
                ("app/kustomization.yaml", k),
                ("app/web.yaml", DEPLOYMENT),
                ("app/data.yaml", CLAIM),
            ],
            false,
        );
        rules_at(&r, "app/web.yaml")
            .iter()
            .any(|(rule, _)| *rule == "rwo-rolling-surge")
    };
    // Without patches the surge is reported (the check below can fail).
    assert!(surge("resources: [web.yaml, data.yaml]\n"));
    assert!(!surge("resources: [web.yaml, data.yaml]\npatches:\n- target: {kind: Deployment, name: web}\n  patch: |-\n    - op: replace\n      path: /spec/strategy\n      value: {type: Recreate}\n"));
    assert!(!surge(
        "resources: [web.yaml, data.yaml]\npatches:\n- path: env/strategy.yaml\n"
    ));
    // A target by kind and name names that object only.
    assert!(surge("resources: [web.yaml, data.yaml]\npatches:\n- target: {kind: Deployment, name: other}\n  patch: |-\n    - op: replace\n      path: /spec/replicas\n      value: 2\n"));
}

/// Whether the Deployment `web` (a ReadWriteOnce claim of an attaching driver, the default
/// strategy) is still judged under a kustomization `k` beside it: rwo-rolling-surge reported.
fn web_judged(files: &[(&str, &str)]) -> bool {
    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        volumeMounts: [{name: data, mountPath: /data}]\n      volumes:\n      - name: data\n        persistentVolumeClaim: {claimName: data}\n";
    const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: gp3\n  resources: {requests: {storage: 1Gi}}\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: gp3\nprovisioner: ebs.csi.aws.com\n";
    let mut all = vec![("app/web.yaml", DEPLOYMENT), ("app/data.yaml", CLAIM)];
    all.extend_from_slice(files);
    let r = lint(&all, false);
    rules_at(&r, "app/web.yaml")
        .iter()
        .any(|(rule, _)| *rule == "rwo-rolling-surge")
}

/// Inline patches name their objects (a `patch:` string, and a `patchesStrategicMerge` entry
/// that is a YAML string rather than a file name: kustomize api/types Kustomization); a
/// component's patches apply to what includes it (kind: Component); a target's name is an
/// anchored regular expression (`web-.*`), which pvlint does not match, so it names any object
/// of that kind.
#[test]
fn inline_patches_components_and_patterns_name_what_they_change() {
    let k = |s: &'static str| [("app/kustomization.yaml", s)];
    assert!(web_judged(&k("resources: [web.yaml, data.yaml]\n")));
    assert!(!web_judged(&k("resources: [web.yaml, data.yaml]\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec: {strategy: {type: Recreate}}\n")));
    assert!(!web_judged(&k("resources: [web.yaml, data.yaml]\npatchesStrategicMerge:\n- |-\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n  spec: {strategy: {type: Recreate}}\n")));
    // An inline patch of another object leaves web judged.
    assert!(web_judged(&k("resources: [web.yaml, data.yaml]\npatchesStrategicMerge:\n- |-\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: api}\n  spec: {replicas: 2}\n")));
    assert!(!web_judged(&k("resources: [web.yaml, data.yaml]\npatches:\n- target: {kind: Deployment, name: \"w.*\"}\n  patch: |-\n    - {op: replace, path: /spec/strategy, value: {type: Recreate}}\n")));
    assert!(!web_judged(&[
        ("app/kustomization.yaml", "resources: [web.yaml, data.yaml]\ncomponents: [../recreate]\n"),
        ("recreate/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- target: {kind: Deployment, name: web}\n  patch: |-\n    - {op: replace, path: /spec/strategy, value: {type: Recreate}}\n"),
    ]));
}

/// A claim of a StorageClass (or naming a PersistentVolume) that a patch changes is left out
/// with it, rather than reported as using a class or a volume that does not exist.
#[test]
fn a_claim_of_a_patched_class_or_volume_is_not_told_they_do_not_exist() {
    const OBJECTS: &str = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\nprovisioner: ebs.csi.aws.com\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: media\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteMany]\n  nfs: {server: nas.local, path: /media}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n  resources: {requests: {storage: 1Gi}}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: media\nspec:\n  accessModes: [ReadWriteMany]\n  storageClassName: \"\"\n  volumeName: media\n  resources: {requests: {storage: 1Gi}}\n";
    const K: &str = "resources: [objects.yaml]\npatches:\n- target: {kind: StorageClass, name: fast}\n  patch: |-\n    - {op: add, path: /parameters, value: {type: io2}}\n- target: {kind: PersistentVolume, name: media}\n  patch: |-\n    - {op: replace, path: /spec/nfs/server, value: 10.0.0.5}\n";
    let r = api::lint(&Request {
        sources: vec![
            Source::new("app/kustomization.yaml", K),
            Source::new("app/objects.yaml", OBJECTS),
        ],
        options: pvlint_core::Options {
            complete: true,
            ..Default::default()
        },
        ..Request::default()
    });
    assert!(
        r.findings
            .iter()
            .all(|f| f.rule != "storage-class-not-found" && f.rule != "dangling-volume-name"),
        "{:#?}",
        r.findings
    );
}

/// A variant beside a kustomization that none names (`pvc-large.yaml`) is not applied, so it
/// changes nothing: the claim it would patch is still judged.
#[test]
fn an_unused_variant_changes_nothing() {
    const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n  resources:\n    requests:\n      storage: 1Gi\n";
    let r = lint(
        &[
            ("app/kustomization.yaml", "resources: [pvc.yaml]\n"),
            ("app/pvc.yaml", CLAIM),
            ("app/pvc-large.yaml", PARTIAL_PATCH),
        ],
        false,
    );
    assert!(
        rules_at(&r, "app/pvc.yaml").contains(&("storage-class-not-found", Severity::Info)),
        "{:#?}",
        r.findings
    );
}

/// A template of a volume beside its rendered copy (`shared-pv-template.yaml` with
/// `$NFS_SERVER`, `shared-pv.yaml` with the address): the claim that names the volume is
/// judged against the rendered one, not left out with the template.
#[test]
fn a_template_beside_its_rendered_copy_leaves_the_claim_judged() {
    const PV: &str = "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: shared-pv\nspec:\n  capacity: {storage: 100Gi}\n  accessModes: [ReadWriteMany]\n  nfs: {path: /homes, server: SERVER}\n  storageClassName: jhub\n";
    const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: shared\nspec:\n  accessModes: [ReadWriteMany]\n  resources: {requests: {storage: 100Gi}}\n  volumeName: shared-pv\n";
    let r = lint(
        &[
            (
                "s/shared-pv-template.yaml",
                &PV.replace("SERVER", "$NFS_SERVER"),
            ),
            ("s/shared-pv.yaml", &PV.replace("SERVER", "172.16.49.54")),
            ("s/shared-pvc.yaml", CLAIM),
        ],
        false,
    );
    // The claim has no class, its volume has one: judged, so storage-class-mismatch.
    assert!(
        rules_at(&r, "s/shared-pvc.yaml")
            .iter()
            .any(|(rule, _)| *rule == "storage-class-mismatch"),
        "{:#?}",
        r.findings
    );
}
