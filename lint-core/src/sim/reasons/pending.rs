//! Why a claim is Pending: the event, the explanation, the root cause and the help.

use super::{class_text, Help};
use crate::binding::fit::Mismatch;
use crate::sim::events::{
    class_not_found, no_match_no_class, volume_taken, wait_for_first_consumer,
    wait_for_pod_scheduled,
};
use crate::sim::state::{ClaimId, ClassSource, Event, Pending, Reason};
use crate::sim::{CauseKey, World};

/// "pod a" or "pods a, b".
fn pod_list(pods: &[crate::string::Str]) -> String {
    let names: Vec<&str> = pods.iter().map(|p| p.as_str()).collect();
    match names.as_slice() {
        [one] => format!("pod {one}"),
        _ => format!("pods {}", names.join(", ")),
    }
}

impl Pending {
    /// The event a claim Pending for this reason gets (None: the controller emits none).
    pub fn event(&self, w: &World) -> Option<Event> {
        match self {
            Pending::New | Pending::VolumeMissing { .. } | Pending::AttributesClassUnsupported => {
                None
            }
            Pending::WaitForFirstConsumer { .. } => Some(wait_for_first_consumer()),
            Pending::NoMatchNoClass => Some(no_match_no_class()),
            Pending::ClassNotFound { class, .. } => Some(class_not_found(class)),
            Pending::ProvisionerUnavailable { waiting_pods, .. } if !waiting_pods.is_empty() => {
                Some(wait_for_pod_scheduled(waiting_pods))
            }
            Pending::ProvisionerUnavailable { error, .. } => {
                Some(Event::warning(Reason::ProvisioningFailed, error.clone()))
            }
            // sig-storage-lib-external-provisioner's provisionClaimOperation.
            Pending::ProvisionerRefuses { class, error, .. } => {
                // The assumed default class's real name is not known.
                let class = match w.class(class) {
                    Some(c) => w.class_display(c),
                    None => class.to_string(),
                };
                Some(Event::warning(
                    Reason::ProvisioningFailed,
                    format!("failed to provision volume with StorageClass \"{class}\": {error}"),
                ))
            }
            Pending::VolumeMismatch { volume, mismatches } => {
                let name = &w.volume(*volume).name;
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
            Pending::VolumeTaken { volume, .. } => Some(volume_taken(&w.volume(*volume).name)),
        }
    }

    /// Why a claim of class `class` waits, in one sentence (no trailing period).
    pub fn why(&self, w: &World, class: &str) -> String {
        match self {
            Pending::New => "it is not synced yet".into(),
            Pending::WaitForFirstConsumer { class } => format!(
                "StorageClass {class} binds on first consumer (WaitForFirstConsumer) and no pod in the input uses the claim"
            ),
            Pending::NoMatchNoClass => "no volume without a class matches it, and without a class nothing is provisioned".into(),
            Pending::ClassNotFound { class, assumption } => {
                let mut s = format!(
                    "no volume of {} matches it, and StorageClass {class} does not exist",
                    class_text(class)
                );
                if let Some(a) = assumption {
                    s.push_str(&format!(" (assumed: {})", a.describe()));
                }
                s
            }
            // Served, but not for this claim: kube-controller-manager's own message.
            Pending::ProvisionerUnavailable { provisioner, error, .. }
                if error.starts_with("Failed to provision volume") =>
            {
                format!(
                    "no volume of {} matches it, and kube-controller-manager's {provisioner} refuses it ({})",
                    class_text(class),
                    error.split_once(": ").map_or(error.as_str(), |(_, e)| e)
                )
            }
            Pending::ProvisionerUnavailable { provisioner, waiting_pods, .. } if !waiting_pods.is_empty() => format!(
                "no volume of {} matches it, and {provisioner} provisions nothing, so the scheduler finds no node for {} (it stays Pending too)",
                class_text(class),
                pod_list(waiting_pods)
            ),
            Pending::ProvisionerUnavailable { provisioner, .. } => format!(
                "no volume of {} matches it, and kube-controller-manager has no provisioner \"{provisioner}\"",
                class_text(class)
            ),
            Pending::ProvisionerRefuses { provisioner, error, assumption, .. } => {
                let mut s = format!(
                    "no volume of {} matches it, and {provisioner} refuses to provision it ({error})",
                    class_text(class)
                );
                if let Some(a) = assumption {
                    s.push_str(&format!(" (assumed: {})", a.describe()));
                }
                s
            }
            Pending::AttributesClassUnsupported => format!(
                "it sets volumeAttributesClassName, which the VolumeAttributesClass feature (off by default in {}) does not allow: matching fails with no event",
                w.options.kube_version
            ),
            Pending::VolumeMissing { volume } => {
                format!("it names volume {volume}, which does not exist (no event; it waits)")
            }
            Pending::VolumeMismatch { volume, mismatches } => format!(
                "it names volume {}, but {}",
                w.volume(*volume).name,
                mismatches.first().map(Mismatch::detail).unwrap_or_default()
            ),
            Pending::VolumeTaken { volume, holder, stale_uid } => {
                let v = &w.volume(*volume).name;
                if *stale_uid {
                    format!("volume {v}'s claimRef names it with another UID (a copied claimRef.uid)")
                } else {
                    format!("volume {v} is bound to another claim, {}", holder.key)
                }
            }
        }
    }

    /// The root cause behind claim `id` waiting for this reason (None: waiting is how it
    /// works, not a hazard).
    pub(crate) fn cause(&self, w: &World, id: ClaimId) -> Option<CauseKey> {
        let c = w.claim(id);
        let subject = || w.subject(id);
        // A claim that nothing matches: a more specific cause than its reason, if there is one.
        let unmatched = |own: CauseKey| -> CauseKey {
            if c.template_of.is_some() && w.is_static_pool_claim(id) {
                CauseKey::Pool {
                    namespace: c.key.namespace.clone(),
                    statefulset: c
                        .template_of
                        .as_ref()
                        .map(|t| t.statefulset.clone())
                        .unwrap_or_default(),
                }
            } else if w.reserved_and_skipped(id) {
                CauseKey::Prebound(subject())
            } else if matches!(
                c.class_source,
                ClassSource::Admission | ClassSource::Retroactive
            ) {
                CauseKey::ImplicitDefault(subject())
            } else {
                own
            }
        };
        Some(match self {
            Pending::New | Pending::WaitForFirstConsumer { .. } => return None,
            Pending::VolumeTaken {
                volume, stale_uid, ..
            } => {
                let volume = w.volume(*volume).name.clone();
                if *stale_uid {
                    CauseKey::StaleUid { volume }
                } else {
                    CauseKey::Conflict { volume }
                }
            }
            Pending::VolumeMismatch { .. } => CauseKey::Prebound(subject()),
            Pending::VolumeMissing { .. } => CauseKey::Dangling(subject()),
            Pending::ClassNotFound { .. } => unmatched(CauseKey::ClassNotFound(subject())),
            Pending::ProvisionerUnavailable { class, .. } => {
                unmatched(CauseKey::ProvisionerUnavailable {
                    class: class.clone(),
                })
            }
            Pending::NoMatchNoClass
            | Pending::ProvisionerRefuses { .. }
            | Pending::AttributesClassUnsupported => unmatched(CauseKey::Unbindable(subject())),
        })
    }

    /// What to do about a claim that waits for this reason.
    pub fn help(&self, w: &World) -> Help {
        Help::text(match self {
            Pending::ClassNotFound { class, .. } => format!("create StorageClass {class}, or re-create the claim with a class that exists"),
            Pending::ProvisionerUnavailable { class, .. } => format!("StorageClass {class} names a provisioner nothing runs: use a class with a working provisioner, or create a volume that fits"),
            Pending::ProvisionerRefuses { provisioner, error, why, .. } => format!("{provisioner} refuses it ({error}): {}", why.help(None)),
            Pending::VolumeMissing { volume } => format!("create PersistentVolume {volume}, or re-create the claim without spec.volumeName"),
            Pending::VolumeMismatch { volume, .. } => format!("the claim and volume {} disagree: re-create the claim to fit it (claims are immutable)", w.volume(*volume).name),
            Pending::VolumeTaken { volume, stale_uid: true, .. } => format!("remove claimRef.uid (or the whole claimRef) from volume {}: it carries another UID for this claim's name", w.volume(*volume).name),
            Pending::VolumeTaken { volume, holder, .. } => format!("volume {} belongs to {}: name another volume, or none", w.volume(*volume).name, holder.key),
            Pending::New
            | Pending::WaitForFirstConsumer { .. }
            | Pending::NoMatchNoClass
            | Pending::AttributesClassUnsupported => "make the claim fit an available volume, add a volume that fits, or use a StorageClass with a provisioner".into(),
        })
    }
}
