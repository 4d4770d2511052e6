use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "bind-completed-without-volume",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A claim marked pv.kubernetes.io/bind-completed has no spec.volumeName",
    docs: Docs {
        what: "Finds PersistentVolumeClaims that carry the `pv.kubernetes.io/bind-completed` annotation but \
               have an empty or missing `spec.volumeName` — typically an exported claim whose volumeName was \
               stripped while the controller's annotations were kept.",
        why: "The PV controller treats a claim with `bind-completed` as bound. With no volume name it sets the \
              claim to `Lost` at once, Warning `ClaimLost` \"Bound claim has lost reference to PersistentVolume. \
              Data on the volume is lost!\", and a Lost claim never binds again.",
        example: include_str!("../../tests/fixtures/bind-completed-without-volume/bad.yaml"),
        fix: "Remove the controller's annotations (`pv.kubernetes.io/bind-completed`, \
              `pv.kubernetes.io/bound-by-controller`) from the manifest, or set `spec.volumeName` to the volume \
              the claim should bind.",
        fixed: include_str!("../../tests/fixtures/bind-completed-without-volume/good.yaml"),
        known_problems: "A claim that already exists in the cluster is not re-created: applying such a manifest onto it \
                         changes nothing the controller looks at. pvlint judges the manifest as if it were created.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim, or a StatefulSet's volumeClaimTemplate, carries \
                       `pv.kubernetes.io/bind-completed` and no `spec.volumeName`",
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
    for pvc in ctx.index.pvcs.iter().chain(&ctx.index.claim_templates) {
        let Some(b) = &pvc.bind_completed else {
            continue;
        };
        if pvc.volume_name.is_some() || ctx.index.is_rejected(pvc.obj) {
            continue;
        }
        let what = match &pvc.template_of {
            Some(sts) => format!("StatefulSet {sts} (template {})", pvc.name),
            None => format!("claim {}/{}", pvc.namespace, pvc.name),
        };
        let f = sink.report(
            ctx,
            pvc.obj,
            b,
            format!("{what} is marked bound but names no volume"),
        );
        if let Some(&c) = ctx.claims_of_view(pvc).first() {
            f.consequence(ctx.claim_consequence(c));
        }
        f.root_cause(CauseKey::NoVolumeName(ctx.subject_of(pvc)))
            .help("pv.kubernetes.io/bind-completed is written by the PV controller; a manifest should not carry it")
            .suggest(
                format!(
                    "remove the {} and {} annotations (or set spec.volumeName)",
                    kube::ANN_BIND_COMPLETED,
                    kube::ANN_BOUND_BY_CONTROLLER
                ),
                None::<Str>,
            );
    }
}
