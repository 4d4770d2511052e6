//! What to change in each object: removals and settings, each with its reason.

use std::collections::{BTreeMap, HashMap};

use super::split::Parsed;
use super::{Change, ChangeKind, MigrateOptions, ANN_BETA_CLASS, ANN_SELECTED_NODE};
use crate::kube::SERVER_POPULATED_METADATA;

use crate::kube;
use crate::node::Node;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Seg {
    Key(String),
    Index(usize),
}

pub(super) type Path = Vec<Seg>;

pub(super) fn path(keys: &[&str]) -> Path {
    keys.iter().map(|k| Seg::Key(k.to_string())).collect()
}

pub(super) fn display(p: &[Seg]) -> String {
    let mut s = String::new();
    for seg in p {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

pub(super) fn node_at<'a>(root: &'a Node, p: &[Seg]) -> Option<&'a Node> {
    p.iter().try_fold(root, |n, seg| match seg {
        Seg::Key(k) => n.get(k),
        Seg::Index(i) => n.as_seq()?.get(*i),
    })
}

#[derive(Debug, Clone)]
pub(super) enum Action {
    /// Remove the map entry the path names.
    Remove(Path),
    /// Replace the scalar at the path with a string.
    Set(Path, String),
    /// Add `key: value` to the map at `map`, after the entry `after`.
    Insert {
        map: Path,
        after: String,
        key: String,
        value: String,
    },
}

#[derive(Default)]
pub(super) struct Plan {
    pub(super) actions: Vec<Action>,
    pub(super) changes: Vec<Change>,
    pub(super) warnings: Vec<String>,
}

impl Plan {
    pub(super) fn remove(&mut self, root: &Node, p: Path, why: &str) {
        if node_at(root, &p).is_some() {
            self.changes.push(Change {
                action: ChangeKind::Removed,
                path: display(&p),
                from: None,
                to: None,
                why: why.into(),
            });
            self.actions.push(Action::Remove(p));
        }
    }

    pub(super) fn set(&mut self, root: &Node, p: Path, to: &str, why: &str) {
        let Some(n) = node_at(root, &p) else { return };
        let from = n
            .as_scalar()
            .map(|s| s.text.to_string())
            .unwrap_or_default();
        if n.as_str() == Some(to) {
            return;
        }
        self.changes.push(Change {
            action: ChangeKind::Set,
            path: display(&p),
            from: Some(from),
            to: Some(to.into()),
            why: why.into(),
        });
        self.actions.push(Action::Set(p, to.into()));
    }
}

/// What migrate knows about every object of the input (names after namespace mapping).
pub(super) struct Ctx {
    /// Claims by namespace/name: their spec.volumeName.
    pub(super) claims: HashMap<(String, String), Option<String>>,
    /// Volumes by name: their claimRef's namespace/name.
    pub(super) volumes: HashMap<String, Option<(String, String)>>,
    /// Volumes by name: their class (GetPersistentVolumeClass: the beta annotation, then
    /// spec.storageClassName; "" for none).
    pub(super) volume_classes: HashMap<String, String>,
}

pub(super) fn kind_of(root: &Node) -> (&str, &str) {
    (
        root.get("apiVersion").and_then(Node::as_str).unwrap_or(""),
        root.get("kind").and_then(Node::as_str).unwrap_or(""),
    )
}

pub(super) fn is_pv(root: &Node) -> bool {
    kind_of(root) == ("v1", "PersistentVolume")
}

pub(super) fn is_pvc(root: &Node) -> bool {
    kind_of(root) == ("v1", "PersistentVolumeClaim")
}

pub(super) fn str_at<'a>(root: &'a Node, p: &str) -> Option<&'a str> {
    root.at(p).and_then(Node::as_str)
}

/// Whether objects of this kind live in a namespace.
pub(super) fn namespaced(root: &Node) -> bool {
    let (api, kind) = kind_of(root);
    crate::model::known_kind(api, kind).is_none_or(|(_, ns)| ns)
}

pub(super) fn mapped<'a>(map: &'a BTreeMap<String, String>, name: &'a str) -> &'a str {
    map.get(name).map_or(name, String::as_str)
}

impl Ctx {
    pub(super) fn build(objects: &[Parsed], opts: &MigrateOptions) -> Ctx {
        let mut claims = HashMap::new();
        let mut volumes = HashMap::new();
        let mut volume_classes = HashMap::new();
        for p in objects {
            let r = &p.root;
            if is_pvc(r) {
                let ns = str_at(r, "metadata.namespace").unwrap_or("default");
                let name = str_at(r, "metadata.name").unwrap_or("").to_string();
                let volume = str_at(r, "spec.volumeName")
                    .filter(|v| !v.is_empty())
                    .map(String::from);
                claims.insert((mapped(&opts.map_namespace, ns).to_string(), name), volume);
            } else if is_pv(r) {
                let name = str_at(r, "metadata.name").unwrap_or("").to_string();
                let claim = r.at("spec.claimRef").filter(|c| !c.is_null()).map(|c| {
                    let ns = c.get("namespace").and_then(Node::as_str).unwrap_or("");
                    let n = c.get("name").and_then(Node::as_str).unwrap_or("");
                    (mapped(&opts.map_namespace, ns).to_string(), n.to_string())
                });
                let class = node_at(r, &ann(ANN_BETA_CLASS))
                    .and_then(Node::as_str)
                    .or_else(|| str_at(r, "spec.storageClassName"))
                    .unwrap_or("");
                volume_classes.insert(name.clone(), class.to_string());
                volumes.insert(name, claim);
            }
        }
        Ctx {
            claims,
            volumes,
            volume_classes,
        }
    }
}

pub(super) const WHY_SERVER: &str = "set by the API server of the source cluster; the target sets its own (kubectl clears resourceVersion when it creates the object, but every later apply sends the stale one and fails with a Conflict)";
pub(super) const WHY_STATUS: &str =
    "written by the source cluster's controllers; the target computes its own";
pub(super) const WHY_OWNERS: &str = "names owners by their UIDs in the source cluster: here no object has those UIDs, and the garbage collector deletes an object whose owners are all gone";
pub(super) const WHY_CLAIMREF_UID: &str = "the claim gets a new UID in the target cluster: with the old one kept, the volume never matches it (syncVolume Releases it, and reclaims it by its policy)";
pub(super) const WHY_CLAIMREF_RV: &str =
    "the claim's resourceVersion in the source cluster; meaningless in the target";
pub(super) const WHY_PV_BBC: &str = "the volume is re-bound here as a pre-binding by name (as Velero restores it); with bound-by-controller, the controller would drop the claimRef if the claim bound elsewhere, freeing the volume for any claim";
pub(super) const WHY_BIND_COMPLETED: &str = "a claim marked bound needs its volume's claimRef to carry its UID, which cannot be known before it is created: it would go Lost (ClaimMisbound); unmarked, it binds to spec.volumeName, whose claimRef names it";
pub(super) const WHY_PVC_BBC: &str = "a controller's mark of the source cluster's binding; the binding here is the pre-binding by spec.volumeName";
pub(super) const WHY_SELECTED_NODE: &str =
    "names a node of the source cluster; the scheduler sets it again in the target when it matters";
pub(super) const WHY_RETAIN: &str = "the storage may still be used by the source cluster: with Retain, deleting the claim or the volume here can never delete it (--keep-reclaim-policy keeps the policy)";
pub(super) const WHY_NAMESPACE: &str = "--map-namespace";
pub(super) const WHY_CLASS: &str = "--map-class";
pub(super) const WHY_NO_CLASS: &str = "the claim names no class and neither does its volume: in a cluster with a default StorageClass, admission (DefaultStorageClass) gives the claim that class; it still binds (claim and volume name each other, so no classes are compared) but then carries a class its volume does not have (storage-class-mismatch); an explicit \"\" keeps it class-less, as its volume is";

pub(super) fn plan(root: &Node, ctx: &Ctx, opts: &MigrateOptions) -> Plan {
    let mut plan = Plan::default();
    for k in SERVER_POPULATED_METADATA {
        plan.remove(root, path(&["metadata", k]), WHY_SERVER);
    }
    plan.remove(root, path(&["metadata", "ownerReferences"]), WHY_OWNERS);
    plan.remove(root, path(&["status"]), WHY_STATUS);
    if namespaced(root) {
        match str_at(root, "metadata.namespace") {
            Some(ns) => {
                if let Some(to) = opts.map_namespace.get(ns) {
                    plan.set(root, path(&["metadata", "namespace"]), to, WHY_NAMESPACE);
                }
            }
            None => {
                if let (Some(to), Some(meta)) =
                    (opts.map_namespace.get("default"), root.get("metadata"))
                {
                    if let Some(last) = meta
                        .as_map()
                        .and_then(|m| m.iter().find(|e| e.key == "name").or(m.last()))
                    {
                        plan.changes.push(Change {
                            action: ChangeKind::Added,
                            path: "metadata.namespace".into(),
                            from: None,
                            to: Some(to.clone()),
                            why: "--map-namespace (the object had no namespace: default)".into(),
                        });
                        plan.actions.push(Action::Insert {
                            map: path(&["metadata"]),
                            after: last.key.to_string(),
                            key: "namespace".into(),
                            value: to.clone(),
                        });
                    }
                }
            }
        }
    }
    map_beta_class(root, &mut plan, opts);
    if is_pv(root) {
        plan_volume(root, ctx, opts, &mut plan);
    } else if is_pvc(root) {
        plan_claim(root, ctx, opts, &mut plan);
    } else if kind_of(root) == ("batch/v1", "Job") {
        plan_job(root, &mut plan);
    } else if kind_of(root).1 == "StatefulSet" {
        if let Some(ts) = root.at("spec.volumeClaimTemplates").and_then(Node::as_seq) {
            for (i, t) in ts.iter().enumerate() {
                if let Some(c) = t.at("spec.storageClassName").and_then(Node::as_str) {
                    if let Some(to) = opts.map_class.get(c) {
                        let mut p = path(&["spec", "volumeClaimTemplates"]);
                        p.push(Seg::Index(i));
                        p.extend(path(&["spec", "storageClassName"]));
                        plan.set(root, p, to, WHY_CLASS);
                    }
                }
            }
        }
    }
    coalesce(root, &mut plan.actions);
    plan
}

pub(super) const WHY_JOB_UID: &str = "the Job's uid in the source cluster, which the API server's generateSelector wrote into its pod template and selector: the target gives the Job a new uid and rejects a template labelled, or a selector selecting, the old one (ValidateGeneratedSelector: `selector` not auto-generated); without them it generates both again";

/// An exported Job (no `manualSelector: true`): the selector and the controller-uid labels
/// its source cluster generated from its uid.
fn plan_job(root: &Node, plan: &mut Plan) {
    if root
        .at("spec.manualSelector")
        .and_then(Node::as_scalar)
        .is_some_and(|s| s.text.as_str() == "true")
    {
        return;
    }
    let selects_uid = root
        .at("spec.selector.matchLabels")
        .is_some_and(|m| kube::JOB_UID_LABELS.iter().any(|k| m.get(k).is_some()));
    if selects_uid {
        plan.remove(root, path(&["spec", "selector"]), WHY_JOB_UID);
    }
    for labels in [
        &["spec", "template", "metadata", "labels"][..],
        &["metadata", "labels"][..],
    ] {
        for k in kube::JOB_UID_LABELS {
            let mut p = path(labels);
            p.push(Seg::Key(k.to_string()));
            plan.remove(root, p, WHY_JOB_UID);
        }
    }
}

pub(super) fn ann(key: &str) -> Path {
    path(&["metadata", "annotations", key])
}

pub(super) fn map_beta_class(root: &Node, plan: &mut Plan, opts: &MigrateOptions) {
    if !(is_pv(root) || is_pvc(root)) {
        return;
    }
    if let Some(c) = str_at(root, "spec.storageClassName") {
        if let Some(to) = opts.map_class.get(c) {
            plan.set(root, path(&["spec", "storageClassName"]), to, WHY_CLASS);
        }
    }
    let beta = ann(ANN_BETA_CLASS);
    if let Some(c) = node_at(root, &beta).and_then(Node::as_str) {
        if let Some(to) = opts.map_class.get(c) {
            plan.set(root, beta, to, WHY_CLASS);
        }
    }
}

pub(super) fn plan_volume(root: &Node, ctx: &Ctx, opts: &MigrateOptions, plan: &mut Plan) {
    let name = str_at(root, "metadata.name").unwrap_or("");
    let claim_ref = root.at("spec.claimRef").filter(|c| c.as_map().is_some());
    if let Some(cr) = claim_ref {
        plan.remove(root, path(&["spec", "claimRef", "uid"]), WHY_CLAIMREF_UID);
        plan.remove(
            root,
            path(&["spec", "claimRef", "resourceVersion"]),
            WHY_CLAIMREF_RV,
        );
        let ns = cr.get("namespace").and_then(Node::as_str).unwrap_or("");
        if let Some(to) = opts.map_namespace.get(ns) {
            plan.set(
                root,
                path(&["spec", "claimRef", "namespace"]),
                to,
                WHY_NAMESPACE,
            );
        }
        let key = (
            mapped(&opts.map_namespace, ns).to_string(),
            cr.get("name")
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string(),
        );
        match ctx.claims.get(&key) {
            None => plan.warnings.push(format!(
                "its claim {}/{} is not in the input: the volume stays Available, reserved for a claim of that name (its claimRef keeps name and namespace), and binds when that claim is created",
                key.0, key.1
            )),
            Some(Some(v)) if v != name => plan.warnings.push(format!(
                "its claim {}/{} names volume {v}: this volume stays Available, reserved for that claim, and is not used",
                key.0, key.1
            )),
            _ => {}
        }
    }
    plan.remove(root, ann(kube::ANN_BOUND_BY_CONTROLLER), WHY_PV_BBC);
    let policy = path(&["spec", "persistentVolumeReclaimPolicy"]);
    if let Some(p) = node_at(root, &policy).and_then(Node::as_str) {
        if p != "Retain" {
            if opts.keep_reclaim_policy {
                if p == "Delete" {
                    plan.warnings.push("it keeps reclaimPolicy Delete (--keep-reclaim-policy): when its claim is deleted here, the target cluster deletes the storage, which the source cluster may still use".into());
                }
            } else {
                plan.set(root, policy, "Retain", WHY_RETAIN);
            }
        }
    }
}

pub(super) fn plan_claim(root: &Node, ctx: &Ctx, opts: &MigrateOptions, plan: &mut Plan) {
    let ns = mapped(
        &opts.map_namespace,
        str_at(root, "metadata.namespace").unwrap_or("default"),
    )
    .to_string();
    let name = str_at(root, "metadata.name").unwrap_or("").to_string();
    let bind_completed = node_at(root, &ann(kube::ANN_BIND_COMPLETED)).is_some();
    plan.remove(root, ann(kube::ANN_BIND_COMPLETED), WHY_BIND_COMPLETED);
    plan.remove(root, ann(kube::ANN_BOUND_BY_CONTROLLER), WHY_PVC_BBC);
    plan.remove(root, ann(ANN_SELECTED_NODE), WHY_SELECTED_NODE);
    let volume = str_at(root, "spec.volumeName").filter(|v| !v.is_empty());
    // PersistentVolumeClaimHasClass: the beta annotation or spec.storageClassName (even "").
    // A null spec.storageClassName is unset (admission gives such a claim the default).
    let null_class = root.at("spec.storageClassName").is_some_and(Node::is_null);
    let has_class = node_at(root, &ann(ANN_BETA_CLASS)).is_some()
        || root
            .at("spec.storageClassName")
            .is_some_and(|n| !n.is_null());
    let classless_volume = volume
        .and_then(|v| ctx.volume_classes.get(v))
        .is_some_and(|c| c.is_empty());
    if !has_class && classless_volume && null_class {
        plan.set(root, path(&["spec", "storageClassName"]), "", WHY_NO_CLASS);
    } else if !has_class && classless_volume {
        if let Some(spec) = root.get("spec").and_then(Node::as_map) {
            if let Some(after) = spec.iter().find(|e| e.key == "resources").or(spec.last()) {
                plan.changes.push(Change {
                    action: ChangeKind::Added,
                    path: "spec.storageClassName".into(),
                    from: None,
                    to: Some(String::new()),
                    why: WHY_NO_CLASS.into(),
                });
                plan.actions.push(Action::Insert {
                    map: path(&["spec"]),
                    after: after.key.to_string(),
                    key: "storageClassName".into(),
                    value: String::new(),
                });
            }
        }
    }
    match volume {
        Some(v) => match ctx.volumes.get(v) {
            None => plan.warnings.push(format!(
                "its volume {v} is not in the input: the claim stays Pending until a PersistentVolume named {v} exists (export it too, or remove spec.volumeName to provision a new, empty volume)"
            )),
            Some(Some(holder)) if holder != &(ns.clone(), name.clone()) => plan.warnings.push(format!(
                "its volume {v} is reserved for another claim, {}/{}: this claim stays Pending (FailedBinding)",
                holder.0, holder.1
            )),
            _ => {}
        },
        None if bind_completed => plan.warnings.push(
            "it was marked bound but names no volume (Lost in the source cluster): here it binds any matching volume, or a new empty one is provisioned".into(),
        ),
        None => {}
    }
}

/// Drops actions inside removed entries, and removes a map whose entries are all removed.
pub(super) fn coalesce(root: &Node, actions: &mut Vec<Action>) {
    loop {
        let removed: Vec<Path> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Remove(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        // A map all of whose entries go: remove its own entry instead.
        let mut parents: Vec<Path> = Vec::new();
        for p in &removed {
            let parent = p[..p.len() - 1].to_vec();
            if parent.is_empty()
                || parents.contains(&parent)
                || !matches!(parent.last(), Some(Seg::Key(_)))
            {
                continue;
            }
            let Some(map) = node_at(root, &parent).and_then(Node::as_map) else {
                continue;
            };
            let all = map.iter().all(|e| {
                let mut q = parent.clone();
                q.push(Seg::Key(e.key.to_string()));
                removed.contains(&q)
            });
            if all && !removed.contains(&parent) {
                parents.push(parent);
            }
        }
        let before = actions.len();
        for p in parents {
            actions.push(Action::Remove(p));
        }
        let removed: Vec<Path> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Remove(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let inside = |p: &Path| {
            removed
                .iter()
                .any(|r| r.len() < p.len() && p.starts_with(r))
        };
        actions.retain(|a| match a {
            Action::Remove(p) | Action::Set(p, _) => !inside(p),
            Action::Insert { map, .. } => !inside(map) && !removed.contains(map),
        });
        if actions.len() == before {
            break;
        }
    }
}
