use super::prelude::*;
use crate::facts::claim_view;
use crate::sim::{SimPv, SimPvc};

pub const RULE: Rule = Rule {
    id: "unbindable-claim",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim (or StatefulSet claim) stays Pending: no volume matches and nothing provisions one",
    docs: Docs {
        what: "Simulates the PV controller over the input (and `--cluster-state`) and reports every claim that \
               ends `Pending` for good — not one that merely waits for its first consumer. It names the closest \
               candidate volume and the first check it fails, in the controller's order: class, capacity, access \
               modes, volumeMode, selector; or says that there are no volumes and no provisioner.",
        why: "A Pending claim keeps its pods from starting: they stay Pending too (\"pod has unbound immediate \
              PersistentVolumeClaims\"), and nothing changes until someone adds a volume that fits or a \
              StorageClass that provisions one.",
        example: include_str!("../../tests/fixtures/unbindable-claim/bad.yaml"),
        fix: "Make the claim fit a volume (class, size, access modes, volumeMode, selector), add a volume that \
              fits it, or give it a StorageClass with a provisioner.",
        fixed: include_str!("../../tests/fixtures/unbindable-claim/good.yaml"),
    },
    check,
};

/// The checks of FindMatchingVolume a volume fails for a claim, in the controller's order.
fn failed_checks(pv: &SimPv, c: &SimPvc) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let class = c.class.clone().unwrap_or_default();
    if pv.class != class {
        let show = |s: &str| if s.is_empty() { "no class".to_string() } else { format!("class \"{s}\"") };
        out.push(("class", format!("it has {} and the claim has {}", show(&pv.class), show(&class))));
    }
    if let (Some(cap), Some(req)) = (&pv.capacity, &c.request) {
        if cap < req {
            out.push(("capacity", format!("it has {cap} and the claim requests {req}")));
        }
    }
    if !pv.modes.contains(c.modes) {
        out.push(("access modes", format!("it offers {} and the claim asks for {}", pv.modes, c.modes)));
    }
    if pv.volume_mode != c.volume_mode {
        out.push(("volumeMode", format!("it is {} and the claim wants {}", pv.volume_mode.as_str(), c.volume_mode.as_str())));
    }
    if c.selector.as_ref().is_some_and(|s| !s.matches(&pv.labels)) {
        out.push(("selector", "its labels do not match the claim's selector".into()));
    }
    out
}

/// The free volume failing the fewest of the controller's checks for this claim, with the
/// checks it fails (the first is the one the controller hits first).
fn closest<'w>(w: &'w crate::sim::World, c: &SimPvc) -> Option<(&'w SimPv, Vec<(&'static str, String)>)> {
    w.pvs
        .iter()
        .filter(|p| c.volume_name.as_ref().is_none_or(|v| *v == p.name))
        .filter(|p| p.claim_ref.as_ref().is_none_or(|(ns, n, _)| *ns == c.namespace && *n == c.name))
        .filter(|p| p.phase != VolumePhase::Failed)
        .map(|p| (p, failed_checks(p, c)))
        .filter(|(_, f)| !f.is_empty())
        .min_by_key(|(_, f)| f.len())
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
        let w = ctx.sim;
    let reserved: std::collections::HashSet<(&str, &str)> = w
        .pvs
        .iter()
        .filter_map(|p| p.claim_ref.as_ref().map(|(ns, n, _)| (ns.as_str(), n.as_str())))
        .collect();
    let pv_classes: std::collections::HashSet<&str> = w.pvs.iter().map(|p| p.class.as_str()).collect();
    let mut memo = std::collections::HashMap::new();
    for c in &w.claims {
        if c.phase != ClaimPhase::Pending || c.events.iter().any(|e| e.reason == "WaitForFirstConsumer") {
            continue;
        }
        let Some(view) = claim_view(ctx.index, &c.origin) else { continue };
        let key = facts::claim_key(view);
        // Claims of the same shape that no volume names have the same closest volume.
        let reserved_for_it = reserved.contains(&(c.namespace.as_str(), c.name.as_str()));
        let shape = (c.volume_name.is_none() && c.selector.is_none() && !reserved_for_it).then(|| {
            (c.class.clone(), c.modes, c.request.as_ref().map(|q| q.to_string()), c.volume_mode)
        });
        let closest = match &shape {
            Some(k) => memo.entry(k.clone()).or_insert_with(|| closest(w, c)).clone(),
            None => closest(w, c),
        };
        let (field, candidate) = match &closest {
            Some((pv, fails)) => (
                facts::claim_field(ctx.index, view, fails[0].0),
                format!("the closest volume, {}, fails the {} check: {}", pv.name, fails[0].0, fails[0].1),
            ),
            None if w.pvs.is_empty() => (
                facts::claim_field(ctx.index, view, "class"),
                "there are no PersistentVolumes and no provisioner for its class".to_string(),
            ),
            None => (
                facts::claim_field(ctx.index, view, "class"),
                "every volume is taken by another claim".to_string(),
            ),
        };
        let event = c
            .events
            .last()
            .map(|e| format!(" ({} {} {:?})", e.kind, e.reason, e.message))
            .unwrap_or_default();
        let why = c.reasons.iter().rev().find(|r| !r.starts_with("volume ")).or(c.reasons.last()).cloned().unwrap_or_default();
        let what = match &c.origin {
            Origin::Template { .. } => format!("claim {}/{} (from StatefulSet {})", c.namespace, c.name, view.template_of.as_deref().unwrap_or("?")),
            _ => format!("claim {}/{}", c.namespace, c.name),
        };
        let mut msg = format!("{what} stays Pending{event}: {why}; {candidate}");
        if c.order_dependent {
            msg.push_str("; another claim took a volume that matches it too, so which one stays Pending depends on the order they are created");
        }
        let class = c.class.clone().unwrap_or_default();
                let cause = if let Some(vol) = &c.volume_name {
            let stale = w
                .pvs
                .iter()
                .any(|p| &p.name == vol && p.claim_ref.as_ref().is_some_and(|(ns, n, _)| *ns == c.namespace && *n == c.name));
            if c.events.iter().any(|e| e.reason == "FailedBinding") {
                if stale { format!("stale-uid:{vol}") } else { format!("conflict:{vol}") }
            } else if c.events.iter().any(|e| e.reason == "VolumeMismatch") {
                format!("prebound:{key}")
            } else {
                format!("dangling:{key}")
            }
        } else if reserved_for_it {
            format!("prebound:{key}")
        } else if c.events.iter().any(|e| e.reason == "ProvisioningFailed") && !pv_classes.contains(class.as_str()) {
            format!("class-not-found:{key}")
        } else if matches!(c.origin, Origin::Template { .. }) {
            format!("pool:{}/{}", c.namespace, view.template_of.clone().unwrap_or_default())
        } else if c.class_defaulted {
            format!("implicit-default:{key}")
        } else {
            format!("unbindable:{key}")
        };
        let sev = if ctx.cluster_known || c.volume_name.is_none() { Severity::Error } else { Severity::Warning };
        sink.report(ctx, view.obj, &field, msg)
            .severity(sev)
            .consequence_of(cause)
            .help("make the claim fit an available volume, add a volume that fits, or use a StorageClass with a provisioner");
    }
}
