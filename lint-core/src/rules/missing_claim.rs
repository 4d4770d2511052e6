use super::prelude::*;
use crate::model::{PodCount, WorkloadKind};

pub const RULE: Rule = Rule {
    id: "missing-claim",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A workload mounts a PersistentVolumeClaim that does not exist",
    docs: Docs {
        what: "Finds pod templates (Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs, Pods) \
               whose `persistentVolumeClaim.claimName` names a claim that neither the apply set nor the \
               cluster state holds (a StatefulSet's own volumeClaimTemplates count as its claims). Only \
               `--complete`, or a `--cluster-state` that lacks it, make the claim known to be missing. A name \
               a typo away from a claim of the same namespace in the apply set, or one that a claim's name \
               starts or ends with (`app` beside `app-data`), is a likely mistake. Otherwise the claim is \
               assumed to be made by another tool, and the finding says so once per claim.",
        why: "The scheduler's volume binding looks each claim up before it places the pod \
              (`podHasPVCs`): a claim that does not exist makes the pod unschedulable, and it stays \
              `Pending` with Warning `FailedScheduling` `persistentvolumeclaim \"<name>\" not found` until \
              a claim of that name appears.",
        example: include_str!("../../tests/fixtures/missing-claim/bad.yaml"),
        fix: "Use the name of the claim the input defines (check `kubectl get pvc -n <namespace>`), or add \
              the claim to the apply set.",
        fixed: include_str!("../../tests/fixtures/missing-claim/good.yaml"),
        known_problems: "Claims are often made by other tools (an operator, a Helm chart applied apart, \
                         `kubectl create`), so without `--cluster-state` or `--complete` a claim missing from \
                         the input is assumed to exist. A custom resource in the claim's namespace may be an \
                         operator's, which creates claims of its own: with one there, even `--complete` leaves \
                         the claim's absence an assumption. Workloads that run no pod (replicas 0, a suspended \
                         CronJob) are not reported.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the claim is known to be missing: the input is the whole cluster (`--complete`), or \
                       the cluster state lacks it, and no custom resource of its namespace may create it",
                example: "bad-complete.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the claim is not in the apply set, and a claim of its namespace there has a name a \
                       typo away or starting or ending with it (a likely mistake)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the claim is not in the apply set and no claim there is near its name: it is \
                       assumed to be made elsewhere, and the finding says so once per claim",
                example: "bad-assumed.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.4.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    // Namespaces that hold a custom resource: an operator's may create claims there.
    let custom: std::collections::HashSet<&str> = ix
        .current_objects()
        .filter(|(id, o)| {
            !ix.is_rejected(*id)
                && crate::model::reaches_api_server(&o.api_version, &o.kind)
                && !crate::model::BUILTIN_GROUPS.contains(&crate::model::group_of(&o.api_version))
        })
        .filter_map(|(_, o)| o.namespace.as_deref())
        .collect();
    // The claims of each namespace, found once (not per missing claim).
    let mut names_by_ns: std::collections::HashMap<&str, Vec<&str>> = Default::default();
    for c in ix.accepted_pvcs() {
        names_by_ns
            .entry(c.namespace.as_str())
            .or_default()
            .push(c.name.as_str());
    }
    // Infos (a claim assumed to be made elsewhere) come once per claim: the first workload
    // that mounts it, with the others as related places.
    let mut assumed: Vec<(ClaimKey<'_>, Vec<Mount<'_>>)> = Vec::new();
    let mut assumed_at: std::collections::HashMap<ClaimKey<'_>, usize> = Default::default();
    for w in ix.accepted_workloads() {
        let runs_no_pod = matches!(w.pods, PodCount::Fixed { count, .. } if count <= 0)
            || (w.kind == WorkloadKind::CronJob && w.suspended);
        if runs_no_pod {
            continue;
        }
        for u in &w.claims {
            let name = u.claim.value.as_str();
            if name.is_empty()
                || crate::template::in_value(name).is_some()
                || ctx.sim.claim_named(&w.namespace, name).is_some()
                // Defined, but the API server rejects it: that is the finding to fix first.
                || ix.pvc(&w.namespace, name).is_some()
            {
                continue;
            }
            let near = near_claim(
                names_by_ns
                    .get(w.namespace.as_str())
                    .map_or(&[][..], Vec::as_slice),
                name,
            );
            let sure = ctx.cluster_known() && !custom.contains(w.namespace.as_str());
            if !sure && near.is_none() {
                let key = (w.namespace.as_str(), name);
                match assumed_at.get(&key) {
                    Some(&i) => assumed[i].1.push((w, &u.claim.field)),
                    None => {
                        assumed_at.insert(key, assumed.len());
                        assumed.push((key, vec![(w, &u.claim.field)]));
                    }
                }
                continue;
            }
            let pending = format!(
                "its pods stay Pending: the scheduler finds no claim {name} (Warning FailedScheduling \"persistentvolumeclaim \\\"{name}\\\" not found\")"
            );
            let f = sink.report(
                ctx,
                w.obj,
                &u.claim.field,
                if sure {
                    format!(
                        "{} {} mounts claim {name}, which does not exist",
                        w.kind, w.name
                    )
                } else {
                    format!(
                        "{} {} mounts claim {name}, not in the input",
                        w.kind, w.name
                    )
                },
            );
            if sure {
                f.severity(Severity::Error)
                    .consequence(Consequence::said(pending));
            } else {
                f.severity(Severity::Warning).consequence(
                    Consequence::said(format!(
                        "if the cluster has no claim {name} either, {pending}"
                    ))
                    .assuming(vec![Str::from(
                        Assumption::ClaimExists(Str::from(format!("{}/{name}", w.namespace)))
                            .describe(),
                    )]),
                );
            }
            match near {
                Some(n) => f
                    .help(format!("did you mean \"{n}\"? mount the claim the input defines"))
                    .suggest_replace(format!("mount claim \"{n}\""), u.claim.field.span, n),
                None => f.help(format!(
                    "add claim {name} to the apply set, or fix the name (check `kubectl get pvc -n {}`)",
                    w.namespace
                )),
            };
        }
    }
    for ((namespace, name), uses) in assumed {
        let (first, field) = uses[0];
        let others = match uses.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more)".to_string(),
            n => format!(" (and {n} more)"),
        };
        let f = sink.report(
            ctx,
            first.obj,
            field,
            format!(
                "{} {}{others} mounts claim {name}, assumed to exist",
                first.kind, first.name
            ),
        );
        f.severity(Severity::Info)
            .consequence(
                Consequence::said(format!(
                    "claim {namespace}/{name} is not in the input; if the cluster has none either, the pods stay Pending (Warning FailedScheduling \"persistentvolumeclaim \\\"{name}\\\" not found\")"
                ))
                .assuming(vec![Str::from(
                    Assumption::ClaimExists(Str::from(format!("{namespace}/{name}"))).describe(),
                )]),
            )
            .help(format!(
                "add claim {name} to the apply set if nothing else creates it (check `kubectl get pvc -n {namespace}`)"
            ));
        for (w, field) in &uses[1..] {
            f.related(
                ctx,
                w.obj,
                field,
                format!("{} {} mounts it too", w.kind, w.name),
            );
        }
    }
}

/// A claim by namespace and name.
type ClaimKey<'a> = (&'a str, &'a str);
/// A workload and the claimName field where it mounts a claim.
type Mount<'a> = (&'a Workload, &'a Field);

/// A claim among `names` (those of the workload's namespace in the apply set) whose name is
/// likely the one meant by `name`: a typo away (as `schema::suggest` judges typos), else the
/// one claim whose name starts with `name-` or ends with `-name` (`app` for `app-data`). A
/// namespace of more than `NEAR_LIMIT` claims is not searched (the search is per missing
/// claim): its findings are infos without a did-you-mean.
fn near_claim<'a>(names: &[&'a str], name: &str) -> Option<&'a str> {
    const NEAR_LIMIT: usize = 1_000;
    if names.len() > NEAR_LIMIT {
        return None;
    }
    crate::schema::suggest(name, names.iter().copied()).or_else(|| {
        let mut around = names.iter().copied().filter(|n| {
            n.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('-'))
                || n.strip_suffix(name).is_some_and(|rest| rest.ends_with('-'))
        });
        around.next().filter(|_| around.next().is_none())
    })
}
