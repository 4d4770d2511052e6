//! `syncVolume` (pv_controller.go): a volume without claimRef, or pre-bound by name only, is
//! Available; one whose claim is gone (or is another object with that name) is Released and
//! reclaimed; one whose claim is bound elsewhere is released (provisioned, Delete) or unbound.

use super::state::*;
use super::World;
use crate::string::Str;

impl World {
    pub(crate) fn sync_volume(&mut self, v: VolumeId) -> bool {
        let Some(cr) = self.volume(v).claim_ref.clone() else {
            return self.set_volume_phase(v, VolumePhase::Available);
        };
        if cr.uid.is_empty() {
            return self.set_volume_phase(v, VolumePhase::Available);
        }
        let claim = self.claim_named(&cr.key.namespace, &cr.key.name);
        let Some(id) = claim else {
            return self.release(v, Release::ClaimMissing);
        };
        if self.claim(id).uid != cr.uid {
            return self.release(v, Release::UidMismatch);
        }
        let name = self.volume(v).name.clone();
        match self.claim(id).volume_name.clone() {
            None => false,
            Some(n) if n == name => self.set_volume_phase(v, VolumePhase::Bound),
            Some(other) => {
                let vol = &self.volumes[v.idx()];
                if vol.provisioned_by.is_some()
                    && vol.spec.reclaim == crate::kube::ReclaimPolicy::Delete
                {
                    self.release(v, Release::ClaimBoundElsewhere { other })
                } else {
                    // unbindVolume: the controller's own binding is undone; a user's pre-binding
                    // keeps the claim's name.
                    let vol = &mut self.volumes[v.idx()];
                    if vol.bound_by_controller {
                        vol.claim_ref = None;
                        vol.bound_by_controller = false;
                    } else if let Some(cr) = vol.claim_ref.as_mut() {
                        cr.uid = Str::default();
                    }
                    vol.phase = VolumePhase::Available;
                    true
                }
            }
        }
    }

    /// The claim is gone: Released (Failed stays Failed), then `reclaimVolume`.
    fn release(&mut self, v: VolumeId, why: Release) -> bool {
        let vol = &mut self.volumes[v.idx()];
        if vol.release.is_some() {
            return false;
        }
        if vol.phase != VolumePhase::Failed {
            vol.phase = VolumePhase::Released;
        }
        vol.release = Some(why);
        self.reclaim(v);
        true
    }
}
