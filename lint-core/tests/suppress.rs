//! `pvlint.io/ignore` on objects nobody annotates: a VolumeAttachment follows its volume.

use pvlint_core::{api, Request, Source};

const SEED_003: &str = include_str!("fixtures/stale-volume-attachment/bad.yaml");

fn audit(text: &str) -> pvlint_core::Report {
    api::lint(&Request {
        cluster: vec![Source::new("live.yaml", text)],
        audit: true,
        ..Default::default()
    })
}

fn rules(findings: &[pvlint_core::Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.rule.as_str()).collect()
}

#[test]
fn a_stale_attachment_is_suppressed_by_its_volume_or_claim_annotation() {
    let before = audit(SEED_003);
    assert!(
        rules(&before.findings).contains(&"stale-volume-attachment"),
        "{:#?}",
        before.findings
    );
    // The PV's annotations, then the claim's (both hold `annotations:` already).
    for (anchor, on) in [
        (
            "    annotations:\n      pv.kubernetes.io/provisioned-by",
            "the volume",
        ),
        (
            "    annotations:\n      pv.kubernetes.io/bind-completed",
            "the claim",
        ),
    ] {
        assert_eq!(SEED_003.matches(anchor).count(), 1, "{anchor}");
        let text = SEED_003.replacen(
            anchor,
            &anchor.replacen(
                "annotations:\n",
                "annotations:\n      pvlint.io/ignore: stale-volume-attachment\n",
                1,
            ),
            1,
        );
        let after = audit(&text);
        assert!(
            !rules(&after.findings).contains(&"stale-volume-attachment"),
            "on {on}: {:#?}",
            after.findings
        );
        assert!(
            rules(&after.suppressed).contains(&"stale-volume-attachment"),
            "on {on}: counted as suppressed"
        );
    }
    // A claim created again under the same name (another UID than the volume's claimRef
    // holds) is not the volume's claim: its annotation does not speak for the attachment.
    let recreated = SEED_003
        .replacen(
            "    annotations:\n      pv.kubernetes.io/bind-completed",
            "    annotations:\n      pvlint.io/ignore: stale-volume-attachment\n      pv.kubernetes.io/bind-completed",
            1,
        )
        .replacen(
            "    namespace: default\n    uid: 0a5eb91b-3720-11e8-8d2b-000c29f8a512",
            "    namespace: default\n    uid: 0a5eb91b-9999-4000-8000-000000000009",
            1,
        );
    assert_ne!(recreated, SEED_003);
    assert!(
        rules(&audit(&recreated).findings).contains(&"stale-volume-attachment"),
        "a recreated claim does not suppress"
    );
    // Another rule's name suppresses nothing.
    let text = SEED_003.replacen(
        "    annotations:\n      pv.kubernetes.io/provisioned-by",
        "    annotations:\n      pvlint.io/ignore: claim-lost\n      pv.kubernetes.io/provisioned-by",
        1,
    );
    assert!(rules(&audit(&text).findings).contains(&"stale-volume-attachment"));
}
