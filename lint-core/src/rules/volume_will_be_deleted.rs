use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "volume-will-be-deleted",
    family: Family::Reclaim,
    severity: Severity::Error,
    summary: "The simulation ends with a volume's backing storage deleted",
    docs: Docs {
        what: "Simulates the PV controller over the input applied onto the cluster state and reports every \
               PersistentVolume of the input whose reclaim policy deletes its backing storage: a Delete volume \
               Released because its claim is gone or has another UID, or a provisioned volume whose claim \
               moved to another volume. When a more specific rule reports the cause (stale-claim-ref-uid, \
               claim-ref-conflict), only that finding is shown.",
        why: "Deleting storage cannot be undone. A volume applied from an export with a stale claimRef is \
              Released as soon as the controller sees it, and with `reclaimPolicy: Delete` its disk, share or \
              bucket is deleted — also when another cluster still uses it.",
        example: include_str!("../../tests/fixtures/volume-will-be-deleted/bad.yaml"),
        fix: "Remove the stale `claimRef` (or its uid) before applying, and apply imported volumes with \
              `persistentVolumeReclaimPolicy: Retain`.",
        fixed: include_str!("../../tests/fixtures/volume-will-be-deleted/good.yaml"),
        known_problems: "For CSI volumes the deletion is the external provisioner's: pvlint assumes it runs and honours Delete. \
                         Without a cluster state, a claim missing from the input counts as missing.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a Delete volume of the input is Released in the simulation (its claim is gone, or has \
                       another UID), or a provisioned volume's claim moved to another volume, and no more \
                       specific rule reports the cause",
                example: "bad.yaml",
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
    for (vid, v) in w.volumes() {
        if !v.storage.is_deleted() {
            continue;
        }
        let Some(obj) = v.origin.manifest_object() else {
            continue;
        };
        let Some(pv) = ctx.index.pvs.iter().find(|p| p.obj == obj) else {
            continue;
        };
        let key = w.cause_of_volume(vid).unwrap_or(CauseKey::Deleted {
            volume: v.name.clone(),
        });
        let field = pv
            .reclaim
            .as_ref()
            .map(|r| r.field.clone())
            .unwrap_or_else(|| ctx.obj(obj).whole());
        let f = sink.report(
            ctx,
            obj,
            &field,
            format!("PersistentVolume {} will have its storage deleted", v.name),
        );
        f.consequence(ctx.volume_consequence(vid))
            .consequence_of(key)
            .help("use persistentVolumeReclaimPolicy: Retain for volumes whose storage this cluster does not own");
        match &pv.reclaim {
            Some(r) => f.suggest_replace("keep the storage: use Retain", r.field.span, "Retain"),
            None => f.suggest(
                "keep the storage",
                Some("persistentVolumeReclaimPolicy: Retain"),
            ),
        };
    }
}
