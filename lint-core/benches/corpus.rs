//! Generated manifest sets for the benchmarks (shared with harness/benches/engines.rs).

use pvlint_core::Source;

/// `n` groups of 4 objects in `files` files.
#[allow(dead_code)]
pub fn corpus(groups: usize, files: usize) -> Vec<Source> {
    let mut texts = vec![String::new(); files];
    texts[0].push_str(
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: gp3\n  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\nprovisioner: ebs.csi.aws.com\n---\n",
    );
    for i in 0..groups {
        let t = &mut texts[i % files];
        let uid = if i % 10 == 0 {
            format!("\n    uid: 3d65a636-f4c3-4c49-b957-{i:012}")
        } else {
            String::new()
        };
        let policy = if i % 7 == 0 { "Delete" } else { "Retain" };
        t.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{i}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity:\n    storage: {}Gi\n  claimRef:\n    namespace: ns-{}\n    name: data-{i}{uid}\n  csi:\n    driver: ebs.csi.aws.com\n    volumeHandle: vol-{i:08x}\n  persistentVolumeReclaimPolicy: {policy}\n  storageClassName: gp3\n---\n",
            1 + i % 50,
            i % 20
        ));
        t.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data-{i}\n  namespace: ns-{}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: {}Gi\n  storageClassName: gp3\n  volumeName: pv-{i}\n---\n",
            i % 20,
            1 + i % 50
        ));
        t.push_str(&format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}\n  namespace: ns-{}\nspec:\n  replicas: {}\n  selector:\n    matchLabels: {{app: app-{i}}}\n  template:\n    metadata:\n      labels: {{app: app-{i}}}\n    spec:\n      containers:\n      - name: app\n        image: example/app:{i}\n        volumeMounts:\n        - {{name: data, mountPath: /data}}\n      volumes:\n      - name: data\n        persistentVolumeClaim:\n          claimName: data-{i}\n---\n",
            i % 20,
            1 + i % 3
        ));
        t.push_str(&format!(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db-{i}\n  namespace: ns-{}\nspec:\n  replicas: 3\n  serviceName: db\n  selector:\n    matchLabels: {{app: db-{i}}}\n  template:\n    metadata:\n      labels: {{app: db-{i}}}\n    spec:\n      containers:\n      - name: db\n        image: postgres:16\n  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: gp3\n      resources:\n        requests:\n          storage: 10Gi\n---\n",
            i % 20
        ));
    }
    texts
        .into_iter()
        .enumerate()
        .map(|(i, t)| Source::new(format!("manifests/{i}.yaml"), t))
        .collect()
}

/// `n` static volumes and `n` claims over 3 classes, 4 access-mode sets and 20 sizes; a tenth
/// of the claims name their volume, the rest are matched by the controller.
#[allow(dead_code)]
pub fn pool(n: usize) -> Vec<Source> {
    let modes = [
        "[ReadWriteOnce]",
        "[ReadWriteOnce, ReadOnlyMany]",
        "[ReadWriteMany]",
        "[ReadWriteOncePod]",
    ];
    let classes = ["gold", "silver", ""];
    let mut pvs = String::new();
    let mut claims = String::new();
    for i in 0..n {
        pvs.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{i}\nspec:\n  accessModes: {}\n  capacity:\n    storage: {}Gi\n  storageClassName: \"{}\"\n  nfs: {{server: 10.0.0.1, path: /e/{i}}}\n---\n",
            modes[i % 4],
            1 + (i * 7) % 20,
            classes[i % 3]
        ));
        let volume_name = if i % 10 == 0 {
            format!("  volumeName: pv-{i}\n")
        } else {
            String::new()
        };
        claims.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c-{i}\n  namespace: ns-{}\nspec:\n  accessModes: {}\n  resources:\n    requests:\n      storage: {}Gi\n  storageClassName: \"{}\"\n{volume_name}---\n",
            i % 50,
            modes[(i / 3) % 4],
            1 + (i * 11) % 20,
            classes[i % 3]
        ));
    }
    vec![
        Source::new("pvs.yaml", pvs),
        Source::new("claims.yaml", claims),
    ]
}

/// The worst case for unbindable-claim: `n` claims that all stay Pending against `n` volumes
/// that are each too small.
#[allow(dead_code)]
pub fn shortfall(n: usize) -> Vec<Source> {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-{i}\nspec:\n  accessModes: [ReadWriteOnce]\n  capacity:\n    storage: 1Gi\n  storageClassName: \"\"\n  nfs: {{server: 10.0.0.1, path: /e/{i}}}\n---\n"
        ));
        text.push_str(&format!(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c-{i}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 5Gi\n  storageClassName: \"\"\n---\n"
        ));
    }
    vec![Source::new("shortfall.yaml", text)]
}
