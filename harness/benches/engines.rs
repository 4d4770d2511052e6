//! The same corpus through the native core and through the WASI module under wasmtime.
//! Target (issue 4): wasm end to end within 1.5× native; module compile time reported apart.

use criterion::{criterion_group, criterion_main, Criterion};
use pvlint_core::Options;

#[path = "../../lint-core/benches/corpus.rs"]
mod corpus;

use pvlint::engine;

fn request(sources: &[pvlint_core::Source]) -> String {
    let named: Vec<serde_json::Value> = sources
        .iter()
        .map(|s| serde_json::json!({"name": s.name, "text": s.text}))
        .collect();
    serde_json::json!({ "sources": named }).to_string()
}

fn bench(c: &mut Criterion) {
    let sources = corpus::corpus(5_000, 50);
    let req = request(&sources);
    let mut g = c.benchmark_group("engines");
    g.sample_size(10);
    g.bench_function("compile-module", |b| {
        b.iter(|| engine::WasmCore::compile(engine::MODULE_BYTES).unwrap())
    });
    let core = engine::WasmCore::compile(engine::MODULE_BYTES).unwrap();
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
