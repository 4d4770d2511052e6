use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "delete-policy-without-finalizer",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "A CSI or externally provisioned volume with reclaimPolicy Delete lacks the finalizer that honours it",
    docs: Docs {
        what: "Finds PersistentVolumes with `persistentVolumeReclaimPolicy: Delete` that are served by a CSI \
               driver (`spec.csi`, or an in-tree type that is CSI-migrated) or were created by an external \
               provisioner (`pv.kubernetes.io/provisioned-by`), and do not carry \
               `external-provisioner.volume.kubernetes.io/finalizer`. Version-aware (`--kube-version`): from 1.31 \
               the HonorPVReclaimPolicy feature is on by default, and a CSI external-provisioner adds the \
               finalizer to the CSI volumes it manages.",
        why: "If the PersistentVolume object is deleted before its claim, the claim's deletion no longer triggers \
              the Delete policy: the PV object disappears and the backing storage leaks, still billed and still \
              holding data. The finalizer, added by the CSI external-provisioner when HonorPVReclaimPolicy is on \
              (alpha 1.23, on by default since 1.31, GA 1.33), holds the PV object until the storage is deleted. \
              Non-CSI external provisioners (such as nfs-subdir-external-provisioner) never add it.",
        example: include_str!("../../tests/fixtures/delete-policy-without-finalizer/bad.yaml"),
        fix: "Add the finalizer to the PV manifest (and run a CSI external-provisioner with HonorPVReclaimPolicy), \
              or delete claims, not volumes, or use Retain and clean up storage deliberately.",
        fixed: include_str!("../../tests/fixtures/delete-policy-without-finalizer/good.yaml"),
        known_problems: "From Kubernetes 1.31 a CSI external-provisioner with HonorPVReclaimPolicy adds the finalizer itself \
                         once it manages a bound volume of its driver (library v9 and later); pvlint cannot see the \
                         sidecar's version. On a live cluster (`pvlint cluster`) the server's version decides, and a \
                         Bound CSI volume still without the finalizer on 1.31+ shows that the provisioner did not add \
                         it.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "the volume's provisioner is not a CSI driver (nfs-subdir-external-provisioner): nothing \
                       ever adds the finalizer",
                example: "bad-subdir-provisioner.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "a CSI volume, for a Kubernetes release before 1.31 (`--kube-version`), where \
                       HonorPVReclaimPolicy is off by default",
                example: "bad-before-1-31.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "a Bound CSI volume of a live cluster (`pvlint cluster`) of 1.31 or later still has no \
                       finalizer: its external-provisioner does not add it",
                example: "bad-live.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "a CSI volume in a manifest, for Kubernetes 1.31 or later: the CSI external-provisioner \
                       adds the finalizer once it manages the volume, unless it is older than the feature",
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
    let v = ctx.options.kube_version;
    let honor = ctx
        .options
        .feature(crate::version::Feature::HonorPVReclaimPolicy);
    let w = ctx.sim;
    for (pv, policy, vid) in ctx.volumes_with_policy(ReclaimPolicy::Delete) {
        if pv.finalizers.iter().any(|f| {
            f == kube::FINALIZER_EXTERNAL_PROVISIONER || f == kube::FINALIZER_PV_CONTROLLER
        }) {
            continue;
        }
        let src = pv.source.as_ref().map(|s| s.kind.as_str()).unwrap_or("");
        let is_csi = src == "csi" || kube::in_tree_source(src).is_some_and(|s| s.csi_migrated);
        let external = pv
            .provisioned_by
            .as_ref()
            .filter(|p| !p.value.starts_with("kubernetes.io/"))
            .map(|p| p.value.clone());
        if !is_csi && external.is_none() {
            continue; // in-tree: delete-policy-in-tree
        }
        let first = w.if_released(vid, true);
        if first.storage != Storage::Leaked {
            continue;
        }
        // On a live cluster of 1.31+ a Bound CSI volume the external-provisioner manages would
        // carry the finalizer by now: its absence is observed, not a guess about the sidecar.
        let observed = ctx.auditing()
            && is_csi
            && honor
            && pv.meta.phase.as_ref().is_some_and(|p| p.value == "Bound");
        let sev = if !is_csi || observed {
            Severity::Warning
        } else if honor {
            Severity::Info
        } else {
            Severity::Warning
        };
        let mut summary = format!(
            "if the PV object is deleted before its claim, {} leaks: the Delete policy is not honoured",
            pv.backing_storage()
        );
        if observed {
            summary.push_str(&format!(
                "; the server runs {v}, where HonorPVReclaimPolicy is on, yet this Bound volume has no finalizer: its CSI external-provisioner does not add it (a release before the feature, the feature turned off, or a volume it does not manage)"
            ));
        } else if is_csi && honor {
            summary.push_str(&format!(
                ", unless the CSI external-provisioner (HonorPVReclaimPolicy, on by default since 1.31; you target {v}) adds the finalizer once it manages this volume"
            ));
        } else if is_csi {
            summary.push_str(&format!("; on {v} HonorPVReclaimPolicy is off by default (alpha since 1.23, on by default from 1.31)"));
        } else {
            summary.push_str(&format!(
                "; its provisioner {} is not a CSI driver, and nothing adds the finalizer for it",
                external.unwrap_or_default()
            ));
        }
        sink.report(
            ctx,
            pv.obj,
            &policy.field,
            format!(
                "PersistentVolume {} has Delete but no protecting finalizer",
                pv.name
            ),
        )
        .severity(sev)
        .consequence(Consequence::said(summary))
        .help("delete the claim, not the volume: deleting the claim runs the Delete policy")
        .suggest(
            "add the finalizer that holds the PV until its storage is deleted",
            Some(format!(
                "metadata:\n  finalizers:\n  - kubernetes.io/pv-protection\n  - {}",
                kube::FINALIZER_EXTERNAL_PROVISIONER
            )),
        );
    }
}
