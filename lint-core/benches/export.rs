//! A generated `kubectl get pv,pvc -o yaml` export (shared by tests/migrate.rs and the
//! migrate benchmark).

/// A generated `kubectl get pv,pvc -o yaml` export of 5,000 bound pairs.
#[allow(dead_code)]
pub fn generated_export(n: usize) -> String {
    let mut s = String::from("apiVersion: v1\nitems:\n");
    for i in 0..n {
        s.push_str(&format!(
            "- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    annotations:\n      pv.kubernetes.io/provisioned-by: ebs.csi.aws.com\n    creationTimestamp: \"2024-01-01T00:00:00Z\"\n    finalizers:\n    - kubernetes.io/pv-protection\n    name: pvc-{i:08x}\n    resourceVersion: \"{}\"\n    uid: 0000{i:04x}-aaaa-4000-8000-000000000000\n  spec:\n    accessModes:\n    - ReadWriteOnce\n    capacity:\n      storage: {}Gi\n    claimRef:\n      apiVersion: v1\n      kind: PersistentVolumeClaim\n      name: data-{i}\n      namespace: ns-{}\n      resourceVersion: \"{}\"\n      uid: 1111{i:04x}-bbbb-4000-8000-000000000000\n    csi:\n      driver: ebs.csi.aws.com\n      volumeHandle: vol-{i:016x}\n    persistentVolumeReclaimPolicy: Delete\n    storageClassName: gp3\n    volumeMode: Filesystem\n  status:\n    phase: Bound\n",
            1000 + i,
            1 + i % 7,
            i % 13,
            2000 + i
        ));
        s.push_str(&format!(
            "- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    annotations:\n      pv.kubernetes.io/bind-completed: \"yes\"\n      pv.kubernetes.io/bound-by-controller: \"yes\"\n      volume.kubernetes.io/storage-provisioner: ebs.csi.aws.com\n    creationTimestamp: \"2024-01-01T00:00:00Z\"\n    finalizers:\n    - kubernetes.io/pvc-protection\n    name: data-{i}\n    namespace: ns-{}\n    resourceVersion: \"{}\"\n    uid: 1111{i:04x}-bbbb-4000-8000-000000000000\n  spec:\n    accessModes:\n    - ReadWriteOnce\n    resources:\n      requests:\n        storage: {}Gi\n    storageClassName: gp3\n    volumeMode: Filesystem\n    volumeName: pvc-{i:08x}\n  status:\n    accessModes:\n    - ReadWriteOnce\n    capacity:\n      storage: {}Gi\n    phase: Bound\n",
            i % 13,
            2000 + i,
            1 + i % 7,
            1 + i % 7
        ));
    }
    s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    s
}
