//! What the simulated cluster holds: claims, volumes and classes, with typed states and the
//! reasons behind them. Events are derived from those reasons in one place
//! ([`Pending::event`], [`Lost::event`], ...), so no consumer ever parses event text.

use serde::{Deserialize, Serialize};

use crate::binding::class::{AdmissionError, Created, WrittenClass};
use crate::binding::fit::Mismatch;
use crate::binding::{ClaimSpec, VolumeSpec};
use crate::kube::ReclaimPolicy;
use crate::model::ObjId;
use crate::string::Str;

/// A claim of the simulation. Ids survive deletes (a deleted claim keeps its slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClaimId(pub(crate) u32);

/// A volume of the simulation. Ids survive deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VolumeId(pub(crate) u32);

impl ClaimId {
    pub(crate) fn idx(self) -> usize {
        self.0 as usize
    }
}

impl VolumeId {
    pub(crate) fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Which of the two inputs an object comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The cluster's current state (`--cluster-state`, or a live cluster).
    Cluster,
    /// The manifests being applied.
    Manifest,
}

/// Where a simulated object came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// An object of one of the inputs.
    Object { side: Side, obj: ObjId },
    /// The claim a StatefulSet creates from its `template`th volumeClaimTemplate for `ordinal`.
    Template {
        side: Side,
        obj: ObjId,
        /// u32, not usize: with it the origin is 24 bytes instead of 32.
        template: u32,
        ordinal: i64,
    },
    /// A volume dynamic provisioning created for a claim.
    Provisioned { claim: ClaimId },
}

impl Origin {
    /// The manifest object (PVC, PV or StatefulSet) it came from.
    pub fn manifest_object(&self) -> Option<ObjId> {
        match *self {
            Origin::Object {
                side: Side::Manifest,
                obj,
            }
            | Origin::Template {
                side: Side::Manifest,
                obj,
                ..
            } => Some(obj),
            _ => None,
        }
    }

    pub fn side(&self) -> Option<Side> {
        match *self {
            Origin::Object { side, .. } | Origin::Template { side, .. } => Some(side),
            Origin::Provisioned { .. } => None,
        }
    }
}

/// `namespace/name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClaimKey {
    pub namespace: Str,
    pub name: Str,
}

impl std::fmt::Display for ClaimKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// A volume's spec.claimRef.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRef {
    pub key: ClaimKey,
    /// "" when the volume is pre-bound by name only.
    pub uid: Str,
}

pub use super::events::{Event, EventType, Reason};

/// Something pvlint assumed about a cluster it cannot see. Every finding that rests on one
/// says so.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Assumption {
    /// A StorageClass the input names but does not define exists and provisions volumes.
    ClassExists(Str),
    /// A claim without a class (`namespace/name`) is meant for a class-less static volume of
    /// the apply set that fits it, though nothing written says so (no shared file or word).
    MeantFor { claim: Str, volume: Str },
    /// A PersistentVolumeClaim a pod template mounts (`namespace/name`) and the input does not
    /// define exists in the cluster, or another tool creates it.
    ClaimExists(Str),
    /// That class (named as shown: "StorageClass X" or "the cluster's default StorageClass")
    /// gives the volumes it provisions reclaimPolicy Delete, the default: they are deleted with
    /// their claims.
    ClassReclaimsDelete(Str),
    /// A class name the input's free static volumes (a pool) use has no StorageClass object:
    /// it is a label only.
    StaticClassOnly(Str),
    /// The input defines the class, but the API server rejects that object: the cluster has
    /// no class of that name already.
    RejectedClassOnly(Str),
    /// No PersistentVolume of the cluster matches a claim, besides those in the input.
    NoOtherVolumes,
    /// No object of the cluster is the owner an ownerReference names (as written: "StatefulSet
    /// web with UID ..."): its UID is one of the cluster the manifest was read from.
    OwnerAbsent(Str),
    /// A custom kind an ownerReference names (as written: "Cluster (postgresql.cnpg.io/v1)") is
    /// served: the garbage collector cannot look an owner up until it is.
    OwnerKindServed(Str),
    /// No static provisioner creates volumes of a `kubernetes.io/no-provisioner` class at
    /// runtime (sig-storage-local-static-provisioner does, from the disks it finds).
    NoStaticProvisioner,
    /// A volume's driver, which pvlint does not know, attaches its volumes to one node at a
    /// time (as block storage does; Kubernetes attaches CSI volumes unless a CSIDriver object
    /// says `attachRequired: false`). The text says why pvlint does not know.
    DriverAttaches(Str),
    /// The pods land on different nodes, as the default profile's cluster of several nodes
    /// lets them, against a hint of the apply set: a hostPath volume without nodeAffinity
    /// (`volume`, in `file`) is written for a cluster of one node.
    SeveralNodesThoughOneNodeVolume { volume: Str, file: Str },
    /// Files of one directory are applied together: pvlint's default grouping
    /// (`kubectl apply -f DIR`), not the user's word (`--together`) nor the input's (a
    /// kustomization's resources are one apply).
    AppliedTogether { file: Str, other: Str },
    /// A StorageClass the input defines in another apply set (a directory or kustomization it
    /// is not applied with) is installed in the cluster as that file defines it; when that
    /// file marks it default (`default`), it is the cluster's default class, and no newer
    /// default stands beside it (`GetDefaultClass` picks the newest).
    DefinedElsewhere {
        class: Str,
        file: Str,
        default: bool,
    },
    /// The input carries a local cluster tool's config (`file`): the cluster is that tool's,
    /// and its default class is the one the tool installs.
    LocalClusterDefault {
        tool: super::LocalCluster,
        file: Str,
    },
    /// The provisioner (or CSI driver) that made a volume runs in this cluster too, and deletes
    /// the storage when the volume is released with Delete: nothing in the input or the
    /// cluster state (a StorageClass or CSIDriver of it) shows it.
    ProvisionerRuns(Str),
    /// The driver or provisioner a hand-written volume names runs in this cluster and deletes
    /// the storage when the volume is released with Delete: nothing in the input or the
    /// cluster state shows it.
    DeleterRuns(Str),
    /// A CSI driver whose handling pvlint has not read deletes what a volumeHandle written by
    /// hand names, as the CSI spec's DeleteVolume says (`driver`, `handle`).
    DriverDeletesHandle { driver: Str, handle: Str },
    /// The cluster's CSI external-snapshotter is 6.0 or later, whose CRDs no longer serve
    /// snapshot.storage.k8s.io/v1beta1 (the profile does not say its release).
    SnapshotterWithoutV1beta1,
    /// A provisioner pvlint does not know to run under the CSI external-provisioner refuses
    /// what that one refuses (a claim with a selector), as the common ones do.
    ProvisionerLikeCsi(Str),
    /// The cluster runs a release of the CSI driver that, like the one pvlint read, does not
    /// report the controller capability (CLONE_VOLUME, CREATE_DELETE_SNAPSHOT): drivers gain
    /// capabilities, and the profile does not say the driver's release.
    DriverWithout { driver: Str, capability: Str },
}

/// How a StorageClass is known to pvlint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassKnowledge {
    /// A StorageClass object of the input or the cluster state.
    Defined(Side, ObjId),
    /// Given by `--default-class NAME` (the profile's default class by name).
    Named,
    /// The default profile's default class: it exists (so claims without a class get it), but
    /// its name, provisioner and reclaim policy are not known. Not an assumption a finding
    /// names: the profile settles that it exists ([`crate::profile`]).
    Profile,
    /// Assumed (see [`Assumption`]).
    Assumed(Assumption),
}

/// A StorageClass the simulation knows (defined or assumed).
#[derive(Debug, Clone)]
pub struct Class {
    pub name: Str,
    /// None when unknown (an assumed class).
    pub provisioner: Option<Str>,
    pub reclaim: ReclaimPolicy,
    pub wait_for_first_consumer: bool,
    pub is_default: bool,
    pub created: Created,
    pub knowledge: ClassKnowledge,
    /// What its parameters tell its provisioner to do with released volumes' storage.
    pub delete_params: crate::drivers::DeleteParams,
}

impl Class {
    pub fn assumption(&self) -> Option<&Assumption> {
        match &self.knowledge {
            ClassKnowledge::Assumed(a) => Some(a),
            _ => None,
        }
    }

    /// What the class provisions is known from an object (of the input or the cluster state):
    /// not assumed, and not only a name or the profile's "a default class exists".
    pub fn is_defined(&self) -> bool {
        matches!(self.knowledge, ClassKnowledge::Defined(..))
    }
}

/// How a claim got its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassSource {
    /// Written in the manifest (possibly "").
    Written,
    /// Unset, and the DefaultStorageClass admission plugin set it on create.
    Admission,
    /// Unset, no volume matched, and the controller assigned the default (RetroactiveDefaultStorageClass).
    Retroactive,
    /// Unset and still unset: no default class.
    None,
}

/// Why a claim is Pending.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    /// Not synced yet.
    New,
    /// Delayed binding (WaitForFirstConsumer) and no pod in the input uses the claim.
    WaitForFirstConsumer { class: Str },
    /// No volume matches and the claim has no class ("" or unset without a default).
    NoMatchNoClass,
    /// No volume matches and its class does not exist.
    ClassNotFound {
        class: Str,
        /// Set when pvlint only assumes the class is missing.
        assumption: Option<Assumption>,
    },
    /// No volume matches and the class's provisioner is an in-tree name kube-controller-manager
    /// does not serve (including `kubernetes.io/no-provisioner`).
    ProvisionerUnavailable {
        class: Str,
        provisioner: Str,
        /// The error in the ProvisioningFailed event.
        error: Str,
        /// Delayed binding with `kubernetes.io/no-provisioner`: the scheduler never selects a
        /// node for these pods (volumebinding `checkVolumeProvisions`), so the controller never
        /// tries to provision and says it waits for them (Normal WaitForPodScheduled), not
        /// ProvisioningFailed. Empty when the controller tries (Immediate, or a node chosen).
        waiting_pods: Vec<Str>,
    },
    /// No volume matches, and the class's provisioner refuses to provision for the claim (the
    /// CSI external-provisioner's checks: a selector, a clone smaller than its source; then the
    /// driver's CreateVolume: an access or volume mode it does not serve): Warning
    /// ProvisioningFailed, and it stays Pending.
    ProvisionerRefuses {
        class: Str,
        provisioner: Str,
        why: super::ProvisionRefusal,
        /// The error in the ProvisioningFailed event (after "failed to provision volume with
        /// StorageClass ...: ").
        error: Str,
        /// Set when pvlint only assumes the provisioner refuses.
        assumption: Option<Assumption>,
    },
    /// A volumeAttributesClassName on a claim while the VolumeAttributesClass gate is off:
    /// matching fails with an error, and no event is emitted.
    AttributesClassUnsupported,
    /// It names a volume that does not exist (no event; it waits).
    VolumeMissing { volume: Str },
    /// It names a volume that fails checkVolumeSatisfyClaim.
    VolumeMismatch {
        volume: VolumeId,
        mismatches: Vec<Mismatch>,
    },
    /// It names a volume whose claimRef names another claim (or this one with another UID).
    VolumeTaken {
        volume: VolumeId,
        holder: ClaimRef,
        /// The holder is this claim's name with another UID: a copied claimRef.uid.
        stale_uid: bool,
    },
}

/// How a claim came to be Bound.
#[derive(Debug, Clone, PartialEq)]
pub enum BindHow {
    /// FindMatchingVolume's smallest match (equal alternatives in `tied`).
    BestMatch {
        /// Some of the other volumes that are as good: at most [`TIES_LISTED`]
        /// (a pool of thousands of equal volumes would otherwise list them all for every
        /// claim it serves).
        tied: Vec<VolumeId>,
        /// More volumes are as good than `tied` lists.
        more: bool,
    },
    /// The volume's claimRef names the claim: returned at once; class, phase and selector are
    /// not checked (`unchecked` lists those that fail).
    ReservedByClaimRef { unchecked: Vec<Mismatch> },
    /// The claim's volumeName names the volume, which passed checkVolumeSatisfyClaim.
    NamedVolume,
    /// Both name each other: bound without any check (`unchecked` lists those that fail).
    NamedEachOther { unchecked: Vec<Mismatch> },
    /// A volume dynamic provisioning created for it.
    Provisioned { provisioner: Str },
    /// A bound claim whose volume's claimRef carries its UID (live state).
    AlreadyBound,
    /// A bound claim whose volume has no claimRef: bound again without checks.
    Rebound,
}

/// Why a claim is Lost.
#[derive(Debug, Clone, PartialEq)]
pub enum Lost {
    /// bind-completed but no spec.volumeName.
    NoVolumeName,
    /// bind-completed and its volume does not exist.
    VolumeMissing { volume: Str },
    /// bind-completed and its volume's claimRef has another (or no) UID, or names another claim.
    Misbound {
        volume: VolumeId,
        claim_ref: ClaimRef,
    },
}

/// A claim's state.
#[derive(Debug, Clone, PartialEq)]
pub enum ClaimState {
    Pending(Pending),
    Bound {
        volume: VolumeId,
        how: BindHow,
    },
    Lost(Lost),
    /// The API server refused to create it (admission).
    Rejected(AdmissionError),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimPhase {
    Pending,
    Bound,
    Lost,
    /// Never created: admission refused it.
    Rejected,
}

crate::string::named!(ClaimPhase {
    Pending => "Pending",
    Bound => "Bound",
    Lost => "Lost",
    Rejected => "Rejected",
});

impl ClaimState {
    pub fn phase(&self) -> ClaimPhase {
        match self {
            ClaimState::Pending(_) => ClaimPhase::Pending,
            ClaimState::Bound { .. } => ClaimPhase::Bound,
            ClaimState::Lost(_) => ClaimPhase::Lost,
            ClaimState::Rejected(_) => ClaimPhase::Rejected,
        }
    }
}

/// The claim races another for a volume: which one gets it depends on the order the
/// controller sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    /// The volume both could take.
    pub volume: VolumeId,
    /// The claim that got it in this simulation.
    pub winner: ClaimId,
}

/// The StatefulSet and volumeClaimTemplate a claim is created from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateOf {
    pub statefulset: Str,
    pub template: Str,
    pub ordinal: i64,
}

/// Of the fields the PV controller writes too, those the last `kubectl apply` of the object
/// wrote (its `last-applied-configuration`): the next client-side apply's three-way merge
/// removes the ones its file no longer has, and keeps those only the controller wrote.
/// Nothing recorded (created by a controller, Helm, server-side apply): nothing removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Applied {
    /// Claims: the `pv.kubernetes.io/bind-completed` annotation.
    pub bind_completed: bool,
    /// The `pv.kubernetes.io/bound-by-controller` annotation.
    pub bound_by_controller: bool,
    /// Volumes: spec.claimRef, and its uid.
    pub claim_ref: bool,
    pub claim_ref_uid: bool,
}

/// A simulated PersistentVolumeClaim.
#[derive(Debug, Clone)]
pub struct Claim {
    pub key: ClaimKey,
    pub uid: Str,
    pub origin: Origin,
    pub template_of: Option<TemplateOf>,
    pub spec: ClaimSpec,
    pub written_class: WrittenClass,
    /// The class after admission and retroactive defaulting (None = unset, compared as "").
    pub class: Option<Str>,
    pub class_source: ClassSource,
    pub volume_name: Option<Str>,
    pub bind_completed: bool,
    /// See [`Applied`].
    pub applied: Applied,
    /// volume.kubernetes.io/selected-node is set: delayed binding provisions at once.
    pub selected_node: bool,
    /// What provisioning makes the volume from: (kind, name) of spec.dataSource(Ref). Boxed:
    /// rare.
    pub data_source: Option<Box<(Str, Str)>>,
    /// A pod of the input (or the cluster) uses it: delayed binding goes ahead.
    pub has_consumer: bool,
    /// The workloads whose pods mount it (a StatefulSet for the claims of its templates).
    pub used_by: Vec<(Side, ObjId)>,
    /// Deleted while a pod uses it: kept (Terminating) by the kubernetes.io/pvc-protection
    /// finalizer until no pod does.
    pub deleting: bool,
    /// A StatefulSet claim the controller has not created: an earlier ordinal's pod is not
    /// Running and Ready (OrderedReady).
    pub(crate) unborn: bool,
    pub state: ClaimState,
    pub events: Vec<Event>,
    pub race: Option<Race>,
    pub(crate) exists: bool,
    /// The cluster held it before the manifests were applied: the manifest updates it, and it
    /// keeps the cluster's UID.
    pub existed: bool,
}

impl Claim {
    /// The class the controller compares ("" when unset).
    pub fn class_name(&self) -> &str {
        self.class.as_deref().unwrap_or("")
    }

    pub fn phase(&self) -> ClaimPhase {
        self.state.phase()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VolumePhase {
    Available,
    Bound,
    Released,
    Failed,
}

crate::string::named!(VolumePhase {
    Available => "Available",
    Bound => "Bound",
    Released => "Released",
    Failed => "Failed",
});

/// Why a volume was Released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    /// Its claimRef names a claim that does not exist.
    ClaimMissing,
    /// Its claimRef's UID is not the UID of the claim with that name (a copied claimRef.uid,
    /// or the claim was recreated).
    UidMismatch,
    /// It was dynamically provisioned, has Delete, and its claim is bound to another volume.
    ClaimBoundElsewhere { other: Str },
}

/// What happens to the storage behind a volume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    Kept,
    /// Created by dynamic provisioning.
    Provisioned {
        provisioner: Str,
    },
    /// Deleted by kube-controller-manager's in-tree deleter (which also deletes the PV object).
    Deleted {
        plugin: Str,
    },
    /// Left Released for the external provisioner (CSI), which deletes it.
    LeftToProvisioner {
        provisioner: Str,
    },
    /// Left Released for the external provisioner, which renames the directory to
    /// `archived-<directory>` (nfs-subdir-external-provisioner's archiveOnDelete, the onDelete
    /// of csi-driver-nfs and csi-driver-smb): the data stays.
    Archived {
        provisioner: Str,
    },
    /// Left Released for the external provisioner, which leaves the storage.
    KeptByProvisioner {
        provisioner: Str,
        why: crate::drivers::Keep,
    },
    /// Wiped by a recycler pod and offered again.
    Recycled,
    /// Deletion failed: the volume is Failed and the storage stays.
    DeleteFailed {
        error: Str,
    },
    /// Recycling failed: the volume is Failed and the storage stays.
    RecycleFailed {
        error: Str,
    },
    /// The PV object is gone but nothing deleted the storage (a PV deleted before its claim
    /// without the finalizer that honours the Delete policy).
    Leaked,
}

impl Storage {
    /// The storage is (or will be) deleted.
    pub fn is_deleted(&self) -> bool {
        matches!(
            self,
            Storage::Deleted { .. } | Storage::LeftToProvisioner { .. }
        )
    }
}

/// A simulated PersistentVolume.
#[derive(Debug, Clone)]
pub struct Volume {
    pub name: Str,
    pub uid: Str,
    pub origin: Origin,
    pub spec: VolumeSpec,
    pub claim_ref: Option<ClaimRef>,
    pub provisioned_by: Option<Str>,
    /// pv.kubernetes.io/migrated-to: reclaim is left to the CSI driver.
    pub migrated_to: Option<Str>,
    pub bound_by_controller: bool,
    /// See [`Applied`].
    pub applied: Applied,
    pub finalizers: Vec<Str>,
    /// `kubectl delete` was called: the object stays while a finalizer holds it.
    pub deleting: bool,
    /// What the storage is ("the NFS export 10.0.0.1:/data").
    pub backing: Str,
    pub host_path: Option<Str>,
    /// The CSI volumeHandle: what the driver's DeleteVolume is given.
    pub handle: Option<Str>,
    pub nfs_server_problem: Option<Str>,
    pub phase: VolumePhase,
    pub release: Option<Release>,
    pub storage: Storage,
    pub events: Vec<Event>,
    /// Its claimRef names a claim that skips it: FindMatchingVolume's checks fail for that claim.
    /// Boxed: rare, and a simulated volume is held for every volume of the input.
    pub skipped_by_reserved_claim: Option<Box<(ClaimId, Vec<Mismatch>)>>,
    pub(crate) exists: bool,
}

/// How many of the volumes as good as the one a claim binds are named.
pub const TIES_LISTED: usize = 10;
