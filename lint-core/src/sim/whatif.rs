//! What-if queries the audit of a live cluster asks of the simulation, answered by running
//! the same controller on a small world rather than re-deriving it.

use super::state::*;
use super::World;
use crate::binding::fit;

/// What removing a volume's `spec.claimRef` leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterClaimRefRemoval {
    /// The controller binds it to this claim (one that names it, is Lost on it, or picks it
    /// as its best match); `order_dependent` when another waiting claim could take it too.
    BoundTo {
        claim: ClaimId,
        order_dependent: bool,
    },
    /// It becomes Available and no claim waiting now takes it.
    Available,
}

impl World {
    /// Runs the controller on the volume with its claimRef removed, against every claim that
    /// is not Bound now (the only ones that could take it): which one binds it, if any.
    /// Cost: the claims that are not Bound, not the whole cluster.
    pub fn if_claim_ref_removed(&self, v: VolumeId) -> AfterClaimRefRemoval {
        let mut w = World::new(&self.options, self.cluster_known);
        w.classes = self.classes.clone();
        w.drivers = self.drivers.clone();
        w.static_only = self.static_only.clone();
        let mut vol = self.volume(v).clone();
        vol.claim_ref = None;
        vol.release = None;
        vol.phase = VolumePhase::Available;
        vol.bound_by_controller = false;
        vol.skipped_by_reserved_claim = None;
        vol.storage = Storage::Kept;
        w.volumes.push(vol);
        let name = w.volumes[0].name.as_str();
        w.volume_by_name
            .insert(name, VolumeId(0), super::volume_key(&w.volumes));
        let mut ids = Vec::new();
        for (id, c) in self.claims() {
            if matches!(c.state, ClaimState::Bound { .. } | ClaimState::Rejected(_)) {
                continue;
            }
            let mut c = c.clone();
            if !c.bind_completed {
                c.state = ClaimState::Pending(Pending::New);
            }
            c.events.clear();
            c.race = None;
            let new = ClaimId(w.claims.len() as u32);
            w.claims.push(c);
            let key = super::claim_key(&w.claims)(new);
            w.claim_by_key.insert(key, new, super::claim_key(&w.claims));
            ids.push(id);
        }
        w.next_uid = self.next_uid;
        w.run();
        match w.volume(VolumeId(0)).claim_ref.as_ref() {
            Some(cr) if !cr.uid.is_empty() => {
                match w.claim_named(&cr.key.namespace, &cr.key.name) {
                    Some(new) => {
                        // Another waiting claim that fits the volume as well: whichever the
                        // controller syncs first takes it.
                        let spec = &w.volume(VolumeId(0)).spec;
                        let version = w.options.target();
                        let rival = w.claims().any(|(id, c)| {
                            id != new
                                && matches!(c.state, ClaimState::Pending(_))
                                && c.volume_name
                                    .as_ref()
                                    .is_none_or(|n| *n == w.volume(VolumeId(0)).name)
                                && fit::check_volume_satisfy_claim(
                                    spec,
                                    &c.spec,
                                    c.class_name(),
                                    version,
                                )
                                .is_empty()
                        });
                        AfterClaimRefRemoval::BoundTo {
                            claim: ids[new.idx()],
                            order_dependent: rival,
                        }
                    }
                    None => AfterClaimRefRemoval::Available,
                }
            }
            _ => AfterClaimRefRemoval::Available,
        }
    }
}
