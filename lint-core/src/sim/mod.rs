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
mod apply;
pub mod cause;
mod elsewhere;
pub mod events;
pub mod find_match;
pub mod load;
pub mod ops;
pub mod provision;
mod queries;
pub mod races;
mod reasons;
pub mod reclaim;
pub mod report;
pub mod state;
mod statefulset;
pub mod sync_claim;
pub mod sync_volume;
mod table;
pub mod timing;
pub mod whatif;
mod why;

use std::collections::HashMap;

pub use cause::{CauseKey, Role, Subject};
pub use elsewhere::{ClusterHints, Elsewhere, LocalCluster};
pub use ops::Operation;
pub use provision::ProvisionRefusal;
pub use report::{Located, Simulation};
pub use state::*;
pub use whatif::AfterClaimRefRemoval;

use crate::binding::fit::Mismatch;
use crate::index::Index;
use crate::model::ObjId;
use crate::options::Options;
use crate::string::Str;

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
    /// By namespace and name (see [`claim_key`]).
    claim_by_key: table::IdTable<ClaimId>,
    /// By name (see [`volume_key`]).
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
    /// While the controller loop runs: for each OrderedReady StatefulSet, the ordinals of its
    /// existing claims that are not Bound, with how many claims each (see
    /// [`World::waits_for_earlier_ordinal`]): kept as claims change, so the question is not
    /// a scan of the set's claims per claim.
    unbound_ordinals: HashMap<(Side, ObjId), std::collections::BTreeMap<i64, u32>>,
    /// The StatefulSets run, with what scaling and deleting them needs.
    statefulsets: Vec<statefulset::SetRecord>,
    /// The running ones, by namespace and name.
    statefulset_by_key: HashMap<(Str, Str), usize>,
    /// Bare Pods of the input, by namespace and name (for `delete pod/...`).
    pods: Vec<(Str, Str, Side, ObjId)>,
    /// The names of the pods each workload that mounts a claim runs, as the controllers name
    /// them (see [`apply::pod_names`]).
    consumer_pods: HashMap<(Side, ObjId), Box<[Str]>>,
    /// Class names the input's static volumes use without a StorageClass: assumed not to
    /// exist (see [`Assumption::StaticClassOnly`]).
    /// Each with the assumption behind it: a label of static volumes
    /// ([`Assumption::StaticClassOnly`]) or a class the API server rejects
    /// ([`Assumption::RejectedClassOnly`]).
    static_only: std::collections::BTreeMap<String, Assumption>,
    /// StorageClasses of the input the API server rejects (never created).
    rejected_classes: std::collections::HashSet<String>,
    /// VolumeSnapshots (namespace, name) the manifests define only at
    /// snapshot.storage.k8s.io/v1beta1, which the cluster's external-snapshotter does not serve
    /// (6.0 and later): they are never created, so a restore from one is refused.
    unserved_snapshots: std::collections::HashSet<(Str, Str)>,
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
    /// The volumes the input's other apply sets define (none when the cluster is known).
    elsewhere: Elsewhere,
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
    /// See [`timing::Timing::other_provisioning_race`].
    other_provisioning_race: bool,
    /// Some claim was synced before a matching volume of its apply existed, while its class
    /// provisions: which binds depends on timing (see `World::first_sync_without`).
    pub(crate) provisioning_raced: bool,
    /// By class: the attachment all its static volumes share, if they agree; found once
    /// each run converges (see [`World::pool_attachment`]).
    pool_attach: HashMap<Str, Option<crate::binding::attach::Attach>>,
    /// Classes some volume of the input names without being provisioned from them; found once
    /// each run converges (see [`World::is_static_pool_claim`]).
    static_classes: std::collections::HashSet<Str>,
    /// Claims a volume reserved for another claim skipped; found once each run converges
    /// (see [`World::reserved_and_skipped`]).
    skipped_claims: std::collections::HashSet<ClaimId>,
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
            unserved_snapshots: std::collections::HashSet::new(),
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
            unbound_ordinals: HashMap::new(),
            pods: Vec::new(),
            consumer_pods: HashMap::new(),
            statefulsets: Vec::new(),
            statefulset_by_key: HashMap::new(),
            provisioned_texts: HashMap::new(),
            index: find_match::VolumeIndex::default(),
            closest: HashMap::new(),
            hints: ClusterHints::default(),
            elsewhere: Elsewhere::default(),
            file_order: false,
            first_apply: false,
            late: Default::default(),
            claim_order: Vec::new(),
            last_tie: false,
            other_provisioning_race: false,
            provisioning_raced: false,
            pool_attach: HashMap::new(),
            static_classes: std::collections::HashSet::new(),
            skipped_claims: std::collections::HashSet::new(),
        }
    }

    /// A UID for an object the simulation creates; shared, as the claimRef that binds the
    /// object repeats it.
    fn fresh_uid(&mut self) -> Str {
        self.next_uid += 1;
        Str::from(format!("00000000-0000-4000-8000-{:012x}", self.next_uid)).shared()
    }

    // ---- the controller loop ---------------------------------------------------------

    /// Runs the controller until nothing changes (as its resyncs do), then looks for races.
    pub(crate) fn run(&mut self) {
        self.converged = false;
        self.unbound_ordinals = HashMap::new();
        for key in &self.ordered_ready {
            let mut ordinals = std::collections::BTreeMap::new();
            for &id in self.claims_of_statefulset(key.0, key.1) {
                if let Some((_, ordinal)) = self.unbound_ordinal(id) {
                    *ordinals.entry(ordinal).or_insert(0) += 1;
                }
            }
            self.unbound_ordinals.insert(*key, ordinals);
        }
        for _ in 0..64 {
            self.index = find_match::VolumeIndex::build(&self.volumes);
            let mut changed = false;
            let mut first = vec![false; self.claims.len()];
            for c in &self.claim_order {
                if let Some(f) = first.get_mut(c.idx()) {
                    *f = true;
                }
            }
            let order: Vec<usize> = self
                .claim_order
                .iter()
                .map(|c| c.idx())
                .filter(|&i| i < self.claims.len())
                .chain((0..self.claims.len()).filter(|&i| !first[i]))
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
        self.unbound_ordinals = HashMap::new();
        self.index = find_match::VolumeIndex::build(&self.volumes);
        self.mark_races();
        self.find_closest();
        self.pool_attach = self.pool_attachments();
        self.static_classes = self
            .volumes
            .iter()
            .filter(|v| v.exists && !matches!(v.origin, Origin::Provisioned { .. }))
            .map(|v| v.spec.class.clone())
            .collect();
        self.skipped_claims = self
            .volumes
            .iter()
            .filter(|v| v.exists)
            .filter_map(|v| v.skipped_by_reserved_claim.as_deref().map(|(c, _)| *c))
            .collect();
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
        if !matches!(c.state, ClaimState::Pending(Pending::New)) {
            return false;
        }
        // An earlier ordinal's claim that exists and is not Bound.
        self.unbound_ordinals
            .get(&(side, obj))
            .is_some_and(|ordinals| ordinals.range(..ordinal).next().is_some())
    }

    /// A claim of a StatefulSet's template that exists and is not Bound: the set and ordinal
    /// it holds back.
    fn unbound_ordinal(&self, id: ClaimId) -> Option<((Side, ObjId), i64)> {
        let c = self.claim(id);
        match c.origin {
            Origin::Template {
                side, obj, ordinal, ..
            } if c.exists && !matches!(c.state, ClaimState::Bound { .. }) => {
                Some(((side, obj), ordinal))
            }
            _ => None,
        }
    }

    /// Keeps [`World::unbound_ordinals`] true after claim `id` changed; `before` is what
    /// [`World::unbound_ordinal`] said before the change.
    fn track_unbound(&mut self, id: ClaimId, before: Option<((Side, ObjId), i64)>) {
        let after = self.unbound_ordinal(id);
        if before == after {
            return;
        }
        if let Some((key, ordinal)) = before {
            if let Some(ordinals) = self.unbound_ordinals.get_mut(&key) {
                if let Some(n) = ordinals.get_mut(&ordinal) {
                    *n -= 1;
                    if *n == 0 {
                        ordinals.remove(&ordinal);
                    }
                }
            }
        }
        if let Some((key, ordinal)) = after {
            if let Some(ordinals) = self.unbound_ordinals.get_mut(&key) {
                *ordinals.entry(ordinal).or_insert(0) += 1;
            }
        }
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
        let before = self.unbound_ordinal(id);
        let c = &mut self.claims[id.idx()];
        let mut changed = c.state != state;
        c.state = state;
        if let Some(e) = event {
            changed |= push_once(&mut c.events, e);
        }
        self.track_unbound(id, before);
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
