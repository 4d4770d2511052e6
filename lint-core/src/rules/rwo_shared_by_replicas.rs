use super::prelude::*;
use crate::model::{Concurrency, PodCount, WorkloadKind};

pub const RULE: Rule = Rule {
    id: "rwo-shared-by-replicas",
    family: Family::RwoSurge,
    severity: Severity::Error,
    summary: "Several pods share one ReadWriteOnce(Pod) claim (replicas > 1, a DaemonSet, parallel Job pods)",
    docs: Docs {
        what: "Finds workloads that run more than one pod at a time — replicas above 1, every DaemonSet, Jobs \
               and CronJobs with parallelism above 1 — whose pod template mounts the same claim, when that claim \
               allows only ReadWriteOnce or ReadWriteOncePod. A CronJob of one pod per run whose \
               `concurrencyPolicy` is Allow (the default) is reported too: its runs overlap when one \
               outlasts the schedule's interval.",
        why: "ReadWriteOncePod lets exactly one pod use the claim: the scheduler keeps the others Pending \
              (\"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access \
              mode\"). A ReadWriteOnce volume that attaches to nodes serves one node: pods scheduled elsewhere \
              fail with Warning `FailedAttachVolume` (Multi-Attach error) and stay in ContainerCreating.",
        example: include_str!("../../tests/fixtures/rwo-shared-by-replicas/bad.yaml"),
        fix: "Give each pod its own claim (a StatefulSet with volumeClaimTemplates), use a ReadWriteMany volume, \
              or run one replica.",
        fixed: include_str!("../../tests/fixtures/rwo-shared-by-replicas/good.yaml"),
        known_problems: "Pods that all land on one node share a ReadWriteOnce volume without trouble: pods pinned to one \
                         node (nodeName, a kubernetes.io/hostname node selector or node affinity) or kept together \
                         by a required podAffinity on kubernetes.io/hostname against their own labels are not \
                         reported; preferred affinities and other topology keys are left to the scheduler (on a \
                         live cluster of one node, `pvlint cluster` does not report it). For a driver it does not know, it assumes \
                         the volume attaches (as block storage does), and says so. pvlint cannot know how long a \
                         CronJob's run takes, so it cannot tell whether runs under concurrencyPolicy Allow overlap; \
                         Replace deletes the active Job in the background, and its pod may still hold the volume \
                         for its grace period when the next one starts (not reported).",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "several pods at once (replicas above 1, a DaemonSet, parallel Job pods) mount a \
                       ReadWriteOncePod claim, on any driver",
                example: "bad-daemonset-rwop.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "several pods at once mount a ReadWriteOnce claim of a driver that attaches, and may run \
                       on different nodes: a cluster of several nodes (the default profile), or pods a required \
                       podAntiAffinity keeps apart",
                example: "bad.yaml",
            },
            GRADE_ASSUMED_CLASS,
            GRADE_ONE_NODE_HINT,
            Grade {
                severity: Severity::Info,
                when: "the claim's class is not in the input and its name says node-local storage (the pods most \
                       likely share the node)",
                example: "bad-local-by-name.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the volume never attaches to a node (NFS, hostPath, a CSI driver without attach): every \
                       pod mounts it, and nothing enforces the one-node access mode",
                example: "bad-never-attaches.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "a CronJob of one pod per run with concurrencyPolicy Allow (the default): its runs share \
                       the claim only if one outlasts the schedule's interval",
                example: "bad-cronjob-overlap.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    shared_by_pods(ctx, sink);
    overlapping_runs(ctx, sink);
}

/// CronJobs whose runs may overlap (concurrencyPolicy Allow): cronjob_controllerv2.go
/// syncCronJob starts the next Job whatever is still active, unless the policy is Forbid
/// (skip the run) or Replace (delete the active Job first).
fn overlapping_runs(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let sim = ctx.sim;
    for w in ix.accepted_workloads() {
        let Some((Concurrency::Allow, policy_field)) = &w.concurrency else {
            continue;
        };
        if w.suspended {
            continue; // no run starts while suspended
        }
        // Several pods per run are reported as parallel pods already.
        if !matches!(w.pods, PodCount::Fixed { count: 1, .. }) {
            continue;
        }
        for (use_, cid, c) in ctx.exclusive_claims(w) {
            let name = &c.key.name;
            let (modes, what) = if c.spec.modes.has_rwop() {
                (
                    "ReadWriteOncePod",
                    "the new run's pod stays Pending (FailedScheduling \"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\") until the last run ends".to_string(),
                )
            } else {
                if matches!(ctx.spread(&w.placement), Spread::OneNode) {
                    continue;
                }
                match sim.attachment(cid) {
                    Attach::Exclusive { why }
                    | Attach::Presumed { why }
                    | Attach::Assumed { why }
                    | Attach::ProbablyLocal { why } => (
                        "ReadWriteOnce",
                        format!("its volume attaches to one node ({why}): a new run's pod on another node fails with Warning FailedAttachVolume (Multi-Attach error) until the last run ends"),
                    ),
                    _ => continue,
                }
            };
            let field = policy_field
                .clone()
                .unwrap_or_else(|| ctx.obj(w.obj).whole());
            let f = sink.report(
                ctx,
                w.obj,
                &field,
                format!(
                    "CronJob {}'s runs may overlap on {modes} claim {name} (concurrencyPolicy Allow)",
                    w.name
                ),
            );
            f.severity(Severity::Info)
                .consequence(Consequence::said(format!(
                        "a run still active when the next is due starts another Job (concurrencyPolicy Allow{}); {what}",
                        if policy_field.is_none() { ", the default" } else { "" }
                    )))
                .help("concurrencyPolicy Forbid skips a run while the last one is active")
                .related(ctx, w.obj, &use_.claim.field, format!("mounts claim {name}"))
                .suggest("start a run only when the last one has finished", Some("concurrencyPolicy: Forbid"));
        }
    }
}

/// Workloads that run several pods at once on one claim.
fn shared_by_pods(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let sim = ctx.sim;
    for w in ix.accepted_workloads() {
        let (pods, field) = match &w.pods {
            PodCount::Fixed { count, field } if *count > 1 => (
                match w.kind {
                    WorkloadKind::Job | WorkloadKind::CronJob => format!("{count} parallel pods"),
                    _ => format!("{count} replicas"),
                },
                field.clone().unwrap_or_else(|| ctx.obj(w.obj).whole()),
            ),
            PodCount::PerNode => ("one pod on every node".to_string(), ctx.obj(w.obj).whole()),
            _ => continue,
        };
        for (use_, cid, c) in ctx.exclusive_claims(w) {
            let kind = w.kind.as_str();
            let name = &c.key.name;
            let (headline, summary, sev, assumption) = if c.spec.modes.has_rwop() {
                (
                    format!("{kind} {} runs {pods} on ReadWriteOncePod claim {name}", w.name),
                    "only one pod can use it; the scheduler keeps the others Pending (FailedScheduling \"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\")".to_string(),
                    Severity::Error,
                    Vec::new(),
                )
            } else {
                // Pods kept on one node (or a cluster of one node: kind, k3s, minikube) share a
                // ReadWriteOnce volume there.
                let spread = ctx.spread(&w.placement);
                if matches!(spread, Spread::OneNode) {
                    continue;
                }
                let attach = sim.attachment(cid);
                let assumed = attach.assumed();
                let unlikely = attach.unlikely();
                match attach {
                    Attach::Exclusive { why }
                    | Attach::Presumed { why }
                    | Attach::Assumed { why }
                    | Attach::ProbablyLocal { why } => {
                        let mut assumptions: Vec<String> = sim
                            .attachment_assumption(cid)
                            .iter()
                            .map(Assumption::describe)
                            .collect();
                        if assumed {
                            assumptions.push(Assumption::DriverAttaches(Str::from(why.as_str())).describe());
                        }
                        // Several nodes: the profile's, unless the apply set hints at one node
                        // (forced apart by a required anti-affinity: on different nodes for
                        // sure; beyond the first, those pods stay Pending if nodes run out).
                        if let Spread::Assumed(a) = spread {
                            assumptions.push(a);
                        }
                        (
                            format!("{kind} {} runs {pods} on ReadWriteOnce claim {name}", w.name),
                            format!("its volume attaches to one node ({why}), so pods scheduled to other nodes fail with Warning FailedAttachVolume (Multi-Attach error) and stay in ContainerCreating"),
                            if unlikely { Severity::Info } else { Severity::Error },
                            assumptions,
                        )
                    }
                    Attach::Never { why } => (
                        format!("{kind} {} runs {pods} on ReadWriteOnce claim {name}", w.name),
                        format!("its volume never attaches ({why}), so all pods mount it and nothing enforces the one-node access mode"),
                        Severity::Info,
                        Vec::new(),
                    ),
                    _ => continue,
                }
            };
            let f = sink.report(ctx, w.obj, &field, headline);
            f.severity(sev)
                .consequence(Consequence::said(summary).assuming(assumption.into_iter().map(Str::from).collect()))
                .help("a StatefulSet with volumeClaimTemplates gives each pod its own claim; ReadWriteMany lets pods share one")
                .related(ctx, w.obj, &use_.claim.field, format!("mounts claim {name}"));
            if let Some(view) = ctx.view_of(cid) {
                if let Some(am) = view.access_modes_field.clone() {
                    f.related(
                        ctx,
                        view.obj,
                        &am,
                        format!("the claim's access modes are {}", c.spec.modes),
                    );
                    if sev != Severity::Info {
                        f.suggest(
                            "if the storage supports it, let the pods share the volume",
                            Some("accessModes: [ReadWriteMany]"),
                        );
                    }
                }
            }
        }
    }
}
