use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "volume-failed",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "Live cluster: a volume is Failed: its reclaim (Delete or Recycle) failed and the storage stays",
    docs: Docs {
        what: "Runs on a live cluster's objects (`pvlint cluster`). Reports every PersistentVolume whose status is \
               `Failed`, with the controller's message (`status.message`) and what the reclaim does on the \
               controller's next try, simulated for the server's version: whether kube-controller-manager has a \
               deleter or recycler for this volume at all.",
        why: "A Failed volume is not bound again and its storage is not freed: with Delete, the disk or export \
              keeps its data (and its bill) until someone deletes it by hand. The controller retries on every \
              resync, so a deleter that cannot exist fails forever.",
        example: include_str!("../../tests/fixtures/volume-failed/bad.yaml"),
        fix: "Delete the storage yourself and then the PV object, or, to keep the data, set \
              `persistentVolumeReclaimPolicy: Retain` and remove `spec.claimRef` so the volume can be bound again.",
        fixed: include_str!("../../tests/fixtures/volume-failed/good.yaml"),
        known_problems: "A deleter that failed for a passing reason (the storage backend was down) may succeed on the next try; \
                         pvlint reports the volume while its status says Failed.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a PersistentVolume of the live cluster is Failed: its Delete or Recycle failed, and the \
                       storage stays",
                example: "bad.yaml",
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
    for pv in &ctx.index.pvs {
        let Some(status) = live.volume_status(pv.obj) else {
            continue;
        };
        let Some(phase) = status.phase.as_ref().filter(|p| p.value == "Failed") else {
            continue;
        };
        let Some(vid) = ctx.volume_of(pv.obj) else {
            continue;
        };
        let v = w.volume(vid);
        let retry = w.if_released(vid, false);
        let reported = status
            .message
            .as_deref()
            .map(|m| format!("the controller says \"{m}\""))
            .unwrap_or_else(|| "the controller left no status.message".into());
        let next = retry.storage.on_retry(
            &v.backing,
            ctx.options.kube_version,
            status.message.as_deref(),
        );
        let f = sink.report(
            ctx,
            pv.obj,
            &phase.field,
            format!("PersistentVolume {} is Failed ({})", v.name, v.spec.reclaim),
        );
        f.consequence(Consequence::said(format!("{reported}; {next}")).with_phase(Phase::Failed).with_storage(StorageFate::Kept))
        .recorded(live, "PersistentVolume", "", &v.name)
        .help("delete the storage by hand and then the PV, or keep it: set persistentVolumeReclaimPolicy: Retain and remove spec.claimRef")
        .suggest(
            "keep the volume and its data for reuse",
            Some(format!(
                "kubectl patch pv {} -p '{{\"spec\":{{\"persistentVolumeReclaimPolicy\":\"Retain\"}}}}'\nkubectl patch pv {} --type json -p '[{{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}}]'",
                v.name, v.name
            )),
        );
    }
}
