use super::prelude::*;
use crate::binding::SourceKind;
use crate::sim::Reason;

pub const RULE: Rule = Rule {
    id: "resize-never-done",
    family: Family::Binding,
    severity: Severity::Warning,
    summary: "A Bound claim asks for more than its volume has, and nothing expands that volume",
    docs: Docs {
        what: "For a Bound claim that asks for more than its volume has (a claim of the cluster state the \
               manifests grow, or a live claim in `pvlint cluster`): kube-controller-manager expands no hostPath, \
               local or NFS volume, and a CSI driver's external resizer runs only if the driver reports \
               EXPAND_VOLUME (its source says, for the drivers pvlint knows). When nothing expands the volume, \
               the claim is reported.",
        why: "The API server accepts the bigger request when the class says `allowVolumeExpansion: true`, and the \
              expand controller hands the claim to an external resizer (Normal `ExternalExpanding` \"waiting for \
              an external controller to expand this PVC\"). When none serves the volume, nothing else happens: the \
              claim's `status.capacity` keeps the old size for good, and a workload sized for the new one runs \
              out of space on a volume whose size is enforced.",
        example: include_str!("../../tests/fixtures/resize-never-done/bad.yaml"),
        fix: "Keep the request at the volume's size, or copy the data to a new claim of the size you need on a \
              class whose driver expands volumes.",
        fixed: include_str!("../../tests/fixtures/resize-never-done/good.yaml"),
        known_problems: "A driver's expansion is read from the release whose source pvlint read: a later release \
                         may expand, so that finding rests on the driver's release (an assumption). A claim and a \
                         smaller volume that name each other are prebound-volume-mismatch's, not this rule's. The \
                         expand controller compares the request with the claim's status.capacity; pvlint compares \
                         it with the volume's capacity, which is the same unless the volume was edited by hand.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "the volume's size is enforced (a local volume, or a CSI driver of disks) and nothing \
                       expands it: the claim keeps the old size for good",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the volume's size is not enforced (a hostPath directory, an NFS export, a shared file \
                       system's CSI driver) and nothing expands it: the claim keeps reporting the old size",
                example: "bad-hostpath.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

/// Why nothing expands a volume, and whether its size is enforced.
struct Never {
    why: String,
    enforced: bool,
    assumption: Option<Assumption>,
}

/// Who expands a volume of this source: None when something does, or when pvlint does not
/// know.
fn never_expanded(source: &SourceKind, provisioned_by: Option<&str>) -> Option<Never> {
    // local-path-provisioner and OpenEBS Local PV make `local` volumes of directories.
    let directories = provisioned_by
        .and_then(crate::drivers::driver)
        .is_some_and(|d| d.attach == crate::drivers::Attach::NotCsi);
    match source {
        SourceKind::InTree(s) if kube::never_expanded(s.field) => Some(Never {
            why: format!(
                "kube-controller-manager has no expander for {} volumes and no external resizer serves them",
                s.field
            ),
            // A local volume is a disk, a partition or a directory of its node; hostPath and
            // NFS are directories whose size nothing checks.
            enforced: s.field == "local" && !directories,
            assumption: None,
        }),
        SourceKind::Csi { driver } if crate::drivers::never_expands(driver) => {
            Some(Never {
                why: format!("the CSI driver {driver} does not report EXPAND_VOLUME, so no csi-resizer serves it"),
                enforced: !crate::drivers::driver(driver).is_some_and(|d| d.shared),
                assumption: Some(Assumption::DriverWithout {
                    driver: driver.clone(),
                    capability: Str::from("EXPAND_VOLUME"),
                }),
            })
        }
        _ => None,
    }
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    for pvc in ctx.index.pvcs.iter().filter(|p| p.template_of.is_none()) {
        let Some(id) = ctx.claim_of(pvc.obj) else {
            continue;
        };
        let c = w.claim(id);
        // Bound without checks to a smaller volume when both name each other (or a claimRef
        // reserves it): prebound-volume-mismatch says so.
        let ClaimState::Bound {
            volume,
            how: BindHow::AlreadyBound | BindHow::Rebound,
        } = &c.state
        else {
            continue;
        };
        if !c
            .events
            .iter()
            .any(|e| e.reason == Reason::ExternalExpanding)
        {
            continue;
        }
        let v = w.volume(*volume);
        let Some(never) = never_expanded(&v.spec.source, v.provisioned_by.as_deref()) else {
            continue;
        };
        let (Some(want), Some(has)) = (c.spec.request.as_ref(), v.spec.capacity.as_ref()) else {
            continue;
        };
        let Some(request) = &pvc.request else {
            continue;
        };
        let field = request.field.clone();
        let f = sink.report(
            ctx,
            pvc.obj,
            &field,
            format!(
                "claim {} asks for {want}; nothing expands its {has} volume",
                c.key
            ),
        );
        let size = if never.enforced {
            format!("the volume stays {has}, not {want}")
        } else {
            format!("nothing enforces its size, so the workload sees the free space of the storage behind it, not {want}")
        };
        f.severity(if never.enforced {
            Severity::Warning
        } else {
            Severity::Info
        })
        .consequence(
            Consequence::said(format!(
                "its volume {} has {has}; the expand controller waits for an external resizer (Normal ExternalExpanding \"waiting for an external controller to expand this PVC\"), and {}: the claim's status.capacity stays {has} for good, and {size}",
                v.name, never.why
            ))
            .with_phase(Phase::Bound)
            .assuming(never.assumption.iter().map(|a| Str::from(a.describe())).collect()),
        );
        // Already asked (a live claim, or one the cluster state shows asking for more than
        // its volume): the API server refuses a request at or below status.capacity
        // (ValidatePersistentVolumeClaimUpdate with RecoverVolumeExpansionFailure).
        let asked = ctx.side == Side::Cluster
            || ctx.cluster.is_some_and(|ix| {
                ix.pvcs.iter().any(|p| {
                    p.namespace == c.key.namespace
                        && p.name == c.key.name
                        && p.request.as_ref().is_some_and(|r| &r.value > has)
                })
            });
        if asked {
            f.help(format!(
                "the request cannot go back to {has} (the API server refuses a request at or below status.capacity); copy the data to a new claim of {want} on a class whose driver expands volumes"
            ));
        } else {
            f.help(format!(
                "keep the request at {has}, or copy the data to a new claim of {want} on a class whose driver expands volumes"
            ))
            .suggest_replace(format!("keep the volume's size ({has})"), field.span, has.to_string());
        }
    }
}
