use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "delete-policy-on-imported-volume",
    family: Family::Reclaim,
    severity: Severity::Error,
    summary: "A volume provisioned in another cluster is applied here with reclaimPolicy Delete",
    docs: Docs {
        what: "Finds PersistentVolume manifests with `persistentVolumeReclaimPolicy: Delete` that show they were \
               provisioned elsewhere: a `pv.kubernetes.io/provisioned-by` annotation, a \
               `storage.kubernetes.io/csiProvisionerIdentity` volume attribute, a `pvc-<uid>` name, a \
               `claimRef.uid` or a `metadata.uid`.",
        why: "A manifest re-applied in a second cluster (disaster recovery, active-active) points at storage the \
              first cluster still uses. With Delete, deleting the claim here — or the claim going away through a \
              UID mismatch, which Releases the PV — makes this cluster delete the backing storage, and the other \
              cluster loses its data.",
        example: include_str!("../../tests/fixtures/delete-policy-on-imported-volume/bad.yaml"),
        fix: "Apply imported volumes with `persistentVolumeReclaimPolicy: Retain`. Only the cluster that owns the \
              storage should be able to delete it.",
        fixed: include_str!("../../tests/fixtures/delete-policy-on-imported-volume/good.yaml"),
        known_problems: "One annotation such as pv.kubernetes.io/provisioned-by on a hand-written PV is not evidence of an \
                         import: the rule needs two independent marks of an export (a pvc-<uid> name, a claimRef.uid, a \
                         metadata.uid, a CSI provisioner identity, provisioned-by). Only the driver that made the \
                         volume deletes it: unless a StorageClass or CSIDriver of the input or the cluster state shows \
                         that driver in this cluster, that it runs here is an assumption the finding names.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a StorageClass or CSIDriver of the input or the cluster state shows that the driver that \
                       made the volume runs in this cluster",
                example: "bad-driver-here.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "nothing in the input or the cluster state shows that driver here: that it runs and \
                       deletes the storage is an assumption the finding names",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn is_pvc_uid_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("pvc-") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('-').collect();
    parts.len() == 5
        && [8, 4, 4, 4, 12]
            .iter()
            .zip(&parts)
            .all(|(n, p)| p.len() == *n && p.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The volume names, by claimRef with its UID, a claim of the cluster state: this cluster's
/// claim, so the volume was provisioned (or bound) here — the external-provisioner creating a
/// PV for a Pending claim sets exactly these signals, and an admission policy must let it.
pub(super) fn provisioned_here(w: &crate::sim::World, vid: crate::sim::VolumeId) -> bool {
    let Some(cr) = &w.volume(vid).claim_ref else {
        return false;
    };
    if cr.uid.is_empty() {
        return false;
    }
    w.claim_named(&cr.key.namespace, &cr.key.name)
        .map(|c| w.claim(c))
        .is_some_and(|c| {
            c.uid == cr.uid
                && matches!(
                    c.origin,
                    crate::sim::Origin::Object {
                        side: crate::sim::Side::Cluster,
                        ..
                    }
                )
        })
}

/// The marks an export carries that a hand-written PersistentVolume does not: two of them
/// make a volume imported (one hand-set annotation is not evidence of an export).
pub(super) fn export_signals(pv: &crate::model::Pv) -> Vec<String> {
    let mut signals = Vec::new();
    if let Some(p) = &pv.provisioned_by {
        signals.push(format!("{}: {}", kube::ANN_PROVISIONED_BY, p.value));
    }
    if pv
        .source
        .as_ref()
        .is_some_and(|s| s.has_provisioner_identity)
    {
        signals.push(format!(
            "volumeAttributes.{}",
            kube::CSI_PROVISIONER_IDENTITY
        ));
    }
    if is_pvc_uid_name(&pv.name) {
        signals.push("a dynamically provisioned name (pvc-<uid>)".into());
    }
    if pv.claim_ref.as_ref().is_some_and(|c| c.uid.is_some()) {
        signals.push("spec.claimRef.uid".into());
    }
    if pv.meta.uid.is_some() {
        signals.push("metadata.uid".into());
    }
    signals
}

/// The provisioners the input or the cluster state shows running here: a defined
/// StorageClass names it. Collected once per check, not scanned per volume.
pub(super) fn classes_shown(w: &crate::sim::World) -> std::collections::HashSet<&str> {
    w.classes()
        .iter()
        .filter(|c| c.assumption().is_none())
        .filter_map(|c| c.provisioner.as_deref())
        .collect()
}

/// A deleter (driver or provisioner) runs here, as a CSIDriver or a StorageClass shows.
pub(super) fn deleter_shown(
    w: &crate::sim::World,
    shown: &std::collections::HashSet<&str>,
    deleter: &str,
) -> bool {
    w.csi_driver(deleter).is_some() || shown.contains(deleter)
}

/// The deleter of a volume's storage, when the input and the cluster state do not show it
/// running in this cluster: that it does is an assumption.
fn deleter_assumptions(
    w: &crate::sim::World,
    shown: &std::collections::HashSet<&str>,
    pv: &crate::model::Pv,
) -> Vec<Str> {
    let deleter = pv
        .source
        .as_ref()
        .and_then(|s| s.csi_driver.clone())
        .or_else(|| pv.provisioned_by.as_ref().map(|p| p.value.clone()));
    match &deleter {
        Some(d) if !deleter_shown(w, shown, d) => {
            vec![Str::from(Assumption::ProvisionerRuns(d.clone()).describe())]
        }
        _ => Vec::new(),
    }
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    let shown = classes_shown(w);
    for (pv, policy, vid) in ctx.volumes_with_policy(ReclaimPolicy::Delete) {
        let signals = export_signals(pv);
        if signals.len() < 2 {
            continue;
        }
        if provisioned_here(w, vid) || ctx.is_live_self(pv) {
            continue;
        }
        let later = w.if_released(vid, false);
        if !later.storage.is_deleted() {
            continue;
        }
        // Only the driver that made it deletes it: running here too is an assumption unless a
        // StorageClass or CSIDriver of the input or the cluster state names it.
        let assumptions = deleter_assumptions(w, &shown, pv);
        sink.report(
            ctx,
            pv.obj,
            &policy.field,
            format!("imported PersistentVolume {} has reclaimPolicy Delete", pv.name),
        )
        .consequence(Consequence::said(format!(
                "it carries {}; applied here, deleting or releasing its claim deletes {}: data the source cluster may still use",
                signals.join(", "),
                pv.backing_storage()
            )).assuming(assumptions))
        .help("only the cluster that owns the storage should be able to delete it")
        .suggest_replace("apply imported volumes with Retain", policy.field.span, "Retain");
    }
}
