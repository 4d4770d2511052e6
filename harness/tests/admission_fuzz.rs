//! Hostile input for the real policy module under the waPC host (the fuzz target of issue 9,
//! proptest-driven: cargo-fuzz needs a nightly toolchain's sanitizers, this machine has
//! stable). Arbitrary bytes and the fixtures' requests with random parts replaced by random
//! JSON go to `validate`; the policy must always answer with a ValidationResponse — no trap,
//! no deadline, no memory exhaustion (those come back as code 500).

#[path = "../../wasm/kubewarden/tests/common/mutate.rs"]
mod mutate;
#[path = "common/policy.rs"]
mod policy;

use std::cell::RefCell;

use proptest::prelude::*;
use pvlint::admission::{Answers, Evaluator, Limits, Policy};
use serde_json::{json, Value};

/// The compiled policy, for the life of the test thread.
fn policy() -> &'static Policy {
    Box::leak(Box::new(
        Policy::load(policy::module(), Limits::default()).unwrap(),
    ))
}

fn seed_requests() -> Vec<(Value, String)> {
    let dir = policy::repo().join("wasm/kubewarden/tests/fixtures");
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for d in dirs {
        let r: Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("request.json")).unwrap())
                .unwrap();
        let state = std::fs::read_to_string(d.join("cluster.yaml")).unwrap_or_default();
        out.push((r.get("request").cloned().unwrap_or(r), state));
    }
    out
}

/// One warm evaluator per fixture cluster, reused across cases (as policy-server reuses its).
struct Warm {
    requests: Vec<Value>,
    evaluators: Vec<Evaluator<'static>>,
}

thread_local! {
    static WARM: RefCell<Option<Warm>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's warm evaluators (the waPC host is not Send).
fn with_warm<R>(f: impl FnOnce(&mut Warm) -> R) -> R {
    WARM.with(|w| {
        let mut w = w.borrow_mut();
        let warm = w.get_or_insert_with(|| {
            let p = policy();
            let (requests, evaluators) = seed_requests()
                .into_iter()
                .map(|(r, s)| {
                    (
                        r,
                        p.evaluator(Answers::load(&s, p.grants()).unwrap()).unwrap(),
                    )
                })
                .unzip();
            Warm {
                requests,
                evaluators,
            }
        });
        f(warm)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_trap(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let d = with_warm(|w| w.evaluators[0].validate_payload("u", &bytes));
        prop_assert_eq!(d.code, None, "{:?}", d);
        prop_assert!(d.allowed || d.message.is_some());
    }

    #[test]
    fn mutated_requests_never_trap(
        which in any::<prop::sample::Index>(),
        picks in prop::collection::vec((any::<usize>(), mutate::json_value()), 1..6),
    ) {
        let d = with_warm(|w| {
            let i = which.index(w.requests.len());
            let req = mutate::mutate(w.requests[i].clone(), &picks);
            w.evaluators[i].validate(&req, &json!({}))
        });
        prop_assert_eq!(d.code, None, "{:?}", d);
        prop_assert!(d.allowed || d.message.is_some());
    }
}
