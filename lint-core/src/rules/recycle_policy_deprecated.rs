use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "recycle-policy-deprecated",
    family: Family::Reclaim,
    severity: Severity::Error,
    summary: "reclaimPolicy Recycle is deprecated, and fails for anything but nfs and hostPath",
    docs: Docs {
        what: "Finds PersistentVolumes with `persistentVolumeReclaimPolicy: Recycle`, and tells nfs and hostPath \
               volumes, the only types that ever had a recycler, from the others.",
        why: "Recycle is deprecated. When the claim is deleted the PV goes `Released` and a recycler pod runs \
              `rm -rf` on the volume's contents before making it `Available` again; if that fails (for example \
              the NFS server is unreachable) the PV goes `Failed` with Warning `VolumeFailedRecycle`. Other volume \
              types have no recycler: the PV always ends `Failed`.",
        example: include_str!("../../tests/fixtures/recycle-policy-deprecated/bad.yaml"),
        fix: "Use `Retain` (and clean up deliberately) or `Delete` with a provisioner that deletes the storage.",
        fixed: include_str!("../../tests/fixtures/recycle-policy-deprecated/good.yaml"),
        known_problems: "The recycler pod's exact failure message depends on the node and the NFS server; pvlint predicts the \
                         event reason (VolumeFailedRecycle), not its full text.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the volume is neither nfs nor hostPath (no recycler exists for it)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "an nfs or hostPath volume (a recycler exists, but the policy is deprecated)",
                example: "bad-nfs.yaml",
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
    for (pv, policy, vid) in ctx.volumes_with_policy(ReclaimPolicy::Recycle) {
        let later = w.if_released(vid, false);
        // No recycler for this kind of volume at all (only nfs and hostPath have one).
        let no_recycler = matches!(&later.storage, Storage::RecycleFailed { error } if error == "no recycler plugin");
        let summary = match &later.storage {
            Storage::Recycled => format!(
                "when its claim is deleted the PV goes Released, a recycler pod wipes {} (rm -rf) and the PV is Available again",
                pv.backing_storage()
            ),
            Storage::Kept
            | Storage::Provisioned { .. }
            | Storage::Deleted { .. }
            | Storage::LeftToProvisioner { .. }
            | Storage::Archived { .. }
            | Storage::KeptByProvisioner { .. }
            | Storage::DeleteFailed { .. }
            | Storage::RecycleFailed { .. }
            | Storage::Leaked => format!(
                "when its claim is deleted the PV goes Failed{} and needs an admin",
                later.event.as_ref().map(|e| format!(" (Warning {} \"{}\")", e.reason, e.message)).unwrap_or_default()
            ),
        };
        sink.report(
            ctx,
            pv.obj,
            &policy.field,
            if no_recycler {
                let kind = pv.source.as_ref().map_or("its", |s| s.kind.as_str());
                format!(
                    "PersistentVolume {} has reclaimPolicy Recycle, which no recycler handles for {kind} volumes",
                    pv.name
                )
            } else {
                format!(
                    "PersistentVolume {} uses the deprecated reclaimPolicy Recycle",
                    pv.name
                )
            },
        )
        .severity(if no_recycler {
            Severity::Error
        } else {
            Severity::Warning
        })
        .consequence(Consequence::said(summary))
        .help("Recycle is deprecated; Retain keeps the data until an admin removes spec.claimRef")
        .suggest_replace("use Retain", policy.field.span, "Retain");
    }
}
