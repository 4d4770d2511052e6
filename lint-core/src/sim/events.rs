//! The events the controller emits, built from typed reasons in one place, with the texts of
//! pkg/controller/volume/persistentvolume/pv_controller.go.

use serde::{Deserialize, Serialize};

use super::state::*;
use super::World;
use crate::string::Str;

/// Event type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventType {
    Normal,
    Warning,
}

crate::string::named!(EventType {
    Normal => "Normal",
    Warning => "Warning",
});

crate::string::named!(Reason {
    FailedBinding => "FailedBinding",
    VolumeMismatch => "VolumeMismatch",
    ProvisioningFailed => "ProvisioningFailed",
    ExternalProvisioning => "ExternalProvisioning",
    ProvisioningSucceeded => "ProvisioningSucceeded",
    WaitForFirstConsumer => "WaitForFirstConsumer",
    WaitForPodScheduled => "WaitForPodScheduled",
    ClaimLost => "ClaimLost",
    ClaimMisbound => "ClaimMisbound",
    VolumeFailedDelete => "VolumeFailedDelete",
    VolumeFailedRecycle => "VolumeFailedRecycle",
    VolumeRecycled => "VolumeRecycled",
    VolumeUnknownReclaimPolicy => "VolumeUnknownReclaimPolicy",
    ExternalExpanding => "ExternalExpanding",
});

/// The event reasons the controllers emit that pvlint predicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reason {
    FailedBinding,
    VolumeMismatch,
    ProvisioningFailed,
    ExternalProvisioning,
    ProvisioningSucceeded,
    WaitForFirstConsumer,
    /// Delayed binding, and the claim's pods are not scheduled yet.
    WaitForPodScheduled,
    ClaimLost,
    ClaimMisbound,
    VolumeFailedDelete,
    VolumeFailedRecycle,
    VolumeRecycled,
    VolumeUnknownReclaimPolicy,
    /// The expand controller hands a bigger request of a Bound claim to an external resizer.
    ExternalExpanding,
}

/// A Kubernetes event: type, reason and message as the controller writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "type")]
    pub kind: EventType,
    pub reason: Reason,
    pub message: Str,
    /// Recorded on the way, not in the final state: the controller emits it before what ends
    /// the story (a pod arriving, a volume created later in the same apply), and may not emit
    /// it at all when the timing differs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transient: bool,
}

impl Event {
    /// The event as a finding's consequence shows it.
    pub fn into_text(self) -> crate::finding::EventText {
        crate::finding::EventText {
            kind: Str::from_static(self.kind.as_str()),
            reason: Str::from_static(self.reason.as_str()),
            message: self.message,
        }
    }

    pub(crate) fn normal(reason: Reason, message: impl Into<Str>) -> Event {
        Event {
            kind: EventType::Normal,
            reason,
            message: message.into(),
            transient: false,
        }
    }

    pub(crate) fn warning(reason: Reason, message: impl Into<Str>) -> Event {
        Event {
            kind: EventType::Warning,
            reason,
            message: message.into(),
            transient: false,
        }
    }

    /// The same event, emitted on the way only.
    pub(crate) fn on_the_way(mut self) -> Event {
        self.transient = true;
        self
    }
}

/// The Normal ExternalProvisioning text (1.28+; earlier releases worded it differently).
pub fn external_provisioning(provisioner: &str) -> Event {
    Event::normal(
        Reason::ExternalProvisioning,
        format!(
            "Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
        ),
    )
}

/// expand_controller syncHandler: a Bound claim asks for more than its status.capacity and no
/// plugin of kube-controller-manager expands its volume.
pub fn external_expanding() -> Event {
    Event::normal(
        Reason::ExternalExpanding,
        "waiting for an external controller to expand this PVC",
    )
}

pub fn wait_for_first_consumer() -> Event {
    Event::normal(
        Reason::WaitForFirstConsumer,
        "waiting for first consumer to be created before binding",
    )
}

/// `emitEventForUnboundDelayBindingClaim` (pv_controller.go): a delayed-binding claim whose
/// pods (`findNonScheduledPodsByPVC`) are not scheduled yet, named in the message.
pub fn wait_for_pod_scheduled(pods: &[Str]) -> Event {
    let message = match pods {
        [one] => format!("waiting for pod {one} to be scheduled"),
        _ => format!(
            "waiting for pods {} to be scheduled",
            pods.iter().map(Str::as_str).collect::<Vec<_>>().join(",")
        ),
    };
    Event::normal(Reason::WaitForPodScheduled, message)
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
                .unwrap_or_else(|| l.event()),
        )
    }
}
