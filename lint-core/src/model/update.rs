//! Updates the API server refuses: fields immutable after creation.
//!
//! When one apply set defines an object twice, `kubectl apply` creates it from the first
//! definition and updates it with the second (a three-way merge against the first, so the
//! second replaces it). The update passes the API server's update validation, or is refused
//! and the first definition stands. Upstream (pkg/apis/*/validation):
//!
//! - `ValidatePersistentVolumeClaimUpdate`: the spec is immutable after creation, except
//!   `volumeName` while it is empty (the controller sets it), `storageClassName` from nil to a
//!   class (`validateStorageClassUpgradeFromNil`), `volumeAttributesClassName`, and
//!   `resources.requests` of a Bound claim only (a claim just created is not Bound yet);
//! - `ValidatePersistentVolumeUpdate`: the volume source and `volumeMode` are immutable;
//! - `ValidateStorageClassUpdate`: `parameters`, `provisioner`, `reclaimPolicy` and
//!   `volumeBindingMode` are immutable;
//! - `ValidateStatefulSetUpdate`: only `replicas`, `ordinals`, `template`, `updateStrategy`,
//!   `persistentVolumeClaimRetentionPolicy` and `minReadySeconds` may change;
//! - `ValidateDeploymentUpdate`, `ValidateReplicaSetUpdate`, `ValidateDaemonSetUpdate` (apps/v1):
//!   the selector is immutable.
//!
//! Messages are the API server's own.

use super::Object;
use crate::node::{same_content, Node, Value};

/// Why the API server refuses an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The field, as the API server names it.
    pub field: &'static str,
    /// The API server's message.
    pub message: &'static str,
}

fn get<'a>(root: &'a Node, path: &str) -> Option<&'a Node> {
    root.at(path).filter(|n| !n.is_null())
}

/// Equal as the server stores them: absent and null are one, and `default` stands for an
/// absent scalar.
fn same_or_default(a: Option<&Node>, b: Option<&Node>, default: Option<&str>) -> bool {
    fn text(n: Option<&Node>) -> Option<&str> {
        n.and_then(Node::as_scalar).map(|s| s.text.as_str())
    }
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => same_content(x, y),
        (Some(_), None) | (None, Some(_)) => default.is_some() && text(a).or(text(b)) == default,
    }
}

/// A zero value (null, "", an empty list or map): the same as an absent field once the API
/// server has decoded and defaulted the object (`hostPath.type: ""` is the default).
fn zero(n: &Node) -> bool {
    match &n.value {
        Value::Scalar(s) => {
            n.is_null() || (s.kind == crate::node::ScalarKind::Str && s.text.is_empty())
        }
        Value::Seq(items) => items.is_empty(),
        Value::Map(es) => es.iter().all(|e| zero(&e.value)),
    }
}

/// A map's entries, but for `skip` and zero values.
fn entries_but<'a>(n: Option<&'a Node>, skip: &[&str]) -> Vec<&'a crate::node::Entry> {
    match n.map(|n| &n.value) {
        Some(Value::Map(es)) => es
            .iter()
            .filter(|e| !skip.contains(&e.key.as_str()) && !zero(&e.value))
            .collect(),
        _ => Vec::new(),
    }
}

/// Equal once zero values are left out, at every level.
fn same_value(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Map(_), Value::Map(_)) => same_but(Some(a), Some(b), &[]),
        (Value::Seq(x), Value::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        _ => same_content(a, b),
    }
}

/// The same map, but for `skip` (zero values left out).
fn same_but(a: Option<&Node>, b: Option<&Node>, skip: &[&str]) -> bool {
    let (x, y) = (entries_but(a, skip), entries_but(b, skip));
    x.len() == y.len()
        && x.iter().all(|e| {
            y.iter()
                .find(|f| f.key == e.key)
                .is_some_and(|f| same_value(&e.value, &f.value))
        })
}

/// Whether the API server refuses to update `old` (just created from its manifest) to `new`
/// (a later definition of the same object), and why.
pub fn refusal(old: &Object, new: &Object) -> Option<Refusal> {
    let (o, n) = (old.root(), new.root());
    let group = new.api_version.rsplit_once('/').map_or("", |(g, _)| g);
    match (group, new.kind.as_str()) {
        ("", "PersistentVolumeClaim") => {
            let (os, ns) = (get(o, "spec"), get(n, "spec"));
            let mut skip = vec!["volumeAttributesClassName", "resources"];
            if get(o, "spec.volumeName").is_none() {
                skip.push("volumeName");
            }
            if get(o, "spec.storageClassName").is_none() {
                skip.push("storageClassName");
            }
            // Only `resources.requests` of a Bound claim may change.
            let resources_same =
                same_content_opt(get(o, "spec.resources"), get(n, "spec.resources"));
            let mode_same = same_or_default(
                get(o, "spec.volumeMode"),
                get(n, "spec.volumeMode"),
                Some("Filesystem"),
            );
            let rest_same = same_but(os, ns, &[&skip[..], &["volumeMode"]].concat());
            (!(resources_same && mode_same && rest_same)).then_some(Refusal {
                field: "spec",
                message: "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
            })
        }
        ("", "PersistentVolume") => {
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
            if !same_but(get(o, "spec"), get(n, "spec"), OWN) {
                return Some(Refusal {
                    field: "spec.persistentvolumesource",
                    message: "spec.persistentvolumesource is immutable after creation",
                });
            }
            (!same_or_default(
                get(o, "spec.volumeMode"),
                get(n, "spec.volumeMode"),
                Some("Filesystem"),
            ))
            .then_some(Refusal {
                field: "spec.volumeMode",
                message: "field is immutable",
            })
        }
        ("storage.k8s.io", "StorageClass") => {
            if !same_content_opt(get(o, "parameters"), get(n, "parameters")) {
                return Some(Refusal {
                    field: "parameters",
                    message: "updates to parameters are forbidden.",
                });
            }
            if !same_or_default(get(o, "provisioner"), get(n, "provisioner"), None) {
                return Some(Refusal {
                    field: "provisioner",
                    message: "updates to provisioner are forbidden.",
                });
            }
            if !same_or_default(
                get(o, "reclaimPolicy"),
                get(n, "reclaimPolicy"),
                Some("Delete"),
            ) {
                return Some(Refusal {
                    field: "reclaimPolicy",
                    message: "updates to reclaimPolicy are forbidden.",
                });
            }
            (!same_or_default(
                get(o, "volumeBindingMode"),
                get(n, "volumeBindingMode"),
                Some("Immediate"),
            ))
            .then_some(Refusal {
                field: "volumeBindingMode",
                message: "field is immutable",
            })
        }
        ("apps", "StatefulSet") => {
            const MUTABLE: &[&str] = &[
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
            ];
            (!same_but(get(o, "spec"), get(n, "spec"), MUTABLE)).then_some(Refusal {
                field: "spec",
                message: "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
            })
        }
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") => {
            (!same_content_opt(get(o, "spec.selector"), get(n, "spec.selector"))).then_some(
                Refusal {
                    field: "spec.selector",
                    message: "field is immutable",
                },
            )
        }
        _ => None,
    }
}

fn same_content_opt(a: Option<&Node>, b: Option<&Node>) -> bool {
    match (a.filter(|n| !zero(n)), b.filter(|n| !zero(n))) {
        (None, None) => true,
        (Some(x), Some(y)) => same_value(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;
    use crate::source::Source;

    /// The refusal (field) for updating the first object of `a` to the first of `b`.
    fn update(a: &str, b: &str) -> Option<&'static str> {
        let (x, y) = (
            Index::build(&[Source::new("a.yaml", a)]),
            Index::build(&[Source::new("b.yaml", b)]),
        );
        refusal(&x.objects[0], &y.objects[0]).map(|r| r.field)
    }

    fn claim(spec: &str) -> String {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: c}}\nspec:\n{spec}")
    }

    /// pkg/apis/core/validation TestValidatePersistentVolumeClaimUpdate, for a claim that is
    /// not Bound: "invalid-update-change-resources-on-unbound-claim",
    /// "valid-upgrade-storage-class-from-nil", "invalid-update-change-storage-class",
    /// "valid-update-volume-name-only", "invalid-update-change-access-modes".
    #[test]
    fn claim_spec_is_immutable_but_for_what_upstream_allows() {
        let base =
            claim("  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n");
        let with = |extra: &str| {
            claim(&format!(
                "  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 1Gi}}}}\n{extra}"
            ))
        };
        assert_eq!(update(&base, &base), None);
        assert_eq!(
            update(
                &base,
                &claim("  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 2Gi}}\n")
            ),
            Some("spec")
        );
        assert_eq!(update(&base, &with("  storageClassName: fast\n")), None);
        assert_eq!(
            update(
                &with("  storageClassName: slow\n"),
                &with("  storageClassName: fast\n")
            ),
            Some("spec")
        );
        assert_eq!(update(&base, &with("  volumeName: pv-1\n")), None);
        assert_eq!(
            update(&with("  volumeName: pv-1\n"), &with("  volumeName: pv-2\n")),
            Some("spec")
        );
        assert_eq!(update(&base, &with("  volumeMode: Filesystem\n")), None);
        assert_eq!(update(&base, &with("  volumeMode: Block\n")), Some("spec"));
        assert_eq!(
            update(
                &base,
                &claim("  accessModes: [ReadWriteMany]\n  resources: {requests: {storage: 1Gi}}\n")
            ),
            Some("spec")
        );
    }

    /// pkg/apis/storage/validation TestUpdateStorageClass: parameters, provisioner and
    /// reclaimPolicy may not change; other fields may.
    #[test]
    fn storage_class_updates() {
        let sc = |rest: &str| {
            format!("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: s}}\nprovisioner: p\n{rest}")
        };
        assert_eq!(update(&sc(""), &sc("allowVolumeExpansion: true\n")), None);
        assert_eq!(update(&sc(""), &sc("reclaimPolicy: Delete\n")), None);
        assert_eq!(
            update(&sc(""), &sc("reclaimPolicy: Retain\n")),
            Some("reclaimPolicy")
        );
        assert_eq!(
            update(&sc(""), &sc("parameters: {type: gp3}\n")),
            Some("parameters")
        );
        assert_eq!(
            update(&sc(""), &sc("volumeBindingMode: WaitForFirstConsumer\n")),
            Some("volumeBindingMode")
        );
        assert_eq!(
            update(&sc(""), &sc("").replace("provisioner: p", "provisioner: q")),
            Some("provisioner")
        );
    }

    /// pkg/apis/apps/validation TestValidateStatefulSetUpdate and TestValidateDeploymentUpdate.
    #[test]
    fn workload_updates() {
        let sts = |replicas: u8, size: &str| {
            format!("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: w}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{a: b}}}}\n  template: {{metadata: {{labels: {{a: b}}}}}}\n  volumeClaimTemplates:\n  - metadata: {{name: d}}\n    spec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: {size}}}}}}}\n")
        };
        assert_eq!(update(&sts(1, "1Gi"), &sts(3, "1Gi")), None);
        assert_eq!(update(&sts(1, "1Gi"), &sts(1, "2Gi")), Some("spec"));
        let deploy = |v: &str| {
            format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: w}}\nspec:\n  selector: {{matchLabels: {{a: {v}}}}}\n")
        };
        assert_eq!(update(&deploy("b"), &deploy("b")), None);
        assert_eq!(update(&deploy("b"), &deploy("c")), Some("spec.selector"));
    }
}
