//! `syncClaim` (pv_controller.go): claims without pv.kubernetes.io/bind-completed go through
//! `syncUnboundClaim` (with or without spec.volumeName), the others through `syncBoundClaim`.

use super::state::*;
use super::World;
use crate::binding::fit;
use crate::string::Str;

impl World {
    pub(crate) fn sync_claim(&mut self, id: ClaimId) -> bool {
        if self.claim(id).bind_completed {
            self.sync_bound_claim(id)
        } else if let Some(vol) = self.claim(id).volume_name.clone() {
            self.sync_prebound_claim(id, &vol)
        } else {
            self.sync_unbound_claim(id)
        }
    }

    /// `syncBoundClaim`.
    fn sync_bound_claim(&mut self, id: ClaimId) -> bool {
        let Some(name) = self.claim(id).volume_name.clone() else {
            return self.lose(id, Lost::NoVolumeName);
        };
        let Some(v) = self.volume_named(&name) else {
            return self.lose(id, Lost::VolumeMissing { volume: name });
        };
        match self.volume(v).claim_ref.clone() {
            None => self.bind(v, id, BindHow::Rebound),
            Some(cr) if cr.uid == self.claim(id).uid => {
                let how = match &self.claim(id).state {
                    ClaimState::Bound { how, .. } => how.clone(),
                    _ => {
                        self.wait_for_expansion(id, v);
                        BindHow::AlreadyBound
                    }
                };
                let changed = self.set_volume_phase(v, VolumePhase::Bound);
                changed | self.set_claim(id, ClaimState::Bound { volume: v, how }, None)
            }
            Some(claim_ref) => {
                let lost = Lost::Misbound {
                    volume: v,
                    claim_ref,
                };
                // Created before its volume in the same apply: the first sync found no volume
                // and set Lost with ClaimLost; updateClaimStatusWithEvent emits nothing once the
                // phase is Lost, so ClaimMisbound never follows (recorded on a real v1.34.9
                // control plane, tests/oracle/31).
                if self.arrives_before(id, v)
                    && !matches!(self.claim(id).state, ClaimState::Lost(_))
                {
                    let e = Lost::VolumeMissing { volume: name }.event();
                    return self.set_claim(id, ClaimState::Lost(lost), Some(e));
                }
                self.lose(id, lost)
            }
        }
    }

    /// expand_controller syncHandler: a Bound claim that asks for more than its volume has
    /// (its status.capacity) and whose volume no in-tree plugin of kube-controller-manager
    /// expands waits for an external resizer, and says so (oracle cases 19 and 35).
    fn wait_for_expansion(&mut self, id: ClaimId, v: VolumeId) {
        let vol = &self.volumes[v.idx()];
        let c = &mut self.claims[id.idx()];
        let smaller = matches!(
            (c.spec.request.as_ref(), vol.spec.capacity.as_ref()),
            (Some(want), Some(has)) if want > has
        );
        if smaller && vol.migrated_to.is_none() {
            super::push_once(&mut c.events, super::events::external_expanding());
        }
    }

    /// updateClaimStatusWithEvent: the event only on the change to Lost.
    fn lose(&mut self, id: ClaimId, lost: Lost) -> bool {
        let e = (!matches!(self.claim(id).state, ClaimState::Lost(_))).then(|| lost.event());
        self.set_claim(id, ClaimState::Lost(lost), e)
    }

    fn pend(&mut self, id: ClaimId, p: Pending) -> bool {
        let e = p.event(self);
        self.set_claim(id, ClaimState::Pending(p), e)
    }

    /// `syncUnboundClaim` with spec.volumeName set.
    fn sync_prebound_claim(&mut self, id: ClaimId, vol: &str) -> bool {
        let Some(v) = self.volume_named(vol) else {
            // The named volume was there at an earlier sync of this apply (bound to another
            // claim, or not fitting) and is gone now (released and deleted): whether the claim
            // was synced before the deletion, and said so, is timing (issue 37 class 7: a real
            // cluster recorded no event).
            if self.first_apply {
                for e in &mut self.claims[id.idx()].events {
                    if matches!(e.reason, Reason::FailedBinding | Reason::VolumeMismatch) {
                        e.transient = true;
                    }
                }
            }
            return self.pend(
                id,
                Pending::VolumeMissing {
                    volume: Str::from(vol),
                },
            );
        };
        let c = self.claim(id);
        let checks = || {
            fit::check_volume_satisfy_claim(
                &self.volume(v).spec,
                &c.spec,
                c.class_name(),
                self.options.target(),
            )
        };
        match self.volume(v).claim_ref.clone() {
            None => {
                let mismatches = checks();
                if mismatches.is_empty() {
                    self.bind(v, id, BindHow::NamedVolume)
                } else {
                    self.pend(
                        id,
                        Pending::VolumeMismatch {
                            volume: v,
                            mismatches,
                        },
                    )
                }
            }
            Some(cr) if cr.key == c.key && (cr.uid.is_empty() || cr.uid == c.uid) => {
                let unchecked = checks();
                self.bind(v, id, BindHow::NamedEachOther { unchecked })
            }
            Some(holder) => {
                let stale_uid = holder.key == c.key;
                self.pend(
                    id,
                    Pending::VolumeTaken {
                        volume: v,
                        holder,
                        stale_uid,
                    },
                )
            }
        }
    }

    /// Whether the claim and the volume came in the first apply, the claim earlier in the file:
    /// kubectl creates objects in order, and the controller may sync the claim before the
    /// volume exists.
    fn arrives_before(&self, id: ClaimId, v: VolumeId) -> bool {
        let (Some(c), Some(v)) = (
            self.claim(id).origin.manifest_object(),
            self.volume(v).origin.manifest_object(),
        ) else {
            return false;
        };
        self.first_apply && self.file_order && c < v
    }

    /// What the first sync of a claim of class `class` did when no volume of its apply had
    /// arrived yet (syncUnboundClaim → provisionClaim), for a claim a later volume serves.
    /// A class that provisions starts provisioning at once (oracle cases 36 and 38): with
    /// kube-controller-manager's own provisioner the new volume was first in every run; an
    /// external provisioner takes longer, and the volume of the apply usually binds first.
    /// The other outcome is an alternative ([`super::timing::Timing::other_provisioning_race`]).
    fn first_sync_without(&mut self, class: &str) -> Option<FirstSync> {
        let c = self.class(class)?;
        let provisioner = c.provisioner.clone()?;
        if let Some(error) = self.unserved_provisioner(c) {
            // Immediate binding with a provisioner kube-controller-manager lacks (such as
            // kubernetes.io/no-provisioner): Warning ProvisioningFailed, then the volume binds.
            return Some(FirstSync::Fails(super::Event::warning(
                super::Reason::ProvisioningFailed,
                error,
            )));
        }
        if provisioner.as_str() == crate::kube::NO_PROVISIONER {
            return None;
        }
        self.provisioning_raced = true;
        let in_tree = provisioner.starts_with("kubernetes.io/")
            && super::reclaim::migrated_driver(&provisioner, self.options.target()).is_none();
        Some(if in_tree != self.other_provisioning_race {
            FirstSync::Provisions
        } else {
            FirstSync::Binds
        })
    }

    /// Whether the claim and the StorageClass `class` came in the first apply, the claim
    /// earlier in the file (as [`World::arrives_before`] for a volume).
    fn arrives_before_class(&self, id: ClaimId, class: &Class) -> bool {
        let in_order = match (self.claim(id).origin.manifest_object(), &class.knowledge) {
            (Some(c), ClassKnowledge::Defined(Side::Manifest, k)) => c < *k,
            _ => false,
        };
        self.first_apply && self.file_order && in_order
    }

    /// `syncUnboundClaim` without spec.volumeName.
    fn sync_unbound_claim(&mut self, id: ClaimId) -> bool {
        if self.claim_vac_unsupported(id) {
            return self.pend(id, Pending::AttributesClassUnsupported);
        }
        let class_name = self.claim(id).class_name().to_string();
        // IsDelayBindingMode: a class that exists and binds on first consumer.
        let delay = !class_name.is_empty()
            && self
                .class(&class_name)
                .is_some_and(|c| c.wait_for_first_consumer);
        let c = self.claim(id);
        // A pod using the claim makes the scheduler choose a node and bind (or provision).
        let node_chosen = c.has_consumer || c.selected_node;
        if delay && c.has_consumer && !c.selected_node {
            // The controller syncs the claim before the scheduler has placed its pod: it waits
            // (Normal WaitForFirstConsumer), then the scheduler's choice lets it go on.
            super::push_once(
                &mut self.claims[id.idx()].events,
                super::events::wait_for_first_consumer().on_the_way(),
            );
        }
        if let Some(found) = self.find_best_match(id, delay && !node_chosen) {
            if self.arrives_before(id, found.volume) {
                if class_name.is_empty() {
                    // Created before the volume in the same apply: its first sync found nothing
                    // (pv_controller syncUnboundClaim), the next (resync, or the volume's
                    // arrival) binds.
                    let e = super::events::no_match_no_class().on_the_way();
                    super::push_once(&mut self.claims[id.idx()].events, e);
                } else if !delay {
                    if let Some(first) = self.first_sync_without(&class_name) {
                        match first {
                            FirstSync::Provisions => return self.provision_claim(id),
                            FirstSync::Fails(e) => {
                                super::push_once(&mut self.claims[id.idx()].events, e.on_the_way());
                            }
                            FirstSync::Binds => {}
                        }
                    }
                }
            }
            return self.bind(found.volume, id, found.how);
        }
        // Created before its class in the same apply: the first sync's provisionClaim found
        // no class (Warning ProvisioningFailed "... not found"); the next provisions (oracle
        // case 33), whether or not the class delays binding.
        if self.claim(id).class_source == ClassSource::Written
            && self
                .class(&class_name)
                .is_some_and(|k| self.arrives_before_class(id, k))
        {
            let e = super::events::class_not_found(&class_name).on_the_way();
            super::push_once(&mut self.claims[id.idx()].events, e);
        }
        if self.claim(id).class.is_none()
            && !self.claim(id).written_class.has_class()
            && self.retroactive_default_enabled()
        {
            if let Ok(Some(d)) = self.default_class() {
                // Created before the default class of the same apply: its first sync found
                // no class (Normal FailedBinding); assignDefaultStorageClass gives it the class
                // once that exists.
                let early = self
                    .class(&d)
                    .is_some_and(|k| self.arrives_before_class(id, k));
                let c = &mut self.claims[id.idx()];
                if early {
                    super::push_once(
                        &mut c.events,
                        super::events::no_match_no_class().on_the_way(),
                    );
                }
                c.class = Some(Str::from(d));
                c.class_source = ClassSource::Retroactive;
                return true;
            }
        }
        if delay && !node_chosen {
            return self.pend(
                id,
                Pending::WaitForFirstConsumer {
                    class: Str::from(class_name),
                },
            );
        }
        if class_name.is_empty() {
            return self.pend(id, Pending::NoMatchNoClass);
        }
        // volumebinding checkVolumeProvisions: a class of `kubernetes.io/no-provisioner` cannot
        // provision, so no node passes and the scheduler never selects one; the controller
        // keeps waiting for the pods (emitEventForUnboundDelayBindingClaim) and never calls
        // provisionClaim (oracle case 32).
        if delay && !self.claim(id).selected_node {
            let provisioner = self.class(&class_name).and_then(|c| c.provisioner.clone());
            if provisioner.as_deref() == Some(crate::kube::NO_PROVISIONER) {
                let waiting_pods = self.unscheduled_pods(id);
                if !waiting_pods.is_empty() {
                    return self.pend(
                        id,
                        Pending::ProvisionerUnavailable {
                            class: Str::from(class_name),
                            provisioner: Str::from(crate::kube::NO_PROVISIONER),
                            error: Str::from(
                                super::provision::unserved_in_tree(
                                    crate::kube::NO_PROVISIONER,
                                    self.options.kube_version,
                                )
                                .unwrap_or_default(),
                            ),
                            waiting_pods,
                        },
                    );
                }
            }
        }
        self.provision_claim(id)
    }

    /// `bind`: the volume's claimRef (with the claim's UID), phase Bound; the claim's
    /// volumeName, bind-completed, phase Bound.
    pub(crate) fn bind(&mut self, v: VolumeId, id: ClaimId, how: BindHow) -> bool {
        let (key, uid) = {
            let c = self.claim(id);
            (c.key.clone(), c.uid.clone())
        };
        let vol = &mut self.volumes[v.idx()];
        let prebound = vol
            .claim_ref
            .as_ref()
            .is_some_and(|cr| cr.key == key && (cr.uid.is_empty() || cr.uid == uid));
        if !prebound {
            vol.bound_by_controller = true;
        }
        vol.claim_ref = Some(ClaimRef { key, uid });
        vol.phase = VolumePhase::Bound;
        vol.skipped_by_reserved_claim = None;
        self.index_take(v);
        let name = self.volume(v).name.clone();
        let before = self.unbound_ordinal(id);
        let c = &mut self.claims[id.idx()];
        let changed = !matches!(c.state, ClaimState::Bound { volume, .. } if volume == v)
            || c.volume_name.as_deref() != Some(&name)
            || !c.bind_completed;
        c.volume_name = Some(name);
        c.bind_completed = true;
        // A claim bound without checks may ask for more than its volume has (a bound claim of
        // the cluster's state, updated to ask for more, is checked in `sync_bound_claim`).
        if matches!(
            how,
            BindHow::NamedEachOther { .. } | BindHow::ReservedByClaimRef { .. } | BindHow::Rebound
        ) {
            self.wait_for_expansion(id, v);
        }
        let c = &mut self.claims[id.idx()];
        c.state = ClaimState::Bound { volume: v, how };
        self.track_unbound(id, before);
        changed
    }
}

/// See [`World::first_sync_without`].
enum FirstSync {
    /// Provisioning starts, and its volume binds.
    Provisions,
    /// The event the first sync emitted; the volume binds at the next.
    Fails(Event),
    /// The volume binds (provisioning, if it started, comes second).
    Binds,
}
