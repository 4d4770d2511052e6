//! The Kubernetes release a cluster runs ([`KubeVersion`]), and the feature gates whose state
//! changes what pvlint predicts ([`Feature`]), one row each as `pkg/features/kube_features.go`
//! (`defaultVersionedKubernetesFeatureGates`) and the external-resizer's `pkg/features` declare
//! them: the release from which each is on by default, and the release from which it is locked
//! on (GA with `LockToDefault`: a component refuses to start with it turned off). A gate's state
//! is read through [`crate::options::Options::feature`]: the cluster profile's `featureGates`
//! first, else the target version's default.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A Kubernetes minor version (`1.31`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KubeVersion {
    pub major: u32,
    pub minor: u32,
}

impl Default for KubeVersion {
    fn default() -> Self {
        KubeVersion::DEFAULT
    }
}

impl KubeVersion {
    /// The release pvlint assumes when not told (all version-dependent behaviour pvlint
    /// models is the same from 1.33 on).
    pub const DEFAULT: KubeVersion = KubeVersion {
        major: 1,
        minor: 34,
    };

    pub const fn new(major: u32, minor: u32) -> Self {
        KubeVersion { major, minor }
    }

    pub fn at_least(self, minor: u32) -> bool {
        self >= KubeVersion::new(1, minor)
    }
}

impl FromStr for KubeVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().trim_start_matches('v');
        let t = t.split(['-', '+']).next().unwrap_or("");
        let mut parts = t.split('.');
        let bad = || format!("\"{s}\" is not a Kubernetes version; write it as 1.31 (or v1.31.2)");
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        if let Some(patch) = parts.next() {
            if patch.parse::<u32>().is_err() {
                return Err(bad());
            }
        }
        if major != 1 || parts.next().is_some() {
            return Err(bad());
        }
        Ok(KubeVersion { major, minor })
    }
}

impl TryFrom<String> for KubeVersion {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<KubeVersion> for String {
    fn from(v: KubeVersion) -> String {
        v.to_string()
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A feature gate pvlint models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Feature {
    /// The CSI external-provisioner adds its finalizer to every volume it manages and deletes
    /// the storage even when the PV object goes first (KEP-2644).
    HonorPVReclaimPolicy,
    /// `spec.persistentVolumeClaimRetentionPolicy` of StatefulSets (KEP-1847); off, the API
    /// server drops the field and the controller keeps every claim.
    StatefulSetAutoDeletePVC,
    /// A claim created without a class gets the default class once one exists (KEP-3333).
    RetroactiveDefaultStorageClass,
    /// `volumeAttributesClassName` of claims and volumes (KEP-3751); off, the API server drops it.
    VolumeAttributesClass,
    /// A claim's request may shrink back to no less than its status.capacity (KEP-1790).
    RecoverVolumeExpansionFailure,
}

/// The Kubernetes a cluster runs: its release, and the feature gates set other than that
/// release's defaults. What every version- or gate-dependent verdict reads ([`Target::feature`],
/// [`Target::at_least`] for what a release removed or changed outright).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Target {
    pub version: KubeVersion,
    /// Bit `f as u8` set: gate `f` is set, to the matching bit of `on`.
    set: u8,
    on: u8,
}

impl Target {
    /// A release with every gate at its default.
    pub const fn of(version: KubeVersion) -> Target {
        Target {
            version,
            set: 0,
            on: 0,
        }
    }

    /// `self` with gate `f` set to `on` (a gate locked on in the release stays on).
    pub fn with(mut self, f: Feature, on: bool) -> Target {
        let bit = 1u8 << (f as u8);
        self.set |= bit;
        if on || f.locked_in(self.version) {
            self.on |= bit;
        } else {
            self.on &= !bit;
        }
        self
    }

    /// Whether gate `f` is on: as set, else the release's default.
    pub fn feature(self, f: Feature) -> bool {
        let bit = 1u8 << (f as u8);
        if self.set & bit != 0 {
            self.on & bit != 0
        } else {
            f.default_in(self.version)
        }
    }

    /// The release is 1.`minor` or later: for what a release removed or changed outright (not a
    /// gate: those go through [`Target::feature`]).
    pub fn at_least(self, minor: u32) -> bool {
        self.version.at_least(minor)
    }
}

/// One gate's defaults across releases.
pub struct Row {
    pub feature: Feature,
    /// The first minor release (1.x) where it is on by default.
    pub on_from: u32,
    /// The first minor release where it is locked on, if any.
    pub locked_from: Option<u32>,
    /// Where upstream declares it.
    pub source: &'static str,
}

const KUBE_FEATURES: &str = "kubernetes pkg/features/kube_features.go";

/// Every gate pvlint models.
pub const TABLE: &[Row] = &[
    Row {
        feature: Feature::HonorPVReclaimPolicy,
        on_from: 31,
        locked_from: Some(33),
        source: KUBE_FEATURES,
    },
    Row {
        feature: Feature::StatefulSetAutoDeletePVC,
        on_from: 27,
        locked_from: Some(32),
        source: KUBE_FEATURES,
    },
    Row {
        feature: Feature::RetroactiveDefaultStorageClass,
        on_from: 26,
        locked_from: Some(28),
        source: KUBE_FEATURES,
    },
    Row {
        feature: Feature::VolumeAttributesClass,
        on_from: 34,
        locked_from: Some(36),
        source: KUBE_FEATURES,
    },
    Row {
        feature: Feature::RecoverVolumeExpansionFailure,
        on_from: 32,
        locked_from: Some(34),
        source:
            "kubernetes pkg/features/kube_features.go; kubernetes-csi/external-resizer pkg/features",
    },
];

crate::string::named!(Feature {
    HonorPVReclaimPolicy => "HonorPVReclaimPolicy",
    StatefulSetAutoDeletePVC => "StatefulSetAutoDeletePVC",
    RetroactiveDefaultStorageClass => "RetroactiveDefaultStorageClass",
    VolumeAttributesClass => "VolumeAttributesClass",
    RecoverVolumeExpansionFailure => "RecoverVolumeExpansionFailure",
});

impl Feature {
    pub fn row(self) -> &'static Row {
        TABLE
            .iter()
            .find(|r| r.feature == self)
            .expect("every feature has a row")
    }

    /// On by default in `version`.
    pub fn default_in(self, version: KubeVersion) -> bool {
        version.at_least(self.row().on_from)
    }

    /// Locked on in `version`: no component starts with it off.
    pub fn locked_in(self, version: KubeVersion) -> bool {
        self.row().locked_from.is_some_and(|m| version.at_least(m))
    }

    /// The gate of this name, if pvlint models it.
    pub fn named(name: &str) -> Option<Feature> {
        TABLE.iter().map(|r| r.feature).find(|f| f.as_str() == name)
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        TABLE.iter().map(|r| r.feature.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(
            "1.31".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 31)
        );
        assert_eq!(
            "v1.29.4".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 29)
        );
        assert_eq!(
            "1.30.0-rc.1".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 30)
        );
        assert!("2.1".parse::<KubeVersion>().is_err());
        assert!("latest".parse::<KubeVersion>().is_err());
        assert!("1".parse::<KubeVersion>().is_err());
    }

    /// kube_features.go: HonorPVReclaimPolicy beta (on) 1.31, GA locked 1.33;
    /// VolumeAttributesClass beta off 1.31, GA on 1.34, locked 1.36.
    #[test]
    fn defaults_follow_the_versioned_specs() {
        let v = |m| KubeVersion::new(1, m);
        assert!(!Feature::HonorPVReclaimPolicy.default_in(v(30)));
        assert!(Feature::HonorPVReclaimPolicy.default_in(v(31)));
        assert!(!Feature::HonorPVReclaimPolicy.locked_in(v(32)));
        assert!(Feature::HonorPVReclaimPolicy.locked_in(v(33)));
        assert!(!Feature::VolumeAttributesClass.default_in(v(33)));
        assert!(Feature::VolumeAttributesClass.default_in(v(34)));
        assert!(!Feature::VolumeAttributesClass.locked_in(v(35)));
        for r in TABLE {
            assert_eq!(Feature::named(r.feature.as_str()), Some(r.feature));
            assert!(r.locked_from.is_none_or(|l| l > r.on_from));
        }
    }
}
