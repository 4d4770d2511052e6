//! Updates the API server refuses, and what an apply sends.
//!
//! An object that already exists is updated, not created: by a later definition in the same
//! apply set (kubectl creates from the first and updates with each later one), or by a
//! manifest applied onto the live object of `--cluster-state`, `--against-cluster` or an
//! admission review's `oldObject`. What reaches the API server is the live object with the
//! manifest merged in, the way the tool merges ([`ApplyModel`]): fields the manifest does not
//! set keep their live value (server defaults, what controllers wrote) unless the tool removes
//! them (client-side apply removes what the last apply wrote and this file no longer has).
//!
//! The merged object then passes the API server's update validation, or the update is refused
//! and the live object stays as it was. Upstream:
//!
//! - `ValidatePersistentVolumeClaimUpdate` (pkg/apis/core/validation): the spec is immutable
//!   after creation, except `volumeName` while it is empty (the controller sets it),
//!   `storageClassName` from nil to a class (`validateStorageClassUpgradeFromNil`,
//!   RetroactiveDefaultStorageClass), `volumeAttributesClassName`, and
//!   `resources.requests.storage` of a Bound claim. Lowering that request is allowed down to
//!   just above `status.capacity` with RecoverVolumeExpansionFailure (on by default from 1.32),
//!   else not at all;
//! - the PersistentVolumeClaimResize admission plugin (plugin/pkg/admission/storage/
//!   persistentvolume/resize): a bigger request needs a Bound claim whose class, unchanged,
//!   exists with `allowVolumeExpansion: true`;
//! - `ValidatePersistentVolumeUpdate`: the volume source, `volumeMode`, and `nodeAffinity` once
//!   set are immutable (capacity, claimRef, reclaim policy, class, mount options may change);
//! - `ValidateStorageClassUpdate` (pkg/apis/storage/validation): `parameters`, `provisioner`,
//!   `reclaimPolicy` and `volumeBindingMode` are immutable;
//! - `ValidateCSIDriverUpdate`: `attachRequired` and `volumeLifecycleModes` are immutable;
//! - `ValidateStatefulSetUpdate` (pkg/apis/apps/validation): only `replicas`, `ordinals`,
//!   `template`, `updateStrategy`, `revisionHistoryLimit`,
//!   `persistentVolumeClaimRetentionPolicy` and `minReadySeconds` may change;
//! - `ValidateDeploymentUpdate`, `ValidateReplicaSetUpdate`, `ValidateDaemonSetUpdate`
//!   (apps/v1): the selector is immutable.
//!
//! Messages are the API server's own, as kubectl prints them (recorded on a real v1.34.9
//! control plane: `tests/oracle/17-*` to `22-*`), but for the Go value the server prints
//! after `spec.selector: Invalid value:` and `nodeAffinity: Invalid value:`, left out.

use serde_json::{Map, Value};

use crate::options::KubeVersion;
use crate::quantity::Quantity;

/// kubectl's record of what it applied last.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// How the manifest is merged into the live object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyModel {
    /// A later definition in the same `kubectl apply`: it replaces the one just created.
    SameApply,
    /// `kubectl apply` (client-side): a three-way merge with the live object's
    /// last-applied-configuration; fields applied before and gone from the file are removed.
    ClientSide,
    /// Server-side apply (`kubectl apply --server-side`, Flux, Argo CD with SSA): the live
    /// object's managedFields say an apply owns fields. pvlint does not know which manager
    /// applies this file: nothing is taken as removed.
    ServerSide,
    /// A Helm release's object: `helm upgrade` merges three ways with the previous release's
    /// manifest, which is not in the cluster state: nothing is taken as removed.
    Helm,
    /// An object no apply recorded (made by `kubectl create`, a controller, or an export):
    /// `kubectl apply` patches the file's fields in and removes nothing.
    Patch,
}

impl ApplyModel {
    /// The model the live object shows.
    pub fn of_live(live: &Value) -> ApplyModel {
        let meta = &live["metadata"];
        if meta["annotations"][LAST_APPLIED].is_string() {
            return ApplyModel::ClientSide;
        }
        let helm = meta["labels"]["app.kubernetes.io/managed-by"] == "Helm"
            || meta["annotations"]["meta.helm.sh/release-name"].is_string();
        if helm {
            return ApplyModel::Helm;
        }
        let applied = meta["managedFields"]
            .as_array()
            .is_some_and(|m| m.iter().any(|f| f["operation"] == "Apply"));
        if applied {
            ApplyModel::ServerSide
        } else {
            ApplyModel::Patch
        }
    }

    /// How the finding names the model it rests on.
    pub fn describe(&self) -> &'static str {
        match self {
            ApplyModel::SameApply => "a later definition in the same kubectl apply",
            ApplyModel::ClientSide => {
                "kubectl apply (client-side: a three-way merge with the live object's last-applied-configuration)"
            }
            ApplyModel::ServerSide => {
                "server-side apply (the live object's managedFields show one; fields another manager owns stay)"
            }
            ApplyModel::Helm => {
                "helm upgrade (Helm 3 merges three ways with the previous release's manifest, Helm 4 applies server-side; pvlint merges the chart's fields into the live object)"
            }
            ApplyModel::Patch => {
                "kubectl apply onto an object no apply recorded (the file's fields are patched in; none removed)"
            }
        }
    }
}

/// One reason the API server refuses the update, as kubectl prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The field, as the API server names it (`spec`, `parameters`,
    /// `spec.resources.requests.storage`).
    pub field: String,
    /// Where the change is in the manifest (`spec.storageClassName`).
    pub at: String,
    /// The claim's StorageClass, when the refusal rests on its absence from the cluster
    /// state (a resize).
    pub missing_class: Option<String>,
    /// The cause as kubectl prints it: `spec: Forbidden: spec is immutable ...`, or an
    /// admission plugin's `persistentvolumeclaims "data" is forbidden: ...`.
    pub cause: String,
    /// What the field is on the live object and what the update would make it (JSON).
    pub live: String,
    pub new: String,
    /// What users do instead.
    pub fix: &'static str,
}

/// What the update is judged against besides the two objects.
pub struct Env<'a> {
    pub version: KubeVersion,
    /// Whether the StorageClass of this name allows volume expansion (None: no such class).
    pub expansion: &'a dyn Fn(&str) -> Option<bool>,
}

/// The object the API server receives: `new` merged into `live` as `model` merges.
pub fn merged(live: &Value, new: &Value, model: &ApplyModel) -> Value {
    let last = match model {
        ApplyModel::ClientSide => live["metadata"]["annotations"][LAST_APPLIED]
            .as_str()
            .and_then(|s| serde_json::from_str::<Value>(s).ok()),
        ApplyModel::SameApply => Some(live.clone()),
        _ => None,
    };
    merge(Some(live), new, last.as_ref())
}

fn merge(live: Option<&Value>, new: &Value, last: Option<&Value>) -> Value {
    match (live, new) {
        (Some(Value::Object(l)), Value::Object(n)) => {
            let mut out = l.clone();
            for (k, v) in n {
                if v.is_null() {
                    out.remove(k);
                    continue;
                }
                let merged = merge(l.get(k), v, last.and_then(|p| p.get(k)));
                out.insert(k.clone(), merged);
            }
            if let Some(Value::Object(p)) = last {
                for k in p.keys() {
                    if !n.contains_key(k) {
                        out.remove(k);
                    }
                }
            }
            out.into_iter().collect()
        }
        _ => new.clone(),
    }
}

/// Values the API server fills in when a field is absent: the same as absent.
fn is_default(key: &str, v: &Value) -> bool {
    matches!(
        (key, v.as_str()),
        ("volumeMode", Some("Filesystem"))
            | ("podManagementPolicy", Some("OrderedReady"))
            | ("volumeBindingMode", Some("Immediate"))
            | ("reclaimPolicy", Some("Delete"))
    ) || (key == "attachRequired" && *v == Value::Bool(true))
}

/// Zero values: absent once decoded.
fn zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.values().all(zero),
        // Go's omitempty: false and 0 are not written back.
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
    }
}

/// A value as the API server compares it: zero values and defaults left out, quantities by
/// value, server-written parts of claim templates (`status`, `creationTimestamp`,
/// `apiVersion`/`kind`) left out.
fn canon(v: &Value, key: &str) -> Value {
    match v {
        Value::Object(m) => {
            let template = key == "volumeClaimTemplates";
            let mut out = Map::new();
            for (k, x) in m {
                if zero(x) || is_default(k, x) {
                    continue;
                }
                if template && matches!(k.as_str(), "status" | "apiVersion" | "kind") {
                    continue;
                }
                let c = canon(x, if template { "" } else { k });
                if !zero(&c) {
                    out.insert(k.clone(), c);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| canon(i, key)).collect()),
        Value::String(s) if matches!(key, "storage" | "cpu" | "memory") => {
            match Quantity::parse(s) {
                Ok(q) => Value::String(format!("={}", q.key())),
                Err(_) => v.clone(),
            }
        }
        // Numbers and booleans written as text are decoded the same (`"3"` stays a string
        // the decoder refuses elsewhere): compare as written.
        _ => v.clone(),
    }
}

fn same(a: &Value, b: &Value, key: &str) -> bool {
    let norm = |v: &Value| {
        if zero(v) || is_default(key, v) {
            Value::Null
        } else {
            canon(v, key)
        }
    };
    norm(a) == norm(b)
}

/// `a` without `keys` (an object), or null.
fn without(a: &Value, keys: &[&str]) -> Value {
    match a {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !keys.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        _ => Value::Null,
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Null => "(unset)".into(),
        _ => {
            let s = v.to_string();
            if s.chars().count() > 160 {
                let cut: String = s.chars().take(157).collect();
                format!("{cut}...")
            } else {
                s
            }
        }
    }
}

/// The first top-level key of two objects whose values differ (or "").
fn first_difference(a: &Value, b: &Value) -> String {
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut all = keys(a);
    all.extend(keys(b));
    all.sort();
    all.dedup();
    all.into_iter()
        .find(|k| !same(&a[k.as_str()], &b[k.as_str()], k))
        .unwrap_or_default()
}

/// The deepest place two values differ: its path below them (`[0].spec.resources`) and the
/// two values there.
fn deep_difference<'v>(a: &'v Value, b: &'v Value, key: &str) -> (String, &'v Value, &'v Value) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            let template = key == "volumeClaimTemplates";
            let differing: Vec<&String> = keys
                .into_iter()
                .filter(|k| !(template && matches!(k.as_str(), "status" | "apiVersion" | "kind")))
                .filter(|k| {
                    !same(
                        &a[k.as_str()],
                        &b[k.as_str()],
                        if template { "" } else { k },
                    )
                })
                .collect();
            match differing.as_slice() {
                [k] => {
                    let below = if template { "" } else { k.as_str() };
                    let (rest, p, q) = deep_difference(&a[k.as_str()], &b[k.as_str()], below);
                    (format!(".{k}{rest}"), p, q)
                }
                _ => (String::new(), a, b),
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let differing: Vec<usize> =
                (0..x.len()).filter(|&i| !same(&x[i], &y[i], key)).collect();
            match differing.as_slice() {
                [i] => {
                    let (rest, p, q) = deep_difference(&x[*i], &y[*i], key);
                    (format!("[{i}]{rest}"), p, q)
                }
                _ => (String::new(), a, b),
            }
        }
        _ => (String::new(), a, b),
    }
}

/// `path: live` and `path: new` at the deepest difference under `field` of two specs.
fn difference_at(field: &str, o: &Value, n: &Value) -> (String, String) {
    let (rest, p, q) = deep_difference(&o[field], &n[field], field);
    (
        format!("{field}{rest}: {}", show(p)),
        format!("{field}{rest}: {}", show(q)),
    )
}

fn quantity(v: &Value) -> Option<Quantity> {
    v.as_str().and_then(|s| Quantity::parse(s).ok())
}

/// Server-printed `Invalid value: "x"` (strings quoted, other values as JSON).
fn invalid_value(v: &Value) -> String {
    v.to_string()
}

const CLAIM_FIX: &str = "a claim's spec cannot change after creation: create a claim with a new name and copy the data (a Job that mounts both, or a backup tool), or keep the live spec in the manifest";
const VOLUME_FIX: &str = "a volume's source cannot change: create a new PersistentVolume (and claim) for the new source, or keep the live source in the manifest";
const CLASS_FIX: &str = "a StorageClass's parameters, provisioner, reclaimPolicy and volumeBindingMode cannot change: create a class with a new name and point new claims at it (existing volumes keep the old settings), or delete and re-create the class (no volume is affected)";
const STS_FIX: &str = "volumeClaimTemplates, serviceName, selector and podManagementPolicy cannot change: `kubectl delete statefulset NAME --cascade=orphan` keeps the pods and claims, then apply; existing claims keep their old spec (resize them one by one)";
const SELECTOR_FIX: &str = "a selector cannot change: delete the workload (`--cascade=orphan` keeps its pods) and apply it again, or keep the live selector";
const RESIZE_FIX: &str = "set `allowVolumeExpansion: true` on the claim's StorageClass (and check its driver can expand), or keep the live request";
const SHRINK_FIX: &str =
    "volumes cannot shrink: keep the request at or above the live claim's status.capacity";
const DRIVER_FIX: &str = "a CSIDriver's attachRequired and volumeLifecycleModes cannot change: delete the CSIDriver object and create it again";

/// Why the API server refuses to update `live` to `merged` (the object it receives), each
/// cause as kubectl prints it; empty when it accepts the update. `api_version`/`kind` are
/// the object's, `name` its name.
pub fn refusals(
    api_version: &str,
    kind: &str,
    name: &str,
    live: &Value,
    merged: &Value,
    env: &Env<'_>,
) -> Vec<Refusal> {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let mut out = Vec::new();
    match (group, kind) {
        ("", "PersistentVolumeClaim") => claim(name, live, merged, env, &mut out),
        ("", "PersistentVolume") => volume(live, merged, &mut out),
        ("storage.k8s.io", "StorageClass") => class(live, merged, &mut out),
        ("storage.k8s.io", "CSIDriver") => {
            for (key, path) in [
                ("attachRequired", "spec.attachedRequired"),
                ("volumeLifecycleModes", "spec.volumeLifecycleModes"),
            ] {
                // Defaults: attachRequired true, volumeLifecycleModes [Persistent].
                let defaulted = |v: &Value| match (v, key) {
                    (Value::Null, "attachRequired") => Value::Bool(true),
                    (Value::Null, _) => serde_json::json!(["Persistent"]),
                    _ => v.clone(),
                };
                let (o, n) = (&live["spec"][key], &merged["spec"][key]);
                if defaulted(o) != defaulted(n) {
                    let shown = defaulted(n);
                    out.push(Refusal {
                        field: path.into(),
                        cause: format!(
                            "{path}: Invalid value: {}: field is immutable",
                            invalid_value(&shown)
                        ),
                        live: show(o),
                        new: show(n),
                        fix: DRIVER_FIX,
                        at: format!("spec.{key}"),
                        missing_class: None,
                    });
                }
            }
        }
        ("apps", "StatefulSet") => {
            const MUTABLE: &[&str] = &[
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "revisionHistoryLimit",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
            ];
            let (o, n) = (
                without(&live["spec"], MUTABLE),
                without(&merged["spec"], MUTABLE),
            );
            if !same(&o, &n, "spec") {
                let field = first_difference(&o, &n);
                let (live, new) = difference_at(&field, &o, &n);
                out.push(Refusal {
                    cause: "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden".into(),
                    live,
                    new,
                    field: format!("spec.{field}"),
                    fix: STS_FIX,
                    at: format!("spec.{field}"),
                    missing_class: None,
                });
            }
        }
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") => {
            let (o, n) = (&live["spec"]["selector"], &merged["spec"]["selector"]);
            if !same(o, n, "selector") {
                out.push(Refusal {
                    field: "spec.selector".into(),
                    // The server also prints the new selector as a Go value; not repeated.
                    cause: "spec.selector: field is immutable".into(),
                    live: show(o),
                    new: show(n),
                    fix: SELECTOR_FIX,
                    at: "spec.selector".into(),
                    missing_class: None,
                });
            }
        }
        _ => {}
    }
    out
}

fn claim(name: &str, live: &Value, merged: &Value, env: &Env<'_>, out: &mut Vec<Refusal>) {
    let (os, ns) = (&live["spec"], &merged["spec"]);
    let bound = live["status"]["phase"] == "Bound";
    let mut skip = vec!["volumeAttributesClassName", "resources"];
    if zero(&os["volumeName"]) {
        skip.push("volumeName");
    }
    if os["storageClassName"].is_null() {
        skip.push("storageClassName");
    }
    // Only `resources.requests.storage` of a Bound claim may change.
    let resources = |s: &Value| {
        let mut r = s["resources"].clone();
        if bound {
            if let Some(q) = r.get_mut("requests").and_then(Value::as_object_mut) {
                q.remove("storage");
            }
        }
        r
    };
    let (o, n) = (without(os, &skip), without(ns, &skip));
    if !same(&o, &n, "spec") || !same(&resources(os), &resources(ns), "resources") {
        let field = match first_difference(&o, &n) {
            f if f.is_empty() => "resources".to_string(),
            f => f,
        };
        let (live, new) = difference_at(&field, os, ns);
        out.push(Refusal {
            field: "spec".into(),
            cause: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims".into(),
            live,
            new,
            fix: if bound || field != "resources" { CLAIM_FIX } else {
                "a claim's request can change only once it is Bound: wait for it to bind, or re-create it"
            },
            at: format!("spec.{field}"),
            missing_class: None,
        });
        return;
    }
    let (old_req, new_req) = (
        &os["resources"]["requests"]["storage"],
        &ns["resources"]["requests"]["storage"],
    );
    let (Some(was), Some(now)) = (quantity(old_req), quantity(new_req)) else {
        return;
    };
    if now < was {
        // RecoverVolumeExpansionFailure: beta (on) in 1.32, GA in 1.34.
        let capacity = quantity(&live["status"]["capacity"]["storage"]);
        let refused = if env.version.at_least(32) {
            capacity
                .as_ref()
                .is_some_and(|c| now <= *c)
                .then_some("field can not be less than status.capacity")
        } else {
            Some("field can not be less than previous value")
        };
        if let Some(detail) = refused {
            out.push(Refusal {
                field: "spec.resources.requests.storage".into(),
                cause: format!("spec.resources.requests.storage: Forbidden: {detail}"),
                live: format!(
                    "request {}, status.capacity {}",
                    show(old_req),
                    show(&live["status"]["capacity"]["storage"])
                ),
                new: format!("request {}", show(new_req)),
                fix: SHRINK_FIX,
                at: "spec.resources.requests.storage".into(),
                missing_class: None,
            });
        }
        return;
    }
    if now > was {
        // The resize admission plugin (after validation).
        let forbidden =
            |detail: &str| format!("persistentvolumeclaims \"{name}\" is forbidden: {detail}");
        if !bound {
            out.push(Refusal {
                field: "spec.resources.requests.storage".into(),
                cause: forbidden("Only bound persistent volume claims can be expanded"),
                live: format!("request {} (not Bound)", show(old_req)),
                new: format!("request {}", show(new_req)),
                fix: "wait for the claim to bind before resizing it",
                at: "spec.resources.requests.storage".into(),
                missing_class: None,
            });
            return;
        }
        let class = |s: &Value| s["storageClassName"].as_str().unwrap_or("").to_string();
        let (oc, nc) = (class(os), class(ns));
        let allowed = !oc.is_empty() && oc == nc && (env.expansion)(&oc) == Some(true);
        if !allowed {
            let why = match (env.expansion)(&oc) {
                _ if oc.is_empty() => "the claim has no StorageClass".to_string(),
                None => format!("StorageClass {oc} does not exist"),
                Some(_) => format!("StorageClass {oc} does not set allowVolumeExpansion: true"),
            };
            out.push(Refusal {
                field: "spec.resources.requests.storage".into(),
                cause: forbidden("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"),
                live: format!("request {} ({why})", show(old_req)),
                new: format!("request {}", show(new_req)),
                fix: RESIZE_FIX,
                at: "spec.resources.requests.storage".into(),
                missing_class: ((env.expansion)(&oc).is_none() && !oc.is_empty()).then(|| oc.clone()),
            });
        }
    }
}

fn volume(live: &Value, merged: &Value, out: &mut Vec<Refusal>) {
    // The volume source: every spec field that is not one of PersistentVolumeSpec's own.
    const OWN: &[&str] = &[
        "capacity",
        "accessModes",
        "claimRef",
        "persistentVolumeReclaimPolicy",
        "storageClassName",
        "mountOptions",
        "volumeMode",
        "nodeAffinity",
        "volumeAttributesClassName",
    ];
    let (o, mut n) = (without(&live["spec"], OWN), without(&merged["spec"], OWN));
    // A CSI volume may get a controllerExpandSecretRef it did not have.
    if o["csi"].is_object() && o["csi"]["controllerExpandSecretRef"].is_null() {
        if let Some(csi) = n.get_mut("csi").and_then(Value::as_object_mut) {
            csi.remove("controllerExpandSecretRef");
        }
    }
    if !same(&o, &n, "spec") {
        let field = first_difference(&o, &n);
        let (live, new) = difference_at(&field, &o, &n);
        out.push(Refusal {
            field: "spec.persistentvolumesource".into(),
            cause: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation".into(),
            live,
            new,
            fix: VOLUME_FIX,
            at: format!("spec.{field}"),
            missing_class: None,
        });
    }
    immutable_enum(
        out,
        "volumeMode",
        "spec.volumeMode",
        (&live["spec"]["volumeMode"], &merged["spec"]["volumeMode"]),
        "Filesystem",
        VOLUME_FIX,
    );
    let (oa, na) = (
        &live["spec"]["nodeAffinity"],
        &merged["spec"]["nodeAffinity"],
    );
    if !zero(oa) && !same(oa, na, "nodeAffinity") {
        out.push(Refusal {
            field: "nodeAffinity".into(),
            // The server also prints the new affinity as a Go value; not repeated.
            cause: "nodeAffinity: field is immutable".into(),
            live: show(oa),
            new: show(na),
            fix: VOLUME_FIX,
            at: "spec.nodeAffinity".into(),
            missing_class: None,
        });
    }
}

fn class(live: &Value, merged: &Value, out: &mut Vec<Refusal>) {
    for key in ["parameters", "provisioner", "reclaimPolicy"] {
        let (o, n) = (&live[key], &merged[key]);
        // `same` takes an absent reclaimPolicy for its default, Delete.
        if !same(o, n, key) {
            out.push(Refusal {
                field: key.into(),
                cause: format!("{key}: Forbidden: updates to {key} are forbidden."),
                live: difference_at(key, live, merged).0,
                new: difference_at(key, live, merged).1,
                fix: CLASS_FIX,
                at: key.into(),
                missing_class: None,
            });
        }
    }
    immutable_enum(
        out,
        "volumeBindingMode",
        "volumeBindingMode",
        (&live["volumeBindingMode"], &merged["volumeBindingMode"]),
        "Immediate",
        CLASS_FIX,
    );
}

/// An enum field that may not change once set (`field is immutable`); absent stands for its
/// default (`same` knows the defaults), which the server shows as the new value.
fn immutable_enum(
    out: &mut Vec<Refusal>,
    key: &'static str,
    at: &str,
    (old, new): (&Value, &Value),
    default: &str,
    fix: &'static str,
) {
    if same(old, new, key) {
        return;
    }
    let shown = if new.is_null() {
        Value::from(default)
    } else {
        new.clone()
    };
    out.push(Refusal {
        field: key.into(),
        cause: format!(
            "{key}: Invalid value: {}: field is immutable",
            invalid_value(&shown)
        ),
        live: show(old),
        new: show(new),
        fix,
        at: at.into(),
        missing_class: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(expansion: Option<bool>) -> impl Fn(&str) -> Option<bool> {
        move |_| expansion
    }

    fn check(
        kind: &str,
        live: Value,
        new: Value,
        model: ApplyModel,
        expansion: Option<bool>,
    ) -> Vec<String> {
        let f = env(expansion);
        let e = Env {
            version: KubeVersion::new(1, 34),
            expansion: &f,
        };
        let api = match kind {
            "StorageClass" | "CSIDriver" => "storage.k8s.io/v1",
            "StatefulSet" | "Deployment" => "apps/v1",
            _ => "v1",
        };
        let m = merged(&live, &new, &model);
        refusals(api, kind, "data", &live, &m, &e)
            .into_iter()
            .map(|r| r.cause)
            .collect()
    }

    fn claim(spec: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"}, "spec": spec})
    }

    fn bound(mut c: Value, capacity: &str) -> Value {
        c["status"] = json!({"phase": "Bound", "capacity": {"storage": capacity}});
        c["spec"]["volumeName"] = json!("pv-1");
        c["spec"]["volumeMode"] = json!("Filesystem");
        c
    }

    /// TestValidatePersistentVolumeClaimUpdate (pkg/apis/core/validation): "valid-update-
    /// volume-name-only", "invalid-update-change-storage-class", "valid-upgrade-storage-class-
    /// from-nil", "invalid-update-change-access-modes", "invalid-update-change-resources-on-
    /// unbound-claim", "valid-expand-shrink-resize-enabled", "invalid-expand-shrink-to-status-
    /// resize-enabled"; recorded on a real v1.34.9 control plane: oracle cases 17–19.
    #[test]
    fn claims() {
        let base = claim(
            json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}),
        );
        let with = |k: &str, v: Value| {
            let mut c = base.clone();
            c["spec"][k] = v;
            c
        };
        let spec = "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";
        assert!(check(
            "PersistentVolumeClaim",
            base.clone(),
            with("volumeName", json!("pv-1")),
            ApplyModel::SameApply,
            None
        )
        .is_empty());
        assert!(check(
            "PersistentVolumeClaim",
            base.clone(),
            with("storageClassName", json!("fast")),
            ApplyModel::SameApply,
            None
        )
        .is_empty());
        let fast = with("storageClassName", json!("fast"));
        assert_eq!(
            check(
                "PersistentVolumeClaim",
                fast.clone(),
                with("storageClassName", json!("slow")),
                ApplyModel::SameApply,
                None
            ),
            [spec]
        );
        assert_eq!(
            check(
                "PersistentVolumeClaim",
                base.clone(),
                with("accessModes", json!(["ReadWriteMany"])),
                ApplyModel::SameApply,
                None
            ),
            [spec]
        );
        // Case 17 step 4: a Pending claim's request.
        let grown = with("resources", json!({"requests": {"storage": "2Gi"}}));
        assert_eq!(
            check(
                "PersistentVolumeClaim",
                base.clone(),
                grown.clone(),
                ApplyModel::SameApply,
                None
            ),
            [spec]
        );
        // Bound (case 18/19): growth needs an expandable class; shrink stops at capacity.
        let live = bound(fast.clone(), "1Gi");
        let grow = {
            let mut c = fast.clone();
            c["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
            c
        };
        assert_eq!(
            check("PersistentVolumeClaim", live.clone(), grow.clone(), ApplyModel::Patch, Some(false)),
            ["persistentvolumeclaims \"data\" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"]
        );
        assert!(check(
            "PersistentVolumeClaim",
            live.clone(),
            grow.clone(),
            ApplyModel::Patch,
            Some(true)
        )
        .is_empty());
        let mut grown_live = bound(grow.clone(), "1Gi");
        grown_live["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
        let to = |q: &str| {
            let mut c = fast.clone();
            c["spec"]["resources"]["requests"]["storage"] = json!(q);
            c
        };
        assert!(check(
            "PersistentVolumeClaim",
            grown_live.clone(),
            to("1536Mi"),
            ApplyModel::Patch,
            Some(true)
        )
        .is_empty());
        let below = "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity";
        assert_eq!(
            check(
                "PersistentVolumeClaim",
                grown_live.clone(),
                to("1Gi"),
                ApplyModel::Patch,
                Some(true)
            ),
            [below]
        );
        assert_eq!(
            check(
                "PersistentVolumeClaim",
                live.clone(),
                to("512Mi"),
                ApplyModel::Patch,
                Some(true)
            ),
            [below]
        );
        // The same size in other units, and server-written fields, are no change.
        assert!(check(
            "PersistentVolumeClaim",
            live.clone(),
            to("1024Mi"),
            ApplyModel::Patch,
            Some(false)
        )
        .is_empty());
    }

    /// Client-side apply removes what the last apply wrote and the file no longer has.
    #[test]
    fn client_side_apply_removes_what_was_applied_before() {
        let last = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"serviceName": "db", "selector": {"matchLabels": {"a": "b"}}}});
        let mut live = last.clone();
        live["metadata"]["annotations"] = json!({ LAST_APPLIED: last.to_string() });
        live["spec"]["podManagementPolicy"] = json!("OrderedReady");
        live["spec"]["revisionHistoryLimit"] = json!(10);
        let new = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"selector": {"matchLabels": {"a": "b"}}}});
        let model = ApplyModel::of_live(&live);
        assert_eq!(model, ApplyModel::ClientSide);
        assert_eq!(
            check("StatefulSet", live.clone(), new.clone(), model, None).len(),
            1
        );
        // Without the record, kubectl only patches: serviceName stays.
        live["metadata"]["annotations"] = json!({});
        assert!(check("StatefulSet", live, new, ApplyModel::Patch, None).is_empty());
    }

    /// TestValidateStatefulSetUpdate; case 21: a template's request changed.
    #[test]
    fn statefulset_templates() {
        let sts = |size: &str| {
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web"}, "spec": {
            "replicas": 1, "selector": {"matchLabels": {"a": "b"}},
            "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}}]}})
        };
        // The live object as the API server returns it: defaults in the templates.
        let mut live = sts("1Gi");
        live["spec"]["volumeClaimTemplates"][0]["apiVersion"] = json!("v1");
        live["spec"]["volumeClaimTemplates"][0]["kind"] = json!("PersistentVolumeClaim");
        live["spec"]["volumeClaimTemplates"][0]["metadata"]["creationTimestamp"] = Value::Null;
        live["spec"]["volumeClaimTemplates"][0]["spec"]["volumeMode"] = json!("Filesystem");
        live["spec"]["volumeClaimTemplates"][0]["status"] = json!({"phase": "Pending"});
        assert!(check(
            "StatefulSet",
            live.clone(),
            sts("1Gi"),
            ApplyModel::Patch,
            None
        )
        .is_empty());
        let mut scaled = sts("1Gi");
        scaled["spec"]["replicas"] = json!(3);
        assert!(check("StatefulSet", live.clone(), scaled, ApplyModel::Patch, None).is_empty());
        assert_eq!(
            check("StatefulSet", live, sts("2Gi"), ApplyModel::Patch, None).len(),
            1
        );
    }

    /// TestValidateStorageClassUpdate; case 20.
    #[test]
    fn storage_classes() {
        let sc = |extra: Value| {
            let mut v = json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "fast"}, "provisioner": "p", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"});
            for (k, x) in extra.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        };
        let live = sc(json!({}));
        let c = |new| check("StorageClass", live.clone(), new, ApplyModel::Patch, None);
        assert!(c(sc(json!({"allowVolumeExpansion": true}))).is_empty());
        assert_eq!(
            c(sc(json!({"parameters": {"type": "gp3"}}))),
            ["parameters: Forbidden: updates to parameters are forbidden."]
        );
        assert_eq!(
            c(sc(json!({"reclaimPolicy": "Retain"}))),
            ["reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden."]
        );
        assert_eq!(
            c(sc(json!({"volumeBindingMode": "WaitForFirstConsumer"}))),
            ["volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"]
        );
        assert_eq!(
            c(sc(json!({"provisioner": "q"}))),
            ["provisioner: Forbidden: updates to provisioner are forbidden."]
        );
    }

    /// TestCSIDriverValidationUpdate: attachRequired may not change (default true).
    #[test]
    fn csi_drivers() {
        let d = |spec: Value| json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d"}, "spec": spec});
        let live = d(json!({"attachRequired": true, "volumeLifecycleModes": ["Persistent"]}));
        assert!(check(
            "CSIDriver",
            live.clone(),
            d(json!({})),
            ApplyModel::Patch,
            None
        )
        .is_empty());
        assert_eq!(
            check(
                "CSIDriver",
                live,
                d(json!({"attachRequired": false})),
                ApplyModel::Patch,
                None
            ),
            ["spec.attachedRequired: Invalid value: false: field is immutable"]
        );
    }

    /// ValidatePersistentVolumeUpdate: a CSI volume may get a controllerExpandSecretRef.
    #[test]
    fn csi_volume_gets_an_expand_secret() {
        let pv = |extra: Value| {
            let mut v = json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "vol"},
                "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"], "csi": {"driver": "d", "volumeHandle": "h"}}});
            for (k, x) in extra.as_object().unwrap() {
                v["spec"]["csi"][k] = x.clone();
            }
            v
        };
        let secret = json!({"controllerExpandSecretRef": {"name": "s", "namespace": "n"}});
        assert!(check(
            "PersistentVolume",
            pv(json!({})),
            pv(secret.clone()),
            ApplyModel::Patch,
            None
        )
        .is_empty());
        assert_eq!(
            check(
                "PersistentVolume",
                pv(json!({})),
                pv(json!({"volumeHandle": "other"})),
                ApplyModel::Patch,
                None
            )
            .len(),
            1
        );
    }

    /// TestValidatePersistentVolumeUpdate; case 22: the source may not change, capacity may.
    #[test]
    fn volumes() {
        let pv = |path: &str, cap: &str| {
            json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "vol"},
            "spec": {"capacity": {"storage": cap}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": path}}})
        };
        let mut live = pv("/data/a", "5Gi");
        live["spec"]["hostPath"]["type"] = json!("");
        live["spec"]["volumeMode"] = json!("Filesystem");
        live["spec"]["persistentVolumeReclaimPolicy"] = json!("Retain");
        assert!(check(
            "PersistentVolume",
            live.clone(),
            pv("/data/a", "10Gi"),
            ApplyModel::Patch,
            None
        )
        .is_empty());
        assert_eq!(
            check("PersistentVolume", live, pv("/data/b", "5Gi"), ApplyModel::Patch, None),
            ["spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation"]
        );
    }
}
