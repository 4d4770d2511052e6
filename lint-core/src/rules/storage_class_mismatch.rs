use super::prelude::*;
use crate::facts::{Mismatch, PreBound};

pub const RULE: Rule = Rule {
    id: "storage-class-mismatch",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A pre-bound claim and volume have different storage classes (including unset vs \"\")",
    docs: Docs {
        what: "For a claim that names its volume (`spec.volumeName`) or a volume reserved for a claim \
               (`spec.claimRef`), compares their storage classes as the PV controller does: the beta annotation \
               `volume.beta.kubernetes.io/storage-class` first, then `spec.storageClassName`. A claim with no \
               `storageClassName` at all gets the default class at admission — the classic trap when the volume \
               has no class.",
        why: "For a claim that names a volume without claimRef, the controller refuses the bind: the claim stays \
              `Pending` with Warning `VolumeMismatch` `Cannot bind to requested volume \"<pv>\": storageClassName \
              does not match`. A volume reserved by claimRef binds regardless of class, but the claim then reports \
              a class its volume does not have.",
        example: include_str!("../../tests/fixtures/storage-class-mismatch/bad.yaml"),
        fix: "Give the claim the volume's class. For a volume without a class, write `storageClassName: \"\"` on the \
              claim — leaving it out is not the same: admission fills in the default class.",
        fixed: include_str!("../../tests/fixtures/storage-class-mismatch/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    for (kind, pv, pvc) in facts::prebound_pairs(ix) {
        let all = facts::check_volume_satisfy_claim(ix, pv, pvc);
        let Some(m @ Mismatch::Class { certain, .. }) = all.iter().find(|m| matches!(m, Mismatch::Class { .. })) else {
            continue;
        };
        let first_is_class = matches!(all.first(), Some(Mismatch::Class { .. }));
        let claim_desc = format!("claim {}/{}", pvc.namespace, pvc.name);
        let snippet = format!("storageClassName: \"{}\"", pv.class);
        let (field, obj) = match pvc.class.field() {
            Some(f) => (f.clone(), pvc.obj),
            None => match &pvc.volume_name {
                Some(v) if kind != PreBound::ClaimRef => (v.field.clone(), pvc.obj),
                _ => (
                    pv.claim_ref.as_ref().map(|c| c.field.clone()).unwrap_or_else(|| ctx.obj(pv.obj).whole()),
                    pv.obj,
                ),
            },
        };
        let hedge = if *certain {
            ""
        } else {
            " if the cluster has a default StorageClass (almost every cluster does; none is in the input)"
        };
        let (msg, sev) = match kind {
            PreBound::VolumeName if first_is_class => (
                format!(
                    "{claim_desc} names volume {}, but {}: the claim stays Pending{hedge} (Warning VolumeMismatch \"Cannot bind to requested volume \\\"{}\\\": storageClassName does not match\")",
                    pv.name,
                    m.detail(),
                    pv.name
                ),
                if *certain { Severity::Error } else { Severity::Warning },
            ),
            PreBound::VolumeName => (
                format!(
                    "{claim_desc} names volume {} and {}: once the earlier mismatch is fixed the claim still stays Pending{hedge} (Warning VolumeMismatch \"Cannot bind to requested volume \\\"{}\\\": storageClassName does not match\")",
                    pv.name,
                    m.detail(),
                    pv.name
                ),
                if *certain { Severity::Error } else { Severity::Warning },
            ),
            PreBound::ClaimRef | PreBound::Both => (
                format!(
                    "{claim_desc} and volume {} are pre-bound but {}{hedge}: the controller binds a volume reserved for the claim without comparing classes, so it binds, but the claim then reports a class its volume does not have",
                    pv.name,
                    m.detail()
                ),
                Severity::Warning,
            ),
        };
        let f = sink.report(ctx, obj, &field, msg);
        f.severity(sev)
            .root_cause(format!("prebound:{}", facts::claim_key(pvc)))
            .help(if pv.class.is_empty() {
                "a claim meant for a volume without class needs storageClassName: \"\" — leaving it out gets the default class"
            } else {
                "give the claim the same storageClassName as its volume"
            })
            .suggest(format!("set the claim's storageClassName to the volume's class \"{}\"", pv.class), Some(snippet));
        if let Some(pf) = &pv.class_field {
            f.related(ctx, pv.obj, pf, format!("the volume's class is \"{}\"", pv.class));
        }
    }
}
