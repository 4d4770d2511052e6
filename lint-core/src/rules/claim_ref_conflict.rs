use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "claim-ref-conflict",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A volume and a claim point at each other inconsistently, or two point at the same one",
    docs: Docs {
        what: "Cross-checks `PersistentVolume.spec.claimRef` against `PersistentVolumeClaim.spec.volumeName`: \
               a volume reserved for a claim that names another volume; a claim that names a volume reserved \
               for another claim; two claims naming the same volume; two volumes reserving the same claim; a \
               claim marked `bind-completed` whose volume's claimRef has no uid.",
        why: "A volume binds exactly one claim. The PV controller resolves these conflicts without asking: a \
              pre-bound claim whose volume belongs to another claim stays `Pending` (Warning `FailedBinding` \
              \"volume \\\"X\\\" already bound to a different claim.\"); a claim marked `bind-completed` goes `Lost` \
              (Warning `ClaimMisbound`) — also when the claimRef has no uid, since the controller compares UIDs; \
              a volume reserved for a claim that binds elsewhere stays `Available` but unusable by anyone else.",
        example: include_str!("../../tests/fixtures/claim-ref-conflict/bad.yaml"),
        fix: "Make each pair agree: the volume's `claimRef` names the claim and the claim's `volumeName` names \
              the volume, one to one. For a claim carrying `bind-completed`, remove the volume's `claimRef` \
              (or the claim's controller annotations).",
        fixed: include_str!("../../tests/fixtures/claim-ref-conflict/good.yaml"),
        known_problems: "Two claims naming one volume race: which one binds depends on the order the controller sees them, so \
                         the finding names both and does not guess.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a volume's claimRef (without uid) reserves a claim that names another volume, a claim \
                       names a volume reserved for another claim, or two claims name one volume",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "two volumes' claimRefs reserve the same claim",
                example: "bad-two-volumes-one-claim.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "a claim marked `bind-completed` names a volume whose claimRef names it without a uid",
                example: "bad-bound-claim-empty-uid.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let w = ctx.sim;
    let claim_cons = |obj| ctx.claim_of(obj).map(|c| ctx.claim_consequence(c));
    // A volume reserved for a claim that names another volume.
    for pv in ix.accepted_pvs().filter(|p| ix.is_current_pv(p)) {
        let Some(cr) = &pv.claim_ref else { continue };
        let Some(c) = ix
            .pvc(&cr.namespace, &cr.name)
            .filter(|c| !ix.is_rejected(c.obj))
        else {
            continue;
        };
        match &c.volume_name {
            // With a uid the volume is Released instead (stale-claim-ref-uid reports it).
            Some(v) if v.value != pv.name && cr.uid.is_none() => {
                let f = sink.report(
                    ctx,
                    pv.obj,
                    &cr.field,
                    format!("PersistentVolume {} is reserved for claim {}/{}, which names another volume", pv.name, c.namespace, c.name),
                );
                if let Some(v) = ctx.volume_of(pv.obj) {
                    let mut cons = ctx.volume_consequence(v);
                    cons.summary
                        .push_str("; no other claim can bind it while its claimRef reserves it");
                    f.consequence(cons);
                }
                f.help("make spec.claimRef and the claim's spec.volumeName name each other")
                    .related(
                        ctx,
                        c.obj,
                        &v.field,
                        format!("the claim names volume \"{}\" here", v.value),
                    );
            }
            Some(_) if cr.uid.is_none() && c.bind_completed.is_some() => {
                let b = c.bind_completed.clone().expect("checked");
                let f = sink.report(
                    ctx,
                    c.obj,
                    &b,
                    format!(
                        "claim {}/{} is marked bound, but volume {}'s claimRef has no uid",
                        c.namespace, c.name, pv.name
                    ),
                );
                if let Some(cons) = claim_cons(c.obj) {
                    f.consequence(cons);
                }
                f.root_cause(CauseKey::Conflict { volume: Str::from(&pv.name) })
                    .help("a bound claim re-binds to a volume that has no claimRef at all")
                    .suggest(
                        format!("remove spec.claimRef from PersistentVolume {} (keep the claim's volumeName), or remove the claim's {} annotation", pv.name, kube::ANN_BIND_COMPLETED),
                        None::<Str>,
                    )
                    .related(ctx, pv.obj, &cr.field, "the volume's claimRef has no uid");
            }
            _ => {}
        }
    }
    // A claim naming a volume reserved for another claim.
    for c in ix.accepted_pvcs() {
        let Some(v) = &c.volume_name else { continue };
        let Some(pv) = ix.pv(&v.value).filter(|p| !ix.is_rejected(p.obj)) else {
            continue;
        };
        let Some(cr) = &pv.claim_ref else { continue };
        if cr.namespace == c.namespace && cr.name == c.name {
            continue;
        }
        let f = sink.report(
            ctx,
            c.obj,
            &v.field,
            format!(
                "claim {}/{} names volume {}, which is reserved for {}/{}",
                c.namespace, c.name, pv.name, cr.namespace, cr.name
            ),
        );
        if let Some(cons) = claim_cons(c.obj) {
            f.consequence(cons);
        }
        f.root_cause(CauseKey::Conflict { volume: Str::from(&pv.name) })
            .help("a volume binds one claim: point this claim at another volume, or fix the volume's claimRef")
            .related(ctx, pv.obj, &cr.field, format!("reserved for {}/{} here", cr.namespace, cr.name));
    }
    // Two claims naming the same volume.
    let mut by_volume: std::collections::BTreeMap<&str, Vec<&Pvc>> = Default::default();
    for c in ix.accepted_pvcs() {
        if let Some(v) = &c.volume_name {
            by_volume.entry(v.value.as_str()).or_default().push(c);
        }
    }
    for (vol, claims) in by_volume.into_iter().filter(|(_, cs)| cs.len() > 1) {
        let first = claims[0];
        for c in &claims[1..] {
            let v = c.volume_name.as_ref().expect("grouped by volumeName");
            let f = sink.report(
                ctx,
                c.obj,
                &v.field,
                format!(
                    "claims {}/{} and {}/{} both name volume {vol}",
                    first.namespace, first.name, c.namespace, c.name
                ),
            );
            // Whichever the controller syncs first binds it; the simulation shows one order.
            let loser = [c, &first]
                .into_iter()
                .filter_map(|x| ctx.claim_of(x.obj))
                .find(|&id| w.claim(id).phase() != ClaimPhase::Bound);
            if let Some(id) = loser {
                let mut cons = ctx.claim_consequence(id);
                cons.summary.push_str(" (which of the two claims binds depends on the order the controller sees them)");
                f.consequence(cons);
            }
            f.root_cause(CauseKey::Conflict {
                volume: Str::from(vol),
            })
            .help("give each claim its own volume")
            .related(
                ctx,
                first.obj,
                &first.volume_name.as_ref().expect("grouped").field,
                "the other claim naming it",
            );
        }
    }
    // Two volumes reserving the same claim.
    let mut by_claim: std::collections::BTreeMap<(&str, &str), Vec<&Pv>> = Default::default();
    for pv in ix.accepted_pvs().filter(|p| ix.is_current_pv(p)) {
        if let Some(cr) = &pv.claim_ref {
            by_claim
                .entry((cr.namespace.as_str(), cr.name.as_str()))
                .or_default()
                .push(pv);
        }
    }
    for ((ns, name), pvs) in by_claim.into_iter().filter(|(_, v)| v.len() > 1) {
        let first = pvs[0];
        for pv in &pvs[1..] {
            let cr = pv.claim_ref.as_ref().expect("grouped by claimRef");
            let f = sink.report(
                ctx,
                pv.obj,
                &cr.field,
                format!(
                    "volumes {} and {} both reserve claim {ns}/{name}",
                    first.name, pv.name
                ),
            );
            let idle = [pv, &first]
                .into_iter()
                .filter_map(|p| ctx.volume_of(p.obj))
                .find(|&v| w.volume(v).phase != VolumePhase::Bound);
            if let Some(v) = idle {
                let mut cons = ctx.volume_consequence(v);
                cons.summary
                    .push_str("; reserved for a claim bound elsewhere, no other claim can use it");
                f.consequence(cons);
            }
            f.help("reserve each claim with one volume").related(
                ctx,
                first.obj,
                &first.claim_ref.as_ref().expect("grouped").field,
                "the other volume reserving it",
            );
        }
    }
}
