//! Typed views of what only a live cluster has: Pods where they run (spec.nodeName,
//! status.phase), VolumeAttachments, Nodes (readiness, the out-of-service taint,
//! status.volumesInUse), the status a PersistentVolume reports (phase, message), and which
//! objects a controller owns. Read like every other view: through [`Reader`], every field
//! with its span; an ill-typed field is a [`Diag`] and counts as absent.
//!
//! Used by the audit of a cluster's own objects (`pvlint cluster`, `Request::audit`).

use std::collections::{HashMap, HashSet};

use super::{Diag, ObjId, Object, Reader, Spanned};
use crate::node::{Node, ScalarKind};
use crate::string::Str;

/// `status.phase` of a Pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PodPhase {
    Pending,
    Running,
    Succeeded,
    Failed,
    Unknown,
}

impl PodPhase {
    fn parse(s: &str) -> PodPhase {
        match s {
            "Pending" => PodPhase::Pending,
            "Running" => PodPhase::Running,
            "Succeeded" => PodPhase::Succeeded,
            "Failed" => PodPhase::Failed,
            _ => PodPhase::Unknown,
        }
    }

    /// The pod's containers have finished: it no longer uses its volumes.
    pub fn finished(self) -> bool {
        matches!(self, PodPhase::Succeeded | PodPhase::Failed)
    }
}

/// A claim a pod mounts: `persistentVolumeClaim.claimName`, or the claim a generic ephemeral
/// volume creates (`<pod>-<volume>`).
#[derive(Debug, Clone)]
pub struct PodClaim {
    pub name: Str,
}

#[derive(Debug, Clone)]
pub struct LivePod {
    pub obj: ObjId,
    pub name: Str,
    pub namespace: Str,
    /// spec.nodeName: the node the scheduler bound it to.
    pub node: Option<Spanned<Str>>,
    /// status.phase (Pending when the server reported none).
    pub phase: PodPhase,
    pub claims: Vec<PodClaim>,
    /// metadata.deletionTimestamp is set: it is terminating.
    pub deleting: bool,
}

#[derive(Debug, Clone)]
pub struct LiveAttachment {
    pub obj: ObjId,
    pub name: Str,
    /// spec.attacher: the CSI driver.
    pub attacher: Str,
    /// spec.nodeName.
    pub node: Spanned<Str>,
    /// spec.source.persistentVolumeName.
    pub volume: Option<Str>,
    /// status.attached.
    pub attached: bool,
    /// status.detachError.message.
    pub detach_error: Option<Str>,
    pub deleting: bool,
}

#[derive(Debug, Clone)]
pub struct LiveNode {
    pub name: Str,
    /// The Ready condition's status: Some(true) "True", Some(false) "False" or "Unknown".
    pub ready: Option<bool>,
    /// The `node.kubernetes.io/out-of-service` taint (non-graceful node shutdown).
    pub out_of_service: bool,
    /// status.volumesInUse: the volumes kubelet reports mounted (unique volume names).
    pub volumes_in_use: HashSet<Str>,
}

/// An event the cluster recorded about a claim or a volume (core/v1 Event, or
/// events.k8s.io/v1 with `regarding` and `note`), as `kubectl get events` lists it.
#[derive(Debug, Clone)]
pub struct RecordedEvent {
    /// The object it is about: PersistentVolumeClaim or PersistentVolume.
    pub about_kind: Str,
    pub about_namespace: Str,
    pub about_name: Str,
    /// Normal or Warning.
    pub kind: Str,
    pub reason: Str,
    pub message: Str,
    /// How often (count, or series.count; 1 when the server says nothing).
    pub count: u32,
    /// lastTimestamp, or eventTime: for ordering.
    pub last: Str,
}

/// What a PersistentVolume's status says.
#[derive(Debug, Clone)]
pub struct VolumeStatus {
    pub phase: Option<Spanned<Str>>,
    /// status.message (set with Failed: the reclaim error).
    pub message: Option<Str>,
}

/// The live-only facts of a cluster state.
#[derive(Debug, Default)]
pub struct Live {
    pub pods: Vec<LivePod>,
    pub attachments: Vec<LiveAttachment>,
    pub nodes: Vec<LiveNode>,
    /// Events about claims and volumes, oldest first.
    pub events: Vec<RecordedEvent>,
    /// Objects with a controller ownerReference (a ReplicaSet of a Deployment, a Job of a
    /// CronJob, a Pod of any of them): their owner is the workload to judge.
    pub controlled: HashSet<ObjId>,
    /// Type errors found while reading (a real API server never sends them).
    pub diags: Vec<Diag>,
    volume_status: HashMap<ObjId, VolumeStatus>,
    node_by_name: HashMap<String, usize>,
    pods_by_claim: HashMap<(String, String), Vec<usize>>,
}

impl Live {
    /// Reads the live-only views of every object of a cluster state (an object's id is its
    /// position).
    pub fn read(objects: &[Object]) -> Live {
        let mut live = Live::default();
        let mut diags = Vec::new();
        for (id, obj) in objects.iter().enumerate() {
            let group = obj.api_version.rsplit_once('/').map_or("", |(g, _)| g);
            let mut r = Reader::new(obj, id, &mut diags);
            if controlled(&mut r) {
                live.controlled.insert(id);
            }
            match (group, obj.kind.as_str()) {
                ("", "Pod") => {
                    let pod = read_pod(&mut r);
                    for c in &pod.claims {
                        live.pods_by_claim
                            .entry((pod.namespace.to_string(), c.name.to_string()))
                            .or_default()
                            .push(live.pods.len());
                    }
                    live.pods.push(pod);
                }
                ("storage.k8s.io", "VolumeAttachment") => {
                    if let Some(a) = read_attachment(&mut r) {
                        live.attachments.push(a);
                    }
                }
                ("", "Node") => {
                    let n = read_node(&mut r);
                    live.node_by_name
                        .insert(n.name.to_string(), live.nodes.len());
                    live.nodes.push(n);
                }
                ("", "Event") | ("events.k8s.io", "Event") => {
                    if let Some(e) = read_event(&mut r, group.is_empty()) {
                        live.events.push(e);
                    }
                }
                ("", "PersistentVolume") => {
                    let phase = r.string("status.phase");
                    let message = r.string("status.message").map(|s| s.value);
                    live.volume_status
                        .insert(id, VolumeStatus { phase, message });
                }
                _ => {}
            }
        }
        live.diags = diags;
        live.events.sort_by(|a, b| a.last.cmp(&b.last));
        live
    }

    /// The events the cluster recorded about an object, oldest first.
    pub fn events_about<'a>(
        &'a self,
        kind: &'a str,
        namespace: &'a str,
        name: &'a str,
    ) -> impl Iterator<Item = &'a RecordedEvent> {
        self.events.iter().filter(move |e| {
            e.about_kind == kind && e.about_name == name && e.about_namespace == namespace
        })
    }

    pub fn node(&self, name: &str) -> Option<&LiveNode> {
        self.node_by_name.get(name).map(|&i| &self.nodes[i])
    }

    /// Pods that mount a claim.
    pub fn pods_using(&self, namespace: &str, claim: &str) -> impl Iterator<Item = &LivePod> {
        self.pods_by_claim
            .get(&(namespace.to_string(), claim.to_string()))
            .into_iter()
            .flatten()
            .map(|&i| &self.pods[i])
    }

    /// The status a PersistentVolume object reports.
    pub fn volume_status(&self, obj: ObjId) -> Option<&VolumeStatus> {
        self.volume_status.get(&obj)
    }
}

/// An event about a claim or a volume; None for others. `core`: core/v1 (`involvedObject`,
/// `message`, `count`, `lastTimestamp`), else events.k8s.io/v1 (`regarding`, `note`,
/// `series.count` or `deprecatedCount`, `eventTime`).
fn read_event(r: &mut Reader<'_>, core: bool) -> Option<RecordedEvent> {
    let about = if core { "involvedObject" } else { "regarding" };
    let s = |r: &mut Reader<'_>, path: &str| r.string(path).map(|s| s.value).unwrap_or_default();
    let about_kind = s(r, &format!("{about}.kind"));
    if about_kind != "PersistentVolumeClaim" && about_kind != "PersistentVolume" {
        return None;
    }
    let count_path = if core { "count" } else { "series.count" };
    let count = r
        .node(count_path)
        .or_else(|| r.node("deprecatedCount"))
        .and_then(Node::as_scalar)
        .and_then(|c| c.text.parse::<u32>().ok())
        .unwrap_or(1);
    let last = [
        "lastTimestamp",
        "deprecatedLastTimestamp",
        "series.lastObservedTime",
        "eventTime",
    ]
    .iter()
    .find_map(|p| r.string(p).map(|s| s.value))
    .unwrap_or_default();
    Some(RecordedEvent {
        about_namespace: s(r, &format!("{about}.namespace")),
        about_name: s(r, &format!("{about}.name")),
        about_kind,
        kind: s(r, "type"),
        reason: s(r, "reason"),
        message: s(r, if core { "message" } else { "note" }),
        count,
        last,
    })
}

/// metadata.ownerReferences has an entry with `controller: true`.
fn controlled(r: &mut Reader<'_>) -> bool {
    let Some(owners) = r.seq("metadata.ownerReferences") else {
        return false;
    };
    owners.iter().any(|o| {
        o.get("controller")
            .and_then(Node::as_scalar)
            .is_some_and(|s| s.kind == ScalarKind::Bool(true))
    })
}

fn read_pod(r: &mut Reader<'_>) -> LivePod {
    let obj = r.obj;
    let phase = r.string("status.phase");
    let mut claims = Vec::new();
    if let Some(vols) = r.seq("spec.volumes") {
        for (i, v) in vols.iter().enumerate() {
            let base = format!("spec.volumes[{i}]");
            if let Some(pvc) = v.get("persistentVolumeClaim").filter(|n| !n.is_null()) {
                let path = format!("{base}.persistentVolumeClaim");
                if let Some(c) = r.string_in(pvc, &path, "claimName") {
                    claims.push(PodClaim { name: c.value });
                }
            } else if v.get("ephemeral").is_some_and(|n| !n.is_null()) {
                // Generic ephemeral volumes: the claim is named <pod>-<volume> (ephemeral.VolumeClaimName).
                if let Some(vname) = r.string_in(v, &base, "name") {
                    claims.push(PodClaim {
                        name: Str::from(format!("{}-{}", obj.name, vname.value)),
                    });
                }
            }
        }
    }
    LivePod {
        obj: r.id,
        name: obj.name.clone(),
        namespace: obj.namespace.clone().unwrap_or_else(|| "default".into()),
        node: r.string("spec.nodeName").filter(|s| !s.value.is_empty()),
        phase: phase.map_or(PodPhase::Pending, |p| PodPhase::parse(&p.value)),
        claims,
        deleting: r.node("metadata.deletionTimestamp").is_some(),
    }
}

fn read_attachment(r: &mut Reader<'_>) -> Option<LiveAttachment> {
    let obj = r.obj;
    let node = r.string("spec.nodeName")?;
    Some(LiveAttachment {
        obj: r.id,
        name: obj.name.clone(),
        attacher: r
            .string("spec.attacher")
            .map(|s| s.value)
            .unwrap_or_default(),
        node,
        volume: r
            .string("spec.source.persistentVolumeName")
            .map(|s| s.value),
        attached: r.bool("status.attached").is_some_and(|b| b.value),
        detach_error: r.string("status.detachError.message").map(|s| s.value),
        deleting: r.node("metadata.deletionTimestamp").is_some(),
    })
}

fn read_node(r: &mut Reader<'_>) -> LiveNode {
    let obj = r.obj;
    let mut ready = None;
    if let Some(conds) = r.seq("status.conditions") {
        for c in conds {
            if c.get("type").and_then(Node::as_str) == Some("Ready") {
                ready = c.get("status").and_then(Node::as_str).map(|s| s == "True");
            }
        }
    }
    let out_of_service = r.seq("spec.taints").is_some_and(|ts| {
        ts.iter()
            .any(|t| t.get("key").and_then(Node::as_str) == Some(OUT_OF_SERVICE_TAINT))
    });
    let volumes_in_use = r
        .strings("status.volumesInUse")
        .map(|l| l.value.into_iter().map(|s| s.value).collect())
        .unwrap_or_default();
    LiveNode {
        name: obj.name.clone(),
        ready,
        out_of_service,
        volumes_in_use,
    }
}

/// The taint of non-graceful node shutdown (GA in 1.28): the attach/detach controller
/// force-detaches volumes from a node that carries it.
pub const OUT_OF_SERVICE_TAINT: &str = "node.kubernetes.io/out-of-service";

/// The unique volume name kubelet reports in `status.volumesInUse` for a CSI volume
/// (`kubernetes.io/csi/<driver>^<volumeHandle>`, csi_plugin.go GetVolumeName).
pub fn csi_unique_name(driver: &str, handle: &str) -> String {
    format!("kubernetes.io/csi/{driver}^{handle}")
}

/// How many Nodes of a cluster state take a workload's pods, and in how many zones: those not
/// cordoned (`spec.unschedulable`), without a NoSchedule or NoExecute taint (a control-plane
/// node's), and not reported NotReady; zones by `topology.kubernetes.io/zone`. None when the
/// state lists no Node.
pub fn node_layout(objects: &[Object]) -> Option<(usize, usize)> {
    let mut diags = Vec::new();
    let mut listed = false;
    let mut schedulable = 0;
    let mut zones: HashSet<Str> = HashSet::new();
    for (id, obj) in objects.iter().enumerate() {
        if obj.kind != "Node" || obj.api_version != "v1" || obj.tree_released() {
            continue;
        }
        listed = true;
        let mut r = Reader::new(obj, id, &mut diags);
        let node = read_node(&mut r);
        let cordoned = r.bool("spec.unschedulable").is_some_and(|b| b.value);
        let tainted = r.seq("spec.taints").is_some_and(|ts| {
            ts.iter().any(|t| {
                matches!(
                    t.get("effect").and_then(Node::as_str),
                    Some("NoSchedule" | "NoExecute")
                )
            })
        });
        if cordoned || tainted || node.ready == Some(false) {
            continue;
        }
        schedulable += 1;
        if let Some(zone) = obj
            .root()
            .at("metadata.labels")
            .and_then(|l| l.get("topology.kubernetes.io/zone"))
            .and_then(Node::as_str)
        {
            zones.insert(Str::from(zone));
        }
    }
    listed.then_some((schedulable, zones.len()))
}
