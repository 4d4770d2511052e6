use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "dangling-volume-name",
    family: Family::StaleIdentity,
    severity: Severity::Warning,
    summary: "A claim's spec.volumeName names a PersistentVolume that is not in the input",
    docs: Docs {
        what: "Finds claims whose `spec.volumeName` names a volume the input does not define. It reports only \
               when the input holds at least one PersistentVolume or `--complete` says the input is the whole \
               picture; otherwise it notes it at info level (the volume may already exist in the cluster).",
        why: "A pre-bound claim whose volume does not exist stays `Pending` with no event. If it also carries \
              `pv.kubernetes.io/bind-completed`, it goes `Lost` (Warning `ClaimLost` \"Bound claim has lost its \
              PersistentVolume. Data on the volume is lost!\") and never recovers.",
        example: include_str!("../../tests/fixtures/dangling-volume-name/bad.yaml"),
        fix: "Apply the PersistentVolume with the claim, correct the name, or remove `spec.volumeName` to let the \
              claim bind or provision normally.",
        fixed: include_str!("../../tests/fixtures/dangling-volume-name/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let sure = ctx.options.complete || !ix.pvs.is_empty();
    for c in &ix.pvcs {
        let Some(v) = &c.volume_name else { continue };
        if ix.pv(&v.value).is_some() || ctx.sim.pv(&v.value).is_some_and(|p| p.origin == Origin::Cluster) {
            continue;
        }
        let (sev, outcome) = match (c.bind_completed.is_some(), sure) {
            (true, _) => (
                if sure { Severity::Error } else { Severity::Info },
                "it carries bind-completed, so it goes Lost (Warning ClaimLost \"Bound claim has lost its PersistentVolume. Data on the volume is lost!\")",
            ),
            (false, true) => (Severity::Warning, "the claim stays Pending (no event) until that volume exists"),
            (false, false) => (Severity::Info, "if it does not exist in the cluster either, the claim stays Pending"),
        };
        let why = if ctx.options.complete {
            "the input is complete (--complete) and has no such PersistentVolume"
        } else if sure {
            "the input defines PersistentVolumes but not this one"
        } else {
            "it is not in the input (pass --complete if the input holds every volume)"
        };
        sink.report(
            ctx,
            c.obj,
            &v.field,
            format!("claim {}/{} names volume \"{}\", and {why}: {outcome}", c.namespace, c.name, v.value),
        )
        .severity(sev)
        .root_cause(format!("dangling:{}", facts::claim_key(c)))
        .help("apply the PersistentVolume with the claim, fix the name, or remove spec.volumeName");
    }
}
