//! `findBestMatchForClaim` over the volume index of index.go: volumes grouped by their
//! access-mode set; the groups that contain every mode the claim asks for are tried from the
//! fewest modes up and the first group with a match wins. Inside a group `FindMatchingVolume`
//! returns a volume pre-bound to the claim by claimRef at once (capacity, volumeMode,
//! volumeAttributesClassName and deletion checked; class, phase and selector not), else the
//! smallest free volume that passes every check.
//!
//! Free volumes are kept per (access-mode set, class) sorted by capacity, so a match is a
//! range lookup, not a scan of the pool.

use std::collections::{BTreeSet, HashMap};

use super::state::*;
use super::World;
use crate::binding::fit;
use crate::kube::AccessModes;
use crate::quantity::Quantity;

#[derive(Debug, Clone, Default)]
pub(crate) struct VolumeIndex {
    /// Access-mode sets of existing volumes, fewest modes first.
    groups: Vec<AccessModes>,
    /// Available volumes without claimRef, by (modes, class), sorted by (capacity, id).
    free: HashMap<(AccessModes, crate::string::Str), BTreeSet<(u128, u32)>>,
    /// Volumes whose claimRef names a claim, by that claim.
    reserved: HashMap<ClaimKey, Vec<VolumeId>>,
}

fn cap_key(q: Option<&Quantity>) -> u128 {
    q.map_or(0, Quantity::key)
}

impl VolumeIndex {
    pub(crate) fn build(volumes: &[Volume]) -> VolumeIndex {
        let mut ix = VolumeIndex::default();
        let mut groups = BTreeSet::new();
        for (i, v) in volumes.iter().enumerate() {
            if !v.exists {
                continue;
            }
            groups.insert(v.spec.modes);
            let id = VolumeId(i as u32);
            match &v.claim_ref {
                Some(cr) => ix.reserved.entry(cr.key.clone()).or_default().push(id),
                None if v.phase == VolumePhase::Available => {
                    ix.free
                        .entry((v.spec.modes, v.spec.class.clone()))
                        .or_default()
                        .insert((cap_key(v.spec.capacity.as_ref()), i as u32));
                }
                None => {}
            }
        }
        ix.groups = groups.into_iter().collect();
        ix.groups.sort_by_key(|m| (m.count(), *m));
        ix
    }

    fn take(&mut self, v: &Volume, id: VolumeId) {
        if let Some(set) = self.free.get_mut(&(v.spec.modes, v.spec.class.clone())) {
            set.remove(&(cap_key(v.spec.capacity.as_ref()), id.0));
        }
        if let Some(cr) = &v.claim_ref {
            let list = self.reserved.entry(cr.key.clone()).or_default();
            if !list.contains(&id) {
                list.push(id);
            }
        }
    }

    pub(crate) fn reserved_for(&self, key: &ClaimKey) -> &[VolumeId] {
        self.reserved.get(key).map_or(&[], Vec::as_slice)
    }

    /// Groups that can serve `modes`, fewest modes first.
    pub(crate) fn groups_for(&self, modes: AccessModes) -> impl Iterator<Item = AccessModes> + '_ {
        self.groups
            .iter()
            .copied()
            .filter(move |g| g.contains(modes))
    }
}

/// The result of a search.
pub(crate) struct Found {
    pub volume: VolumeId,
    pub how: BindHow,
}

impl World {
    /// Whether the VolumeAttributesClass feature is on (GA 1.34), off but known (beta, off by
    /// default, 1.31–1.33: a claim with a class fails matching, volumes with one are skipped),
    /// or not in matching at all (before 1.31).
    fn vac_gate(&self) -> VacGate {
        let v = self.options.target();
        if fit::attributes_class_enabled(v) {
            VacGate::On
        } else if v.at_least(31) {
            VacGate::Off
        } else {
            VacGate::Ignored
        }
    }

    /// A volumeAttributesClassName on the claim with the gate off makes matching fail.
    pub(crate) fn claim_vac_unsupported(&self, id: ClaimId) -> bool {
        self.vac_gate() == VacGate::Off && !self.claim(id).spec.attributes_class.is_empty()
    }

    /// `findBestMatchForClaim`. With `delayed` (WaitForFirstConsumer and no node chosen) only
    /// a volume pre-bound to the claim is returned.
    pub(crate) fn find_best_match(&self, id: ClaimId, delayed: bool) -> Option<Found> {
        let c = self.claim(id);
        let gate = self.vac_gate();
        let basic = |v: &Volume| {
            let cap_ok = match (&v.spec.capacity, &c.spec.request) {
                (_, None) => true,
                (Some(cap), Some(req)) => cap >= req,
                (None, Some(_)) => false,
            };
            let vac_ok = match gate {
                VacGate::On => v.spec.attributes_class == c.spec.attributes_class,
                VacGate::Off => v.spec.attributes_class.is_empty(),
                VacGate::Ignored => true,
            };
            cap_ok
                && v.spec.volume_mode == c.spec.volume_mode
                && vac_ok
                && !v.spec.deleting
                && !v.deleting
        };
        let reserved = self.index.reserved_for(&c.key);
        let class = c.class_name().to_string();
        let req = cap_key(c.spec.request.as_ref());
        let groups: Vec<AccessModes> = self.index.groups_for(c.spec.modes).collect();
        for (gi, g) in groups.iter().enumerate() {
            // A volume pre-bound to this claim in this group is returned at once.
            let pre = reserved.iter().copied().find(|&v| {
                let vol = self.volume(v);
                vol.spec.modes == *g
                    && vol
                        .claim_ref
                        .as_ref()
                        .is_some_and(|cr| cr.uid.is_empty() || cr.uid == c.uid)
                    && basic(vol)
            });
            if let Some(v) = pre {
                let vol = self.volume(v);
                let mut unchecked = Vec::new();
                if vol.spec.class != class {
                    unchecked.push(fit::Mismatch::Class {
                        volume: vol.spec.class.to_string(),
                        claim: class.clone(),
                    });
                }
                if c.spec
                    .selector
                    .as_ref()
                    .is_some_and(|s| !s.matches(&vol.spec.labels))
                {
                    unchecked.push(fit::Mismatch::Selector);
                }
                return Some(Found {
                    volume: v,
                    how: BindHow::ReservedByClaimRef { unchecked },
                });
            }
            if delayed {
                continue;
            }
            let Some(best) = self.smallest_free(*g, &class, req, id, &basic) else {
                continue;
            };
            // Equal-size groups come out of upstream's unstable sort in any order, and equal
            // capacities in map order: every equally good volume is a possible outcome.
            let (mut tied, mut more) = best.1;
            for other in groups
                .iter()
                .skip(gi + 1)
                .filter(|o| o.count() == g.count())
            {
                if let Some((v, (also, beyond))) =
                    self.smallest_free(*other, &class, req, id, &basic)
                {
                    tied.push(v);
                    tied.extend(also);
                    more |= beyond || tied.len() > TIES_LISTED;
                    tied.truncate(TIES_LISTED);
                }
            }
            // Another timing: another of the equally good volumes binds.
            let volume = match (self.last_tie, tied.last()) {
                (true, Some(&last)) => {
                    let first = best.0;
                    tied.retain(|&v| v != last);
                    tied.push(first);
                    last
                }
                _ => best.0,
            };
            return Some(Found {
                volume,
                how: BindHow::BestMatch { tied, more },
            });
        }
        None
    }

    /// The smallest free volume of a group and class passing `basic` and the claim's selector,
    /// with the volumes of the same capacity that pass too: at most [`TIES_LISTED`] of them,
    /// and whether there are more (the search stops there, so a pool of equal volumes costs
    /// each claim a few steps, not the whole pool).
    fn smallest_free(
        &self,
        group: AccessModes,
        class: &str,
        req: u128,
        id: ClaimId,
        basic: &dyn Fn(&Volume) -> bool,
    ) -> Option<(VolumeId, (Vec<VolumeId>, bool))> {
        let c = self.claim(id);
        let set = self
            .index
            .free
            .get(&(group, crate::string::Str::new(class)))?;
        let mut best: Option<(u128, VolumeId)> = None;
        let mut tied = Vec::new();
        for &(cap, i) in set.range((req, 0)..) {
            if best.is_some_and(|(b, _)| cap > b) {
                break;
            }
            let v = &self.volumes[i as usize];
            let ok = v.claim_ref.is_none()
                && v.phase == VolumePhase::Available
                && !self.late.contains(&VolumeId(i))
                && basic(v)
                && c.spec
                    .selector
                    .as_ref()
                    .is_none_or(|s| s.matches(&v.spec.labels));
            if !ok {
                continue;
            }
            match best {
                None => best = Some((cap, VolumeId(i))),
                Some(_) if tied.len() == TIES_LISTED => {
                    return best.map(|(_, v)| (v, (tied, true)));
                }
                Some(_) => tied.push(VolumeId(i)),
            }
        }
        best.map(|(_, v)| (v, (tied, false)))
    }

    /// Marks a volume taken in the index (it now has a claimRef).
    pub(crate) fn index_take(&mut self, v: VolumeId) {
        self.index.take(&self.volumes[v.idx()], v);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VacGate {
    On,
    Off,
    Ignored,
}
