use super::prelude::*;
use crate::sim::Reason;

pub const RULE: Rule = Rule {
    id: "claim-lost",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "Live cluster: a claim is Lost (ClaimLost or ClaimMisbound), and what brings it back",
    docs: Docs {
        what: "Runs on a live cluster's objects (`pvlint cluster`). Reports every claim that is `Lost`, or that \
               the PV controller's `syncBoundClaim` turns `Lost` on its next sync, and why, from the objects: \
               the claim has no `spec.volumeName`, its volume does not exist, or the volume's `spec.claimRef` \
               names another claim, or this claim's name with another UID (a claim recreated, or a PV copied \
               from another cluster, as in seed 000). Which event the controller recorded is not in the \
               objects: it emits one on the change to `Lost` only — `ClaimLost` when the claim was synced \
               before its volume existed (a claim created first in one apply, as recorded on a real v1.34.9 \
               control plane), `ClaimMisbound` when the volume was there — so a claim already `Lost` is \
               reported without an event, and one about to go `Lost` with the event it gets.",
        why: "`Lost` is terminal: pods using the claim cannot start and the controller never repairs it by \
              itself. Meanwhile the volume whose claimRef carries another UID is `Released`, and its reclaim \
              policy runs: with `Delete` its storage is deleted.",
        example: include_str!("../../tests/fixtures/claim-lost/bad.yaml"),
        fix: "ClaimMisbound with the claim's own name in the volume's claimRef: remove `spec.claimRef` from the \
              PersistentVolume (`kubectl patch pv NAME --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}]'`): \
              `syncBoundClaim` finds the volume unbound and binds it to the claim again. ClaimLost with a \
              missing volume: re-create the PersistentVolume for the same storage with a claimRef carrying \
              the claim's UID. Check the reclaim policy first: a `Delete` volume may already be gone.",
        fixed: include_str!("../../tests/fixtures/claim-lost/good.yaml"),
        known_problems: "pvlint reads the objects, not the events: a claim reported Lost whose volume was repaired \
                         since the scan shows Bound on the controller's next sync, and the event a Lost claim got \
                         is not shown.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim of the live cluster is Lost, or goes Lost on the controller's next sync, because \
                       its volume's claimRef carries another UID or names another claim",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "a claim of the live cluster is Lost, or goes Lost, because the volume it names does not \
                       exist",
                example: "bad-volume-missing.yaml",
            },
        ],
    },
    scope: Scope::Cluster,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(live) = ctx.live else {
        return;
    };
    let w = ctx.sim;
    for pvc in &ctx.index.pvcs {
        let Some(id) = ctx.claim_of(pvc.obj) else {
            continue;
        };
        let c = w.claim(id);
        let ClaimState::Lost(lost) = &c.state else {
            continue;
        };
        let live_phase = pvc.meta.phase.as_ref().map(|p| p.value.as_str());
        let obj = ctx.obj(pvc.obj);
        let field = pvc
            .meta
            .phase
            .as_ref()
            .map(|p| p.field.clone())
            .or_else(|| pvc.volume_name.as_ref().map(|v| v.field.clone()))
            .unwrap_or_else(|| obj.whole());
        // Already Lost: the controller emitted its event when the phase changed (ClaimLost if
        // the claim was synced before its volume existed, ClaimMisbound if after) and emits
        // none since; which one the cluster recorded is in its events, not in the objects.
        let already = live_phase == Some("Lost");
        let headline = if already {
            let why = lost.short(w, c);
            format!("claim {} is Lost: {why}", c.key)
        } else {
            let reason = w.lost_event_of(id).map(|e| e.reason);
            format!(
                "claim {} goes Lost ({})",
                c.key,
                reason.unwrap_or(Reason::ClaimLost)
            )
        };
        let f = sink.report(ctx, pvc.obj, &field, headline);
        let mut cons = ctx.claim_consequence(id);
        if already {
            cons.event = None;
        }
        f.consequence(cons)
            .recorded(live, "PersistentVolumeClaim", &c.key.namespace, &c.key.name);
        let help = lost.help(w, c);
        f.help(help.text);
        if let Some((what, how)) = help.fix {
            f.suggest(what, Some(how));
        }
    }
}
