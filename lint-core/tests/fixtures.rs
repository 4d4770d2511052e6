//! Every rule's fixtures: `bad*.yaml` must trigger the rule, `good*.yaml` must not, and the
//! full output for each fixture is pinned by a snapshot.

use std::fs;
use std::path::{Path, PathBuf};

use pvlint_core::{lint_with_cluster, render, KubeVersion, Options, Report, Source};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Lints a fixture; `X.cluster.yaml` next to `X.yaml` is its cluster state.
fn lint_file(path: &Path, options: &Options) -> (Report, Vec<Source>) {
    let rel = path
        .strip_prefix(fixtures_dir())
        .unwrap()
        .display()
        .to_string();
    let sources = vec![Source::new(rel.clone(), fs::read_to_string(path).unwrap())];
    let cluster_path = path.with_extension("cluster.yaml");
    let cluster: Vec<Source> = fs::read_to_string(&cluster_path)
        .map(|t| vec![Source::new(rel.replace(".yaml", ".cluster.yaml"), t)])
        .unwrap_or_default();
    (lint_with_cluster(&sources, &cluster, options), sources)
}

fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(prefix)
                && (n.ends_with(".yaml") || n.ends_with(".json"))
                && !n.ends_with(".cluster.yaml")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_rule_has_fixtures_that_trigger_it_and_fixes_that_do_not() {
    let opts = Options::default();
    let old = Options {
        kube_version: KubeVersion::new(1, 23),
        ..Options::default()
    };
    for rule in pvlint_core::rules() {
        let dir = fixtures_dir().join(rule.id);
        assert!(
            dir.is_dir(),
            "rule {} has no fixtures/{}/ folder",
            rule.id,
            rule.id
        );
        let bad = files(&dir, "bad");
        let good = files(&dir, "good");
        assert!(!bad.is_empty(), "rule {} has no bad*.yaml fixture", rule.id);
        assert!(
            !good.is_empty(),
            "rule {} has no good*.yaml fixture",
            rule.id
        );
        for f in &bad {
            let hits = [&opts, &old]
                .iter()
                .map(|o| {
                    lint_file(f, o)
                        .0
                        .findings
                        .iter()
                        .filter(|x| x.rule == rule.id)
                        .count()
                })
                .max()
                .unwrap();
            assert!(hits > 0, "{} does not trigger {}", f.display(), rule.id);
        }
        for f in &good {
            for o in [&opts, &old] {
                let (r, _) = lint_file(f, o);
                let hits: Vec<_> = r.findings.iter().filter(|x| x.rule == rule.id).collect();
                assert!(
                    hits.is_empty(),
                    "{} triggers {}: {:#?}",
                    f.display(),
                    rule.id,
                    hits
                );
            }
        }
    }
}

#[test]
fn fixed_fixtures_have_no_errors_at_all() {
    for rule in pvlint_core::rules() {
        for f in files(&fixtures_dir().join(rule.id), "good") {
            let (r, _) = lint_file(&f, &Options::default());
            let errors: Vec<_> = r
                .findings
                .iter()
                .filter(|x| x.severity == pvlint_core::Severity::Error)
                .map(|x| format!("{}: {}", x.rule, x.message))
                .collect();
            assert!(errors.is_empty(), "{}: {:#?}", f.display(), errors);
        }
    }
}

#[test]
fn fixture_snapshots() {
    insta::glob!("fixtures/*/*.yaml", |path| {
        if path.to_string_lossy().ends_with(".cluster.yaml") {
            return;
        }
        let (report, sources) = lint_file(path, &Options::default());
        let out = render::human(&report, &sources, render::HumanOptions::default());
        insta::assert_snapshot!(out);
    });
}

#[test]
fn docs_examples_are_the_fixtures() {
    for rule in pvlint_core::rules() {
        let dir = fixtures_dir().join(rule.id);
        assert_eq!(
            rule.docs.example,
            fs::read_to_string(dir.join("bad.yaml")).unwrap(),
            "{}",
            rule.id
        );
        assert_eq!(
            rule.docs.fixed,
            fs::read_to_string(dir.join("good.yaml")).unwrap(),
            "{}",
            rule.id
        );
    }
}

/// One root cause, one rule: a claimRef with a uid makes the volume Released (stale-claim-ref-uid),
/// so claim-ref-conflict must not also call it "Available yet reserved".
#[test]
fn a_stale_claim_ref_is_not_also_a_conflict() {
    let text = r#"# A claimRef with a uid makes the volume Released (stale-claim-ref-uid says so), not
# "Available yet reserved": claim-ref-conflict stays quiet.
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-a
spec:
  accessModes: [ReadWriteOnce]
  capacity:
    storage: 5Gi
  claimRef:
    namespace: app
    name: data
    uid: 9cb4adcc-01ba-4a4f-9bf0-205bcb3a9b9e
  nfs:
    server: 10.0.0.5
    path: /exports/a
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ""
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-b
spec:
  accessModes: [ReadWriteOnce]
  capacity:
    storage: 5Gi
  nfs:
    server: 10.0.0.5
    path: /exports/b
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ""
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: app
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 5Gi
  storageClassName: ""
  volumeName: pv-b
"#;
    let r = pvlint_core::lint(&[Source::new("m.yaml", text)], &Options::default());
    let rules: Vec<&str> = r.findings.iter().map(|f| f.rule.as_str()).collect();
    assert!(rules.contains(&"stale-claim-ref-uid"), "{rules:?}");
    assert!(!rules.contains(&"claim-ref-conflict"), "{rules:?}");
}
