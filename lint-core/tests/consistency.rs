//! One model: no finding predicts a phase, an event or a storage fate that `simulate`
//! contradicts, for any fixture or example.

mod common;

use pvlint_core::Fate;
use pvlint_core::{api, ClaimPhase, Phase, StorageFate, VolumePhase};

#[test]
fn findings_agree_with_the_simulation() {
    let mut checked = 0;
    for f in common::all_inputs() {
        let c = common::case(&f);
        let report = api::lint(&c.request);
        let sim = api::simulate(&c.request).unwrap();
        for x in &report.findings {
            let Some(cons) = &x.consequence else { continue };
            let Some(subject) = &cons.subject else {
                continue;
            };
            let ctx = format!("{}: {} on {}", c.name, x.rule, subject.display());
            match subject.kind.as_str() {
                "PersistentVolumeClaim" => {
                    let claim = sim
                        .claims
                        .iter()
                        .find(|s| {
                            Some(s.namespace.as_str()) == subject.namespace.as_deref()
                                && s.name == subject.name
                        })
                        .unwrap_or_else(|| panic!("{ctx}: the simulation has no such claim"));
                    if let Some(p) = cons.phase {
                        let sim_phase = match claim.phase {
                            ClaimPhase::Pending => Some(Phase::Pending),
                            ClaimPhase::Bound => Some(Phase::Bound),
                            ClaimPhase::Lost => Some(Phase::Lost),
                            ClaimPhase::Rejected => None,
                        };
                        assert_eq!(Some(p), sim_phase, "{ctx}: phase");
                    }
                    if let Some(e) = &cons.event {
                        assert!(
                            claim
                                .events
                                .iter()
                                .any(|s| format!("{:?}", s.reason) == e.reason
                                    && s.message == e.message),
                            "{ctx}: event {e:?} not in {:?}",
                            claim.events
                        );
                    }
                }
                "PersistentVolume" => {
                    let vol = sim
                        .volumes
                        .iter()
                        .find(|v| v.name == subject.name)
                        .unwrap_or_else(|| panic!("{ctx}: the simulation has no such volume"));
                    if let Some(p) = cons.phase {
                        let sim_phase = match vol.phase {
                            VolumePhase::Available => Phase::Available,
                            VolumePhase::Bound => Phase::Bound,
                            VolumePhase::Released => Phase::Released,
                            VolumePhase::Failed => Phase::Failed,
                        };
                        assert_eq!(p, sim_phase, "{ctx}: phase");
                    }
                    match cons.storage {
                        Some(StorageFate::Deleted) => assert!(
                            matches!(vol.storage.fate.as_str(), "deleted" | "leftToProvisioner"),
                            "{ctx}: storage {}",
                            vol.storage.fate
                        ),
                        Some(StorageFate::Leaked) => {
                            assert_eq!(vol.storage.fate, Fate::Leaked, "{ctx}")
                        }
                        Some(StorageFate::Kept) => assert!(
                            matches!(
                                vol.storage.fate.as_str(),
                                "kept" | "deleteFailed" | "recycleFailed"
                            ),
                            "{ctx}: storage {}",
                            vol.storage.fate
                        ),
                        None => {}
                    }
                    if let Some(e) = &cons.event {
                        assert!(
                            vol.events
                                .iter()
                                .any(|s| format!("{:?}", s.reason) == e.reason
                                    && s.message == e.message),
                            "{ctx}: event {e:?} not in {:?}",
                            vol.events
                        );
                    }
                }
                other => panic!("{ctx}: consequences name claims and volumes, not {other}"),
            }
            checked += 1;
        }
    }
    assert!(
        checked > 20,
        "only {checked} predictions checked: fixtures went missing?"
    );
}
