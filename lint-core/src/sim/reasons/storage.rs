//! What happens to a volume's storage: the explanation, its form in the simulation report and
//! in a finding's consequence, and what the controller's next try does after a failure.

use crate::finding::StorageFate;
use crate::kube::ReclaimPolicy;
use crate::options::KubeVersion;
use crate::sim::report::{Fate, StorageOut};
use crate::sim::state::{Storage, Volume};
use crate::sim::World;

impl Storage {
    /// What happens to volume `v`'s storage, in words ("" when nothing worth saying).
    pub fn why(&self, w: &World, v: &Volume) -> String {
        match self {
            Storage::Kept if v.release.is_some() && v.spec.reclaim == ReclaimPolicy::Retain => {
                "reclaimPolicy Retain keeps the storage; it stays Released until an admin removes spec.claimRef".to_string()
            }
            Storage::Kept => String::new(),
            Storage::Provisioned { provisioner } => format!("provisioned by {provisioner}"),
            Storage::Deleted { plugin } => {
                format!("reclaimPolicy Delete: kube-controller-manager ({plugin}) deletes {} and the PV object", v.backing)
            }
            Storage::LeftToProvisioner { provisioner } => format!(
                "reclaimPolicy Delete: left Released for {provisioner}, which deletes {}",
                v.backing
            ),
            Storage::Archived { provisioner } => format!(
                "reclaimPolicy Delete: left Released for {provisioner}, which renames {} to archived-<directory> (archived, not deleted: the data stays on the server)",
                v.backing
            ),
            Storage::KeptByProvisioner { provisioner, why } => format!(
                "reclaimPolicy Delete: left Released for {provisioner}, which keeps {}: {}",
                v.backing,
                why.why()
            ),
            Storage::Recycled => "reclaimPolicy Recycle wipes the storage (rm -rf) and offers the volume again".into(),
            Storage::DeleteFailed { .. } => "reclaimPolicy Delete fails: the volume is Failed and the storage stays".into(),
            Storage::RecycleFailed { .. } => "reclaimPolicy Recycle fails: the volume is Failed".into(),
            Storage::Leaked => {
                let mut s = format!(
                    "the PV object is deleted but nothing deletes {}: it leaks",
                    v.backing
                );
                let external = matches!(v.spec.source, crate::binding::SourceKind::Csi { .. })
                    || v.migrated_to.is_some()
                    || v
                        .provisioned_by
                        .as_deref()
                        .is_some_and(|p| !p.starts_with("kubernetes.io/"));
                if external && crate::sim::reclaim::honor_reclaim_policy(w.options.target()) {
                    s.push_str(&format!(
                        " (assumed: the manifest has no {}; from 1.31 a CSI external-provisioner with HonorPVReclaimPolicy adds it to a Bound volume of its driver, and then deletes the storage)",
                        crate::kube::FINALIZER_EXTERNAL_PROVISIONER
                    ));
                }
                s
            }
        }
    }

    /// The fate as the simulation report gives it.
    pub fn out(&self) -> StorageOut {
        let (fate, by, error) = match self {
            Storage::Kept => (Fate::Kept, None, None),
            Storage::Provisioned { provisioner } => (Fate::Provisioned, Some(provisioner), None),
            Storage::Deleted { plugin } => (Fate::Deleted, Some(plugin), None),
            Storage::LeftToProvisioner { provisioner } => {
                (Fate::LeftToProvisioner, Some(provisioner), None)
            }
            Storage::Archived { provisioner } => (Fate::Archived, Some(provisioner), None),
            Storage::KeptByProvisioner { provisioner, .. } => (Fate::Kept, Some(provisioner), None),
            Storage::Recycled => (Fate::Recycled, None, None),
            Storage::DeleteFailed { error } => (Fate::DeleteFailed, None, Some(error)),
            Storage::RecycleFailed { error } => (Fate::RecycleFailed, None, Some(error)),
            Storage::Leaked => (Fate::Leaked, None, None),
        };
        StorageOut {
            fate,
            by: by.map(|s| s.to_string()),
            error: error.map(|s| s.to_string()),
        }
    }

    /// The fate as a finding's consequence gives it (None: nothing happens to the storage).
    pub fn fate(&self) -> Option<StorageFate> {
        match self {
            Storage::Deleted { .. } | Storage::LeftToProvisioner { .. } => {
                Some(StorageFate::Deleted)
            }
            Storage::Leaked => Some(StorageFate::Leaked),
            Storage::DeleteFailed { .. }
            | Storage::RecycleFailed { .. }
            | Storage::Archived { .. }
            | Storage::KeptByProvisioner { .. } => Some(StorageFate::Kept),
            Storage::Kept | Storage::Provisioned { .. } | Storage::Recycled => None,
        }
    }

    /// What the controller's next try does with a Failed volume whose storage is `backing`,
    /// when this is what a reclaim gives now; `last_error` is the failure the cluster reports.
    pub fn on_retry(
        &self,
        backing: &str,
        version: KubeVersion,
        last_error: Option<&str>,
    ) -> String {
        match self {
            Storage::DeleteFailed { error } | Storage::RecycleFailed { error } => {
                let again = if last_error == Some(error.as_str()) {
                    "the same way".to_string()
                } else {
                    format!("again: {error}")
                };
                format!("the controller retries on every resync and, on Kubernetes {version}, fails {again}; {backing} stays until deleted by hand")
            }
            Storage::Deleted { plugin } => format!("on its next try {plugin} deletes {backing} and the PV object"),
            Storage::LeftToProvisioner { provisioner } => format!("{provisioner} deletes {backing} on its next try, if the cause of the failure is gone"),
            Storage::Archived { provisioner } => format!("{provisioner} renames {backing} to archived-<directory> on its next try, if the cause of the failure is gone"),
            Storage::KeptByProvisioner { .. } => format!("{backing} stays"),
            Storage::Recycled => "on its next try the recycler wipes it and offers it again, if the cause of the failure is gone".into(),
            Storage::Kept | Storage::Provisioned { .. } | Storage::Leaked => format!("{backing} stays"),
        }
    }
}
