use super::prelude::*;
use crate::sim::AfterClaimRefRemoval;

pub const RULE: Rule = Rule {
    id: "volume-released",
    family: Family::Reclaim,
    severity: Severity::Warning,
    summary: "Live cluster: a volume is Released; the exact claimRef to remove, or why not to",
    docs: Docs {
        what: "Runs on a live cluster's objects (`pvlint cluster`). Reports every PersistentVolume that is \
               `Released` (its claim was deleted, or re-created with another UID). It runs the controller on the \
               volume with its `spec.claimRef` removed and says what that does: which claim binds it (one that \
               names it, is Lost on it, or would pick it), or that it becomes Available with its data. When the \
               reclaim policy is Delete it says not to: the storage is being deleted.",
        why: "A Released volume is never bound again by the controller: it keeps its data (Retain) but no claim \
              can use it until an admin removes its claimRef; whoever binds it next gets the old data. With \
              Delete, the provisioner is deleting its storage.",
        example: include_str!("../../tests/fixtures/volume-released/bad.yaml"),
        fix: "To reuse the volume and its data, remove `spec.claimRef` \
              (`kubectl patch pv NAME --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}]'`), or set it to \
              the intended claim's namespace and name (without uid) so no other claim takes it. To free the \
              storage, delete the storage and the PV.",
        fixed: include_str!("../../tests/fixtures/volume-released/good.yaml"),
        known_problems: "Which claim binds the volume is decided among the claims that are waiting at the time of the scan; \
                         one created later may take it first.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a Retain volume of the live cluster is Released, and a waiting claim would bind it, with \
                       the old data, once its claimRef is removed",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "no waiting claim would take it (it becomes Available with its data), or its reclaim \
                       policy is not Retain (with Delete, its storage is being deleted)",
                example: "bad-available.yaml",
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
        let Some(vid) = ctx.volume_of(pv.obj) else {
            continue;
        };
        let v = w.volume(vid);
        let reported = live
            .volume_status(pv.obj)
            .and_then(|s| s.phase.as_ref())
            .map(|p| p.value.as_str());
        // Failed volumes are volume-failed's.
        if reported == Some("Failed") || v.phase != VolumePhase::Released || v.release.is_none() {
            continue;
        }
        let Some(cr) = &v.claim_ref else { continue };
        let obj = ctx.obj(pv.obj);
        let field = pv
            .meta
            .phase
            .as_ref()
            .map(|p| p.field.clone())
            .or_else(|| pv.claim_ref.as_ref().map(|c| c.field.clone()))
            .unwrap_or_else(|| obj.whole());
        let is = if reported == Some("Released") {
            "is"
        } else {
            "goes"
        };
        let f = sink.report(
            ctx,
            pv.obj,
            &field,
            format!(
                "PersistentVolume {} {is} Released (claim {})",
                v.name, cr.key
            ),
        );
        f.consequence(ctx.volume_consequence(vid))
            .recorded(live, "PersistentVolume", "", &v.name);
        let patch = format!(
            "kubectl patch pv {} --type json -p '[{{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}}]'",
            v.name
        );
        if v.storage.is_deleted() {
            f.severity(Severity::Info).help(format!(
                "do not remove its claimRef: reclaimPolicy Delete is deleting {}; to keep the data, set persistentVolumeReclaimPolicy: Retain first",
                v.backing
            ));
            continue;
        }
        if v.spec.reclaim != ReclaimPolicy::Retain {
            f.severity(Severity::Info);
            continue;
        }
        match w.if_claim_ref_removed(vid) {
            AfterClaimRefRemoval::BoundTo {
                claim,
                order_dependent,
            } => {
                let c = w.claim(claim);
                let mut help = format!(
                    "removing its spec.claimRef lets claim {} (now {}) bind it, with the data it holds",
                    c.key,
                    c.phase()
                );
                if order_dependent {
                    help.push_str("; another waiting claim fits it too, and whichever the controller syncs first gets it: set claimRef to the intended claim's namespace and name instead");
                }
                f.help(help)
                    .suggest(format!("remove spec.claimRef from {}", v.name), Some(patch));
            }
            AfterClaimRefRemoval::Available => {
                f.severity(Severity::Info)
                    .help(format!(
                        "removing its spec.claimRef makes it Available with its data: no claim waiting now takes it, and the next claim that fits it ({}, {}) gets the old data; to hand it to one claim, set claimRef to that claim's namespace and name (no uid)",
                        if v.spec.class.is_empty() { "no class".to_string() } else { format!("class {}", v.spec.class) },
                        v.spec.modes
                    ))
                    .suggest(format!("remove spec.claimRef from {}", v.name), Some(patch));
            }
        }
    }
}
