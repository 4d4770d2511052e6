use super::prelude::*;
use std::collections::HashMap;

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
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    // A volume reserved for a claim that names another volume.
    for pv in &ix.pvs {
        let Some(cr) = &pv.claim_ref else { continue };
        let Some(c) = ix.pvc(&cr.namespace, &cr.name) else { continue };
        match &c.volume_name {
            // With a uid the volume is Released instead (stale-claim-ref-uid reports it).
            Some(v) if v.value != pv.name && cr.uid.is_none() => {
                sink.report(
                    ctx,
                    pv.obj,
                    &cr.field,
                    format!(
                        "PersistentVolume {} is reserved by claimRef for claim {}/{}, but that claim names volume \"{}\": the claim binds \"{}\" (or stays Pending), and {} stays Available yet reserved, so no other claim can use it",
                        pv.name, c.namespace, c.name, v.value, v.value, pv.name
                    ),
                )
                .help("make spec.claimRef and the claim's spec.volumeName name each other")
                .related(ctx, c.obj, &v.field, format!("the claim names volume \"{}\" here", v.value));
            }
            Some(_) if cr.uid.is_none() && c.bind_completed.is_some() => {
                let b = c.bind_completed.clone().expect("checked");
                sink.report(
                    ctx,
                    c.obj,
                    &b,
                    format!(
                        "claim {}/{} carries {} and its volume {} has a claimRef without uid: for a bound claim the PV controller compares UIDs, so the claim goes Lost (Warning ClaimMisbound \"Two claims are bound to the same volume, this one is bound incorrectly\")",
                        c.namespace, c.name, kube::ANN_BIND_COMPLETED, pv.name
                    ),
                )
                .root_cause(format!("conflict:{}", pv.name))
                .help("a bound claim re-binds to a volume that has no claimRef at all")
                .suggest(
                    format!("remove spec.claimRef from PersistentVolume {} (keep the claim's volumeName), or remove the claim's {} annotation", pv.name, kube::ANN_BIND_COMPLETED),
                    None,
                )
                .related(ctx, pv.obj, &cr.field, "the volume's claimRef has no uid");
            }
            _ => {}
        }
    }
    // A claim naming a volume reserved for another claim.
    for c in &ix.pvcs {
        let Some(v) = &c.volume_name else { continue };
        let Some(pv) = ix.pv(&v.value) else { continue };
        let Some(cr) = &pv.claim_ref else { continue };
        if cr.namespace == c.namespace && cr.name == c.name {
            continue;
        }
        let outcome = if c.bind_completed.is_some() {
            "the claim carries bind-completed and goes Lost (Warning ClaimMisbound \"Two claims are bound to the same volume, this one is bound incorrectly\")".to_string()
        } else {
            format!(
                "the claim stays Pending (Warning FailedBinding \"volume \\\"{}\\\" already bound to a different claim.\")",
                pv.name
            )
        };
        sink.report(
            ctx,
            c.obj,
            &v.field,
            format!(
                "claim {}/{} names volume {} whose claimRef reserves it for {}/{}: {outcome}",
                c.namespace, c.name, pv.name, cr.namespace, cr.name
            ),
        )
        .root_cause(format!("conflict:{}", pv.name))
        .help("a volume binds one claim: point this claim at another volume, or fix the volume's claimRef")
        .related(ctx, pv.obj, &cr.field, format!("reserved for {}/{} here", cr.namespace, cr.name));
    }
    // Two claims naming the same volume.
    let mut by_volume: HashMap<&str, Vec<&Pvc>> = HashMap::new();
    for c in &ix.pvcs {
        if let Some(v) = &c.volume_name {
            by_volume.entry(v.value.as_str()).or_default().push(c);
        }
    }
    let mut shared: Vec<_> = by_volume.into_iter().filter(|(_, cs)| cs.len() > 1).collect();
    shared.sort_by_key(|(v, _)| *v);
    for (vol, claims) in shared {
        let first = claims[0];
        for c in &claims[1..] {
            let v = c.volume_name.as_ref().expect("grouped by volumeName");
            sink.report(
                ctx,
                c.obj,
                &v.field,
                format!(
                    "claims {}/{} and {}/{} both name volume \"{vol}\": a volume binds one claim, so whichever syncs second stays Pending (Warning FailedBinding \"volume \\\"{vol}\\\" already bound to a different claim.\") — or goes Lost if it carries bind-completed",
                    first.namespace, first.name, c.namespace, c.name
                ),
            )
            .root_cause(format!("conflict:{vol}"))
            .help("give each claim its own volume")
            .related(ctx, first.obj, &first.volume_name.as_ref().expect("grouped").field, "the other claim naming it");
        }
    }
    // Two volumes reserving the same claim.
    let mut by_claim: HashMap<(&str, &str), Vec<&Pv>> = HashMap::new();
    for pv in &ix.pvs {
        if let Some(cr) = &pv.claim_ref {
            by_claim.entry((cr.namespace.as_str(), cr.name.as_str())).or_default().push(pv);
        }
    }
    let mut dup: Vec<_> = by_claim.into_iter().filter(|(_, v)| v.len() > 1).collect();
    dup.sort_by_key(|(k, _)| *k);
    for ((ns, name), pvs) in dup {
        let first = pvs[0];
        for pv in &pvs[1..] {
            let cr = pv.claim_ref.as_ref().expect("grouped by claimRef");
            sink.report(
                ctx,
                pv.obj,
                &cr.field,
                format!(
                    "volumes {} and {} both reserve claim {ns}/{name} by claimRef: the claim binds at most one, and the other stays Available yet reserved, so no other claim can use it",
                    first.name, pv.name
                ),
            )
            .help("reserve each claim with one volume")
            .related(ctx, first.obj, &first.claim_ref.as_ref().expect("grouped").field, "the other volume reserving it");
        }
    }
}
