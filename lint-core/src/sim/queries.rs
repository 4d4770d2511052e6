//! What the rules read of a [`World`]: its claims and volumes, their typed outcomes, the
//! attachment of a claim's volume, the cause behind an outcome. Rules never re-derive these.

use super::{
    cause, claim_key, timing, volume_key, Assumption, CauseKey, Claim, ClaimId, ClaimState, Class,
    Origin, Pending, Side, Subject, Volume, VolumeId, World,
};
use std::collections::HashMap;

use crate::binding::attach::{self, Attach};
use crate::binding::fit::Mismatch;
use crate::model::ObjId;
use crate::string::Str;

impl World {
    /// The cluster's objects are known (cluster state given, or `--complete`).
    pub fn cluster_known(&self) -> bool {
        self.cluster_known
    }

    /// The controller reached a fixed point.
    pub fn converged(&self) -> bool {
        self.converged
    }

    pub fn claim(&self, id: ClaimId) -> &Claim {
        &self.claims[id.idx()]
    }

    pub fn volume(&self, id: VolumeId) -> &Volume {
        &self.volumes[id.idx()]
    }

    /// Every claim that exists (or was refused by admission), in processing order.
    pub fn claims(&self) -> impl Iterator<Item = (ClaimId, &Claim)> {
        self.claims
            .iter()
            .enumerate()
            .filter(|(_, c)| c.exists && !c.unborn)
            .map(|(i, c)| (ClaimId(i as u32), c))
    }

    /// Every volume that exists, in processing order.
    pub fn volumes(&self) -> impl Iterator<Item = (VolumeId, &Volume)> {
        self.volumes
            .iter()
            .enumerate()
            .filter(|(_, v)| v.exists)
            .map(|(i, v)| (VolumeId(i as u32), v))
    }

    pub fn claim_named(&self, namespace: &str, name: &str) -> Option<ClaimId> {
        self.claim_by_key
            .get((namespace, name), claim_key(&self.claims))
    }

    pub fn volume_named(&self, name: &str) -> Option<VolumeId> {
        self.volume_by_name.get(name, volume_key(&self.volumes))
    }

    /// The timing the next runs follow (see [`timing`]).
    pub(crate) fn set_timing(&mut self, t: &timing::Timing) {
        self.claim_order = t.order.clone();
        self.last_tie = t.last_tie;
        self.other_provisioning_race = t.other_provisioning_race;
    }

    /// Whether a pod still uses the claim (what pvc-protection waits for).
    pub fn in_use(&self, id: ClaimId) -> bool {
        self.claim(id)
            .used_by
            .iter()
            .any(|u| !self.podless.contains(u))
    }

    /// The pods that use the claim and are not scheduled yet, by name
    /// (`findNonScheduledPodsByPVC`): a StatefulSet's claim template is its ordinal's pod.
    pub(crate) fn unscheduled_pods(&self, id: ClaimId) -> Vec<Str> {
        let c = self.claim(id);
        if let Some(t) = &c.template_of {
            return vec![Str::from(format!("{}-{}", t.statefulset, t.ordinal))];
        }
        c.used_by
            .iter()
            .filter(|u| !self.podless.contains(u))
            .filter_map(|u| self.consumer_pods.get(u))
            .flat_map(|names| names.iter().cloned())
            .collect()
    }

    /// The claims a StatefulSet creates, in ordinal order.
    pub fn claims_of_statefulset(&self, side: Side, obj: ObjId) -> &[ClaimId] {
        self.template_claims
            .get(&(side, obj))
            .map_or(&[], Vec::as_slice)
    }

    /// The claim a PersistentVolumeClaim object became.
    pub fn claim_of_object(&self, side: Side, obj: ObjId) -> Option<ClaimId> {
        self.object_claims.get(&(side, obj)).copied()
    }

    /// The volume a PersistentVolume object became.
    pub fn volume_of_object(&self, side: Side, obj: ObjId) -> Option<VolumeId> {
        self.object_volumes.get(&(side, obj)).copied()
    }

    /// The assumption behind "class `name` does not exist", when pvlint only assumes it.
    pub fn missing_class_assumption(&self, name: &str) -> Option<Assumption> {
        self.static_only.get(name).cloned()
    }

    /// The volume a claim ends bound to.
    pub fn binding_of(&self, id: ClaimId) -> Option<VolumeId> {
        match &self.claim(id).state {
            ClaimState::Bound { volume, .. } => Some(*volume),
            _ => None,
        }
    }

    /// Why a claim ends Pending.
    pub fn pending_reason(&self, id: ClaimId) -> Option<&Pending> {
        match &self.claim(id).state {
            ClaimState::Pending(p) => Some(p),
            _ => None,
        }
    }

    /// A StorageClass the simulation knows (defined, or assumed to exist).
    pub fn class(&self, name: &str) -> Option<&Class> {
        self.classes.iter().find(|c| c.name == name)
    }

    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// For a claim left Pending for want of a match: the volume closest to fitting it and the
    /// checks it fails (the first is the one the controller hits first).
    pub fn closest_volume(&self, id: ClaimId) -> Option<(VolumeId, &[Mismatch])> {
        self.closest.get(&id).map(|(v, m)| (*v, m.as_slice()))
    }

    /// A hostPath volume of the input without nodeAffinity (name, file): the input is
    /// written for a cluster of one node. None when the cluster is known.
    pub fn one_node_hint(&self) -> Option<&(Str, Str)> {
        self.hints.one_node.as_ref()
    }

    /// `attachRequired` of a CSIDriver object pvlint knows.
    pub fn csi_driver(&self, name: &str) -> Option<bool> {
        self.drivers.get(name).copied()
    }

    /// Whether pods on two nodes using this claim contend for its volume: the volume it is
    /// bound to, or (when it is Pending or waits for its first consumer) what its class's
    /// provisioner creates.
    pub fn attachment(&self, id: ClaimId) -> Attach {
        let c = self.claim(id);
        // A volume it is bound to decides, unless provisioning made it from a class whose
        // provisioner pvlint does not know (then the class's account says more).
        if let Some(v) = self.binding_of(id) {
            let v = self.volume(v);
            let unknown_provisioned = matches!(v.origin, Origin::Provisioned { .. })
                && matches!(v.spec.source, crate::binding::SourceKind::Unknown);
            if !unknown_provisioned {
                return attach::volume(&v.spec.source, v.spec.modes, v.spec.node_affinity, |d| {
                    self.csi_driver(d)
                });
            }
        }
        let class = self.class(c.class_name());
        let static_only = class.is_none_or(|k| {
            k.provisioner
                .as_deref()
                .is_none_or(|p| p == crate::kube::NO_PROVISIONER)
        });
        if static_only {
            // No provisioner serves the class: the claim can only bind a static volume of it.
            if let Some(shared) = self.pool_attachment(c.class_name()) {
                return shared;
            }
        }
        match class {
            Some(class) => match &class.provisioner {
                Some(p) if p.as_str() == crate::kube::NO_PROVISIONER => Attach::Assumed {
                    why: format!(
                        "StorageClass {} provisions nothing: its volumes are made by hand or by a static provisioner, of a kind the input does not show",
                        class.name
                    ),
                },
                Some(p) => {
                    attach::volume(&attach::provisioned_source(p), c.spec.modes, false, |d| {
                        self.csi_driver(d)
                    })
                }
                None if crate::drivers::ambiguous_class(&class.name).is_none()
                    && crate::drivers::local_by_name(&class.name).is_some() =>
                {
                    Attach::ProbablyLocal {
                        why: format!(
                            "its provisioner is not known; by its name StorageClass {} is node-local {} storage, and then the pods share its node and nothing hangs",
                            class.name,
                            crate::drivers::local_by_name(&class.name).unwrap_or("")
                        ),
                    }
                }
                None => match crate::drivers::ambiguous_class(&class.name) {
                    Some(meanings) => Attach::Assumed {
                        why: format!(
                            "StorageClass {} is not defined, and by its name it is {meanings}",
                            class.name
                        ),
                    },
                    None => Attach::Presumed {
                        why: format!(
                            "the provisioner of StorageClass {} is not known",
                            self.class_display(class)
                        ),
                    },
                },
            },
            None => Attach::Assumed {
                why: "its volume is not known".into(),
            },
        }
    }

    /// The attachment all static volumes of a class in the input share, if they agree (local
    /// volumes of a static provisioner's pool all pin their pods to a node).
    fn pool_attachment(&self, class: &str) -> Option<Attach> {
        self.pool_attach.get(class).cloned().flatten()
    }

    /// [`World::pool_attachment`] of every class, in one pass over the volumes.
    pub(super) fn pool_attachments(&self) -> HashMap<Str, Option<Attach>> {
        let mut out: HashMap<Str, Option<Attach>> = HashMap::new();
        let pool = self
            .volumes
            .iter()
            .filter(|v| v.exists && !matches!(v.origin, Origin::Provisioned { .. }));
        for v in pool {
            let a = attach::volume(&v.spec.source, v.spec.modes, v.spec.node_affinity, |d| {
                self.csi_driver(d)
            });
            match out.get_mut(v.spec.class.as_str()) {
                None => {
                    out.insert(v.spec.class.clone(), Some(a));
                }
                Some(Some(s)) if std::mem::discriminant(s) == std::mem::discriminant(&a) => {}
                Some(shared) => *shared = None,
            }
        }
        out
    }

    /// What [`World::attachment`] rests on, when it was read from an assumed class: the claim
    /// has no volume of the input (none yet, or one provisioned from that class).
    pub fn attachment_assumption(&self, id: ClaimId) -> Option<Assumption> {
        // A volume of the input says for itself; one provisioned from a class is what the
        // class makes of it, and an assumed class (one the input does not define, whose driver
        // pvlint knows only by the class's name) is an assumption whatever source it gives.
        let from_volume = self
            .binding_of(id)
            .is_some_and(|v| !matches!(self.volume(v).origin, Origin::Provisioned { .. }));
        if from_volume {
            return None;
        }
        let c = self.claim(id);
        self.class(c.class_name())
            .and_then(Class::assumption)
            .cloned()
    }

    /// A class's name for messages ("the cluster's default class" for the assumed one).
    pub fn class_display(&self, class: &Class) -> String {
        match class.knowledge {
            super::ClassKnowledge::Profile => "<the cluster's default>".into(),
            _ => class.name.to_string(),
        }
    }

    /// The root cause behind a claim's final state, for merging findings.
    pub fn cause_of_claim(&self, id: ClaimId) -> Option<CauseKey> {
        cause::of_claim(self, id)
    }

    /// The root cause behind a volume's storage fate.
    pub fn cause_of_volume(&self, id: VolumeId) -> Option<CauseKey> {
        cause::of_volume(self, id)
    }

    /// The subject naming a claim in cause keys (its StatefulSet template for template claims).
    pub fn subject(&self, id: ClaimId) -> Subject {
        let c = self.claim(id);
        match &c.template_of {
            Some(t) => Subject::Template {
                namespace: c.key.namespace.clone(),
                statefulset: t.statefulset.clone(),
                template: t.template.clone(),
            },
            None => Subject::Claim(c.key.clone()),
        }
    }
}
