//! pvlint against a bare YAML parse of the same bytes (issue 7): the 20,000-object corpus
//! parsed by serde_yaml into `serde_yaml::Value` (multi-document), next to pvlint's own
//! parse, its index, and the full lint (parse, index, simulation, rules).
//! Target: the full lint within 1.5× the serde_yaml parse.
//!
//! Criterion reports each step; the ratios to serde_yaml are printed at the end
//! (medians of interleaved runs, so both sides see the same machine load).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pvlint_core::{lint, stages, Options, Source};
use serde::Deserialize;

#[path = "corpus.rs"]
mod corpus;
#[path = "scale.rs"]
mod scale;

fn serde_parse(sources: &[Source]) -> usize {
    let mut docs = 0;
    for s in sources {
        for d in serde_yaml::Deserializer::from_str(&s.text) {
            let v = serde_yaml::Value::deserialize(d).expect("the corpus is valid YAML");
            docs += usize::from(!v.is_null());
        }
    }
    docs
}

fn pvlint_parse(sources: &[Source]) -> usize {
    sources.iter().map(|s| stages::parse(&s.text)).sum()
}

type Step = (&'static str, fn(&[Source]) -> usize);

const STEPS: [Step; 4] = [
    ("serde_yaml-parse", serde_parse),
    ("pvlint-parse", pvlint_parse),
    ("pvlint-index", |s| stages::index(s).objects()),
    ("pvlint-lint", |s| {
        lint(s, &Options::default()).findings.len()
    }),
];

fn bench(c: &mut Criterion) {
    let objects = 4 * scale::scaled(5_000) + 1;
    let sources = corpus::corpus(objects / 4, 50);
    let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
    assert_eq!(serde_parse(&sources), objects);
    assert_eq!(pvlint_parse(&sources), objects);
    let mut g = c.benchmark_group("vs-serde-yaml");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes as u64));
    for (name, f) in STEPS {
        g.bench_function(name, |b| b.iter(|| f(black_box(&sources))));
    }
    g.finish();

    // Interleaved rounds, medians, ratios to the serde_yaml parse.
    let rounds = if scale::benchmarking() { 7 } else { 1 };
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); STEPS.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in STEPS.iter().enumerate() {
            let t = Instant::now();
            black_box(f(black_box(&sources)));
            times[i].push(t.elapsed());
        }
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let medians: Vec<Duration> = times.iter_mut().map(median).collect();
    println!(
        "\nratios to the serde_yaml parse ({:.1} MB, {objects} objects; medians of {rounds} interleaved runs):",
        bytes as f64 / 1e6
    );
    for ((name, _), m) in STEPS.iter().zip(&medians) {
        println!(
            "  {name:<18} {:>8.1} ms  {:>5.2}×",
            m.as_secs_f64() * 1e3,
            m.as_secs_f64() / medians[0].as_secs_f64()
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
