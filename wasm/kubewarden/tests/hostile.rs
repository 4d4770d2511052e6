//! Hostile input for `validate`, natively (fast, many cases): arbitrary bytes, and the
//! fixtures' requests with random parts replaced by random JSON. The policy must always
//! answer — a ValidationResponse, never a panic. The same inputs run against the real .wasm
//! under the waPC host in harness/tests/admission_fuzz.rs.

use std::path::Path;

#[path = "common/mutate.rs"]
mod mutate;
#[path = "common/state.rs"]
mod state;

use std::sync::OnceLock;

use mutate::{json_value, mutate};
use proptest::prelude::*;
use pvlint_kubewarden::decision::evaluate;
use serde_json::Value;
use state::State;

fn fixtures() -> &'static [(Value, State)] {
    static F: OnceLock<Vec<(Value, State)>> = OnceLock::new();
    F.get_or_init(load)
}

fn load() -> Vec<(Value, State)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for d in dirs {
        let req: Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("request.json")).unwrap())
                .unwrap();
        let req = req.get("request").cloned().unwrap_or(req);
        let objects = std::fs::read_to_string(d.join("cluster.yaml"))
            .ok()
            .map(|t| {
                let docs = pvlint_core::api::documents_json(&t).unwrap();
                docs.into_iter()
                    .flat_map(|d| d["items"].as_array().cloned().unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        out.push((req, State(objects)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_get_an_answer(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let r = evaluate(&bytes, &State(Vec::new()));
        prop_assert!(r.accepted || r.message.is_some());
    }

    #[test]
    fn mutated_requests_get_an_answer(
        which in any::<prop::sample::Index>(),
        picks in prop::collection::vec((any::<usize>(), json_value()), 1..6),
    ) {
        let all = fixtures();
        let (req, state) = &all[which.index(all.len())];
        let req = mutate(req.clone(), &picks);
        let payload = serde_json::to_vec(&serde_json::json!({"request": req, "settings": {}})).unwrap();
        let r = evaluate(&payload, state);
        prop_assert!(r.accepted || r.message.is_some());
    }
}
