//! What timing can change. One `kubectl apply` creates its objects one after another, and the
//! PV controller syncs each claim as it arrives (pv_controller.go syncUnboundClaim), seeing
//! only the volumes that exist and are Available by then (a new PV is phase Pending until its
//! own first sync; findBestMatchForClaim skips it). Claims created together (a StatefulSet
//! with `podManagementPolicy: Parallel`, several claims in one file) are synced in the order
//! the informer delivers them. The main simulation takes the order that settles most often
//! (recorded on a real v1.34.9 control plane: the smallest volume in 10 of 10 runs of cases
//! 01–01b, and in 9 of 10 runs of a replayed case); this module re-runs it with the other
//! orders that can occur and reports the outcomes that differ.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::state::*;
use super::World;

/// One way the controller can see the objects of the apply.
#[derive(Debug, Clone, Default)]
pub struct Timing {
    /// Volumes of the first apply not yet Available when its claims are first synced.
    pub(crate) late: Vec<VolumeId>,
    /// Claims synced first, in this order (the rest after, in creation order).
    pub(crate) order: Vec<ClaimId>,
    /// Of equally good volumes, the last one binds (upstream's unstable sort and map order
    /// pick any).
    pub(crate) last_tie: bool,
    /// A claim whose class provisions, synced before a matching volume of the same apply
    /// exists, ends the other way than the likely one (see
    /// `World::first_sync_without`).
    pub(crate) other_provisioning_race: bool,
}
/// An outcome that can occur instead of the simulation's, when timing differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Alternative {
    /// What timing it takes.
    pub why: String,
    /// The claims whose outcome differs: `namespace/name` and the volume they end bound to
    /// (None: Pending).
    pub bindings: Vec<AltBinding>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AltBinding {
    pub claim: String,
    pub volume: Option<String>,
}

/// Volumes of the first apply varied one prefix at a time, at most.
const MAX_VOLUMES: usize = 8;
/// Racing claims whose every order is tried, at most (3! = 6 orders); more are tried in
/// creation order and reversed.
const MAX_PERMUTED: usize = 3;
/// Inputs with more claims and volumes than this are simulated once: their alternatives
/// would take a re-run each, and what they show is the same race at scale.
const MAX_OBJECTS: usize = 100;

/// The claims of the manifests and what they end bound to.
fn mapping(w: &World) -> BTreeMap<String, Option<String>> {
    w.claims()
        .filter(|(_, c)| c.origin.side() == Some(Side::Manifest))
        .map(|(id, c)| {
            (
                c.key.to_string(),
                w.binding_of(id).map(|v| w.volume(v).name.to_string()),
            )
        })
        .collect()
}

/// Whether a claim's outcome depends on which volumes it finds free when it is synced.
fn races(c: &Claim) -> bool {
    c.origin.side() == Some(Side::Manifest)
        && matches!(
            c.state,
            ClaimState::Bound {
                how: BindHow::BestMatch { .. },
                ..
            } | ClaimState::Pending(
                Pending::NoMatchNoClass
                    | Pending::ClassNotFound { .. }
                    | Pending::ProvisionerUnavailable { .. }
            )
        )
}

/// Every order of `items`.
fn permutations(items: &[ClaimId]) -> Vec<Vec<ClaimId>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// The outcomes other timings give, each once: `rerun` runs the whole request with a timing.
/// `main` is the simulation's own (likely) outcome.
pub fn alternatives(main: &World, rerun: impl Fn(Timing) -> Option<World>) -> Vec<Alternative> {
    if main.claims().count() + main.volumes().count() > MAX_OBJECTS {
        return Vec::new();
    }
    let base = mapping(main);
    let racing: Vec<ClaimId> = main
        .claims()
        .filter(|(_, c)| races(c))
        .map(|(id, _)| id)
        .collect();
    // A claim races only against another claim, or a pool of several volumes.
    let pool = main
        .volumes()
        .filter(|(_, v)| !matches!(v.origin, Origin::Provisioned { .. }))
        .count();
    let mut timings: Vec<(String, Timing)> = Vec::new();
    if main.provisioning_raced {
        timings.push((
            "a claim whose class provisions is synced before a matching volume of the same apply exists: provisioning starts, and whether the new volume or the existing one binds first depends on how fast the provisioner is (kube-controller-manager's own provisioners are usually first; an external one can be slower)".into(),
            Timing {
                other_provisioning_race: true,
                ..Timing::default()
            },
        ));
    }
    if racing.is_empty() || (racing.len() == 1 && pool < 2) {
        return collect(&base, timings, rerun);
    }
    let orders = if racing.len() <= MAX_PERMUTED {
        permutations(&racing)
    } else {
        vec![racing.clone(), racing.iter().rev().copied().collect()]
    };
    let name = |id: ClaimId| main.claim(id).key.name.to_string();
    for order in orders {
        for last_tie in [false, true] {
            let why = format!(
                "the controller syncs the claims in the order {}{}",
                order
                    .iter()
                    .map(|&c| name(c))
                    .collect::<Vec<_>>()
                    .join(", "),
                if last_tie {
                    ", and of equally good volumes another binds"
                } else {
                    ""
                }
            );
            timings.push((
                why,
                Timing {
                    late: Vec::new(),
                    order: order.clone(),
                    last_tie,
                    ..Timing::default()
                },
            ));
        }
    }
    // The first apply's own volumes, in file order: a claim synced before the last of them
    // is Available binds among those before it.
    let mut applied: Vec<(crate::model::ObjId, VolumeId)> = main
        .volumes()
        .filter_map(|(id, v)| match v.origin {
            Origin::Object {
                side: Side::Manifest,
                obj,
            } => Some((obj, id)),
            _ => None,
        })
        .collect();
    applied.sort();
    for k in 1..=applied.len().min(MAX_VOLUMES) {
        let late: Vec<VolumeId> = applied[applied.len() - k..].iter().map(|p| p.1).collect();
        let first = &main.volume(late[0]).name;
        timings.push((
            format!(
                "the claims are synced before volume {first}{} of the same apply {} Available (a new volume is Pending until its first sync)",
                if k > 1 { " and the volumes written after it" } else { "" },
                if k > 1 { "are" } else { "is" }
            ),
            Timing {
                late,
                ..Timing::default()
            },
        ));
    }
    collect(&base, timings, rerun)
}

/// The outcomes of `timings` that differ from `base` and from each other.
fn collect(
    base: &BTreeMap<String, Option<String>>,
    timings: Vec<(String, Timing)>,
    rerun: impl Fn(Timing) -> Option<World>,
) -> Vec<Alternative> {
    let mut out: Vec<Alternative> = Vec::new();
    let mut seen = vec![base.clone()];
    for (why, timing) in timings {
        let Some(w) = rerun(timing) else { continue };
        let m = mapping(&w);
        if seen.contains(&m) {
            continue;
        }
        let bindings = m
            .iter()
            .filter(|(k, v)| base.get(*k) != Some(v))
            .map(|(k, v)| AltBinding {
                claim: k.clone(),
                volume: v.clone(),
            })
            .collect();
        seen.push(m);
        out.push(Alternative { why, bindings });
    }
    out
}
