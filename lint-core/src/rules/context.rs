//! What a rule sees: the sources, the index, the options and the simulation of one apply set
//! (or of a live cluster), and the consequences the simulation gives a claim or a volume.

use crate::finding::{Consequence, Location, ObjectRef, Phase};
use crate::index::Index;
use crate::model::{Field, ObjId, Object};
use crate::options::Options;
use crate::sim::{self, ClaimId, ClaimState, Side, VolumeId, World};
use crate::source::Source;
use crate::string::Str;

/// What a rule sees.
pub(crate) struct Context<'a> {
    pub sources: &'a [Source],
    /// The manifests.
    pub index: &'a Index,
    pub options: &'a Options,
    /// The simulation of the manifests applied onto the cluster state: what happens.
    pub sim: &'a World,
    /// Whose objects the rules judge: the manifests (`lint`), or the cluster state itself
    /// (an audit: `pvlint cluster`, [`crate::Request::audit`]), in which case `sources` and
    /// `index` are the cluster state's.
    pub side: Side,
    /// In an audit: what only a live cluster has (pods on nodes, VolumeAttachments, Nodes).
    pub live: Option<&'a crate::model::live::Live>,
    /// Objects the input's other apply sets define at a served API version.
    pub served_elsewhere: &'a [crate::index::Served],
    /// The cluster state the manifests are applied onto, when it is given (`--cluster-state`,
    /// a live cluster, an admission request's cluster); None on the cluster side of an audit,
    /// whose `index` it is.
    pub cluster: Option<&'a Index>,
    /// The target cluster: what severity follows ([`crate::profile`]).
    pub profile: &'a crate::profile::Profile,
}

impl Context<'_> {
    pub fn obj(&self, id: ObjId) -> &Object {
        self.index.object(id)
    }

    /// The PersistentVolumes of the judged objects (accepted by the API server) whose
    /// reclaimPolicy is written as `policy`, with that field and the volume each became in the
    /// simulation: what the reclaim rules judge.
    pub fn volumes_with_policy(
        &self,
        policy: crate::kube::ReclaimPolicy,
    ) -> impl Iterator<
        Item = (
            &crate::model::Pv,
            &crate::model::Spanned<crate::kube::ReclaimPolicy>,
            VolumeId,
        ),
    > {
        self.index.accepted_pvs().filter_map(move |pv| {
            let written = pv.reclaim.as_ref().filter(|p| p.value == policy)?;
            Some((pv, written, self.volume_of(pv.obj)?))
        })
    }

    /// The cluster's objects are known (cluster state given, or `--complete`).
    pub fn cluster_known(&self) -> bool {
        self.sim.cluster_known()
    }

    pub fn location(&self, obj: &Object, field: &Field) -> Location {
        Location::new(
            obj.source,
            &self.sources[obj.source].name,
            obj.document,
            field.span,
        )
    }

    /// The claim a judged object (a PVC) became in the simulation.
    pub fn claim_of(&self, obj: ObjId) -> Option<ClaimId> {
        self.sim.claim_of_object(self.side, obj)
    }

    /// The volume a judged object (a PV) became in the simulation.
    pub fn volume_of(&self, obj: ObjId) -> Option<VolumeId> {
        self.sim.volume_of_object(self.side, obj)
    }

    /// The manifest is the cluster's own volume: the cluster state holds a PersistentVolume of
    /// this name with this very metadata.uid (Kubewarden's audit scanner sends existing objects
    /// as CREATE requests; `lint --cluster-state` of a cluster's own export). Its claimRef and
    /// annotations are then this cluster's, not copies from elsewhere.
    pub fn is_live_self(&self, pv: &crate::model::Pv) -> bool {
        let Some(uid) = &pv.meta.uid else {
            return false;
        };
        self.side == Side::Manifest
            && self
                .volume_of(pv.obj)
                .is_some_and(|v| self.sim.volume(v).uid == uid.value)
    }

    /// The rules judge a live cluster's own objects (`pvlint cluster`).
    pub fn auditing(&self) -> bool {
        self.side == Side::Cluster
    }

    /// The claims a workload's pods mount that only one node (ReadWriteOnce) or one pod
    /// (ReadWriteOncePod) may use, with the pod volume that mounts each; only claims that may
    /// bind ([`Self::may_bind`]): a pod whose claim stays Pending is never scheduled ("pod has
    /// unbound immediate PersistentVolumeClaims"), so no second pod contends for the volume
    /// (what keeps the claim Pending is its own finding).
    pub fn exclusive_claims<'w>(
        &'w self,
        w: &'w crate::model::Workload,
    ) -> impl Iterator<Item = (&'w crate::model::ClaimUse, ClaimId, &'w crate::sim::Claim)> + 'w
    {
        w.claims.iter().filter_map(move |u| {
            let cid = self.sim.claim_named(&w.namespace, &u.claim.value)?;
            let c = self.sim.claim(cid);
            (c.spec.modes.exclusive_only() && self.may_bind(cid)).then_some((u, cid, c))
        })
    }

    /// A claim that binds on some cluster consistent with the input: Bound in the simulation,
    /// waiting for its first consumer, naming a volume the cluster may hold (the cluster not
    /// known), or fitted by a volume another apply set of the input defines
    /// ([`sim::World::pool_elsewhere`]).
    pub fn may_bind(&self, id: ClaimId) -> bool {
        match &self.sim.claim(id).state {
            ClaimState::Bound { .. } => true,
            ClaimState::Pending(sim::Pending::WaitForFirstConsumer { .. } | sim::Pending::New) => {
                true
            }
            ClaimState::Pending(sim::Pending::VolumeMissing { .. }) if !self.cluster_known() => {
                true
            }
            ClaimState::Pending(_) => !self
                .sim
                .pool_elsewhere(id, std::slice::from_ref(&self.sim.claim(id).key.name))
                .is_empty(),
            _ => false,
        }
    }

    /// The simulated claims a claim view stands for: the claim of a PVC manifest, or every
    /// claim a StatefulSet creates from a volumeClaimTemplate.
    pub fn claims_of_view(&self, pvc: &crate::model::Pvc) -> Vec<ClaimId> {
        match &pvc.template_of {
            None => self.claim_of(pvc.obj).into_iter().collect(),
            Some(_) => self
                .sim
                .claims_of_statefulset(self.side, pvc.obj)
                .iter()
                .copied()
                .filter(|&c| {
                    self.sim
                        .claim(c)
                        .template_of
                        .as_ref()
                        .is_some_and(|t| t.template == pvc.name)
                })
                .collect(),
        }
    }

    /// The judged view (PVC, or StatefulSet volumeClaimTemplate) a simulated claim came from.
    pub fn view_of(&self, id: ClaimId) -> Option<&crate::model::Pvc> {
        match self.sim.claim(id).origin {
            sim::Origin::Object { side, obj } if side == self.side => self.index.pvc_of(obj),
            sim::Origin::Template {
                side,
                obj,
                template,
                ..
            } if side == self.side => self.index.template_of(obj, template as usize),
            _ => None,
        }
    }

    /// The field of a claim view to point at for a failed check (its spec when the field is not
    /// written).
    pub fn claim_field(&self, pvc: &crate::model::Pvc, check: crate::binding::fit::Check) -> Field {
        use crate::binding::fit::Check;
        let obj = self.obj(pvc.obj);
        let spec = || pvc.spec_field(obj);
        match check {
            Check::Class => pvc.class.field().cloned().unwrap_or_else(spec),
            Check::Capacity => pvc
                .request
                .as_ref()
                .map(|r| r.field.clone())
                .unwrap_or_else(spec),
            Check::AccessModes => pvc.access_modes_field.clone().unwrap_or_else(spec),
            Check::VolumeMode => pvc.volume_mode_field.clone().unwrap_or_else(spec),
            Check::Selector => pvc
                .selector
                .as_ref()
                .map(|s| s.field.clone())
                .unwrap_or_else(spec),
            Check::AttributesClass | Check::BeingDeleted => spec(),
        }
    }

    /// The cause-key subject of a claim view.
    pub fn subject_of(&self, pvc: &crate::model::Pvc) -> sim::Subject {
        match &pvc.template_of {
            Some(sts) => sim::Subject::Template {
                namespace: Str::from(&pvc.namespace),
                statefulset: Str::from(sts.as_str()),
                template: Str::from(&pvc.name),
            },
            None => sim::Subject::Claim(sim::ClaimKey {
                namespace: Str::from(&pvc.namespace),
                name: Str::from(&pvc.name),
            }),
        }
    }

    /// What the simulation says happens to a claim, as a finding's consequence.
    pub fn claim_consequence(&self, id: ClaimId) -> Consequence {
        let w = self.sim;
        let c = w.claim(id);
        let phase = match c.state {
            ClaimState::Pending(_) => Some(Phase::Pending),
            ClaimState::Bound { .. } => Some(Phase::Bound),
            ClaimState::Lost(_) => Some(Phase::Lost),
            ClaimState::Rejected(_) => None,
        };
        let event = match &c.state {
            ClaimState::Pending(p) => p.event(w),
            ClaimState::Lost(_) => w.lost_event_of(id),
            ClaimState::Bound { .. } | ClaimState::Rejected(_) => None,
        };
        let what = match phase {
            Some(phase) => format!("ends {phase}"),
            None => "is never created".to_string(),
        };
        let mut assumptions = Vec::new();
        // What is assumed about the claim's class matters only where the class decides the
        // outcome: a claim that waits or is provisioned, not one bound to (or Lost from) a
        // volume it names or that names it.
        let class_decides = match &c.state {
            ClaimState::Pending(_) => true,
            ClaimState::Bound { how, .. } => matches!(how, sim::BindHow::Provisioned { .. }),
            ClaimState::Lost(_) | ClaimState::Rejected(_) => false,
        };
        if let Some(class) = w.class(c.class_name()).filter(|_| class_decides) {
            if let Some(a) = class.assumption() {
                assumptions.push(a.describe());
            }
        }
        if let ClaimState::Pending(
            sim::Pending::ClassNotFound {
                assumption: Some(a),
                ..
            }
            | sim::Pending::ProvisionerRefuses {
                assumption: Some(a),
                ..
            },
        ) = &c.state
        {
            assumptions.push(a.describe());
        }
        // Left Pending for want of a static volume: the cluster may have one pvlint cannot see.
        if !w.cluster_known()
            && matches!(
                c.state,
                ClaimState::Pending(
                    sim::Pending::NoMatchNoClass
                        | sim::Pending::ClassNotFound { .. }
                        | sim::Pending::ProvisionerUnavailable { .. }
                        | sim::Pending::ProvisionerRefuses { .. }
                )
            )
        {
            assumptions.push(sim::Assumption::NoOtherVolumes.describe());
        }
        // A class that provisions nothing: its volumes come from an administrator or from a
        // static provisioner that creates them as it finds disks (sig-storage-local-static-
        // provisioner), which pvlint cannot see.
        if let ClaimState::Pending(sim::Pending::ProvisionerUnavailable { provisioner, .. }) =
            &c.state
        {
            if !w.cluster_known() && provisioner == crate::kube::NO_PROVISIONER {
                assumptions.push(sim::Assumption::NoStaticProvisioner.describe());
            }
        }
        Consequence {
            summary: Str::from(format!("claim {} {what}: {}", c.key, w.claim_why(id))),
            subject: Some(claim_ref(&c.key.namespace, &c.key.name)),
            phase,
            event: event.map(sim::Event::into_text),
            storage: None,
            assumptions: assumptions.into_iter().map(Str::from).collect(),
        }
    }

    /// What the simulation says happens to a volume and its storage.
    pub fn volume_consequence(&self, id: VolumeId) -> Consequence {
        let w = self.sim;
        let v = w.volume(id);
        let phase = match v.phase {
            sim::VolumePhase::Available => Phase::Available,
            sim::VolumePhase::Bound => Phase::Bound,
            sim::VolumePhase::Released => Phase::Released,
            sim::VolumePhase::Failed => Phase::Failed,
        };
        let storage = v.storage.fate();
        Consequence {
            summary: Str::from(format!(
                "volume {} ends {phase}: {}",
                v.name,
                w.volume_why(id)
            )),
            subject: Some(ObjectRef {
                api_version: "v1".into(),
                kind: "PersistentVolume".into(),
                namespace: None,
                name: v.name.clone(),
            }),
            phase: Some(phase),
            event: v.events.last().cloned().map(sim::Event::into_text),
            storage,
            assumptions: Vec::new(),
        }
    }
}

/// A reference to a claim, for consequences.
pub fn claim_ref(namespace: &str, name: &str) -> ObjectRef {
    ObjectRef {
        api_version: "v1".into(),
        kind: "PersistentVolumeClaim".into(),
        namespace: Some(Str::from(namespace)),
        name: Str::from(name),
    }
}

/// The warnings the rules about pods on two nodes share (rwo-rolling-surge,
/// rwo-shared-by-replicas), each shown by a fixture of the same name in each rule's folder.
pub(crate) const GRADE_ASSUMED_CLASS: super::Grade = super::Grade {
    severity: crate::finding::Severity::Warning,
    when: "the claim's StorageClass is not in the input (it is assumed to exist, and the finding \
           says so)",
    example: "bad-assumed-class.yaml",
};

/// See [`GRADE_ASSUMED_CLASS`].
pub(crate) const GRADE_ONE_NODE_HINT: super::Grade = super::Grade {
    severity: crate::finding::Severity::Warning,
    when:
        "the apply set holds a hostPath volume without nodeAffinity, written for a cluster of one \
           node, and the profile's several nodes are only the default's",
    example: "bad-one-node-hint.yaml",
};

/// Whether a workload's pods may run on different nodes, as its placement, the cluster profile
/// and the apply set say: what a hazard between pods on two nodes (Multi-Attach) rests on.
pub(crate) enum Spread {
    /// On one node: pinned to it, kept together by a required podAffinity, or the profile's
    /// cluster has one node. Pods on one node share a ReadWriteOnce volume.
    OneNode,
    /// On different nodes: a required anti-affinity keeps them apart, or the profile's cluster
    /// has several nodes (the scheduler's default spreading prefers nodes without the
    /// workload's pods).
    Apart,
    /// The default profile's several nodes, against the apply set's hint of one (a hostPath
    /// volume without nodeAffinity): an assumption the finding names.
    Assumed(String),
}

impl Context<'_> {
    /// Where a workload's pods run (see [`Spread`]).
    pub fn spread(&self, placement: &crate::model::Placement) -> Spread {
        use crate::model::Placement;
        match placement {
            Placement::OneNode(_) | Placement::Together => return Spread::OneNode,
            Placement::Apart => return Spread::Apart,
            _ => {}
        }
        let nodes = &self.profile.nodes;
        if !nodes.value.several() {
            return Spread::OneNode;
        }
        match self.sim.one_node_hint().filter(|_| nodes.is_default()) {
            Some((volume, file)) => Spread::Assumed(
                sim::Assumption::SeveralNodesThoughOneNodeVolume {
                    volume: volume.clone(),
                    file: file.clone(),
                }
                .describe(),
            ),
            None => Spread::Apart,
        }
    }
}

/// What becomes of a claim's data when the claim is deleted (a StatefulSet's retention policy,
/// the garbage collector, a user): the deleted claim releases its volume, whose reclaim policy
/// runs.
pub(crate) enum DataFate {
    /// Certain from the input (or the cluster state): the class says Delete.
    Deleted(String),
    /// The claim is bound to these volumes (not provisioned in the simulation), whose
    /// reclaimPolicy is Delete.
    Volumes(Vec<Str>),
    /// The class is not known: its reclaim policy is assumed to be Delete.
    Assumed { class: String, assumption: Str },
    /// The volume's deleter renames its directory to `archived-<directory>` instead
    /// (nfs-subdir-external-provisioner's archiveOnDelete, csi-driver-nfs's onDelete): the
    /// data stays on the server, no longer mounted by anything. The deleter's name.
    Archived(Str),
}

impl DataFate {
    /// The deleter that archives the data rather than deleting it.
    pub fn archived_by(&self) -> Option<&Str> {
        match self {
            DataFate::Archived(p) => Some(p),
            _ => None,
        }
    }

    /// Why the data goes, as a clause ("StorageClass fast provisions volumes with reclaimPolicy
    /// Delete"), and the assumption it rests on.
    pub fn why(&self) -> Option<(String, Option<Str>)> {
        Some(match self {
            DataFate::Deleted(why) => (why.clone(), None),
            // Not deleted: said by [`DataFate::archived_by`].
            DataFate::Archived(_) => return None,
            DataFate::Volumes(names) => (
                match names.as_slice() {
                    [one] => format!("PersistentVolume {one} has reclaimPolicy Delete"),
                    [a, b] => format!("PersistentVolumes {a} and {b} have reclaimPolicy Delete"),
                    [a, b, rest @ ..] => format!(
                        "PersistentVolumes {a}, {b} and {} more have reclaimPolicy Delete",
                        rest.len()
                    ),
                    [] => return None,
                },
                None,
            ),
            DataFate::Assumed { class, assumption } => (
                format!("{class} provisions volumes with reclaimPolicy Delete"),
                Some(assumption.clone()),
            ),
        })
    }
}

impl Context<'_> {
    /// What becomes of the data of claim `id` when the claim is deleted; None when it stays.
    pub fn data_fate(&self, id: ClaimId) -> Option<DataFate> {
        let w = self.sim;
        let c = w.claim(id);
        if let ClaimState::Bound { volume, .. } = &c.state {
            let v = w.volume(*volume);
            match w.if_released(*volume, false).storage {
                sim::Storage::Archived { provisioner } => {
                    return Some(DataFate::Archived(provisioner))
                }
                s if !s.is_deleted() => return None,
                _ => {}
            }
            if !matches!(v.origin, sim::Origin::Provisioned { .. }) {
                return Some(DataFate::Volumes(vec![v.name.clone()]));
            }
        }
        // Provisioned, or to be: the class decides the reclaim policy of what it provisions.
        let class = w.class(c.class_name())?;
        // A class without a provisioner has only static volumes, each with its own policy.
        if class.reclaim != crate::kube::ReclaimPolicy::Delete
            || class.provisioner.as_deref() == Some(crate::kube::NO_PROVISIONER)
        {
            return None;
        }
        // What the class's provisioner does with the storage it deleted, by its parameters.
        if class.is_defined() {
            if let Some(p) = class.provisioner.as_deref() {
                match crate::drivers::delete_action(p, None, Some(&class.delete_params)) {
                    Some(crate::drivers::DeleteAction::Archives) => {
                        return Some(DataFate::Archived(Str::from(p)))
                    }
                    Some(crate::drivers::DeleteAction::Keeps(_)) => return None,
                    _ => {}
                }
            }
        }
        // A class known only by name (`--default-class`), or the profile's unnamed default, has
        // a reclaim policy pvlint does not know: Delete, the default, is assumed.
        Some(match class.is_defined() {
            false => {
                let name = c.class_name();
                let class = if name == sim::load::ASSUMED_DEFAULT {
                    "the cluster's default StorageClass".to_string()
                } else {
                    format!("StorageClass {name}")
                };
                DataFate::Assumed {
                    assumption: sim::Assumption::ClassReclaimsDelete(Str::from(&class))
                        .describe()
                        .as_str()
                        .into(),
                    class,
                }
            }
            true => DataFate::Deleted(format!(
                "StorageClass {} provisions volumes with reclaimPolicy Delete",
                class.name
            )),
        })
    }
}
