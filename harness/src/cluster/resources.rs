//! The resources pvlint reads from a cluster: one row each, in the order the state lists them.

use std::fmt::Debug;

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
    pub need: Need,
    /// The resource whose list must have finished before this one starts.
    pub after: Option<&'static str>,
    /// Which of the objects are kept (None: all).
    pub keep: Option<fn(&Value) -> bool>,
    /// Lists every object (a namespaced resource: in the pager's namespace, or in all).
    pub(super) list: fn(Pager) -> Listing,
}

/// A list under way.
pub(super) type Listing = BoxFuture<'static, Result<Vec<Value>, Failure>>;

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
    Resource::new("persistentvolumes", list::<PersistentVolume>)
        .listed_after("persistentvolumeclaims"),
    Resource::new("persistentvolumeclaims", list::<PersistentVolumeClaim>),
    Resource::new("storageclasses.storage.k8s.io", list::<StorageClass>),
    Resource::new("csidrivers.storage.k8s.io", list::<CSIDriver>),
    Resource::new("volumeattachments.storage.k8s.io", list::<VolumeAttachment>)
        .optional("stale-volume-attachment is skipped"),
    Resource::new("pods", list::<Pod>),
    Resource::new("deployments.apps", list::<Deployment>),
    Resource::new("statefulsets.apps", list::<StatefulSet>),
    Resource::new("daemonsets.apps", list::<DaemonSet>),
    Resource::new("replicasets.apps", list::<ReplicaSet>),
    Resource::new("jobs.batch", list::<Job>),
    Resource::new("cronjobs.batch", list::<CronJob>),
    Resource::new("nodes", list::<Node>).optional(
        "stale-volume-attachment cannot say whether the old node is Ready or still has the volume mounted",
    ),
    Resource::new("events", list::<Event>)
        .optional("findings show what pvlint predicts, not the events the cluster recorded")
        // Only events about claims and volumes are kept (and saved with --save).
        .keeping(about_claims_and_volumes),
];

impl Resource {
    /// A resource pvlint needs, listed by `list` (`list::<K>` of its k8s-openapi type).
    const fn new(name: &'static str, list: fn(Pager) -> Listing) -> Resource {
        Resource {
            name,
            need: Need::Required,
            after: None,
            keep: None,
            list,
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

/// Every object of the k8s-openapi type `K`, in the scan's scope.
fn list<K>(pager: Pager) -> Listing
where
    K: kube::Resource<DynamicType = ()> + Clone + DeserializeOwned + Serialize + Debug,
    K: Send + Sync + 'static,
    K::Scope: InScope,
{
    Box::pin(async move {
        let api = K::Scope::api::<K>(&pager);
        pager.list(&api).await
    })
}

/// How a scan reaches the objects of a scope.
trait InScope: Sized {
    fn api<K: kube::Resource<Scope = Self, DynamicType = ()>>(pager: &Pager) -> Api<K>;
}

impl InScope for ClusterResourceScope {
    fn api<K: kube::Resource<Scope = Self, DynamicType = ()>>(pager: &Pager) -> Api<K> {
        Api::all(pager.client.clone())
    }
}

/// In the pager's namespace, or in all.
impl InScope for NamespaceResourceScope {
    fn api<K: kube::Resource<Scope = Self, DynamicType = ()>>(pager: &Pager) -> Api<K> {
        match &pager.namespace {
            Some(ns) => Api::namespaced(pager.client.clone(), ns),
            None => Api::all(pager.client.clone()),
        }
    }
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
