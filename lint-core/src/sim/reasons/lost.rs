//! Why a claim is Lost: the event, the explanation, the root cause and the help.

use super::Help;
use crate::sim::state::{Claim, Event, Lost, Reason};
use crate::sim::{CauseKey, Subject, World};

impl Lost {
    /// The event a claim Lost for this reason gets when it goes Lost
    /// (`updateClaimStatusWithEvent`; none after).
    pub fn event(&self) -> Event {
        match self {
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

    /// Why claim `c` is Lost, in one sentence (no trailing period).
    pub fn why(&self, w: &World, c: &Claim) -> String {
        match self {
            Lost::NoVolumeName => {
                "it carries pv.kubernetes.io/bind-completed but has no spec.volumeName".into()
            }
            Lost::VolumeMissing { volume } => {
                format!("it is marked bound to volume {volume}, which does not exist")
            }
            Lost::Misbound { volume, claim_ref } => {
                let v = &w.volume(*volume).name;
                if claim_ref.key != c.key {
                    format!(
                        "volume {v}'s claimRef names another claim, {}",
                        claim_ref.key
                    )
                } else if claim_ref.uid.is_empty() {
                    format!("volume {v}'s claimRef names it without a UID, and for a bound claim the UIDs must match")
                } else if c.existed {
                    format!(
                        "volume {v}'s claimRef.uid {} is not this claim's UID {}",
                        claim_ref.uid, c.uid
                    )
                } else {
                    format!("volume {v}'s claimRef.uid {} can never be the UID this claim gets when it is created", claim_ref.uid)
                }
            }
        }
    }

    /// The same, short, for a claim a live cluster already reports Lost.
    pub fn short(&self, w: &World, c: &Claim) -> String {
        match self {
            Lost::Misbound { volume, claim_ref } if claim_ref.key == c.key => format!(
                "volume {}'s claimRef carries another UID",
                w.volume(*volume).name
            ),
            Lost::Misbound { volume, claim_ref } => format!(
                "volume {} is bound to claim {}",
                w.volume(*volume).name,
                claim_ref.key
            ),
            Lost::VolumeMissing { volume } => format!("volume {volume} does not exist"),
            Lost::NoVolumeName => "it names no volume".to_string(),
        }
    }

    /// The root cause behind claim `c` (cause-key subject `subject`) going Lost.
    pub(crate) fn cause(&self, w: &World, c: &Claim, subject: Subject) -> CauseKey {
        match self {
            Lost::NoVolumeName => CauseKey::NoVolumeName(subject),
            Lost::VolumeMissing { .. } => CauseKey::Dangling(subject),
            Lost::Misbound { volume, claim_ref } => {
                let volume = w.volume(*volume).name.clone();
                if claim_ref.key == c.key && !claim_ref.uid.is_empty() {
                    CauseKey::StaleUid { volume }
                } else {
                    CauseKey::Conflict { volume }
                }
            }
        }
    }

    /// What to do about claim `c`, Lost for this reason on a live cluster.
    pub fn help(&self, w: &World, c: &Claim) -> Help {
        match self {
            Lost::Misbound { volume, claim_ref } if claim_ref.key == c.key => {
                let v = w.volume(*volume);
                let mut help = format!(
                    "volume {} still names this claim, with UID {} instead of {}: removing its spec.claimRef makes syncBoundClaim bind it to this claim again (the data stays)",
                    v.name,
                    if claim_ref.uid.is_empty() { "none" } else { &claim_ref.uid },
                    c.uid
                );
                if v.storage.is_deleted() {
                    help.push_str(&format!(
                        "; but its reclaimPolicy is Delete and it is Released, so {} is being deleted: set persistentVolumeReclaimPolicy: Retain on it first, or the claim binds an emptied volume",
                        v.backing
                    ));
                }
                Help::text(help).with_fix(
                    format!("remove spec.claimRef from PersistentVolume {}", v.name),
                    format!(
                        "kubectl patch pv {} --type json -p '[{{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}}]'",
                        v.name
                    ),
                )
            }
            Lost::Misbound { volume, claim_ref } => Help::text(format!(
                "volume {} belongs to claim {}; this claim's binding is wrong: delete it, or create it again without spec.volumeName so it binds another volume",
                w.volume(*volume).name,
                claim_ref.key
            )),
            Lost::VolumeMissing { volume } => Help::text(format!(
                "PersistentVolume {volume} is gone; if its storage was kept (Retain), re-create the PV for it with a claimRef carrying this claim's UID and the claim binds again"
            ))
            .with_fix(
                format!("re-create PersistentVolume {volume}, reserved for this claim"),
                format!(
                    "spec:\n  claimRef:\n    namespace: {}\n    name: {}\n    uid: {}",
                    c.key.namespace, c.key.name, c.uid
                ),
            ),
            Lost::NoVolumeName => Help::text("the claim is marked bound (pv.kubernetes.io/bind-completed) but names no volume: set spec.volumeName to the volume that holds its data, or delete and re-create the claim"),
        }
    }
}
