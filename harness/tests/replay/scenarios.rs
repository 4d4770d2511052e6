//! Cluster states built from the field reports (../shared/seeds), as the API server holds
//! them: objects with uids, phases, bind annotations and the controllers' finalizers.

use serde_json::{json, Value};

#[allow(clippy::too_many_arguments)]
fn bound_pair(
    pv: &str,
    ns: &str,
    claim: &str,
    claim_uid: &str,
    class: &str,
    size: &str,
    modes: &[&str],
    source: Value,
    policy: &str,
) -> [Value; 2] {
    let mut pv_obj = json!({
        "apiVersion": "v1", "kind": "PersistentVolume",
        "metadata": {"name": pv, "annotations": {"pv.kubernetes.io/bound-by-controller": "yes"}, "finalizers": ["kubernetes.io/pv-protection"]},
        "spec": {
            "capacity": {"storage": size}, "accessModes": modes, "persistentVolumeReclaimPolicy": policy,
            "storageClassName": class, "volumeMode": "Filesystem",
            "claimRef": {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "namespace": ns, "name": claim, "uid": claim_uid},
        },
        "status": {"phase": "Bound"},
    });
    for (k, v) in source.as_object().unwrap() {
        pv_obj["spec"][k] = v.clone();
    }
    let pvc = json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": claim, "namespace": ns, "uid": claim_uid,
                     "annotations": {"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes"},
                     "finalizers": ["kubernetes.io/pvc-protection"]},
        "spec": {"accessModes": modes, "resources": {"requests": {"storage": size}}, "storageClassName": class,
                 "volumeMode": "Filesystem", "volumeName": pv},
        "status": {"phase": "Bound", "accessModes": modes, "capacity": {"storage": size}},
    });
    [pv_obj, pvc]
}

/// Seed 000 on the DR cluster: the exported PV (Delete, CFS CSI) kept the old claim's
/// claimRef.uid; the new claim, applied with bind-completed, is Lost (ClaimMisbound) and the
/// PV Released.
pub fn seed000() -> Vec<Value> {
    let [mut pv, mut pvc] = bound_pair(
        "shared-data",
        "test",
        "shared-data",
        "a1b2c3d4-0000-4000-8000-000000000001",
        "",
        "100Gi",
        &["ReadWriteMany"],
        json!({"csi": {"driver": "com.tencent.cloud.csi.cfs", "volumeHandle": "cfs-3c7e956f6"}}),
        "Retain",
    );
    pv["spec"]["claimRef"]["uid"] = json!("3d65a636-f4c3-4c49-b957-c45673f48bc6");
    pv["status"]["phase"] = json!("Released");
    pvc["status"] = json!({"phase": "Lost"});
    vec![pv, pvc, csi_driver("com.tencent.cloud.csi.cfs", false)]
}

fn csi_driver(name: &str, attach: bool) -> Value {
    json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": name},
           "spec": {"attachRequired": attach, "podInfoOnMount": false, "volumeLifecycleModes": ["Persistent"]}})
}

fn node(name: &str, ready: bool, in_use: &[&str]) -> Value {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
           "spec": {"podCIDR": "10.244.1.0/24"},
           "status": {"conditions": [{"type": "Ready", "status": if ready { "True" } else { "Unknown" }, "reason": "KubeletReady"}],
                      "volumesInUse": in_use}})
}

/// Seed 003, problem one: the Deployment's old pod on node-1 was force-deleted; the RBD
/// volume is still attached (and mounted) there, while the new pod on node-2 waits.
pub fn seed003() -> Vec<Value> {
    let handle = "0001-0024-k8s-kubernetes-dynamic-pvc-0a5eb91b";
    let pv_name = "pvc-0a5eb91b-3720-11e8-8d2b-000c29f8a512";
    let [mut pv, pvc] = bound_pair(
        pv_name,
        "default",
        "data-vol",
        "0a5eb91b-3720-11e8-8d2b-000c29f8a512",
        "rbd",
        "8Gi",
        &["ReadWriteOnce"],
        json!({"csi": {"driver": "rbd.csi.ceph.com", "volumeHandle": handle}}),
        "Delete",
    );
    pv["metadata"]["annotations"]["pv.kubernetes.io/provisioned-by"] = json!("rbd.csi.ceph.com");
    pv["metadata"]["finalizers"] = json!([
        "kubernetes.io/pv-protection",
        "external-provisioner.volume.kubernetes.io/finalizer"
    ]);
    let owner = json!([{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "app-7d9f8b6c5", "uid": "11111111-0000-4000-8000-000000000001", "controller": true, "blockOwnerDeletion": true}]);
    vec![
        pv,
        pvc,
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "rbd"},
               "provisioner": "rbd.csi.ceph.com", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"}),
        csi_driver("rbd.csi.ceph.com", true),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "app", "namespace": "default"},
               "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "app"}},
                        "strategy": {"type": "Recreate"},
                        "template": {"metadata": {"labels": {"app": "app"}},
                                     "spec": {"containers": [{"name": "app", "image": "app:1"}],
                                              "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-vol"}}]}}}}),
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "app-7d9f8b6c5", "namespace": "default",
               "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "app", "uid": "11111111-0000-4000-8000-000000000000", "controller": true}]},
               "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "app"}},
                        "template": {"metadata": {"labels": {"app": "app"}},
                                     "spec": {"containers": [{"name": "app", "image": "app:1"}],
                                              "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-vol"}}]}}}}),
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app-7d9f8b6c5-x2k4p", "namespace": "default", "ownerReferences": owner},
               "spec": {"nodeName": "node-2", "containers": [{"name": "app", "image": "app:1"}],
                        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-vol"}}]},
               "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True"}]}}),
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment", "metadata": {"name": "csi-3b1f0c8e9d2a"},
               "spec": {"attacher": "rbd.csi.ceph.com", "nodeName": "node-1", "source": {"persistentVolumeName": pv_name}},
               "status": {"attached": true}}),
        node(
            "node-1",
            true,
            &[&format!("kubernetes.io/csi/rbd.csi.ceph.com^{handle}")],
        ),
        node("node-2", true, &[]),
    ]
}

/// A Retain volume whose claim was deleted and created again: the volume is Released, the new
/// claim names it and waits.
pub fn released_retain() -> Vec<Value> {
    let [mut pv, mut pvc] = bound_pair(
        "reports-pv",
        "finance",
        "reports",
        "7a7a7a7a-0000-4000-8000-0000000000aa",
        "",
        "20Gi",
        &["ReadWriteOnce"],
        json!({"nfs": {"server": "10.0.0.5", "path": "/exports/reports"}}),
        "Retain",
    );
    pv["status"]["phase"] = json!("Released");
    pvc["metadata"]["uid"] = json!("7a7a7a7a-0000-4000-8000-0000000000bb");
    pvc["metadata"]["annotations"] = json!({});
    pvc["status"] = json!({"phase": "Pending"});
    vec![pv, pvc]
}

/// A large healthy cluster: `n` bound PV/claim pairs in 20 namespaces (CSI, Delete, with the
/// external-provisioner's finalizer), one StorageClass, one CSIDriver.
pub fn large(n: usize) -> Vec<Value> {
    let mut out = vec![
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
               "metadata": {"name": "standard", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
               "provisioner": "ebs.csi.aws.com", "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer"}),
        csi_driver("ebs.csi.aws.com", true),
    ];
    for i in 0..n {
        let [mut pv, pvc] = bound_pair(
            &format!("pvc-{i:08x}-0000-4000-8000-000000000000"),
            &format!("team-{:02}", i % 20),
            &format!("data-{i}"),
            &format!("{i:08x}-0000-4000-8000-000000000000"),
            "standard",
            "10Gi",
            &["ReadWriteOnce"],
            json!({"csi": {"driver": "ebs.csi.aws.com", "volumeHandle": format!("vol-{i:016x}"), "fsType": "ext4"}}),
            "Delete",
        );
        pv["metadata"]["annotations"]["pv.kubernetes.io/provisioned-by"] = json!("ebs.csi.aws.com");
        pv["metadata"]["finalizers"] = json!([
            "kubernetes.io/pv-protection",
            "external-provisioner.volume.kubernetes.io/finalizer"
        ]);
        out.push(pv);
        out.push(pvc);
    }
    out
}

/// A StorageClass of the in-tree RBD provisioner (kube-controller-manager served it until
/// 1.30) and a claim of that class waiting for its volume.
pub fn in_tree_rbd() -> Vec<Value> {
    vec![
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
               "metadata": {"name": "fast-rbd", "uid": "5c1d2e3f-0000-4000-8000-0000000000a1"},
               "provisioner": "kubernetes.io/rbd",
               "parameters": {"monitors": "10.16.153.105:6789", "pool": "kube"},
               "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"}),
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
               "metadata": {"name": "data", "namespace": "default", "uid": "5c1d2e3f-0000-4000-8000-0000000000c1",
                            "annotations": {"volume.beta.kubernetes.io/storage-provisioner": "kubernetes.io/rbd",
                                            "volume.kubernetes.io/storage-provisioner": "kubernetes.io/rbd"},
                            "finalizers": ["kubernetes.io/pvc-protection"]},
               "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}},
                        "storageClassName": "fast-rbd", "volumeMode": "Filesystem"},
               "status": {"phase": "Pending"}}),
    ]
}

/// Case 30 recorded on a real Kubernetes v1.34.9 control plane (lint-core/tests/oracle/30-wire-cluster-state):
/// `/version`, the lists of PVs, claims and classes, the first two pages of the `shop` claims
/// at `limit=1` (real continue tokens, `remainingItemCount`) and the 404 Status of a missing PV
/// are served byte for byte as the API server sent them; the objects behind them are also in
/// the store, so a list past the recorded pages goes on where the real token points. The
/// CSIDriver comes from `kubectl get ... -o yaml` of the same cluster.
pub fn oracle_wire() -> super::Scenario {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../lint-core/tests/oracle/30-wire-cluster-state");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let list = |f: &str, kind: &str, api: &str| -> Vec<Value> {
        let v: Value = serde_json::from_str(&read(f)).unwrap();
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let mut i = i.clone();
                i["apiVersion"] = json!(api);
                i["kind"] = json!(kind);
                i
            })
            .collect()
    };
    let mut objects = list("raw-persistentvolumes.json", "PersistentVolume", "v1");
    objects.extend(list(
        "raw-persistentvolumeclaims.json",
        "PersistentVolumeClaim",
        "v1",
    ));
    objects.extend(list(
        "raw-storageclasses.json",
        "StorageClass",
        "storage.k8s.io/v1",
    ));
    let state = pvlint_core::api::documents_json(&read("cluster-state.yaml")).unwrap();
    for doc in state {
        for item in doc["items"].as_array().into_iter().flatten() {
            if item["kind"] == "CSIDriver" {
                objects.push(item.clone());
            }
        }
    }
    // The events the controllers recorded by the end of the run (outcome.json), as core/v1
    // Events: events about cluster-scoped volumes live in namespace default.
    let outcome: Value = serde_json::from_str(&read("outcome.json")).unwrap();
    let last = outcome["steps"].as_array().unwrap().last().unwrap();
    for (i, e) in last["state"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let ns = e["namespace"].as_str().unwrap_or("default");
        objects.push(json!({
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": format!("{}.{i:016x}", e["name"].as_str().unwrap()), "namespace": ns},
            "involvedObject": {"apiVersion": "v1", "kind": e["kind"], "name": e["name"], "namespace": e["namespace"]},
            "type": e["type"], "reason": e["reason"], "message": e["message"], "count": e["count"],
            "source": {"component": e["source"]},
            "lastTimestamp": format!("2026-11-26T13:59:{:02}Z", i.min(59)),
        }));
    }
    let version: Value = serde_json::from_str(&read("raw-version.json")).unwrap();
    let mut sc = super::Scenario::new(objects);
    sc.git_version = version["gitVersion"].as_str().unwrap().to_string();
    let raw = |path: &str, token: Option<&str>, status: u16, file: &str| super::Raw {
        path: path.into(),
        continue_token: token.map(String::from),
        status,
        body: read(file),
    };
    let page1: Value =
        serde_json::from_str(&read("raw-shop-persistentvolumeclaims-limit1.json")).unwrap();
    let token1 = page1["metadata"]["continue"].as_str().unwrap().to_string();
    sc.raw = vec![
        raw("/version", None, 200, "raw-version.json"),
        raw(
            "/api/v1/persistentvolumes",
            None,
            200,
            "raw-persistentvolumes.json",
        ),
        raw(
            "/api/v1/persistentvolumeclaims",
            None,
            200,
            "raw-persistentvolumeclaims.json",
        ),
        raw(
            "/apis/storage.k8s.io/v1/storageclasses",
            None,
            200,
            "raw-storageclasses.json",
        ),
        raw(
            "/api/v1/namespaces/shop/persistentvolumeclaims",
            None,
            200,
            "raw-shop-persistentvolumeclaims-limit1.json",
        ),
        raw(
            "/api/v1/namespaces/shop/persistentvolumeclaims",
            Some(&token1),
            200,
            "raw-shop-persistentvolumeclaims-limit1-page2.json",
        ),
        raw(
            "/api/v1/persistentvolumes/does-not-exist",
            None,
            404,
            "raw-404-body.json",
        ),
    ];
    sc
}
