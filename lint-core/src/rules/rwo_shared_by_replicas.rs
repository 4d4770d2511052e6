use super::prelude::*;
use crate::facts::Attach;
use crate::model::{PodCount, WorkloadKind};

pub const RULE: Rule = Rule {
    id: "rwo-shared-by-replicas",
    family: Family::RwoSurge,
    severity: Severity::Error,
    summary: "Several pods share one ReadWriteOnce(Pod) claim (replicas > 1, a DaemonSet, parallel Job pods)",
    docs: Docs {
        what: "Finds workloads that run more than one pod at a time — replicas above 1, every DaemonSet, Jobs \
               and CronJobs with parallelism above 1 — whose pod template mounts the same claim, when that claim \
               allows only ReadWriteOnce or ReadWriteOncePod.",
        why: "ReadWriteOncePod lets exactly one pod use the claim: the scheduler keeps the others Pending \
              (\"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access \
              mode\"). A ReadWriteOnce volume that attaches to nodes serves one node: pods scheduled elsewhere \
              fail with Warning `FailedAttachVolume` (Multi-Attach error) and stay in ContainerCreating.",
        example: include_str!("../../tests/fixtures/rwo-shared-by-replicas/bad.yaml"),
        fix: "Give each pod its own claim (a StatefulSet with volumeClaimTemplates), use a ReadWriteMany volume, \
              or run one replica.",
        fixed: include_str!("../../tests/fixtures/rwo-shared-by-replicas/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    for w in &ix.workloads {
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
        for use_ in &w.claims {
            let Some(pvc) = ix.pvc(&w.namespace, &use_.claim.value) else { continue };
            if !pvc.access_modes.exclusive_only() {
                continue;
            }
            let kind = format!("{:?}", w.kind);
            let (msg, sev) = if pvc.access_modes.has_rwop() {
                (
                    format!(
                        "{kind} {} runs {pods}, all mounting ReadWriteOncePod claim {}: only one pod can use it, the others stay Pending (\"node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\")",
                        w.name, pvc.name
                    ),
                    Severity::Error,
                )
            } else {
                match facts::attachability(ix, pvc) {
                    Attach::Yes { why, assumed } => (
                        format!(
                            "{kind} {} runs {pods}, all mounting ReadWriteOnce claim {}: its volume attaches to one node, so pods scheduled to other nodes fail with Warning FailedAttachVolume (Multi-Attach error) and stay in ContainerCreating ({why})",
                            w.name, pvc.name
                        ),
                        if assumed { Severity::Warning } else { Severity::Error },
                    ),
                    Attach::No { why } => (
                        format!(
                            "{kind} {} runs {pods}, all mounting ReadWriteOnce claim {}: this volume does not attach ({why}), so all pods mount it, but the claim's access mode says one node",
                            w.name, pvc.name
                        ),
                        Severity::Info,
                    ),
                }
            };
            let f = sink.report(ctx, w.obj, &field, msg);
            f.severity(sev)
                .help("a StatefulSet with volumeClaimTemplates gives each pod its own claim; ReadWriteMany lets pods share one")
                .related(ctx, w.obj, &use_.claim.field, format!("mounts claim {}", pvc.name));
            if let Some(am) = &pvc.access_modes_field {
                f.related(ctx, pvc.obj, am, format!("the claim's access modes are {}", pvc.access_modes));
                if sev != Severity::Info {
                    f.suggest(
                        "if the storage supports it, let the pods share the volume",
                        Some("accessModes: [ReadWriteMany]".into()),
                    );
                }
            }
        }
    }
}
