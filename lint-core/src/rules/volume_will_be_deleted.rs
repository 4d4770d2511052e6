use super::prelude::*;
use crate::sim::{Cause, Storage};

pub const RULE: Rule = Rule {
    id: "volume-will-be-deleted",
    family: Family::Reclaim,
    severity: Severity::Error,
    summary: "The simulation ends with a volume's backing storage deleted",
    docs: Docs {
        what: "Simulates the PV controller over the input applied onto the cluster state and reports every \
               PersistentVolume of the input whose reclaim policy deletes its backing storage: a Delete volume \
               Released because its claim is gone or has another UID, or a provisioned volume whose claim \
               moved to another volume. When a more specific rule reports the cause (stale-claim-ref-uid, \
               claim-ref-conflict), only that finding is shown.",
        why: "Deleting storage cannot be undone. A volume applied from an export with a stale claimRef is \
              Released as soon as the controller sees it, and with `reclaimPolicy: Delete` its disk, share or \
              bucket is deleted — also when another cluster still uses it.",
        example: include_str!("../../tests/fixtures/volume-will-be-deleted/bad.yaml"),
        fix: "Remove the stale `claimRef` (or its uid) before applying, and apply imported volumes with \
              `persistentVolumeReclaimPolicy: Retain`.",
        fixed: include_str!("../../tests/fixtures/volume-will-be-deleted/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for p in &ctx.sim.pvs {
        if !p.storage.is_deleted() {
            continue;
        }
        let Some(obj) = p.origin.object() else { continue };
        let Some(view) = ctx.index.pv(&p.name).filter(|v| v.obj == obj) else { continue };
        let (cause, why) = match &p.cause {
            Some(Cause::StaleClaimRefUid { .. }) => (
                format!("stale-uid:{}", p.name),
                "its claimRef.uid names a claim that exists here with another UID, so the controller treats the claim as deleted".to_string(),
            ),
            Some(Cause::ClaimDeleted) => (
                format!("stale-uid:{}", p.name),
                format!(
                    "its claim {} does not exist{}, so the controller treats it as deleted",
                    p.claim_ref.as_ref().map(|(ns, n, _)| format!("{ns}/{n}")).unwrap_or_default(),
                    if ctx.cluster_known { " in the cluster" } else { " in the input" }
                ),
            ),
            Some(Cause::ClaimBoundElsewhere { volume }) => (
                format!("conflict:{}", p.name),
                format!("its claim is bound to another volume ({volume}) and it was dynamically provisioned"),
            ),
            _ => (format!("deleted:{}", p.name), "its claim went away".to_string()),
        };
        let by = match &p.storage {
            Storage::LeftToProvisioner { provisioner } => format!("the external provisioner {provisioner} deletes"),
            _ => "kube-controller-manager deletes".to_string(),
        };
        let field = view.reclaim.as_ref().map(|r| r.field.clone()).unwrap_or_else(|| ctx.obj(obj).whole());
        sink.report(
            ctx,
            obj,
            &field,
            format!("PersistentVolume {} will be Released and, with reclaimPolicy Delete, {by} {}: {why}", p.name, p.backing),
        )
        .consequence_of(cause)
        .help("use persistentVolumeReclaimPolicy: Retain for volumes whose storage this cluster does not own")
        .suggest("keep the storage", Some("persistentVolumeReclaimPolicy: Retain".into()));
    }
}
