//! API versions Kubernetes no longer serves.
//!
//! From the Kubernetes deprecated API migration guide
//! (kubernetes/website content/en/docs/reference/using-api/deprecation-guide.md, "Removed
//! APIs by release"): from the release named, the API server serves no such resource, and
//! `kubectl apply` of such an object fails (`resource mapping not found ... no matches for kind
//! "Deployment" in version "extensions/v1beta1"`). The object never exists, so nothing else
//! about it matters: the validation of another version does not apply to it.

use crate::options::KubeVersion;

/// A removed API version of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub api_version: &'static str,
    pub kind: &'static str,
    /// The first release that no longer serves it.
    pub removed_in: KubeVersion,
    /// The version to use instead.
    pub replacement: &'static str,
}

const fn r(
    api_version: &'static str,
    kind: &'static str,
    minor: u32,
    replacement: &'static str,
) -> Removed {
    Removed {
        api_version,
        kind,
        removed_in: KubeVersion::new(1, minor),
        replacement,
    }
}

/// Removed versions of the kinds manifests hold, by release (the guide's sections v1.16,
/// v1.22, v1.25, v1.26, v1.27, v1.29, v1.32).
pub const REMOVED: &[Removed] = &[
    // v1.16
    r("extensions/v1beta1", "Deployment", 16, "apps/v1"),
    r("apps/v1beta1", "Deployment", 16, "apps/v1"),
    r("apps/v1beta2", "Deployment", 16, "apps/v1"),
    r("apps/v1beta1", "StatefulSet", 16, "apps/v1"),
    r("apps/v1beta2", "StatefulSet", 16, "apps/v1"),
    r("extensions/v1beta1", "DaemonSet", 16, "apps/v1"),
    r("apps/v1beta2", "DaemonSet", 16, "apps/v1"),
    r("extensions/v1beta1", "ReplicaSet", 16, "apps/v1"),
    r("apps/v1beta1", "ReplicaSet", 16, "apps/v1"),
    r("apps/v1beta2", "ReplicaSet", 16, "apps/v1"),
    r(
        "extensions/v1beta1",
        "NetworkPolicy",
        16,
        "networking.k8s.io/v1",
    ),
    r(
        "extensions/v1beta1",
        "PodSecurityPolicy",
        16,
        "policy/v1beta1 (itself removed in 1.25)",
    ),
    // v1.22
    r("extensions/v1beta1", "Ingress", 22, "networking.k8s.io/v1"),
    r(
        "networking.k8s.io/v1beta1",
        "Ingress",
        22,
        "networking.k8s.io/v1",
    ),
    r(
        "networking.k8s.io/v1beta1",
        "IngressClass",
        22,
        "networking.k8s.io/v1",
    ),
    r(
        "apiextensions.k8s.io/v1beta1",
        "CustomResourceDefinition",
        22,
        "apiextensions.k8s.io/v1",
    ),
    r(
        "apiregistration.k8s.io/v1beta1",
        "APIService",
        22,
        "apiregistration.k8s.io/v1",
    ),
    r(
        "admissionregistration.k8s.io/v1beta1",
        "MutatingWebhookConfiguration",
        22,
        "admissionregistration.k8s.io/v1",
    ),
    r(
        "admissionregistration.k8s.io/v1beta1",
        "ValidatingWebhookConfiguration",
        22,
        "admissionregistration.k8s.io/v1",
    ),
    r(
        "certificates.k8s.io/v1beta1",
        "CertificateSigningRequest",
        22,
        "certificates.k8s.io/v1",
    ),
    r(
        "coordination.k8s.io/v1beta1",
        "Lease",
        22,
        "coordination.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io/v1beta1",
        "ClusterRole",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io/v1beta1",
        "ClusterRoleBinding",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io/v1beta1",
        "Role",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io/v1beta1",
        "RoleBinding",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "scheduling.k8s.io/v1beta1",
        "PriorityClass",
        22,
        "scheduling.k8s.io/v1",
    ),
    r(
        "storage.k8s.io/v1beta1",
        "CSIDriver",
        22,
        "storage.k8s.io/v1",
    ),
    r("storage.k8s.io/v1beta1", "CSINode", 22, "storage.k8s.io/v1"),
    r(
        "storage.k8s.io/v1beta1",
        "StorageClass",
        22,
        "storage.k8s.io/v1",
    ),
    r(
        "storage.k8s.io/v1beta1",
        "VolumeAttachment",
        22,
        "storage.k8s.io/v1",
    ),
    // v1.25
    r("batch/v1beta1", "CronJob", 25, "batch/v1"),
    r(
        "discovery.k8s.io/v1beta1",
        "EndpointSlice",
        25,
        "discovery.k8s.io/v1",
    ),
    r("events.k8s.io/v1beta1", "Event", 25, "events.k8s.io/v1"),
    r(
        "autoscaling/v2beta1",
        "HorizontalPodAutoscaler",
        25,
        "autoscaling/v2",
    ),
    r("policy/v1beta1", "PodDisruptionBudget", 25, "policy/v1"),
    r(
        "policy/v1beta1",
        "PodSecurityPolicy",
        25,
        "Pod Security Admission (no replacement kind)",
    ),
    r("node.k8s.io/v1beta1", "RuntimeClass", 25, "node.k8s.io/v1"),
    // v1.26
    r(
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "FlowSchema",
        26,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "PriorityLevelConfiguration",
        26,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "autoscaling/v2beta2",
        "HorizontalPodAutoscaler",
        26,
        "autoscaling/v2",
    ),
    // v1.27
    r(
        "storage.k8s.io/v1beta1",
        "CSIStorageCapacity",
        27,
        "storage.k8s.io/v1",
    ),
    // v1.29
    r(
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "FlowSchema",
        29,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "PriorityLevelConfiguration",
        29,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    // v1.32
    r(
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "FlowSchema",
        32,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "PriorityLevelConfiguration",
        32,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
];

/// Whether `version` of Kubernetes no longer serves this kind at this apiVersion.
pub fn removed(api_version: &str, kind: &str, version: KubeVersion) -> Option<&'static Removed> {
    REMOVED
        .iter()
        .find(|r| r.api_version == api_version && r.kind == kind && version >= r.removed_in)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_depends_on_the_release() {
        let v = KubeVersion::new;
        assert!(removed("extensions/v1beta1", "Deployment", v(1, 16)).is_some());
        assert!(removed("extensions/v1beta1", "Deployment", v(1, 15)).is_none());
        assert!(removed("apps/v1", "Deployment", v(1, 34)).is_none());
        assert!(removed("batch/v1beta1", "CronJob", v(1, 24)).is_none());
        assert_eq!(
            removed("storage.k8s.io/v1beta1", "StorageClass", v(1, 34)).map(|r| r.replacement),
            Some("storage.k8s.io/v1")
        );
    }
}
