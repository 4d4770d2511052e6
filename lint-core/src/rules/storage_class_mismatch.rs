use super::prelude::*;
use crate::sim;

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
              a class its volume does not have: nothing fails, but a resize goes by the claim's \
              class.",
        example: include_str!("../../tests/fixtures/storage-class-mismatch/bad.yaml"),
        fix: "Give the claim the volume's class. For a volume without a class, write `storageClassName: \"\"` on the \
              claim — leaving it out is not the same: admission fills in the default class.",
        fixed: include_str!("../../tests/fixtures/storage-class-mismatch/good.yaml"),
        known_problems: "When the claim's class is one pvlint only assumes the cluster has (the input does not define it), \
                         the mismatch rests on that assumption, and the finding says so.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim names a volume (whose claimRef does not name it) of another class, and the \
                       claim's class is known: defined in the input, or the default class admission gives a \
                       claim without `storageClassName`",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the same, with a claim class the input does not define (it is assumed to exist, and the \
                       finding says so)",
                example: "bad-named.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the volume's claimRef reserves it for the claim: they bind without comparing classes, and \
                       nothing fails",
                example: "bad-reserved.yaml",
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
        let (vid, mismatches, bound) = match &c.state {
            ClaimState::Pending(Pending::VolumeMismatch { volume, mismatches }) => {
                (*volume, mismatches, false)
            }
            ClaimState::Bound {
                volume,
                how:
                    BindHow::NamedEachOther { unchecked } | BindHow::ReservedByClaimRef { unchecked },
            } => (*volume, unchecked, true),
            _ => continue,
        };
        let Some(m) = mismatches.iter().find(|m| m.check() == Check::Class) else {
            continue;
        };
        let Mismatch::Class {
            volume: pv_class, ..
        } = m
        else {
            continue;
        };
        let Some(view) = ctx.view_of(id) else {
            continue;
        };
        let v = w.volume(vid);
        let first = mismatches[0].check() == Check::Class;
        let assumed = w
            .class(c.class_name())
            .and_then(|k| k.assumption())
            .is_some();
        let field = match view.class.field() {
            Some(f) => f.clone(),
            None => view
                .volume_name
                .as_ref()
                .map(|v| v.field.clone())
                .unwrap_or_else(|| ctx.obj(view.obj).whole()),
        };
        let claim_class = match c.class_source {
            sim::ClassSource::Admission | sim::ClassSource::Retroactive => {
                "no class (so the default class)".to_string()
            }
            // Unset, with a default class in the set that the claim is created before (a
            // StorageClass written after it, in `kubectl apply -f` file order): admission had
            // none to give, and no retroactive default reaches a claim that names its volume
            // (syncUnboundClaim assigns one only when spec.volumeName is empty).
            sim::ClassSource::None
                if c.class_name().is_empty()
                    && matches!(
                        c.origin,
                        sim::Origin::Object {
                            side: sim::Side::Manifest,
                            ..
                        }
                    ) =>
            {
                match w.default_class() {
                    Ok(Some(d)) => format!(
                        "no class (it is created before StorageClass {d}, the default, {})",
                        "which comes after it in file order"
                    ),
                    _ => "no class".to_string(),
                }
            }
            _ if c.class_name().is_empty() => "no class".to_string(),
            _ => format!("class \"{}\"", c.class_name()),
        };
        let pv_desc = if pv_class.is_empty() {
            "no class".to_string()
        } else {
            format!("class \"{pv_class}\"")
        };
        let headline = format!(
            "claim {} has {claim_class}, its volume {} has {pv_desc}",
            c.key, v.name
        );
        let mut cons = ctx.claim_consequence(id);
        if bound {
            cons.summary.push_str(": the volume is reserved for the claim, so classes are not compared, and the claim reports a class its volume does not have");
        } else if !first {
            cons.summary.push_str(&format!(
                "; once the earlier mismatch is fixed the class check fails too ({})",
                m.upstream_error(&v.name)
            ));
        }
        // Bound through a reservation, nothing fails: the claim only reports a class its volume
        // does not have (what a later resize or a reader of the claim goes by).
        let sev = if bound {
            Severity::Info
        } else if assumed {
            Severity::Warning
        } else {
            Severity::Error
        };
        let f = sink.report(ctx, view.obj, &field, headline);
        f.severity(sev)
            .consequence(cons)
            .root_cause(CauseKey::Prebound(ctx.subject_of(view)))
            .help(if pv_class.is_empty() {
                "a claim meant for a volume without class needs storageClassName: \"\": leaving it out gets the default class"
            } else {
                "give the claim the same storageClassName as its volume"
            });
        match (view.class.field(), &view.class) {
            (
                Some(cf),
                ClaimClass::Set {
                    from_annotation: false,
                    ..
                },
            ) => {
                f.suggest_replace(
                    format!("use the volume's class \"{pv_class}\""),
                    cf.span,
                    format!("\"{pv_class}\""),
                );
            }
            _ => {
                f.suggest(
                    format!(
                        "set the claim's storageClassName to the volume's class \"{pv_class}\""
                    ),
                    Some(format!("storageClassName: \"{pv_class}\"")),
                );
            }
        }
        if let Some(obj) = v.origin.manifest_object() {
            if let Some(pf) = ctx
                .index
                .pvs
                .iter()
                .find(|p| p.obj == obj)
                .and_then(|p| p.class_field.clone())
            {
                f.related(
                    ctx,
                    obj,
                    &pf,
                    format!("the volume's class is \"{pv_class}\""),
                );
            }
        }
    }
}
