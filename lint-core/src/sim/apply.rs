//! Each apply of volumes and claims (PVC objects and StatefulSet claim templates) onto the
//! world: created, or updated with kubectl's three-way merge of what the last apply wrote.

use super::load::{claim_spec, last_applied, volume_spec, written_class, MAX_ORDINALS};
use std::collections::HashSet;

use super::state::*;
use super::World;
use crate::binding::class::WrittenClass;
use crate::index::Index;
use crate::kube::{self, ReclaimPolicy};
use crate::model::{ObjId, PodCount, Pvc, WorkloadKind};
use crate::string::Str;

impl World {
    /// `refused`: objects of `ix` whose update the API server refuses (they stay as they were).
    pub(super) fn apply_volumes(&mut self, side: Side, ix: &Index, refused: &HashSet<ObjId>) {
        for pv in &ix.pvs {
            if ix.is_rejected(pv.obj) || refused.contains(&pv.obj) || !ix.is_current_pv(pv) {
                continue;
            }
            let live = side == Side::Cluster;
            let uid = match (&pv.meta.uid, live) {
                (Some(u), true) => u.value.clone(),
                _ => self.fresh_uid(),
            };
            let phase = if live {
                match pv.meta.phase.as_ref().map(|p| p.value.as_str()) {
                    Some("Bound") => VolumePhase::Bound,
                    Some("Released") => VolumePhase::Released,
                    Some("Failed") => VolumePhase::Failed,
                    _ => VolumePhase::Available,
                }
            } else {
                VolumePhase::Available
            };
            let src = pv.source.as_ref();
            let mut finalizers = pv.finalizers.clone();
            // The pv-protection controller adds its finalizer to every PV; kube-controller-
            // manager adds its own to in-tree provisioned volumes with Delete
            // (modifyDeletionFinalizers, HonorPVReclaimPolicy).
            if !finalizers
                .iter()
                .any(|f| f == kube::FINALIZER_PV_PROTECTION)
            {
                finalizers.insert(0, Str::from_static(kube::FINALIZER_PV_PROTECTION));
            }
            let version = self.options.target();
            let provisioned_by = pv.provisioned_by.as_ref().map(|p| p.value.as_str());
            let migrated = provisioned_by.and_then(|p| super::reclaim::migrated_driver(p, version));
            // modifyDeletionFinalizers (syncVolume, HonorPVReclaimPolicy on): only volumes with
            // provisioned-by; a CSI-migrated plugin loses kubernetes.io/pv-controller; a
            // non-migrated in-tree one gets it with Delete, loses it otherwise, and always
            // loses the external-provisioner's (pv_controller_test 13-3, 13-5, 13-7, 13-12,
            // 13-14, 13-15).
            if super::reclaim::honor_reclaim_policy(version) {
                if let Some(p) = provisioned_by {
                    let drop = |fs: &mut Vec<Str>, f: &str| fs.retain(|x| x != f);
                    if migrated.is_some() {
                        drop(&mut finalizers, kube::FINALIZER_PV_CONTROLLER);
                    } else if p.starts_with("kubernetes.io/") {
                        let has = finalizers
                            .iter()
                            .any(|f| f == kube::FINALIZER_PV_CONTROLLER);
                        if pv.reclaim_policy() == ReclaimPolicy::Delete {
                            if !has {
                                finalizers.push(Str::from_static(kube::FINALIZER_PV_CONTROLLER));
                            }
                        } else {
                            drop(&mut finalizers, kube::FINALIZER_PV_CONTROLLER);
                        }
                        drop(&mut finalizers, kube::FINALIZER_EXTERNAL_PROVISIONER);
                    }
                }
            }
            // updateMigrationAnnotations: pv.kubernetes.io/migrated-to follows provisioned-by
            // (set for a migrated plugin, removed otherwise); a static volume keeps its own.
            let migrated_to = match provisioned_by {
                Some(_) => migrated.map(String::from),
                None => pv.migrated_to.clone().map(String::from),
            };
            let v = Volume {
                name: Str::from(&pv.name),
                uid,
                origin: Origin::Object { side, obj: pv.obj },
                spec: volume_spec(pv),
                claim_ref: pv.claim_ref.as_ref().map(|c| ClaimRef {
                    key: ClaimKey {
                        namespace: Str::from(&c.namespace),
                        name: Str::from(&c.name),
                    },
                    uid: c.uid.as_ref().map(|u| u.value.clone()).unwrap_or_default(),
                }),
                provisioned_by: pv.provisioned_by.as_ref().map(|p| p.value.clone()),
                migrated_to: migrated_to.map(Str::from),
                bound_by_controller: pv.bound_by_controller,
                applied: match side {
                    // What this apply writes.
                    Side::Manifest => Applied {
                        bind_completed: false,
                        bound_by_controller: pv.bound_by_controller,
                        claim_ref: pv.claim_ref.is_some(),
                        claim_ref_uid: pv.claim_ref.as_ref().is_some_and(|c| c.uid.is_some()),
                    },
                    Side::Cluster => last_applied(ix, pv.obj),
                },
                finalizers: {
                    // The insert above made room for four.
                    finalizers.shrink_to_fit();
                    finalizers
                },
                deleting: pv.meta.deleting && live,
                backing: Str::from(pv.backing_storage()),
                host_path: src
                    .filter(|s| s.kind == "hostPath")
                    .and_then(|s| s.path.clone()),
                handle: src.and_then(|s| s.handle.clone()),
                nfs_server_problem: src
                    .and_then(|s| s.server.as_ref())
                    .and_then(|s| kube::nfs_server_problem(&s.value))
                    .map(Str::from),
                phase,
                release: None,
                storage: Storage::Kept,
                events: Vec::new(),
                skipped_by_reserved_claim: None,
                exists: true,
            };
            let id = self.upsert_volume(v, side == Side::Manifest);
            self.object_volumes.insert((side, pv.obj), id);
        }
    }

    /// Creates a volume, or updates the live one of the same name (which keeps its UID and phase).
    /// `applied`: by `kubectl apply`, whose three-way merge keeps the claimRef and annotation the
    /// controller wrote unless the last apply wrote them and this file drops them.
    fn upsert_volume(&mut self, mut v: Volume, applied: bool) -> VolumeId {
        match self.volume_named(&v.name) {
            Some(id) => {
                let existing = &mut self.volumes[id.idx()];
                if applied {
                    let last = existing.applied;
                    v.claim_ref = match v.claim_ref.take() {
                        Some(mut new) => {
                            if new.uid.is_empty() && !last.claim_ref_uid {
                                if let Some(old) =
                                    existing.claim_ref.as_ref().filter(|o| o.key == new.key)
                                {
                                    new.uid = old.uid.clone();
                                }
                            }
                            Some(new)
                        }
                        None if last.claim_ref => None,
                        None => existing.claim_ref.clone(),
                    };
                    v.bound_by_controller |=
                        existing.bound_by_controller && !last.bound_by_controller;
                }
                let (uid, phase) = (existing.uid.clone(), existing.phase);
                *existing = v;
                existing.uid = uid;
                existing.phase = phase;
                id
            }
            None => {
                let id = VolumeId(self.volumes.len() as u32);
                self.volumes.push(v);
                let name = self.volumes[id.idx()].name.as_str();
                self.volume_by_name
                    .insert(name, id, super::volume_key(&self.volumes));
                id
            }
        }
    }

    pub(crate) fn new_claim(&mut self, side: Side, c: &Pvc, origin: Origin) -> Claim {
        let live = side == Side::Cluster && matches!(origin, Origin::Object { .. });
        let uid = match (&c.meta.uid, live) {
            (Some(u), true) => u.value.clone(),
            _ => self.fresh_uid(),
        };
        let written = written_class(c);
        let class = match &written {
            WrittenClass::Set(s) => Some(s.clone()),
            WrittenClass::Unset => None,
        };
        Claim {
            key: ClaimKey {
                namespace: Str::from(&c.namespace),
                name: Str::from(&c.name),
            },
            uid,
            origin,
            template_of: None,
            spec: claim_spec(c),
            written_class: written.clone(),
            class: class.map(Str::from),
            class_source: if written.has_class() {
                ClassSource::Written
            } else {
                ClassSource::None
            },
            volume_name: c.volume_name.as_ref().map(|v| v.value.clone()),
            bind_completed: c.bind_completed.is_some(),
            // The cluster's objects: see `apply_claims`.
            applied: match (side, &origin) {
                (Side::Manifest, Origin::Object { .. }) => Applied {
                    bind_completed: c.bind_completed.is_some(),
                    ..Applied::default()
                },
                _ => Applied::default(),
            },
            selected_node: c.selected_node,
            data_source: c
                .data_source
                .as_ref()
                .map(|d| Box::new((d.kind.clone(), d.name.clone()))),
            has_consumer: false,
            used_by: Vec::new(),
            deleting: false,
            unborn: false,
            state: ClaimState::Pending(Pending::New),
            events: Vec::new(),
            race: None,
            exists: true,
            existed: side == Side::Cluster,
        }
    }

    /// `refused`: objects of `ix` whose update the API server refuses (they stay as they were).
    pub(super) fn apply_claims(&mut self, side: Side, ix: &Index, refused: &HashSet<ObjId>) {
        for c in &ix.pvcs {
            if ix.is_rejected(c.obj) || refused.contains(&c.obj) {
                continue;
            }
            let mut claim = self.new_claim(side, c, Origin::Object { side, obj: c.obj });
            if side == Side::Cluster {
                claim.applied = last_applied(ix, c.obj);
            }
            let id = self.create_or_update_claim(claim, side == Side::Cluster);
            self.object_claims.insert((side, c.obj), id);
        }
    }

    /// StatefulSet controller: one claim per template per ordinal, created with the pod (an
    /// existing claim of that name is reused).
    /// `refused`: objects of `ix` whose update the API server refuses (they stay as they were).
    pub(super) fn create_template_claims(
        &mut self,
        side: Side,
        ix: &Index,
        refused: &HashSet<ObjId>,
    ) {
        for w in ix
            .accepted_workloads()
            .filter(|w| w.kind == WorkloadKind::StatefulSet)
        {
            if refused.contains(&w.obj) {
                continue;
            }
            let PodCount::Fixed { count, .. } = w.pods else {
                continue;
            };
            let templates: Vec<&Pvc> = (0..).map_while(|n| ix.template_of(w.obj, n)).collect();
            if !w.parallel_pods && side == Side::Manifest {
                self.ordered_ready.insert((side, w.obj));
            }
            // A claim per ordinal and template, up to MAX_ORDINALS ordinals: replicas is an
            // int32, and a hostile or mistyped value must not take the memory of millions of
            // claims (what they show is the same as the first ones).
            self.run_statefulset(side, w, templates, count.min(MAX_ORDINALS));
        }
    }

    /// Creates a claim (through admission) or updates the live one of the same name, which
    /// keeps its UID, status, binding and class (admission runs on CREATE only).
    pub(crate) fn create_or_update_claim(&mut self, mut claim: Claim, live: bool) -> ClaimId {
        if let Some(id) = self.claim_named(&claim.key.namespace, &claim.key.name) {
            let existing = &self.claims[id.idx()];
            claim.uid = existing.uid.clone();
            claim.existed = existing.existed;
            claim.state = existing.state.clone();
            claim.events = existing.events.clone();
            if claim.volume_name.is_none() {
                claim.volume_name = existing.volume_name.clone();
            }
            // kubectl apply's three-way merge: the controller's annotation stays unless the last
            // apply wrote it and this file drops it (seed 000's repair, oracle case 31). A
            // claim a StatefulSet reuses is not written at all.
            claim.bind_completed = match claim.origin {
                Origin::Object {
                    side: Side::Manifest,
                    ..
                } if !live => {
                    claim.bind_completed
                        || (existing.bind_completed && !existing.applied.bind_completed)
                }
                _ => claim.bind_completed || existing.bind_completed,
            };
            if !matches!(
                claim.origin,
                Origin::Object {
                    side: Side::Manifest,
                    ..
                }
            ) {
                claim.applied = existing.applied;
            }
            if claim.class.is_none() {
                claim.class = existing.class.clone();
                claim.class_source = existing.class_source;
            }
            // expand_controller syncHandler: a Bound claim asks for more than its volume has.
            // No in-tree plugin of kube-controller-manager expands (hostPath, NFS, CSI): it
            // waits for an external resizer (its driver's csi-resizer), and says so.
            if let ClaimState::Bound { volume, .. } = &existing.state {
                let has = self.volumes[volume.idx()].spec.capacity.as_ref();
                let grows = |q: Option<&crate::quantity::Quantity>| matches!((q, has), (Some(q), Some(h)) if q > h);
                if !live
                    && grows(claim.spec.request.as_ref())
                    && !grows(existing.spec.request.as_ref())
                    && self.volumes[volume.idx()].migrated_to.is_none()
                {
                    super::push_once(&mut claim.events, super::events::external_expanding());
                }
            }
            claim.has_consumer |= existing.has_consumer;
            for u in &existing.used_by {
                super::push_once(&mut claim.used_by, *u);
            }
            if claim.template_of.is_none() {
                claim.template_of = existing.template_of.clone();
            }
            self.claims[id.idx()] = claim;
            return id;
        }
        if !live && claim.class.is_none() {
            match self.default_class_at_creation(&claim) {
                Ok(Some(d)) => {
                    claim.class = Some(Str::from(d));
                    claim.class_source = ClassSource::Admission;
                }
                Ok(None) => {}
                Err(e) => claim.state = ClaimState::Rejected(e),
            }
        }
        let id = ClaimId(self.claims.len() as u32);
        let admitted = !matches!(claim.state, ClaimState::Rejected(_));
        self.claims.push(claim);
        if admitted {
            let key = super::claim_key(&self.claims)(id);
            self.claim_by_key
                .insert(key, id, super::claim_key(&self.claims));
        }
        id
    }
}

impl World {
    /// Marks the claims a workload of this index mounts as consumed, and by which workload.
    pub(super) fn add_consumers(&mut self, side: Side, ix: &Index) {
        for w in &ix.workloads {
            if ix.is_rejected(w.obj) {
                continue;
            }
            let runs_pods =
                !matches!(w.pods, crate::model::PodCount::Fixed { count: 0, .. }) && !w.suspended;
            if !runs_pods {
                self.podless.insert((side, w.obj));
            }
            if w.kind == WorkloadKind::Pod {
                self.pods
                    .push((Str::from(&w.namespace), w.name.clone(), side, w.obj));
            }
            if runs_pods && !w.claims.is_empty() {
                self.consumer_pods.insert((side, w.obj), pod_names(w));
            }
            for u in &w.claims {
                let key = ClaimKey {
                    namespace: Str::from(&w.namespace),
                    name: Str::from(&u.claim.value),
                };
                if let Some(id) = self.claim_named(&key.namespace, &key.name) {
                    let c = &mut self.claims[id.idx()];
                    // IsDelayBindingMode waits for a pod: the scheduler's choice of a node.
                    c.has_consumer |= runs_pods;
                    super::push_once(&mut c.used_by, (side, w.obj));
                }
            }
        }
    }
}

/// The names of the pods a workload runs, as its controller names them: a bare Pod its own, a
/// StatefulSet's `<name>-<ordinal>`; the random parts of the others' names
/// (`SimpleNameGenerator`: five characters; a Deployment's ReplicaSet adds the pod template's
/// hash, a CronJob's Job its scheduled time) are shown as `<id>`, `<hash>` and `<time>`.
/// At most ten.
pub(crate) fn pod_names(w: &crate::model::Workload) -> Box<[Str]> {
    let count = match w.pods {
        crate::model::PodCount::Fixed { count, .. } => count.clamp(1, 10),
        crate::model::PodCount::PerNode => 1,
    };
    let name = &w.name;
    let one = |i: i64| -> Str {
        Str::from(match w.kind {
            WorkloadKind::Pod => name.to_string(),
            WorkloadKind::StatefulSet => format!("{name}-{}", w.ordinals_start + i),
            WorkloadKind::Deployment => format!("{name}-<hash>-<id>"),
            WorkloadKind::CronJob => format!("{name}-<time>-<id>"),
            WorkloadKind::ReplicaSet | WorkloadKind::DaemonSet | WorkloadKind::Job => {
                format!("{name}-<id>")
            }
        })
    };
    match w.kind {
        WorkloadKind::Pod => Box::new([one(0)]),
        _ => (0..count).map(one).collect(),
    }
}
