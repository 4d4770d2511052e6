//! Lint throughput on a generated manifest set of 20,000 objects (PVs, claims,
//! Deployments, StatefulSets, StorageClasses), with a realistic share of hazards.
//! Target (issue 2): under 2 s natively for the whole set.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pvlint_core::{lint, Options};

#[path = "corpus.rs"]
mod corpus;
#[path = "scale.rs"]
mod scale;
use corpus::{corpus, pool, shortfall};
use scale::scaled;

fn bench_sim(c: &mut Criterion) {
    let n = scaled(10_000);
    let req = pvlint_core::Request::new(pool(n));
    let w = pvlint_core::api::simulate(&req).unwrap();
    assert!(w.converged);
    let bound = w
        .claims
        .iter()
        .filter(|c| c.phase == pvlint_core::ClaimPhase::Bound)
        .count();
    assert!(bound > 3 * n / 10, "{bound} of {n} bound");
    let mut g = c.benchmark_group("simulate");
    g.sample_size(10);
    g.bench_function("10k-pvs-10k-claims", |b| {
        b.iter(|| pvlint_core::api::simulate(&req).unwrap())
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let groups = scaled(5_000);
    let sources = corpus(groups, 50);
    let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
    let report = lint(&sources, &Options::default());
    assert_eq!(report.summary.objects, 4 * groups + 1);
    assert!(report.summary.errors > 0);
    let mut g = c.benchmark_group("lint");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("20k-objects", |b| {
        b.iter(|| lint(&sources, &Options::default()))
    });
    // 10,000 claims left Pending against 10,000 too-small volumes: no quadratic search.
    let n = scaled(10_000);
    let pending = shortfall(n);
    let r = lint(&pending, &Options::default());
    assert_eq!(
        r.findings
            .iter()
            .filter(|f| f.rule == "unbindable-claim")
            .count(),
        n
    );
    g.bench_function("10k-unbindable-claims", |b| {
        b.iter(|| lint(&pending, &Options::default()))
    });
    g.finish();
}

criterion_group!(benches, bench, bench_sim);
criterion_main!(benches);
