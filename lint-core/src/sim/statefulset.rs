//! The StatefulSet controller's part in storage: the claims of its `volumeClaimTemplates`, one
//! per template per ordinal, created with the pod and reused by name
//! (stateful_set_control.go), and what becomes of them when the set is scaled down or deleted
//! (`spec.persistentVolumeClaimRetentionPolicy`, KEP-1847, GA in 1.32):
//!
//! - `whenScaled: Delete`: the claims of the ordinals a scale-down removes get their pod as
//!   owner (`updateClaimOwnerRefForSetAndPod`, `claimOwnerMatchesSetAndPod`), so the garbage
//!   collector deletes them once the pod is gone; `Retain` (the default) leaves them, unused.
//! - `whenDeleted: Delete`: every claim of the set has the set as owner and goes with it
//!   (`kubectl delete sts`, a background cascade); `Retain` leaves them, unused.
//!
//! A claim deleted this way is deleted like any other: its volume is Released and reclaimed by
//! its own policy, so a Delete reclaim deletes the data (recorded: oracle cases 08–11).

use super::state::*;
use super::World;
use crate::model::{ClaimRetention, ObjId, Pvc, Workload};
use crate::string::Str;

/// A StatefulSet the simulation runs: what scaling and deleting it needs after loading.
#[derive(Debug, Clone)]
pub(crate) struct SetRecord {
    pub namespace: Str,
    pub name: Str,
    /// The objects that defined it (the live one, then each apply), newest last.
    pub owners: Vec<(Side, ObjId)>,
    /// Ordinals run: `start .. start + replicas`.
    pub replicas: i64,
    pub start: i64,
    pub when_scaled: ClaimRetention,
    pub when_deleted: ClaimRetention,
    /// Its volumeClaimTemplates (immutable once created).
    pub templates: Vec<Pvc>,
}

impl World {
    /// The running StatefulSet `namespace/name`.
    fn set_named(&self, namespace: &str, name: &str) -> Option<usize> {
        self.statefulset_by_key
            .get(&(Str::from(namespace), Str::from(name)))
            .copied()
    }

    /// A StatefulSet object of an apply (or the cluster state): records it, scales down what a
    /// lower replica count removes, and creates the claims of its ordinals.
    pub(crate) fn run_statefulset(
        &mut self,
        side: Side,
        w: &Workload,
        templates: Vec<&Pvc>,
        replicas: i64,
    ) {
        let idx = match self.set_named(&w.namespace, &w.name) {
            Some(idx) => {
                let set = &mut self.statefulsets[idx];
                // The controller reconciles the claims' owners with the policy it now reads
                // before it deletes the pods of a scale-down.
                set.when_scaled = w.retention.when_scaled();
                set.when_deleted = w.retention.when_deleted();
                set.start = w.ordinals_start;
                super::push_once(&mut set.owners, (side, w.obj));
                idx
            }
            None => {
                self.statefulsets.push(SetRecord {
                    namespace: Str::from(&w.namespace),
                    name: w.name.clone(),
                    owners: vec![(side, w.obj)],
                    replicas: 0,
                    start: w.ordinals_start,
                    when_scaled: w.retention.when_scaled(),
                    when_deleted: w.retention.when_deleted(),
                    templates: templates.into_iter().cloned().collect(),
                });
                let idx = self.statefulsets.len() - 1;
                self.statefulset_by_key
                    .insert((Str::from(&w.namespace), w.name.clone()), idx);
                idx
            }
        };
        self.scale_set(idx, replicas, (side, w.obj));
    }

    /// `kubectl scale sts/NAME --replicas=N`.
    pub(crate) fn scale_statefulset(
        &mut self,
        namespace: &str,
        name: &str,
        replicas: i64,
    ) -> Result<(), String> {
        let idx = self
            .set_named(namespace, name)
            .ok_or_else(|| format!("there is no StatefulSet {namespace}/{name}"))?;
        let owner = *self.statefulsets[idx].owners.last().expect("one owner");
        self.scale_set(idx, replicas.min(super::load::MAX_ORDINALS), owner);
        Ok(())
    }

    /// `kubectl delete sts/NAME` (background cascade): its pods go; with `whenDeleted: Delete`
    /// the garbage collector deletes every claim the set owns.
    pub(crate) fn delete_statefulset(&mut self, namespace: &str, name: &str) -> Result<(), String> {
        let idx = self
            .set_named(namespace, name)
            .ok_or_else(|| format!("there is no StatefulSet {namespace}/{name}"))?;
        let set = &self.statefulsets[idx];
        let delete = set.when_deleted == ClaimRetention::Delete;
        for owner in set.owners.clone() {
            self.podless.insert(owner);
        }
        self.release_ordinals(idx, i64::MIN, i64::MAX, delete);
        self.statefulset_by_key
            .remove(&(Str::from(namespace), Str::from(name)));
        Ok(())
    }

    /// Runs `replicas` ordinals: a scale-down releases (and with `whenScaled: Delete` deletes)
    /// the claims of the ordinals it removes; every ordinal run has its claims. An owner that
    /// already runs the set only adds the ordinals of a scale-up.
    fn scale_set(&mut self, idx: usize, replicas: i64, owner: (Side, ObjId)) {
        let set = &self.statefulsets[idx];
        let (start, old) = (set.start, set.replicas);
        if replicas < old {
            let delete = set.when_scaled == ClaimRetention::Delete;
            self.release_ordinals(idx, start + replicas, i64::MAX, delete);
        }
        let first = if self.template_claims.contains_key(&owner) {
            start.saturating_add(old.min(replicas))
        } else {
            start
        };
        self.statefulsets[idx].replicas = replicas;
        let templates = std::mem::take(&mut self.statefulsets[idx].templates);
        for ordinal in first..start.saturating_add(replicas) {
            for (ti, t) in templates.iter().enumerate() {
                self.ordinal_claim(idx, owner, t, ti, ordinal);
            }
        }
        self.statefulsets[idx].templates = templates;
    }

    /// The claim of template `t` for `ordinal`, created with the pod, or the existing claim of
    /// that name, now used by the pod.
    fn ordinal_claim(
        &mut self,
        idx: usize,
        owner: (Side, ObjId),
        t: &Pvc,
        ti: usize,
        ordinal: i64,
    ) {
        let (side, obj) = owner;
        let set = &self.statefulsets[idx];
        let key = ClaimKey {
            namespace: set.namespace.clone(),
            name: Str::from(crate::kube::template_claim_name(
                &t.name, &set.name, ordinal,
            )),
        };
        let template_of = TemplateOf {
            statefulset: set.name.clone(),
            template: Str::from(&t.name),
            ordinal,
        };
        let id = match self.claim_named(&key.namespace, &key.name) {
            Some(id) => id,
            None => {
                let mut claim = self.new_claim(
                    side,
                    t,
                    Origin::Template {
                        side,
                        obj,
                        template: u32::try_from(ti).unwrap_or(u32::MAX),
                        ordinal,
                    },
                );
                claim.key = key;
                claim.has_consumer = true;
                claim.template_of = Some(template_of.clone());
                self.create_or_update_claim(claim, false)
            }
        };
        let c = &mut self.claims[id.idx()];
        c.has_consumer = true;
        super::push_once(&mut c.used_by, (side, obj));
        if c.template_of.is_none() {
            c.template_of = Some(template_of);
        }
        self.template_claims.entry(owner).or_default().push(id);
    }

    /// The claims of ordinals `from..to` of the set lose their pods; `delete`: the garbage
    /// collector deletes them (after the pod: pvc-protection). A claim the controller had not
    /// created yet (an OrderedReady ordinal still waiting) never will be.
    fn release_ordinals(&mut self, idx: usize, from: i64, to: i64, delete: bool) {
        let set = &self.statefulsets[idx];
        let (namespace, name, owners) =
            (set.namespace.clone(), set.name.clone(), set.owners.clone());
        let mut released = std::collections::HashSet::new();
        for i in 0..self.claims.len() {
            let c = &self.claims[i];
            let ours = c.exists
                && c.key.namespace == namespace
                && c.template_of
                    .as_ref()
                    .is_some_and(|t| t.statefulset == name && (from..to).contains(&t.ordinal));
            if !ours {
                continue;
            }
            released.insert(ClaimId(i as u32));
            let c = &mut self.claims[i];
            c.used_by.retain(|u| !owners.contains(u));
            if c.used_by.is_empty() {
                c.has_consumer = false;
            }
            if c.unborn {
                c.exists = false;
                let key = super::claim_key(&self.claims)(ClaimId(i as u32));
                self.claim_by_key
                    .remove(key, super::claim_key(&self.claims));
            } else if delete {
                c.deleting = true;
            }
        }
        // The owners run them no more: a scale-up lists them again.
        for owner in &owners {
            if let Some(list) = self.template_claims.get_mut(owner) {
                list.retain(|id| !released.contains(id));
            }
        }
    }
}
