use super::prelude::*;
use std::fmt::Write;

pub const RULE: Rule = Rule {
    id: "stale-claim-ref-uid",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A PersistentVolume keeps claimRef.uid (or resourceVersion) from the cluster it was exported from",
    docs: Docs {
        what: "Finds PersistentVolume manifests whose `spec.claimRef` carries a `uid` (or a `resourceVersion`): \
               identity that only means something in the cluster the object was exported from.",
        why: "Every object created from a manifest gets a new UID, so a copied `claimRef.uid` never matches the \
              re-created claim. A claim that carries `pv.kubernetes.io/bind-completed` goes `Lost` with Warning \
              `ClaimMisbound` (\"Two claims are bound to the same volume, this one is bound incorrectly\"); \
              one that only names the volume stays `Pending` (Warning `FailedBinding`). The PV controller treats \
              the claim as deleted: the PV goes `Released` and its reclaim policy runs — with `Delete`, the backing \
              volume is deleted, even when another cluster still uses it.",
        example: include_str!("../../tests/fixtures/stale-claim-ref-uid/bad.yaml"),
        fix: "Remove `uid` and `resourceVersion` from `spec.claimRef`. If the claim carries \
              `pv.kubernetes.io/bind-completed`, remove `spec.claimRef` entirely (keep the claim's \
              `spec.volumeName`): the controller re-binds a bound claim to a volume without claimRef, while a \
              claimRef without uid still makes it `Lost`. Consider `persistentVolumeReclaimPolicy: Retain` for \
              migrated volumes.",
        fixed: include_str!("../../tests/fixtures/stale-claim-ref-uid/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for pv in &ctx.index.pvs {
        let Some(cr) = &pv.claim_ref else { continue };
        let claim_key = format!("{}/{}", cr.namespace, cr.name);
        let Some(uid) = &cr.uid else {
            if let Some(rv) = &cr.resource_version {
                sink.report(
                    ctx,
                    pv.obj,
                    &rv.field,
                    format!(
                        "PersistentVolume {} keeps claimRef.resourceVersion \"{}\" from the cluster it was exported from; \
                         the PV controller ignores it, but it is server state that never matches here",
                        pv.name, rv.value
                    ),
                )
                .severity(Severity::Warning)
                .help("remove spec.claimRef.resourceVersion");
            }
            continue;
        };
        // Re-applied into the cluster where that claim lives with this very UID: not stale.
        if ctx.sim.claim(&cr.namespace, &cr.name).is_some_and(|c| c.uid == uid.value) {
            continue;
        }
        let claim = ctx.index.pvc(&cr.namespace, &cr.name);
        let mut msg = format!(
            "PersistentVolume {} keeps claimRef.uid {} from another cluster; claim {claim_key} will get a new UID here, so it never matches: ",
            pv.name, uid.value
        );
        match claim {
            Some(c) if c.bind_completed.is_some() => {
                let _ = write!(
                    msg,
                    "the claim carries {} and goes Lost (Warning ClaimMisbound \"Two claims are bound to the same volume, this one is bound incorrectly\")",
                    kube::ANN_BIND_COMPLETED
                );
            }
            Some(c) if c.volume_name.as_ref().is_some_and(|v| v.value == pv.name) => {
                let _ = write!(
                    msg,
                    "the claim stays Pending (Warning FailedBinding \"volume \\\"{}\\\" already bound to a different claim.\")",
                    pv.name
                );
            }
            Some(_) => msg.push_str("the claim skips this volume (pre-bound to a different claim) and binds elsewhere or stays Pending"),
            None => msg.push_str("no claim in the input can bind it"),
        }
        let _ = write!(
            msg,
            "; the PV controller treats the claim as deleted: the PV goes Released and {}",
            consequence(pv)
        );
        let keep_claim_ref = claim.is_none_or(|c| c.bind_completed.is_none());
        let (fix, snippet) = if keep_claim_ref {
            (
                "remove uid and resourceVersion from spec.claimRef (name and namespace still reserve the volume for the claim)",
                format!("claimRef:\n  kind: PersistentVolumeClaim\n  namespace: {}\n  name: {}", cr.namespace, cr.name),
            )
        } else {
            (
                "remove spec.claimRef entirely and keep the claim's spec.volumeName: a bound claim re-binds to a volume without claimRef, but a claimRef without uid still makes it Lost",
                format!("# delete the whole spec.claimRef block of PersistentVolume {}", pv.name),
            )
        };
        let f = sink.report(ctx, pv.obj, &uid.field, msg);
        f.root_cause(format!("stale-uid:{}", pv.name)).help(if pv.reclaim_policy() == ReclaimPolicy::Delete {
            "a volume migrated from another cluster should also use persistentVolumeReclaimPolicy: Retain"
        } else {
            "copying PVs between clusters: strip uid, resourceVersion, creationTimestamp and status before applying"
        })
        .suggest(fix, Some(snippet));
        if let Some(c) = claim {
            if let Some(b) = &c.bind_completed {
                f.related(ctx, c.obj, b, "the claim is marked bound, so a UID mismatch makes it Lost");
            }
        }
    }
}

/// What Released + the reclaim policy does to the backing storage.
pub(crate) fn consequence(pv: &Pv) -> String {
    match pv.reclaim_policy() {
        ReclaimPolicy::Delete => format!(
            "its reclaimPolicy Delete deletes {} — data another cluster may still use is lost",
            pv.backing_storage()
        ),
        ReclaimPolicy::Retain => {
            "(reclaimPolicy Retain) stays Released, never binding again until an admin removes spec.claimRef".into()
        }
        ReclaimPolicy::Recycle => format!("its reclaimPolicy Recycle wipes {} (rm -rf)", pv.backing_storage()),
    }
}
