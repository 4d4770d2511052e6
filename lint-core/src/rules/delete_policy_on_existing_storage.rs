use super::delete_policy_on_imported_volume::{
    classes_shown, deleter_shown, export_signals, provisioned_here,
};
use super::prelude::*;
use crate::sim::Storage;

pub const RULE: Rule = Rule {
    id: "delete-policy-on-existing-storage",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "A static PersistentVolume gives storage that existed before it to a deleter",
    docs: Docs {
        what: "Finds hand-written PersistentVolume manifests (a volumeHandle, share or path written by a \
               person, not the marks of a provisioned volume) with `persistentVolumeReclaimPolicy: Delete` \
               whose storage an external deleter removes once the volume is released: a CSI volume, or a \
               `pv.kubernetes.io/provisioned-by` annotation set by hand.",
        why: "Delete is for storage a provisioner created for a claim. On a volume written for a disk or a \
              share that existed before (a NAS share, a cloud disk restored by hand), deleting the claim \
              (`kubectl delete pvc`, `helm uninstall`, a namespace deleted) Releases the volume, and the \
              external-provisioner calls the driver's DeleteVolume on that handle \
              (sig-storage-lib-external-provisioner shouldDelete; the CSI external-provisioner serves \
              static volumes of its driver since HonorPVReclaimPolicy, 1.31): the data goes with it.",
        example: include_str!("../../tests/fixtures/delete-policy-on-existing-storage/bad.yaml"),
        fix: "Write `persistentVolumeReclaimPolicy: Retain` (the default of a hand-written volume) on \
              volumes for storage made outside the cluster.",
        fixed: include_str!("../../tests/fixtures/delete-policy-on-existing-storage/good.yaml"),
        known_problems: "What DeleteVolume does with a handle its driver did not create is the driver's: \
                         pvlint reads it for the drivers whose source it cites (aws-efs-csi-driver deletes \
                         access points only; csi-driver-nfs skips a handle it cannot parse and honours the \
                         handle's onDelete field) and otherwise names the assumption that the driver \
                         deletes what the handle names, as the CSI spec says. A volume with two marks of \
                         an export is delete-policy-on-imported-volume's.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a `pv.kubernetes.io/provisioned-by` annotation set by hand (the only mark of a \
                       provisioned volume it carries) hands the volume to a deleter that removes (or, for \
                       all pvlint has read, may remove) what the handle names",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "a static CSI volume without that annotation: the CSI external-provisioner deletes \
                       it since HonorPVReclaimPolicy (1.31), where it used to fail with VolumeFailedDelete \
                       (not reported when the manifest adds the external-provisioner's finalizer itself, \
                       asking for the deletion)",
                example: "bad-unknown-deleter.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    let shown = classes_shown(w);
    for (pv, policy, vid) in ctx.volumes_with_policy(ReclaimPolicy::Delete) {
        // Two marks of an export: delete-policy-on-imported-volume's.
        if export_signals(pv).len() >= 2 || provisioned_here(w, vid) || ctx.is_live_self(pv) {
            continue;
        }
        // The manifest asks the external-provisioner to delete it, in so many words.
        if pv.provisioned_by.is_none()
            && pv
                .finalizers
                .iter()
                .any(|f| f == kube::FINALIZER_EXTERNAL_PROVISIONER)
        {
            continue;
        }
        let (provisioner, archived) = match w.if_released(vid, false).storage {
            Storage::LeftToProvisioner { provisioner } => (provisioner, false),
            Storage::Archived { provisioner } => (provisioner, true),
            _ => continue,
        };
        let source = pv.source.as_ref();
        let mut assumptions = Vec::new();
        // A driver pvlint has not read: that DeleteVolume deletes what the handle names is
        // the CSI spec's word, not the driver's.
        if let (Some(d), Some(h)) = (
            source.and_then(|s| s.csi_driver.as_deref()),
            source.and_then(|s| s.handle.as_deref()),
        ) {
            if !crate::drivers::delete_is_read(d) {
                assumptions.push(Str::from(
                    Assumption::DriverDeletesHandle {
                        driver: Str::from(d),
                        handle: Str::from(h),
                    }
                    .describe(),
                ));
            }
        }
        if !deleter_shown(w, &shown, &provisioner) {
            assumptions.insert(
                0,
                Str::from(Assumption::DeleterRuns(provisioner.clone()).describe()),
            );
        }
        let how = match &pv.provisioned_by {
            Some(p) => format!("its {} annotation, written in the manifest, hands it to {}", kube::ANN_PROVISIONED_BY, p.value),
            None => format!("{provisioner} serves the deletion of its driver's static volumes (HonorPVReclaimPolicy, 1.31 on)"),
        };
        let fate = if archived {
            format!("renames {} to archived-<directory>: the data stays, but no longer where the volume points", pv.backing_storage())
        } else {
            format!(
                "deletes {}, storage this manifest did not create, with its data",
                pv.backing_storage()
            )
        };
        let f = sink.report(
            ctx,
            pv.obj,
            &policy.field,
            format!(
                "static PersistentVolume {} has reclaimPolicy Delete",
                pv.name
            ),
        );
        if pv.provisioned_by.is_none() {
            f.severity(Severity::Info);
        }
        f
        .consequence(
            Consequence::said(format!(
                "once its claim is deleted (kubectl delete pvc, helm uninstall, the namespace deleted) the volume is Released and {how}, which {fate}"
            ))
            .assuming(assumptions),
        )
        .help("Delete is for storage a provisioner created; a volume written for existing storage should keep it")
        .suggest_replace("keep the storage: use Retain", policy.field.span, "Retain");
    }
}
