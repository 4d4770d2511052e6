use super::context::DataFate;
use super::prelude::*;
use crate::model::{ClaimRetention, WorkloadKind};
use crate::sim::push_once;

pub const RULE: Rule = Rule {
    id: "retention-deletes-data",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "A StatefulSet's claim retention policy deletes its claims, and with them volumes whose reclaim policy is Delete",
    docs: Docs {
        what: "Finds StatefulSets with `persistentVolumeClaimRetentionPolicy.whenScaled: Delete` or \
               `whenDeleted: Delete` whose claims' volumes are deleted with the claims: bound (in the \
               simulation) to volumes with `reclaimPolicy: Delete`, or of a StorageClass that deletes the \
               volumes it provisions. Claims whose volumes are retained are not reported, nor is \
               `whenDeleted: Delete` written next to an explicit `whenScaled: Retain`: a choice made between \
               the two cases (the data lives as long as the application).",
        why: "With `Delete`, the StatefulSet controller makes the claims owned (stateful_set_utils.go \
              `updateClaimOwnerRefForSetAndPod`): the garbage collector deletes the claims of the pods a \
              scale-down removes (`whenScaled`), or every claim when the StatefulSet is deleted (`whenDeleted`: \
              `kubectl delete sts`, `helm uninstall`). A deleted claim releases its volume, and a Delete \
              reclaim policy deletes the disk. Recorded on a real v1.34.9 control plane (oracle cases 08 and \
              11): scaling 3 → 1 deleted data-web-1 and data-web-2 and their volumes; deleting the set deleted \
              every claim and volume. Scaling up again starts the pods on new, empty volumes. An autoscaler, \
              `kubectl scale --replicas=0` for maintenance, or an uninstall before a reinstall is enough.",
        example: include_str!("../../tests/fixtures/retention-deletes-data/bad.yaml"),
        fix: "Keep `Retain` (the default) and delete claims deliberately, or give the claims a StorageClass \
              with `reclaimPolicy: Retain`: the claims still go, but the volumes stay Released with the data.",
        fixed: include_str!("../../tests/fixtures/retention-deletes-data/good.yaml"),
        known_problems: "pvlint cannot tell a deliberate choice (a cache rebuilt on start, a test environment) from an \
                         accident; say so with a suppression comment on the field. Without the claims' StorageClass \
                         in the input or the cluster state, pvlint assumes the class deletes its volumes (the \
                         default reclaimPolicy) and names that assumption. `kubectl delete sts --cascade=orphan` \
                         keeps the claims whatever the policy. Before 1.27 the StatefulSetAutoDeletePVC gate is \
                         off by default, the API server drops the field and nothing is reported (`--kube-version`); \
                         a cluster that turned the gate on earlier is not modelled.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "`whenScaled: Delete`, over claims whose volumes are deleted with them",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "`whenDeleted: Delete` without an explicit `whenScaled: Retain`; with the claims' class \
                       not in the input, that it deletes its volumes is an assumption the finding names",
                example: "bad-when-deleted-assumed-class.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for w in ctx
        .index
        .accepted_workloads()
        .filter(|w| w.kind == WorkloadKind::StatefulSet)
    {
        let triggers = [
            (w.retention.when_scaled.clone(), Trigger::Scaled),
            (w.retention.when_deleted.clone(), Trigger::Deleted),
        ];
        let claims = ctx.sim.claims_of_statefulset(ctx.side, w.obj);
        // One claim per template tells the template's fate (its class, or its volume).
        let mut fates: Vec<(Str, DataFate)> = Vec::new();
        for &id in claims {
            let c = ctx.sim.claim(id);
            let Some(t) = &c.template_of else { continue };
            let known = fates.iter_mut().find(|(name, _)| *name == t.template);
            match (known, ctx.data_fate(id)) {
                (Some((_, DataFate::Volumes(all))), Some(DataFate::Volumes(more))) => {
                    all.extend(more)
                }
                (Some(_), _) | (None, None) => {}
                (None, Some(f)) => fates.push((t.template.clone(), f)),
            }
        }
        if fates.is_empty() {
            continue;
        }
        // Written next to an explicit `whenScaled: Retain`, `whenDeleted: Delete` is a choice
        // the author made between the two cases (the Kubernetes docs' pattern: the data lives
        // as long as the application): deliberate, not reported.
        let deliberate = matches!(w.retention.when_scaled, (ClaimRetention::Retain, Some(_)));
        for ((policy, field), trigger) in triggers {
            let (ClaimRetention::Delete, Some(field)) = (policy, field) else {
                continue;
            };
            if matches!(trigger, Trigger::Deleted) && deliberate {
                continue;
            }
            report(ctx, sink, w, &field, trigger, &fates);
        }
    }
}

#[derive(Clone, Copy)]
enum Trigger {
    Scaled,
    Deleted,
}

fn report(
    ctx: &Context<'_>,
    sink: &mut Sink<'_>,
    w: &Workload,
    field: &Field,
    trigger: Trigger,
    fates: &[(Str, DataFate)],
) {
    let names = fates
        .iter()
        .map(|(t, _)| format!("{t}-{}-N", w.name))
        .collect::<Vec<_>>()
        .join(", ");
    // Texts and assumptions shared by several templates are said once.
    let (mut why, mut assumptions): (Vec<String>, Vec<Str>) = (Vec::new(), Vec::new());
    // Deleters that archive rather than delete (nfs-subdir-external-provisioner's default).
    let mut archivers: Vec<String> = Vec::new();
    for (_, f) in fates {
        if let Some(p) = f.archived_by() {
            push_once(&mut archivers, p.to_string());
        }
        let Some((text, assumption)) = f.why() else {
            continue;
        };
        if let Some(a) = assumption {
            push_once(&mut assumptions, a);
        }
        push_once(&mut why, text);
    }
    if why.is_empty() {
        // Every template's volumes are archived: the data stays on the server, detached.
        let by = archivers.join(" and ");
        let (headline, summary) = match trigger {
            Trigger::Scaled => (
                format!("StatefulSet {} detaches the data of the pods a scale-down removes (whenScaled: Delete)", w.name),
                format!("scaling it down deletes the claims {names} of the removed ordinals; {by} renames their directories to archived-<directory> (archived, not deleted), and scaling up again starts those pods on new, empty volumes"),
            ),
            Trigger::Deleted => (
                format!("StatefulSet {} detaches all its data when it is deleted (whenDeleted: Delete)", w.name),
                format!("deleting it (kubectl delete statefulset {}, helm uninstall) deletes every claim {names}; {by} renames their directories to archived-<directory> (archived, not deleted), and a StatefulSet created again starts on new, empty volumes", w.name),
            ),
        };
        sink.report(ctx, w.obj, field, headline)
            .consequence(
                Consequence::said(summary)
                    .with_storage(StorageFate::Kept)
                    .assuming(assumptions),
            )
            .help("Retain (the default) keeps the claims, and the pods find their data again")
            .suggest_replace("keep the claims: use Retain", field.span, "Retain");
        return;
    }
    let (headline, summary) = match trigger {
        Trigger::Scaled => (
            format!("StatefulSet {} deletes the data of the pods a scale-down removes (whenScaled: Delete)", w.name),
            format!(
                "scaling it down (kubectl scale, even to 0 for maintenance; an autoscaler) deletes the claims {names} of the removed ordinals and, as {}, their volumes and data; scaling up again starts those pods on new, empty volumes",
                why.join(" and ")
            ),
        ),
        Trigger::Deleted => (
            format!("StatefulSet {} deletes all its data when it is deleted (whenDeleted: Delete)", w.name),
            format!(
                "deleting it (kubectl delete statefulset {}, helm uninstall) deletes every claim {names} and, as {}, their volumes and data",
                w.name,
                why.join(" and ")
            ),
        ),
    };
    let consequence = Consequence::said(summary)
        .with_storage(StorageFate::Deleted)
        .assuming(assumptions);
    sink.report(ctx, w.obj, field, headline)
        .consequence(consequence)
        .help("Retain (the default) keeps the claims; a StorageClass with reclaimPolicy: Retain keeps the volumes when claims are deleted")
        .suggest_replace("keep the claims: use Retain", field.span, "Retain");
}
