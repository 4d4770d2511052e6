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

use merge::{difference_at, first_difference, invalid_value, quantity, same, show, without, zero};
use serde_json::Value;

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
    pub version: crate::options::Target,
    /// Whether the StorageClass of this name allows volume expansion (None: no such class).
    pub expansion: &'a dyn Fn(&str) -> Option<bool>,
}

mod merge;

pub use merge::merged;

const CLAIM_FIX: &str = "a claim's spec cannot change after creation: create a claim with a new name and copy the data (a Job that mounts both, or a backup tool), or keep the live spec in the manifest";
const VOLUME_FIX: &str = "a volume's source cannot change: create a new PersistentVolume (and claim) for the new source, or keep the live source in the manifest";
const CLASS_FIX: &str = "a StorageClass's parameters, provisioner, reclaimPolicy and volumeBindingMode cannot change: create a class with a new name and point new claims at it (existing volumes keep the old settings), or delete and re-create the class (no volume is affected)";
const STS_FIX: &str = "volumeClaimTemplates, serviceName, selector and podManagementPolicy cannot change: `kubectl delete statefulset NAME --cascade=orphan` keeps the pods and claims, then apply; existing claims keep their old spec (resize them one by one)";
const SELECTOR_FIX: &str = "a selector cannot change: delete the workload (`--cascade=orphan` keeps its pods) and apply it again, or keep the live selector";
const RESIZE_FIX: &str = "set `allowVolumeExpansion: true` on the claim's StorageClass (and check its driver can expand), or keep the live request";
const SHRINK_FIX: &str =
    "volumes cannot shrink: keep the request at or above the live claim's status.capacity";
const POD_FIX: &str = "a Pod's spec cannot change after creation (but for its images, activeDeadlineSeconds and added tolerations): delete the Pod and create it again, or run it under a Deployment, which replaces its pods";
const ATTRIBUTES_FIX: &str =
    "an applied VolumeAttributesClass cannot be removed: name another, or keep it";
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
        ("", "Pod") => pod(live, merged, &mut out),
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

/// `ValidatePodUpdate` (pkg/apis/core/validation): a Pod's spec is immutable but for its
/// containers' and init containers' images, activeDeadlineSeconds, added tolerations and
/// terminationGracePeriodSeconds. Fields the API server defaults (restartPolicy, dnsPolicy,
/// imagePullPolicy, ...) are left out of the comparison: two manifests that differ only
/// there (one writes the default, one leaves it out) may be the same object once defaulted,
/// and no update is reported refused on a guess.
fn pod(live: &Value, merged: &Value, out: &mut Vec<Refusal>) {
    const MUTABLE_OR_DEFAULTED: &[&str] = &[
        "activeDeadlineSeconds",
        "tolerations",
        "terminationGracePeriodSeconds",
        "schedulingGates",
        "restartPolicy",
        "dnsPolicy",
        "schedulerName",
        "securityContext",
        "serviceAccountName",
        "serviceAccount",
        "enableServiceLinks",
        "priority",
        "preemptionPolicy",
        "nodeName",
    ];
    const CONTAINER: &[&str] = &[
        "image",
        "imagePullPolicy",
        "terminationMessagePath",
        "terminationMessagePolicy",
    ];
    let comparable = |spec: &Value| {
        let mut s = without(spec, MUTABLE_OR_DEFAULTED);
        for list in ["containers", "initContainers"] {
            if let Some(items) = s.get_mut(list).and_then(Value::as_array_mut) {
                for c in items.iter_mut() {
                    *c = without(c, CONTAINER);
                }
            }
        }
        s
    };
    let (o, n) = (comparable(&live["spec"]), comparable(&merged["spec"]));
    if same(&o, &n, "spec") {
        return;
    }
    let field = first_difference(&o, &n);
    let (was, now) = difference_at(&field, &o, &n);
    out.push(Refusal {
        field: "spec".into(),
        cause: "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)".into(),
        live: was,
        new: now,
        fix: POD_FIX,
        at: format!("spec.{field}"),
        missing_class: None,
    });
}

fn claim(name: &str, live: &Value, merged: &Value, env: &Env<'_>, out: &mut Vec<Refusal>) {
    let (os, ns) = (&live["spec"], &merged["spec"]);
    let bound = live["status"]["phase"] == "Bound";
    // volumeAttributesClassName as 1.34 validates it (k8s.io/kubernetes v1.34.2
    // pkg/apis/core/validation ValidatePersistentVolumeClaimUpdate, the VolumeAttributesClass
    // gate GA and on): it may change on a Bound claim only (the status is the live one:
    // persistentvolumeclaimStrategy.PrepareForUpdate), and once a class is applied
    // (status.currentVolumeAttributesClassName) it may not be removed. Earlier releases
    // validate it otherwise, with the gate off by default: not judged there.
    let attributes = env.version.at_least(34)
        && env
            .version
            .feature(crate::version::Feature::VolumeAttributesClass);
    let mut skip = vec!["resources"];
    if bound || !attributes {
        skip.push("volumeAttributesClassName");
    }
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
    let (was, now) = (
        &os["volumeAttributesClassName"],
        &ns["volumeAttributesClassName"],
    );
    let current = &live["status"]["currentVolumeAttributesClassName"];
    if attributes && was != now && !current.is_null() {
        let detail = match now {
            Value::Null => Some("update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"),
            Value::String(v) if v.is_empty() => Some("update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil"),
            _ => None,
        };
        if let Some(detail) = detail {
            out.push(Refusal {
                field: "spec.volumeAttributesClassName".into(),
                cause: format!("spec.volumeAttributesClassName: Forbidden: {detail}"),
                live: format!(
                    "volumeAttributesClassName {}, status.currentVolumeAttributesClassName {}",
                    show(was),
                    show(current)
                ),
                new: format!("volumeAttributesClassName {}", show(now)),
                fix: ATTRIBUTES_FIX,
                at: "spec.volumeAttributesClassName".into(),
                missing_class: None,
            });
            return;
        }
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
        let refused = if env
            .version
            .feature(crate::version::Feature::RecoverVolumeExpansionFailure)
        {
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
    // ValidatePersistentVolumeUpdate: a volume's volumeAttributesClassName may not be removed
    // (validated whenever the live volume has one: ValidationOptionsForPersistentVolume).
    let (was, now) = (
        &live["spec"]["volumeAttributesClassName"],
        &merged["spec"]["volumeAttributesClassName"],
    );
    if was.is_string() && now.is_null() {
        out.push(Refusal {
            field: "spec.volumeAttributesClassName".into(),
            cause: "spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden".into(),
            live: format!("volumeAttributesClassName {}", show(was)),
            new: "no volumeAttributesClassName".into(),
            fix: ATTRIBUTES_FIX,
            at: "spec.volumeAttributesClassName".into(),
            missing_class: None,
        });
    }
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
mod tests;
