use super::prelude::*;
use crate::model::{PodCount, WorkloadKind};
use crate::sim::Storage;

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
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
        let w = ctx.sim;
    let static_classes: std::collections::HashSet<&str> = w
        .pvs
        .iter()
        .filter(|p| !matches!(p.storage, Storage::Provisioned { .. }))
        .map(|p| p.class.as_str())
        .collect();
    for sts in ix.workloads.iter().filter(|x| x.kind == WorkloadKind::StatefulSet) {
        let PodCount::Fixed { count, field } = &sts.pods else { continue };
                let mine: Vec<&crate::sim::SimPvc> =
            w.template_claims.get(&sts.obj).into_iter().flatten().map(|&i| &w.claims[i]).collect();
        for (ti, template) in (0..).map_while(|n| ix.template_of(sts.obj, n)).enumerate() {
            let claims: Vec<_> = mine
                .iter()
                .copied()
                .filter(|c| matches!(c.origin, Origin::Template { template: t, .. } if t == ti))
                .collect();
            let class = claims.first().and_then(|c| c.class.clone()).unwrap_or_default();
            let provisions = ix
                .class(&class)
                .and_then(|sc| sc.provisioner.as_ref())
                .is_some_and(|p| p.value != kube::NO_PROVISIONER)
                || w.classes.iter().any(|c| c.name == class && c.assumed);
            // Static by intent: class "", a no-provisioner class, or a class the pool's volumes use.
            let static_class = class.is_empty()
                || ix.class(&class).is_some_and(|sc| sc.provisioner.as_ref().is_some_and(|p| p.value == kube::NO_PROVISIONER))
                || static_classes.contains(class.as_str());
            if claims.iter().any(|c| c.class_defaulted) || provisions || !static_class {
                continue;
            }
            let pending: Vec<_> = claims.iter().filter(|c| c.phase == ClaimPhase::Pending).collect();
            if pending.is_empty() {
                continue;
            }
            let bound: Vec<String> = claims
                .iter()
                .filter_map(|c| c.volume_name.clone().filter(|_| c.phase == ClaimPhase::Bound))
                .filter(|v| w.pv(v).is_some_and(|p| !matches!(p.storage, Storage::Provisioned { .. })))
                .collect();
            let ordinals: Vec<String> = pending
                .iter()
                .filter_map(|c| c.name.rsplit('-').next().map(|o| format!("{}-{o}", sts.name)))
                .collect();
            let req = template.request.as_ref().map(|r| r.value.to_string()).unwrap_or_else(|| "any size".into());
            let class_desc = if class.is_empty() { "no class".to_string() } else { format!("class \"{class}\"") };
            let nothing = if class.is_empty() {
                "volumes without a class are never provisioned".to_string()
            } else {
                format!("nothing provisions {class_desc}")
            };
            let event = pending[0]
                .events
                .last()
                .map(|e| format!(" ({} {} {:?})", e.kind, e.reason, e.message))
                .unwrap_or_default();
            let policy = ix
                .object(sts.obj)
                .root
                .at("spec.podManagementPolicy")
                .and_then(crate::node::Node::as_str)
                .unwrap_or("OrderedReady");
            let ordered = if policy == "OrderedReady" && pending.len() > 1 {
                format!("; with podManagementPolicy OrderedReady the StatefulSet creates no pod after {} while it is Pending", ordinals[0])
            } else {
                String::new()
            };
            let have = if bound.is_empty() { "none".to_string() } else { format!("{} ({})", bound.len(), bound.join(", ")) };
            let msg = format!(
                "StatefulSet {} needs {count} volumes for volumeClaimTemplate {} ({class_desc}, {req}, {}) and {nothing}, but the pool has {have}: {} stay Pending{event}, so pods {} never start{ordered}",
                sts.name,
                template.name,
                template.access_modes,
                pending.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "),
                ordinals.join(", "),
            );
            let at = field.clone().unwrap_or_else(|| ix.object(sts.obj).whole());
            sink.report(ctx, sts.obj, &at, msg)
                .root_cause(format!("pool:{}/{}", sts.namespace, sts.name))
                .help(format!(
                    "create {} more volume(s) of {class_desc} with at least {req} and {}, or use a StorageClass with a provisioner",
                    pending.len(),
                    template.access_modes
                ));
        }
    }
}
