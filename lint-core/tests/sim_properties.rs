//! Properties of the binding simulator on random pools and claims.

use proptest::prelude::*;
use pvlint_core::{api, ClaimPhase, Options, Request, Simulation, Source};

const MODES: [&str; 4] = [
    "ReadWriteOnce",
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOncePod",
];
const CLASSES: [&str; 3] = ["", "fast", "slow"];

#[derive(Debug, Clone)]
struct Vol {
    modes: u8,
    gi: u32,
    class: usize,
    block: bool,
}

#[derive(Debug, Clone)]
struct Claim {
    modes: u8,
    gi: u32,
    class: usize,
    block: bool,
    prebound: Option<usize>,
}

fn modes_yaml(bits: u8) -> String {
    let names: Vec<&str> = (0..4)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| MODES[i])
        .collect();
    format!("[{}]", names.join(", "))
}

fn manifest(vols: &[Vol], claims: &[Claim]) -> String {
    let mut s = String::new();
    for (i, v) in vols.iter().enumerate() {
        s.push_str(&format!(
            "---\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{i}\nspec:\n  accessModes: {}\n  capacity:\n    storage: {}Gi\n  volumeMode: {}\n  storageClassName: \"{}\"\n  nfs: {{server: 10.0.0.1, path: /e/{i}}}\n",
            modes_yaml(v.modes),
            v.gi,
            if v.block { "Block" } else { "Filesystem" },
            CLASSES[v.class]
        ));
    }
    for (i, c) in claims.iter().enumerate() {
        let pre = c
            .prebound
            .map(|p| format!("  volumeName: pv-{p}\n"))
            .unwrap_or_default();
        s.push_str(&format!(
            "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c-{i}\nspec:\n  accessModes: {}\n  resources:\n    requests:\n      storage: {}Gi\n  volumeMode: {}\n  storageClassName: \"{}\"\n{pre}",
            modes_yaml(c.modes),
            c.gi,
            if c.block { "Block" } else { "Filesystem" },
            CLASSES[c.class]
        ));
    }
    s
}

fn run(text: &str) -> Simulation {
    api::simulate(&Request {
        sources: vec![Source::new("p.yaml", text)],
        // A cluster with no StorageClass: only the static pool binds.
        options: Options {
            complete: true,
            ..Options::default()
        },
        ..Request::default()
    })
    .unwrap()
}

/// The generated volume behind a volume name (`pv-<i>`).
fn vol_of<'a>(vols: &'a [Vol], name: &str) -> &'a Vol {
    &vols[name[3..].parse::<usize>().unwrap()]
}

fn claim_of<'a>(claims: &'a [Claim], name: &str) -> &'a Claim {
    &claims[name[2..].parse::<usize>().unwrap()]
}

fn vol() -> impl Strategy<Value = Vol> {
    (1u8..16, 1u32..8, 0usize..3, proptest::bool::weighted(0.2)).prop_map(
        |(modes, gi, class, block)| Vol {
            modes,
            gi,
            class,
            block,
        },
    )
}

fn claim(n_vols: usize) -> impl Strategy<Value = Claim> {
    (
        1u8..16,
        1u32..8,
        0usize..3,
        proptest::bool::weighted(0.2),
        proptest::option::weighted(0.2, 0..n_vols.max(1)),
    )
        .prop_map(move |(modes, gi, class, block, pre)| Claim {
            modes,
            gi,
            class,
            block,
            prebound: pre.filter(|_| n_vols > 0),
        })
}

fn pool() -> impl Strategy<Value = (Vec<Vol>, Vec<Claim>)> {
    proptest::collection::vec(vol(), 0..25).prop_flat_map(|vols| {
        let n = vols.len();
        (Just(vols), proptest::collection::vec(claim(n), 0..25))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn no_volume_is_bound_twice_and_every_binding_satisfies_its_claim((vols, claims) in pool()) {
        let w = run(&manifest(&vols, &claims));
        prop_assert!(w.converged);
        let mut seen = std::collections::HashSet::new();
        for c in w.claims.iter().filter(|c| c.phase == ClaimPhase::Bound) {
            let v = c.volume.clone().unwrap();
            prop_assert!(seen.insert(v.clone()), "{} bound twice", v);
            let pv = w.volumes.iter().find(|p| p.name == v).unwrap();
            prop_assert_eq!(pv.claim.clone(), Some(format!("{}/{}", c.namespace, c.name)));
            let (gv, gc) = (vol_of(&vols, &v), claim_of(&claims, &c.name));
            prop_assert_eq!(gv.modes & gc.modes, gc.modes, "access modes");
            prop_assert!(gv.gi >= gc.gi, "capacity");
            prop_assert_eq!(gv.block, gc.block, "volumeMode");
            // Only volumeName pre-binds here (checkVolumeSatisfyClaim checks the class), so
            // classes must match.
            prop_assert_eq!(gv.class, gc.class);
        }
    }

    #[test]
    fn the_order_of_volumes_does_not_change_outcomes((vols, claims) in pool(), seed in any::<u64>()) {
        // Pre-bound claims name volumes by index, so keep names stable and shuffle documents.
        let text = manifest(&vols, &claims);
        let mut docs: Vec<&str> = text.split("---\n").filter(|d| d.contains("PersistentVolume\n")).collect();
        let claims_text: Vec<&str> = text.split("---\n").filter(|d| d.contains("PersistentVolumeClaim\n")).collect();
        let mut s = seed;
        for i in (1..docs.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            docs.swap(i, (s >> 33) as usize % (i + 1));
        }
        let shuffled = format!("---\n{}---\n{}", docs.join("---\n"), claims_text.join("---\n"));
        let a = run(&text);
        let b = run(&shuffled);
                // Same phase for every claim, and a volume of the same size (equal-size volumes are
        // interchangeable: upstream takes the first it sees) — except where that tie decides
        // which of two claims gets a volume one of them names: then the loser says so.
        for ca in &a.claims {
            let cb = b.claims.iter().find(|c| c.name == ca.name).unwrap();
            if ca.phase != cb.phase {
                let loser = if ca.phase == ClaimPhase::Pending { ca } else { cb };
                prop_assert!(loser.order_dependent, "{} differs but is not marked order-dependent", loser.name);
                continue;
            }
                        // Without claims naming volumes, the pool left after each binding is the same up to
            // interchangeable volumes, so every claim gets a volume of the same size. (A claim
            // naming a volume can lose it to a tie-break, and then later claims see another pool.)
            if claims.iter().all(|c| c.prebound.is_none()) {
                let cap = |v: &Option<String>| v.as_ref().map(|v| vol_of(&vols, v).gi);
                prop_assert_eq!(cap(&ca.volume), cap(&cb.volume), "{}", ca.name);
            }
        }
    }

    #[test]
    fn claims_that_do_not_compete_bind_the_same_in_any_order((vols, claims) in pool()) {
        let text = manifest(&vols, &claims);
        let mut reversed: Vec<&str> = text.split("---\n").filter(|d| !d.is_empty()).collect();
        reversed.reverse();
        let a = run(&text);
        let b = run(&format!("---\n{}", reversed.join("---\n")));
        for ca in a.claims.iter().filter(|c| claim_of(&claims, &c.name).prebound.is_some()) {
            let cb = b.claims.iter().find(|c| c.name == ca.name).unwrap();
            // A claim naming its volume gets exactly it or stays Pending in either order. The
            // outcome may differ only when another claim takes that volume in one of the runs
            // (upstream is order-dependent then, and the simulation says so).
            let vol = claim_of(&claims, &ca.name).prebound.map(|p| format!("pv-{p}"));
            let taken_by_other = |w: &Simulation| w.claims.iter().any(|o| o.name != ca.name && o.phase == ClaimPhase::Bound && o.volume == vol);
            if ca.phase != cb.phase || ca.volume != cb.volume {
                prop_assert!(taken_by_other(&a) || taken_by_other(&b), "{} differs without competition", ca.name);
                let loser = if ca.phase == ClaimPhase::Pending { ca } else { cb };
                prop_assert!(loser.order_dependent, "{} lost its volume but is not marked order-dependent", loser.name);
            }
        }
    }
}
