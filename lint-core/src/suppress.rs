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

/// The rule names each object's annotations suppress, read from the objects as written
/// (before their trees are released). Empty, and small, for most inputs.
#[derive(Debug, Default)]
pub(crate) struct Ignored(HashMap<(usize, ObjectRef), Vec<String>>);

/// What the annotations of `ix`'s objects suppress.
pub(crate) fn collect(ix: &Index) -> Ignored {
    let mut ignored: HashMap<(usize, ObjectRef), Vec<String>> = HashMap::new();
    for o in &ix.objects {
        for (_, v) in annotations(o.root()) {
            if let Some(text) = v.as_str() {
                ignored
                    .entry((o.source, o.objref()))
                    .or_default()
                    .extend(names(text).map(String::from));
            }
        }
    }
    if ignored.is_empty() {
        return Ignored::default();
    }
    // Nobody writes annotations on a VolumeAttachment (the attach/detach controller creates
    // it): the volume it attaches, and that volume's claim, speak for it.
    // Volumes and claims by kind, namespace and name, looked up once per attachment.
    type Key<'a> = (&'a str, Option<&'a str>, &'a str);
    let mut by_name: HashMap<Key<'_>, Vec<&crate::model::Object>> = HashMap::new();
    for o in ix
        .objects
        .iter()
        .filter(|o| o.kind == "PersistentVolume" || o.kind == "PersistentVolumeClaim")
    {
        by_name
            .entry((o.kind.as_str(), o.namespace.as_deref(), o.name.as_str()))
            .or_default()
            .push(o);
    }
    // The definition in the attachment's own source when several sources hold one.
    let find = |source: usize, key: Key<'_>| {
        let all = by_name.get(&key)?;
        all.iter()
            .find(|o| o.source == source)
            .or(all.first())
            .copied()
    };
    for va in ix.objects.iter().filter(|o| o.kind == "VolumeAttachment") {
        let Some(pv) = va
            .root()
            .at("spec.source.persistentVolumeName")
            .and_then(Node::as_str)
            .and_then(|n| find(va.source, ("PersistentVolume", None, n)))
        else {
            continue;
        };
        // The claim the volume is bound to: claimRef's namespace as written (no default, as
        // IsVolumeBoundToClaim compares it), and its UID when claimRef has one (a claim
        // created again under the same name is another claim).
        let claim = pv
            .root()
            .at("spec.claimRef.name")
            .and_then(Node::as_str)
            .and_then(|name| {
                let ns = pv
                    .root()
                    .at("spec.claimRef.namespace")
                    .and_then(Node::as_str);
                find(
                    va.source,
                    ("PersistentVolumeClaim", Some(ns.unwrap_or("")), name),
                )
            })
            .filter(|c| {
                let uid = |o: &crate::model::Object, path| {
                    o.root()
                        .at(path)
                        .and_then(Node::as_str)
                        .filter(|u| !u.is_empty())
                        .map(str::to_string)
                };
                match (uid(pv, "spec.claimRef.uid"), uid(c, "metadata.uid")) {
                    (Some(want), Some(have)) => want == have,
                    _ => true,
                }
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
    Ignored(ignored)
}

impl Ignored {
    /// Splits findings into (kept, suppressed).
    pub(crate) fn split<F: AsRef<Finding>>(&self, findings: Vec<F>) -> (Vec<F>, Vec<F>) {
        if self.0.is_empty() {
            return (findings, Vec::new());
        }
        findings.into_iter().partition(|f| {
            let f = f.as_ref();
            let Some(obj) = &f.object else { return true };
            match self.0.get(&(f.location.source, obj.clone())) {
                Some(list) => !list.iter().any(|n| n == "all" || *n == f.rule),
                None => true,
            }
        })
    }
}
