//! The simulation's result in words and JSON (`pvlint-simulation/v1`, docs/simulation-schema.md):
//! every claim's and volume's final phase, why, the events, what happens to the storage.
//! Objects are named and located by file and line, never by internal index.

use serde::{Deserialize, Serialize};

use super::state::*;
use super::World;
use crate::binding::fit::Mismatch;
use crate::finding::ObjectRef;
use crate::kube::ReclaimPolicy;
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginOut {
    /// `cluster`, `manifest`, `statefulset` (a claim created from a volumeClaimTemplate) or
    /// `provisioned` (a volume dynamic provisioning created).
    pub kind: String,
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
    /// `written`, `admission` (DefaultStorageClass), `retroactive` (the controller) or `none`.
    pub class_source: String,
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
    /// Bound: `bestMatch`, `claimRef` (the volume's claimRef reserves it), `volumeName` (the
    /// claim names it), `namedEachOther`, `provisioned`, `alreadyBound`, `rebound`. Lost:
    /// `misbound`, `volumeMissing`. Pending: `mismatch`, `taken`, `volumeMissing`.
    pub how: String,
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageOut {
    /// `kept`, `provisioned`, `deleted`, `leftToProvisioner`, `recycled`, `deleteFailed`,
    /// `recycleFailed` or `leaked`.
    pub fate: String,
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
    /// the objects in another order (see [`super::timing`]); `claims` is the likely one.
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

fn class_text(c: &str) -> String {
    if c.is_empty() {
        "no class".into()
    } else {
        format!("class \"{c}\"")
    }
}

impl Assumption {
    /// The assumption in words.
    pub fn describe(&self) -> String {
        match self {
            Assumption::DefaultClassExists => "the cluster has a default StorageClass (almost every cluster does); pvlint does not know its name or provisioner (--default-class NAME or --no-default-class say what the cluster has)".into(),
            Assumption::ClassExists(c) => match crate::drivers::platform_class(c) {
                Some(pc) => format!("StorageClass {c}, which the input does not define, exists in the cluster and is, by its name, {} (provisioner {}) (pass --cluster-state or --complete to check)", pc.installed_by, pc.provisioner),
                None => format!("StorageClass {c}, which the input does not define, exists in the cluster and provisions volumes (pass --cluster-state or --complete to check)"),
            },
            Assumption::ClassReclaimsDelete(c) => format!("{c} gives the volumes it provisions reclaimPolicy Delete, the default (a class with reclaimPolicy: Retain keeps them; pass --cluster-state to check)"),
            Assumption::RejectedClassOnly(c) => format!("no StorageClass {c} exists besides the one in the input, which the API server rejects (pass --cluster-state or --complete to make this certain)"),
            Assumption::StaticClassOnly(c) => format!("no StorageClass {c} exists: the input uses \"{c}\" only as a label on its static volumes (pass --cluster-state or --complete to make this certain)"),
            Assumption::NoOtherVolumes => "the cluster has no PersistentVolume that matches it besides those in the input (pass --cluster-state or --complete to check)".into(),
            Assumption::NoStaticProvisioner => "no static provisioner (such as sig-storage-local-static-provisioner, which creates local volumes from the disks it finds) creates volumes of this kubernetes.io/no-provisioner class in the cluster".into(),
            Assumption::SeveralNodesThoughOneNodeVolume { volume, file } => format!("the pods land on different nodes of a cluster of several nodes, although hostPath volume {volume} ({file}) has no nodeAffinity, as only a cluster of one node allows"),
            Assumption::LocalClusterDefault { tool, file } => format!("the cluster is a {} cluster, as {file} (its config) says, and its default StorageClass {} (rancher.io/local-path) is the one {} installs", tool.name(), tool.default_class(), tool.name()),
            Assumption::ProvisionerRuns(p) => format!("{p}, which made the volume, runs in this cluster too and deletes its storage (no StorageClass or CSIDriver of the input or the cluster state shows it)"),
            Assumption::ProvisionerLikeCsi(p) => format!("provisioner {p} refuses, as the CSI external-provisioner and most provisioners do, to provision a claim with a selector"),
            Assumption::DriverAttaches(why) => format!("the volume attaches to one node at a time ({why}); a CSIDriver object in the input, or --cluster-state, says for sure"),
            Assumption::PodsOnSeveralNodes => "the scheduler puts the pods on different nodes (a cluster of more than one node where the volume can be used; its default spreading prefers nodes without the workload's pods); on a one-node cluster, or with affinity that keeps them together, they share the node".into(),
            Assumption::AppliedTogether { file, other } => format!("{file} and {other} are applied together, as pvlint groups a directory's files (or a kustomization's resources) by default; --together or --complete says so for sure"),
            Assumption::DefinedElsewhere { class, file } => format!("StorageClass {class} is installed in the cluster as {file} defines it (another file of the input, applied on its own)"),
        }
    }
}

impl World {
    /// A class name for messages.
    pub fn class_label(&self, name: &str) -> String {
        if name == super::load::ASSUMED_DEFAULT {
            "the cluster's default class".into()
        } else {
            format!("\"{name}\"")
        }
    }

    /// Why a claim ends in its state, in one sentence (no trailing period).
    pub fn claim_why(&self, id: ClaimId) -> String {
        let c = self.claim(id);
        let vname = |v: &VolumeId| self.volume(*v).name.clone();
        let mut why = match &c.state {
            ClaimState::Bound { volume, how } => {
                let v = vname(volume);
                match how {
                    BindHow::BestMatch { tied } if tied.is_empty() => {
                        format!("the controller binds the smallest matching volume, {v}")
                    }
                    BindHow::BestMatch { tied } => format!(
                        "the controller binds a smallest matching volume: {v} (or {}, equally good: which one is chosen at random)",
                        tied.iter().map(vname).collect::<Vec<_>>().join(", ")
                    ),
                    BindHow::ReservedByClaimRef { unchecked } if unchecked.is_empty() => {
                        format!("volume {v}'s claimRef reserves it for this claim")
                    }
                    BindHow::ReservedByClaimRef { unchecked } => format!(
                        "volume {v}'s claimRef reserves it for this claim, so it binds without the {} check, although {}",
                        unchecked[0].check(),
                        unchecked[0].detail()
                    ),
                    BindHow::NamedVolume => format!("it names volume {v}, which satisfies it"),
                    BindHow::NamedEachOther { unchecked } if unchecked.is_empty() => {
                        format!("it and volume {v} name each other")
                    }
                    BindHow::NamedEachOther { unchecked } => format!(
                        "it and volume {v} name each other, so they bind without checks, although {}",
                        unchecked[0].detail()
                    ),
                    BindHow::Provisioned { provisioner } => {
                        format!("no existing volume matches it, so {provisioner} provisions {v}")
                    }
                    BindHow::AlreadyBound => format!("it is bound to {v} (the volume's claimRef carries its UID)"),
                    BindHow::Rebound => format!("it is marked bound and volume {v} has no claimRef: the controller binds them again"),
                }
            }
            ClaimState::Pending(p) => self.pending_why(c, p),
            ClaimState::Lost(l) => match l {
                Lost::NoVolumeName => "it carries pv.kubernetes.io/bind-completed but has no spec.volumeName".into(),
                Lost::VolumeMissing { volume } => {
                    format!("it is marked bound to volume {volume}, which does not exist")
                }
                Lost::Misbound { volume, claim_ref } => {
                    let v = vname(volume);
                    if claim_ref.key != c.key {
                        format!("volume {v}'s claimRef names another claim, {}", claim_ref.key)
                    } else if claim_ref.uid.is_empty() {
                        format!("volume {v}'s claimRef names it without a UID, and for a bound claim the UIDs must match")
                    } else if c.origin.side() == Some(Side::Cluster) {
                        format!("volume {v}'s claimRef.uid {} is not this claim's UID {}", claim_ref.uid, c.uid)
                    } else {
                        format!("volume {v}'s claimRef.uid {} can never be the UID this claim gets when it is created", claim_ref.uid)
                    }
                }
            },
            ClaimState::Rejected(crate::binding::class::AdmissionError::SeveralDefaults { count }) => format!(
                "admission refuses it: {count} default StorageClasses were found, and Kubernetes {} allows one",
                self.options.kube_version
            ),
        };
        match c.class_source {
            ClassSource::Admission => {
                why = format!(
                    "no storageClassName, so admission gives it {}; {why}",
                    self.default_label(c.class_name())
                )
            }
            ClassSource::Retroactive => {
                why = format!(
                    "no volume without class matched, so the controller gives it {}; {why}",
                    self.default_label(c.class_name())
                )
            }
            _ => {}
        }
        if let Some(r) = &c.race {
            why.push_str(&format!(
                "; claim {} took volume {} first: which claim gets it depends on the order the controller sees them",
                self.claim(r.winner).key,
                vname(&r.volume)
            ));
        }
        why
    }

    fn default_label(&self, name: &str) -> String {
        if name == super::load::ASSUMED_DEFAULT {
            "the cluster's default class (assumed to exist)".into()
        } else {
            format!("the default class \"{name}\"")
        }
    }

    fn pending_why(&self, c: &Claim, p: &Pending) -> String {
        let class = c.class_name();
        match p {
            Pending::New => "it is not synced yet".into(),
            Pending::WaitForFirstConsumer { class } => format!(
                "StorageClass {class} binds on first consumer (WaitForFirstConsumer) and no pod in the input uses the claim"
            ),
            Pending::NoMatchNoClass => "no volume without a class matches it, and without a class nothing is provisioned".into(),
            Pending::ClassNotFound { class, assumption } => {
                let mut s = format!(
                    "no volume of {} matches it, and StorageClass {class} does not exist",
                    class_text(class)
                );
                if let Some(a) = assumption {
                    s.push_str(&format!(" (assumed: {})", a.describe()));
                }
                s
            }
            Pending::ProvisionerUnavailable { provisioner, .. } => format!(
                "no volume of {} matches it, and kube-controller-manager has no provisioner \"{provisioner}\"",
                class_text(class)
            ),
            Pending::ProvisionerRefuses { provisioner, error, assumption, .. } => {
                let mut s = format!(
                    "no volume of {} matches it, and {provisioner} refuses to provision it ({error})",
                    class_text(class)
                );
                if let Some(a) = assumption {
                    s.push_str(&format!(" (assumed: {})", a.describe()));
                }
                s
            }
            Pending::AttributesClassUnsupported => format!(
                "it sets volumeAttributesClassName, which the VolumeAttributesClass feature (off by default in {}) does not allow: matching fails with no event",
                self.options.kube_version
            ),
            Pending::VolumeMissing { volume } => {
                format!("it names volume {volume}, which does not exist (no event; it waits)")
            }
            Pending::VolumeMismatch { volume, mismatches } => format!(
                "it names volume {}, but {}",
                self.volume(*volume).name,
                mismatches.first().map(Mismatch::detail).unwrap_or_default()
            ),
            Pending::VolumeTaken { volume, holder, stale_uid } => {
                let v = &self.volume(*volume).name;
                if *stale_uid {
                    format!("volume {v}'s claimRef names it with another UID (a copied claimRef.uid)")
                } else {
                    format!("volume {v} is bound to another claim, {}", holder.key)
                }
            }
        }
    }

    /// Why a volume ends in its state, and what happens to its storage.
    pub fn volume_why(&self, id: VolumeId) -> String {
        let v = self.volume(id);
        let claim = |cr: &ClaimRef| cr.key.to_string();
        let state = match (v.phase, &v.claim_ref, &v.release) {
            (_, _, Some(Release::ClaimMissing)) => format!(
                "its claim {} does not exist, so the controller releases it",
                v.claim_ref.as_ref().map(claim).unwrap_or_default()
            ),
            (_, _, Some(Release::UidMismatch)) => format!(
                "its claimRef.uid is not the UID of claim {}, so the controller treats that claim as deleted",
                v.claim_ref.as_ref().map(claim).unwrap_or_default()
            ),
            (_, _, Some(Release::ClaimBoundElsewhere { other })) => {
                format!("its claim is bound to volume {other} and it was provisioned with Delete")
            }
            (VolumePhase::Bound, Some(cr), _) => format!("bound to {}", claim(cr)),
            (_, Some(cr), _) if cr.uid.is_empty() => match v.skipped_by_reserved_claim.as_deref() {
                Some((_, m)) => format!(
                    "reserved for {} by claimRef, but that claim skips it: {}",
                    claim(cr),
                    m.first().map(Mismatch::detail).unwrap_or_default()
                ),
                None => format!("reserved for {} by claimRef", claim(cr)),
            },
            (VolumePhase::Available, None, _) => "no claim binds it".into(),
            _ => String::new(),
        };
        let fate = match &v.storage {
            Storage::Kept if v.release.is_some() && v.spec.reclaim == ReclaimPolicy::Retain => {
                "reclaimPolicy Retain keeps the storage; it stays Released until an admin removes spec.claimRef".to_string()
            }
            Storage::Kept => String::new(),
            Storage::Provisioned { provisioner } => format!("provisioned by {provisioner}"),
            Storage::Deleted { plugin } => {
                format!("reclaimPolicy Delete: kube-controller-manager ({plugin}) deletes {} and the PV object", v.backing)
            }
            Storage::LeftToProvisioner { provisioner } => format!(
                "reclaimPolicy Delete: left Released for {provisioner}, which deletes {}",
                v.backing
            ),
            Storage::Recycled => "reclaimPolicy Recycle wipes the storage (rm -rf) and offers the volume again".into(),
            Storage::DeleteFailed { .. } => "reclaimPolicy Delete fails: the volume is Failed and the storage stays".into(),
            Storage::RecycleFailed { .. } => "reclaimPolicy Recycle fails: the volume is Failed".into(),
            Storage::Leaked => {
                let mut s = format!(
                    "the PV object is deleted but nothing deletes {}: it leaks",
                    v.backing
                );
                let external = matches!(v.spec.source, crate::binding::SourceKind::Csi { .. })
                    || v.migrated_to.is_some()
                    || v
                        .provisioned_by
                        .as_deref()
                        .is_some_and(|p| !p.starts_with("kubernetes.io/"));
                if external && super::reclaim::honor_reclaim_policy(self.options.kube_version) {
                    s.push_str(&format!(
                        " (assumed: the manifest has no {}; from 1.31 a CSI external-provisioner with HonorPVReclaimPolicy adds it to a Bound volume of its driver, and then deletes the storage)",
                        crate::kube::FINALIZER_EXTERNAL_PROVISIONER
                    ));
                }
                s
            }
        };
        match (state.is_empty(), fate.is_empty()) {
            (true, _) => fate,
            (_, true) => state,
            _ => format!("{state}; {fate}"),
        }
    }

    /// The assumptions the run rests on.
    pub fn assumptions(&self) -> Vec<Assumption> {
        // Only assumptions some claim rests on.
        let used: std::collections::HashSet<&str> =
            self.claims().map(|(_, c)| c.class_name()).collect();
        let mut out: Vec<Assumption> = self
            .classes
            .iter()
            .filter(|c| used.contains(c.name.as_str()))
            .filter_map(|c| c.assumption().cloned())
            .collect();
        out.extend(self.static_only.values().cloned());
        out
    }

    fn origin_out(&self, o: &Origin, locate: &dyn Fn(Side, ObjId) -> Option<Located>) -> OriginOut {
        match *o {
            Origin::Object { side, obj } => OriginOut {
                kind: match side {
                    Side::Cluster => "cluster",
                    Side::Manifest => "manifest",
                }
                .into(),
                at: locate(side, obj),
                ordinal: None,
            },
            Origin::Template {
                side, obj, ordinal, ..
            } => OriginOut {
                kind: "statefulset".into(),
                at: locate(side, obj),
                ordinal: Some(ordinal),
            },
            Origin::Provisioned { .. } => OriginOut {
                kind: "provisioned".into(),
                at: None,
                ordinal: None,
            },
        }
    }

    fn link_out(&self, c: &Claim) -> Option<LinkOut> {
        let name = |v: &VolumeId| self.volume(*v).name.clone();
        let link = |volume: String, how: &str| LinkOut {
            volume,
            how: how.into(),
            checks: Vec::new(),
            holder: None,
            tied: Vec::new(),
        };
        let checks = |ms: &[Mismatch]| ms.iter().map(check_id).collect::<Vec<_>>();
        Some(match &c.state {
            ClaimState::Bound { volume, how } => {
                let v = name(volume);
                match how {
                    BindHow::BestMatch { tied } => LinkOut {
                        tied: tied.iter().map(|t| name(t).to_string()).collect(),
                        ..link(String::from(v), "bestMatch")
                    },
                    BindHow::ReservedByClaimRef { unchecked } => LinkOut {
                        checks: checks(unchecked),
                        ..link(String::from(v), "claimRef")
                    },
                    BindHow::NamedVolume => link(String::from(v), "volumeName"),
                    BindHow::NamedEachOther { unchecked } => LinkOut {
                        checks: checks(unchecked),
                        ..link(String::from(v), "namedEachOther")
                    },
                    BindHow::Provisioned { .. } => link(String::from(v), "provisioned"),
                    BindHow::AlreadyBound => link(String::from(v), "alreadyBound"),
                    BindHow::Rebound => link(String::from(v), "rebound"),
                }
            }
            ClaimState::Lost(Lost::NoVolumeName) => return None,
            ClaimState::Lost(Lost::VolumeMissing { volume }) => {
                link(volume.to_string(), "volumeMissing")
            }
            ClaimState::Lost(Lost::Misbound { volume, claim_ref }) => LinkOut {
                holder: Some(claim_ref.key.to_string()),
                ..link(String::from(name(volume)), "misbound")
            },
            ClaimState::Pending(Pending::VolumeMissing { volume }) => {
                link(volume.to_string(), "volumeMissing")
            }
            ClaimState::Pending(Pending::VolumeMismatch { volume, mismatches }) => LinkOut {
                checks: checks(mismatches),
                ..link(String::from(name(volume)), "mismatch")
            },
            ClaimState::Pending(Pending::VolumeTaken { volume, holder, .. }) => LinkOut {
                holder: Some(holder.key.to_string()),
                ..link(String::from(name(volume)), "taken")
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
                class_source: match c.class_source {
                    ClassSource::Written => "written",
                    ClassSource::Admission => "admission",
                    ClassSource::Retroactive => "retroactive",
                    ClassSource::None => "none",
                }
                .into(),
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
                storage: match &v.storage {
                    Storage::Kept => StorageOut {
                        fate: "kept".into(),
                        by: None,
                        error: None,
                    },
                    Storage::Provisioned { provisioner } => StorageOut {
                        fate: "provisioned".into(),
                        by: Some(provisioner.to_string()),
                        error: None,
                    },
                    Storage::Deleted { plugin } => StorageOut {
                        fate: "deleted".into(),
                        by: Some(plugin.to_string()),
                        error: None,
                    },
                    Storage::LeftToProvisioner { provisioner } => StorageOut {
                        fate: "leftToProvisioner".into(),
                        by: Some(provisioner.to_string()),
                        error: None,
                    },
                    Storage::Recycled => StorageOut {
                        fate: "recycled".into(),
                        by: None,
                        error: None,
                    },
                    Storage::DeleteFailed { error } => StorageOut {
                        fate: "deleteFailed".into(),
                        by: None,
                        error: Some(error.to_string()),
                    },
                    Storage::RecycleFailed { error } => StorageOut {
                        fate: "recycleFailed".into(),
                        by: None,
                        error: Some(error.to_string()),
                    },
                    Storage::Leaked => StorageOut {
                        fate: "leaked".into(),
                        by: None,
                        error: None,
                    },
                },
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
