//! The simulation's result in words and JSON (`pvlint-simulation/v1`, docs/simulation-schema.md):
//! every claim's and volume's final phase, why, the events, what happens to the storage.
//! Objects are named and located by file and line, never by internal index.

use serde::{Deserialize, Serialize};

use super::state::*;
use super::World;
use crate::binding::fit::Mismatch;
use crate::finding::ObjectRef;
use crate::model::ObjId;

pub const SCHEMA: &str = "pvlint-simulation/v1";

/// Where an object of the inputs is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Located {
    pub object: ObjectRef,
    pub file: String,
    pub line: u32,
}

/// Where a claim or a volume of the simulation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OriginKind {
    /// The cluster state.
    Cluster,
    /// A manifest.
    Manifest,
    /// A StatefulSet's volumeClaimTemplate.
    Statefulset,
    /// Dynamic provisioning.
    Provisioned,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginOut {
    pub kind: OriginKind,
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Located>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ordinal: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimOutcome {
    pub namespace: String,
    pub name: String,
    pub origin: OriginOut,
    pub phase: ClaimPhase,
    pub volume: Option<String>,
    /// The class after admission (`null`: none).
    pub class: Option<String>,
    /// Who gave it its class.
    pub class_source: ClassSource,
    pub events: Vec<Event>,
    /// Why it ends in this phase.
    pub why: String,
    /// Another claim could take the volume this one would get: the real outcome depends on
    /// the order the controller sees them.
    pub order_dependent: bool,
    /// How it relates to the volume it is bound to or names (absent when it names none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<LinkOut>,
    /// The workloads whose pods mount it (a StatefulSet for the claims of its templates).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used_by: Vec<Located>,
    /// Deleted, but kept by the kubernetes.io/pvc-protection finalizer while a pod uses it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub terminating: bool,
}

/// How a claim relates to a volume: the edge of a binding picture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkOut {
    pub volume: String,
    pub how: LinkHow,
    /// The fit checks that fail (`mismatch`), or that binding skipped although they fail
    /// (`claimRef`, `namedEachOther`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// `taken`, `misbound`: the claim the volume's claimRef names, `namespace/name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<String>,
    /// `bestMatch`: equally good volumes (which one binds is random).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tied: Vec<String>,
}

/// How a claim relates to the volume of its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LinkHow {
    /// Bound: FindMatchingVolume's smallest match.
    BestMatch,
    /// Bound: the volume's claimRef reserves it.
    ClaimRef,
    /// Bound: the claim names it.
    VolumeName,
    /// Bound: both name each other.
    NamedEachOther,
    /// Bound: provisioned for it.
    Provisioned,
    /// Bound in the cluster state.
    AlreadyBound,
    /// Bound again (its volume had no claimRef).
    Rebound,
    /// Lost: the volume's claimRef names another claim or UID.
    Misbound,
    /// Lost or Pending: the volume it names does not exist.
    VolumeMissing,
    /// Pending: the volume it names fails the fit checks.
    Mismatch,
    /// Pending: the volume it names is another claim's.
    Taken,
}

/// A fit check's name in JSON.
fn check_id(m: &Mismatch) -> String {
    use crate::binding::fit::Check;
    match m.check() {
        Check::BeingDeleted => "beingDeleted",
        Check::Capacity => "capacity",
        Check::Class => "storageClassName",
        Check::AttributesClass => "volumeAttributesClassName",
        Check::VolumeMode => "volumeMode",
        Check::AccessModes => "accessModes",
        Check::Selector => "selector",
    }
    .into()
}

/// What happens to a volume's storage (the simulation's `Storage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Fate {
    Kept,
    Provisioned,
    Deleted,
    LeftToProvisioner,
    /// Renamed to `archived-<directory>` by the provisioner: the data stays.
    Archived,
    Recycled,
    DeleteFailed,
    RecycleFailed,
    Leaked,
}

impl Fate {
    /// The fate as the JSON output writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Kept => "kept",
            Fate::Provisioned => "provisioned",
            Fate::Deleted => "deleted",
            Fate::LeftToProvisioner => "leftToProvisioner",
            Fate::Archived => "archived",
            Fate::Recycled => "recycled",
            Fate::DeleteFailed => "deleteFailed",
            Fate::RecycleFailed => "recycleFailed",
            Fate::Leaked => "leaked",
        }
    }
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageOut {
    pub fate: Fate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeOutcome {
    pub name: String,
    pub origin: OriginOut,
    pub phase: VolumePhase,
    /// The object was deleted (`kubectl delete` or by the controller after deleting storage).
    pub gone: bool,
    /// It is being deleted (deletionTimestamp set) and a finalizer keeps the object:
    /// `kubernetes.io/pv-protection` while it is Bound, or the deleter's after a failed delete.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub terminating: bool,
    /// Its claimRef, `namespace/name`.
    pub claim: Option<String>,
    pub storage: StorageOut,
    /// What the storage is.
    pub backing: String,
    pub events: Vec<Event>,
    pub why: String,
}

/// The state after one operation of a what-if timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub operation: String,
    pub claims: Vec<ClaimOutcome>,
    pub volumes: Vec<VolumeOutcome>,
    /// Objects of an `apply` whose update the API server refuses: they stay as they were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedUpdate>,
}

/// An update the API server refuses, with its causes as kubectl prints them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedUpdate {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    pub causes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Simulation {
    pub schema: String,
    pub converged: bool,
    /// What pvlint assumed about the cluster, in words.
    pub assumptions: Vec<String>,
    pub claims: Vec<ClaimOutcome>,
    pub volumes: Vec<VolumeOutcome>,
    /// With operations: the state after each (the first is the state before any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Outcomes of applying the manifests that can occur instead, when the controller sees
    /// the objects in another order (see `sim::timing`); `claims` is the likely one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<super::timing::Alternative>,
    /// StatefulSet claims the controller does not create (OrderedReady: an earlier pod never
    /// becomes Running and Ready), at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_created: Vec<NotCreated>,
}

/// A claim of a StatefulSet's template that does not exist, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotCreated {
    /// `namespace/name`.
    pub claim: String,
    pub why: String,
}

impl World {
    fn origin_out(&self, o: &Origin, locate: &dyn Fn(Side, ObjId) -> Option<Located>) -> OriginOut {
        match *o {
            Origin::Object { side, obj } => OriginOut {
                kind: match side {
                    Side::Cluster => OriginKind::Cluster,
                    Side::Manifest => OriginKind::Manifest,
                },
                at: locate(side, obj),
                ordinal: None,
            },
            Origin::Template {
                side, obj, ordinal, ..
            } => OriginOut {
                kind: OriginKind::Statefulset,
                at: locate(side, obj),
                ordinal: Some(ordinal),
            },
            Origin::Provisioned { .. } => OriginOut {
                kind: OriginKind::Provisioned,
                at: None,
                ordinal: None,
            },
        }
    }

    fn link_out(&self, c: &Claim) -> Option<LinkOut> {
        let name = |v: &VolumeId| self.volume(*v).name.clone();
        let link = |volume: String, how: LinkHow| LinkOut {
            volume,
            how,
            checks: Vec::new(),
            holder: None,
            tied: Vec::new(),
        };
        let checks = |ms: &[Mismatch]| ms.iter().map(check_id).collect::<Vec<_>>();
        Some(match &c.state {
            ClaimState::Bound { volume, how } => {
                let v = name(volume);
                match how {
                    BindHow::BestMatch { tied, .. } => LinkOut {
                        tied: tied.iter().map(|t| name(t).to_string()).collect(),
                        ..link(String::from(v), LinkHow::BestMatch)
                    },
                    BindHow::ReservedByClaimRef { unchecked } => LinkOut {
                        checks: checks(unchecked),
                        ..link(String::from(v), LinkHow::ClaimRef)
                    },
                    BindHow::NamedVolume => link(String::from(v), LinkHow::VolumeName),
                    BindHow::NamedEachOther { unchecked } => LinkOut {
                        checks: checks(unchecked),
                        ..link(String::from(v), LinkHow::NamedEachOther)
                    },
                    BindHow::Provisioned { .. } => link(String::from(v), LinkHow::Provisioned),
                    BindHow::AlreadyBound => link(String::from(v), LinkHow::AlreadyBound),
                    BindHow::Rebound => link(String::from(v), LinkHow::Rebound),
                }
            }
            ClaimState::Lost(Lost::NoVolumeName) => return None,
            ClaimState::Lost(Lost::VolumeMissing { volume }) => {
                link(volume.to_string(), LinkHow::VolumeMissing)
            }
            ClaimState::Lost(Lost::Misbound { volume, claim_ref }) => LinkOut {
                holder: Some(claim_ref.key.to_string()),
                ..link(String::from(name(volume)), LinkHow::Misbound)
            },
            ClaimState::Pending(Pending::VolumeMissing { volume }) => {
                link(volume.to_string(), LinkHow::VolumeMissing)
            }
            ClaimState::Pending(Pending::VolumeMismatch { volume, mismatches }) => LinkOut {
                checks: checks(mismatches),
                ..link(String::from(name(volume)), LinkHow::Mismatch)
            },
            ClaimState::Pending(Pending::VolumeTaken { volume, holder, .. }) => LinkOut {
                holder: Some(holder.key.to_string()),
                ..link(String::from(name(volume)), LinkHow::Taken)
            },
            ClaimState::Pending(_) | ClaimState::Rejected(_) => return None,
        })
    }

    fn claim_outcomes(&self, locate: &dyn Fn(Side, ObjId) -> Option<Located>) -> Vec<ClaimOutcome> {
        self.claims()
            .map(|(id, c)| ClaimOutcome {
                namespace: c.key.namespace.to_string(),
                name: c.key.name.to_string(),
                origin: self.origin_out(&c.origin, locate),
                phase: c.phase(),
                volume: match &c.state {
                    ClaimState::Bound { volume, .. } => {
                        Some(String::from(self.volume(*volume).name.clone()))
                    }
                    ClaimState::Lost(_) => c.volume_name.clone().map(String::from),
                    _ => None,
                },
                class: c
                    .class
                    .clone()
                    .map(|n| {
                        if n == super::load::ASSUMED_DEFAULT {
                            "<the cluster's default>".into()
                        } else {
                            n
                        }
                    })
                    .map(String::from),
                class_source: c.class_source,
                events: c.events.clone(),
                why: self.claim_why(id),
                order_dependent: c.race.is_some(),
                link: self.link_out(c),
                used_by: c
                    .used_by
                    .iter()
                    .filter_map(|&(side, obj)| locate(side, obj))
                    .collect(),
                terminating: c.deleting,
            })
            .collect()
    }

    fn volume_outcomes(
        &self,
        locate: &dyn Fn(Side, ObjId) -> Option<Located>,
    ) -> Vec<VolumeOutcome> {
        self.volumes
            .iter()
            .enumerate()
            // Deleted volumes stay in the report (gone), to say what became of their storage.
            .filter(|(_, v)| v.exists || v.deleting || matches!(v.storage, Storage::Deleted { .. }))
            .map(|(i, v)| VolumeOutcome {
                name: v.name.to_string(),
                origin: self.origin_out(&v.origin, locate),
                phase: v.phase,
                gone: !v.exists,
                terminating: v.exists && v.deleting,
                claim: v.claim_ref.as_ref().map(|cr| cr.key.to_string()),
                storage: v.storage.out(),
                backing: v.backing.to_string(),
                events: v.events.clone(),
                why: self.volume_why(VolumeId(i as u32)),
            })
            .collect()
    }

    /// The serializable result. `locate` names and places objects of the inputs.
    pub fn report(&self, locate: &dyn Fn(Side, ObjId) -> Option<Located>) -> Simulation {
        Simulation {
            schema: SCHEMA.to_string(),
            converged: self.converged,
            assumptions: self
                .assumptions()
                .iter()
                .map(Assumption::describe)
                .collect(),
            claims: self.claim_outcomes(locate),
            volumes: self.volume_outcomes(locate),
            steps: Vec::new(),
            alternatives: Vec::new(),
            not_created: self.not_created(),
        }
    }

    /// The claims an OrderedReady StatefulSet has not created: the first pod whose claim is not
    /// Bound never becomes Ready, and the controller creates no later ordinal.
    pub fn not_created(&self) -> Vec<NotCreated> {
        self.claims
            .iter()
            .filter(|c| c.exists && c.unborn)
            .map(|c| {
                let why = match (&c.template_of, c.origin) {
                    (Some(t), Origin::Template { ordinal, .. }) => format!(
                        "podManagementPolicy OrderedReady creates pod {s}-{ordinal} and its claims only once {s}-{} is Running and Ready, which it never is while its claim is not Bound",
                        ordinal - 1,
                        s = t.statefulset
                    ),
                    _ => "an earlier ordinal never becomes Ready".to_string(),
                };
                NotCreated {
                    claim: c.key.to_string(),
                    why,
                }
            })
            .collect()
    }

    /// The state for one step of a timeline.
    pub fn step(&self, operation: String, locate: &dyn Fn(Side, ObjId) -> Option<Located>) -> Step {
        Step {
            operation,
            claims: self.claim_outcomes(locate),
            volumes: self.volume_outcomes(locate),
            refused: Vec::new(),
        }
    }
}
