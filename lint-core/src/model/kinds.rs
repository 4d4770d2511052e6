//! The kinds and API groups the API server serves, and which of them pvlint reads.

/// The kinds the built-in API groups serve (current and removed versions alike).
pub const BUILTIN_KINDS: &[&str] = &[
    "APIService",
    "Binding",
    "CSIDriver",
    "CSINode",
    "CSIStorageCapacity",
    "CertificateSigningRequest",
    "ClusterRole",
    "ClusterRoleBinding",
    "ComponentStatus",
    "ConfigMap",
    "ControllerRevision",
    "CronJob",
    "CustomResourceDefinition",
    "DaemonSet",
    "Deployment",
    "EndpointSlice",
    "Endpoints",
    "Event",
    "FlowSchema",
    "HorizontalPodAutoscaler",
    "Ingress",
    "IngressClass",
    "Job",
    "Lease",
    "LimitRange",
    "List",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "NetworkPolicy",
    "Node",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Pod",
    "PodDisruptionBudget",
    "PodSecurityPolicy",
    "PodTemplate",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "ReplicaSet",
    "ReplicationController",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ResourceQuota",
    "ResourceSlice",
    "Role",
    "RoleBinding",
    "RuntimeClass",
    "Secret",
    "Service",
    "ServiceAccount",
    "StatefulSet",
    "StorageClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// The API groups Kubernetes itself serves (no CustomResourceDefinition needed).
pub const BUILTIN_GROUPS: &[&str] = &[
    "",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "extensions",
    "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
];

/// The API group of an apiVersion (`apps/v1` → `apps`, `v1` → the core group "").
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Whether an object of this apiVersion and kind is ever sent to an API server. Tool
/// configuration shaped like an object is not, and gets no metadata findings: Kustomizations,
/// kind's Cluster, component configs in `*.config.k8s.io`, kpt/kustomize function configs,
/// kube-apiserver's audit policy (`audit.k8s.io`), kubeconfig files (`v1` `Config`), and any
/// group with no dot in it that Kubernetes does not serve (an API group of a
/// CustomResourceDefinition is a DNS subdomain with a dot; `skaffold/v4beta6` is not one).
pub fn reaches_api_server(api_version: &str, kind: &str) -> bool {
    let group = group_of(api_version);
    let tool = group.ends_with("config.k8s.io")
        || matches!(
            group,
            "config.kubernetes.io"
                | "kind.x-k8s.io"
                | "kubeadm.k8s.io"
                | "kpt.dev"
                | "k3d.io"
                | "audit.k8s.io"
        )
        || (api_version == "v1" && kind == "Config")
        || (!group.contains('.') && !BUILTIN_GROUPS.contains(&group));
    !tool
}

/// Object kinds pvlint indexes, with the API groups they live in.
pub fn known_kind(api_version: &str, kind: &str) -> Option<(KindClass, bool)> {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    use KindClass::*;
    let (class, namespaced, groups): (KindClass, bool, &[&str]) = match kind {
        "PersistentVolume" => (PersistentVolume, false, &[""]),
        "PersistentVolumeClaim" => (PersistentVolumeClaim, true, &[""]),
        "StorageClass" => (StorageClass, false, &["storage.k8s.io"]),
        "CSIDriver" => (CsiDriver, false, &["storage.k8s.io"]),
        "Deployment" => (Workload, true, &["apps", "extensions"]),
        "StatefulSet" | "DaemonSet" | "ReplicaSet" => (Workload, true, &["apps", "extensions"]),
        "Job" | "CronJob" => (Workload, true, &["batch"]),
        "Pod" => (Workload, true, &[""]),
        "Namespace"
        | "Node"
        | "ClusterRole"
        | "ClusterRoleBinding"
        | "CustomResourceDefinition"
        | "PriorityClass"
        | "VolumeAttachment"
        | "StorageVersionMigration"
        | "APIService"
        | "MutatingWebhookConfiguration"
        | "ValidatingWebhookConfiguration" => (Other, false, &[]),
        _ => (Other, true, &[]),
    };
    if class != Other && !groups.contains(&group) {
        return Some((Other, namespaced));
    }
    Some((class, namespaced))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindClass {
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    CsiDriver,
    Workload,
    Other,
}
