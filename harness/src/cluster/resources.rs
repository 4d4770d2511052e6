//! The resources pvlint reads from a cluster: one row each, in the order the state lists them.

use futures::future::BoxFuture;
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Node, PersistentVolume, PersistentVolumeClaim, Pod};
use k8s_openapi::api::storage::v1::{CSIDriver, StorageClass, VolumeAttachment};
use k8s_openapi::{ClusterResourceScope, NamespaceResourceScope};
use kube::api::Api;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::pager::{Failure, Pager};

/// One resource pvlint reads.
pub struct Resource {
    /// `resource.group`, as RBAC names it (`persistentvolumes`, `storageclasses.storage.k8s.io`).
    pub name: &'static str,
    pub scope: Scope,
    pub need: Need,
    /// The resource whose list must have finished before this one starts.
    pub after: Option<&'static str>,
    /// Which of the objects are kept (None: all).
    pub keep: Option<fn(&Value) -> bool>,
    /// Lists every object (in the pager's namespace, for a namespaced resource).
    pub(super) list: fn(Pager) -> BoxFuture<'static, Result<Vec<Value>, Failure>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Cluster,
    Namespaced,
}

/// Whether pvlint can do without a resource it cannot read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The scan fails without it.
    Required,
    /// A warning, saying what is lost without it.
    Optional { without: &'static str },
}

/// What pvlint reads. Claims are listed before volumes, not beside them: each list is its own
/// moment, and a claim bound (or a volume provisioned) between two concurrent lists would
/// read as a claim whose volume is missing (Lost). Read in this order, anything that happens
/// in between shows a state the controller is about to reach anyway (a volume whose claimRef
/// names a claim still Pending), never a missing volume. The PV controller re-reads the claim
/// before releasing a volume for the same reason (syncVolume).
pub const RESOURCES: &[Resource] = &[
    Resource::cluster::<PersistentVolume>("persistentvolumes").listed_after("persistentvolumeclaims"),
    Resource::namespaced::<PersistentVolumeClaim>("persistentvolumeclaims"),
    Resource::cluster::<StorageClass>("storageclasses.storage.k8s.io"),
    Resource::cluster::<CSIDriver>("csidrivers.storage.k8s.io"),
    Resource::cluster::<VolumeAttachment>("volumeattachments.storage.k8s.io")
        .optional("stale-volume-attachment is skipped"),
    Resource::namespaced::<Pod>("pods"),
    Resource::namespaced::<Deployment>("deployments.apps"),
    Resource::namespaced::<StatefulSet>("statefulsets.apps"),
    Resource::namespaced::<DaemonSet>("daemonsets.apps"),
    Resource::namespaced::<ReplicaSet>("replicasets.apps"),
    Resource::namespaced::<Job>("jobs.batch"),
    Resource::namespaced::<CronJob>("cronjobs.batch"),
    Resource::cluster::<Node>("nodes").optional(
        "stale-volume-attachment cannot say whether the old node is Ready or still has the volume mounted",
    ),
    Resource::namespaced::<Event>("events")
        .optional("findings show what pvlint predicts, not the events the cluster recorded")
        // Only events about claims and volumes are kept (and saved with --save).
        .keeping(about_claims_and_volumes),
];

/// A k8s-openapi type pvlint lists.
pub trait Kind:
    kube::Resource<DynamicType = ()>
    + Clone
    + DeserializeOwned
    + Serialize
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
}

impl<K> Kind for K where
    K: kube::Resource<DynamicType = ()>
        + Clone
        + DeserializeOwned
        + Serialize
        + std::fmt::Debug
        + Send
        + Sync
        + 'static
{
}

impl Resource {
    /// A cluster-scoped resource pvlint needs.
    const fn cluster<K: Kind + kube::Resource<Scope = ClusterResourceScope>>(
        name: &'static str,
    ) -> Resource {
        Resource {
            name,
            scope: Scope::Cluster,
            need: Need::Required,
            after: None,
            keep: None,
            list: list_cluster::<K>,
        }
    }

    /// A namespaced resource pvlint needs, listed in the scan's namespace or in all.
    const fn namespaced<K: Kind + kube::Resource<Scope = NamespaceResourceScope>>(
        name: &'static str,
    ) -> Resource {
        Resource {
            name,
            scope: Scope::Namespaced,
            need: Need::Required,
            after: None,
            keep: None,
            list: list_namespaced::<K>,
        }
    }

    const fn optional(self, without: &'static str) -> Resource {
        Resource {
            need: Need::Optional { without },
            ..self
        }
    }

    const fn listed_after(self, name: &'static str) -> Resource {
        Resource {
            after: Some(name),
            ..self
        }
    }

    const fn keeping(self, keep: fn(&Value) -> bool) -> Resource {
        Resource {
            keep: Some(keep),
            ..self
        }
    }
}

/// The row of `name`.
pub fn find(name: &str) -> Option<(usize, &'static Resource)> {
    RESOURCES.iter().enumerate().find(|(_, r)| r.name == name)
}

fn list_cluster<K: Kind + kube::Resource<Scope = ClusterResourceScope>>(
    pager: Pager,
) -> BoxFuture<'static, Result<Vec<Value>, Failure>> {
    Box::pin(async move { pager.list(&Api::<K>::all(pager.client.clone())).await })
}

fn list_namespaced<K: Kind + kube::Resource<Scope = NamespaceResourceScope>>(
    pager: Pager,
) -> BoxFuture<'static, Result<Vec<Value>, Failure>> {
    Box::pin(async move {
        let api: Api<K> = match &pager.namespace {
            Some(ns) => Api::namespaced(pager.client.clone(), ns),
            None => Api::all(pager.client.clone()),
        };
        pager.list(&api).await
    })
}

fn about_claims_and_volumes(event: &Value) -> bool {
    matches!(
        event
            .pointer("/involvedObject/kind")
            .and_then(Value::as_str),
        Some("PersistentVolumeClaim" | "PersistentVolume")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_waits_only_for_a_resource_of_the_table() {
        for r in RESOURCES {
            if let Some(first) = r.after {
                let (at, _) = find(first).expect("`after` names a row");
                assert!(at != find(r.name).unwrap().0, "{} waits for itself", r.name);
            }
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, r) in RESOURCES.iter().enumerate() {
            assert_eq!(find(r.name).map(|(at, _)| at), Some(i), "{}", r.name);
        }
    }
}
