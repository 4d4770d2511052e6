//! API-server validation, case by case from upstream's test tables: an object the API server
//! rejects is reported (`invalid-field-value`, error) with the field and the reason, and takes
//! no part in the simulation; an object it accepts is not reported.

use pvlint_core::{api, FieldValidation, Request, Source};

const PV_HEAD: &str = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec:\n";
const PVC_HEAD: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c1}\nspec:\n";

fn deployment(strategy: &str) -> String {
    format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  selector: {{matchLabels: {{name: abc}}}}\n{strategy}  template:\n    metadata: {{labels: {{name: abc}}}}\n    spec: {{containers: [{{name: c, image: x}}]}}\n")
}

fn daemonset(rolling: &str) -> String {
    format!("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: ds}}\nspec:\n  selector: {{matchLabels: {{name: abc}}}}\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {{{rolling}}}\n  template:\n    metadata: {{labels: {{name: abc}}}}\n    spec: {{containers: [{{name: c, image: x}}]}}\n")
}

/// (upstream test / case, manifest, expected message part; None = valid).
fn cases() -> Vec<(&'static str, String, Option<&'static str>)> {
    let pv = |body: &str| format!("{PV_HEAD}{body}");
    let pvc = |body: &str| format!("{PVC_HEAD}{body}");
    let ok_src = "  hostPath: {path: /foo, type: Directory}\n";
    vec![
        // TestValidatePersistentVolumes
        ("TestValidatePersistentVolumes/good-volume", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [ReadWriteOnce]\n{ok_src}")), None),
        ("TestValidatePersistentVolumes/good-volume-without-capacity-unit", pv(&format!("  capacity: {{storage: \"10\"}}\n  accessModes: [ReadWriteOnce]\n{ok_src}")), None),
        ("TestValidatePersistentVolumes/invalid-accessmode", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [fakemode]\n{ok_src}")), Some("Unsupported value: \"fakemode\"")),
        ("TestValidatePersistentVolumes/invalid-reclaimpolicy", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: fakeReclaimPolicy\n{ok_src}")), Some("spec.persistentVolumeReclaimPolicy: Unsupported value")),
        ("TestValidatePersistentVolumes/with-read-write-once-pod-and-others", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [ReadWriteOncePod, ReadWriteMany]\n{ok_src}")), Some("may not use ReadWriteOncePod with other access modes")),
        ("TestValidatePersistentVolumes/missing-volume-source", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n"), Some("spec: Required value: must specify a volume type")),
        ("TestValidatePersistentVolumes/missing-capacity", pv(&format!("  accessModes: [ReadWriteOnce]\n{ok_src}")), Some("spec.capacity: Required value")),
        ("TestValidatePersistentVolumes/bad-volume-zero-capacity", pv(&format!("  capacity: {{storage: \"0\"}}\n  accessModes: [ReadWriteOnce]\n{ok_src}")), Some("must be greater than zero")),
        ("TestValidatePersistentVolumes/too-many-sources", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /foo}\n  gcePersistentDisk: {pdName: foo}\n"), Some("may not specify more than 1 volume type")),
        ("TestValidatePersistentVolumes/host mount of / with recycle reclaim policy", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Recycle\n  hostPath: {path: /}\n"), Some("may not be 'recycle' for a hostPath mount of '/'")),
        ("TestValidatePersistentVolumes/bad-hostpath-volume-backsteps", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /foo/..}\n"), Some("must not contain '..'")),
        ("TestValidatePersistentVolumes/invalid-storage-class-name", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [ReadWriteOnce]\n  storageClassName: -invalid-\n{ok_src}")), Some("spec.storageClassName: Invalid value: \"-invalid-\"")),
        ("TestValidatePersistentVolumes/volume-empty-node-affinity", pv(&format!("  capacity: {{storage: 10G}}\n  accessModes: [ReadWriteOnce]\n  nodeAffinity: {{}}\n{ok_src}")), Some("spec.nodeAffinity.required: Required value")),
        ("TestValidatePersistentVolumeSpec/pv-pvspec-valid (Recycle is accepted)", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Recycle\n  volumeMode: Filesystem\n  hostPath: {path: /foo}\n"), None),
        // TestValidateLocalVolumes
        ("TestValidateLocalVolumes/valid local volume", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  local: {path: /foo}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: foo, operator: In, values: [bar]}]\n"), None),
        ("TestValidateLocalVolumes/invalid local volume no node affinity", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  local: {path: /foo}\n"), Some("Local volume requires node affinity")),
        ("TestValidateLocalVolumes/invalid local volume empty path", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  local: {path: \"\"}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: foo, operator: In, values: [bar]}]\n"), Some("spec.local.path: Required value")),
        ("TestValidateLocalVolumes/valid-local-volume-relative-path", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  local: {path: foo}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: foo, operator: In, values: [bar]}]\n"), None),
        // validateNFSVolumeSource, validateCSIPersistentVolumeSource
        ("validateNFSVolumeSource/relative path", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteMany]\n  nfs: {server: 10.0.0.1, path: exports}\n"), Some("spec.nfs.path: Invalid value: \"exports\": must be an absolute path")),
        ("validateCSIPersistentVolumeSource/no volumeHandle", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  csi: {driver: ebs.csi.aws.com}\n"), Some("spec.csi.volumeHandle: Required value")),
        // validateCephFSPersistentVolumeSource, validateGlusterfsPersistentVolumeSource,
        // validateFlexPersistentVolumeSource, validateAzureFilePV, validateAzureDisk,
        // validateVsphereVolumeSource, validateScaleIOPersistentVolumeSource: required strings
        ("validateCephFSPersistentVolumeSource/no monitors", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteMany]\n  cephfs: {path: /volumes/a, user: admin}\n"), Some("spec.cephfs.monitors: Required value")),
        ("validateRBDPersistentVolumeSource/no monitors", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  rbd: {image: foo, monitors: []}\n"), Some("spec.rbd.monitors: Required value")),
        ("validateRBDPersistentVolumeSource/valid", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  rbd: {image: foo, monitors: [\"10.16.154.78:6789\"]}\n"), None),
        ("validateCephFSPersistentVolumeSource/valid", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteMany]\n  cephfs: {monitors: [\"10.16.154.78:6789\"], path: /volumes/a}\n"), None),
        ("validateGlusterfsPersistentVolumeSource/no path", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteMany]\n  glusterfs: {endpoints: glusterfs-cluster}\n"), Some("spec.glusterfs.path: Required value")),
        ("validateFlexPersistentVolumeSource/no driver", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  flexVolume: {fsType: ext4}\n"), Some("spec.flexVolume.driver: Required value")),
        ("validateAzureFilePV/no shareName", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteMany]\n  azureFile: {secretName: azure-secret}\n"), Some("spec.azureFile.shareName: Required value")),
        ("validateAzureDisk/no diskURI", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  azureDisk: {diskName: data}\n"), Some("spec.azureDisk.diskURI: Required value")),
        ("validateVsphereVolumeSource/valid", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  vsphereVolume: {volumePath: \"[datastore1] volumes/myDisk\", fsType: ext4}\n"), None),
        ("validateScaleIOPersistentVolumeSource/no system", pv("  capacity: {storage: 10G}\n  accessModes: [ReadWriteOnce]\n  scaleIO: {gateway: \"https://localhost:443/api\", volumeName: vol-0, secretRef: {name: sio-secret}}\n"), Some("spec.scaleIO.system: Required value")),
        // TestValidatePersistentVolumeClaim
        ("TestValidatePersistentVolumeClaim/good-claim", pvc("  accessModes: [ReadWriteOnce, ReadOnlyMany]\n  selector: {matchExpressions: [{key: key2, operator: Exists}]}\n  storageClassName: valid\n  resources: {requests: {storage: 10G}}\n"), None),
        ("TestValidatePersistentVolumeClaim/with-read-write-once-pod-and-others", pvc("  accessModes: [ReadWriteOncePod, ReadWriteMany]\n  resources: {requests: {storage: 10G}}\n"), Some("may not use ReadWriteOncePod with other access modes")),
        ("TestValidatePersistentVolumeClaim/zero-storage-request", pvc("  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 0G}}\n"), Some("must be greater than zero")),
        ("TestValidatePersistentVolumeClaim/negative-storage-request", pvc("  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: -10G}}\n"), Some("must be greater than zero")),
        ("TestValidatePersistentVolumeClaim/invalid-label-selector", pvc("  accessModes: [ReadWriteOnce]\n  selector: {matchExpressions: [{key: key2, operator: InvalidOp, values: [value1]}]}\n  resources: {requests: {storage: 10G}}\n"), Some("not a valid selector operator")),
        ("TestValidatePersistentVolumeClaim/no-access-modes", pvc("  resources: {requests: {storage: 10G}}\n"), Some("at least 1 access mode is required")),
        ("TestValidatePersistentVolumeClaim/invalid-resource-requests", pvc("  accessModes: [ReadWriteOnce]\n  resources: {requests: {memory: 10G}}\n"), Some("spec.resources[storage]: Required value")),
        ("TestValidatePersistentVolumeClaim/invalid-storage-class-name", pvc("  accessModes: [ReadWriteOnce]\n  storageClassName: -invalid-\n  resources: {requests: {storage: 10G}}\n"), Some("spec.storageClassName: Invalid value")),
        ("TestValidatePersistentVolumeClaim/invalid-volume-mode", pvc("  accessModes: [ReadWriteOnce]\n  volumeMode: fakeVolumeMode\n  resources: {requests: {storage: 10G}}\n"), Some("Unsupported value: \"fakeVolumeMode\"")),
        ("storageClassName \"\" is legal (no class)", pvc("  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  resources: {requests: {storage: 10G}}\n"), None),
        // TestValidateStorageClass
        ("TestValidateStorageClass/success", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: foo}\nprovisioner: kubernetes.io/foo-provisioner\nreclaimPolicy: Retain\n".into(), None),
        ("TestValidateStorageClass/invalid provisioner", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: foo}\nprovisioner: kubernetes.io/invalid/provisioner\n".into(), Some("provisioner: Invalid value")),
        ("TestValidateStorageClass/provisioner: Required value", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: foo}\nprovisioner: \"\"\n".into(), Some("provisioner: Required value")),
        ("TestValidateStorageClass/invalid reclaimpolicy", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: foo}\nprovisioner: kubernetes.io/foo-provisioner\nreclaimPolicy: Recycle\n".into(), Some("reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"")),
        ("TestValidateVolumeBindingMode/invalid mode", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: foo}\nprovisioner: kubernetes.io/foo-provisioner\nvolumeBindingMode: foo\n".into(), Some("volumeBindingMode: Unsupported value: \"foo\"")),
        // TestValidateDeployment
        ("TestValidateDeployment/selector does not match template labels", deployment("").replace("selector: {matchLabels: {name: abc}}", "selector: {matchLabels: {name: def}}"), Some("`selector` does not match template `labels`")),
        ("TestValidateDeployment/strategy randomType", deployment("  strategy: {type: randomType}\n"), Some("supported values: \"Recreate\", \"RollingUpdate\"")),
        ("TestValidateDeployment/Recreate with rollingUpdate", deployment("  strategy: {type: Recreate, rollingUpdate: {}}\n"), Some("may not be specified when strategy `type` is 'Recreate'")),
        ("TestValidateDeployment/maxSurge 20Percent", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 20Percent}}\n"), Some("a valid percent string must be a numeric string followed by an ending '%'")),
        // Recorded on a real v1.34.9 control plane (tests/oracle/28): the invalid maxSurge counts as 0 (getIntOrPercentValue), so maxUnavailable: 0 is rejected too.
        ("oracle 28: maxSurge -10% and maxUnavailable 0, first cause", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"-10%\", maxUnavailable: 0}}\n"), Some("spec.strategy.rollingUpdate.maxSurge: Invalid value: \"-10%\": a valid percent string")),
        ("oracle 28: maxSurge -10% and maxUnavailable 0, second cause", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"-10%\", maxUnavailable: 0}}\n"), Some("spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0")),
        ("TestValidateDeployment/0% and 0", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"0%\", maxUnavailable: 0}}\n"), Some("may not be 0 when `maxSurge` is 0")),
        ("TestValidateDeployment/maxUnavailable 110%", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: \"110%\"}}\n"), Some("must not be greater than 100%")),
        ("TestValidateDeployment/maxSurge over 100% is allowed", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"200%\"}}\n"), None),
        ("TestValidateDeployment/negative maxSurge", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: -1}}\n"), Some("must be greater than or equal to 0")),
        ("TestValidateDeploymentUpdate/negative replicas", deployment("  replicas: -1\n"), Some("must be greater than or equal to 0")),
        ("defaults: maxSurge 0 alone is valid", deployment("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0}}\n"), None),
        ("selector required", deployment("").replace("  selector: {matchLabels: {name: abc}}\n", ""), Some("spec.selector: Required value")),
        // TestDaemonSetUpdateMaxSurge (with the API server's defaults applied first)
        ("TestDaemonSetUpdateMaxSurge/valid: one", daemonset("maxUnavailable: 1"), None),
        ("TestDaemonSetUpdateMaxSurge/valid: surge enabled, surge one", daemonset("maxSurge: 1, maxUnavailable: 0"), None),
        ("defaults: maxSurge alone is rejected (maxUnavailable defaults to 1)", daemonset("maxSurge: 1"), Some("may not be set when maxUnavailable is non-zero")),
        ("TestDaemonSetUpdateMaxSurge/invalid: surge and unavailable set", daemonset("maxSurge: 1%, maxUnavailable: 1%"), Some("may not be set when maxUnavailable is non-zero")),
        ("TestDaemonSetUpdateMaxSurge/invalid: unset", daemonset("maxSurge: 0, maxUnavailable: 0"), Some("cannot be 0 when maxSurge is 0")),
        ("TestDaemonSetUpdateMaxSurge/invalid: surge greater than 100%", daemonset("maxSurge: 101%, maxUnavailable: 0"), Some("must not be greater than 100%")),
        // TestValidateStatefulSet
        ("TestValidateStatefulSet/name-with-dots", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: abc.123}\nspec:\n  serviceName: s\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n".into(), Some("a lowercase RFC 1123 label")),
        ("TestValidateStatefulSet/invalid pod management policy", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: abc}\nspec:\n  podManagementPolicy: foo\n  serviceName: s\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n".into(), Some("spec.podManagementPolicy: Unsupported value: \"foo\"")),
        ("TestValidateStatefulSet/invalid ordinals.start", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: abc}\nspec:\n  ordinals: {start: -2}\n  serviceName: s\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n".into(), Some("spec.ordinals.start: Invalid value: -2")),
        // batch validation: a Job's pods must not restart Always
        ("validateJobSpec/restartPolicy unset", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec: {containers: [{name: c, image: x}]}\n".into(), Some("restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"")),
        ("validateJobSpec/restartPolicy Never", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n".into(), None),
        // validateConcurrencyPolicy (ValidateCronJobSpec): Allow, Forbid, Replace; unset is
        // defaulted to Allow before validation (SetDefaults_CronJob)
        ("validateConcurrencyPolicy/unsupported", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"0 1 * * *\"\n  concurrencyPolicy: Never\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n".into(), Some("spec.concurrencyPolicy: Unsupported value: \"Never\": supported values: \"Allow\", \"Forbid\", \"Replace\"")),
        ("validateConcurrencyPolicy/Replace", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"0 1 * * *\"\n  concurrencyPolicy: Replace\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n".into(), None),
        ("SetDefaults_CronJob/concurrencyPolicy \"\" (defaulted to Allow)", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"0 1 * * *\"\n  concurrencyPolicy: \"\"\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n".into(), None),
        ("SetDefaults_CronJob/concurrencyPolicy unset", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"0 1 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n".into(), None),
        // ValidateVolumes
        ("ValidateVolumes/claimName required", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: \"\"}}]\n".into(), Some("persistentVolumeClaim.claimName: Required value")),
        ("ValidateVolumes/duplicate name", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: v, emptyDir: {}}, {name: v, persistentVolumeClaim: {claimName: c}}]\n".into(), Some("spec.volumes[1].name: Duplicate value: \"v\"")),
    ]
}

#[test]
fn upstream_validation_cases() {
    let mut problems = Vec::new();
    for (case, text, expected) in cases() {
        let r = api::lint(&Request::new(vec![Source::new("v.yaml", text.as_str())]));
        let invalid: Vec<&str> = r
            .findings
            .iter()
            .filter(|f| {
                f.rule == "invalid-field-value" && f.severity == pvlint_core::Severity::Error
            })
            .map(|f| f.message.as_str())
            .collect();
        match expected {
            None if !invalid.is_empty() => {
                problems.push(format!("{case}: valid upstream, but reported: {invalid:?}"))
            }
            Some(want) if !invalid.iter().any(|m| m.contains(want)) => {
                problems.push(format!("{case}: expected \"{want}\", got {invalid:?}"))
            }
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// An object the API server rejects never exists: the simulation does not see it.
#[test]
fn rejected_objects_take_no_part_in_the_simulation() {
    let text = format!("{PVC_HEAD}  accessModes: [ReadWriteOncePod, ReadWriteMany]\n  resources: {{requests: {{storage: 1Gi}}}}\n");
    let s = api::simulate(&Request::new(vec![Source::new("v.yaml", text)])).unwrap();
    assert!(s.claims.is_empty(), "{:?}", s.claims);
}

/// An object defined twice, one definition rejected by the API server, is the definition that
/// is accepted: a first one rejected on create never exists and the second creates the object
/// (kubectl's apply.go, applyOneObject: the GET finds nothing, so it creates); a later one
/// rejected as written is a refused update and the first stands. Each rejected definition gets
/// its own error, and `duplicate-object` reports neither.
#[test]
fn of_two_definitions_the_accepted_one_exists() {
    let claim = |size: &str, mode: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data}}\nspec:\n  accessModes: [{mode}]\n  storageClassName: \"\"\n  resources: {{requests: {{storage: {size}}}}}\n")
    };
    // Where the definition that exists is: the first document (lines 1 to 7), or the second.
    let (first_doc, second_doc) = (1..=7, 9..=15);
    for (first, second, stands) in [
        (
            claim("5gi", "ReadWriteOnce"),
            claim("5Gi", "ReadWriteOnce"),
            second_doc,
        ),
        (
            claim("5Gi", "ReadWriteOnce"),
            claim("7Gi", "ReadWriteEverywhere"),
            first_doc,
        ),
    ] {
        let text = format!("{first}---\n{second}");
        assert_eq!(text.lines().nth(8), Some("apiVersion: v1"));
        let req = Request::new(vec![Source::new("c.yaml", text.clone())]);
        let rules = the_claim_stands(&req, stands);
        assert!(
            rules.iter().any(|r| r == "invalid-field-value"),
            "{rules:?}"
        );
        assert!(!rules.iter().any(|r| r == "duplicate-object"), "{rules:?}");
    }
}

/// kubectl's default field validation rejects a definition with a field the API does not know
/// ("strict decoding error: unknown field"): like any definition rejected on create, it leaves
/// the next definition of the object to create it (apply.go `applyOneObject` finds nothing and
/// creates). With `--validate=warn` the field is dropped, the first definition creates the
/// object, and the second, changing an immutable field, is a refused update.
#[test]
fn a_definition_with_an_unknown_field_does_not_create_the_object_under_strict_validation() {
    let claim = |extra: &str, mode: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data}}\nspec:\n  accessModes: [{mode}]\n  storageClassName: \"\"\n  resources: {{requests: {{storage: 5Gi}}}}\n{extra}")
    };
    let text = format!(
        "{}---\n{}",
        claim("  storageClass: fast\n", "ReadWriteMany"),
        claim("", "ReadWriteOnce")
    );
    // The first document is lines 1 to 8, the second 10 to 16.
    assert_eq!(text.lines().nth(9), Some("apiVersion: v1"));
    for (validation, stands, duplicate) in [
        (FieldValidation::Strict, 10..=16, false),
        (FieldValidation::Warn, 1..=8, true),
    ] {
        let mut req = Request::new(vec![Source::new("c.yaml", text.clone())]);
        req.options.field_validation = validation;
        let rules = the_claim_stands(&req, stands);
        assert_eq!(
            rules.iter().any(|r| r == "duplicate-object"),
            duplicate,
            "{validation:?}: {rules:?}"
        );
    }
}

/// Asserts that `req` (one claim, defined twice) makes one claim, from the definition on the
/// lines `stands`; gives the rules `lint` reports.
fn the_claim_stands(req: &Request, stands: std::ops::RangeInclusive<u32>) -> Vec<String> {
    let s = api::simulate(req).unwrap();
    assert_eq!(s.claims.len(), 1, "{:?}", s.claims);
    let at = s.claims[0]
        .origin
        .at
        .as_ref()
        .expect("a claim of the input");
    assert!(stands.contains(&at.line), "{:?}", s.claims[0]);
    api::lint(req)
        .findings
        .iter()
        .map(|f| f.rule.to_string())
        .collect()
}
