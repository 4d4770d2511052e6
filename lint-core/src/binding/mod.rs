//! The PersistentVolume controller's decisions that more than one place needs, each in one
//! place and named after the upstream function it follows:
//!
//! - [`class`]: `GetPersistentVolumeClaimClass`, `PersistentVolumeClaimHasClass`,
//!   `IsDefaultAnnotation` and `GetDefaultClass` (the DefaultStorageClass admission plugin's
//!   and the controller's retroactive choice of the default class);
//! - [`fit`]: `checkVolumeSatisfyClaim` (pre-bound claims) and the per-volume filters of
//!   `FindMatchingVolume` (every other claim), with typed [`fit::Check`]s;
//! - [`attach`]: whether a volume goes through attach/detach (Multi-Attach applies);
//! - [`selector`]: label selectors (`metav1.LabelSelectorAsSelector`).
//!
//! This layer reads plain specs ([`VolumeSpec`], [`ClaimSpec`]) and knows nothing of the
//! index, the simulator or the rules, which all call it.

pub mod attach;
pub mod class;
pub mod fit;
pub mod selector;

use std::collections::BTreeMap;

use crate::kube::{AccessModes, ReclaimPolicy, VolumeMode};
use crate::quantity::Quantity;
use crate::string::Str;

pub use selector::LabelSelector;

/// `metadata.labels`.
pub type Labels = BTreeMap<String, String>;

/// What the controller compares of a PersistentVolume.
#[derive(Debug, Clone, PartialEq)]
pub struct VolumeSpec {
    /// `GetPersistentVolumeClass`: the beta annotation, else spec.storageClassName, else "".
    pub class: Str,
    pub capacity: Option<Quantity>,
    pub modes: AccessModes,
    pub volume_mode: VolumeMode,
    pub labels: Labels,
    /// spec.volumeAttributesClassName ("" when unset).
    pub attributes_class: Str,
    /// metadata.deletionTimestamp is set.
    pub deleting: bool,
    /// spec.persistentVolumeReclaimPolicy (the API server defaults it to Retain).
    pub reclaim: ReclaimPolicy,
    pub source: SourceKind,
    /// spec.nodeAffinity.required is set (the volume is reachable from some nodes only).
    pub node_affinity: bool,
}

/// What the controller compares of a claim.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimSpec {
    pub request: Option<Quantity>,
    pub modes: AccessModes,
    pub volume_mode: VolumeMode,
    pub selector: Option<LabelSelector>,
    /// spec.volumeAttributesClassName ("" when unset).
    pub attributes_class: Str,
}

/// A volume's source, as far as binding, attach and reclaim care.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// `spec.csi` with its driver.
    Csi { driver: Str },
    /// An in-tree source field (`nfs`, `hostPath`, `rbd`, ...).
    InTree(&'static crate::kube::InTreeSource),
    /// No source pvlint recognises (or none at all).
    Unknown,
}

impl SourceKind {
    /// The source's field name (`csi`, `nfs`, ...), or "" when unknown.
    pub fn field(&self) -> &str {
        match self {
            SourceKind::Csi { .. } => "csi",
            SourceKind::InTree(s) => s.field,
            SourceKind::Unknown => "",
        }
    }
}
