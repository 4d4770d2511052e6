use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "prebound-volume-mismatch",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A pre-bound claim and volume fail the controller's capacity, volumeMode or access-mode check",
    docs: Docs {
        what: "For a claim that names its volume, or a volume reserved for a claim, runs the PV controller's \
               checks in upstream order — \"requested PV is too small\", storage class (see \
               storage-class-mismatch), \"incompatible volumeMode\", \"incompatible accessMode\" — and reports the \
               first that fails.",
        why: "A claim naming a volume (without claimRef) that fails a check stays `Pending` with Warning \
              `VolumeMismatch` `Cannot bind to requested volume \"<pv>\": <reason>`. A volume reserved by claimRef \
              that is too small, of the wrong volumeMode or lacks an access mode is skipped: the claim binds \
              another volume, gets a new one provisioned, or stays Pending, and the reserved volume stays \
              Available for nobody. When both name each other the controller binds without checking, and the \
              workload gets a volume smaller than it asked for.",
        example: include_str!("../../tests/fixtures/prebound-volume-mismatch/bad.yaml"),
        fix: "Request no more than the volume's capacity, use the same volumeMode, and ask only for access modes \
              the volume offers — or point the claim at a volume that fits.",
        fixed: include_str!("../../tests/fixtures/prebound-volume-mismatch/good.yaml"),
        known_problems: "Only the first failing check is what the controller reports; pvlint lists the later ones too, which \
                         the cluster shows only once the first is fixed.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim names a volume (whose claimRef does not name it) that fails the capacity, \
                       volumeMode or access-mode check",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "a volume's claimRef reserves a claim that fails one of those checks",
                example: "bad-modes.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the claim and the volume name each other (the controller binds them without checking)",
                example: "bad-named-each-other.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn fix_of(m: &Mismatch) -> Option<(String, String)> {
    Some(match m {
        Mismatch::TooSmall {
            capacity: Some(c), ..
        } => (
            format!("request at most the volume's capacity ({c}), or use a larger volume"),
            format!("storage: {c}"),
        ),
        Mismatch::VolumeMode { volume, .. } => (
            format!("use volumeMode {} on the claim", volume.as_str()),
            format!("volumeMode: {}", volume.as_str()),
        ),
        Mismatch::AccessModes { volume, .. } => (
            format!("ask only for access modes the volume offers ({volume})"),
            format!("accessModes: [{}]", volume.names().join(", ")),
        ),
        _ => return None,
    })
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    // Claims naming a volume that fails checkVolumeSatisfyClaim (class failures first go to
    // storage-class-mismatch), or naming one that names them back although it does not fit.
    for (id, c) in w.claims() {
        let (vid, mismatches, bound) = match &c.state {
            ClaimState::Pending(Pending::VolumeMismatch { volume, mismatches }) => {
                (*volume, mismatches, false)
            }
            ClaimState::Bound {
                volume,
                how: BindHow::NamedEachOther { unchecked },
            } => (*volume, unchecked, true),
            _ => continue,
        };
        let Some(first) = mismatches.first() else {
            continue;
        };
        if first.check() == Check::Class
            || (bound && mismatches.iter().all(|m| m.check() == Check::Class))
        {
            continue;
        }
        let Some(view) = ctx.view_of(id) else {
            continue;
        };
        let first = mismatches
            .iter()
            .find(|m| m.check() != Check::Class)
            .expect("checked");
        let v = w.volume(vid);
        let field = ctx.claim_field(view, first.check());
        let headline = if bound {
            format!(
                "claim {} and volume {} name each other, but the volume fails the {} check",
                c.key,
                v.name,
                first.check()
            )
        } else {
            format!(
                "claim {} names volume {}, which fails the {} check",
                c.key,
                v.name,
                first.check()
            )
        };
        let mut cons = ctx.claim_consequence(id);
        if bound {
            cons.summary = Str::from(format!(
                "{}: the workload gets a volume that does not match its claim",
                cons.summary
            ));
        } else if mismatches.len() > 1 {
            let later: Vec<String> = mismatches[1..]
                .iter()
                .map(|m| m.upstream_error(&v.name))
                .collect();
            cons.summary = Str::from(format!(
                "{}; once that is fixed, the next checks fail too: {}",
                cons.summary,
                later.join(", ")
            ));
        }
        let f = sink.report(ctx, view.obj, &field, headline);
        f.severity(if bound {
            Severity::Warning
        } else {
            Severity::Error
        })
        .consequence(cons)
        .root_cause(CauseKey::Prebound(ctx.subject_of(view)))
        .help("a pre-bound claim must fit its volume");
        if let Some((fix, snippet)) = fix_of(first) {
            f.suggest(fix, Some(snippet));
        }
    }
    // Volumes whose claimRef reserves them for a claim that skips them.
    for (vid, v) in w.volumes() {
        let Some((cid, fails)) = v.skipped_by_reserved_claim.as_deref() else {
            continue;
        };
        let Some(obj) = v.origin.manifest_object() else {
            continue;
        };
        let Some(pv) = ctx.index.pvs.iter().find(|p| p.obj == obj) else {
            continue;
        };
        let Some(cr) = &pv.claim_ref else { continue };
        let c = w.claim(*cid);
        let first = &fails[0];
        let f = sink.report(
            ctx,
            obj,
            &cr.field,
            format!(
                "PersistentVolume {} is reserved for claim {}, which fails its {} check",
                v.name,
                c.key,
                first.check()
            ),
        );
        let mut cons = ctx.volume_consequence(vid);
        cons.summary = Str::from(format!(
            "{}; the claim {}",
            cons.summary,
            match c.phase() {
                ClaimPhase::Bound => "binds another volume",
                _ => "stays Pending or gets a new volume",
            }
        ));
        f.consequence(cons);
        if let Some(view) = ctx.view_of(*cid) {
            f.root_cause(CauseKey::Prebound(ctx.subject_of(view)));
            let cf = ctx.claim_field(view, first.check());
            f.related(ctx, view.obj, &cf, format!("the claim: {}", first.detail()));
        }
        f.help("a volume reserved by claimRef is only taken if access modes, capacity and volumeMode fit the claim");
        if let Some((fix, snippet)) = fix_of(first) {
            f.suggest(fix, Some(snippet));
        }
    }
}
