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
    },
    check,
};

/// In-tree types with no deleter: Delete can only fail.
const NO_DELETER: &[&str] = &["nfs", "local", "iscsi", "fc", "cephfs", "flexVolume"];

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for pv in &ctx.index.pvs {
        let Some(policy) = &pv.reclaim else { continue };
        if policy.value != ReclaimPolicy::Delete {
            continue;
        }
        let Some(src) = &pv.source else { continue };
        let Some(t) = kube::in_tree_source(&src.kind) else { continue };
                if t.csi_migrated || pv.provisioned_by.as_ref().is_some_and(|p| !p.value.starts_with("kubernetes.io/")) {
            continue;
        }
        if pv.finalizers.iter().any(|f| f == kube::FINALIZER_PV_CONTROLLER) {
            continue;
        }
        let in_tree_provisioned = pv.provisioned_by.is_some();
        let mut msg = if in_tree_provisioned {
            format!(
                "PersistentVolume {} is an in-tree {} volume with reclaimPolicy Delete and no {} finalizer: deleting the PV before its claim leaks {}",
                pv.name,
                src.kind,
                kube::FINALIZER_PV_CONTROLLER,
                pv.backing_storage()
            )
        } else {
            format!(
                "PersistentVolume {} is a statically created in-tree {} volume with reclaimPolicy Delete: no finalizer protects it (the external-provisioner's covers CSI volumes, kube-controller-manager's only volumes it provisioned), so deleting the PV before its claim leaks {}",
                pv.name,
                src.kind,
                pv.backing_storage()
            )
        };
        if NO_DELETER.contains(&src.kind.as_str()) {
            msg.push_str(&format!(
                "; and there is no in-tree deleter for {}: when the claim is deleted the PV goes Failed (Warning VolumeFailedDelete \"error getting deleter volume plugin for volume \\\"{}\\\": no volume plugin matched\") and the data stays",
                src.kind, pv.name
            ));
        } else if src.kind == "hostPath" {
            msg.push_str("; the in-tree hostPath deleter only removes paths under /tmp/, for any other path the PV goes Failed (Warning VolumeFailedDelete)");
        }
        sink.report(ctx, pv.obj, &policy.field, msg)
            .help("statically created in-tree volumes are best kept with Retain and cleaned up deliberately")
            .suggest("keep the data under an explicit policy", Some("persistentVolumeReclaimPolicy: Retain".into()));
    }
}
