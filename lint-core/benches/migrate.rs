//! `pvlint migrate` on a generated `kubectl get pv,pvc -o yaml` export of 5,000 bound pairs
//! (10,000 objects in one List, about 8 MiB): split, plan, in-place edits, read back.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pvlint_core::api::{migrate, MigrateOptions, MigrateRequest};
use pvlint_core::Source;

mod export;
mod scale;

fn bench(c: &mut Criterion) {
    let n = scale::scaled(5000);
    let text = export::generated_export(n);
    let req = MigrateRequest {
        sources: vec![Source::new("export.yaml", text.clone())],
        options: MigrateOptions::default(),
    };
    assert_eq!(migrate(&req).objects.len(), 2 * n);
    let mut g = c.benchmark_group("migrate");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("5k-pv-5k-pvc-export", |b| b.iter(|| migrate(&req)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
