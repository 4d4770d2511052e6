//! migrate's unit tests.

use super::*;

fn run(text: &str, opts: MigrateOptions) -> Migration {
    migrate(&MigrateRequest {
        sources: vec![Source::new("in.yaml", text)],
        options: opts,
    })
}

#[test]
fn list_items_become_documents_with_comments() {
    let m = run(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    # keep me\n    name: a\n    uid: x\n  spec:\n    persistentVolumeReclaimPolicy: Delete\n    capacity:\n      storage: 1Gi\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: n\n    resourceVersion: \"5\"\n  data:\n    k: |\n      line\n",
        MigrateOptions::default(),
    );
    assert!(m.errors.is_empty(), "{:?}", m.errors);
    assert_eq!(m.objects.len(), 2);
    assert_eq!(
        m.objects[0].text,
        "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  # keep me\n  name: a\nspec:\n  persistentVolumeReclaimPolicy: Retain\n  capacity:\n    storage: 1Gi\n"
    );
    assert_eq!(
        m.objects[1].text,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: n\ndata:\n  k: |\n    line\n"
    );
    assert_eq!(m.objects[0].line, 4);
}

/// Layouts of List items that once lost fields silently: a comment at column 0 inside the
/// last item, and items whose content starts on the line after the `-`.
#[test]
fn list_items_keep_every_field_whatever_their_layout() {
    let pv = |name: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {name}\nspec:\n  capacity:\n    storage: 1Gi\n  persistentVolumeReclaimPolicy: Retain\n")
    };
    let m = run(
        "kind: List\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n# the spec\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n",
        MigrateOptions::default(),
    );
    assert!(m.errors.is_empty(), "{:?}", m.errors);
    assert_eq!(m.objects.len(), 1);
    assert_eq!(m.objects[0].text.replace("# the spec\n", ""), pv("a"));
    for items in [
        "kind: List\nitems:\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n",
        "items:\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: b\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\nkind: List\n",
    ] {
        let m = run(&format!("apiVersion: v1\n{items}"), MigrateOptions::default());
        assert!(m.errors.is_empty(), "{:?}", m.errors);
        let texts: Vec<&str> = m.objects.iter().map(|o| o.text.as_str()).collect();
        let want = [pv("a"), pv("b")];
        assert_eq!(texts, want[..m.objects.len()].iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(m.objects.len(), items.matches("name: ").count());
    }
}

#[test]
fn emptied_maps_go_and_block_scalars_are_removed_whole() {
    let m = run(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  annotations:\n    pv.kubernetes.io/bind-completed: \"yes\"\n    pv.kubernetes.io/bound-by-controller: \"yes\"\n  managedFields:\n  - manager: x\n    fieldsV1:\n      f:a: {}\n  name: c\nspec:\n  volumeName: v\nstatus:\n  phase: Bound\n  message: |\n    two\n    lines\n\n",
        MigrateOptions::default(),
    );
    assert_eq!(
        m.objects[0].text,
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\nspec:\n  volumeName: v\n"
    );
}

#[test]
fn json_is_written_out_as_block_yaml() {
    let m = run(
        r#"{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "a", "uid": "u", "labels": {"x": "yes"}}, "spec": {"accessModes": ["ReadWriteOnce"], "claimRef": {"name": "c", "namespace": "ns", "uid": "u2"}, "persistentVolumeReclaimPolicy": "Delete", "capacity": {"storage": "1Gi"}}, "status": {"phase": "Bound"}}"#,
        MigrateOptions::default(),
    );
    assert_eq!(
        m.objects[0].text,
        "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: a\n  labels:\n    x: \"yes\"\nspec:\n  accessModes:\n  - ReadWriteOnce\n  claimRef:\n    name: c\n    namespace: ns\n  persistentVolumeReclaimPolicy: Retain\n  capacity:\n    storage: 1Gi\n"
    );
}

/// A date or a clock time in an annotation is written quoted: a YAML 1.1 reader (PyYAML,
/// yq) would take it for a timestamp or a sexagesimal number.
#[test]
fn dates_and_times_are_quoted_when_written_out() {
    let m = run(
        r#"{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "a", "annotations": {"backup/at": "2019-12-01T13:50:44-07:00", "backup/day": "2019-12-01", "window": "12:30:00"}}, "spec": {"capacity": {"storage": "1Gi"}}}"#,
        MigrateOptions::default(),
    );
    let text = &m.objects[0].text;
    for line in [
        "backup/at: \"2019-12-01T13:50:44-07:00\"",
        "backup/day: \"2019-12-01\"",
        "window: \"12:30:00\"",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn namespace_is_added_when_default_is_mapped() {
    let mut o = MigrateOptions::default();
    o.map_namespace.insert("default".into(), "prod".into());
    let m = run(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  labels:\n    a: b\nspec: {}\n",
        o,
    );
    assert_eq!(
        m.objects[0].text,
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  namespace: prod\n  labels:\n    a: b\nspec: {}\n"
    );
    assert_eq!(m.objects[0].object.namespace.as_deref(), Some("prod"));
}

#[test]
fn emitter_round_trips() {
    for t in [
        "a:\n- b: 1\n  c:\n  - x\n  - - y\n- z\nd: {}\ne: []\nf: null\ng: \"1\"\nh: \"a: b\"\n",
        "k:\n  l:\n  - m:\n      n: o\n",
    ] {
        let (docs, issues) = yaml::parse_stream(t);
        assert!(issues.is_empty());
        let root = docs[0].root.as_ref().unwrap();
        let out = emit(root);
        let (again, issues) = yaml::parse_stream(&out);
        assert!(issues.is_empty(), "{out}");
        assert_eq!(emit(again[0].root.as_ref().unwrap()), out);
    }
}

#[test]
fn broken_documents_are_errors_with_positions() {
    let m = run(
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: [\n---\n- a\n",
        MigrateOptions::default(),
    );
    assert_eq!(m.errors.len(), 2, "{:?}", m.errors);
    assert_eq!(m.errors[1].line, 5);
}
