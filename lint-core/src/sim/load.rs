//! Loading the world: the cluster state first (objects that exist: they keep their UIDs,
//! phases and bindings), then the manifests (created now, or updating a live object of the
//! same name), then the claims StatefulSets create. What pvlint does not know about the
//! cluster is decided here, once, as explicit [`Assumption`]s that never change during the run.

use std::collections::HashSet;

use super::state::*;
use super::{Elsewhere, World};
use crate::binding::class::{Created, WrittenClass};
use crate::binding::{ClaimSpec, SourceKind, VolumeSpec};
use crate::index::Index;
use crate::kube::{self, ReclaimPolicy};
use crate::model::{ClaimClass, ObjId, PodCount, Pv, Pvc, StorageClass, WorkloadKind};
use crate::node::Str;

/// The name the simulation gives a default class the cluster is assumed to have. It cannot
/// be the name of a real StorageClass (`<` is not allowed in object names).
pub const ASSUMED_DEFAULT: &str = "<default>";

pub(crate) fn volume_spec(pv: &Pv) -> VolumeSpec {
    VolumeSpec {
        class: pv.class.clone(),
        capacity: pv.capacity.as_ref().map(|c| c.value.clone()),
        modes: pv.access_modes,
        volume_mode: pv.volume_mode,
        labels: pv.meta.labels.clone(),
        attributes_class: pv.attributes_class.clone(),
        deleting: pv.meta.deleting,
        reclaim: pv.reclaim_policy(),
        source: match &pv.source {
            Some(s) if s.kind == "csi" => SourceKind::Csi {
                driver: s.csi_driver.clone().unwrap_or_default(),
            },
            Some(s) => {
                kube::in_tree_source(&s.kind).map_or(SourceKind::Unknown, SourceKind::InTree)
            }
            None => SourceKind::Unknown,
        },
        node_affinity: pv.has_node_affinity,
    }
}

pub(crate) fn claim_spec(c: &Pvc) -> ClaimSpec {
    ClaimSpec {
        request: c.request.as_ref().map(|r| r.value.clone()),
        modes: c.access_modes,
        volume_mode: c.volume_mode,
        selector: c.selector.as_ref().map(|s| s.value.clone()),
        attributes_class: c.attributes_class.clone(),
    }
}

fn written_class(c: &Pvc) -> WrittenClass {
    match &c.class {
        ClaimClass::Unset => WrittenClass::Unset,
        ClaimClass::Set { name, .. } => WrittenClass::Set(name.to_string()),
    }
}

/// What the cluster object's `last-applied-configuration` wrote of the fields the controller
/// writes too (nothing when it has none: kubectl apply then removes nothing).
fn last_applied(ix: &Index, obj: ObjId) -> Applied {
    let Some(text) = ix
        .object(obj)
        .annotation_str(crate::model::update::LAST_APPLIED)
    else {
        return Applied::default();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return Applied::default();
    };
    let ann = &v["metadata"]["annotations"];
    Applied {
        bind_completed: ann.get(kube::ANN_BIND_COMPLETED).is_some(),
        bound_by_controller: ann.get(kube::ANN_BOUND_BY_CONTROLLER).is_some(),
        claim_ref: v["spec"].get("claimRef").is_some_and(|c| !c.is_null()),
        claim_ref_uid: v["spec"]["claimRef"]
            .get("uid")
            .is_some_and(|u| !u.is_null()),
    }
}

/// The most ordinals of one StatefulSet the simulation creates claims for.
pub(crate) const MAX_ORDINALS: i64 = 10_000;

impl World {
    pub(crate) fn load(&mut self, cluster: &Index, manifests: &Index, elsewhere: &Elsewhere) {
        for (side, ix) in [(Side::Cluster, cluster), (Side::Manifest, manifests)] {
            for sc in &ix.classes {
                if !ix.is_rejected(sc.obj) {
                    self.add_class(side, sc);
                } else if side == Side::Manifest {
                    self.rejected_classes.insert(sc.name.to_string());
                }
            }
            for d in &ix.csi_drivers {
                self.drivers.insert(d.name.to_string(), d.attach_required);
            }
        }
        self.file_order = elsewhere.file_order;
        if !self.cluster_known {
            self.add_elsewhere(elsewhere);
            self.hints = elsewhere.hints.clone();
        }
        self.add_default_class();
        for (side, ix) in [(Side::Cluster, cluster), (Side::Manifest, manifests)] {
            self.apply_volumes(side, ix, &HashSet::new());
        }
        for (side, ix) in [(Side::Cluster, cluster), (Side::Manifest, manifests)] {
            self.apply_claims(side, ix, &HashSet::new());
        }
        for (side, ix) in [(Side::Cluster, cluster), (Side::Manifest, manifests)] {
            self.create_template_claims(side, ix, &HashSet::new());
        }
        for (side, ix) in [(Side::Cluster, cluster), (Side::Manifest, manifests)] {
            self.add_consumers(side, ix);
        }
        self.decide_missing_classes();
        // No claim is created from here on (only by a what-if `apply`), and a volume only by
        // provisioning, at most one per claim that is neither bound nor pre-bound to a volume
        // by name (syncUnboundClaim provisions only those): room for exactly that, not the
        // doubling slack. What-if operations still grow the vectors as usual.
        self.claims.shrink_to_fit();
        let may_provision = self
            .claims
            .iter()
            .filter(|c| !c.bind_completed && c.volume_name.is_none())
            .count();
        self.volumes.shrink_to_fit();
        self.volumes.reserve_exact(may_provision);
    }

    /// Classes and drivers other apply sets of the input define, for names this one does not.
    /// A default class there stands for the cluster's unless this set or the options name one.
    fn add_elsewhere(&mut self, elsewhere: &Elsewhere) {
        let own_default =
            self.classes.iter().any(|c| c.is_default) || self.options.default_class.is_some();
        for c in &elsewhere.classes {
            if self.classes.iter().any(|k| k.name == c.name) {
                continue;
            }
            self.classes.push(Class {
                name: c.name.clone(),
                provisioner: Some(c.provisioner.clone()),
                reclaim: c.reclaim,
                wait_for_first_consumer: c.wait_for_first_consumer,
                is_default: c.is_default && !own_default,
                created: Created::At(None),
                knowledge: ClassKnowledge::Assumed(Assumption::DefinedElsewhere {
                    class: c.name.clone(),
                    file: c.file.clone(),
                }),
            });
        }
        for (name, attach) in &elsewhere.drivers {
            self.drivers.entry(name.to_string()).or_insert(*attach);
        }
    }

    /// Loads more manifests onto the running world (the `apply` operation).
    /// Updates the API server refuses (`refused`) are left out: the live objects stay.
    pub(crate) fn apply_more(&mut self, ix: &Index, refused: &HashSet<ObjId>) {
        for sc in &ix.classes {
            if !ix.is_rejected(sc.obj) && !refused.contains(&sc.obj) {
                self.add_class(Side::Manifest, sc);
            }
        }
        for d in &ix.csi_drivers {
            self.drivers.insert(d.name.to_string(), d.attach_required);
        }
        // kubectl patches objects in file order: a claim re-bound to a volume later in the file
        // is synced once against the volume as it was (its old claimRef).
        let mut seen_first = Vec::new();
        // Each volume name's last definition (objects are numbered in file order).
        let last_definition: std::collections::HashMap<&str, ObjId> =
            ix.pvs.iter().map(|p| (p.name.as_str(), p.obj)).collect();
        for c in ix.pvcs.iter().filter(|c| !refused.contains(&c.obj)) {
            let Some(vol) = c.volume_name.as_ref() else {
                continue;
            };
            let later = last_definition
                .get(vol.value.as_str())
                .is_some_and(|&obj| obj > c.obj);
            let Some(v) = self.volume_named(&vol.value).filter(|_| later) else {
                continue;
            };
            if let Some(holder) = self.volume(v).claim_ref.clone() {
                seen_first.push((c.obj, holder));
            }
        }
        self.apply_volumes(Side::Manifest, ix, refused);
        self.apply_claims(Side::Manifest, ix, refused);
        for (obj, holder) in seen_first {
            let Some(&id) = self.object_claims.get(&(Side::Manifest, obj)) else {
                continue;
            };
            let c = &self.claims[id.idx()];
            let stale = holder.key == c.key && !holder.uid.is_empty() && holder.uid != c.uid;
            if stale && !c.bind_completed {
                if let Some(vol) = c.volume_name.clone() {
                    let e = super::events::volume_taken(&vol).on_the_way();
                    super::push_once(&mut self.claims[id.idx()].events, e);
                }
            }
        }
        self.create_template_claims(Side::Manifest, ix, refused);
        self.add_consumers(Side::Manifest, ix);
        self.decide_missing_classes();
    }

    fn add_class(&mut self, side: Side, sc: &StorageClass) {
        let class = Class {
            name: Str::from(&sc.name),
            provisioner: Some(
                sc.provisioner
                    .as_ref()
                    .map(|p| p.value.clone())
                    .unwrap_or_default(),
            ),
            reclaim: sc
                .reclaim
                .as_ref()
                .map_or(ReclaimPolicy::Delete, |r| r.value),
            wait_for_first_consumer: sc.wait_for_first_consumer,
            is_default: sc.is_default.is_some(),
            created: match side {
                Side::Cluster => Created::At(sc.created.clone().map(String::from)),
                Side::Manifest => Created::Now,
            },
            knowledge: ClassKnowledge::Defined(side, sc.obj),
        };
        match self.classes.iter_mut().find(|c| c.name == class.name) {
            // An update: parameters are immutable, annotations are not.
            Some(existing) if matches!(existing.knowledge, ClassKnowledge::Defined(..)) => {
                existing.is_default = class.is_default;
            }
            Some(existing) => *existing = class,
            None => self.classes.push(class),
        }
    }

    /// The cluster's own default class: named by `--default-class`, none with
    /// `--no-default-class`, else — when the inputs define no default and the cluster is not
    /// known — an unnamed default, as almost every cluster has.
    fn add_default_class(&mut self) {
        match self.options.default_class.clone().as_deref() {
            Some("") => {}
            Some(name) => match self.classes.iter_mut().find(|c| c.name == name) {
                Some(c) => c.is_default = true,
                None => self.classes.push(Class {
                    name: Str::from(name),
                    provisioner: None,
                    reclaim: ReclaimPolicy::Delete,
                    wait_for_first_consumer: false,
                    is_default: true,
                    created: Created::At(None),
                    knowledge: ClassKnowledge::Named,
                }),
            },
            None => {
                if self.cluster_known || self.classes.iter().any(|c| c.is_default) {
                    return;
                }
                // A local cluster tool's config in the input: that tool's default class.
                if let Some((tool, file)) = self.hints.tool.clone() {
                    let assumed =
                        ClassKnowledge::Assumed(Assumption::LocalClusterDefault { tool, file });
                    match self
                        .classes
                        .iter_mut()
                        .find(|c| c.name == tool.default_class())
                    {
                        Some(c) => c.is_default = true,
                        None => self.classes.push(Class {
                            name: Str::from_static(tool.default_class()),
                            provisioner: Some(Str::from_static("rancher.io/local-path")),
                            reclaim: ReclaimPolicy::Delete,
                            wait_for_first_consumer: true,
                            is_default: true,
                            created: Created::At(None),
                            knowledge: assumed,
                        }),
                    }
                    return;
                }
                {
                    self.classes.push(Class {
                        name: Str::from_static(ASSUMED_DEFAULT),
                        provisioner: None,
                        reclaim: ReclaimPolicy::Delete,
                        wait_for_first_consumer: false,
                        is_default: true,
                        created: Created::At(None),
                        knowledge: ClassKnowledge::Assumed(Assumption::DefaultClassExists),
                    });
                }
            }
        }
    }

    /// Classes the claims name that no input defines: missing when the cluster is known;
    /// otherwise assumed to exist and provision, except a name the input's static volumes
    /// use, which is taken for a label with no StorageClass behind it.
    fn decide_missing_classes(&mut self) {
        if self.cluster_known {
            return;
        }
        // A pool: static volumes free for any claim (no claimRef, and no claim names them).
        let named: HashSet<&str> = self
            .claims
            .iter()
            .filter(|c| c.exists)
            .filter_map(|c| c.volume_name.as_deref())
            .collect();
        let static_classes: HashSet<&str> = self
            .volumes
            .iter()
            .filter(|v| v.exists && !matches!(v.origin, Origin::Provisioned { .. }))
            .filter(|v| v.claim_ref.is_none() && !named.contains(v.name.as_str()))
            .map(|v| v.spec.class.as_str())
            .collect();
        let mut add = Vec::new();
        let mut seen = HashSet::new();
        for c in self.claims.iter().filter(|c| c.exists) {
            let name = c.class_name();
            if name.is_empty() || self.classes.iter().any(|k| k.name == name) || !seen.insert(name)
            {
                continue;
            }
            let assumption = if self.rejected_classes.contains(name) {
                Assumption::RejectedClassOnly(Str::from(name))
            } else if static_classes.contains(name) {
                Assumption::StaticClassOnly(Str::from(name))
            } else {
                Assumption::ClassExists(Str::from(name))
            };
            add.push((name.to_string(), assumption));
        }
        for (name, assumption) in add {
            if matches!(
                assumption,
                Assumption::StaticClassOnly(_) | Assumption::RejectedClassOnly(_)
            ) {
                self.static_only.insert(name, assumption);
                continue;
            }
            // A well-known built-in class name: its provisioner too (the assumption says so).
            let provisioner =
                crate::drivers::platform_class(&name).map(|c| c.provisioner.to_string());
            self.classes.push(Class {
                name: Str::from(name),
                provisioner: provisioner.map(Str::from),
                reclaim: ReclaimPolicy::Delete,
                wait_for_first_consumer: false,
                is_default: false,
                created: Created::At(None),
                knowledge: ClassKnowledge::Assumed(assumption),
            });
        }
    }

    /// `refused`: objects of `ix` whose update the API server refuses (they stay as they were).
    fn apply_volumes(&mut self, side: Side, ix: &Index, refused: &HashSet<ObjId>) {
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
            let version = self.options.kube_version;
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
        }
    }

    /// `refused`: objects of `ix` whose update the API server refuses (they stay as they were).
    fn apply_claims(&mut self, side: Side, ix: &Index, refused: &HashSet<ObjId>) {
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
    fn create_template_claims(&mut self, side: Side, ix: &Index, refused: &HashSet<ObjId>) {
        for w in ix
            .workloads
            .iter()
            .filter(|w| w.kind == WorkloadKind::StatefulSet && !ix.is_rejected(w.obj))
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
                claim.class_source = existing.class_source.clone();
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
                    super::push_once(
                        &mut claim.events,
                        Event::normal(
                            Reason::ExternalExpanding,
                            "waiting for an external controller to expand this PVC",
                        ),
                    );
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
    fn add_consumers(&mut self, side: Side, ix: &Index) {
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
