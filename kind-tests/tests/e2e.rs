//! pvlint's predictions against a real kind cluster. Opt-in:
//!     cargo test -p pvlint-kind-tests -- --ignored --nocapture
//! needs docker (running), kind and kubectl; takes about 5 minutes.

use std::time::Duration;

use pvlint_core::Severity;
use pvlint_kind_tests::{manifest, missing_prerequisites, predict, wait_for, Cluster};

/// Runs everywhere: the manifests the cluster test applies still produce the predictions it checks.
#[test]
fn predictions_for_the_e2e_manifests() {
    let stale = predict(&manifest("stale-claim-ref-uid.yaml"));
    assert!(stale.iter().any(|(r, s, m)| r == "stale-claim-ref-uid"
        && *s == Severity::Error
        && m.contains("ClaimMisbound")));
    let rwop = predict(&manifest("rwop-surge.yaml"));
    assert!(rwop.iter().any(|(r, s, m)| r == "rwo-rolling-surge"
        && *s == Severity::Error
        && m.contains("ReadWriteOncePod")));
    let errors: Vec<_> = rwop
        .iter()
        .chain(&stale)
        .filter(|(r, s, _)| {
            *s == Severity::Error && r != "stale-claim-ref-uid" && r != "rwo-rolling-surge"
        })
        .collect();
    assert!(errors.is_empty(), "unexpected errors: {errors:?}");
}

#[test]
#[ignore = "SKIPPED kind end-to-end suite: needs docker, kind and kubectl; run `cargo test -p pvlint-kind-tests -- --ignored --nocapture`"]
fn predictions_match_a_real_cluster() {
    if let Some(why) = missing_prerequisites() {
        panic!("the kind suite was asked for but cannot run: {why}");
    }
    let cluster = Cluster::create().expect("kind cluster");

    // 1. Stale claimRef.uid: pvlint says Lost (ClaimMisbound); the cluster agrees.
    let file = manifest("stale-claim-ref-uid.yaml");
    let predicted = predict(&file);
    let f = predicted
        .iter()
        .find(|(r, _, _)| r == "stale-claim-ref-uid")
        .expect("pvlint predicts it");
    assert_eq!(f.1, Severity::Error);
    assert!(f.2.contains("goes Lost (Warning ClaimMisbound"), "{}", f.2);
    cluster.apply(&file).expect("apply");
    let phase = wait_for(Duration::from_secs(120), || {
        let p = cluster.jsonpath("pvc/e2e-stale-claim", "{.status.phase}");
        (p == "Lost").then_some(p)
    });
    assert_eq!(
        phase.as_deref(),
        Some("Lost"),
        "claim phase; events: {}",
        cluster.events_for("e2e-stale-claim")
    );
    let events = cluster.events_for("e2e-stale-claim");
    assert!(events.contains("ClaimMisbound"), "{events}");
    assert!(
        events.contains("Two claims are bound to the same volume, this one is bound incorrectly"),
        "{events}"
    );
    let pv_phase = wait_for(Duration::from_secs(60), || {
        let p = cluster.jsonpath("pv/e2e-stale-pv", "{.status.phase}");
        (p == "Released").then_some(p)
    });
    assert_eq!(
        pv_phase.as_deref(),
        Some("Released"),
        "pvlint says the PV goes Released"
    );

    // 2. ReadWriteOncePod under a surging rollout: pvlint says it hangs; the cluster agrees.
    let file = manifest("rwop-surge.yaml");
    let predicted = predict(&file);
    let f = predicted
        .iter()
        .find(|(r, _, _)| r == "rwo-rolling-surge")
        .expect("pvlint predicts it");
    assert_eq!(f.1, Severity::Error);
    assert!(f.2.contains("ProgressDeadlineExceeded"), "{}", f.2);
    cluster.apply(&file).expect("apply");
    cluster
        .kubectl(&["rollout", "status", "deployment/e2e-rwop", "--timeout=180s"])
        .expect("first rollout completes");
    cluster
        .kubectl(&["rollout", "restart", "deployment/e2e-rwop"])
        .expect("restart");
    let reason = wait_for(Duration::from_secs(150), || {
        let r = cluster.jsonpath(
            "deployment/e2e-rwop",
            "{.status.conditions[?(@.type==\"Progressing\")].reason}",
        );
        (r == "ProgressDeadlineExceeded").then_some(r)
    });
    assert_eq!(reason.as_deref(), Some("ProgressDeadlineExceeded"));
    let pods = cluster
        .kubectl(&[
            "get",
            "events",
            "--field-selector",
            "reason=FailedScheduling",
            "-o",
            "custom-columns=MSG:.message",
            "--no-headers",
        ])
        .unwrap_or_default();
    assert!(
        pods.contains("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"),
        "{pods}"
    );
}
