//! Update validation, case by case from upstream's tables.

use super::*;
use serde_json::json;

fn env(expansion: Option<bool>) -> impl Fn(&str) -> Option<bool> {
    move |_| expansion
}

fn check(
    kind: &str,
    live: Value,
    new: Value,
    model: ApplyModel,
    expansion: Option<bool>,
) -> Vec<String> {
    let f = env(expansion);
    let e = Env {
        version: crate::options::Target::of(crate::options::KubeVersion::new(1, 34)),
        expansion: &f,
    };
    let api = match kind {
        "StorageClass" | "CSIDriver" => "storage.k8s.io/v1",
        "StatefulSet" | "Deployment" => "apps/v1",
        _ => "v1",
    };
    let m = merged(&live, &new, &model);
    refusals(api, kind, "data", &live, &m, &e)
        .into_iter()
        .map(|r| r.cause)
        .collect()
}

fn claim(spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"}, "spec": spec})
}

fn bound(mut c: Value, capacity: &str) -> Value {
    c["status"] = json!({"phase": "Bound", "capacity": {"storage": capacity}});
    c["spec"]["volumeName"] = json!("pv-1");
    c["spec"]["volumeMode"] = json!("Filesystem");
    c
}

/// TestValidatePersistentVolumeClaimUpdate (pkg/apis/core/validation): "valid-update-
/// volume-name-only", "invalid-update-change-storage-class", "valid-upgrade-storage-class-
/// from-nil", "invalid-update-change-access-modes", "invalid-update-change-resources-on-
/// unbound-claim", "valid-expand-shrink-resize-enabled", "invalid-expand-shrink-to-status-
/// resize-enabled"; recorded on a real v1.34.9 control plane: oracle cases 17–19.
#[test]
fn claims() {
    let base = claim(
        json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}),
    );
    let with = |k: &str, v: Value| {
        let mut c = base.clone();
        c["spec"][k] = v;
        c
    };
    let spec = "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";
    assert!(check(
        "PersistentVolumeClaim",
        base.clone(),
        with("volumeName", json!("pv-1")),
        ApplyModel::SameApply,
        None
    )
    .is_empty());
    assert!(check(
        "PersistentVolumeClaim",
        base.clone(),
        with("storageClassName", json!("fast")),
        ApplyModel::SameApply,
        None
    )
    .is_empty());
    let fast = with("storageClassName", json!("fast"));
    assert_eq!(
        check(
            "PersistentVolumeClaim",
            fast.clone(),
            with("storageClassName", json!("slow")),
            ApplyModel::SameApply,
            None
        ),
        [spec]
    );
    assert_eq!(
        check(
            "PersistentVolumeClaim",
            base.clone(),
            with("accessModes", json!(["ReadWriteMany"])),
            ApplyModel::SameApply,
            None
        ),
        [spec]
    );
    // Case 17 step 4: a Pending claim's request.
    let grown = with("resources", json!({"requests": {"storage": "2Gi"}}));
    assert_eq!(
        check(
            "PersistentVolumeClaim",
            base.clone(),
            grown.clone(),
            ApplyModel::SameApply,
            None
        ),
        [spec]
    );
    // Bound (case 18/19): growth needs an expandable class; shrink stops at capacity.
    let live = bound(fast.clone(), "1Gi");
    let grow = {
        let mut c = fast.clone();
        c["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
        c
    };
    assert_eq!(
        check("PersistentVolumeClaim", live.clone(), grow.clone(), ApplyModel::Patch, Some(false)),
        ["persistentvolumeclaims \"data\" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"]
    );
    assert!(check(
        "PersistentVolumeClaim",
        live.clone(),
        grow.clone(),
        ApplyModel::Patch,
        Some(true)
    )
    .is_empty());
    let mut grown_live = bound(grow.clone(), "1Gi");
    grown_live["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
    let to = |q: &str| {
        let mut c = fast.clone();
        c["spec"]["resources"]["requests"]["storage"] = json!(q);
        c
    };
    assert!(check(
        "PersistentVolumeClaim",
        grown_live.clone(),
        to("1536Mi"),
        ApplyModel::Patch,
        Some(true)
    )
    .is_empty());
    let below =
        "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity";
    assert_eq!(
        check(
            "PersistentVolumeClaim",
            grown_live.clone(),
            to("1Gi"),
            ApplyModel::Patch,
            Some(true)
        ),
        [below]
    );
    assert_eq!(
        check(
            "PersistentVolumeClaim",
            live.clone(),
            to("512Mi"),
            ApplyModel::Patch,
            Some(true)
        ),
        [below]
    );
    // The same size in other units, and server-written fields, are no change.
    assert!(check(
        "PersistentVolumeClaim",
        live.clone(),
        to("1024Mi"),
        ApplyModel::Patch,
        Some(false)
    )
    .is_empty());
}

/// Client-side apply removes what the last apply wrote and the file no longer has.
#[test]
fn client_side_apply_removes_what_was_applied_before() {
    let last = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"serviceName": "db", "selector": {"matchLabels": {"a": "b"}}}});
    let mut live = last.clone();
    live["metadata"]["annotations"] = json!({ LAST_APPLIED: last.to_string() });
    live["spec"]["podManagementPolicy"] = json!("OrderedReady");
    live["spec"]["revisionHistoryLimit"] = json!(10);
    let new = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"selector": {"matchLabels": {"a": "b"}}}});
    let model = ApplyModel::of_live(&live);
    assert_eq!(model, ApplyModel::ClientSide);
    assert_eq!(
        check("StatefulSet", live.clone(), new.clone(), model, None).len(),
        1
    );
    // Without the record, kubectl only patches: serviceName stays.
    live["metadata"]["annotations"] = json!({});
    assert!(check("StatefulSet", live, new, ApplyModel::Patch, None).is_empty());
}

/// TestValidateStatefulSetUpdate; case 21: a template's request changed.
#[test]
fn statefulset_templates() {
    let sts = |size: &str| {
        json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web"}, "spec": {
        "replicas": 1, "selector": {"matchLabels": {"a": "b"}},
        "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}}]}})
    };
    // The live object as the API server returns it: defaults in the templates.
    let mut live = sts("1Gi");
    live["spec"]["volumeClaimTemplates"][0]["apiVersion"] = json!("v1");
    live["spec"]["volumeClaimTemplates"][0]["kind"] = json!("PersistentVolumeClaim");
    live["spec"]["volumeClaimTemplates"][0]["metadata"]["creationTimestamp"] = Value::Null;
    live["spec"]["volumeClaimTemplates"][0]["spec"]["volumeMode"] = json!("Filesystem");
    live["spec"]["volumeClaimTemplates"][0]["status"] = json!({"phase": "Pending"});
    assert!(check(
        "StatefulSet",
        live.clone(),
        sts("1Gi"),
        ApplyModel::Patch,
        None
    )
    .is_empty());
    let mut scaled = sts("1Gi");
    scaled["spec"]["replicas"] = json!(3);
    assert!(check("StatefulSet", live.clone(), scaled, ApplyModel::Patch, None).is_empty());
    assert_eq!(
        check("StatefulSet", live, sts("2Gi"), ApplyModel::Patch, None).len(),
        1
    );
}

/// TestValidateStorageClassUpdate; case 20.
#[test]
fn storage_classes() {
    let sc = |extra: Value| {
        let mut v = json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "fast"}, "provisioner": "p", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let live = sc(json!({}));
    let c = |new| check("StorageClass", live.clone(), new, ApplyModel::Patch, None);
    assert!(c(sc(json!({"allowVolumeExpansion": true}))).is_empty());
    assert_eq!(
        c(sc(json!({"parameters": {"type": "gp3"}}))),
        ["parameters: Forbidden: updates to parameters are forbidden."]
    );
    assert_eq!(
        c(sc(json!({"reclaimPolicy": "Retain"}))),
        ["reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden."]
    );
    assert_eq!(
        c(sc(json!({"volumeBindingMode": "WaitForFirstConsumer"}))),
        ["volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"]
    );
    assert_eq!(
        c(sc(json!({"provisioner": "q"}))),
        ["provisioner: Forbidden: updates to provisioner are forbidden."]
    );
}

/// TestCSIDriverValidationUpdate: attachRequired may not change (default true).
#[test]
fn csi_drivers() {
    let d = |spec: Value| json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d"}, "spec": spec});
    let live = d(json!({"attachRequired": true, "volumeLifecycleModes": ["Persistent"]}));
    assert!(check(
        "CSIDriver",
        live.clone(),
        d(json!({})),
        ApplyModel::Patch,
        None
    )
    .is_empty());
    assert_eq!(
        check(
            "CSIDriver",
            live,
            d(json!({"attachRequired": false})),
            ApplyModel::Patch,
            None
        ),
        ["spec.attachedRequired: Invalid value: false: field is immutable"]
    );
}

/// ValidatePersistentVolumeUpdate: a CSI volume may get a controllerExpandSecretRef.
#[test]
fn csi_volume_gets_an_expand_secret() {
    let pv = |extra: Value| {
        let mut v = json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "vol"},
            "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"], "csi": {"driver": "d", "volumeHandle": "h"}}});
        for (k, x) in extra.as_object().unwrap() {
            v["spec"]["csi"][k] = x.clone();
        }
        v
    };
    let secret = json!({"controllerExpandSecretRef": {"name": "s", "namespace": "n"}});
    assert!(check(
        "PersistentVolume",
        pv(json!({})),
        pv(secret.clone()),
        ApplyModel::Patch,
        None
    )
    .is_empty());
    assert_eq!(
        check(
            "PersistentVolume",
            pv(json!({})),
            pv(json!({"volumeHandle": "other"})),
            ApplyModel::Patch,
            None
        )
        .len(),
        1
    );
}

/// TestValidatePersistentVolumeUpdate; case 22: the source may not change, capacity may.
#[test]
fn volumes() {
    let pv = |path: &str, cap: &str| {
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "vol"},
        "spec": {"capacity": {"storage": cap}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": path}}})
    };
    let mut live = pv("/data/a", "5Gi");
    live["spec"]["hostPath"]["type"] = json!("");
    live["spec"]["volumeMode"] = json!("Filesystem");
    live["spec"]["persistentVolumeReclaimPolicy"] = json!("Retain");
    assert!(check(
        "PersistentVolume",
        live.clone(),
        pv("/data/a", "10Gi"),
        ApplyModel::Patch,
        None
    )
    .is_empty());
    assert_eq!(
        check("PersistentVolume", live, pv("/data/b", "5Gi"), ApplyModel::Patch, None),
        ["spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation"]
    );
}

/// TestValidatePodUpdate (pkg/apis/core/validation): "image change" and "activeDeadlineSeconds
/// change" are allowed, as is "added valid new toleration"; "container args change" (any other
/// field of the spec) is refused with ValidatePodUpdate's Forbidden message. A field one
/// manifest leaves to its default is not a change pvlint reports.
#[test]
fn pods() {
    let pod = |container: Value, extra: Value| {
        let mut spec = json!({"containers": [container]});
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "data"}, "spec": spec})
    };
    let c = |image: &str, args: &[&str]| json!({"name": "c", "image": image, "args": args});
    let base = pod(c("busybox:1.36", &["sleep", "1"]), json!({}));
    let refused = "spec: Forbidden: pod updates may not change fields other than";
    {
        let same = |new: Value| check("Pod", base.clone(), new, ApplyModel::SameApply, None);
        assert!(same(pod(c("busybox:1.37", &["sleep", "1"]), json!({}))).is_empty());
        assert!(same(pod(
            c("busybox:1.36", &["sleep", "1"]),
            json!({"activeDeadlineSeconds": 30})
        ))
        .is_empty());
        assert!(same(pod(
            c("busybox:1.36", &["sleep", "1"]),
            json!({"tolerations": [{"key": "k", "operator": "Exists"}]})
        ))
        .is_empty());
        assert!(same(pod(
            c("busybox:1.36", &["sleep", "1"]),
            json!({"restartPolicy": "Always", "dnsPolicy": "ClusterFirst"})
        ))
        .is_empty());
        let r = same(pod(c("busybox:1.36", &["sleep", "2"]), json!({})));
        assert!(r.len() == 1 && r[0].starts_with(refused), "{r:?}");
    }
}

/// ValidatePersistentVolumeClaimUpdate and ValidatePersistentVolumeUpdate as k8s.io/kubernetes
/// v1.34.2 has them (pkg/apis/core/validation, read from the copy openshift/microshift vendors):
/// a Bound claim may take, change or drop a VolumeAttributesClass until the driver applied one
/// (status.currentVolumeAttributesClassName); a claim that is not Bound may not change it; a
/// volume's class may not be dropped.
#[test]
fn volume_attributes_classes() {
    let base = bound(
        claim(
            json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                     "volumeAttributesClassName": "silver"}),
        ),
        "1Gi",
    );
    let with = |c: &Value, v: Value| {
        let mut c = c.clone();
        c["spec"]["volumeAttributesClassName"] = v;
        c
    };
    let check_claim = |live: &Value, new: Value| {
        check(
            "PersistentVolumeClaim",
            live.clone(),
            new,
            ApplyModel::SameApply,
            None,
        )
    };
    // Not yet applied by the driver: changing or dropping it is allowed.
    assert!(check_claim(&base, with(&base, json!("gold"))).is_empty());
    assert!(check_claim(&base, with(&base, Value::Null)).is_empty());
    assert!(check_claim(&base, with(&base, json!(""))).is_empty());
    // Applied: another class is allowed, none is not.
    let mut applied = base.clone();
    applied["status"]["currentVolumeAttributesClassName"] = json!("silver");
    assert!(check_claim(&applied, with(&applied, json!("gold"))).is_empty());
    assert_eq!(
        check_claim(&applied, with(&applied, Value::Null)),
        vec!["spec.volumeAttributesClassName: Forbidden: update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"]
    );
    assert_eq!(
        check_claim(&applied, with(&applied, json!(""))),
        vec!["spec.volumeAttributesClassName: Forbidden: update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil"]
    );
    // A claim that is not Bound: its spec, class included, is immutable.
    let mut pending = base.clone();
    pending["status"] = json!({"phase": "Pending"});
    pending["spec"]["volumeName"] = Value::Null;
    assert_eq!(
        check_claim(&pending, with(&pending, json!("gold"))).len(),
        1,
        "a class change of a Pending claim is refused"
    );
    // A volume's class may change, not go.
    let pv = json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1"},
                    "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                             "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"},
                             "volumeAttributesClassName": "silver"}});
    let mut gold = pv.clone();
    gold["spec"]["volumeAttributesClassName"] = json!("gold");
    assert!(check(
        "PersistentVolume",
        pv.clone(),
        gold,
        ApplyModel::SameApply,
        None
    )
    .is_empty());
    let mut none = pv.clone();
    none["spec"]
        .as_object_mut()
        .unwrap()
        .remove("volumeAttributesClassName");
    assert_eq!(
        check("PersistentVolume", pv, none, ApplyModel::SameApply, None),
        vec!["spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden"]
    );
}
