//! `validate` with arbitrary request bytes, answered from the seed 003 fixture's cluster
//! (claims, a bound CSI volume, classes, a CSIDriver): the policy must always answer with a
//! ValidationResponse — accepted, or rejected with a message — and never panic.
#![no_main]

#[path = "../../tests/common/state.rs"]
mod state;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pvlint_kubewarden::decision::evaluate;
use state::State;

fn cluster() -> &'static State {
    static S: OnceLock<State> = OnceLock::new();
    S.get_or_init(|| {
        let text = include_str!("../../tests/fixtures/seed-003-deployment-rwo-claim/cluster.yaml");
        let docs = pvlint_core::api::documents_json(text).expect("the fixture's cluster.yaml");
        State(
            docs.into_iter()
                .flat_map(|d| d["items"].as_array().cloned().unwrap_or_default())
                .collect(),
        )
    })
}

fuzz_target!(|data: &[u8]| {
    let r = evaluate(data, cluster());
    assert!(r.accepted || r.message.is_some(), "a rejection says why");
    serde_json::to_vec(&r).expect("the response serialises");
});
