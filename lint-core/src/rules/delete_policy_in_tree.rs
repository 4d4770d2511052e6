use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "delete-policy-in-tree",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "An in-tree volume (nfs, hostPath, rbd, iscsi, ...) has reclaimPolicy Delete, which nothing protects",
    docs: Docs {
        what: "Finds PersistentVolumes with `persistentVolumeReclaimPolicy: Delete` whose source is an in-tree \
               volume type that is not served through CSI migration (nfs, hostPath, local, rbd, cephfs, iscsi, \
               fc, glusterfs, flexVolume, ...) and that no external provisioner created.",
                why: "HonorPVReclaimPolicy's finalizers cover CSI and CSI-migrated volumes, and in-tree volumes only \
              when kube-controller-manager provisioned them itself (`kubernetes.io/pv-controller`): deleting the \
              PV object of any other in-tree volume before its claim leaks the storage. And for types without an \
              in-tree deleter (nfs, local, iscsi, fc, cephfs) Delete does nothing useful at all: when the claim is \
              deleted the PV goes `Failed` with Warning `VolumeFailedDelete` (\"error getting deleter volume \
              plugin for volume ...: no volume plugin matched\") and the data stays.",
        example: include_str!("../../tests/fixtures/delete-policy-in-tree/bad.yaml"),
        fix: "Use `persistentVolumeReclaimPolicy: Retain` for statically created in-tree volumes and clean up \
              deliberately, or move to a CSI driver that provisions and deletes the storage.",
        fixed: include_str!("../../tests/fixtures/delete-policy-in-tree/good.yaml"),
        known_problems: "Deleting a PV before its claim is a race for statically created in-tree volumes (the PV protection \
                         controller and the delete operation); pvlint reports the usual outcome, a leak.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a statically created in-tree volume (not CSI-migrated, not made by an external \
                       provisioner) has reclaimPolicy Delete, and either no finalizer holds its PV object or \
                       kube-controller-manager has no deleter for its type",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    for (pv, policy, vid) in ctx.volumes_with_policy(ReclaimPolicy::Delete) {
        let Some(src) = &pv.source else { continue };
        let Some(t) = kube::in_tree_source(&src.kind) else {
            continue;
        };
        if t.csi_migrated
            || pv
                .provisioned_by
                .as_ref()
                .is_some_and(|p| !p.value.starts_with("kubernetes.io/"))
        {
            continue;
        }
        // Protected when kube-controller-manager holds it with its finalizer (in-tree
        // provisioned volumes, HonorPVReclaimPolicy) and can delete it.
        let first = w.if_released(vid, true);
        let later = w.if_released(vid, false);
        if first.storage != Storage::Leaked && later.storage.is_deleted() {
            continue;
        }
        let headline = format!(
            "in-tree {} PersistentVolume {} has reclaimPolicy Delete that nothing honours",
            src.kind, pv.name
        );
        let later_text = match &later.storage {
            s if s.is_deleted() => "when its claim is deleted, kube-controller-manager deletes the storage".to_string(),
            Storage::DeleteFailed { error } => format!(
                "when its claim is deleted the PV goes Failed (Warning VolumeFailedDelete \"{error}\") and the storage stays"
            ),
            Storage::Kept
            | Storage::Provisioned { .. }
            | Storage::Deleted { .. }
            | Storage::LeftToProvisioner { .. }
            | Storage::Archived { .. }
            | Storage::KeptByProvisioner { .. }
            | Storage::Recycled
            | Storage::RecycleFailed { .. }
            | Storage::Leaked => "when its claim is deleted the storage stays".to_string(),
        };
        let first_text = match &first.storage {
            Storage::Leaked => format!("if the PV is deleted before its claim, {} leaks", pv.backing_storage()),
            Storage::Kept
            | Storage::Provisioned { .. }
            | Storage::Deleted { .. }
            | Storage::LeftToProvisioner { .. }
            | Storage::Archived { .. }
            | Storage::KeptByProvisioner { .. }
            | Storage::Recycled
            | Storage::DeleteFailed { .. }
            | Storage::RecycleFailed { .. } => "if the PV is deleted before its claim, its finalizer holds it until the storage is dealt with".to_string(),
        };
        sink.report(ctx, pv.obj, &policy.field, headline)
            .consequence(Consequence::said(format!("{later_text}; {first_text}")).with_event(later.event.map(crate::sim::Event::into_text)))
            .help("statically created in-tree volumes are best kept with Retain and cleaned up deliberately")
            .suggest_replace("keep the data under an explicit policy: Retain", policy.field.span, "Retain");
    }
}
