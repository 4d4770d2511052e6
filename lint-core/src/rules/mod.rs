//! The rule registry: one rule per file in this folder, each listed below (the test
//! `every_rule_file_is_registered` checks that none is missing).
//!
//! A rule file defines `pub const RULE: Rule` with its id, family, default severity and
//! documentation in fixed sections, and a `check` function that reads the [`Context`] and
//! reports through a [`Sink`]. Rules that talk about binding, provisioning, attachment or
//! reclaim read the simulator's outcome ([`Context::sim`]); none re-derives it. Fixtures live
//! in `tests/fixtures/<rule-id>/` (`bad*.yaml` must trigger the rule, `good*.yaml` must not);
//! `bad.yaml` and `good.yaml` double as the documentation's example and fix.

use std::fmt;

use serde::Serialize;

use crate::finding::{
    Consequence, Edit, EventText, Finding, Location, ObjectRef, Phase, Related, Severity,
    StorageFate, Suggestion,
};
use crate::index::Index;
use crate::model::{Field, ObjId, Object};
use crate::node::{IntoStr, Str};
use crate::options::Options;
use crate::sim::{self, CauseKey, ClaimId, ClaimState, Role, Side, Storage, VolumeId, World};
use crate::source::{Source, Span};

mod bind_completed_without_volume;
mod claim_lost;
mod claim_pending;
mod claim_ref_conflict;
mod claim_will_be_lost;
mod dangling_volume_name;
mod delete_policy_in_tree;
mod delete_policy_on_imported_volume;
mod delete_policy_without_finalizer;
mod duplicate_object;
mod hostpath_persistent_volume;
mod ignored_content;
mod implicit_default_class;
mod invalid_field_value;
mod invalid_nfs_server;
mod invalid_suppression;
mod multiple_default_storage_classes;
mod parse_error;
mod prebound_volume_mismatch;
mod provisioner_not_served;
mod recycle_policy_deprecated;
mod removed_api_version;
mod retention_deletes_data;
mod rwo_rolling_surge;
mod rwo_shared_by_replicas;
mod server_populated_fields;
mod stale_claim_ref_uid;
mod stale_volume_attachment;
mod static_pool_shortfall;
mod storage_class_mismatch;
mod storage_class_not_found;
mod unbindable_claim;
mod unknown_field;
mod unrendered_template;
mod update_rejected;
mod volume_failed;
mod volume_released;
mod volume_will_be_deleted;

/// Every rule, by id.
pub static ALL: &[&Rule] = &[
    &bind_completed_without_volume::RULE,
    &claim_lost::RULE,
    &claim_pending::RULE,
    &claim_ref_conflict::RULE,
    &claim_will_be_lost::RULE,
    &dangling_volume_name::RULE,
    &duplicate_object::RULE,
    &delete_policy_in_tree::RULE,
    &delete_policy_on_imported_volume::RULE,
    &delete_policy_without_finalizer::RULE,
    &hostpath_persistent_volume::RULE,
    &ignored_content::RULE,
    &implicit_default_class::RULE,
    &invalid_field_value::RULE,
    &invalid_nfs_server::RULE,
    &invalid_suppression::RULE,
    &multiple_default_storage_classes::RULE,
    &parse_error::RULE,
    &prebound_volume_mismatch::RULE,
    &provisioner_not_served::RULE,
    &recycle_policy_deprecated::RULE,
    &removed_api_version::RULE,
    &rwo_rolling_surge::RULE,
    &rwo_shared_by_replicas::RULE,
    &server_populated_fields::RULE,
    &stale_claim_ref_uid::RULE,
    &stale_volume_attachment::RULE,
    &static_pool_shortfall::RULE,
    &storage_class_mismatch::RULE,
    &storage_class_not_found::RULE,
    &unbindable_claim::RULE,
    &unknown_field::RULE,
    &unrendered_template::RULE,
    &retention_deletes_data::RULE,
    &update_rejected::RULE,
    &volume_failed::RULE,
    &volume_released::RULE,
    &volume_will_be_deleted::RULE,
];

/// Rules that judge only a live cluster's own objects (`pvlint cluster`, an audit): they read
/// what the cluster reports (phases, pods on nodes, VolumeAttachments) and the simulation of
/// that state. Their fixtures are cluster states (header `# pvlint: cluster --cluster-state FILE`).
pub static CLUSTER_ONLY: &[&str] = &[
    "claim-lost",
    "claim-pending",
    "stale-volume-attachment",
    "volume-failed",
    "volume-released",
];

/// Rules of `lint` that also judge a live cluster's own objects in an audit. The others are
/// about applying manifests (copied identity, server-populated fields, admission, fields the
/// API server would reject), which objects that already exist have been through, or their
/// live counterpart is a cluster-only rule (a Pending claim is `claim-pending`, a Lost one
/// `claim-lost`, a Released volume `volume-released`).
pub static ALSO_ON_CLUSTER: &[&str] = &[
    "delete-policy-in-tree",
    "delete-policy-without-finalizer",
    "hostpath-persistent-volume",
    "invalid-nfs-server",
    "invalid-suppression",
    "multiple-default-storage-classes",
    "recycle-policy-deprecated",
    "retention-deletes-data",
    "rwo-rolling-surge",
    "rwo-shared-by-replicas",
];

/// Where a rule runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `lint`: manifests (applied onto the cluster state when one is given).
    Manifests,
    /// An audit of a live cluster's objects only.
    Cluster,
    /// Both.
    Both,
}

/// Where a rule runs.
pub fn scope(id: &str) -> Scope {
    if CLUSTER_ONLY.contains(&id) {
        Scope::Cluster
    } else if ALSO_ON_CLUSTER.contains(&id) {
        Scope::Both
    } else {
        Scope::Manifests
    }
}

/// The hazard family a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// UIDs, claimRef.uid, resourceVersion, bind annotations copied from another cluster.
    StaleIdentity,
    /// Claims that will not bind, or bind to the wrong volume.
    Binding,
    /// ReadWriteOnce(Pod) claims shared by pods that cannot share them.
    RwoSurge,
    /// Reclaim policies that delete or leak storage.
    Reclaim,
    /// Input that is not valid for the API server.
    Validity,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::StaleIdentity => "stale-identity",
            Family::Binding => "binding",
            Family::RwoSurge => "rwo-surge",
            Family::Reclaim => "reclaim",
            Family::Validity => "validity",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule's documentation, in fixed sections.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Docs {
    /// What it does: the pattern the rule looks for.
    pub what: &'static str,
    /// Why is this bad: what the cluster does with it.
    pub why: &'static str,
    /// A manifest that triggers the rule (its `bad.yaml` fixture).
    pub example: &'static str,
    /// How to fix it, in prose.
    pub fix: &'static str,
    /// The fixed manifest (its `good.yaml` fixture).
    pub fixed: &'static str,
    /// Where the rule can be wrong: what it assumes, what it cannot see.
    pub known_problems: &'static str,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub family: Family,
    pub severity: Severity,
    /// One line for the rule table.
    pub summary: &'static str,
    pub docs: Docs,
    #[serde(skip)]
    pub(crate) check: fn(&Context<'_>, &mut Sink<'_>),
    /// What the rule reads, which decides when it runs.
    #[serde(skip)]
    pub(crate) reads: Reads,
}

/// What a rule reads: it decides when the rule runs (see `lint::run_rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads {
    /// The typed views and the simulation's outcomes: runs after the simulation.
    Simulation,
    /// The objects as written (their YAML trees, through `Object::root`) and never the
    /// simulation: runs before it, while the trees are alive, and its context's simulation
    /// is one that has not run (nothing loaded). The trees are released before the
    /// simulation: on a large input they take as much memory as it does.
    Written,
}

pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.id == id)
}

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
}

impl Context<'_> {
    pub fn obj(&self, id: ObjId) -> &Object {
        self.index.object(id)
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

    /// The simulated claims a claim view stands for: the claim of a PVC manifest, or every
    /// claim a StatefulSet creates from a volumeClaimTemplate.
    /// The claims a workload's pods mount that only one node (ReadWriteOnce) or one pod
    /// (ReadWriteOncePod) may use, with the pod volume that mounts each.
    pub fn exclusive_claims<'w>(
        &'w self,
        w: &'w crate::model::Workload,
    ) -> impl Iterator<Item = (&'w crate::model::ClaimUse, ClaimId, &'w crate::sim::Claim)> + 'w
    {
        w.claims.iter().filter_map(move |u| {
            let cid = self.sim.claim_named(&w.namespace, &u.claim.value)?;
            let c = self.sim.claim(cid);
            c.spec.modes.exclusive_only().then_some((u, cid, c))
        })
    }

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
            ClaimState::Pending(p) => w.pending_event(p),
            ClaimState::Lost(_) => w.lost_event_of(id),
            _ => None,
        };
        let what = match &c.state {
            ClaimState::Rejected(_) => "is never created".to_string(),
            _ => format!("ends {:?}", phase.expect("not rejected")),
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
            event: event.map(event_text),
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
        let storage = match &v.storage {
            s if s.is_deleted() => Some(StorageFate::Deleted),
            Storage::Leaked => Some(StorageFate::Leaked),
            Storage::DeleteFailed { .. } | Storage::RecycleFailed { .. } => Some(StorageFate::Kept),
            _ => None,
        };
        Consequence {
            summary: Str::from(format!(
                "volume {} ends {phase:?}: {}",
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
            event: v.events.last().cloned().map(event_text),
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

fn event_text(e: sim::Event) -> EventText {
    EventText {
        kind: Str::from(format!("{:?}", e.kind)),
        reason: Str::from(format!("{:?}", e.reason)),
        message: e.message,
    }
}

/// Collects one rule's findings.
pub(crate) struct Sink<'a> {
    pub rule: &'static Rule,
    pub out: &'a mut Vec<Finding>,
    /// The rule's texts so far: findings that say the same thing share one copy of it.
    texts: Texts,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(rule: &'static Rule, out: &'a mut Vec<Finding>) -> Sink<'a> {
        Sink {
            rule,
            out,
            texts: Texts::default(),
        }
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        if let Some(last) = self.out.last_mut() {
            self.texts.finding(last);
        }
    }
}

/// One copy of each text a rule writes into many findings (the consequence of the same
/// rollout, the same assumption, "the claim's access modes are RWO"), shared by count. Only
/// the headline, which names the object, is left alone. A finding's texts are shared once it is
/// complete: when the rule reports the next one, or is done.
#[derive(Default)]
struct Texts(std::collections::HashSet<Str>);

impl Texts {
    fn share(&mut self, s: &mut Str) {
        if !s.is_heap() {
            return;
        }
        match self.0.get(s.as_str()) {
            Some(t) => *s = t.clone(),
            None => {
                let t = std::mem::take(s).shared();
                self.0.insert(t.clone());
                *s = t;
            }
        }
    }

    fn finding(&mut self, f: &mut Finding) {
        self.share(&mut f.help);
        if let Some(c) = &mut f.consequence {
            self.share(&mut c.summary);
            c.assumptions.iter_mut().for_each(|a| self.share(a));
            if let Some(e) = &mut c.event {
                self.share(&mut e.message);
            }
        }
        if let Some(s) = &mut f.suggestion {
            self.share(&mut s.description);
            if let Some(snippet) = &mut s.snippet {
                self.share(snippet);
            }
        }
        f.related
            .iter_mut()
            .for_each(|r| self.share(&mut r.message));
    }
}

impl fmt::Debug for Sink<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sink({})", self.rule.id)
    }
}

impl Sink<'_> {
    fn push(
        &mut self,
        object: Option<ObjectRef>,
        path: &str,
        location: Location,
        message: String,
    ) -> &mut Finding {
        if let Some(last) = self.out.last_mut() {
            self.texts.finding(last);
        }
        self.out.push(Finding {
            rule: Str::from_static(self.rule.id),
            family: Str::from_static(self.rule.family.as_str()),
            severity: self.rule.severity,
            message: Str::from(message),
            consequence: None,
            object,
            path: Str::from(path),
            location,
            help: Str::default(),
            suggestion: None,
            related: Vec::new(),
            recorded: Vec::new(),
            apply_set: None,
            cause: None,
        });
        self.out.last_mut().expect("just pushed")
    }

    /// Reports a finding at `field` of manifest object `obj`, with the rule's default severity.
    /// `headline` says what is wrong on which object, briefly.
    pub fn report(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        headline: impl Into<String>,
    ) -> &mut Finding {
        let o = ctx.obj(obj);
        self.push(
            Some(o.objref()),
            &field.path,
            ctx.location(o, field),
            headline.into(),
        )
    }

    /// Reports a problem found while reading the input (see [`crate::model::Diag`]).
    pub fn report_diag(&mut self, sources: &[Source], d: &crate::model::Diag) -> &mut Finding {
        let location = Location::new(d.source, &sources[d.source].name, d.document, d.field.span);
        let f = self.push(
            d.object.clone(),
            &d.field.path,
            location,
            d.message.to_string(),
        );
        f.severity = d.severity;
        f.help = Str::from(&d.help);
        f.suggestion = d.suggestion.clone();
        f
    }
}

impl Finding {
    /// This finding is the specific report of a root cause.
    pub fn root_cause(&mut self, key: CauseKey) -> &mut Self {
        self.cause = Some(Box::new((key, Role::Cause)));
        self
    }

    /// This finding reports a consequence of a root cause; it is dropped when a rule reports
    /// the cause itself.
    pub fn consequence_of(&mut self, key: CauseKey) -> &mut Self {
        self.cause = Some(Box::new((key, Role::Consequence)));
        self
    }

    pub fn consequence(&mut self, c: Consequence) -> &mut Self {
        self.consequence = Some(Box::new(c));
        self
    }

    /// Live clusters: the events the cluster recorded about `kind` `namespace/name`.
    pub fn recorded(
        &mut self,
        live: &crate::model::live::Live,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> &mut Self {
        self.recorded = live
            .events_about(kind, namespace, name)
            .map(|e| crate::finding::RecordedEvent {
                kind: e.kind.clone(),
                reason: e.reason.clone(),
                message: e.message.clone(),
                count: e.count,
            })
            .collect();
        self
    }

    pub fn help(&mut self, help: impl IntoStr) -> &mut Self {
        self.help = help.into_str();
        self
    }

    pub fn severity(&mut self, s: Severity) -> &mut Self {
        self.severity = s;
        self
    }

    /// A suggestion whose snippet shows the shape of the fix.
    pub fn suggest(
        &mut self,
        description: impl IntoStr,
        snippet: Option<impl IntoStr>,
    ) -> &mut Self {
        self.suggestion = Some(Suggestion {
            description: description.into_str(),
            snippet: snippet.map(IntoStr::into_str),
            applicability: crate::finding::Applicability::Illustration,
            edits: Vec::new(),
        });
        self
    }

    /// A suggestion that replaces the text at `span` with `replacement`, exactly.
    pub fn suggest_replace(
        &mut self,
        description: impl IntoStr,
        span: Span,
        replacement: impl Into<String>,
    ) -> &mut Self {
        let replacement = replacement.into();
        self.suggestion = Some(Suggestion {
            description: description.into_str(),
            snippet: Some(Str::from(&replacement)),
            applicability: crate::finding::Applicability::Exact,
            edits: vec![Edit {
                line: span.start.line,
                column: span.start.column,
                end_line: span.end.line,
                end_column: span.end.column,
                replacement: Str::from(replacement),
            }],
        });
        self
    }

    pub(crate) fn related(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        message: impl IntoStr,
    ) -> &mut Self {
        let o = ctx.obj(obj);
        if self.related.is_empty() {
            // Most findings point at one or two other places: not the default room for four.
            self.related.reserve_exact(2);
        }
        self.related.push(Related {
            message: message.into_str(),
            location: ctx.location(o, field),
        });
        self
    }
}

/// What rule files import.
#[allow(unused_imports)]
pub(crate) mod prelude {
    pub(crate) use super::{claim_ref, Context, Docs, Family, Reads, Rule, Sink};
    pub(crate) use crate::binding::attach::Attach;
    pub(crate) use crate::binding::fit::{Check, Mismatch};
    pub(crate) use crate::finding::{Consequence, Phase, Severity, StorageFate};
    pub(crate) use crate::kube::{self, AccessModes, ReclaimPolicy};
    pub(crate) use crate::model::{ClaimClass, Field, Pv, Pvc, Workload};
    pub(crate) use crate::node::{IntoStr, Str};
    pub(crate) use crate::sim::{
        Assumption, BindHow, CauseKey, ClaimId, ClaimPhase, ClaimState, Lost, Pending, Side,
        Storage, Subject, VolumeId, VolumePhase,
    };
}

/// What a hazard between a workload's pods on different nodes assumes about where they run:
/// nothing when a required anti-affinity keeps them apart; that the cluster has several nodes
/// otherwise, though the input's one-node hint (a hostPath volume without node affinity)
/// makes that unlikely.
pub(crate) fn node_spread_assumption(
    sim: &sim::World,
    placement: &crate::model::Placement,
) -> Option<String> {
    if *placement == crate::model::Placement::Apart {
        return None;
    }
    Some(match sim.one_node_hint() {
        Some((volume, file)) => sim::Assumption::SeveralNodesThoughOneNodeVolume {
            volume: volume.clone(),
            file: file.clone(),
        }
        .describe(),
        None => sim::Assumption::PodsOnSeveralNodes.describe(),
    })
}

#[cfg(test)]
mod tests {
    /// Adding a rule = one file + one line here: a file that is not listed fails this test.
    #[test]
    fn every_rule_file_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rs") && n != "mod.rs")
            .map(|n| n.trim_end_matches(".rs").replace('_', "-"))
            .collect();
        files.sort();
        let mut ids: Vec<String> = super::ALL.iter().map(|r| r.id.to_string()).collect();
        ids.sort();
        assert_eq!(files, ids, "src/rules/*.rs and rules::ALL differ");
    }
}
