//! The same corpus through the native core and through the WASI module under wasmtime, and
//! the two ways the module is loaded: compiled (a cache miss) and mapped from the cache.
//! Targets (issue 7): wasm end to end within 1.3× native on the 20,000 objects; see
//! harness/benches/end-to-end.sh for whole-process timings.
//!
//! Needs the WASI module (found as `pvlint --engine wasm` finds it; build it with
//! `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`).

use criterion::{criterion_group, criterion_main, Criterion};
use pvlint_core::Options;

#[path = "../../lint-core/benches/corpus.rs"]
mod corpus;
#[path = "../../lint-core/benches/scale.rs"]
mod scale;

use pvlint::engine::{self, Loaded, WasmCore};

fn request(sources: &[pvlint_core::Source]) -> String {
    let named: Vec<serde_json::Value> = sources
        .iter()
        .map(|s| serde_json::json!({"name": s.name, "text": s.text}))
        .collect();
    serde_json::json!({ "sources": named }).to_string()
}

fn bench(c: &mut Criterion) {
    let path = engine::locate(None).unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(&path).unwrap();
    let sources = corpus::corpus(scale::scaled(5_000), 50);
    let req = request(&sources);
    let mut g = c.benchmark_group("engines");
    g.sample_size(10);
    g.bench_function("compile-module", |b| {
        b.iter(|| WasmCore::compile(&bytes).unwrap())
    });
    let cache = std::env::temp_dir().join(format!("pvlint-bench-cache-{}", std::process::id()));
    let (_, first) = WasmCore::load(&bytes, Some(&cache)).unwrap();
    assert_eq!(first, Loaded::Stored);
    g.bench_function("load-cached-module", |b| {
        b.iter(|| {
            let (core, how) = WasmCore::load(&bytes, Some(&cache)).unwrap();
            assert_eq!(how, Loaded::Cached);
            core
        })
    });
    let core = WasmCore::load(&bytes, Some(&cache)).unwrap().0;
    // Same bytes out of both engines.
    let native = pvlint_core::render::json(&pvlint_core::lint(&sources, &Options::default()));
    assert_eq!(core.call("pvlint_lint", &req).unwrap(), native);
    g.bench_function("native-20k-objects", |b| {
        b.iter(|| pvlint_core::render::json(&pvlint_core::lint(&sources, &Options::default())))
    });
    g.bench_function("wasm-20k-objects", |b| {
        b.iter(|| core.call("pvlint_lint", &req).unwrap())
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&cache);
}

criterion_group!(benches, bench);
criterion_main!(benches);
