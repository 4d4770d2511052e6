//! What the simulation cannot decide alone (index.go, pv_controller.go; see the order notes
//! of the binding digest): two claims after one free volume (whichever the controller syncs
//! first binds it; spec.volumeName does not reserve a volume, only a claimRef does), and,
//! after the run, the volume closest to fitting each claim left Pending, for the message.

use std::collections::HashMap;

use super::state::*;
use super::World;
use crate::binding::fit;

impl World {
    /// Marks claims that lost a volume to a claim of another object in this simulation.
    pub(crate) fn mark_races(&mut self) {
        let version = self.options.target();
        // Volumes taken during this run by a best-match binding, by (modes, class).
        let mut taken: HashMap<
            (crate::kube::AccessModes, crate::string::Str),
            Vec<(VolumeId, ClaimId)>,
        > = HashMap::new();
        for (cid, c) in self.claims() {
            if let ClaimState::Bound {
                volume,
                how: BindHow::BestMatch { .. },
            } = c.state
            {
                if c.origin.side() == Some(Side::Manifest) {
                    let v = self.volume(volume);
                    taken
                        .entry((v.spec.modes, v.spec.class.clone()))
                        .or_default()
                        .push((volume, cid));
                }
            }
        }
        let mut races = Vec::new();
        for (cid, c) in self.claims() {
            match &c.state {
                ClaimState::Pending(Pending::VolumeTaken { volume, holder, .. }) => {
                    let Some(winner) = self.claim_named(&holder.key.namespace, &holder.key.name)
                    else {
                        continue;
                    };
                    let w = self.claim(winner);
                    // The holder took it in this run (by best match, or by naming it too):
                    // whichever claim the controller syncs first gets it.
                    let won_here = matches!(&w.state, ClaimState::Bound { volume: wv, how: BindHow::BestMatch { .. } | BindHow::NamedVolume } if wv == volume)
                        && w.origin.side() == Some(Side::Manifest);
                    if won_here && holder.uid == w.uid {
                        races.push((
                            cid,
                            Race {
                                volume: *volume,
                                winner,
                            },
                        ));
                    }
                }
                ClaimState::Pending(p)
                    if c.volume_name.is_none()
                        && !matches!(p, Pending::WaitForFirstConsumer { .. }) =>
                {
                    let class = c.class_name().to_string();
                    let rival = self
                        .index
                        .groups_for(c.spec.modes)
                        .filter_map(|g| taken.get(&(g, crate::string::Str::new(&class))))
                        .flatten()
                        .find(|(v, winner)| {
                            let vol = self.volume(*v);
                            let fits =
                                fit::match_failures(&vol.spec, &c.spec, &class, version).is_empty();
                            let other_object = self.claim(*winner).origin.manifest_object()
                                != c.origin.manifest_object()
                                || c.origin.manifest_object().is_none();
                            fits && other_object
                        })
                        .copied();
                    if let Some((volume, winner)) = rival {
                        races.push((cid, Race { volume, winner }));
                    }
                }
                _ => {}
            }
        }
        for (cid, race) in races {
            self.claims[cid.idx()].race = Some(race);
        }
    }

    /// For every claim Pending for want of a match: the closest volume and its failed checks;
    /// for every volume reserved for a claim that skips it: the checks that claim fails.
    pub(crate) fn find_closest(&mut self) {
        let version = self.options.target();
        type Shape = (
            String,
            crate::kube::AccessModes,
            u128,
            crate::kube::VolumeMode,
        );
        let mut memo: HashMap<Shape, Option<(VolumeId, Vec<fit::Mismatch>)>> = HashMap::new();
        let mut out = HashMap::new();
        let candidates: Vec<VolumeId> = self
            .volumes()
            .filter(|(_, v)| v.phase != VolumePhase::Failed && v.claim_ref.is_none())
            .map(|(id, _)| id)
            .collect();
        for (cid, c) in self.claims() {
            let wanting = matches!(
                c.state,
                ClaimState::Pending(
                    Pending::NoMatchNoClass
                        | Pending::ClassNotFound { .. }
                        | Pending::ProvisionerUnavailable { .. }
                        | Pending::ProvisionerRefuses { .. }
                        | Pending::AttributesClassUnsupported
                )
            );
            if !wanting {
                continue;
            }
            let class = c.class_name().to_string();
            let search = |vols: &mut dyn Iterator<Item = VolumeId>| {
                vols.map(|v| {
                    (
                        v,
                        fit::match_failures(&self.volume(v).spec, &c.spec, &class, version),
                    )
                })
                .filter(|(_, f)| !f.is_empty())
                .min_by_key(|(_, f)| f.len())
            };
            let reserved = self.index.reserved_for(&c.key);
            let best = if c.spec.selector.is_none() && reserved.is_empty() {
                let shape = (
                    class.clone(),
                    c.spec.modes,
                    c.spec
                        .request
                        .as_ref()
                        .map_or(0, crate::quantity::Quantity::key),
                    c.spec.volume_mode,
                );
                memo.entry(shape)
                    .or_insert_with(|| search(&mut candidates.iter().copied()))
                    .clone()
            } else {
                search(&mut candidates.iter().copied().chain(reserved.iter().copied()))
            };
            if let Some(b) = best {
                out.insert(cid, b);
            }
        }
        self.closest = out;
        // Volumes reserved by claimRef for a claim that did not take them.
        let mut skipped = Vec::new();
        for (vid, v) in self.volumes() {
            let Some(cr) = &v.claim_ref else { continue };
            if !cr.uid.is_empty() || v.phase == VolumePhase::Bound {
                continue;
            }
            let Some(cid) = self.claim_named(&cr.key.namespace, &cr.key.name) else {
                continue;
            };
            if self.binding_of(cid) == Some(vid) {
                continue;
            }
            let fails = fit::prebound_match_failures(&v.spec, &self.claim(cid).spec);
            if !fails.is_empty() {
                skipped.push((vid, cid, fails));
            }
        }
        for (vid, cid, fails) in skipped {
            self.volumes[vid.idx()].skipped_by_reserved_claim = Some(Box::new((cid, fails)));
        }
    }
}
