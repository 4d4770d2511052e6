//! A model of the Kubernetes PersistentVolume controller: what happens to every claim and
//! volume once the manifests are applied onto a cluster. It is the one place that decides
//! what happens; rules read its typed outcomes through [`World`]'s queries.
//!
//! Modules follow upstream (pkg/controller/volume/persistentvolume):
//! [`load`] (the cluster state and the manifests, with what pvlint must assume),
//! [`admission`] (DefaultStorageClass), [`sync_claim`] (`syncUnboundClaim`, `syncBoundClaim`),
//! [`sync_volume`] (`syncVolume`), [`find_match`] (`findBestMatchForClaim` over the index of
//! index.go), [`provision`] (`provisionClaim`), [`reclaim`] (`reclaimVolume`, deletion with
//! finalizers), [`races`] (outcomes that depend on processing order), [`ops`] (what-if
//! operations) and [`report`] (the serializable result).
//!
//! Deterministic: created objects get counter UIDs, objects are processed in input order
//! (cluster state first), and where the real controller's result depends on that order, the
//! result says so ([`Race`]).

pub mod admission;
pub mod cause;
pub mod events;
pub mod find_match;
pub mod load;
pub mod ops;
pub mod provision;
pub mod races;
pub mod reclaim;
pub mod report;
pub mod state;
mod statefulset;
pub mod sync_claim;
pub mod sync_volume;
mod table;
pub mod timing;
pub mod whatif;

use std::collections::HashMap;

pub use cause::{CauseKey, Role, Subject};
pub use ops::Operation;
pub use report::{Located, Simulation};
pub use state::*;
pub use whatif::AfterClaimRefRemoval;

use crate::binding::attach::{self, Attach};
use crate::binding::fit::Mismatch;
use crate::index::Index;
use crate::model::ObjId;
use crate::node::Str;
use crate::options::Options;

/// The simulated cluster. Read it through its queries; only the simulation changes it.
#[derive(Debug, Clone)]
pub struct World {
    claims: Vec<Claim>,
    volumes: Vec<Volume>,
    classes: Vec<Class>,
    /// CSIDriver objects: name → spec.attachRequired.
    drivers: HashMap<String, bool>,
    options: Options,
    /// The cluster state was given (or `--complete`): what it lacks does not exist.
    cluster_known: bool,
    converged: bool,
    next_uid: u64,
    /// By namespace and name (see [`World::claim_key`]).
    claim_by_key: table::IdTable<ClaimId>,
    /// By name (see [`World::volume_key`]).
    volume_by_name: table::IdTable<VolumeId>,
    /// Claims created from each StatefulSet object.
    template_claims: HashMap<(Side, ObjId), Vec<ClaimId>>,
    object_claims: HashMap<(Side, ObjId), ClaimId>,
    object_volumes: HashMap<(Side, ObjId), VolumeId>,
    /// Workloads that mount claims but run no pod (replicas 0, a suspended CronJob) or whose
    /// Pod was deleted: they neither consume a WaitForFirstConsumer claim nor hold a claim
    /// being deleted (pvc-protection counts pods).
    podless: std::collections::HashSet<(Side, ObjId)>,
    /// StatefulSets of the manifests with podManagementPolicy OrderedReady (the default):
    /// ordinal N+1 and its claims are created only once pod N is Running and Ready.
    ordered_ready: std::collections::HashSet<(Side, ObjId)>,
    /// The StatefulSets run, with what scaling and deleting them needs.
    statefulsets: Vec<statefulset::SetRecord>,
    /// The running ones, by namespace and name.
    statefulset_by_key: HashMap<(Str, Str), usize>,
    /// Bare Pods of the input, by namespace and name (for `delete pod/...`).
    pods: Vec<(Str, Str, Side, ObjId)>,
    /// Class names the input's static volumes use without a StorageClass: assumed not to
    /// exist (see [`Assumption::StaticClassOnly`]).
    /// Each with the assumption behind it: a label of static volumes
    /// ([`Assumption::StaticClassOnly`]) or a class the API server rejects
    /// ([`Assumption::RejectedClassOnly`]).
    static_only: std::collections::BTreeMap<String, Assumption>,
    /// StorageClasses of the input the API server rejects (never created).
    rejected_classes: std::collections::HashSet<String>,
    /// The ExternalProvisioning event of each provisioner, built once: its text is shared by
    /// every claim that waits for that provisioner.
    provisioning_events: HashMap<Str, Event>,
    /// What a provisioner's volumes are backed by, by the provisioner as shown (the key is
    /// shared too: `get_key_value`): texts every volume it provisions carries, built once.
    provisioned_texts: HashMap<Str, Str>,
    index: find_match::VolumeIndex,
    /// For each claim left Pending: the volume closest to fitting it, and what it fails.
    closest: HashMap<ClaimId, (VolumeId, Vec<Mismatch>)>,
    /// What the input says of its cluster (none when the cluster is known).
    hints: ClusterHints,
    /// See [`Elsewhere::file_order`].
    file_order: bool,
    /// The first run, right after the manifests were applied in one `kubectl apply`: objects
    /// arrive in file order, and a claim may be synced before volumes later in the file exist.
    first_apply: bool,
    /// Volumes not yet Available when the claims are first synced (see [`timing`]).
    late: std::collections::HashSet<VolumeId>,
    /// Claims synced first, in this order (see [`timing`]).
    claim_order: Vec<ClaimId>,
    /// Of equally good volumes the last binds (see [`timing`]).
    pub(crate) last_tie: bool,
}

/// Simulates the manifests applied onto the cluster state, run to a fixed point.
pub fn simulate(
    cluster: &Index,
    manifests: &Index,
    options: &Options,
    cluster_given: bool,
) -> World {
    simulate_with(
        cluster,
        manifests,
        options,
        cluster_given,
        &Elsewhere::default(),
    )
}

/// [`simulate`], knowing what other apply sets of the input define (see [`Elsewhere`]).
pub fn simulate_with(
    cluster: &Index,
    manifests: &Index,
    options: &Options,
    cluster_given: bool,
    elsewhere: &Elsewhere,
) -> World {
    simulate_timed(
        cluster,
        manifests,
        options,
        cluster_given,
        elsewhere,
        timing::Timing::default(),
    )
}

/// [`simulate_with`], the controller seeing the apply's objects with `timing`.
pub(crate) fn simulate_timed(
    cluster: &Index,
    manifests: &Index,
    options: &Options,
    cluster_given: bool,
    elsewhere: &Elsewhere,
    timing: timing::Timing,
) -> World {
    let mut w = World::new(options, cluster_given || options.complete);
    w.load(cluster, manifests, elsewhere);
    w.first_apply = true;
    w.late = timing.late.iter().copied().collect();
    w.set_timing(&timing);
    w.run();
    w.first_apply = false;
    w
}

/// What the input's other apply sets define cluster-wide: StorageClasses and CSIDrivers. A
/// repository that installs its storage in one directory (`infra/`) and its apps in others
/// applies them apart, onto the same cluster: for a set that names a class it does not define,
/// the definition elsewhere in the input is the best knowledge of that class, and stays an
/// assumption ([`Assumption::DefinedElsewhere`]). Used only when the cluster is not given
/// (`--cluster-state`, `--complete` know better); names defined differently in two places are
/// left out.
#[derive(Debug, Default, Clone)]
pub struct Elsewhere {
    pub(crate) classes: Vec<ElsewhereClass>,
    pub(crate) drivers: Vec<(Str, bool)>,
    /// What the input says of the cluster it is written for, wherever it says it.
    pub(crate) hints: ClusterHints,
    /// The set's objects are created in the order they are written (`kubectl apply -f`: file
    /// by file, document by document), not sorted by kind as kustomize and Helm sort them
    /// (StorageClasses first): a claim is admitted before a StorageClass written after it.
    pub(crate) file_order: bool,
}

/// What an input says of the cluster it is written for, without a cluster state: a local
/// cluster tool's config (kind's `Cluster`, k3d's `Simple`: that tool's default class), or a
/// hostPath volume without nodeAffinity (a directory on whichever node a pod lands on: written
/// for a cluster of one node). Hints, never certainties: what rests on them is an assumption.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ClusterHints {
    /// The local cluster tool a config of the input is for, and that file.
    pub tool: Option<(LocalCluster, Str)>,
    /// A hostPath volume without nodeAffinity, and its file.
    pub one_node: Option<(Str, Str)>,
}

/// A local cluster tool whose config the input carries, with the default StorageClass its
/// clusters come with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalCluster {
    /// kind (`kind.x-k8s.io` `Cluster`): class `standard`, rancher.io/local-path,
    /// WaitForFirstConsumer (kubernetes-sigs/kind pkg/cluster/internal/create/actions/
    /// installstorage/storage.go).
    Kind,
    /// k3d (`k3d.io` `Simple`), a k3s cluster: class `local-path`, rancher.io/local-path,
    /// WaitForFirstConsumer (k3s-io/k3s manifests/local-storage.yaml).
    K3d,
}

impl LocalCluster {
    pub fn name(self) -> &'static str {
        match self {
            LocalCluster::Kind => "kind",
            LocalCluster::K3d => "k3d",
        }
    }

    /// The default class its clusters come with.
    pub fn default_class(self) -> &'static str {
        match self {
            LocalCluster::Kind => "standard",
            LocalCluster::K3d => "local-path",
        }
    }
}

impl ClusterHints {
    /// The hints in one index.
    pub(crate) fn of(ix: &Index, sources: &[crate::source::Source]) -> ClusterHints {
        let file =
            |obj: crate::model::ObjId| Str::from(sources[ix.object(obj).source].name.as_str());
        let tool = ix.objects.iter().enumerate().find_map(|(id, o)| {
            let t = if o.api_version.starts_with("kind.x-k8s.io/") && o.kind == "Cluster" {
                LocalCluster::Kind
            } else if o.api_version.starts_with("k3d.io/") && o.kind == "Simple" {
                LocalCluster::K3d
            } else {
                return None;
            };
            Some((t, file(id)))
        });
        let one_node = ix
            .pvs
            .iter()
            .find(|pv| {
                !pv.has_node_affinity
                    && pv.source.as_ref().is_some_and(|s| s.kind == "hostPath")
                    && !ix.is_rejected(pv.obj)
            })
            .map(|pv| (pv.name.clone(), file(pv.obj)));
        ClusterHints { tool, one_node }
    }

    /// The first of each hint.
    pub(crate) fn or(self, other: &ClusterHints) -> ClusterHints {
        ClusterHints {
            tool: self.tool.or_else(|| other.tool.clone()),
            one_node: self.one_node.or_else(|| other.one_node.clone()),
        }
    }
}

/// A StorageClass another apply set defines.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ElsewhereClass {
    pub name: Str,
    pub provisioner: Str,
    pub reclaim: crate::kube::ReclaimPolicy,
    pub wait_for_first_consumer: bool,
    pub is_default: bool,
    /// The file that defines it.
    pub file: Str,
    /// The apply set that defines it.
    pub set: usize,
}

impl Elsewhere {
    /// Collects the classes and drivers each apply set's index defines.
    pub(crate) fn collect(sets: &[&Index], sources: &[crate::source::Source]) -> Elsewhere {
        let mut out = Elsewhere::default();
        for (set, ix) in sets.iter().enumerate() {
            for sc in ix.classes.iter().filter(|c| !ix.is_rejected(c.obj)) {
                out.classes.push(ElsewhereClass {
                    name: sc.name.clone(),
                    provisioner: sc
                        .provisioner
                        .as_ref()
                        .map(|p| p.value.clone())
                        .unwrap_or_default(),
                    reclaim: sc
                        .reclaim
                        .as_ref()
                        .map_or(crate::kube::ReclaimPolicy::Delete, |r| r.value),
                    wait_for_first_consumer: sc.wait_for_first_consumer,
                    is_default: sc.is_default.is_some(),
                    file: Str::from(sources[ix.object(sc.obj).source].name.as_str()),
                    set,
                });
            }
            for d in &ix.csi_drivers {
                out.drivers.push((d.name.clone(), d.attach_required));
            }
            out.hints = std::mem::take(&mut out.hints).or(&ClusterHints::of(ix, sources));
        }
        out
    }

    /// What apply set `set` may assume from the others: each class defined the same way
    /// wherever it is defined; at most one default.
    pub(crate) fn for_set(&self, set: usize) -> Elsewhere {
        let mut classes: Vec<ElsewhereClass> = Vec::new();
        let mut conflicting = std::collections::HashSet::new();
        for c in self.classes.iter().filter(|c| c.set != set) {
            match classes.iter().find(|k| k.name == c.name) {
                Some(k) => {
                    let same = (
                        &k.provisioner,
                        k.reclaim,
                        k.wait_for_first_consumer,
                        k.is_default,
                    ) == (
                        &c.provisioner,
                        c.reclaim,
                        c.wait_for_first_consumer,
                        c.is_default,
                    );
                    if !same {
                        conflicting.insert(c.name.clone());
                    }
                }
                None => classes.push(c.clone()),
            }
        }
        classes.retain(|c| !conflicting.contains(&c.name));
        if classes.iter().filter(|c| c.is_default).count() > 1 {
            classes.iter_mut().for_each(|c| c.is_default = false);
        }
        Elsewhere {
            classes,
            drivers: self.drivers.clone(),
            hints: self.hints.clone(),
            file_order: self.file_order,
        }
    }
}

/// The key [`World::claim_by_key`] finds a claim by: its namespace and name.
fn claim_key<'a>(claims: &'a [Claim]) -> impl Fn(ClaimId) -> (&'a str, &'a str) {
    |id| {
        let k = &claims[id.idx()].key;
        (k.namespace.as_str(), k.name.as_str())
    }
}

/// The key [`World::volume_by_name`] finds a volume by: its name.
fn volume_key<'a>(volumes: &'a [Volume]) -> impl Fn(VolumeId) -> &'a str {
    |id| volumes[id.idx()].name.as_str()
}

/// Adds `item` unless it is there already; returns whether it was added. The lists this
/// keeps (a claim's or a volume's events, a claim's users) hold one or two items: they grow
/// one item at a time instead of to four at the first push, which on a large input saves
/// megabytes at the peak.
pub(crate) fn push_once<T: PartialEq>(list: &mut Vec<T>, item: T) -> bool {
    if list.contains(&item) {
        return false;
    }
    list.reserve_exact(1);
    list.push(item);
    true
}

/// A simulation that has not run (nothing loaded): the context of the rules that read only
/// the objects as written ([`crate::rules::Reads::Written`]), which run before the simulation.
pub(crate) fn unrun(options: &Options, cluster_given: bool) -> World {
    World::new(options, cluster_given || options.complete)
}

impl World {
    fn new(options: &Options, cluster_known: bool) -> World {
        World {
            claims: Vec::new(),
            volumes: Vec::new(),
            classes: Vec::new(),
            drivers: HashMap::new(),
            options: options.clone(),
            cluster_known,
            converged: true,
            next_uid: 0,
            claim_by_key: table::IdTable::default(),
            volume_by_name: table::IdTable::default(),
            template_claims: HashMap::new(),
            object_claims: HashMap::new(),
            object_volumes: HashMap::new(),
            static_only: Default::default(),
            rejected_classes: Default::default(),
            provisioning_events: HashMap::new(),
            podless: Default::default(),
            ordered_ready: Default::default(),
            pods: Vec::new(),
            statefulsets: Vec::new(),
            statefulset_by_key: HashMap::new(),
            provisioned_texts: HashMap::new(),
            index: find_match::VolumeIndex::default(),
            closest: HashMap::new(),
            hints: ClusterHints::default(),
            file_order: false,
            first_apply: false,
            late: Default::default(),
            claim_order: Vec::new(),
            last_tie: false,
        }
    }

    /// A UID for an object the simulation creates; shared, as the claimRef that binds the
    /// object repeats it.
    fn fresh_uid(&mut self) -> Str {
        self.next_uid += 1;
        Str::from(format!("00000000-0000-4000-8000-{:012x}", self.next_uid)).shared()
    }

    // ---- queries ------------------------------------------------------------------

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
    }

    /// Whether a pod still uses the claim (what pvc-protection waits for).
    pub fn in_use(&self, id: ClaimId) -> bool {
        self.claim(id)
            .used_by
            .iter()
            .any(|u| !self.podless.contains(u))
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
                None => Attach::Assumed {
                    why: match crate::drivers::ambiguous_class(&class.name) {
                        Some(meanings) => format!(
                            "StorageClass {} is not defined, and by its name it is {meanings}",
                            class.name
                        ),
                        None => format!(
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
        let mut shared: Option<Attach> = None;
        let pool = self.volumes.iter().filter(|v| {
            v.exists && v.spec.class == class && !matches!(v.origin, Origin::Provisioned { .. })
        });
        for v in pool {
            let a = attach::volume(&v.spec.source, v.spec.modes, v.spec.node_affinity, |d| {
                self.csi_driver(d)
            });
            match &shared {
                None => shared = Some(a),
                Some(s) if std::mem::discriminant(s) == std::mem::discriminant(&a) => {}
                Some(_) => return None,
            }
        }
        shared
    }

    /// What [`World::attachment`] rests on, when it was read from an assumed class (the claim
    /// has no volume yet).
    pub fn attachment_assumption(&self, id: ClaimId) -> Option<Assumption> {
        let from_volume = self.binding_of(id).is_some_and(|v| {
            let v = self.volume(v);
            !(matches!(v.origin, Origin::Provisioned { .. })
                && matches!(v.spec.source, crate::binding::SourceKind::Unknown))
        });
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
        match class.assumption() {
            Some(Assumption::DefaultClassExists) => "<the cluster's default>".into(),
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

    // ---- the controller loop ---------------------------------------------------------

    /// Runs the controller until nothing changes (as its resyncs do), then looks for races.
    pub(crate) fn run(&mut self) {
        self.converged = false;
        for _ in 0..64 {
            self.index = find_match::VolumeIndex::build(&self.volumes);
            let mut changed = false;
            let order: Vec<usize> = self
                .claim_order
                .iter()
                .map(|c| c.idx())
                .filter(|&i| i < self.claims.len())
                .chain(
                    (0..self.claims.len())
                        .filter(|i| !self.claim_order.iter().any(|c| c.idx() == *i)),
                )
                .collect();
            for i in order {
                if self.claims[i].exists
                    && !matches!(self.claims[i].state, ClaimState::Rejected(_))
                    && !self.waits_for_earlier_ordinal(ClaimId(i as u32))
                {
                    changed |= self.sync_claim(ClaimId(i as u32));
                }
            }
            for i in 0..self.volumes.len() {
                if self.volumes[i].exists {
                    changed |= self.sync_volume(VolumeId(i as u32));
                }
            }
            // Volumes that arrived late are Available from the second round on.
            if !self.late.is_empty() {
                self.late.clear();
                changed = true;
            }
            if !changed {
                self.converged = true;
                break;
            }
        }
        self.never_created();
        self.index = find_match::VolumeIndex::build(&self.volumes);
        self.mark_races();
        self.find_closest();
        // Only the loop above reads the index: the rules that query the world do not, and a
        // second run builds its own.
        self.index = find_match::VolumeIndex::default();
    }

    /// stateful_set_control.go (OrderedReady): the controller creates ordinal N's claims with
    /// pod N, and pod N only once every earlier pod is Running and Ready, which a pod whose
    /// claim is not Bound never is (the scheduler leaves it Pending).
    fn waits_for_earlier_ordinal(&self, id: ClaimId) -> bool {
        let c = self.claim(id);
        let Origin::Template {
            side, obj, ordinal, ..
        } = c.origin
        else {
            return false;
        };
        if !matches!(c.state, ClaimState::Pending(Pending::New))
            || !self.ordered_ready.contains(&(side, obj))
        {
            return false;
        }
        self.claims_of_statefulset(side, obj).iter().any(|&other| {
            let o = self.claim(other);
            o.exists
                && matches!(o.origin, Origin::Template { ordinal: n, .. } if n < ordinal)
                && !matches!(o.state, ClaimState::Bound { .. })
        })
    }

    /// Claims of an OrderedReady StatefulSet still waiting for an earlier ordinal when the
    /// controller settles are not created (yet): a later operation that lets the earlier
    /// ordinal bind creates them.
    fn never_created(&mut self) {
        for i in 0..self.claims.len() {
            let waits = self.claims[i].exists && self.waits_for_earlier_ordinal(ClaimId(i as u32));
            self.claims[i].unborn = waits;
        }
    }

    // ---- state changes -------------------------------------------------------------

    /// Sets a claim's state; the event is recorded once, as the controller emits it on the
    /// transition. Returns whether anything changed.
    fn set_claim(&mut self, id: ClaimId, state: ClaimState, event: Option<Event>) -> bool {
        let c = &mut self.claims[id.idx()];
        let mut changed = c.state != state;
        c.state = state;
        if let Some(e) = event {
            changed |= push_once(&mut c.events, e);
        }
        changed
    }

    fn push_volume_event(&mut self, v: VolumeId, e: Event) {
        push_once(&mut self.volumes[v.idx()].events, e);
    }

    fn set_volume_phase(&mut self, v: VolumeId, phase: VolumePhase) -> bool {
        let vol = &mut self.volumes[v.idx()];
        if vol.phase == phase {
            return false;
        }
        vol.phase = phase;
        true
    }
}
