//! A model of the Kubernetes PersistentVolume controller: what happens to every claim and
//! volume once the manifests are applied onto a cluster.
//!
//! It follows ../shared/docs/kubernetes-semantics.md sections 1-4, function by function:
//! admission (DefaultStorageClass), `syncClaim` (unbound, pre-bound and bound branches),
//! `syncVolume`, `reclaimVolume`, `findBestMatchForClaim` (access-mode groups from the
//! fewest modes, smallest capacity), delayed binding, dynamic provisioning, and StatefulSet
//! claim templates. It runs to a fixed point, as the controller's resyncs do.
//!
//! Deterministic: UIDs of created objects are counters, objects are processed in input order
//! (cluster state first, then manifests), and where the real controller's result depends on
//! that order (two claims competing for one volume), the result says so.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use crate::facts::Mismatch;
use crate::index::Index;
use crate::kube::{self, AccessModes, ReclaimPolicy, VolumeMode};
use crate::model::{ClaimClass, ObjId, Pv, Pvc, WorkloadKind};
use crate::node::Node;
use crate::options::Options;
use crate::quantity::Quantity;

/// Where a simulated object came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Origin {
    /// The current cluster state (`--cluster-state`).
    Cluster,
    /// A manifest being applied (index into the manifests' object index).
    Manifest { object: ObjId },
    /// A StatefulSet's volumeClaimTemplate, for one ordinal.
    Template {
        object: ObjId,
        template: usize,
        ordinal: i64,
    },
    /// Created by dynamic provisioning for a claim.
    Provisioned,
}

impl Origin {
    pub fn object(&self) -> Option<ObjId> {
        match self {
            Origin::Manifest { object } | Origin::Template { object, .. } => Some(*object),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "type")]
    pub kind: String,
    pub reason: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimPhase {
    Pending,
    Bound,
    Lost,
    /// Never created: admission refused it.
    Rejected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VolumePhase {
    Available,
    Bound,
    Released,
    Failed,
}

/// What happens to the storage behind a volume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "fate")]
pub enum Storage {
    Kept,
    /// Deleted by an in-tree plugin of kube-controller-manager.
    Deleted,
    /// Left Released for the external provisioner, which deletes it.
    LeftToProvisioner {
        provisioner: String,
    },
    /// Wiped by a recycler pod (rm -rf) and offered again.
    Recycled,
    /// Created by dynamic provisioning.
    Provisioned {
        provisioner: String,
    },
}

impl Storage {
    pub fn is_deleted(&self) -> bool {
        matches!(self, Storage::Deleted | Storage::LeftToProvisioner { .. })
    }
}

/// Why a claim is Lost or a volume loses its storage, so findings about one root cause can be merged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "cause")]
pub enum Cause {
    /// The volume's claimRef.uid names a claim that no longer exists with that UID.
    StaleClaimRefUid { volume: String },
    /// A claim marked bind-completed with no volumeName.
    NoVolumeName,
    /// A claim marked bind-completed whose volume does not exist.
    VolumeMissing { volume: String },
    /// A claim marked bind-completed whose volume's claimRef names another claim (or has no uid).
    ClaimRefMismatch { volume: String },
    /// The volume's claim was deleted (or never existed).
    ClaimDeleted,
    /// The volume's claim is bound to another volume.
    ClaimBoundElsewhere { volume: String },
}

#[derive(Debug, Clone)]
pub struct SimPv {
    pub name: String,
    pub uid: String,
    pub origin: Origin,
    pub class: String,
    pub capacity: Option<Quantity>,
    pub modes: AccessModes,
    pub volume_mode: VolumeMode,
    pub reclaim: ReclaimPolicy,
    /// (namespace, name, uid) — uid "" when pre-bound by name.
    pub claim_ref: Option<(String, String, String)>,
    pub provisioned_by: Option<String>,
    pub bound_by_controller: bool,
    pub source_kind: String,
    pub csi_driver: Option<String>,
    pub host_path: Option<String>,
    pub nfs_server_problem: Option<String>,
    pub backing: String,
    pub labels: BTreeMap<String, String>,
    pub phase: VolumePhase,
    pub storage: Storage,
    pub events: Vec<Event>,
    pub cause: Option<Cause>,
}

#[derive(Debug, Clone)]
pub struct SimPvc {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub origin: Origin,
    /// After admission: None means unset (compared as "" by the controller).
    pub class: Option<String>,
    /// The class was assigned by admission or retroactively, not written in the manifest.
    pub class_defaulted: bool,
    pub request: Option<Quantity>,
    pub modes: AccessModes,
    pub volume_mode: VolumeMode,
    pub volume_name: Option<String>,
    pub bind_completed: bool,
    pub selector: Option<Selector>,
    pub has_consumer: bool,
    pub phase: ClaimPhase,
    pub events: Vec<Event>,
    pub reasons: Vec<String>,
    pub cause: Option<Cause>,
    /// Another claim took a volume this one would have matched: the outcome depends on order.
    pub order_dependent: bool,
}

/// A label selector (matchLabels and matchExpressions).
#[derive(Debug, Clone, Default)]
pub struct Selector {
    pub match_labels: BTreeMap<String, String>,
    pub expressions: Vec<(String, String, Vec<String>)>,
}

impl Selector {
    fn from_node(n: &Node) -> Selector {
        let mut s = Selector::default();
        if let Some(m) = n.get("matchLabels").and_then(Node::as_map) {
            for e in m {
                if let Some(v) = e.value.as_scalar() {
                    s.match_labels.insert(e.key.to_string(), v.text.to_string());
                }
            }
        }
        for e in n
            .get("matchExpressions")
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let key = e
                .get("key")
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string();
            let op = e
                .get("operator")
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string();
            let values = e
                .get("values")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(|v| v.as_scalar().map(|s| s.text.to_string()))
                .collect();
            s.expressions.push((key, op, values));
        }
        s
    }

    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self
                .expressions
                .iter()
                .all(|(k, op, vals)| match op.as_str() {
                    "In" => labels.get(k).is_some_and(|v| vals.contains(v)),
                    "NotIn" => labels.get(k).is_none_or(|v| !vals.contains(v)),
                    "Exists" => labels.contains_key(k),
                    "DoesNotExist" => !labels.contains_key(k),
                    _ => false,
                })
    }
}

#[derive(Debug, Clone)]
pub struct SimClass {
    pub name: String,
    pub provisioner: Option<String>,
    pub reclaim: ReclaimPolicy,
    pub wait_for_first_consumer: bool,
    pub is_default: bool,
    /// Order of creation: cluster classes first; manifest classes share one "now".
    pub created: u32,
    /// Assumed to exist (`--default-class`, or the unnamed default most clusters have).
    pub assumed: bool,
}

/// The simulated cluster.
#[derive(Debug, Clone)]
pub struct World {
    pub pvs: Vec<SimPv>,
    pub claims: Vec<SimPvc>,
    pub classes: Vec<SimClass>,
    pub options: Options,
    pub converged: bool,
    /// The cluster's classes are not known (no cluster state, not `--complete`): a class the
    /// input does not define, and no volume uses, is assumed to exist and provision.
    pub assume_unknown_classes: bool,
    next_uid: u64,
    /// Claims admission refused.
    pub rejected: Vec<SimPvc>,
    /// Claims created from each StatefulSet object.
    pub template_claims: HashMap<ObjId, Vec<usize>>,
    pv_by_name: HashMap<String, usize>,
    claim_by_key: HashMap<(String, String), usize>,
    buckets: Buckets,
}

/// Available, unreserved volumes grouped as FindMatchingVolume groups them: by access-mode
/// set (tried fewest modes first) and class, sorted by capacity (ties: input order).
#[derive(Debug, Clone, Default)]
struct Buckets {
    groups: Vec<AccessModes>,
    free: HashMap<(AccessModes, String), BTreeSet<(u128, usize)>>,
    /// Volumes whose claimRef names a claim, by (namespace, name).
    reserved: HashMap<(String, String), Vec<usize>>,
}

/// The name used for a default class the cluster is assumed to have but the input does not show.
pub const ASSUMED_DEFAULT: &str = "<cluster default>";

impl World {
    /// An empty cluster. Its default StorageClass follows `options.default_class`: a named
    /// one, none (`""`), or — when not told — an unnamed default as almost every cluster has,
    /// unless the applied manifests define their own default.
    pub fn new(options: &Options) -> World {
        let mut w = World {
            pvs: Vec::new(),
            claims: Vec::new(),
            classes: Vec::new(),
            options: options.clone(),
            converged: true,
            assume_unknown_classes: false,
            next_uid: 0,
            rejected: Vec::new(),
            template_claims: HashMap::new(),
            pv_by_name: HashMap::new(),
            claim_by_key: HashMap::new(),
            buckets: Buckets::default(),
        };
        // The cluster's own default class: named, or unnamed when not told; none for "".
        let assumed = match options.default_class.as_deref() {
            None => Some(ASSUMED_DEFAULT),
            Some("") => None,
            Some(name) => Some(name),
        };
        if let Some(name) = assumed {
            w.classes.push(SimClass {
                name: name.to_string(),
                provisioner: None,
                reclaim: ReclaimPolicy::Delete,
                wait_for_first_consumer: false,
                is_default: false,
                created: 0,
                assumed: true,
            });
        }
        w
    }

    fn fresh_uid(&mut self) -> String {
        self.next_uid += 1;
        format!("00000000-0000-4000-8000-{:012x}", self.next_uid)
    }

    /// Loads objects that already exist: they keep their UIDs, phases and bindings.
    pub fn load_cluster(&mut self, ix: &Index) {
        for sc in &ix.classes {
            self.add_class(ix, sc, false);
        }
        for pv in &ix.pvs {
            let (uid, phase) = self.live(ix, pv.obj);
            let mut s = sim_pv(ix, pv, uid, Origin::Cluster, true);
            s.phase = match phase.as_deref() {
                Some("Bound") => VolumePhase::Bound,
                Some("Released") => VolumePhase::Released,
                Some("Failed") => VolumePhase::Failed,
                _ => VolumePhase::Available,
            };
            self.upsert_pv(s);
        }
        for c in &ix.pvcs {
            let (uid, phase) = self.live(ix, c.obj);
            let mut s = sim_claim(ix, c, uid, Origin::Cluster);
            s.phase = match phase.as_deref() {
                Some("Bound") => ClaimPhase::Bound,
                Some("Lost") => ClaimPhase::Lost,
                _ => ClaimPhase::Pending,
            };
            self.claim_by_key
                .insert((s.namespace.clone(), s.name.clone()), self.claims.len());
            self.claims.push(s);
        }
    }

    /// A live object's UID (a new one if the export lacks it) and status.phase.
    fn live(&mut self, ix: &Index, obj: ObjId) -> (String, Option<String>) {
        let root = &ix.object(obj).root;
        let uid = root
            .at("metadata.uid")
            .and_then(Node::as_str)
            .map(String::from);
        let phase = root
            .at("status.phase")
            .and_then(Node::as_str)
            .map(String::from);
        (uid.unwrap_or_else(|| self.fresh_uid()), phase)
    }

    fn add_class(&mut self, _ix: &Index, sc: &crate::model::StorageClass, manifest: bool) {
        let created = if manifest { 1 } else { 0 };
        let class = SimClass {
            name: sc.name.clone(),
            provisioner: sc.provisioner.as_ref().map(|p| p.value.clone()),
            reclaim: sc
                .reclaim
                .as_ref()
                .map_or(ReclaimPolicy::Delete, |r| r.value),
            wait_for_first_consumer: sc.wait_for_first_consumer,
            is_default: sc.is_default.is_some(),
            created,
            assumed: false,
        };
        match self.classes.iter_mut().find(|c| c.name == class.name) {
            Some(existing) => {
                // StorageClass parameters are immutable; annotations can change.
                existing.is_default = class.is_default;
                existing.assumed = false;
            }
            None => self.classes.push(class),
        }
    }

    fn upsert_pv(&mut self, pv: SimPv) {
        match self.pv_by_name.get(&pv.name).map(|&i| &mut self.pvs[i]) {
            Some(existing) => {
                let (uid, phase) = (existing.uid.clone(), existing.phase);
                *existing = pv;
                existing.uid = uid;
                existing.phase = phase;
            }
            None => {
                self.pv_by_name.insert(pv.name.clone(), self.pvs.len());
                self.pvs.push(pv);
            }
        }
    }

    /// Applies manifests: classes first, then volumes, claims (with admission) and the
    /// StatefulSets' template claims. Server fields in the manifests are ignored.
    pub fn apply(&mut self, ix: &Index) {
        for sc in &ix.classes {
            self.add_class(ix, sc, true);
        }
        let consumers = consumers(ix);
        for pv in &ix.pvs {
            if !ix.is_current_pv(pv) {
                continue;
            }
            let uid = self.fresh_uid();
            let s = sim_pv(ix, pv, uid, Origin::Manifest { object: pv.obj }, false);
            self.upsert_pv(s);
        }
        for c in &ix.pvcs {
            let uid = self.fresh_uid();
            let mut s = sim_claim(ix, c, uid, Origin::Manifest { object: c.obj });
            s.has_consumer = consumers.contains(&(s.namespace.clone(), s.name.clone()));
            self.create_or_replace_claim(s);
        }
        // StatefulSet controller: one claim per template per ordinal, created with the pod.
        for w in ix
            .workloads
            .iter()
            .filter(|w| w.kind == WorkloadKind::StatefulSet)
        {
            let crate::model::PodCount::Fixed { count, .. } = w.pods else {
                continue;
            };
            let start = ix
                .object(w.obj)
                .root
                .at("spec.ordinals.start")
                .and_then(Node::as_scalar)
                .and_then(|s| s.text.parse::<i64>().ok())
                .unwrap_or(0);
            let templates: Vec<(usize, &Pvc)> = (0..)
                .map_while(|n| ix.template_of(w.obj, n))
                .enumerate()
                .collect();
            for ordinal in start..start + count {
                for (ti, t) in &templates {
                    let name = format!("{}-{}-{ordinal}", t.name, w.name);
                    if self
                        .claim_by_key
                        .contains_key(&(w.namespace.clone(), name.clone()))
                    {
                        continue; // the controller reuses an existing claim
                    }
                    let uid = self.fresh_uid();
                    let mut s = sim_claim(
                        ix,
                        t,
                        uid,
                        Origin::Template {
                            object: w.obj,
                            template: *ti,
                            ordinal,
                        },
                    );
                    s.name = name;
                    s.namespace = w.namespace.clone();
                    s.has_consumer = true;
                    let key = (s.namespace.clone(), s.name.clone());
                    self.create_or_replace_claim(s);
                    if let Some(&idx) = self.claim_by_key.get(&key) {
                        self.template_claims.entry(w.obj).or_default().push(idx);
                    }
                }
            }
        }
    }

    fn create_or_replace_claim(&mut self, mut s: SimPvc) {
        let key = (s.namespace.clone(), s.name.clone());
        if let Some(existing) = self.claim_by_key.get(&key).map(|&i| &mut self.claims[i]) {
            // An update: the live object keeps its UID, status and (immutable) binding.
            s.uid = existing.uid.clone();
            s.phase = existing.phase;
            if s.volume_name.is_none() {
                s.volume_name = existing.volume_name.clone();
            }
            s.bind_completed |= existing.bind_completed;
            if s.class.is_none() {
                s.class = existing.class.clone();
                s.class_defaulted = existing.class_defaulted;
            }
            *existing = s;
            return;
        }
        if s.class.is_none() {
            match self.admission_default() {
                Ok(Some(d)) => {
                    s.class = Some(d.clone());
                    s.class_defaulted = true;
                    s.reasons.push(format!(
                        "no storageClassName: the DefaultStorageClass admission plugin sets it to the default class \"{d}\""
                    ));
                }
                Ok(None) => {}
                Err(msg) => {
                    s.phase = ClaimPhase::Rejected;
                    s.reasons.push(msg);
                    self.rejected.push(s);
                    return;
                }
            }
        }
        self.claim_by_key.insert(key, self.claims.len());
        self.claims.push(s);
    }

    /// The default class a new claim gets, or the admission error (several defaults before 1.26).
    fn admission_default(&self) -> Result<Option<String>, String> {
        let defaults: Vec<&SimClass> = self
            .classes
            .iter()
            .filter(|c| c.is_default && !c.assumed)
            .collect();
        if defaults.is_empty() {
            // Only the cluster's own (assumed) default, if it has one.
            return Ok(self
                .classes
                .iter()
                .find(|c| c.assumed)
                .map(|c| c.name.clone()));
        }
        if defaults.len() > 1 && !self.options.kube_version.at_least(26) {
            return Err(format!(
                "admission rejects the claim: {} default StorageClasses were found (Kubernetes {} allows one)",
                defaults.len(),
                self.options.kube_version
            ));
        }
        // Newest first (creationTimestamp), then name: manifest classes are created together.
        let newest = defaults
            .iter()
            .max_by(|a, b| a.created.cmp(&b.created).then(b.name.cmp(&a.name)))
            .expect("non-empty");
        Ok(Some(newest.name.clone()))
    }

    pub fn delete_pv(&mut self, name: &str) {
        self.pvs.retain(|p| p.name != name);
        self.reindex();
    }

    pub fn delete_claim(&mut self, namespace: &str, name: &str) {
        self.claims
            .retain(|c| !(c.namespace == namespace && c.name == name));
        self.reindex();
    }

    fn reindex(&mut self) {
        self.pv_by_name = self
            .pvs
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
        self.claim_by_key = self
            .claims
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.namespace.clone(), c.name.clone()), i))
            .collect();
    }

    fn rebuild_buckets(&mut self) {
        let mut b = Buckets::default();
        let mut groups = BTreeSet::new();
        for (i, p) in self.pvs.iter().enumerate() {
            groups.insert(p.modes);
            if let Some((ns, n, _)) = &p.claim_ref {
                b.reserved
                    .entry((ns.clone(), n.clone()))
                    .or_default()
                    .push(i);
            } else if p.phase == VolumePhase::Available {
                let key = p.capacity.as_ref().map_or(0, Quantity::key);
                b.free
                    .entry((p.modes, p.class.clone()))
                    .or_default()
                    .insert((key, i));
            }
        }
        b.groups = groups.into_iter().collect();
        b.groups.sort_by_key(|m| (m.count(), *m));
        self.buckets = b;
    }

    /// Removes spec.claimRef from a volume (the admin's way back from Released/Failed).
    pub fn clear_claim_ref(&mut self, name: &str) {
        if let Some(p) = self.pvs.iter_mut().find(|p| p.name == name) {
            p.claim_ref = None;
        }
    }

    /// A simulated volume by name.
    pub fn pv(&self, name: &str) -> Option<&SimPv> {
        self.pv_by_name.get(name).map(|&i| &self.pvs[i])
    }

    /// A simulated claim by namespace and name.
    pub fn claim(&self, namespace: &str, name: &str) -> Option<&SimPvc> {
        self.claim_by_key
            .get(&(namespace.to_string(), name.to_string()))
            .map(|&i| &self.claims[i])
    }

    fn class(&self, name: &str) -> Option<&SimClass> {
        self.classes.iter().find(|c| c.name == name)
    }

    /// Runs the controller until nothing changes.
    pub fn run(&mut self) {
        self.converged = false;
        self.reindex();
        for _ in 0..64 {
            self.rebuild_buckets();
            let mut changed = false;
            for i in 0..self.claims.len() {
                changed |= self.sync_claim(i);
            }
            for i in 0..self.pvs.len() {
                changed |= self.sync_volume(i);
            }
            if !changed {
                self.converged = true;
                break;
            }
        }
        self.mark_order_dependent();
    }

    /// A claim left Pending although a volume it matches went to a claim of another object:
    /// which of them gets it depends on the order the controller sees them.
    fn mark_order_dependent(&mut self) {
        let mut taken: HashMap<(AccessModes, String), Vec<usize>> = HashMap::new();
        for (i, p) in self.pvs.iter().enumerate() {
            if p.phase == VolumePhase::Bound && !matches!(p.origin, Origin::Provisioned) {
                taken.entry((p.modes, p.class.clone())).or_default().push(i);
            }
        }
        if taken.is_empty() {
            return;
        }
        for i in 0..self.claims.len() {
            let c = &self.claims[i];
            if c.phase != ClaimPhase::Pending {
                continue;
            }
            // A claim naming a volume that another claim took first (the volume had no claimRef).
            if let Some(vol) = c.volume_name.clone() {
                let holder = self
                    .pv_index(&vol)
                    .and_then(|p| self.pvs[p].claim_ref.clone());
                if let Some((ns, n, _)) =
                    holder.filter(|(ns, n, _)| !(*ns == c.namespace && *n == c.name))
                {
                    // Bound in this simulation (not already bound in the cluster): it raced this claim.
                    let other_names_it = self
                        .claim_by_key
                        .get(&(ns.clone(), n.clone()))
                        .is_some_and(|&o| {
                            self.claims[o].phase == ClaimPhase::Bound
                                && self.claims[o].origin != Origin::Cluster
                        });
                    if other_names_it {
                        let c = &mut self.claims[i];
                        c.order_dependent = true;
                        c.reasons.push(format!(
                            "claim {ns}/{n} got volume {vol} first: which of the two gets it depends on the order the controller sees them"
                        ));
                    }
                }
                continue;
            }
            let class = c.class.clone().unwrap_or_default();
            let rival = self
                .buckets
                .groups
                .iter()
                .filter(|g| g.contains(c.modes))
                .find_map(|g| {
                    taken.get(&(*g, class.clone()))?.iter().copied().find(|&p| {
                        let pv = &self.pvs[p];
                        let fits = pv
                            .capacity
                            .as_ref()
                            .zip(c.request.as_ref())
                            .is_none_or(|(cap, req)| cap >= req)
                            && pv.volume_mode == c.volume_mode
                            && c.selector.as_ref().is_none_or(|s| s.matches(&pv.labels));
                        let owner = pv
                            .claim_ref
                            .as_ref()
                            .and_then(|(ns, n, _)| self.claim_by_key.get(&(ns.clone(), n.clone())))
                            .map(|&o| self.claims[o].origin.object());
                        fits && owner.is_some_and(|o| o != c.origin.object())
                    })
                });
            if let Some(p) = rival {
                let pv = self.pvs[p].name.clone();
                let c = &mut self.claims[i];
                c.order_dependent = true;
                c.reasons.push(format!(
                    "volume {pv} matches it too but went to another claim: which claim gets it depends on the order the controller sees them"
                ));
            }
        }
    }

    // ---- claims -------------------------------------------------------------------

    fn sync_claim(&mut self, i: usize) -> bool {
        if self.claims[i].bind_completed {
            self.sync_bound_claim(i)
        } else {
            self.sync_unbound_claim(i)
        }
    }

    fn pv_index(&self, name: &str) -> Option<usize> {
        self.pv_by_name.get(name).copied()
    }

    fn sync_bound_claim(&mut self, i: usize) -> bool {
        let Some(vol) = self.claims[i].volume_name.clone() else {
            return self.set_claim(
                i,
                ClaimPhase::Lost,
                Some(warning("ClaimLost", "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!")),
                Cause::NoVolumeName,
                "it carries pv.kubernetes.io/bind-completed but has no spec.volumeName".into(),
            );
        };
        let Some(p) = self.pv_index(&vol) else {
            return self.set_claim(
                i,
                ClaimPhase::Lost,
                Some(warning(
                    "ClaimLost",
                    "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
                )),
                Cause::VolumeMissing {
                    volume: vol.clone(),
                },
                format!("it is marked bound to volume \"{vol}\", which does not exist"),
            );
        };
        let c = &self.claims[i];
        match &self.pvs[p].claim_ref {
            None => self.bind(p, i, "it is marked bound and its volume has no claimRef: the controller binds them again"),
            Some((_, _, uid)) if *uid == c.uid => self.mark_bound(i, p),
            Some((ns, name, uid)) => {
                let why = if ns == &c.namespace && name == &c.name {
                    if uid.is_empty() {
                        format!("volume {vol}'s claimRef names it without a uid, and a bound claim's UID must match")
                    } else {
                        match c.origin {
                            Origin::Cluster => format!("volume {vol}'s claimRef.uid {uid} is not this claim's UID {}", c.uid),
                            _ => format!("volume {vol}'s claimRef.uid {uid} can never be the UID this claim gets when it is created"),
                        }
                    }
                } else {
                    format!("volume {vol}'s claimRef names another claim, {ns}/{name}")
                };
                let cause = if ns == &c.namespace && name == &c.name && !uid.is_empty() {
                    Cause::StaleClaimRefUid { volume: vol.clone() }
                } else {
                    Cause::ClaimRefMismatch { volume: vol.clone() }
                };
                self.set_claim(
                    i,
                    ClaimPhase::Lost,
                    Some(warning("ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly")),
                    cause,
                    why,
                )
            }
        }
    }

    fn sync_unbound_claim(&mut self, i: usize) -> bool {
        if let Some(vol) = self.claims[i].volume_name.clone() {
            return self.sync_prebound_claim(i, &vol);
        }
        let class_name = self.claims[i].class.clone().unwrap_or_default();
        let class = self.class(&class_name).cloned();
        let delay =
            !class_name.is_empty() && class.as_ref().is_some_and(|c| c.wait_for_first_consumer);
        if delay && !self.claims[i].has_consumer {
            // Pre-bound volumes are still returned at once.
            if let Some(p) = self.find_best_match(i, true) {
                return self.bind(p, i, "a volume is reserved for it by claimRef");
            }
            return self.pending(
                i,
                Some(normal("WaitForFirstConsumer", "waiting for first consumer to be created before binding")),
                format!("StorageClass {class_name} binds on first consumer (WaitForFirstConsumer) and no pod in the input uses the claim"),
            );
        }
        if let Some(p) = self.find_best_match(i, false) {
            let why = if delay {
                "a pod uses it, so the scheduler binds the smallest matching volume"
            } else {
                "the controller binds the smallest matching volume"
            };
            return self.bind(p, i, why);
        }
        // Retroactive default class (GA 1.28): an unset class gets the default and is retried.
        if self.claims[i].class.is_none() && self.options.kube_version.at_least(28) {
            if let Ok(Some(d)) = self.admission_default() {
                let c = &mut self.claims[i];
                c.class = Some(d.clone());
                c.class_defaulted = true;
                c.reasons.push(format!("no volume without class matched: the controller assigns the default class \"{d}\" retroactively"));
                return true;
            }
        }
        if class_name.is_empty() {
            return self.pending(
                i,
                Some(normal(
                    "FailedBinding",
                    "no persistent volumes available for this claim and no storage class is set",
                )),
                "no volume without a class matches it, and without a class nothing is provisioned"
                    .into(),
            );
        }
        let class = class.or_else(|| {
            (self.assume_unknown_classes && !self.pvs.iter().any(|p| p.class == class_name)).then(
                || SimClass {
                    name: class_name.clone(),
                    provisioner: None,
                    reclaim: ReclaimPolicy::Delete,
                    wait_for_first_consumer: false,
                    is_default: false,
                    created: 0,
                    assumed: true,
                },
            )
        });
        match class {
            None => self.pending(
                i,
                Some(warning("ProvisioningFailed", format!("storageclass.storage.k8s.io \"{class_name}\" not found"))),
                format!("no static volume of class \"{class_name}\" matches it, and StorageClass {class_name} does not exist"),
            ),
            Some(sc) if sc.provisioner.as_deref() == Some(kube::NO_PROVISIONER) => self.pending(
                i,
                None,
                format!("no static volume of class \"{class_name}\" matches it, and the class's provisioner {} never provisions", kube::NO_PROVISIONER),
            ),
            Some(sc) => {
                let provisioner = sc.provisioner.clone().unwrap_or_else(|| {
                    if sc.name == ASSUMED_DEFAULT {
                        "the default class's provisioner".into()
                    } else {
                        format!("the provisioner of StorageClass {} (not in the input; assumed to exist)", sc.name)
                    }
                });
                let event = (!provisioner.starts_with("kubernetes.io/") && !sc.assumed && sc.provisioner.is_some()).then(|| {
                    normal(
                        "ExternalProvisioning",
                        format!("Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."),
                    )
                });
                self.provision(i, &sc, &provisioner, event)
            }
        }
    }

    fn sync_prebound_claim(&mut self, i: usize, vol: &str) -> bool {
        let Some(p) = self.pv_index(vol) else {
            return self.pending(
                i,
                None,
                format!("it names volume \"{vol}\", which does not exist (no event; it waits)"),
            );
        };
        let c = &self.claims[i];
        match self.pvs[p].claim_ref.clone() {
            None => {
                let mismatches = self.check_satisfy(p, i);
                match mismatches.first() {
                    None => self.bind(p, i, "it names the volume, which satisfies it"),
                    Some(m) => {
                        let msg = format!(
                            "Cannot bind to requested volume \"{vol}\": {}",
                            m.upstream_error()
                        );
                        let detail = m.detail();
                        self.pending(
                            i,
                            Some(warning("VolumeMismatch", msg)),
                            format!("it names volume {vol}, but {detail}"),
                        )
                    }
                }
            }
            Some((ns, name, uid))
                if ns == c.namespace && name == c.name && (uid.is_empty() || uid == c.uid) =>
            {
                self.bind(p, i, "it and the volume name each other")
            }
            Some((ns, name, _)) => {
                let why = if ns == c.namespace && name == c.name {
                    format!(
                        "volume {vol}'s claimRef names it with another UID (a copied claimRef.uid)"
                    )
                } else {
                    format!("volume {vol} is bound to another claim, {ns}/{name}")
                };
                self.pending(
                    i,
                    Some(warning(
                        "FailedBinding",
                        format!("volume \"{vol}\" already bound to a different claim."),
                    )),
                    why,
                )
            }
        }
    }

    /// checkVolumeSatisfyClaim.
    fn check_satisfy(&self, p: usize, i: usize) -> Vec<Mismatch> {
        let (pv, c) = (&self.pvs[p], &self.claims[i]);
        let claim_class = c.class.clone().unwrap_or_default();
        let class = (claim_class != pv.class).then(|| Mismatch::Class {
            claim: if c.class_defaulted {
                crate::facts::EffectiveClass::Defaulted(claim_class)
            } else {
                crate::facts::EffectiveClass::Set(claim_class)
            },
            pv: pv.class.clone(),
            certain: true,
        });
        crate::facts::satisfy_checks(
            crate::facts::Side {
                capacity: pv.capacity.as_ref(),
                volume_mode: pv.volume_mode,
                access_modes: pv.modes,
            },
            crate::facts::Side {
                capacity: c.request.as_ref(),
                volume_mode: c.volume_mode,
                access_modes: c.modes,
            },
            class,
        )
    }

    /// findBestMatchForClaim / FindMatchingVolume. With `prebound_only`, only a volume
    /// reserved for this claim is returned (delayed binding without a node).
    fn find_best_match(&mut self, i: usize, prebound_only: bool) -> Option<usize> {
        let c = &self.claims[i];
        let fits = |p: &SimPv| {
            p.capacity
                .as_ref()
                .zip(c.request.as_ref())
                .is_none_or(|(cap, req)| cap >= req)
                && p.volume_mode == c.volume_mode
        };
        // A volume pre-bound to this claim is returned at once (class, phase and selector are
        // not checked), from the group with the fewest access modes.
        let key = (c.namespace.clone(), c.name.clone());
        if let Some(list) = self.buckets.reserved.get(&key) {
            let pick = list
                .iter()
                .copied()
                .filter(|&p| {
                    let pv = &self.pvs[p];
                    pv.modes.contains(c.modes)
                        && fits(pv)
                        && pv.claim_ref.as_ref().is_some_and(|(ns, n, uid)| {
                            *ns == c.namespace && *n == c.name && (uid.is_empty() || *uid == c.uid)
                        })
                })
                .min_by_key(|&p| (self.pvs[p].modes.count(), self.pvs[p].modes, p));
            if pick.is_some() {
                return pick;
            }
        }
        if prebound_only {
            return None;
        }
        let class = c.class.clone().unwrap_or_default();
        let req_key = c.request.as_ref().map_or(0, Quantity::key);
        for g in self.buckets.groups.iter().filter(|g| g.contains(c.modes)) {
            let Some(set) = self.buckets.free.get(&(*g, class.clone())) else {
                continue;
            };
            for &(_, p) in set.range((req_key, 0)..) {
                let pv = &self.pvs[p];
                if pv.claim_ref.is_none()
                    && pv.phase == VolumePhase::Available
                    && fits(pv)
                    && c.selector.as_ref().is_none_or(|s| s.matches(&pv.labels))
                {
                    return Some(p);
                }
            }
        }
        None
    }

    fn provision(
        &mut self,
        i: usize,
        sc: &SimClass,
        provisioner: &str,
        event: Option<Event>,
    ) -> bool {
        let uid = self.fresh_uid();
        let c = &self.claims[i];
        let name = format!("pvc-{}", c.uid);
        let in_tree = kube::in_tree_provisioner_source(provisioner);
        let is_csi = !provisioner.starts_with("kubernetes.io/");
        let pv = SimPv {
            name: name.clone(),
            uid,
            origin: Origin::Provisioned,
            class: sc.name.clone(),
            capacity: c.request.clone(),
            modes: c.modes,
            volume_mode: c.volume_mode,
            reclaim: sc.reclaim,
            claim_ref: None,
            provisioned_by: Some(provisioner.to_string()),
            bound_by_controller: true,
            source_kind: match in_tree {
                Some(src) => src.field.to_string(),
                None => "csi".into(),
            },
            csi_driver: is_csi.then(|| provisioner.to_string()),
            host_path: None,
            nfs_server_problem: None,
            backing: format!("the volume {provisioner} creates for it"),
            labels: BTreeMap::new(),
            phase: VolumePhase::Available,
            storage: Storage::Provisioned {
                provisioner: provisioner.to_string(),
            },
            events: Vec::new(),
            cause: None,
        };
        self.pv_by_name.insert(name, self.pvs.len());
        self.pvs.push(pv);
        let p = self.pvs.len() - 1;
        if let Some(e) = event {
            push_event(&mut self.claims[i].events, e);
        }
        let why = format!("no static volume matches it, so {provisioner} provisions a new volume for StorageClass {}", sc.name);
        self.bind(p, i, &why)
    }

    fn bind(&mut self, p: usize, i: usize, why: &str) -> bool {
        let (ns, name, uid) = {
            let c = &self.claims[i];
            (c.namespace.clone(), c.name.clone(), c.uid.clone())
        };
        let pv = &mut self.pvs[p];
        if let Some(set) = self.buckets.free.get_mut(&(pv.modes, pv.class.clone())) {
            set.remove(&(pv.capacity.as_ref().map_or(0, Quantity::key), p));
        }
        if pv.claim_ref.is_none() {
            pv.bound_by_controller = true;
        }
        pv.claim_ref = Some((ns, name, uid));
        pv.phase = VolumePhase::Bound;
        let pv_name = pv.name.clone();
        let c = &mut self.claims[i];
        let changed = c.phase != ClaimPhase::Bound
            || c.volume_name.as_deref() != Some(&pv_name)
            || !c.bind_completed;
        c.volume_name = Some(pv_name.clone());
        c.bind_completed = true;
        c.phase = ClaimPhase::Bound;
        if changed {
            c.reasons.push(format!("{why}: bound to {pv_name}"));
        }
        changed
    }

    fn mark_bound(&mut self, i: usize, p: usize) -> bool {
        self.pvs[p].phase = VolumePhase::Bound;
        let c = &mut self.claims[i];
        let changed = c.phase != ClaimPhase::Bound;
        c.phase = ClaimPhase::Bound;
        changed
    }

    fn pending(&mut self, i: usize, event: Option<Event>, why: String) -> bool {
        let c = &mut self.claims[i];
        let mut changed = c.phase != ClaimPhase::Pending;
        c.phase = ClaimPhase::Pending;
        if let Some(e) = event {
            changed |= push_event(&mut c.events, e);
        }
        if c.reasons.last() != Some(&why) {
            c.reasons.push(why);
        }
        changed
    }

    fn set_claim(
        &mut self,
        i: usize,
        phase: ClaimPhase,
        event: Option<Event>,
        cause: Cause,
        why: String,
    ) -> bool {
        let c = &mut self.claims[i];
        let mut changed = c.phase != phase;
        c.phase = phase;
        c.cause = Some(cause);
        if let Some(e) = event {
            changed |= push_event(&mut c.events, e);
        }
        if c.reasons.last() != Some(&why) {
            c.reasons.push(why);
        }
        changed
    }

    // ---- volumes ------------------------------------------------------------------

    fn sync_volume(&mut self, p: usize) -> bool {
        let Some((ns, name, uid)) = self.pvs[p].claim_ref.clone() else {
            return self.set_pv_phase(p, VolumePhase::Available);
        };
        if uid.is_empty() {
            return self.set_pv_phase(p, VolumePhase::Available);
        }
        let claim = self.claim_by_key.get(&(ns, name)).copied();
        match claim {
            Some(i) if self.claims[i].uid == uid => {
                let c = &self.claims[i];
                match c.volume_name.as_deref() {
                    None => false,
                    Some(v) if v == self.pvs[p].name => self.set_pv_phase(p, VolumePhase::Bound),
                    Some(other) => {
                        let other = other.to_string();
                        let pv = &self.pvs[p];
                        if pv.provisioned_by.is_some() && pv.reclaim == ReclaimPolicy::Delete {
                            self.release(p, Cause::ClaimBoundElsewhere { volume: other })
                        } else if pv.bound_by_controller {
                            let pv = &mut self.pvs[p];
                            pv.claim_ref = None;
                            pv.phase = VolumePhase::Available;
                            true
                        } else {
                            let pv = &mut self.pvs[p];
                            if let Some(cr) = pv.claim_ref.as_mut() {
                                cr.2.clear();
                            }
                            pv.phase = VolumePhase::Available;
                            true
                        }
                    }
                }
            }
            Some(_) => self.release(
                p,
                Cause::StaleClaimRefUid {
                    volume: self.pvs[p].name.clone(),
                },
            ),
            None => self.release(p, Cause::ClaimDeleted),
        }
    }

    /// updateVolumePhase: unconditional (only the claim-missing path keeps Failed).
    fn set_pv_phase(&mut self, p: usize, phase: VolumePhase) -> bool {
        let pv = &mut self.pvs[p];
        if pv.phase == phase {
            return false;
        }
        pv.phase = phase;
        true
    }

    /// The claim is gone (or is another object with the same name): Released, then reclaimVolume.
    fn release(&mut self, p: usize, cause: Cause) -> bool {
        let pv = &mut self.pvs[p];
        if pv.phase == VolumePhase::Failed
            || (pv.phase == VolumePhase::Released && pv.cause.is_some())
        {
            return false;
        }
        pv.phase = VolumePhase::Released;
        pv.cause = Some(cause);
        match pv.reclaim {
            ReclaimPolicy::Retain => {}
            ReclaimPolicy::Recycle => {
                let kind = pv.source_kind.as_str();
                if kind != "nfs" && kind != "hostPath" {
                    fail(
                        pv,
                        "VolumeFailedRecycle",
                        "No recycler plugin found for the volume!".into(),
                    );
                } else if let Some(problem) = pv.nfs_server_problem.clone() {
                    fail(pv, "VolumeFailedRecycle", format!("Recycle failed: the recycler pod cannot mount the NFS server ({problem})"));
                } else {
                    pv.storage = Storage::Recycled;
                    pv.claim_ref = None;
                    pv.phase = VolumePhase::Available;
                    push_event(&mut pv.events, normal("VolumeRecycled", "Volume recycled"));
                }
            }
            ReclaimPolicy::Delete => {
                let external = pv
                    .provisioned_by
                    .clone()
                    .filter(|p| !p.starts_with("kubernetes.io/"))
                    .or_else(|| pv.csi_driver.clone())
                    .or_else(|| {
                        kube::in_tree_source(&pv.source_kind)
                            .filter(|t| t.csi_migrated)
                            .map(|t| format!("the CSI driver serving migrated {} volumes", t.field))
                    });
                if let Some(prov) = external {
                    pv.storage = Storage::LeftToProvisioner { provisioner: prov };
                } else {
                    let kind = pv.source_kind.clone();
                    let name = pv.name.clone();
                    match kind.as_str() {
                        "hostPath" if !pv.host_path.as_deref().unwrap_or("").starts_with("/tmp/") => {
                            let path = pv.host_path.clone().unwrap_or_default();
                            fail(
                                pv,
                                "VolumeFailedDelete",
                                format!("host_path deleter only supports /tmp/.+ but received provided {path}"),
                            )
                        }
                        "nfs" | "local" | "iscsi" | "fc" | "cephfs" | "flexVolume" | "" => fail(
                            pv,
                            "VolumeFailedDelete",
                            format!("error getting deleter volume plugin for volume \"{name}\": no volume plugin matched"),
                        ),
                        _ => pv.storage = Storage::Deleted,
                    }
                }
            }
        }
        true
    }

    /// The simulation's result, in a form for tables and JSON.
    pub fn report(&self) -> SimReport {
        let claims = self
            .claims
            .iter()
            .chain(&self.rejected)
            .map(|c| ClaimOutcome {
                namespace: c.namespace.clone(),
                name: c.name.clone(),
                origin: c.origin.clone(),
                phase: c.phase,
                volume: (c.phase == ClaimPhase::Bound || c.phase == ClaimPhase::Lost)
                    .then(|| c.volume_name.clone())
                    .flatten(),
                class: c.class.clone(),
                events: c.events.clone(),
                reasons: c.reasons.clone(),
                order_dependent: c.order_dependent,
            })
            .collect();
        let volumes = self
            .pvs
            .iter()
            .map(|p| VolumeOutcome {
                name: p.name.clone(),
                origin: p.origin.clone(),
                phase: p.phase,
                storage: p.storage.clone(),
                backing: p.backing.clone(),
                claim: p.claim_ref.as_ref().map(|(ns, n, _)| format!("{ns}/{n}")),
                events: p.events.clone(),
            })
            .collect();
        SimReport {
            schema: "pvlint-simulation/v1".to_string(),
            converged: self.converged,
            claims,
            volumes,
        }
    }
}

fn fail(pv: &mut SimPv, reason: &'static str, message: String) {
    pv.phase = VolumePhase::Failed;
    push_event(&mut pv.events, warning(reason, message));
}

fn push_event(events: &mut Vec<Event>, e: Event) -> bool {
    if events.contains(&e) {
        false
    } else {
        events.push(e);
        true
    }
}

fn event(kind: &str, reason: &str, message: impl Into<String>) -> Event {
    Event {
        kind: kind.into(),
        reason: reason.into(),
        message: message.into(),
    }
}

fn warning(reason: &str, message: impl Into<String>) -> Event {
    event("Warning", reason, message)
}

fn normal(reason: &str, message: impl Into<String>) -> Event {
    event("Normal", reason, message)
}

/// (namespace, claim name) of every claim a workload in the input mounts.
fn consumers(ix: &Index) -> std::collections::HashSet<(String, String)> {
    ix.workloads
        .iter()
        .flat_map(|w| {
            w.claims
                .iter()
                .map(move |c| (w.namespace.clone(), c.claim.value.clone()))
        })
        .collect()
}

fn labels_of(node: Option<&Node>) -> BTreeMap<String, String> {
    node.and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            e.value
                .as_scalar()
                .map(|s| (e.key.to_string(), s.text.to_string()))
        })
        .collect()
}

fn sim_pv(ix: &Index, pv: &Pv, uid: String, origin: Origin, live: bool) -> SimPv {
    let obj = ix.object(pv.obj);
    let src = pv.source.as_ref();
    SimPv {
        name: pv.name.clone(),
        uid,
        origin,
        class: pv.class.clone(),
        capacity: pv.capacity.as_ref().map(|c| c.value.clone()),
        modes: pv.access_modes,
        volume_mode: pv.volume_mode,
        reclaim: pv.reclaim_policy(),
        claim_ref: pv.claim_ref.as_ref().map(|c| {
            (
                c.namespace.clone(),
                c.name.clone(),
                c.uid.as_ref().map(|u| u.value.clone()).unwrap_or_default(),
            )
        }),
        provisioned_by: pv.provisioned_by.as_ref().map(|p| p.value.clone()),
        bound_by_controller: obj.annotation_str(kube::ANN_BOUND_BY_CONTROLLER).is_some(),
        source_kind: src.map(|s| s.kind.clone()).unwrap_or_default(),
        csi_driver: pv.csi_driver().map(String::from),
        host_path: src
            .filter(|s| s.kind == "hostPath")
            .and_then(|s| s.path.clone()),
        nfs_server_problem: src
            .and_then(|s| s.server.as_ref())
            .and_then(|s| kube::nfs_server_problem(&s.value)),
        backing: pv.backing_storage(),
        labels: labels_of(obj.root.at("metadata.labels")),
        phase: if live {
            VolumePhase::Bound
        } else {
            VolumePhase::Available
        },
        storage: Storage::Kept,
        events: Vec::new(),
        cause: None,
    }
}

fn sim_claim(ix: &Index, c: &Pvc, uid: String, origin: Origin) -> SimPvc {
    let obj = ix.object(c.obj);
    let selector = obj
        .root
        .at(&format!("{}spec.selector", c.prefix))
        .filter(|n| !n.is_null())
        .map(Selector::from_node);
    SimPvc {
        namespace: c.namespace.clone(),
        name: c.name.clone(),
        uid,
        origin,
        class: match &c.class {
            ClaimClass::Unset => None,
            ClaimClass::Set { name, .. } => Some(name.clone()),
        },
        class_defaulted: false,
        request: c.request.as_ref().map(|r| r.value.clone()),
        modes: c.access_modes,
        volume_mode: c.volume_mode,
        volume_name: c.volume_name.as_ref().map(|v| v.value.clone()),
        bind_completed: c.bind_completed.is_some(),
        selector,
        has_consumer: false,
        phase: ClaimPhase::Pending,
        events: Vec::new(),
        reasons: Vec::new(),
        cause: None,
        order_dependent: false,
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimOutcome {
    pub namespace: String,
    pub name: String,
    pub origin: Origin,
    pub phase: ClaimPhase,
    pub volume: Option<String>,
    pub class: Option<String>,
    pub events: Vec<Event>,
    /// The chain of reasons, in the order the controller went through them.
    pub reasons: Vec<String>,
    /// Another claim could take the volume this one would match: the real outcome depends
    /// on the order the controller sees them.
    pub order_dependent: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeOutcome {
    pub name: String,
    pub origin: Origin,
    pub phase: VolumePhase,
    pub storage: Storage,
    /// What the storage is (an NFS export, a CSI volume handle, ...).
    pub backing: String,
    pub claim: Option<String>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimReport {
    pub schema: String,
    pub converged: bool,
    pub claims: Vec<ClaimOutcome>,
    pub volumes: Vec<VolumeOutcome>,
}

/// Applies `manifests` onto `cluster` and runs the controller to a fixed point.
pub fn simulate(cluster: &Index, manifests: &Index, options: &Options) -> World {
    let mut w = World::new(options);
    w.assume_unknown_classes =
        cluster.objects.is_empty() && manifests.classes.is_empty() && !options.complete;
    w.load_cluster(cluster);
    w.apply(manifests);
    w.run();
    w
}
