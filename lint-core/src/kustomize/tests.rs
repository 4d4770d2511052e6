use super::*;

fn src(name: &str, text: &str) -> Source {
    Source::new(name, text)
}

#[test]
fn patches_and_generator_inputs_are_found_relative_to_the_kustomization() {
    let sources = vec![
        src(
            "app/overlays/prod/kustomization.yaml",
            "resources: [../../base]\npatches:\n- path: size.yaml\n- patch: |-\n    - op: add\npatchesStrategicMerge:\n- ./more.yaml\npatchesJson6902:\n- path: ../shared/json.yaml\nconfigMapGenerator:\n- name: c\n  files: [conf=settings.yaml]\n",
        ),
        src("app/overlays/prod/size.yaml", "kind: PersistentVolumeClaim\n"),
        src("app/overlays/prod/more.yaml", "kind: PersistentVolumeClaim\n"),
        src("app/overlays/shared/json.yaml", "- op: replace\n"),
        src("app/overlays/prod/settings.yaml", "a: 1\n"),
        src("app/base/claim.yaml", "kind: PersistentVolumeClaim\n"),
    ];
    let found = Kustomizations::of(&sources).non_resources();
    let mut ids: Vec<_> = found.keys().copied().collect();
    ids.sort();
    assert_eq!(ids, vec![1, 2, 3, 4], "the base's resource is not a patch");
    assert_eq!(found[&1].field, "patches");
    assert_eq!((found[&1].at.start.line, found[&1].at.start.column), (3, 9));
    assert_eq!(found[&2].field, "patchesStrategicMerge");
    assert_eq!(found[&3].field, "patchesJson6902");
    assert_eq!(found[&4].field, "configMapGenerator");
}

#[test]
fn replacement_targets_and_their_field_paths() {
    let sources = vec![
        src(
            "app/kustomization.yaml",
            "resources: [pvc.yaml]\nreplacements:\n- source: {kind: ConfigMap, name: env, fieldPath: data.class}\n  targets:\n  - select: {kind: PersistentVolumeClaim}\n    fieldPaths: [spec.storageClassName]\n- path: more.yaml\n",
        ),
        src(
            "app/more.yaml",
            "source: {kind: ConfigMap, name: env, fieldPath: data.image}\ntargets:\n- select: {kind: Deployment, name: web}\n  fieldPaths:\n  - spec.template.spec.containers.[name=app].image\n",
        ),
        src("app/pvc.yaml", "kind: PersistentVolumeClaim\n"),
        src("other/pvc.yaml", "kind: PersistentVolumeClaim\n"),
    ];
    let t = Kustomizations::of(&sources).replacement_targets();
    assert_eq!(t.len(), 2);
    assert!(t[0].sources.contains(&2) && !t[0].sources.contains(&3));
    assert!(t[0].selects("PersistentVolumeClaim", "data", Some("default")));
    assert!(!t[1].selects("Deployment", "api", Some("default")));
    let (docs, _) = yaml::parse_stream(
        "spec:\n  template:\n    spec:\n      containers:\n      - name: side\n        image: a\n      - name: app\n        image: b\n",
    );
    let root = docs[0].root.as_ref().unwrap();
    let found = resolve_field_path(root, &t[1].field_paths[0]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].as_str(), Some("b"));
    assert_eq!(
        resolve_field_path(root, "spec.template.spec.containers.*.image").len(),
        2
    );
    assert_eq!(
        resolve_field_path(root, "spec.template.spec.containers.0.image")[0].as_str(),
        Some("a")
    );
}

#[test]
fn windows_names_and_no_kustomization() {
    let sources = vec![
        src("d\\Kustomization", "patches:\n- path: p.yaml\n"),
        src("d\\p.yaml", "kind: X\n"),
    ];
    assert_eq!(Kustomizations::of(&sources).non_resources().len(), 1);
    assert!(Kustomizations::of(&sources[1..]).non_resources().is_empty());
}

/// kustomize's api/types/fix.go (`FixKustomizationPreUnmarshalling`, `useLegacyPatch`): a
/// `patches` list with a string in it is read as the legacy `patchesStrategicMerge`, so each
/// string names a patch file, not an object to apply.
#[test]
fn a_patches_list_of_file_names_is_the_legacy_strategic_merge() {
    let sources = vec![
        src(
            "deploy/kustomization.yaml",
            "resources:\n- node.yaml\npatches:\n- dev/node_image.yaml\n",
        ),
        src("deploy/node.yaml", "kind: DaemonSet\n"),
        src("deploy/dev/node_image.yaml", "kind: DaemonSet\n"),
    ];
    let found = Kustomizations::of(&sources).non_resources();
    assert_eq!(found.keys().copied().collect::<Vec<_>>(), vec![2]);
    assert_eq!(found[&2].field, "patchesStrategicMerge");
}
