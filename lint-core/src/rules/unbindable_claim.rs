use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "unbindable-claim",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim (or StatefulSet claim) stays Pending: no volume matches and nothing provisions one",
    docs: Docs {
        what: "Simulates the PV controller over the input (and `--cluster-state`) and reports every claim that \
               ends `Pending` for good — not one that merely waits for its first consumer. It names the closest \
               candidate volume and the first check it fails, in the controller's order: class, capacity, access \
               modes, volumeMode, selector; or says that there are no volumes and no provisioner. Also a claim \
               the class's provisioner refuses, as the CSI external-provisioner does (`prepareProvision`, \
               `getPVCSource`, `getSnapshotSource`): a `selector`; a clone or restore its driver cannot make \
               (no CLONE_VOLUME or CREATE_DELETE_SNAPSHOT; a source smaller, of another driver or volume \
               mode; a snapshot the input writes only at a version the cluster's external-snapshotter does \
               not serve); modes its driver's CreateVolume refuses.",
        why: "A Pending claim keeps its pods from starting: they stay Pending too (\"pod has unbound immediate \
              PersistentVolumeClaims\"), and nothing changes until someone adds a volume that fits or a \
              StorageClass that provisions one.",
        example: include_str!("../../tests/fixtures/unbindable-claim/bad.yaml"),
        fix: "Make the claim fit a volume (class, size, access modes, volumeMode, selector), add a volume that \
              fits it, or give it a StorageClass with a provisioner.",
        fixed: include_str!("../../tests/fixtures/unbindable-claim/good.yaml"),
        known_problems: "A class that is neither in the input nor in a given cluster state is assumed to exist and provision \
                         (the claim is then not reported); a class name used only by the input's static volumes is \
                         assumed to be a label without a StorageClass, and findings resting on that say so. \
                         Like the PV controller, pvlint does not compare a volume's nodeAffinity with anything: \
                         for a WaitForFirstConsumer class the scheduler also needs the volume reachable from the \
                         node it picks, which pvlint does not model. A provisioner that is not a CSI driver pvlint \
                         knows is assumed to refuse selectors too (as the common ones do), and its clones are not \
                         judged. Refusals resting on a class parameter or an unseen source are not judged.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "nothing is assumed (the input is the whole cluster: `--complete`, or a cluster state) and \
                       no volume fits the claim and nothing provisions one, or the class's provisioner refuses \
                       it: a clone smaller than its source, or an access mode or volume mode its driver's \
                       CreateVolume refuses (EBS ReadWriteMany on a file system, a Block claim of \
                       csi-driver-nfs)",
                example: "bad-clone-smaller.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the same, for a clone of another driver's or volume mode's source",
                example: "bad-clone-unsupported.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the same, for a claim with a selector, which the CSI external-provisioner refuses to \
                       provision",
                example: "bad-selector-provisioned.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the cluster may hold volumes the input does not (an assumption the finding names) and the \
                       input has a volume the claim nearly fits, or the claim lost a race with another claim for \
                       a volume",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the same assumption, with no volume in the input that comes close",
                example: "bad-no-volumes.yaml",
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
    for (id, c) in w.claims() {
        let ClaimState::Pending(p) = &c.state else {
            continue;
        };
        if ctx.may_bind(id) {
            continue;
        }
        let Some(view) = ctx.view_of(id) else {
            continue;
        };
        let Some(key) = w.cause_of_claim(id) else {
            continue;
        };
        // Refused by the provisioner: the field it refuses.
        let refused = match p {
            Pending::ProvisionerRefuses {
                provisioner,
                error,
                why,
                ..
            } => {
                let at = match why {
                    crate::sim::ProvisionRefusal::Selector => {
                        view.selector.as_ref().map(|s| s.field.clone())
                    }
                    crate::sim::ProvisionRefusal::Capability(_) => None,
                    _ => view.data_source.as_ref().map(|d| d.field.clone()),
                };
                Some((at, provisioner, error, *why))
            }
            _ => None,
        };
        let (field, candidate) = match w.closest_volume(id) {
            Some((v, fails)) => (
                ctx.claim_field(view, fails[0].check()),
                Some(format!(
                    "the closest volume, {}, fails the {} check: {}",
                    w.volume(v).name,
                    fails[0].check(),
                    fails[0].detail()
                )),
            ),
            None => (ctx.claim_field(view, Check::Class), None),
        };
        let what = match &c.template_of {
            Some(t) => format!("claim {} (StatefulSet {})", c.key, t.statefulset),
            None => format!("claim {}", c.key),
        };
        let mut cons = ctx.claim_consequence(id);
        if let Some(cand) = candidate {
            cons.summary = Str::from(format!("{}; {cand}", cons.summary));
        }
        // A claim that lost a race, or whose fate rests on an assumption, is not certain: a
        // warning when the input holds volumes it nearly fits, else only a note.
        // A provisioner's refusal of a claim is as sure as the rest: a selector picks volumes
        // made by hand, which the cluster may hold when the input does not.
        // A driver release without a capability is the one thing left open: a warning.
        // So is the release of the cluster's external-snapshotter (a restore from a snapshot it
        // does not serve).
        let driver_release_only = cons.assumptions.len() == 1
            && matches!(
                p,
                Pending::ProvisionerRefuses {
                    assumption: Some(
                        crate::sim::Assumption::DriverWithout { .. }
                            | crate::sim::Assumption::SnapshotterWithoutV1beta1
                    ),
                    ..
                }
            );
        let sev = if cons.assumptions.is_empty() && c.race.is_none() {
            Severity::Error
        } else if c.race.is_some() || w.closest_volume(id).is_some() || driver_release_only {
            Severity::Warning
        } else {
            Severity::Info
        };
        let (field, headline, help) = match refused {
            Some((at, provisioner, _error, why)) => {
                use crate::drivers::CreateRefusal as C;
                use crate::sim::ProvisionRefusal as R;
                let source = c.data_source.as_deref().map_or("", |(_, n)| n.as_str());
                let headline = match why {
                    R::Selector => "no provisioner serves a selector".to_string(),
                    R::Capability(C::AccessMode) => format!("{provisioner} cannot serve its access mode"),
                    R::Capability(C::VolumeMode) => format!("{provisioner} has no block volumes"),
                    R::Capability(C::ReadOnlyWithoutSource) => format!("{provisioner} makes no empty read-only volume"),
                    R::SmallerClone => "a clone smaller than its source".to_string(),
                    R::CloneOfOtherDriver => format!("its source {source} is another driver's volume"),
                    R::CloneVolumeMode => format!("it clones claim {source} of the other volume mode"),
                    R::NoCloning => format!("{provisioner} cannot clone volumes"),
                    R::SnapshotNotServed => format!("its snapshot {source} is never created"),
                    R::NoRestore => format!("{provisioner} cannot restore snapshots"),
                };
                let help = why.help(Some(source).filter(|s| !s.is_empty()));
                (
                    at.unwrap_or(field),
                    format!("{what} will stay Pending: {headline}"),
                    help,
                )
            }
            None => (
                field,
                format!("{what} will stay Pending"),
                "make the claim fit an available volume, add a volume that fits, or use a StorageClass with a provisioner".to_string(),
            ),
        };
        let f = sink.report(ctx, view.obj, &field, headline);
        f.severity(sev)
            .consequence(cons)
            .consequence_of(key)
            .help(help);
    }
}
