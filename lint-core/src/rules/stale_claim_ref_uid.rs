use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "stale-claim-ref-uid",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A PersistentVolume keeps claimRef.uid (or resourceVersion) from the cluster it was exported from",
    docs: Docs {
        what: "Finds PersistentVolume manifests whose `spec.claimRef` carries a `uid` (or a `resourceVersion`): \
               identity that only means something in the cluster the object was exported from.",
        why: "Every object created from a manifest gets a new UID, so a copied `claimRef.uid` never matches the \
              re-created claim. A claim that carries `pv.kubernetes.io/bind-completed` goes `Lost`: with Warning \
              `ClaimLost` when it is created before the volume (the claim first in one apply, as recorded on a \
              real v1.34.9 control plane), with `ClaimMisbound` (\"Two claims are bound to the same volume, this \
              one is bound incorrectly\") when the volume exists first; \
              one that only names the volume stays `Pending` (Warning `FailedBinding`). The PV controller treats \
              the claim as deleted: the PV goes `Released` and its reclaim policy runs — with `Delete`, the backing \
              volume is deleted, even when another cluster still uses it.",
        example: include_str!("../../tests/fixtures/stale-claim-ref-uid/bad.yaml"),
        fix: "Remove `uid` and `resourceVersion` from `spec.claimRef`, keep its `name` and `namespace`, and \
              remove `pv.kubernetes.io/bind-completed` and `pv.kubernetes.io/bound-by-controller` from the \
              claim, which keeps its `spec.volumeName`: what `pvlint migrate` writes. The claim then goes \
              through `syncUnboundClaim`, which binds it to the volume it names since that volume's claimRef \
              names it without a UID (`isVolumeBoundToClaim`), and until then the claimRef reserves the volume \
              for it (binder_test \"2-4\"). Both edits are needed: a claim still marked bound goes through \
              `syncBoundClaim`, which re-binds only a volume with no claimRef at all, and a claimRef without \
              uid makes it `Lost` (`ClaimMisbound`); dropping the claimRef instead would leave the volume free \
              for any claim that comes first. On a live cluster where the claim is already Lost, the fix is to \
              the live volume: `kubectl patch pv NAME --type json -p \
              '[{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}]'` (`claim-lost`). Consider \
              `persistentVolumeReclaimPolicy: Retain` for migrated volumes.",
        fixed: include_str!("../../tests/fixtures/stale-claim-ref-uid/good.yaml"),
        known_problems: "Re-applying an export to the very cluster it came from is harmless (the claim there has that UID); \
                         without `--cluster-state` pvlint cannot tell that cluster from another and reports it.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a volume's claimRef carries a uid that no claim of the input or the cluster state has, \
                       and the claim it names is marked bound",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the same, for a claim that is not marked bound",
                example: "bad-pending.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the claimRef carries a resourceVersion and no uid (the controller ignores it)",
                example: "bad-resource-version.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    for pv in &ctx.index.pvs {
        if ctx.index.is_rejected(pv.obj) || !ctx.index.is_current_pv(pv) {
            continue;
        }
        let Some(cr) = &pv.claim_ref else { continue };
        let claim = w.claim_named(&cr.namespace, &cr.name);
        let Some(uid) = &cr.uid else {
            if let Some(rv) = &cr.resource_version {
                sink.report(ctx, pv.obj, &rv.field, format!("PersistentVolume {} keeps claimRef.resourceVersion", pv.name))
                    .severity(Severity::Warning)
                    .help("the PV controller ignores it, but it is server state of the cluster it was exported from: remove spec.claimRef.resourceVersion");
            }
            continue;
        };
        // Re-applied into the cluster where that claim lives with this very UID: not stale.
        if claim.is_some_and(|c| w.claim(c).uid == uid.value) {
            continue;
        }
        // The cluster's own volume whose claim was deleted (Released): this cluster's UID.
        if ctx.is_live_self(pv) {
            continue;
        }
        let f = sink.report(
            ctx,
            pv.obj,
            &uid.field,
            format!(
                "PersistentVolume {} keeps claimRef.uid from another cluster",
                pv.name
            ),
        );
        if let Some(vid) = ctx.volume_of(pv.obj) {
            let mut cons = ctx.volume_consequence(vid);
            if let Some(c) = claim {
                let cc = ctx.claim_consequence(c);
                cons.summary = Str::from(format!("{}; {}", cc.summary, cons.summary));
                if cons.storage.is_none() {
                    cons = cc;
                }
            }
            f.consequence(cons);
        }
        // One fix, the one `pvlint migrate` writes: the claimRef without uid (its name and
        // namespace reserve the volume), and the claim without the controller's annotations.
        let bound_claim = claim.is_some_and(|c| w.claim(c).bind_completed);
        let fix = if bound_claim {
            "remove uid and resourceVersion from spec.claimRef, and pv.kubernetes.io/bind-completed and bound-by-controller from the claim: the claim then binds to the volume it names, which its claimRef keeps reserved (pvlint migrate writes this)"
        } else {
            "remove uid and resourceVersion from spec.claimRef: the claim binds to the volume, which its claimRef's name and namespace keep reserved (pvlint migrate writes this)"
        };
        let snippet = format!(
            "claimRef:\n  kind: PersistentVolumeClaim\n  namespace: {}\n  name: {}",
            cr.namespace, cr.name
        );
        f.root_cause(CauseKey::StaleUid { volume: Str::from(&pv.name) })
            .help(if pv.reclaim_policy() == ReclaimPolicy::Delete {
                "a volume migrated from another cluster should also use persistentVolumeReclaimPolicy: Retain (pvlint migrate does both)"
            } else {
                "copying PVs between clusters: strip uid, resourceVersion, creationTimestamp and status before applying (pvlint migrate does it)"
            })
            .suggest(fix.to_string(), Some(snippet));
        if let Some(view) = claim.and_then(|c| ctx.view_of(c)) {
            if let Some(b) = &view.bind_completed {
                f.related(
                    ctx,
                    view.obj,
                    b,
                    "the claim is marked bound, so a UID mismatch makes it Lost: remove this annotation too",
                );
            }
        }
    }
}
