//! Root causes, so one cause gets one finding: a rule that reports a cause marks its finding
//! [`Role::Cause`]; a rule that reports a predicted consequence (a claim Lost, storage deleted,
//! a claim Pending) marks it [`Role::Consequence`], and it is dropped when the cause is reported.

use super::state::ClaimKey;
use crate::string::Str;

/// A claim, or every claim a StatefulSet's volumeClaimTemplate creates.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subject {
    Claim(ClaimKey),
    Template {
        namespace: Str,
        statefulset: Str,
        template: Str,
    },
}

/// What went wrong, named so that findings about it can be merged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CauseKey {
    /// A volume's claimRef.uid (or resourceVersion) copied from another cluster.
    StaleUid { volume: Str },
    /// A volume claimed twice, or a claim and a volume naming each other inconsistently.
    Conflict { volume: Str },
    /// A pre-bound claim and volume that do not fit.
    Prebound(Subject),
    /// bind-completed without volumeName.
    NoVolumeName(Subject),
    /// volumeName naming a volume that does not exist.
    Dangling(Subject),
    /// A class that does not exist.
    ClassNotFound(Subject),
    /// A class whose provisioner kube-controller-manager does not serve.
    ProvisionerUnavailable { class: Str },
    /// A StatefulSet's static pool is too small.
    Pool { namespace: Str, statefulset: Str },
    /// A claim left without class gets the default one instead of its class-less volume.
    ImplicitDefault(Subject),
    /// A claim that matches nothing, for no more specific reason.
    Unbindable(Subject),
    /// A volume whose storage is deleted for no more specific reason.
    Deleted { volume: Str },
    /// Admission refuses the claim (several default classes before 1.26).
    Admission,
}

/// The part a finding plays for its cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The specific report of the cause.
    Cause,
    /// A predicted consequence, dropped when the cause itself is reported.
    Consequence,
}

use super::state::*;
use super::World;

/// The root cause behind a claim's final state.
pub(crate) fn of_claim(w: &World, id: ClaimId) -> Option<CauseKey> {
    let c = w.claim(id);
    let subject = || w.subject(id);
    Some(match &c.state {
        ClaimState::Bound { .. } => return None,
        ClaimState::Rejected(_) => CauseKey::Admission,
        ClaimState::Lost(l) => l.cause(w, c, subject()),
        ClaimState::Pending(p) => return p.cause(w, id),
    })
}

/// The root cause behind a volume's storage fate.
pub(crate) fn of_volume(w: &World, id: VolumeId) -> Option<CauseKey> {
    let v = w.volume(id);
    let volume = v.name.clone();
    Some(match v.release.as_ref()? {
        Release::ClaimMissing | Release::UidMismatch => CauseKey::StaleUid { volume },
        Release::ClaimBoundElsewhere { .. } => CauseKey::Conflict { volume },
    })
}

impl World {
    /// A claim whose only volumes are pre-created ones: class "", a class whose provisioner
    /// never provisions (`kubernetes.io/no-provisioner`), or a class that does not exist while
    /// static volumes of that class do.
    pub fn is_static_pool_claim(&self, id: ClaimId) -> bool {
        let c = self.claim(id);
        let name = c.class_name();
        if name.is_empty() {
            return !matches!(
                c.class_source,
                ClassSource::Admission | ClassSource::Retroactive
            );
        }
        match self.class(name) {
            Some(class) => class.provisioner.as_deref() == Some(crate::kube::NO_PROVISIONER),
            None => self.static_classes.contains(name),
        }
    }

    /// How far [`Self::pool_elsewhere`] can reach for claims like `like` (one template: one
    /// spec): the number of volumes other apply sets define in its class, and the names of the
    /// claims of its namespace that some of them reserve. Past the first `count + 1` claims in
    /// creation order, only a reserved name can still find one: a claim that finds no
    /// unreserved volume leaves none for the claims after it.
    pub(crate) fn pool_elsewhere_reach(&self, like: ClaimId) -> (usize, Vec<&Str>) {
        let c = self.claim(like);
        let volumes = self.elsewhere.volumes(c.class_name());
        let mut count = 0;
        let mut reserved = Vec::new();
        for v in volumes {
            count += 1;
            if let Some((ns, name)) = &v.reserved_for {
                if *ns == c.key.namespace {
                    reserved.push(name);
                }
            }
        }
        (count, reserved)
    }

    /// Volumes the input's other apply sets define that would bind claims like `like` (its
    /// namespace, spec and class) named `names`, in order, each volume to one claim, the
    /// smallest that fits first, as `FindMatchingVolume` picks: the static pool those sets add
    /// when they are applied too, as their classes are assumed to be. Each entry is the index
    /// of the name it binds. Empty when the cluster is known.
    pub(crate) fn pool_elsewhere(
        &self,
        like: ClaimId,
        names: &[Str],
    ) -> Vec<(usize, &super::elsewhere::ElsewhereVolume)> {
        let version = self.options.target();
        let c = self.claim(like);
        let class = c.class_name();
        let mut taken: Vec<&super::elsewhere::ElsewhereVolume> = Vec::new();
        let mut out = Vec::new();
        for (n, name) in names.iter().enumerate() {
            let best = self
                .elsewhere
                .volumes(class)
                .filter(|v| !taken.iter().any(|t| std::ptr::eq(*t, *v)))
                .filter(|v| {
                    v.reserved_for
                        .as_ref()
                        .is_none_or(|(ns, claim)| *ns == c.key.namespace && claim == name)
                })
                .filter(|v| {
                    crate::binding::fit::match_failures(&v.spec, &c.spec, class, version).is_empty()
                })
                .min_by(|a, b| a.spec.capacity.cmp(&b.spec.capacity));
            if let Some(v) = best {
                taken.push(v);
                out.push((n, v));
            }
        }
        out
    }

    /// A volume's claimRef reserves it for this claim, which skips it (its checks fail).
    pub fn reserved_and_skipped(&self, id: ClaimId) -> bool {
        self.skipped_claims.contains(&id)
    }
}
