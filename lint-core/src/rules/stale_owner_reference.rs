use std::collections::HashMap;

use super::context::DataFate;
use super::prelude::*;
use crate::model::OwnerRef;
use crate::node::Node;

pub const RULE: Rule = Rule {
    id: "stale-owner-reference",
    family: Family::StaleIdentity,
    severity: Severity::Error,
    summary: "A PersistentVolumeClaim names its owners by UIDs from the cluster it was exported from: the garbage collector deletes it",
    docs: Docs {
        what: "Finds PersistentVolumeClaim manifests whose `metadata.ownerReferences` name owners by UID \
               (a StatefulSet whose retention policy owns its claims, a pod of a generic ephemeral volume, an \
               operator's custom resource) that the cluster does not have: every object created from a \
               manifest gets a new UID, so an owner re-created here, or never created, is not the owner named.",
        why: "The garbage collector looks each owner up by kind and name and compares its UID \
              (garbagecollector.go `isDangling`: not found, or another UID, is dangling). When every owner of \
              an object is dangling, it deletes the object (`attemptToDeleteItem`), seconds after the apply. \
              The claim goes once no pod uses it (`kubernetes.io/pvc-protection`), its volume is released, and \
              the volume's reclaim policy runs: with `Delete` (a provisioned volume's default) the disk and its \
              data are deleted. A claim with at least one owner that exists keeps living; the garbage collector \
              only removes the dangling references. `kubectl get pvc -o yaml` of a StatefulSet's claims with \
              `persistentVolumeClaimRetentionPolicy.whenDeleted: Delete`, of an operator's claims (CloudNativePG, Strimzi, \
              most operators own their claims), or of an ephemeral volume's claim carries such references.",
        example: include_str!("../../tests/fixtures/stale-owner-reference/bad.yaml"),
        fix: "Remove `metadata.ownerReferences` from the claim: the controller that owns it in this cluster \
              (the StatefulSet controller, an operator) may adopt it again and set its own. `pvlint migrate` \
              removes them, with the other marks of the source cluster.",
        fixed: include_str!("../../tests/fixtures/stale-owner-reference/good.yaml"),
        known_problems: "Only a claim that carries a mark of an export (`metadata.uid`, a `status`, the \
                         controller's `pv.kubernetes.io/bind-completed`) is judged: references written by hand, or \
                         by a controller at admission, may name this cluster's objects. Re-applying an export to \
                         the very cluster it came from is harmless (the owners there have those UIDs): pvlint names \
                         the owner's absence as an assumption, unless the cluster state has the owner with another \
                         UID. What pvlint reads of a cluster is its storage \
                         objects: an owner missing from the cluster state, or from an input said to be the whole \
                         cluster, stays an assumption. A claim that already exists in the cluster state is not judged: the \
                         apply updates it, and another cluster's `metadata.uid` makes the update fail, while an \
                         export without one merges its references into the live claim's (not modelled). References of PersistentVolumes and other \
                         kinds are not judged, nor incomplete references (no uid, no name), which make the API \
                         server reject the object.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the cluster state has each owner the exported claim names, with another UID, and nothing \
                       about the claim's data is assumed (its volume, or its class, is in the input or the \
                       cluster state)",
                example: "bad-owner-in-cluster.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "no cluster state, or an owner missing from it: that the cluster has no owner with that \
                       UID is an assumption the finding names (re-applied to the cluster it came from, the claim \
                       is safe)",
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
    let mut claims = ctx
        .index
        .accepted_pvcs()
        .filter(|pvc| {
            // Only a claim read from a cluster: its references name that cluster's objects.
            // One written by hand (or created by a controller, at admission) may name this
            // cluster's.
            let exported =
                pvc.meta.uid.is_some() || pvc.meta.phase.is_some() || pvc.bind_completed.is_some();
            !pvc.owners.is_empty() && exported && !ctx.index.is_superseded(pvc.obj)
        })
        .peekable();
    if claims.peek().is_none() {
        return;
    }
    let cluster = ClusterUids::of(ctx);
    for pvc in claims {
        let Some(id) = ctx.claim_of(pvc.obj) else {
            continue;
        };
        // A claim of the cluster state is updated, not created: an export's metadata.uid of
        // another cluster makes the update fail (metadata.uid is immutable); of this cluster,
        // its owners are this cluster's.
        if ctx
            .cluster
            .is_some_and(|c| c.pvc(&pvc.namespace, &pvc.name).is_some())
        {
            continue;
        }
        // isDangling: the UID of the cluster state's object of the owner's kind and name.
        let found: Vec<Option<&str>> = pvc
            .owners
            .iter()
            .map(|o| cluster.uid(o, &pvc.namespace))
            .collect();
        // One owner that exists keeps the claim: the garbage collector only drops the others.
        if pvc
            .owners
            .iter()
            .zip(&found)
            .any(|(o, uid)| *uid == Some(o.uid.value.as_str()))
        {
            continue;
        }
        report(ctx, sink, pvc, id, &found);
    }
}

/// The metadata.uid of each object of the cluster state, by API group, kind, namespace ("" for
/// cluster-scoped objects) and name: what the garbage collector compares an ownerReference's
/// UID with (garbagecollector.go `isDangling`, which looks the owner up in the dependent's
/// namespace when its kind is namespaced).
struct ClusterUids<'a>(HashMap<(&'a str, &'a str, &'a str, &'a str), &'a str>);

impl<'a> ClusterUids<'a> {
    fn of(ctx: &Context<'a>) -> Self {
        let mut map = HashMap::new();
        for o in ctx
            .cluster
            .map(|c| c.objects.as_slice())
            .unwrap_or_default()
        {
            if let Some(uid) = o.root().at("metadata.uid").and_then(Node::as_str) {
                let group = crate::model::group_of(&o.api_version);
                let ns = o.namespace.as_deref().unwrap_or("");
                map.insert((group, o.kind.as_str(), ns, o.name.as_str()), uid);
            }
        }
        ClusterUids(map)
    }

    /// The UID of the object `owner` names, looked up in `namespace`, else cluster-scoped.
    fn uid(&self, owner: &OwnerRef, namespace: &str) -> Option<&'a str> {
        let group = crate::model::group_of(&owner.api_version);
        [namespace, ""]
            .iter()
            .find_map(|ns| {
                self.0
                    .get(&(group, owner.kind.as_str(), *ns, owner.name.as_str()))
            })
            .copied()
    }
}

fn report(ctx: &Context<'_>, sink: &mut Sink<'_>, pvc: &Pvc, id: ClaimId, found: &[Option<&str>]) {
    let mut assumptions: Vec<Str> = Vec::new();
    let mut gone = Vec::new();
    for (o, uid) in pvc.owners.iter().zip(found) {
        match uid {
            // The cluster state has it, with another UID: dangling, for certain.
            Some(here) => gone.push(format!(
                "{} {} has UID {here} here, not {}",
                o.kind, o.name, o.uid.value
            )),
            None => {
                gone.push(format!("no {} {} with UID {}", o.kind, o.name, o.uid.value));
                assumptions.push(
                    Assumption::OwnerAbsent(Str::from(format!(
                        "{} {} with UID {}",
                        o.kind, o.name, o.uid.value
                    )))
                    .describe()
                    .into(),
                );
                // A custom kind found in the cluster state is served.
                if !builtin(o) {
                    assumptions.push(
                        Assumption::OwnerKindServed(Str::from(format!(
                            "{} ({})",
                            o.kind, o.api_version
                        )))
                        .describe()
                        .into(),
                    );
                }
            }
        }
    }
    let certain = assumptions.is_empty();
    let bound = matches!(ctx.sim.claim(id).state, ClaimState::Bound { .. });
    let fate = ctx.data_fate(id);
    let archived_by = fate.as_ref().and_then(DataFate::archived_by);
    let (then, storage) = match fate.as_ref().and_then(DataFate::why) {
        Some((why, assumption)) if bound => {
            if let Some(a) = assumption {
                assumptions.push(a);
            }
            (
                format!("as {why}, its volume and the data on it are deleted with it"),
                Some(StorageFate::Deleted),
            )
        }
        None if bound && archived_by.is_some() => (
            format!(
                "its volume is released and {} renames its directory to archived-<directory>: archived, not deleted, and mounted by nothing",
                archived_by.map(Str::as_str).unwrap_or_default()
            ),
            Some(StorageFate::Kept),
        ),
        None if bound => (
            "its volume is released and kept, but no claim binds it again until its claimRef is cleared".to_string(),
            Some(StorageFate::Kept),
        ),
        // A new claim: no data of the source cluster is on what it gets here.
        _ => (
            "the pods that mount it cannot start until something creates it again".to_string(),
            None,
        ),
    };
    let summary = format!(
        "the garbage collector finds {}: every owner is gone, so it deletes the claim (attemptToDeleteItem), which is removed once no pod uses it (kubernetes.io/pvc-protection); {then}",
        gone.join("; ")
    );
    let mut consequence = Consequence::said(summary).assuming(assumptions);
    if let Some(s) = storage {
        consequence = consequence.with_storage(s);
    }
    let headline = format!(
        "PersistentVolumeClaim {}/{} keeps ownerReferences from another cluster",
        pvc.namespace, pvc.name
    );
    sink.report(ctx, pvc.obj, &pvc.owners[0].uid.field, headline)
        .severity(if certain {
            Severity::Error
        } else {
            Severity::Warning
        })
        .consequence(consequence)
        .help("the controller that owns the claim in this cluster (a StatefulSet's, an operator) may adopt it and set its own ownerReferences; pvlint migrate removes the source cluster's")
        .suggest(
            "remove metadata.ownerReferences",
            Some("yq -i 'del(.metadata.ownerReferences)' <file>".to_string()),
        );
}

/// The owner's kind is one the API server serves without a CustomResourceDefinition.
fn builtin(o: &OwnerRef) -> bool {
    crate::model::BUILTIN_GROUPS.contains(&crate::model::group_of(&o.api_version))
}
