use super::prelude::*;
use crate::model::{PodCount, Strategy};

pub const RULE: Rule = Rule {
    id: "rwo-rolling-surge",
    family: Family::RwoSurge,
    severity: Severity::Error,
    summary: "A Deployment's rolling update surges a pod onto a ReadWriteOnce(Pod) claim",
    docs: Docs {
        what: "Resolves each Deployment's rolling update as the Deployment controller does (defaults replicas 1, \
               maxSurge 25%, maxUnavailable 25%; surge rounds up, unavailable rounds down; both 0 means \
               unavailable 1) and reports it when it surges (≥ 1 extra pod) while a pod volume mounts a claim \
               whose access modes are only ReadWriteOnce / ReadWriteOncePod. ReadWriteOnce matters only for \
               volumes that attach to a node, on a cluster where the pods may run on different nodes: CSIDriver \
               objects in the input, the cluster state or the profile decide, known drivers (NFS, local-path, \
               hostPath, local) do not attach, and the cluster profile says drivers pvlint does not know attach.",
        why: "With surge, the new pod is created before the old one is removed. A ReadWriteOncePod claim makes \
              the scheduler refuse it (\"node has pod using PersistentVolumeClaim with the same name and \
              ReadWriteOncePod access mode\"); a ReadWriteOnce volume on an attachable driver cannot attach to a \
              second node (Warning `FailedAttachVolume` \"Multi-Attach error for volume ... Volume is already \
              exclusively attached to one node and can't be attached to another\"). With maxUnavailable 0 the \
              old pod is only removed after the new one is available, so the rollout never finishes and the \
              Deployment reports `ProgressDeadlineExceeded`.",
        example: include_str!("../../tests/fixtures/rwo-rolling-surge/bad.yaml"),
        fix: "Use `strategy: {type: Recreate}` (the old pod stops first, brief downtime), or `maxSurge: 0` with \
              `maxUnavailable: 1`, or a StatefulSet, or a ReadWriteMany volume.",
        fixed: include_str!("../../tests/fixtures/rwo-rolling-surge/good.yaml"),
        known_problems: "A ReadWriteOnce rollout hangs only if the new pod is scheduled to another node: on a \
                         cluster of one node (the profile's `nodes: one`), or with affinity that keeps the pods \
                         on the old pod's node, it completes; pods pinned to one node, or kept together by a \
                         required podAffinity on kubernetes.io/hostname against their own labels (without \
                         matchLabelKeys), are not reported. On several nodes, the scheduler's default spreading \
                         prefers a node without the Deployment's pods but does not force one: a rollout may \
                         finish when the new pod happens to land beside the old one.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the old pod is removed only once the new one is available (maxUnavailable resolves to \
                       0), and the new pod cannot start beside it: a ReadWriteOncePod claim on any driver, or \
                       a ReadWriteOnce claim of a driver that attaches, on a cluster of several nodes (the \
                       default profile)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the rollout only waits for the volume (maxUnavailable resolves to 1 or more), or it \
                       hangs only on what neither the profile nor the input settles: a StorageClass the input \
                       does not define, the files of a directory applied together, a hostPath volume of the \
                       apply set written for one node against the default profile's several",
                example: "bad-max-unavailable.yaml",
            },
            GRADE_ASSUMED_CLASS,
            GRADE_ONE_NODE_HINT,
            Grade {
                severity: Severity::Info,
                when: "the claim's class is not in the input and its name says node-local storage (the pods \
                       most likely share the node)",
                example: "bad-local-by-name.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

const RECREATE: &str = "strategy:\n  type: Recreate";

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let sim = ctx.sim;
    for w in ix.accepted_workloads() {
        let Some(Strategy::RollingUpdate {
            max_surge,
            max_unavailable,
            field,
            defaulted,
        }) = &w.strategy
        else {
            continue;
        };
        let PodCount::Fixed { count, .. } = &w.pods else {
            continue;
        };
        if *count < 1 {
            continue;
        }
        let (surge, unavailable) =
            kube::resolve_fenceposts(&max_surge.value, &max_unavailable.value, *count);
        if surge < 1 {
            continue;
        }
        let resolved = format!(
            "replicas {count}, maxSurge {}{} → {surge} surge pod{}, maxUnavailable {}{} → {unavailable}",
            max_surge.value,
            if *defaulted { " (default)" } else { "" },
            if surge == 1 { "" } else { "s" },
            max_unavailable.value,
            if *defaulted { " (default)" } else { "" },
        );
        for (use_, cid, c) in ctx.exclusive_claims(w) {
            let hangs = unavailable == 0;
            let name = &c.key.name;
            let (headline, outcome, sev, assumption) = if c.spec.modes.has_rwop() {
                let outcome = if hangs {
                    "the new pod stays Pending (FailedScheduling \"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\") and, since the old pod is only removed once the new one is available, the rollout never completes (Progressing=False, ProgressDeadlineExceeded)"
                } else {
                    "the new pod is Unschedulable (\"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\") until the old pod, stopped at the same time, is gone"
                };
                (
                    format!(
                        "Deployment {} surges a second pod onto ReadWriteOncePod claim {name}",
                        w.name
                    ),
                    outcome.to_string(),
                    if hangs {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    Vec::new(),
                )
            } else {
                let attach = sim.attachment(cid);
                if !attach.contends() {
                    continue;
                }
                // Both pods on one node share a ReadWriteOnce volume there.
                let spread = ctx.spread(&w.placement);
                if matches!(spread, Spread::OneNode) {
                    continue;
                }
                let outcome = if hangs {
                    format!("the new pod is created before the old one is removed; scheduled to another node, its volume cannot attach there (Warning FailedAttachVolume \"Multi-Attach error for volume ... Volume is already used by pod(s) ...\") and the rollout hangs (ProgressDeadlineExceeded), because the old pod is only removed once the new one is available ({})", attach.why())
                } else {
                    format!("the new pod may land on another node and wait on Multi-Attach (Warning FailedAttachVolume) until the old pod, stopped at the same time, detaches the volume ({})", attach.why())
                };
                let mut assumptions: Vec<String> = sim
                    .attachment_assumption(cid)
                    .iter()
                    .map(Assumption::describe)
                    .collect();
                if attach.assumed() {
                    assumptions
                        .push(Assumption::DriverAttaches(Str::from(attach.why())).describe());
                }
                // Several nodes: the profile's, unless the apply set hints at one node.
                if let Spread::Assumed(a) = spread {
                    assumptions.push(a);
                }
                (
                    format!(
                        "Deployment {} surges a second pod onto ReadWriteOnce claim {name}",
                        w.name
                    ),
                    outcome,
                    if attach.unlikely() {
                        Severity::Info
                    } else if hangs {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    assumptions,
                )
            };
            let f = sink.report(ctx, w.obj, field, headline);
            f.severity(sev)
                .consequence(Consequence::said(format!("{resolved}: {outcome}")).assuming(assumption.into_iter().map(Str::from).collect()))
                .help("Recreate stops the old pod first; maxSurge: 0 with maxUnavailable: 1 does the same for one replica; a StatefulSet gives each pod its own claim")
                .suggest("use the Recreate strategy", Some(RECREATE))
                .related(ctx, w.obj, &use_.claim.field, format!("mounts claim {name}"));
            if let Some(view) = ctx.view_of(cid) {
                if let Some(am) = &view.access_modes_field {
                    f.related(
                        ctx,
                        view.obj,
                        am,
                        format!("the claim's access modes are {}", c.spec.modes),
                    );
                }
            }
        }
    }
}
