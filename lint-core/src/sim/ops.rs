//! What-if operations on a simulated cluster, as an admin would run them: `kubectl delete pv`,
//! `kubectl delete pvc`, scaling or deleting a StatefulSet, removing a volume's claimRef or finalizers, applying more manifests.
//!
//! Deletion follows the protection finalizers: `kubernetes.io/pv-protection` keeps a Bound
//! volume's object (Terminating) until it is no longer Bound; `kubernetes.io/pv-controller`
//! and `external-provisioner.volume.kubernetes.io/finalizer` keep it until its storage is
//! deleted (HonorPVReclaimPolicy). Without them, a volume deleted before its claim loses its
//! object while its storage stays: the leak of seed 004.

use super::reclaim::protecting_finalizer;
use super::state::*;
use super::World;
use crate::index::Index;

/// One operation. `Apply` carries the manifests' index.
#[derive(Debug, Clone, Copy)]
pub enum Operation<'a> {
    DeleteVolume(&'a str),
    DeleteClaim {
        namespace: &'a str,
        name: &'a str,
    },
    /// `kubectl delete pod`: its claims are no longer in use.
    DeletePod {
        namespace: &'a str,
        name: &'a str,
    },
    /// `kubectl scale sts`: see [`super::statefulset`].
    ScaleStatefulSet {
        namespace: &'a str,
        name: &'a str,
        replicas: i64,
    },
    /// `kubectl delete sts`: see [`super::statefulset`].
    DeleteStatefulSet {
        namespace: &'a str,
        name: &'a str,
    },
    RemoveClaimRef(&'a str),
    RemoveFinalizers(&'a str),
    /// `kubectl apply` of more manifests; the objects whose update the API server refuses
    /// (see [`crate::model::update`]) are left out: their live objects stay as they are.
    Apply(
        &'a Index,
        &'a std::collections::HashSet<crate::model::ObjId>,
    ),
}

impl World {
    /// Runs an operation, then the controller to a fixed point. Errors name what is missing.
    pub fn operate(&mut self, op: Operation<'_>) -> Result<(), String> {
        match op {
            Operation::DeleteVolume(name) => {
                let v = self.existing_volume(name)?;
                self.volumes[v.idx()].deleting = true;
            }
            Operation::DeleteClaim { namespace, name } => {
                let id = self.claim_named(namespace, name).ok_or_else(|| {
                    format!("there is no PersistentVolumeClaim {namespace}/{name}")
                })?;
                // pvc-protection: the claim stays, Terminating, while a pod uses it.
                self.claims[id.idx()].deleting = true;
            }
            Operation::DeletePod { namespace, name } => {
                let (side, obj) = self
                    .pods
                    .iter()
                    .find(|p| {
                        p.0 == namespace && p.1 == name && !self.podless.contains(&(p.2, p.3))
                    })
                    .map(|p| (p.2, p.3))
                    .ok_or_else(|| format!("there is no Pod {namespace}/{name}"))?;
                self.podless.insert((side, obj));
            }
            Operation::ScaleStatefulSet {
                namespace,
                name,
                replicas,
            } => self.scale_statefulset(namespace, name, replicas)?,
            Operation::DeleteStatefulSet { namespace, name } => {
                self.delete_statefulset(namespace, name)?
            }
            Operation::RemoveClaimRef(name) => {
                let v = self.existing_volume(name)?;
                let vol = &mut self.volumes[v.idx()];
                vol.claim_ref = None;
                vol.release = None;
                vol.bound_by_controller = false;
                if vol.storage != Storage::Recycled {
                    vol.skipped_by_reserved_claim = None;
                }
                if vol.phase == VolumePhase::Failed {
                    vol.phase = VolumePhase::Available;
                }
            }
            Operation::RemoveFinalizers(name) => {
                let v = self.existing_volume(name)?;
                self.volumes[v.idx()].finalizers.clear();
            }
            Operation::Apply(ix, refused) => self.apply_more(ix, refused),
        }
        self.finish_claim_deletions();
        self.run();
        self.finish_deletions();
        self.run();
        Ok(())
    }

    /// Claims being deleted go once no pod uses them (pvc-protection).
    fn finish_claim_deletions(&mut self) {
        for i in 0..self.claims.len() {
            let id = ClaimId(i as u32);
            let c = self.claim(id);
            if !c.exists || !c.deleting || self.in_use(id) {
                continue;
            }
            self.claims[i].exists = false;
            let key = super::claim_key(&self.claims)(id);
            self.claim_by_key
                .remove(key, super::claim_key(&self.claims));
        }
    }

    fn existing_volume(&self, name: &str) -> Result<VolumeId, String> {
        self.volume_named(name)
            .filter(|v| self.volume(*v).exists)
            .ok_or_else(|| format!("there is no PersistentVolume {name}"))
    }

    /// Volumes being deleted go once nothing holds them: pv-protection lets go when they are
    /// not Bound; the reclaim finalizers when the storage is deleted (or was never theirs).
    fn finish_deletions(&mut self) {
        for i in 0..self.volumes.len() {
            let vol = &self.volumes[i];
            if !vol.exists || !vol.deleting {
                continue;
            }
            let protected = vol
                .finalizers
                .iter()
                .any(|f| f == crate::kube::FINALIZER_PV_PROTECTION);
            if vol.phase == VolumePhase::Bound && protected {
                continue; // pv-protection: Terminating while Bound
            }
            let held = protecting_finalizer(&vol.finalizers).is_some()
                && matches!(vol.storage, Storage::DeleteFailed { .. });
            if held {
                continue; // stuck Terminating: the deleter failed and keeps its finalizer
            }
            let vol = &mut self.volumes[i];
            if vol.spec.reclaim == crate::kube::ReclaimPolicy::Delete
                && matches!(vol.storage, Storage::Kept | Storage::Provisioned { .. })
            {
                vol.storage = Storage::Leaked;
            }
            vol.exists = false;
            let name = vol.name.clone();
            self.volume_by_name
                .remove(name.as_str(), super::volume_key(&self.volumes));
        }
    }
}
