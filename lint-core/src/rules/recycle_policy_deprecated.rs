use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "recycle-policy-deprecated",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "reclaimPolicy Recycle is deprecated, and fails for anything but nfs and hostPath",
    docs: Docs {
        what: "Finds PersistentVolumes with `persistentVolumeReclaimPolicy: Recycle`. Error where the source is \
               not nfs or hostPath, the only types that ever had a recycler.",
        why: "Recycle is deprecated. When the claim is deleted the PV goes `Released` and a recycler pod runs \
              `rm -rf` on the volume's contents before making it `Available` again; if that fails (for example \
              the NFS server is unreachable) the PV goes `Failed` with Warning `VolumeFailedRecycle`. Other volume \
              types have no recycler: the PV always ends `Failed`.",
        example: include_str!("../../tests/fixtures/recycle-policy-deprecated/bad.yaml"),
        fix: "Use `Retain` (and clean up deliberately) or `Delete` with a provisioner that deletes the storage.",
        fixed: include_str!("../../tests/fixtures/recycle-policy-deprecated/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for pv in &ctx.index.pvs {
        let Some(policy) = &pv.reclaim else { continue };
        if policy.value != ReclaimPolicy::Recycle {
            continue;
        }
        let kind = pv.source.as_ref().map(|s| s.kind.as_str()).unwrap_or("unknown");
        let supported = kind == "nfs" || kind == "hostPath";
        let (msg, sev) = if supported {
            let mut m = format!(
                "PersistentVolume {} uses the deprecated reclaimPolicy Recycle: when its claim is deleted the PV goes Released and a recycler pod wipes {} (rm -rf); if that fails the PV goes Failed (Warning VolumeFailedRecycle)",
                pv.name,
                pv.backing_storage()
            );
            if let Some(server) = pv.source.as_ref().and_then(|s| s.server.as_ref()) {
                if kube::nfs_server_problem(&server.value).is_some() {
                    m.push_str(&format!(", which it will: the NFS server \"{}\" is not a valid address", server.value));
                }
            }
            (m, Severity::Warning)
        } else {
            (
                format!(
                    "PersistentVolume {} has reclaimPolicy Recycle, but {kind} volumes have no recycler: when its claim is deleted the PV goes Failed (Warning VolumeFailedRecycle) and needs an admin",
                    pv.name
                ),
                Severity::Error,
            )
        };
        sink.report(ctx, pv.obj, &policy.field, msg)
            .severity(sev)
            .help("Recycle is deprecated; Retain keeps the data until an admin removes spec.claimRef")
            .suggest("use Retain", Some("persistentVolumeReclaimPolicy: Retain".into()));
    }
}
