//! Per-request time of the Kubewarden policy under the waPC host, warm (one pre-instantiated
//! module, reused as policy-server's workers reuse theirs), lookups answered locally.
//! Target (issue 9): p99 < 2 ms. Prints p50/p99 over 2,000 requests per case, then the
//! criterion statistics.

#[path = "../tests/common/policy.rs"]
mod policy;

use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use pvlint::admission::{Answers, Limits, Policy};
use serde_json::{json, Value};

fn class() -> Vec<Value> {
    vec![
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
               "metadata": {"name": "rbd", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
               "provisioner": "rbd.csi.ceph.com", "reclaimPolicy": "Delete"}),
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
               "metadata": {"name": "rbd.csi.ceph.com"}, "spec": {"attachRequired": true}}),
    ]
}

/// A bound claim and its volume.
fn pair(ns: &str, i: usize, bound: bool) -> Vec<Value> {
    let claim = format!("data-{i}");
    let vol = format!("pvc-{i:08}-0000-4000-8000-000000000000");
    let uid = format!("{i:08}-0000-4000-8000-000000000000");
    let mut c = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": claim, "namespace": ns, "uid": uid,
                     "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
        "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "8Gi"}},
                 "storageClassName": "rbd", "volumeMode": "Filesystem", "volumeName": vol},
        "status": {"phase": "Bound"}});
    let v = json!({"apiVersion": "v1", "kind": "PersistentVolume",
        "metadata": {"name": vol, "annotations": {"pv.kubernetes.io/provisioned-by": "rbd.csi.ceph.com"},
                     "finalizers": ["external-provisioner.volume.kubernetes.io/finalizer", "kubernetes.io/pv-protection"]},
        "spec": {"accessModes": ["ReadWriteMany"], "capacity": {"storage": "8Gi"},
                 "claimRef": {"kind": "PersistentVolumeClaim", "namespace": ns, "name": claim, "uid": uid},
                 "csi": {"driver": "rbd.csi.ceph.com", "volumeHandle": vol},
                 "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "rbd", "volumeMode": "Filesystem"},
        "status": {"phase": "Bound"}});
    if !bound {
        c["spec"].as_object_mut().unwrap().remove("volumeName");
        c["metadata"].as_object_mut().unwrap().remove("annotations");
        c["status"] = json!({"phase": "Pending"});
        return vec![c];
    }
    vec![c, v]
}

fn deployment(ns: &str, claims: &[usize]) -> Value {
    let volumes: Vec<Value> = claims
        .iter()
        .map(|i| json!({"name": format!("v{i}"), "persistentVolumeClaim": {"claimName": format!("data-{i}")}}))
        .collect();
    let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "app", "namespace": ns, "uid": "c3a8e2f0-1b4d-4e6a-9c7f-2d8e0f1a3b5c", "generation": 1},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "app"}},
                 "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                 "template": {"metadata": {"labels": {"app": "app"}},
                              "spec": {"containers": [{"name": "app", "image": "example/app:1.0"}], "volumes": volumes}}},
        "status": {}});
    json!({"uid": "2f3c7e4a-9b1d-4c8e-a6f0-5d2e1b3c4a7f",
           "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
           "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
           "name": "app", "namespace": ns, "operation": "CREATE",
           "userInfo": {"username": "kubernetes-admin"}, "object": obj, "oldObject": null, "dryRun": false})
}

struct Case {
    name: &'static str,
    cluster: Vec<Value>,
    request: Value,
}

fn cases() -> Vec<Case> {
    let mut three = class();
    for i in 0..3 {
        three.extend(pair("app", i, true));
    }
    let mut ns200 = class();
    for i in 0..200 {
        ns200.extend(pair("app", i, true));
    }
    // The same namespace where one mounted claim is still Pending: every PersistentVolume
    // (the static pool) is read too.
    let mut pool = class();
    for i in 0..200 {
        pool.extend(pair("app", i, i != 1));
    }
    vec![
        Case {
            name: "deployment-3-claims",
            cluster: three,
            request: deployment("app", &[0, 1, 2]),
        },
        Case {
            name: "namespace-200-claims",
            cluster: ns200,
            request: deployment("app", &[0, 1, 2]),
        },
        Case {
            name: "namespace-200-claims-pool-200-volumes",
            cluster: pool,
            request: deployment("app", &[0, 1, 2]),
        },
    ]
}

fn state(c: &Case) -> String {
    json!({"apiVersion": "v1", "kind": "List", "items": c.cluster}).to_string()
}

fn percentiles() {
    let p = Policy::load(policy::module(), Limits::default()).unwrap();
    for case in cases() {
        let mut ev = p
            .evaluator(Answers::load(&state(&case), p.grants()).unwrap())
            .unwrap();
        let payload =
            serde_json::to_vec(&json!({"request": case.request, "settings": {}})).unwrap();
        let first = ev.validate_payload("u", &payload);
        assert!(first.code.is_none(), "{}: {first:?}", case.name);
        for _ in 0..100 {
            ev.validate_payload("u", &payload);
        }
        let mut times: Vec<Duration> = (0..2_000)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(ev.validate_payload("u", &payload));
                t.elapsed()
            })
            .collect();
        times.sort();
        let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
        println!(
            "admission/{:<40} p50 {:>8.3} ms   p99 {:>8.3} ms   (allowed: {}, {} lookups' objects)",
            case.name,
            at(0.50).as_secs_f64() * 1e3,
            at(0.99).as_secs_f64() * 1e3,
            first.allowed,
            case.cluster.len(),
        );
    }
}

fn bench(c: &mut Criterion) {
    let p = Policy::load(policy::module(), Limits::default()).unwrap();
    let mut g = c.benchmark_group("admission");
    for case in cases() {
        let mut ev = p
            .evaluator(Answers::load(&state(&case), p.grants()).unwrap())
            .unwrap();
        let payload =
            serde_json::to_vec(&json!({"request": case.request, "settings": {}})).unwrap();
        g.bench_function(case.name, |b| b.iter(|| ev.validate_payload("u", &payload)));
    }
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs each benchmark once only.
    if std::env::args().any(|a| a == "--bench") {
        percentiles();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
