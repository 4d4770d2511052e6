use super::prelude::*;
use crate::facts::claim_view;
use crate::sim::Cause;

pub const RULE: Rule = Rule {
    id: "claim-will-be-lost",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "The simulation ends with a claim Lost (ClaimLost or ClaimMisbound)",
    docs: Docs {
        what: "Simulates the PV controller over the input applied onto the cluster state and reports every claim \
               it leaves `Lost`, with the cause. When a more specific rule already reports that cause \
               (stale-claim-ref-uid, bind-completed-without-volume, dangling-volume-name, claim-ref-conflict), \
               only that finding is shown.",
        why: "`Lost` is how the controller marks a claim whose volume binding is broken: pods using it cannot \
              start, and the claim does not recover by itself. Data on the volume is at risk: the volume itself \
              may be Released and reclaimed.",
        example: include_str!("../../tests/fixtures/claim-will-be-lost/bad.yaml"),
        fix: "Fix the cause the message names: usually remove copied identity (claimRef, bind-completed) from \
              the manifests, or apply the volume the claim names.",
        fixed: include_str!("../../tests/fixtures/claim-will-be-lost/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for c in &ctx.sim.claims {
        if c.phase != ClaimPhase::Lost {
            continue;
        }
        let Some(view) = claim_view(ctx.index, &c.origin) else { continue };
        let key = facts::claim_key(view);
        let cause = match &c.cause {
            Some(Cause::StaleClaimRefUid { volume }) => format!("stale-uid:{volume}"),
            Some(Cause::NoVolumeName) => format!("no-volume-name:{key}"),
            Some(Cause::VolumeMissing { .. }) if !ctx.cluster_known => continue,
            Some(Cause::VolumeMissing { .. }) => format!("dangling:{key}"),
            Some(Cause::ClaimRefMismatch { volume }) => format!("conflict:{volume}"),
            _ => format!("lost:{key}"),
        };
        let event = c
            .events
            .last()
            .map(|e| format!(" (Warning {} {:?})", e.reason, e.message))
            .unwrap_or_default();
        let why = c.reasons.last().cloned().unwrap_or_default();
        let field = view
            .bind_completed
            .clone()
            .or_else(|| view.volume_name.as_ref().map(|v| v.field.clone()))
            .unwrap_or_else(|| ctx.obj(view.obj).whole());
        sink.report(ctx, view.obj, &field, format!("claim {}/{} will be Lost{event}: {why}", c.namespace, c.name))
            .consequence_of(cause)
            .help("remove copied binding state (claimRef, pv.kubernetes.io/bind-completed) from the manifests");
    }
}
