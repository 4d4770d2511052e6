//! `pvlint cluster` end to end on a large replay cluster: 10,000 PersistentVolumes and 10,000
//! claims read over HTTP from the replay API server (paged, concurrently), turned into the
//! state text, and audited. Target: under 2 s on the 2-core development machine.
//!
//!     cargo bench -p pvlint --bench cluster

#[path = "../tests/replay/mod.rs"]
mod replay;
#[path = "../../lint-core/benches/scale.rs"]
mod scale;

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use pvlint::cluster::{render_state, scan, Progress, Target};
use pvlint_core::{api, Options, Request, Source};
use replay::{scenarios, Replay, Scenario};

fn cluster(c: &mut Criterion) {
    let n = scale::scaled(10_000);
    let server = Replay::start(Scenario::new(scenarios::large(n)));
    let dir = std::env::temp_dir().join(format!("pvlint-bench-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kc = dir.join("kubeconfig");
    server.kubeconfig(&kc);
    let target = Target {
        kubeconfig: Some(kc),
        context: None,
        namespace: None,
        timeout: Duration::from_secs(120),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut g = c.benchmark_group("cluster");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.bench_function("scan and audit 10k PVs + 10k claims (replay server)", |b| {
        b.iter(|| {
            let s = rt
                .block_on(scan(&target, Arc::new(Progress::default())))
                .expect("scan");
            let text = render_state(&s);
            let report = api::lint(&Request {
                cluster: vec![Source::new("state.yaml", text)],
                options: Options {
                    kube_version: s.version,
                    ..Options::default()
                },
                audit: true,
                ..Request::default()
            });
            assert_eq!(report.summary.objects, 2 * n + 2);
            report
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, cluster);
criterion_main!(benches);
