use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "dangling-volume-name",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A claim's spec.volumeName names a PersistentVolume that is not in the input",
    docs: Docs {
        what: "Finds claims whose `spec.volumeName` names a volume the input does not define. Only `--complete` \
               or `--cluster-state` make the volume's absence definite; without them the volume may already \
               exist in the cluster or be created at run time (a PersistentVolume in the input does not mean \
               the input lists every volume).",
        why: "A pre-bound claim whose volume does not exist stays `Pending` with no event. If it also carries \
              `pv.kubernetes.io/bind-completed`, it goes `Lost` (Warning `ClaimLost` \"Bound claim has lost its \
              PersistentVolume. Data on the volume is lost!\") and never recovers.",
        example: include_str!("../../tests/fixtures/dangling-volume-name/bad.yaml"),
        fix: "Apply the PersistentVolume with the claim, correct the name, or remove `spec.volumeName` to let the \
              claim bind or provision normally.",
        fixed: include_str!("../../tests/fixtures/dangling-volume-name/good.yaml"),
        known_problems: "Without `--cluster-state` or `--complete` pvlint cannot know whether the volume exists in the cluster, \
                         and the finding names its absence as an assumption.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the volume is known to be missing (the input is the whole cluster: `--complete`, or a \
                       cluster state without it) and the claim carries `pv.kubernetes.io/bind-completed` (it \
                       ends Lost)",
                example: "bad-bound-complete.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the volume is known to be missing and the claim is not marked bound: it waits Pending \
                       for a volume that never comes",
                example: "bad-complete.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "neither `--complete` nor a cluster state says whether the volume exists (it may already \
                       be in the cluster, or be created at run time)",
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
    let sure = ctx.cluster_known();
    for c in &ctx.index.pvcs {
        let Some(v) = &c.volume_name else { continue };
        if ctx.index.is_rejected(c.obj) || ctx.sim.volume_named(&v.value).is_some() {
            continue;
        }
        // Known not to exist, the volume never comes: a claim marked bound is Lost, one that
        // is not waits Pending for good.
        let sev = if sure {
            Severity::Error
        } else {
            Severity::Info
        };
        let f = sink.report(
            ctx,
            c.obj,
            &v.field,
            format!(
                "claim {}/{} names volume {}, which does not exist",
                c.namespace, c.name, v.value
            ),
        );
        f.severity(sev);
        if let Some(id) = ctx.claim_of(c.obj) {
            let mut cons = ctx.claim_consequence(id);
            if !sure {
                cons.assumptions.push(Str::from(format!(
                    "PersistentVolume {} is not in the cluster either (pass --cluster-state or --complete to check)",
                    v.value
                )));
            }
            f.consequence(cons);
        }
        f.root_cause(CauseKey::Dangling(ctx.subject_of(c))).help(
            "apply the PersistentVolume with the claim, fix the name, or remove spec.volumeName",
        );
    }
}
