use super::prelude::*;
use crate::model::live::{csi_unique_name, LiveAttachment, LivePod, OUT_OF_SERVICE_TAINT};

pub const RULE: Rule = Rule {
    id: "stale-volume-attachment",
    family: Family::RwoSurge,
    severity: Severity::Error,
    summary: "Live cluster: a volume stays attached to a node no pod there uses, while a pod elsewhere waits for it",
    docs: Docs {
        what: "Runs on a live cluster's objects (`pvlint cluster`). Finds VolumeAttachments that keep a volume \
               attached to a node where no pod using its claim runs any more, while a pod that uses the claim is \
               scheduled to another node and waits (`Pending`). The volume must attach to one node at a time \
               (ReadWriteOnce or ReadWriteOncePod, as the attach/detach controller's `IsMultiAttachAllowed` \
               decides). It says whether kubelet on the old node still reports the volume mounted \
               (`status.volumesInUse`), whether that node is Ready, and whether it carries the \
               `node.kubernetes.io/out-of-service` taint. It tells a volume that cannot come loose by itself \
               (kubelet still reports it mounted, the node is gone or not Ready without the taint, or the last \
               detach failed) from a detach under way, as after every move of a ReadWriteOnce pod.",
        why: "This is the force-deleted pod of seed 003: the pod object is gone, but the volume was never \
              unmounted and detached from its old node. The waiting pod gets Warning `FailedAttachVolume` \
              \"Multi-Attach error for volume ... Volume is already exclusively attached to one node and can't be \
              attached to another\" and never starts. The attach/detach controller does not detach a volume the \
              node still reports mounted, unless the node is unhealthy for maxWaitForUnmountDuration (6 minutes) \
              or carries the out-of-service taint (reconciler.go).",
        example: include_str!("../../tests/fixtures/stale-volume-attachment/bad.yaml"),
        fix: "If the old node is down, confirm it is and add the taint `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` \
              (non-graceful node shutdown): the controller force-detaches. If it is up, find what still holds \
              the volume there (the seed's `rbd unmap`, a leftover mount) and release it; kubelet then reports \
              it unmounted and the controller detaches. Do not delete the VolumeAttachment while the volume may \
              still be mounted: writing from two nodes corrupts the file system.",
        fixed: include_str!("../../tests/fixtures/stale-volume-attachment/good.yaml"),
        known_problems: "pvlint sees one moment: a detach under way is reported as one; if it is still there \
                         a few minutes later, the detach is failing. Volumes whose unique name pvlint cannot derive \
                         (non-CSI) are judged without status.volumesInUse.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the volume cannot come loose by itself: kubelet on the old node still reports it mounted, \
                       the node is gone or not Ready without the out-of-service taint, or the last detach failed",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "a detach under way: the old node is Ready and no longer reports the volume mounted",
                example: "bad-detach-under-way.yaml",
            },
        ],
    },
    scope: Scope::Cluster,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(live) = ctx.live else {
        return;
    };
    let w = ctx.sim;
    for va in &live.attachments {
        if !va.attached || va.deleting {
            continue;
        }
        let Some(pv_name) = &va.volume else { continue };
        let Some(vid) = w.volume_named(pv_name) else {
            continue;
        };
        let v = w.volume(vid);
        // IsMultiAttachAllowed: no modes, ReadWriteMany or ReadOnlyMany attach to many nodes.
        let modes = v.spec.modes;
        if modes.is_empty() || !modes.exclusive_only() {
            continue;
        }
        let Some(cr) = &v.claim_ref else { continue };
        let pods: Vec<&LivePod> = live
            .pods_using(&cr.key.namespace, &cr.key.name)
            .filter(|p| !p.phase.finished())
            .collect();
        let on_node = |p: &&LivePod| p.node.as_ref().is_some_and(|n| n.value == va.node.value);
        if pods.iter().any(on_node) {
            continue; // a pod there still uses it (or is terminating): detaching waits for it
        }
        let Some(waiting) = pods.iter().find(|p| {
            p.phase == crate::model::live::PodPhase::Pending
                && !p.deleting
                && p.node.as_ref().is_some_and(|n| n.value != va.node.value)
        }) else {
            continue;
        };
        report(ctx, sink, va, v, waiting, &cr.key.to_string());
    }
}

fn report(
    ctx: &Context<'_>,
    sink: &mut Sink<'_>,
    va: &LiveAttachment,
    v: &crate::sim::Volume,
    waiting: &LivePod,
    claim: &str,
) {
    let live = ctx.live.expect("checked");
    let old = &va.node.value;
    let new = waiting
        .node
        .as_ref()
        .map(|n| n.value.clone())
        .unwrap_or_default();
    let node = live.node(old);
    let handle = ctx
        .index
        .pv(&v.name)
        .and_then(|pv| pv.source.as_ref())
        .and_then(|s| {
            Some(csi_unique_name(
                s.csi_driver.as_deref()?,
                s.handle.as_deref()?,
            ))
        });
    let mounted = match (node, &handle) {
        (Some(n), Some(h)) => Some(n.volumes_in_use.contains(h.as_str())),
        _ => None,
    };
    let mut state = Vec::new();
    match node {
        None => state.push(format!("node {old} no longer exists in the cluster")),
        Some(n) => {
            match n.ready {
                Some(true) => state.push(format!("node {old} is Ready")),
                Some(false) => state.push(format!("node {old} is not Ready")),
                None => state.push(format!("node {old} reports no Ready condition")),
            }
            if n.out_of_service {
                state.push(format!(
                    "it has the {OUT_OF_SERVICE_TAINT} taint, so the controller force-detaches"
                ));
            }
        }
    }
    match mounted {
        Some(true) => state.push("kubelet there still reports the volume mounted (status.volumesInUse), so the attach/detach controller does not detach it".into()),
        Some(false) => state.push("kubelet there no longer reports it mounted, so the detach should go ahead: if it stays, the detach is failing".into()),
        None => {}
    }
    if let Some(e) = &va.detach_error {
        state.push(format!("the last detach failed: {e}"));
    }
    let unhealthy = node.is_none_or(|n| n.ready != Some(true));
    // Stuck only when something keeps it: kubelet still reports it mounted (the attach/detach
    // reconciler never detaches what a healthy node reports mounted), the node is gone or not
    // Ready without the out-of-service taint (it waits maxWaitForUnmountDuration, 6 minutes,
    // first), or the last detach failed. Otherwise a detach is under way: every move of a ReadWriteOnce pod (a
    // Recreate rollout, a reschedule) looks like this for seconds to a minute.
    let stuck = mounted == Some(true)
        || (unhealthy && !node.is_some_and(|n| n.out_of_service))
        || va.detach_error.is_some();

    let help = if !stuck {
        format!("a detach under way, as after every move of a ReadWriteOnce pod: if the volume is still attached to {old} after a few minutes, the detach is failing: kubectl describe volumeattachment {} and the CSI driver's attacher logs say why", va.name)
    } else if node.is_some_and(|n| n.out_of_service) {
        "the out-of-service taint is set: the detach is forced; if it still does not happen, check the CSI driver's attacher logs".to_string()
    } else if unhealthy {
        format!("if node {old} is really shut down, taint it: kubectl taint node {old} {OUT_OF_SERVICE_TAINT}=nodeshutdown:NoExecute (the controller then force-detaches); do not delete the VolumeAttachment while the volume may still be mounted there")
    } else {
        format!("node {old} is up: find what still holds the volume there (a leftover mount or mapped device after a force-deleted pod, like seed 003's rbd unmap) and release it; kubelet then reports it unmounted and the controller detaches it")
    };
    let f = sink.report(
        ctx,
        va.obj,
        &va.node.field,
        if stuck {
            format!(
                "volume {} stays attached to {old}, where no pod uses it",
                v.name
            )
        } else {
            format!(
                "volume {} is still attached to {old}, where no pod uses it",
                v.name
            )
        },
    );
    f.consequence(Consequence::said(format!(
            "no pod on {old} uses claim {claim} any more, but VolumeAttachment {} ({}) keeps volume {} ({}) attached there; pod {}/{} on {new} gets Warning FailedAttachVolume \"Multi-Attach error for volume \\\"{}\\\" Volume is already exclusively attached to one node and can't be attached to another\" and {}; {}",
            va.name,
            va.attacher,
            v.name,
            v.spec.modes,
            waiting.namespace,
            waiting.name,
            v.name,
            if stuck {
                "does not start"
            } else {
                "waits until the detach finishes"
            },
            state.join("; ")
        )))
    .help(help);
    if !stuck {
        f.severity(Severity::Info);
    }
    if let Some(pod_node) = &waiting.node {
        f.related.push(crate::finding::Related {
            message: Str::from(format!(
                "pod {} waits for the volume on {}",
                waiting.name, pod_node.value
            )),
            location: ctx.location(ctx.obj(waiting.obj), &pod_node.field),
        });
    }
}
