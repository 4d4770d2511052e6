//! Suppressions: the annotation `pvlint.io/ignore: rule-a,rule-b` (or `all`) on an object, or
//! on a workload's pod template (charts often let users set only those), moves the findings
//! about that object out of the report's findings into its `suppressed` list. A finding about
//! a VolumeAttachment (an object the attach/detach controller writes) follows the annotation
//! of the PersistentVolume it attaches, or of that volume's claim. A name in the annotation
//! that is not a rule is reported by `invalid-suppression`.

use std::collections::HashMap;

use crate::finding::{Finding, ObjectRef};
use crate::index::Index;
use crate::node::Node;

pub const ANNOTATION: &str = "pvlint.io/ignore";

/// Where an object may carry the annotation: its own metadata, its pod template's, a
/// CronJob's job template's pod template.
pub(crate) const PLACES: &[&[&str]] = &[
    &["metadata", "annotations"],
    &["spec", "template", "metadata", "annotations"],
    &[
        "spec",
        "jobTemplate",
        "spec",
        "template",
        "metadata",
        "annotations",
    ],
];

/// Every `pvlint.io/ignore` value node of an object, with its path.
pub(crate) fn annotations(root: &Node) -> Vec<(String, &Node)> {
    PLACES
        .iter()
        .filter_map(|p| {
            let anns = p.iter().try_fold(root, |n, k| n.get(k))?;
            let v = anns.get(ANNOTATION)?;
            Some((format!("{}.{ANNOTATION}", p.join(".")), v))
        })
        .collect()
}

/// The rule names a value lists (comma- or space-separated).
pub(crate) fn names(value: &str) -> impl Iterator<Item = &str> {
    value
        .split([',', ' ', '\n', '\t'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Splits findings into (kept, suppressed).
pub(crate) fn split(ix: &Index, findings: Vec<Finding>) -> (Vec<Finding>, Vec<Finding>) {
    let mut ignored: HashMap<(usize, ObjectRef), Vec<String>> = HashMap::new();
    for o in &ix.objects {
        for (_, v) in annotations(&o.root) {
            if let Some(text) = v.as_str() {
                ignored
                    .entry((o.source, o.objref()))
                    .or_default()
                    .extend(names(text).map(String::from));
            }
        }
    }
    if ignored.is_empty() {
        return (findings, Vec::new());
    }
    // Nobody writes annotations on a VolumeAttachment (the attach/detach controller creates
    // it): the volume it attaches, and that volume's claim, speak for it.
    for va in ix.objects.iter().filter(|o| o.kind == "VolumeAttachment") {
        let Some(pv) = va
            .root
            .at("spec.source.persistentVolumeName")
            .and_then(Node::as_str)
            .and_then(|n| find(ix, va.source, "PersistentVolume", None, n))
        else {
            continue;
        };
        let claim = pv
            .root
            .at("spec.claimRef.name")
            .and_then(Node::as_str)
            .and_then(|name| {
                let ns = pv.root.at("spec.claimRef.namespace").and_then(Node::as_str);
                find(
                    ix,
                    va.source,
                    "PersistentVolumeClaim",
                    ns.or(Some("default")),
                    name,
                )
            });
        let names: Vec<String> = [Some(pv), claim]
            .into_iter()
            .flatten()
            .filter_map(|o| ignored.get(&(o.source, o.objref())))
            .flatten()
            .cloned()
            .collect();
        if !names.is_empty() {
            ignored
                .entry((va.source, va.objref()))
                .or_default()
                .extend(names);
        }
    }
    findings.into_iter().partition(|f| {
        let Some(obj) = &f.object else { return true };
        match ignored.get(&(f.location.source, obj.clone())) {
            Some(list) => !list.iter().any(|n| n == "all" || *n == f.rule),
            None => true,
        }
    })
}

/// An object of the index by kind, namespace and name, preferring the given source.
fn find<'a>(
    ix: &'a Index,
    source: usize,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Option<&'a crate::model::Object> {
    let mut matching = ix
        .objects
        .iter()
        .filter(|o| o.kind == kind && o.name == name && o.namespace.as_deref() == namespace);
    let first = matching.next()?;
    Some(
        std::iter::once(first)
            .chain(matching)
            .find(|o| o.source == source)
            .unwrap_or(first),
    )
}
