use super::prelude::*;
use crate::facts::{Mismatch, PreBound};

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
    },
    check,
};

fn field_of(m: &Mismatch, pv: &Pv, pvc: &Pvc) -> Option<(Field, bool)> {
    // (field, on the claim?)
    match m {
        Mismatch::TooSmall { .. } => pvc.request.as_ref().map(|r| (r.field.clone(), true)),
        Mismatch::VolumeMode { .. } => pvc
            .volume_mode_field
            .clone()
            .map(|f| (f, true))
            .or_else(|| pv.volume_mode_field.clone().map(|f| (f, false))),
        Mismatch::AccessMode { .. } => pvc.access_modes_field.clone().map(|f| (f, true)),
        Mismatch::Class { .. } => None,
    }
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    for (kind, pv, pvc) in facts::prebound_pairs(ix) {
        let all = facts::check_volume_satisfy_claim(ix, pv, pvc);
        let claim = format!("claim {}/{}", pvc.namespace, pvc.name);
        // The first failure that is not the class (which has its own rule).
        let relevant: Vec<&Mismatch> = match kind {
            // findBestMatchForClaim: access-mode group, capacity, volumeMode; class not checked.
            PreBound::ClaimRef | PreBound::Both => {
                let mut v: Vec<&Mismatch> = all.iter().filter(|m| matches!(m, Mismatch::AccessMode { .. })).collect();
                v.extend(all.iter().filter(|m| matches!(m, Mismatch::TooSmall { .. } | Mismatch::VolumeMode { .. })));
                v
            }
            PreBound::VolumeName => all.iter().collect(),
        };
        let Some(first) = relevant.first() else { continue };
        if matches!(first, Mismatch::Class { .. }) {
            continue; // storage-class-mismatch reports it, with the rest.
        }
        let (msg, sev) = match kind {
            PreBound::VolumeName => {
                let mut msg = format!(
                    "{claim} names volume {}, but {}: the claim stays Pending (Warning VolumeMismatch \"Cannot bind to requested volume \\\"{}\\\": {}\")",
                    pv.name,
                    first.detail(),
                    pv.name,
                    first.upstream_error()
                );
                let later: Vec<String> = relevant[1..].iter().map(|m| m.upstream_error().to_string()).collect();
                if !later.is_empty() {
                    msg.push_str(&format!("; after that, the next checks fail too: {}", later.join(", ")));
                }
                (msg, Severity::Error)
            }
            PreBound::ClaimRef => (
                format!(
                    "volume {} is reserved for {claim} by claimRef, but {}: the controller skips it for that claim, which binds another volume, gets one provisioned, or stays Pending — and {} stays Available, reserved for a claim that will not take it",
                    pv.name,
                    first.detail(),
                    pv.name
                ),
                Severity::Error,
            ),
            PreBound::Both => (
                format!(
                    "{claim} and volume {} name each other, so the controller binds them without checks, although {}: the workload gets a volume that does not match its claim",
                    pv.name,
                    first.detail()
                ),
                Severity::Warning,
            ),
        };
        let (field, on_claim) = field_of(first, pv, pvc).unwrap_or_else(|| {
            let f = pvc.volume_name.as_ref().map(|v| v.field.clone()).unwrap_or_else(|| ctx.obj(pvc.obj).whole());
            (f, true)
        });
        let obj = if on_claim { pvc.obj } else { pv.obj };
        let (fix, snippet) = match first {
            Mismatch::TooSmall { capacity, .. } => (
                format!("request at most the volume's capacity ({capacity}), or use a larger volume"),
                Some(format!("storage: {capacity}")),
            ),
            Mismatch::VolumeMode { pv: m, .. } => (format!("use volumeMode {m} on the claim"), Some(format!("volumeMode: {m}"))),
            Mismatch::AccessMode { pv: m, .. } => (
                format!("ask only for access modes the volume offers ({m})"),
                Some(format!("accessModes: [{}]", m.names().join(", "))),
            ),
            Mismatch::Class { .. } => unreachable!("filtered above"),
        };
        let f = sink.report(ctx, obj, &field, msg);
        f.severity(sev)
            .root_cause(format!("prebound:{}", facts::claim_key(pvc)))
            .help("a pre-bound claim must fit its volume")
            .suggest(fix, snippet);
        if let Some(cap) = &pv.capacity {
            if matches!(first, Mismatch::TooSmall { .. }) {
                f.related(ctx, pv.obj, &cap.field, format!("the volume's capacity is {}", cap.value));
            }
        }
    }
}
