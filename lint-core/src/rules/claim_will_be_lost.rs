use super::prelude::*;

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
        known_problems: "Where the claim's volume is not in the input and no cluster state is given, the volume may exist in the \
                         cluster: pvlint then leaves the verdict to `dangling-volume-name`, at info level.",
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    for (id, c) in w.claims() {
        let ClaimState::Lost(lost) = &c.state else {
            continue;
        };
        if matches!(lost, Lost::VolumeMissing { .. }) && !ctx.cluster_known() {
            continue;
        }
        let Some(view) = ctx.view_of(id) else {
            continue;
        };
        let Some(key) = w.cause_of_claim(id) else {
            continue;
        };
        let field = view
            .bind_completed
            .clone()
            .or_else(|| view.volume_name.as_ref().map(|v| v.field.clone()))
            .unwrap_or_else(|| ctx.obj(view.obj).whole());
        sink.report(ctx, view.obj, &field, format!("claim {} will be Lost", c.key))
            .consequence(ctx.claim_consequence(id))
            .consequence_of(key)
            .help("remove copied binding state (claimRef, pv.kubernetes.io/bind-completed) from the manifests");
    }
}
