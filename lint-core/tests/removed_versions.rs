//! An object of an API version the release no longer serves never reaches the API server's
//! decoding ("no matches for kind ... in version ..."): `removed-api-version` is all there is to
//! say of it, whatever else it carries (unknown fields, server-populated fields, a typo in a
//! suppression).

use pvlint_core::{api, Request, Source};

#[test]
fn a_removed_version_gets_its_finding_and_nothing_else() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/removed-api-version");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("bad") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let report = api::lint(&Request::new(vec![Source::new(name.clone(), text)]));
        let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.as_str()).collect();
        assert!(!rules.is_empty(), "{name}: no finding");
        assert!(
            rules.iter().all(|r| *r == "removed-api-version"),
            "{name}: {rules:?}"
        );
        checked += 1;
    }
    assert!(checked >= 2);
    // With a field the API does not know, and server-populated metadata: still one finding.
    let text = "apiVersion: storage.k8s.io/v1beta1\nkind: StorageClass\nmetadata:\n  name: x\n  uid: 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n  resourceVersion: \"42\"\n  annotations:\n    pvlint.io/ignore: no-such-rule\nprovisioner: ebs.csi.aws.com\nfsType: xfs\n";
    let report = api::lint(&Request::new(vec![Source::new("sc.yaml", text)]));
    let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, ["removed-api-version"]);
}
