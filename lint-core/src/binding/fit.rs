//! Does a volume fit a claim? Two upstream functions ask, in different orders:
//!
//! - `checkVolumeSatisfyClaim` (pkg/controller/volume/persistentvolume/pv_controller.go), for a
//!   claim whose spec.volumeName names the volume: deletion, capacity, class,
//!   volumeAttributesClassName (when the VolumeAttributesClass feature is on), volumeMode,
//!   access modes; the first failure is the VolumeMismatch event's text.
//! - `FindMatchingVolume` (component-helpers/storage/volume/pv_helpers.go), for every other
//!   claim, inside the access-mode group `findByClaim` (index.go) picked: capacity, volumeMode,
//!   deletion, then (for volumes not pre-bound to the claim) phase, selector, class.
//!   The access-mode group guarantees the modes, so they are not checked again here.
//!
//! Node affinity is not a check here: the PV controller calls `FindMatchingVolume` with a nil
//! node (index.go findByClaim, `nil /* node for topology binding*/`), so it never compares a
//! volume's nodeAffinity. Only the scheduler's VolumeBinding plugin does, for claims whose
//! class waits for the first consumer, against the node it picks; pvlint knows no nodes from
//! manifests and does not model that step.

use std::fmt;

use super::{ClaimSpec, VolumeSpec};
use crate::kube::{AccessModes, VolumeMode};
use crate::options::Target;
use crate::quantity::Quantity;

/// One of the controller's checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Check {
    BeingDeleted,
    Capacity,
    Class,
    AttributesClass,
    VolumeMode,
    AccessModes,
    Selector,
}

impl Check {
    pub fn as_str(self) -> &'static str {
        match self {
            Check::BeingDeleted => "deletion",
            Check::Capacity => "capacity",
            Check::Class => "class",
            Check::AttributesClass => "volumeAttributesClassName",
            Check::VolumeMode => "volumeMode",
            Check::AccessModes => "access modes",
            Check::Selector => "selector",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed check, with the values compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    BeingDeleted,
    TooSmall {
        capacity: Option<Quantity>,
        request: Quantity,
    },
    Class {
        volume: String,
        claim: String,
    },
    AttributesClass {
        volume: String,
        claim: String,
    },
    VolumeMode {
        volume: VolumeMode,
        claim: VolumeMode,
    },
    AccessModes {
        volume: AccessModes,
        claim: AccessModes,
    },
    Selector,
}

fn class_text(c: &str) -> String {
    if c.is_empty() {
        "no class".into()
    } else {
        format!("class \"{c}\"")
    }
}

impl Mismatch {
    pub fn check(&self) -> Check {
        match self {
            Mismatch::BeingDeleted => Check::BeingDeleted,
            Mismatch::TooSmall { .. } => Check::Capacity,
            Mismatch::Class { .. } => Check::Class,
            Mismatch::AttributesClass { .. } => Check::AttributesClass,
            Mismatch::VolumeMode { .. } => Check::VolumeMode,
            Mismatch::AccessModes { .. } => Check::AccessModes,
            Mismatch::Selector => Check::Selector,
        }
    }

    /// The error `checkVolumeSatisfyClaim` returns, which the VolumeMismatch event quotes.
    pub fn upstream_error(&self, volume: &str) -> String {
        match self {
            Mismatch::BeingDeleted => format!("the volume is marked for deletion \"{volume}\""),
            Mismatch::TooSmall { .. } => "requested PV is too small".into(),
            Mismatch::Class { .. } => "storageClassName does not match".into(),
            Mismatch::AttributesClass { .. } => "volumeAttributesClassName does not match".into(),
            Mismatch::VolumeMode { .. } => "incompatible volumeMode".into(),
            Mismatch::AccessModes { .. } => "incompatible accessMode".into(),
            Mismatch::Selector => "its labels do not match the claim's selector".into(),
        }
    }

    /// The values compared, in a clause: "the volume has 1Gi and the claim requests 10Gi".
    pub fn detail(&self) -> String {
        match self {
            Mismatch::BeingDeleted => "the volume is being deleted".into(),
            Mismatch::TooSmall { capacity, request } => match capacity {
                Some(c) => format!("the volume has {c} and the claim requests {request}"),
                None => format!("the volume has no capacity and the claim requests {request}"),
            },
            Mismatch::Class { volume, claim } => format!(
                "the volume has {} and the claim has {}",
                class_text(volume),
                class_text(claim)
            ),
            Mismatch::AttributesClass { volume, claim } => format!(
                "the volume has volumeAttributesClassName \"{volume}\" and the claim \"{claim}\""
            ),
            Mismatch::VolumeMode { volume, claim } => format!(
                "the volume is {} and the claim wants {}",
                volume.as_str(),
                claim.as_str()
            ),
            Mismatch::AccessModes { volume, claim } => {
                format!("the volume offers {volume} and the claim asks for {claim}")
            }
            Mismatch::Selector => "the volume's labels do not match the claim's selector".into(),
        }
    }
}

/// Whether the VolumeAttributesClass feature gate is on by default (beta from 1.31 but off by
/// default; GA and on from 1.34).
pub fn attributes_class_enabled(t: Target) -> bool {
    t.feature(crate::version::Feature::VolumeAttributesClass)
}

fn too_small(v: &VolumeSpec, c: &ClaimSpec) -> Option<Mismatch> {
    let req = c.request.as_ref()?;
    let fits = v.capacity.as_ref().is_some_and(|cap| cap >= req);
    (!fits).then(|| Mismatch::TooSmall {
        capacity: v.capacity.clone(),
        request: req.clone(),
    })
}

fn class(v: &VolumeSpec, claim_class: &str) -> Option<Mismatch> {
    (v.class != claim_class).then(|| Mismatch::Class {
        volume: v.class.to_string(),
        claim: claim_class.to_string(),
    })
}

fn attributes_class(v: &VolumeSpec, c: &ClaimSpec, version: Target) -> Option<Mismatch> {
    (attributes_class_enabled(version) && v.attributes_class != c.attributes_class).then(|| {
        Mismatch::AttributesClass {
            volume: v.attributes_class.to_string(),
            claim: c.attributes_class.to_string(),
        }
    })
}

fn volume_mode(v: &VolumeSpec, c: &ClaimSpec) -> Option<Mismatch> {
    (v.volume_mode != c.volume_mode).then_some(Mismatch::VolumeMode {
        volume: v.volume_mode,
        claim: c.volume_mode,
    })
}

/// `CheckAccessModes`: every mode the claim asks for is one the volume lists.
fn access_modes(v: &VolumeSpec, c: &ClaimSpec) -> Option<Mismatch> {
    (!v.modes.contains(c.modes)).then_some(Mismatch::AccessModes {
        volume: v.modes,
        claim: c.modes,
    })
}

fn selector(v: &VolumeSpec, c: &ClaimSpec) -> Option<Mismatch> {
    c.selector
        .as_ref()
        .is_some_and(|s| !s.matches(&v.labels))
        .then_some(Mismatch::Selector)
}

/// `checkVolumeSatisfyClaim`: every failure, in upstream order (the controller reports the
/// first). `claim_class` is the claim's class after admission.
pub fn check_volume_satisfy_claim(
    v: &VolumeSpec,
    c: &ClaimSpec,
    claim_class: &str,
    version: Target,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if v.deleting {
        out.push(Mismatch::BeingDeleted);
    }
    out.extend(too_small(v, c));
    out.extend(class(v, claim_class));
    out.extend(attributes_class(v, c, version));
    out.extend(volume_mode(v, c));
    out.extend(access_modes(v, c));
    out
}

/// The checks `FindMatchingVolume` makes of a volume pre-bound to this claim by claimRef: it
/// returns such a volume at once if these pass (class, phase and selector are not checked).
/// The access-mode group it is found in already contains the claim's modes.
pub fn prebound_match_failures(v: &VolumeSpec, c: &ClaimSpec) -> Vec<Mismatch> {
    let mut out = Vec::new();
    out.extend(access_modes(v, c));
    out.extend(too_small(v, c));
    out.extend(volume_mode(v, c));
    if v.deleting {
        out.push(Mismatch::BeingDeleted);
    }
    out
}

/// The checks `FindMatchingVolume` makes of a free volume (no claimRef, phase Available)
/// for a claim, in upstream order: every failure. The access-mode check stands for the
/// group choice of `findByClaim`.
pub fn match_failures(
    v: &VolumeSpec,
    c: &ClaimSpec,
    claim_class: &str,
    version: Target,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    out.extend(access_modes(v, c));
    out.extend(too_small(v, c));
    out.extend(volume_mode(v, c));
    if v.deleting {
        out.push(Mismatch::BeingDeleted);
    }
    out.extend(attributes_class(v, c, version));
    out.extend(selector(v, c));
    out.extend(class(v, claim_class));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binding::{Labels, SourceKind};
    use crate::kube::ReclaimPolicy;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    fn pv(class: &str, cap: &str, modes: AccessModes) -> VolumeSpec {
        VolumeSpec {
            class: class.into(),
            capacity: Some(q(cap)),
            modes,
            volume_mode: VolumeMode::Filesystem,
            labels: Labels::new(),
            attributes_class: Default::default(),
            deleting: false,
            reclaim: ReclaimPolicy::Retain,
            source: SourceKind::Unknown,
            node_affinity: false,
        }
    }

    fn claim(req: &str, modes: AccessModes) -> ClaimSpec {
        ClaimSpec {
            request: Some(q(req)),
            modes,
            volume_mode: VolumeMode::Filesystem,
            selector: None,
            attributes_class: Default::default(),
        }
    }

    use crate::options::KubeVersion;
    const V: Target = Target::of(KubeVersion::new(1, 34));

    /// pv_controller_test.go / binder_test.go "2-8 - claim prebound to volume that is too
    /// small": VolumeMismatch "requested PV is too small"; the order of errors follows
    /// checkVolumeSatisfyClaim.
    #[test]
    fn satisfy_order() {
        let mut v = pv("gold", "1Gi", AccessModes::RWO);
        v.volume_mode = VolumeMode::Block;
        let c = claim("10Gi", AccessModes::RWX);
        let all = check_volume_satisfy_claim(&v, &c, "silver", V);
        let checks: Vec<Check> = all.iter().map(Mismatch::check).collect();
        assert_eq!(
            checks,
            vec![
                Check::Capacity,
                Check::Class,
                Check::VolumeMode,
                Check::AccessModes
            ]
        );
        assert_eq!(all[0].upstream_error("pv"), "requested PV is too small");
        assert_eq!(
            all[1].upstream_error("pv"),
            "storageClassName does not match"
        );
        assert!(check_volume_satisfy_claim(
            &pv("gold", "10Gi", AccessModes::RWO),
            &claim("10Gi", AccessModes::RWO),
            "gold",
            V
        )
        .is_empty());
    }

    #[test]
    fn attributes_class_only_when_the_gate_is_on() {
        let mut v = pv("", "1Gi", AccessModes::RWO);
        v.attributes_class = "gold".into();
        let c = claim("1Gi", AccessModes::RWO);
        assert!(
            check_volume_satisfy_claim(&v, &c, "", Target::of(KubeVersion::new(1, 33))).is_empty()
        );
        assert_eq!(
            check_volume_satisfy_claim(&v, &c, "", V)[0].check(),
            Check::AttributesClass
        );
    }

    #[test]
    fn selector_and_class_in_find_order() {
        let mut v = pv("a", "5Gi", AccessModes::RWO);
        v.labels.insert("tier".into(), "db".into());
        let mut c = claim("1Gi", AccessModes::RWO);
        c.selector = Some(crate::binding::LabelSelector {
            requirements: vec![crate::binding::selector::Requirement::Equals(
                "tier".into(),
                "web".into(),
            )],
        });
        let f: Vec<Check> = match_failures(&v, &c, "b", V)
            .iter()
            .map(Mismatch::check)
            .collect();
        assert_eq!(f, vec![Check::Selector, Check::Class]);
    }
}
