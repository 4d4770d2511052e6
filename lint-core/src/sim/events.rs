//! The events the controller emits, built from typed reasons in one place, with the texts of
//! pkg/controller/volume/persistentvolume/pv_controller.go.

use super::state::*;
use super::World;

/// The Normal ExternalProvisioning text (1.28+; earlier releases worded it differently).
pub fn external_provisioning(provisioner: &str) -> Event {
    Event::normal(
        Reason::ExternalProvisioning,
        format!(
            "Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
        ),
    )
}

pub fn wait_for_first_consumer() -> Event {
    Event::normal(
        Reason::WaitForFirstConsumer,
        "waiting for first consumer to be created before binding",
    )
}

/// syncUnboundClaim: no volume matches and no class to provision from.
pub fn no_match_no_class() -> Event {
    Event::normal(
        Reason::FailedBinding,
        "no persistent volumes available for this claim and no storage class is set",
    )
}

pub fn class_not_found(class: &str) -> Event {
    Event::warning(
        Reason::ProvisioningFailed,
        format!("storageclass.storage.k8s.io \"{class}\" not found"),
    )
}

pub fn volume_taken(volume: &str) -> Event {
    Event::warning(
        Reason::FailedBinding,
        format!("volume \"{volume}\" already bound to a different claim."),
    )
}

impl World {
    /// The event a claim Pending for this reason gets (None: the controller emits none).
    pub fn pending_event(&self, p: &Pending) -> Option<Event> {
        match p {
            Pending::New | Pending::VolumeMissing { .. } | Pending::AttributesClassUnsupported => {
                None
            }
            Pending::WaitForFirstConsumer { .. } => Some(wait_for_first_consumer()),
            Pending::NoMatchNoClass => Some(no_match_no_class()),
            Pending::ClassNotFound { class, .. } => Some(class_not_found(class)),
            Pending::ProvisionerUnavailable { error, .. } => {
                Some(Event::warning(Reason::ProvisioningFailed, error.clone()))
            }
            // sig-storage-lib-external-provisioner's provisionClaimOperation.
            Pending::ProvisionerRefuses { class, error, .. } => Some(Event::warning(
                Reason::ProvisioningFailed,
                format!("failed to provision volume with StorageClass \"{class}\": {error}"),
            )),
            Pending::VolumeMismatch { volume, mismatches } => {
                let name = &self.volume(*volume).name;
                mismatches.first().map(|m| {
                    Event::warning(
                        Reason::VolumeMismatch,
                        format!(
                            "Cannot bind to requested volume \"{name}\": {}",
                            m.upstream_error(name)
                        ),
                    )
                })
            }
            Pending::VolumeTaken { volume, .. } => Some(volume_taken(&self.volume(*volume).name)),
        }
    }

    /// The event a Lost claim got when it went Lost (the controller emits none after): the one
    /// it recorded, or the one its reason gives.
    pub fn lost_event_of(&self, id: ClaimId) -> Option<Event> {
        let c = self.claim(id);
        let ClaimState::Lost(l) = &c.state else {
            return None;
        };
        Some(
            c.events
                .iter()
                .rev()
                .find(|e| matches!(e.reason, Reason::ClaimLost | Reason::ClaimMisbound))
                .cloned()
                .unwrap_or_else(|| self.lost_event(l)),
        )
    }

    /// The event a claim Lost for this reason gets.
    pub fn lost_event(&self, l: &Lost) -> Event {
        match l {
            Lost::NoVolumeName => Event::warning(
                Reason::ClaimLost,
                "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!",
            ),
            Lost::VolumeMissing { .. } => Event::warning(
                Reason::ClaimLost,
                "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
            ),
            Lost::Misbound { .. } => Event::warning(
                Reason::ClaimMisbound,
                "Two claims are bound to the same volume, this one is bound incorrectly",
            ),
        }
    }
}
