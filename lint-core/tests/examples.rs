//! The seed scenarios in examples/: each broken manifest is caught with the right rules at
//! the right lines, each fixed one has no errors, and the full output is pinned by snapshots.

use std::fs;
use std::path::{Path, PathBuf};

use pvlint_core::{lint, render, KubeVersion, Options, Report, Severity, Source};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn lint_example(rel: &str, options: &Options) -> (Report, Vec<Source>) {
    let text = fs::read_to_string(examples().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let sources = vec![Source::new(format!("examples/{rel}"), text)];
    (lint(&sources, options), sources)
}

fn all_example_files() -> Vec<String> {
    let mut out = Vec::new();
    for d in fs::read_dir(examples()).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        for f in fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "yaml") {
                out.push(format!(
                    "{}/{}",
                    d.file_name().unwrap().to_string_lossy(),
                    f.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    out.sort();
    out
}

/// (file, rule, line, severity) that must be reported with the default options.
#[rustfmt::skip]
const EXPECTED: &[(&str, &str, u32, Severity)] = &[
    // Seed 000: copied claimRef.uid → Lost (ClaimMisbound), and Delete destroys the shared CFS volume.
    ("seed-000-dr-migration/broken.yaml", "stale-claim-ref-uid", 46, Severity::Error),
    ("seed-000-dr-migration/broken.yaml", "delete-policy-on-imported-volume", 59, Severity::Warning),
    ("seed-000-dr-migration/broken.yaml", "server-populated-fields", 16, Severity::Warning),
    ("seed-000-dr-migration/broken.yaml", "server-populated-fields", 34, Severity::Warning),
    ("seed-000-dr-migration/seed-fix.yaml", "delete-policy-on-imported-volume", 47, Severity::Warning),
    // Seed 001: invalid NFS server and Recycle; the export after binding carries the claim's UID;
    // myclaim leaves storageClassName out, so on the default profile's cluster, which has a
    // default class, it never gets pv3.
    ("seed-001-phase-transitions/broken.yaml", "invalid-nfs-server", 18, Severity::Error),
    ("seed-001-phase-transitions/broken.yaml", "recycle-policy-deprecated", 19, Severity::Warning),
    ("seed-001-phase-transitions/broken.yaml", "implicit-default-class", 26, Severity::Error),
    ("seed-001-phase-transitions/exported-after-binding.yaml", "stale-claim-ref-uid", 31, Severity::Error),
    ("seed-001-phase-transitions/exported-after-binding.yaml", "invalid-nfs-server", 34, Severity::Error),
    // Seed 002: the StorageClass typo that drops is-default-class; the hostPath claim that cannot
    // get its volume; one volume for three replicas (web-1 and web-2 stay Pending).
    ("seed-002-statefulset-pool/broken-default-class-typo.yaml", "unknown-field", 8, Severity::Error),
    ("seed-002-statefulset-pool/broken-hostpath-too-small.yaml", "hostpath-persistent-volume", 26, Severity::Info),
    ("seed-002-statefulset-pool/broken-hostpath-too-small.yaml", "implicit-default-class", 9, Severity::Error),
    // The class "nfs" is only a label of the static volumes here: assumed, so a warning.
    ("seed-002-statefulset-pool/broken-single-pv.yaml", "static-pool-shortfall", 27, Severity::Warning),
    // Seed 003: RWO claim under a surging rolling update; on the default profile's cluster of
    // several nodes the defaults hang the rollout (an error), maxUnavailable 1 only slows it.
    ("seed-003-rwo-rolling-update/broken-as-reported.yaml", "rwo-rolling-surge", 13, Severity::Warning),
    ("seed-003-rwo-rolling-update/broken-defaults.yaml", "rwo-rolling-surge", 17, Severity::Error),
    // Seed 004: Delete without the finalizer (info on current releases, see below for 1.23).
    ("seed-004-pv-deleted-before-pvc/broken.yaml", "delete-policy-without-finalizer", 40, Severity::Info),
];

#[test]
fn seed_scenarios_are_caught_at_the_right_lines() {
    for (file, rule, line, sev) in EXPECTED {
        let (r, _) = lint_example(file, &Options::default());
        let hit = r
            .findings
            .iter()
            .any(|f| f.rule == *rule && f.location.line == *line && f.severity == *sev);
        assert!(
            hit,
            "{file}: expected {sev:?} {rule} at line {line}; got {:#?}",
            r.findings
                .iter()
                .map(|f| (f.rule.as_str(), f.location.line, f.severity))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn seed_004_on_kubernetes_1_23_is_a_warning() {
    let old = Options {
        kube_version: KubeVersion::new(1, 23),
        ..Options::default()
    };
    let (r, _) = lint_example("seed-004-pv-deleted-before-pvc/broken.yaml", &old);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "delete-policy-without-finalizer")
        .expect("reported");
    assert_eq!(f.severity, Severity::Warning);
    let summary = &f.consequence.as_ref().expect("a consequence").summary;
    assert!(summary.contains("off by default"), "{summary}");
    let (fixed, _) = lint_example("seed-004-pv-deleted-before-pvc/fixed.yaml", &old);
    assert!(fixed.findings.is_empty(), "{:#?}", fixed.findings);
}

#[test]
fn every_broken_example_is_caught_and_every_fixed_one_is_clean() {
    let files = all_example_files();
    assert!(files.len() >= 20, "examples went missing: {files:?}");
    for file in files {
        let (r, _) = lint_example(&file, &Options::default());
        let name = file.rsplit('/').next().unwrap();
        if name.starts_with("fixed") {
            let errors: Vec<_> = r
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .collect();
            assert!(
                errors.is_empty(),
                "{file} should have no errors: {errors:#?}"
            );
        } else if name.starts_with("broken")
            || name.starts_with("seed-fix")
            || name.starts_with("exported")
        {
            // Seed 004 is only info on current releases: HonorPVReclaimPolicy is on by default.
            let floor = if file.starts_with("seed-004") {
                Severity::Info
            } else {
                Severity::Warning
            };
            assert!(
                r.findings.iter().any(|f| f.severity >= floor),
                "{file} should be caught"
            );
        } else {
            panic!("{file}: example files are named broken*, fixed*, seed-fix* or exported*");
        }
    }
}

#[test]
fn example_snapshots() {
    for file in all_example_files() {
        let (report, sources) = lint_example(&file, &Options::default());
        let out = render::human(&report, &sources, render::HumanOptions::default());
        insta::assert_snapshot!(file.replace('/', "__"), out);
    }
}

/// Feature gates in the profile decide what the version's defaults would: with
/// HonorPVReclaimPolicy off on 1.32 (on by default there), seed 004 leaks as on 1.23; on 1.34,
/// where the gate is locked on, turning it off changes nothing, and the profile says why.
#[test]
fn feature_gates_of_the_profile_decide_version_dependent_verdicts() {
    use pvlint_core::version::Feature;
    let severity = |options: &Options| {
        let (r, _) = lint_example("seed-004-pv-deleted-before-pvc/broken.yaml", options);
        let sev = r
            .findings
            .iter()
            .find(|f| f.rule == "delete-policy-without-finalizer")
            .map(|f| f.severity);
        (sev, r.profile.describe())
    };
    let mut off = Options {
        kube_version: KubeVersion::new(1, 32),
        ..Options::default()
    };
    assert_eq!(severity(&off).0, Some(Severity::Info), "1.32's default: on");
    off.cluster
        .feature_gates
        .insert(Feature::HonorPVReclaimPolicy, false);
    let (sev, profile) = severity(&off);
    assert_eq!(sev, Some(Severity::Warning), "turned off: {profile}");
    assert!(
        profile.contains("HonorPVReclaimPolicy off (request)"),
        "{profile}"
    );
    off.kube_version = KubeVersion::new(1, 34);
    let (sev, profile) = severity(&off);
    assert_eq!(sev, Some(Severity::Info), "locked on in 1.34: {profile}");
    assert!(
        profile.contains("HonorPVReclaimPolicy on (locked on in 1.34: it cannot be turned off)"),
        "{profile}"
    );
}
