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
                         cluster: pvlint then leaves the verdict to `dangling-volume-name`.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the simulation of the input applied onto the cluster state ends with a claim Lost, and no \
                       more specific rule reports the cause",
                example: "bad.yaml",
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
        let f = sink
            .report(
                ctx,
                view.obj,
                &field,
                format!("claim {} will be Lost", c.key),
            )
            .consequence(ctx.claim_consequence(id))
            .consequence_of(key);
        // The manifests carry the copied binding state: edit them. Or they do not (a migrated
        // export applied over the broken one): the cluster's objects keep what this apply does
        // not remove (kubectl apply removes only fields its last apply wrote), and the fix is
        // to the live objects, as on a live cluster.
        let stale_in_manifests = view.bind_completed.is_some()
            || c.volume_name.as_deref().is_some_and(|v| {
                ctx.index.pvs.iter().any(|pv| {
                    pv.name == v && pv.claim_ref.as_ref().is_some_and(|r| r.uid.is_some())
                })
            });
        if stale_in_manifests || !c.existed {
            f.help("remove the copied binding state: spec.claimRef.uid from the volume and pv.kubernetes.io/bind-completed from the claim (`pvlint migrate` does both)");
        } else {
            let help = lost.help(w, c);
            f.help(format!(
                "the manifests no longer carry the copied binding state, but the cluster's objects keep it (kubectl apply removes only fields its last apply wrote): {}",
                help.text
            ));
            if let Some((what, how)) = help.fix {
                f.suggest(what, Some(how));
            }
        }
    }
}
