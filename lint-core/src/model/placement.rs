//! Where a workload's pods may run: the scheduling constraints of a pod template that decide
//! whether two of its pods share a node (and so a ReadWriteOnce volume).

use super::Reader;
use crate::node::Node;

/// Where a workload's pods may run, from the pod template's scheduling constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// The scheduler chooses among the cluster's nodes (which the input does not show).
    Scheduler,
    /// Every pod on one node: `nodeName`, or a required `kubernetes.io/hostname` node selector
    /// or node affinity naming one node.
    OneNode(String),
    /// No two pods on one node: a required podAntiAffinity on `kubernetes.io/hostname` against
    /// the pods' own labels (the scheduler's InterPodAffinity filter).
    Apart,
    /// Every pod on the node of the first: a required podAffinity on `kubernetes.io/hostname`
    /// against the pods' own labels, in their namespace. The first pod may go anywhere (no pod
    /// matches yet, and it matches its own term: `satisfyPodAffinity` in the scheduler's
    /// interpodaffinity/filtering.go); each later one, a rolling update's surge pod included
    /// (the old pods carry the labels too), only where one runs.
    Together,
}

const HOSTNAME: &str = "kubernetes.io/hostname";

/// The placement the pod spec at `pod` (a path) asks for; `labels` are the pods' labels.
pub(super) fn placement(
    r: &mut Reader<'_>,
    pod: &str,
    labels: &crate::binding::Labels,
) -> Placement {
    let s = |r: &mut Reader<'_>, path: &str| r.node(path).and_then(Node::as_str).map(String::from);
    if let Some(node) = s(r, &format!("{pod}.nodeName")).filter(|n| !n.is_empty()) {
        return Placement::OneNode(node);
    }
    // A key with dots: looked up in the map, not through a path.
    let selector = r
        .node(&format!("{pod}.nodeSelector"))
        .and_then(|n| n.get(HOSTNAME))
        .and_then(Node::as_str)
        .map(String::from);
    if let Some(node) = selector {
        return Placement::OneNode(node);
    }
    // nodeSelectorTerms are ORed: one term naming one node pins the pods to it.
    let terms = r
        .node(&format!(
            "{pod}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
        ))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    if let [term] = terms {
        let exprs = term
            .get("matchExpressions")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        for e in exprs {
            let key = e.get("key").and_then(Node::as_str);
            let op = e.get("operator").and_then(Node::as_str);
            let values = e.get("values").and_then(Node::as_seq).unwrap_or_default();
            if let (Some(HOSTNAME), Some("In"), [v]) = (key, op, values) {
                if let Some(v) = v.as_str() {
                    return Placement::OneNode(v.to_string());
                }
            }
        }
    }
    // Only a term on kubernetes.io/hostname that plainly selects the pods' own labels in their
    // own namespace counts: a term with namespaces, a namespaceSelector or matchLabelKeys
    // (pod-template-hash: a new revision's first pod matches no running pod of its own
    // revision) is left to the scheduler.
    let own_node_term = |r: &mut Reader<'_>, affinity: &str| {
        r.node(&format!(
            "{pod}.affinity.{affinity}.requiredDuringSchedulingIgnoredDuringExecution"
        ))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .any(|term| {
            term.get("topologyKey").and_then(Node::as_str) == Some(HOSTNAME)
                && [
                    "namespaces",
                    "namespaceSelector",
                    "matchLabelKeys",
                    "mismatchLabelKeys",
                ]
                .iter()
                .all(|k| term.get(k).is_none_or(Node::is_null))
                && term
                    .get("labelSelector")
                    .is_some_and(|sel| selects(sel, labels))
        })
    };
    if own_node_term(r, "podAffinity") {
        return Placement::Together;
    }
    let apart = own_node_term(r, "podAntiAffinity");
    if apart {
        Placement::Apart
    } else {
        Placement::Scheduler
    }
}

/// Whether a label selector (as written) selects these labels; an empty or null selector
/// selects nothing here (an affinity term's labelSelector, unlike a workload's).
fn selects(sel: &Node, labels: &crate::binding::Labels) -> bool {
    let match_labels = sel
        .get("matchLabels")
        .and_then(Node::as_map)
        .unwrap_or_default();
    let exprs = sel
        .get("matchExpressions")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    if match_labels.is_empty() && exprs.is_empty() {
        return false;
    }
    let labels_ok = match_labels.iter().all(|e| {
        e.value
            .as_str()
            .is_some_and(|v| labels.get(e.key.as_str()).is_some_and(|l| l == v))
    });
    let exprs_ok = exprs.iter().all(|e| {
        let key = e.get("key").and_then(Node::as_str).unwrap_or_default();
        let values = e.strings("values");
        let have = labels.get(key);
        match e.get("operator").and_then(Node::as_str) {
            Some("In") => have.is_some_and(|v| values.contains(&v.as_str())),
            Some("NotIn") => have.is_none_or(|v| !values.contains(&v.as_str())),
            Some("Exists") => have.is_some(),
            Some("DoesNotExist") => have.is_none(),
            _ => false,
        }
    });
    labels_ok && exprs_ok
}
