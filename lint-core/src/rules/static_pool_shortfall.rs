use super::prelude::*;
use crate::model::{PodCount, WorkloadKind};

pub const RULE: Rule = Rule {
    id: "static-pool-shortfall",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A StatefulSet needs more matching static volumes than the pool has: later ordinals stay Pending",
    docs: Docs {
        what: "For a StatefulSet whose volumeClaimTemplate can only bind pre-created volumes (class \"\", a class \
               with `kubernetes.io/no-provisioner`, or a class name no StorageClass defines), simulates the claims \
               `<template>-<statefulset>-<ordinal>` for every replica against the pool of volumes and names the \
               ordinals left without one.",
        why: "Each replica needs its own volume. With N replicas and M < N matching volumes, the claims of the \
              other ordinals stay `Pending` (Warning `ProvisioningFailed` when the class does not exist), their \
              pods stay Pending (\"pod has unbound immediate PersistentVolumeClaims\"), and with the default \
              `podManagementPolicy: OrderedReady` the StatefulSet does not even create the pods after the first \
              stuck one.",
        example: include_str!("../../tests/fixtures/static-pool-shortfall/bad.yaml"),
        fix: "Create one matching volume per replica (same class, at least the requested size, the access modes), \
              lower `replicas`, or use a StorageClass with a provisioner.",
        fixed: include_str!("../../tests/fixtures/static-pool-shortfall/good.yaml"),
        known_problems: "Which ordinal gets which volume depends on the order the claims are created; the count of ordinals \
                         left Pending does not. A class used only by the input's static volumes is assumed to have no \
                         StorageClass behind it, and the finding says so. Volumes another apply set of \
                         the input defines count toward the pool, as that set's classes are assumed installed: the \
                         ordinals they fit are not reported.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the pool is known to be all there is (the input is the whole cluster: `--complete`, or a \
                       cluster state) and has fewer matching volumes than the replicas",
                example: "bad-complete.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the cluster may hold more volumes of the pool than the input (an assumption the finding \
                       names), and the input holds part of the pool",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the same assumption, for a pool a static provisioner fills at run time (a \
                       `kubernetes.io/no-provisioner` class, or a class only the input's local volumes use), or \
                       one the input holds none of",
                example: "bad-no-provisioner.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

/// How many short pods of a Parallel StatefulSet a message names before it counts the rest.
const SHORT_NAMED: usize = 3;

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let w = ctx.sim;
    for sts in ix
        .accepted_workloads()
        .filter(|x| x.kind == WorkloadKind::StatefulSet)
    {
        let PodCount::Fixed { count, field } = &sts.pods else {
            continue;
        };
        let mine = w.claims_of_statefulset(Side::Manifest, sts.obj);
        let several = ix.template_of(sts.obj, 1).is_some();
        for template in (0..).map_while(|n| ix.template_of(sts.obj, n)) {
            // Claims an OrderedReady StatefulSet never creates are not in the world.
            let claims: Vec<ClaimId> = mine
                .iter()
                .copied()
                .filter(|&c| w.claim(c).exists && !w.claim(c).unborn)
                .filter(|&c| {
                    w.claim(c)
                        .template_of
                        .as_ref()
                        .is_some_and(|t| t.template == template.name)
                })
                .collect();
            let pending: Vec<ClaimId> = claims
                .iter()
                .copied()
                .filter(|&c| {
                    w.is_static_pool_claim(c)
                        && matches!(
                            w.pending_reason(c),
                            Some(
                                Pending::NoMatchNoClass
                                    | Pending::ClassNotFound { .. }
                                    | Pending::ProvisionerUnavailable { .. }
                            )
                        )
                })
                .collect();
            let Some(&first) = pending.first() else {
                continue;
            };
            let bound: Vec<String> = claims
                .iter()
                .filter_map(|&c| w.binding_of(c))
                .filter(|&v| !matches!(w.volume(v).storage, Storage::Provisioned { .. }))
                .map(|v| w.volume(v).name.to_string())
                .collect();
            // Another apply set's volumes join the pool when that set is applied too, as its
            // classes are assumed to be: the ordinals they fit are not short (with OrderedReady
            // those after the first stuck one are not created here, and are counted too).
            // `replicas` may be huge: only the ordinals a volume elsewhere can reach are looked
            // at (`pool_elsewhere_reach`: the first ones, and those a volume reserves), and a few
            // after them to name; the rest are counted.
            let bound_ordinals: Vec<i64> = claims
                .iter()
                .filter(|&&c| w.binding_of(c).is_some())
                .filter_map(|&c| w.claim(c).template_of.as_ref().map(|t| t.ordinal))
                .collect();
            let end = sts.ordinals_start.saturating_add(*count);
            let in_range = |o: i64| o >= sts.ordinals_start && o < end;
            let unbound_total =
                *count - bound_ordinals.iter().filter(|&&o| in_range(o)).count() as i64;
            let (room, reserved) = w.pool_elsewhere_reach(first);
            let mut ordinals_unbound: Vec<i64> = (0..*count)
                .map(|n| sts.ordinals_start.saturating_add(n))
                .filter(|o| !bound_ordinals.contains(o))
                .take(room.saturating_add(SHORT_NAMED))
                .collect();
            ordinals_unbound.extend(
                reserved
                    .iter()
                    .filter_map(|n| kube::template_claim_ordinal(&template.name, &sts.name, n))
                    .filter(|&o| in_range(o) && !bound_ordinals.contains(&o)),
            );
            ordinals_unbound.sort_unstable();
            ordinals_unbound.dedup();
            let unbound: Vec<Str> = ordinals_unbound
                .iter()
                .map(|&o| Str::from(kube::template_claim_name(&template.name, &sts.name, o)))
                .collect();
            let elsewhere = w.pool_elsewhere(first, &unbound);
            if elsewhere.len() as i64 == unbound_total {
                continue;
            }
            let class = w.claim(first).class_name();
            let class_desc = if class.is_empty() {
                "no class".to_string()
            } else {
                format!("class \"{class}\"")
            };
            let names: Vec<&str> = pending
                .iter()
                .map(|&c| w.claim(c).key.name.as_str())
                .collect();
            let ordinals: Vec<String> = pending
                .iter()
                .filter_map(|&c| {
                    w.claim(c)
                        .template_of
                        .as_ref()
                        .map(|t| format!("{}-{}", sts.name, t.ordinal))
                })
                .collect();
            // OrderedReady: the ordinals after the first stuck pod, and their claims, are never
            // created (stateful_set_control.go waits for each pod to be Running and Ready).
            let from = sts.ordinals_start.saturating_add(claims.len() as i64);
            // Named one by one when few; a range otherwise (replicas may be large).
            let never: Vec<String> = if end.saturating_sub(from) <= 3 {
                (from..end).map(|n| format!("{}-{n}", sts.name)).collect()
            } else {
                vec![format!("{s}-{from} to {s}-{}", end - 1, s = sts.name)]
            };
            let mut cons = ctx.claim_consequence(first);
            // The short ordinals named (those within reach), and how many there are in all.
            let short: Vec<usize> = (0..unbound.len())
                .filter(|n| !elsewhere.iter().any(|(e, _)| e == n))
                .collect();
            let short_total = unbound_total - elsewhere.len() as i64;
            let (verb, start) = if names.len() == 1 {
                ("stays", "never starts")
            } else {
                ("stay", "never start")
            };
            if elsewhere.is_empty() {
                cons.summary = Str::from(format!(
                    "{} {verb} Pending, so {} {} {start}{}; {}",
                    names.join(", "),
                    if ordinals.len() == 1 { "pod" } else { "pods" },
                    ordinals.join(", "),
                    if never.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", and with podManagementPolicy OrderedReady {} and {} claims are never created",
                            never.join(", "),
                            if end.saturating_sub(from) == 1 { "its" } else { "their" }
                        )
                    },
                    cons.summary
                ));
            } else {
                // What the other set's volumes leave short: the first short ordinal's pod never
                // starts, and OrderedReady creates none after it.
                let first_short = short[0];
                let fitted: Vec<String> = elsewhere
                    .iter()
                    .map(|(n, v)| format!("{} to {}", v.name, unbound[*n]))
                    .collect();
                // OrderedReady waits on the first short pod and creates none after it; Parallel
                // creates them all, each short one Pending.
                let (claims_short, pods_short): (Vec<&str>, Vec<String>) = if sts.parallel_pods {
                    short
                        .iter()
                        .take(SHORT_NAMED)
                        .map(|&n| {
                            (
                                unbound[n].as_str(),
                                format!("{}-{}", sts.name, ordinals_unbound[n]),
                            )
                        })
                        .unzip()
                } else {
                    (
                        vec![unbound[first_short].as_str()],
                        vec![format!("{}-{}", sts.name, ordinals_unbound[first_short])],
                    )
                };
                let unnamed = short_total - pods_short.len() as i64;
                let rest = if sts.parallel_pods && unnamed > 0 {
                    format!(
                        ", nor {} {unnamed} more",
                        if unnamed == 1 { "does" } else { "do" }
                    )
                } else if short_total > 1 && !sts.parallel_pods {
                    format!(
                        ", and with podManagementPolicy OrderedReady the {} ordinal(s) after it are never created",
                        short_total - 1
                    )
                } else {
                    String::new()
                };
                cons.summary = Str::from(format!(
                    "with the volumes another apply set defines bound ({}), {} {} {} no volume of {class_desc} and {} Pending, so {} {} never {}{rest}",
                    fitted.join(", "),
                    if claims_short.len() == 1 { "claim" } else { "claims" },
                    claims_short.join(", "),
                    if claims_short.len() == 1 { "finds" } else { "find" },
                    if claims_short.len() == 1 { "stays" } else { "stay" },
                    if pods_short.len() == 1 { "pod" } else { "pods" },
                    pods_short.join(", "),
                    if pods_short.len() == 1 { "starts" } else { "start" },
                ));
            }
            // Without the cluster state the pool may have more volumes elsewhere: a warning when
            // the input holds part of the pool, a note when it holds none of it.
            // A no-provisioner class's volumes are usually created by a static provisioner at
            // runtime: the pool in the input is rarely all of it, so only a note.
            // The same for a class the input only uses as a label on local volumes: the local
            // static provisioner's pattern (it creates `local` PVs of its class as it finds
            // disks). Other static volumes (nfs, iscsi) are made by hand: the pool is what
            // the input shows.
            let local_pool = !class.is_empty()
                && matches!(w.pending_reason(first), Some(Pending::ClassNotFound { .. }))
                && w.volumes()
                    .filter(|(_, v)| {
                        v.spec.class == class
                            && !matches!(v.origin, crate::sim::Origin::Provisioned { .. })
                    })
                    .all(|(_, v)| v.spec.source.field() == "local");
            let static_provisioned = matches!(
                w.pending_reason(first),
                Some(Pending::ProvisionerUnavailable { provisioner, .. }) if provisioner == kube::NO_PROVISIONER
            ) || local_pool;
            let static_provisioned = static_provisioned && !ctx.cluster_known();
            let sev = if cons.assumptions.is_empty() {
                Severity::Error
            } else if !bound.is_empty() && !static_provisioned {
                Severity::Warning
            } else {
                Severity::Info
            };
            let mut have = if bound.is_empty() {
                "none".to_string()
            } else {
                format!("{} ({})", bound.len(), bound.join(", "))
            };
            if !elsewhere.is_empty() {
                let names: Vec<String> = elsewhere
                    .iter()
                    .map(|(_, v)| format!("{} in {}", v.name, v.file))
                    .collect();
                have.push_str(&format!(
                    " here and {} in another apply set ({})",
                    elsewhere.len(),
                    names.join(", ")
                ));
            }
            let short = count - bound.len() as i64 - elsewhere.len() as i64;
            let at = field.clone().unwrap_or_else(|| ix.object(sts.obj).whole());
            let req = template
                .request
                .as_ref()
                .map(|r| r.value.to_string())
                .unwrap_or_else(|| "any size".into());
            let f = sink.report(
                ctx,
                sts.obj,
                &at,
                format!(
                    "StatefulSet {} needs {count} volumes of {class_desc}{}; the static pool has {have}",
                    sts.name,
                    if several { format!(" for volumeClaimTemplate {}", template.name) } else { String::new() }
                ),
            );
            f.severity(sev)
                .consequence(cons)
                .root_cause(CauseKey::Pool { namespace: Str::from(&sts.namespace), statefulset: Str::from(&sts.name) })
                .help(format!(
                    "create {short} more volume(s) of {class_desc} with at least {req} and {}, or use a StorageClass with a provisioner",
                    template.access_modes
                ));
        }
    }
}
