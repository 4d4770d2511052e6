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
use crate::model::{ClaimClass, ObjId, Pv, Pvc, StorageClass};
use crate::string::Str;

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

pub(super) fn written_class(c: &Pvc) -> WrittenClass {
    match &c.class {
        ClaimClass::Unset => WrittenClass::Unset,
        ClaimClass::Set { name, .. } => WrittenClass::Set(name.to_string()),
    }
}

/// What the cluster object's `last-applied-configuration` wrote of the fields the controller
/// writes too (nothing when it has none: kubectl apply then removes nothing).
pub(super) fn last_applied(ix: &Index, obj: ObjId) -> Applied {
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
            if side == Side::Manifest {
                // What the profile says of drivers stands over the cluster state's CSIDrivers;
                // the manifests' own CSIDriver objects are applied over both.
                for d in &self.options.cluster.drivers {
                    self.drivers.insert(d.name.clone(), d.attach_required);
                }
            }
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
        self.unserved_snapshots = unserved_snapshots(&self.options, cluster, manifests);
        self.file_order = elsewhere.file_order;
        if !self.cluster_known {
            self.add_elsewhere(elsewhere);
            self.hints = elsewhere.hints.clone();
            self.elsewhere = Elsewhere {
                volumes: std::sync::Arc::clone(&elsewhere.volumes),
                own_set: elsewhere.own_set,
                ..Elsewhere::default()
            };
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
            let is_default = c.is_default && !own_default;
            self.classes.push(Class {
                name: c.name.clone(),
                provisioner: Some(c.provisioner.clone()),
                reclaim: c.reclaim,
                wait_for_first_consumer: c.wait_for_first_consumer,
                is_default,
                created: Created::At(None),
                delete_params: c.delete_params.clone(),
                knowledge: ClassKnowledge::Assumed(Assumption::DefinedElsewhere {
                    class: c.name.clone(),
                    file: c.file.clone(),
                    default: is_default,
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
            delete_params: sc.delete_params.clone(),
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
    /// known — the default profile's unnamed default, as almost every cluster has.
    fn add_default_class(&mut self) {
        match self.options.default_class.clone().as_deref() {
            Some("") => {}
            Some(name) => match self.classes.iter_mut().find(|c| c.name == name) {
                Some(c) => c.is_default = true,
                None => self.classes.push(Class {
                    name: Str::from(name),
                    provisioner: self
                        .options
                        .cluster
                        .default_provisioner
                        .as_deref()
                        .map(Str::from),
                    reclaim: ReclaimPolicy::Delete,
                    wait_for_first_consumer: false,
                    is_default: true,
                    created: Created::At(None),
                    knowledge: ClassKnowledge::Named,
                    delete_params: Default::default(),
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
                            delete_params: Default::default(),
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
                        knowledge: ClassKnowledge::Profile,
                        delete_params: Default::default(),
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
                delete_params: Default::default(),
            });
        }
    }
}

/// The VolumeSnapshots the manifests define only at snapshot.storage.k8s.io/v1beta1, when the
/// cluster's external-snapshotter does not serve it (6.0 removed it from its CRDs; the profile
/// says the release, else pvlint assumes a current one): `kubectl apply` fails for them and
/// they never exist. A snapshot the cluster state or the manifests also define at a served
/// version is not one.
fn unserved_snapshots(
    options: &crate::options::Options,
    cluster: &Index,
    manifests: &Index,
) -> HashSet<(Str, Str)> {
    if options
        .cluster
        .snapshotter
        .is_some_and(|s| s.serves_v1beta1())
    {
        return HashSet::new();
    }
    let key = |o: &crate::model::Object| {
        (
            Str::from(o.namespace.as_deref().unwrap_or("default")),
            o.name.clone(),
        )
    };
    let snapshots = |ix: &Index| {
        ix.objects
            .iter()
            .filter(|o| o.kind == "VolumeSnapshot")
            .map(|o| (o.api_version == "snapshot.storage.k8s.io/v1beta1", key(o)))
            .collect::<Vec<_>>()
    };
    let (ours, theirs) = (snapshots(manifests), snapshots(cluster));
    let served: HashSet<&(Str, Str)> = ours
        .iter()
        .chain(&theirs)
        .filter(|(old, _)| !old)
        .map(|(_, k)| k)
        .collect();
    ours.iter()
        .filter(|(old, k)| *old && !served.contains(k))
        .map(|(_, k)| k.clone())
        .collect()
}
