//! Kubernetes constants and small pieces of upstream logic, each named after the
//! upstream function it follows (see ../shared/docs/kubernetes-semantics.md).

use std::fmt;

/// The claim a StatefulSet creates for `ordinal` from its volumeClaimTemplate `template`
/// (`getPersistentVolumeClaimName` in pkg/controller/statefulset/stateful_set_utils.go:
/// `<template>-<statefulset>-<ordinal>`).
pub fn template_claim_name(template: &str, statefulset: &str, ordinal: i64) -> String {
    format!("{template}-{statefulset}-{ordinal}")
}

/// The ordinal whose claim [`template_claim_name`] names `claim`, if it is one of them.
pub fn template_claim_ordinal(template: &str, statefulset: &str, claim: &str) -> Option<i64> {
    let digits = claim
        .strip_prefix(template)?
        .strip_prefix('-')?
        .strip_prefix(statefulset)?
        .strip_prefix('-')?;
    // The controller formats the ordinal with %d: no sign, no leading zero.
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    canonical.then(|| digits.parse().ok()).flatten()
}

pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
pub const ANN_PROVISIONED_BY: &str = "pv.kubernetes.io/provisioned-by";
pub const ANN_MIGRATED_TO: &str = "pv.kubernetes.io/migrated-to";
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
pub const ANN_BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
pub const ANN_DEFAULT_CLASS: &str = "storageclass.kubernetes.io/is-default-class";
pub const ANN_BETA_DEFAULT_CLASS: &str = "storageclass.beta.kubernetes.io/is-default-class";
pub const FINALIZER_EXTERNAL_PROVISIONER: &str =
    "external-provisioner.volume.kubernetes.io/finalizer";
pub const FINALIZER_PV_CONTROLLER: &str = "kubernetes.io/pv-controller";
pub const FINALIZER_PV_PROTECTION: &str = "kubernetes.io/pv-protection";
pub const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";
pub const CSI_PROVISIONER_IDENTITY: &str = "storage.kubernetes.io/csiProvisionerIdentity";

/// Access modes as a set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccessModes(u8);

impl AccessModes {
    pub const RWO: AccessModes = AccessModes(1);
    pub const ROX: AccessModes = AccessModes(2);
    pub const RWX: AccessModes = AccessModes(4);
    pub const RWOP: AccessModes = AccessModes(8);

    pub fn parse(s: &str) -> Option<AccessModes> {
        match s {
            "ReadWriteOnce" => Some(Self::RWO),
            "ReadOnlyMany" => Some(Self::ROX),
            "ReadWriteMany" => Some(Self::RWX),
            "ReadWriteOncePod" => Some(Self::RWOP),
            _ => None,
        }
    }

    pub fn insert(&mut self, other: AccessModes) {
        self.0 |= other.0;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, other: AccessModes) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Only ReadWriteOnce and/or ReadWriteOncePod: the volume is exclusive to one node or pod.
    pub fn exclusive_only(self) -> bool {
        !self.is_empty() && self.0 & !(Self::RWO.0 | Self::RWOP.0) == 0
    }

    pub fn has_rwop(self) -> bool {
        self.contains(Self::RWOP)
    }

    /// Long names, in the order Kubernetes lists them.
    pub fn names(self) -> Vec<&'static str> {
        [
            (Self::RWO, "ReadWriteOnce"),
            (Self::ROX, "ReadOnlyMany"),
            (Self::RWX, "ReadWriteMany"),
            (Self::RWOP, "ReadWriteOncePod"),
        ]
        .iter()
        .filter(|(m, _)| self.contains(*m))
        .map(|(_, n)| *n)
        .collect()
    }
}

impl fmt::Display for AccessModes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short: Vec<&str> = [
            (Self::RWO, "RWO"),
            (Self::ROX, "ROX"),
            (Self::RWX, "RWX"),
            (Self::RWOP, "RWOP"),
        ]
        .iter()
        .filter(|(m, _)| self.contains(*m))
        .map(|(_, n)| *n)
        .collect();
        if short.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&short.join(","))
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VolumeMode {
    Filesystem,
    Block,
}

impl VolumeMode {
    pub fn as_str(self) -> &'static str {
        match self {
            VolumeMode::Filesystem => "Filesystem",
            VolumeMode::Block => "Block",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReclaimPolicy {
    Retain,
    Delete,
    Recycle,
}

/// The metadata fields the API server sets (ObjectMeta's uid, resourceVersion, ...), in the
/// order that says the most first: the marks of an export (`server-populated-fields` reports
/// them, `pvlint migrate` removes them, the admission policy leaves them out of what it
/// judges, since the API server has set them by the time it runs).
pub const SERVER_POPULATED_METADATA: &[&str] = &[
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "selfLink",
    "generation",
    "managedFields",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
];

/// The pod-template labels the Job strategy's `generateSelector` writes with a new Job's uid
/// (`batch.LegacyControllerUidLabel`, `batch.ControllerUidLabel`), and the selector key it
/// adds: the marks of an exported Job (validation rejects them on create, `pvlint migrate`
/// removes them, the admission policy undoes them before it judges).
pub const JOB_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];
pub const JOB_UID_SELECTOR_KEY: &str = "batch.kubernetes.io/controller-uid";

crate::string::named!(ReclaimPolicy {
    Retain => "Retain",
    Delete => "Delete",
    Recycle => "Recycle",
});

impl ReclaimPolicy {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "Retain" => Some(Self::Retain),
            "Delete" => Some(Self::Delete),
            "Recycle" => Some(Self::Recycle),
            _ => None,
        }
    }
}

/// In-tree volume sources of a PersistentVolume, with how Kubernetes treats them.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct InTreeSource {
    pub field: &'static str,
    /// Volumes of this type go through attach/detach: Multi-Attach applies.
    pub attachable: bool,
    /// Served through CSI migration today, so the external-provisioner's finalizer applies.
    pub csi_migrated: bool,
}

pub const IN_TREE_SOURCES: &[InTreeSource] = &[
    InTreeSource {
        field: "awsElasticBlockStore",
        attachable: true,
        csi_migrated: true,
    },
    InTreeSource {
        field: "azureDisk",
        attachable: true,
        csi_migrated: true,
    },
    InTreeSource {
        field: "azureFile",
        attachable: false,
        csi_migrated: true,
    },
    InTreeSource {
        field: "cephfs",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "cinder",
        attachable: true,
        csi_migrated: true,
    },
    InTreeSource {
        field: "fc",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "flexVolume",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "flocker",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "gcePersistentDisk",
        attachable: true,
        csi_migrated: true,
    },
    InTreeSource {
        field: "glusterfs",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "hostPath",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "iscsi",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "local",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "nfs",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "photonPersistentDisk",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "portworxVolume",
        attachable: true,
        csi_migrated: true,
    },
    InTreeSource {
        field: "quobyte",
        attachable: false,
        csi_migrated: false,
    },
    InTreeSource {
        field: "rbd",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "scaleIO",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "storageos",
        attachable: true,
        csi_migrated: false,
    },
    InTreeSource {
        field: "vsphereVolume",
        attachable: true,
        csi_migrated: true,
    },
];

pub fn in_tree_source(field: &str) -> Option<&'static InTreeSource> {
    IN_TREE_SOURCES.iter().find(|s| s.field == field)
}

/// In-tree volume sources nothing expands. kube-controller-manager's expand controller has
/// an expander only for the legacy cloud providers and `fc` (cmd/kube-controller-manager/app/
/// plugins.go `ProbeExpandableVolumePlugins`); for any other volume `FindExpandablePluginBySpec`
/// fails and the claim waits for an external resizer (Normal ExternalExpanding), and the
/// external-resizer serves only CSI volumes (and in-tree ones migrated to CSI).
pub fn never_expanded(field: &str) -> bool {
    matches!(field, "hostPath" | "local" | "nfs")
}

/// In-tree provisioners (`kubernetes.io/<plugin>`) and the volume source they create.
pub fn in_tree_provisioner_source(provisioner: &str) -> Option<&'static InTreeSource> {
    let plugin = provisioner.strip_prefix("kubernetes.io/")?;
    let field = match plugin {
        "aws-ebs" => "awsElasticBlockStore",
        "gce-pd" => "gcePersistentDisk",
        "azure-disk" => "azureDisk",
        "azure-file" => "azureFile",
        "cinder" => "cinder",
        "vsphere-volume" => "vsphereVolume",
        "rbd" => "rbd",
        "glusterfs" => "glusterfs",
        "portworx-volume" => "portworxVolume",
        "scaleio" => "scaleIO",
        "storageos" => "storageos",
        "quobyte" => "quobyte",
        "cephfs" => "cephfs",
        "host-path" => "hostPath",
        _ => return None,
    };
    in_tree_source(field)
}

/// An IntOrString value of a Deployment's rolling-update strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntOrPercent {
    Int(i64),
    Percent(i64),
}

impl fmt::Display for IntOrPercent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrPercent::Int(v) => write!(f, "{v}"),
            IntOrPercent::Percent(v) => write!(f, "{v}%"),
        }
    }
}

impl IntOrPercent {
    /// intstr.GetScaledValueFromIntOrPercent.
    pub fn scaled(&self, total: i64, round_up: bool) -> i64 {
        match *self {
            IntOrPercent::Int(v) => v,
            IntOrPercent::Percent(p) => {
                // Upstream computes in float64 and converts back to int; wide integers give
                // the same result for every realistic value and cannot overflow on absurd ones.
                let prod = i128::from(p) * i128::from(total);
                let v = if round_up {
                    (prod + 99).div_euclid(100)
                } else {
                    prod.div_euclid(100)
                };
                i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
            }
        }
    }
}

/// deployment/util.ResolveFenceposts: (surge, unavailable) for `replicas`.
pub fn resolve_fenceposts(
    max_surge: &IntOrPercent,
    max_unavailable: &IntOrPercent,
    replicas: i64,
) -> (i64, i64) {
    let surge = max_surge.scaled(replicas, true);
    let mut unavailable = max_unavailable.scaled(replicas, false);
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

/// Whether an NFS `server` value is an IPv4/IPv6 address or a DNS name.
pub fn nfs_server_problem(server: &str) -> Option<String> {
    let s = server.trim();
    if s.is_empty() {
        return Some("it is empty".into());
    }
    if s != server {
        return Some("it has leading or trailing spaces".into());
    }
    let unbracketed = s
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(s);
    if unbracketed.contains(':') {
        return match unbracketed.parse::<std::net::Ipv6Addr>() {
            Ok(_) => None,
            Err(_) => Some(
                "it contains ':' but is not an IPv6 address (and a port cannot be given here)"
                    .into(),
            ),
        };
    }
    let labels: Vec<&str> = s.trim_end_matches('.').split('.').collect();
    if labels
        .iter()
        .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()))
    {
        return match s.parse::<std::net::Ipv4Addr>() {
            Ok(_) => None,
            Err(_) if labels.len() != 4 => Some(format!(
                "it looks like an IPv4 address but has {} parts instead of 4",
                labels.len()
            )),
            Err(_) => Some(
                "it looks like an IPv4 address but a part is above 255 or has leading zeros".into(),
            ),
        };
    }
    if s.len() > 253 {
        return Some("a DNS name is at most 253 characters".into());
    }
    for l in &labels {
        if l.is_empty() {
            return Some("it has an empty DNS label (\"..\")".into());
        }
        if l.len() > 63 {
            return Some(format!(
                "the DNS label \"{l}\" is longer than 63 characters"
            ));
        }
        if !l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            || l.starts_with('-')
            || l.ends_with('-')
        {
            return Some(format!(
                "\"{l}\" is not a valid DNS label (letters, digits and inner '-' only)"
            ));
        }
    }
    if labels
        .last()
        .is_some_and(|tld| tld.chars().all(|c| c.is_ascii_digit()))
    {
        return Some("the last DNS label is all digits".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use IntOrPercent::*;

    #[test]
    fn fenceposts_follow_upstream() {
        let d = (Percent(25), Percent(25));
        assert_eq!(resolve_fenceposts(&d.0, &d.1, 1), (1, 0));
        assert_eq!(resolve_fenceposts(&d.0, &d.1, 2), (1, 0));
        assert_eq!(resolve_fenceposts(&d.0, &d.1, 4), (1, 1));
        assert_eq!(resolve_fenceposts(&d.0, &d.1, 10), (3, 2));
        assert_eq!(resolve_fenceposts(&Int(1), &Int(1), 1), (1, 1));
        assert_eq!(resolve_fenceposts(&Int(0), &Int(0), 3), (0, 1));
        assert_eq!(resolve_fenceposts(&Percent(10), &Percent(10), 1), (1, 0));
        assert_eq!(resolve_fenceposts(&Int(0), &Percent(10), 5), (0, 1));
        assert_eq!(resolve_fenceposts(&Percent(100), &Int(0), 3), (3, 0));
        // Absurd values (a mutated admission request) saturate instead of overflowing.
        assert_eq!(
            resolve_fenceposts(&Percent(i64::MAX), &Int(0), i64::MAX),
            (i64::MAX, 0)
        );
        assert_eq!(Percent(-300).scaled(i64::MAX, true), i64::MIN);
    }

    #[test]
    fn template_claim_ordinals_invert_the_names() {
        for o in [0, 7, 2_147_483_647] {
            let name = template_claim_name("data", "web", o);
            assert_eq!(template_claim_ordinal("data", "web", &name), Some(o));
        }
        // Not a name the controller formats (%d): no sign, no leading zero, no other suffix.
        for name in [
            "data-web-",
            "data-web-01",
            "data-web--1",
            "data-web-1a",
            "data-webx-1",
            "data-web",
        ] {
            assert_eq!(template_claim_ordinal("data", "web", name), None, "{name}");
        }
    }

    #[test]
    fn nfs_servers() {
        assert!(nfs_server_problem("172.16.51.58.1").is_some());
        assert!(nfs_server_problem("256.1.1.1").is_some());
        assert!(nfs_server_problem("nfs_server").is_some());
        assert!(nfs_server_problem("10.0.0.1:2049").is_some());
        assert!(nfs_server_problem("192.168.43.101").is_none());
        assert!(nfs_server_problem("fd00::1").is_none());
        assert!(nfs_server_problem("nfs-server.default.svc.cluster.local").is_none());
        assert!(nfs_server_problem("nas01").is_none());
    }
}
