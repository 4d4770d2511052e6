//! PersistentVolume, PersistentVolumeClaim and StorageClass validation (pkg/apis/core and
//! pkg/apis/storage).

use super::{
    at, is_dns_subdomain, is_qualified_name, reject, require_monitors, DNS_SUBDOMAIN,
    QUALIFIED_NAME,
};
use crate::finding::Severity;
use crate::model::{Object, Pv, Pvc, Reader, StorageClass};
use crate::node::Node;

/// The number of volume sources and which (`ValidatePersistentVolumeSpec` counts them in this
/// order; flexVolume is counted but never reported as the extra one).
const PV_SOURCES: &[&str] = &[
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "flocker",
    "nfs",
    "rbd",
    "quobyte",
    "cephfs",
    "iscsi",
    "cinder",
    "fc",
    "flexVolume",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "scaleIO",
    "local",
    "storageos",
    "csi",
];

fn access_modes(r: &mut Reader<'_>, prefix: &str, node_modes: Option<&Node>, pvc: bool) {
    let path = format!("{prefix}spec.accessModes");
    let obj = r.obj;
    let modes: Vec<&str> = node_modes
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    if node_modes
        .and_then(Node::as_seq)
        .is_none_or(|s| s.is_empty())
    {
        let msg = if pvc {
            format!("{path}: Required value: at least 1 access mode is required")
        } else {
            format!("{path}: Required value")
        };
        reject(
            r,
            at(obj, &path),
            msg,
            "list the access modes, e.g. accessModes: [ReadWriteOnce]",
        );
        return;
    }
    let valid = [
        "ReadWriteOnce",
        "ReadOnlyMany",
        "ReadWriteMany",
        "ReadWriteOncePod",
    ];
    if modes.contains(&"ReadWriteOncePod")
        && modes
            .iter()
            .any(|m| *m != "ReadWriteOncePod" && valid.contains(m))
    {
        reject(
            r,
            at(obj, &path),
            format!("{path}: Forbidden: may not use ReadWriteOncePod with other access modes"),
            "use ReadWriteOncePod alone",
        );
    }
}

/// `ValidatePersistentVolumeSpec` (the checks the typed reader does not already make).
pub(crate) fn pv(obj: &Object, _pv: &Pv, r: &mut Reader<'_>) {
    let root = obj.root();
    access_modes(r, "", root.at("spec.accessModes"), false);
    match root.at("spec.capacity") {
        None => reject(
            r,
            at(obj, "spec"),
            "spec.capacity: Required value".into(),
            "give the volume's size: capacity: {storage: 10Gi}",
        ),
        Some(c) if c.get("storage").is_none() => reject(
            r,
            at(obj, "spec.capacity"),
            "spec.capacity: Unsupported value: supported values: \"storage\"".into(),
            "the only capacity key of a PersistentVolume is storage",
        ),
        Some(_) => {
            if let Some(q) = root
                .at("spec.capacity.storage")
                .and_then(Node::as_scalar)
                .and_then(|s| crate::quantity::Quantity::parse(&s.text).ok())
            {
                if q.is_zero() || q.is_negative() {
                    reject(
                        r,
                        at(obj, "spec.capacity.storage"),
                        format!("spec.capacity[storage]: Invalid value: \"{q}\": must be greater than zero"),
                        "give the volume's real size",
                    );
                }
            }
        }
    }
    let spec = root.get("spec");
    let found: Vec<&str> = PV_SOURCES
        .iter()
        .copied()
        .filter(|s| spec.and_then(|sp| sp.get(s)).is_some_and(|n| !n.is_null()))
        .collect();
    if found.is_empty() {
        reject(
            r,
            at(obj, "spec"),
            "spec: Required value: must specify a volume type".into(),
            "give the volume a source: csi, nfs, hostPath, local, ...",
        );
    }
    let first = found.first().copied().unwrap_or("");
    let src = |k: &str| {
        root.at(&format!("spec.{first}.{k}"))
            .and_then(Node::as_scalar)
            .map(|s| s.text.as_str())
    };
    match first {
        "hostPath" => match src("path") {
            None | Some("") => reject(
                r,
                at(obj, "spec.hostPath"),
                "spec.hostPath.path: Required value".into(),
                "give the directory on the node",
            ),
            Some(p) => {
                if p.split('/').any(|e| e == "..") {
                    reject(
                        r,
                        at(obj, "spec.hostPath.path"),
                        format!(
                            "spec.hostPath.path: Invalid value: \"{p}\": must not contain '..'"
                        ),
                        "write the path without '..'",
                    );
                }
                let cleaned = p.trim_end_matches('/');
                if cleaned.is_empty()
                    && root
                        .at("spec.persistentVolumeReclaimPolicy")
                        .and_then(Node::as_str)
                        == Some("Recycle")
                {
                    reject(r, at(obj, "spec.persistentVolumeReclaimPolicy"), "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'".into(), "use Retain");
                }
            }
        },
        "nfs" => {
            if src("server").is_none_or(str::is_empty) {
                reject(
                    r,
                    at(obj, "spec.nfs"),
                    "spec.nfs.server: Required value".into(),
                    "give the NFS server's address",
                );
            }
            let p = src("path").unwrap_or("");
            if p.is_empty() {
                reject(
                    r,
                    at(obj, "spec.nfs"),
                    "spec.nfs.path: Required value".into(),
                    "give the exported path",
                );
            }
            if !p.starts_with('/') {
                reject(
                    r,
                    at(obj, "spec.nfs.path"),
                    format!("spec.nfs.path: Invalid value: \"{p}\": must be an absolute path"),
                    "the export path starts with /",
                );
            }
        }
        "local" => match src("path") {
            None | Some("") => reject(
                r,
                at(obj, "spec.local"),
                "spec.local.path: Required value".into(),
                "give the disk's mount path on the node",
            ),
            Some(p) if p.split('/').any(|e| e == "..") => reject(
                r,
                at(obj, "spec.local.path"),
                format!("spec.local.path: Invalid value: \"{p}\": must not contain '..'"),
                "write the path without '..'",
            ),
            Some(_) => {}
        },
        "csi" => {
            if src("driver").is_none_or(str::is_empty) {
                reject(
                    r,
                    at(obj, "spec.csi"),
                    "spec.csi.driver: Required value".into(),
                    "name the CSI driver",
                );
            }
            if src("volumeHandle").is_none_or(str::is_empty) {
                reject(
                    r,
                    at(obj, "spec.csi"),
                    "spec.csi.volumeHandle: Required value".into(),
                    "give the volume's handle in the storage system",
                );
            }
        }
        "rbd" => {
            require_monitors(obj, r, first);
            if src("image").is_none_or(str::is_empty) {
                reject(
                    r,
                    at(obj, "spec.rbd"),
                    "spec.rbd.image: Required value".into(),
                    "name the RBD image",
                );
            }
        }
        "iscsi" => {
            for k in ["targetPortal", "iqn"] {
                if src(k).is_none_or(str::is_empty) {
                    reject(
                        r,
                        at(obj, "spec.iscsi"),
                        format!("spec.iscsi.{k}: Required value"),
                        "give the iSCSI target",
                    );
                }
            }
        }
        "awsElasticBlockStore" | "cinder" | "portworxVolume"
            if src("volumeID").is_none_or(str::is_empty) =>
        {
            reject(
                r,
                at(obj, &format!("spec.{first}")),
                format!("spec.{first}.volumeID: Required value"),
                "give the volume's id",
            );
        }
        "gcePersistentDisk" if src("pdName").is_none_or(str::is_empty) => {
            reject(
                r,
                at(obj, "spec.gcePersistentDisk"),
                "spec.persistentDisk.pdName: Required value".into(),
                "name the disk",
            );
        }
        "cephfs" => require_monitors(obj, r, first),
        _ => {
            // The other in-tree sources' required strings (validation.go:
            // validateGlusterfsPersistentVolumeSource, validateFlexPersistentVolumeSource,
            // validateAzureFilePV, validateAzureDisk, validateVsphereVolumeSource,
            // validatePhotonPersistentDiskVolumeSource, validateScaleIOPersistentVolumeSource,
            // validateStorageOSPersistentVolumeSource).
            let required: &[&str] = match first {
                "glusterfs" => &["endpoints", "path"],
                "flexVolume" => &["driver"],
                "azureFile" => &["secretName", "shareName"],
                "azureDisk" => &["diskName", "diskURI"],
                "vsphereVolume" => &["volumePath"],
                "photonPersistentDisk" => &["pdID"],
                "scaleIO" => &["gateway", "system", "volumeName"],
                "storageos" => &["volumeName"],
                _ => &[],
            };
            for k in required {
                if src(k).is_none_or(str::is_empty) {
                    reject(
                        r,
                        at(obj, &format!("spec.{first}")),
                        format!("spec.{first}.{k}: Required value"),
                        "fill in the field the volume source requires",
                    );
                }
            }
        }
    }
    if let Some(class) = root.at("spec.storageClassName").and_then(Node::as_str) {
        if !class.is_empty() && !is_dns_subdomain(class) {
            reject(
                r,
                at(obj, "spec.storageClassName"),
                format!("spec.storageClassName: Invalid value: \"{class}\": {DNS_SUBDOMAIN}"),
                "class names are lower case: letters, digits, '-' and '.'",
            );
        }
    }
    if let Some(na) = root.at("spec.nodeAffinity").filter(|n| !n.is_null()) {
        match na.get("required").filter(|n| !n.is_null()) {
            None => reject(r, at(obj, "spec.nodeAffinity"), "spec.nodeAffinity.required: Required value: must specify required node constraints".into(), "give nodeAffinity.required.nodeSelectorTerms"),
            Some(req) => {
                if req.get("nodeSelectorTerms").and_then(Node::as_seq).is_none_or(|s| s.is_empty()) {
                    reject(r, at(obj, "spec.nodeAffinity.required"), "spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term".into(), "add a node selector term");
                }
            }
        }
    }
}

/// `ValidatePersistentVolumeClaimSpec` (for PVC objects; StatefulSet templates are checked
/// when the controller creates the claims).
pub(crate) fn claim(obj: &Object, _pvc: &Pvc, r: &mut Reader<'_>) {
    let root = obj.root();
    access_modes(r, "", root.at("spec.accessModes"), true);
    if root
        .at("spec.resources.requests.storage")
        .filter(|n| !n.is_null())
        .is_none()
    {
        reject(
            r,
            at(obj, "spec"),
            "spec.resources[storage]: Required value".into(),
            "request a size: resources: {requests: {storage: 10Gi}}",
        );
    }
    if let Some(class) = root.at("spec.storageClassName").and_then(Node::as_str) {
        if !class.is_empty() && !is_dns_subdomain(class) {
            reject(
                r,
                at(obj, "spec.storageClassName"),
                format!("spec.storageClassName: Invalid value: \"{class}\": {DNS_SUBDOMAIN}"),
                "class names are lower case: letters, digits, '-' and '.'",
            );
        }
    }
    data_sources(obj, r);
}

/// A claim's data sources as the API server takes them on create (pkg/api/persistentvolumeclaim
/// util.go, then `ValidatePersistentVolumeClaimSpec`):
/// - `DropDisabledFields`: a `dataSourceRef` naming another namespace is dropped whole while the
///   CrossNamespaceVolumeDataSource gate (alpha) is off;
/// - `EnforceDataSourceBackwardsCompatibility`: without a `dataSourceRef`, a `dataSource` that is
///   neither a PersistentVolumeClaim nor a snapshot.storage.k8s.io VolumeSnapshot is dropped
///   silently: the claim is accepted and its volume is made empty (a warning here);
/// - what is left is validated (`validateDataSource`, `validateDataSourceRef`: a name and a
///   kind, only PersistentVolumeClaim of the core group), and the two must name the same
///   object (`isDataSourceEqualDataSourceRef`).
fn data_sources(obj: &Object, r: &mut Reader<'_>) {
    let root = obj.root();
    let text = |n: &Node, k: &str| n.get(k).and_then(Node::as_str).map(str::to_string);
    // A value a template fills in is not judged.
    let written = |path: &str| {
        root.at(path).filter(|n| {
            n.as_map().is_some_and(|m| {
                m.iter()
                    .all(|e| e.value.as_str().is_some() || e.value.is_null())
            })
        })
    };
    // Whether a dataSourceRef survives the create path (templated or not).
    let reference = root
        .at("spec.dataSourceRef")
        .filter(|n| n.as_map().is_some());
    let namespaced = reference
        .and_then(|n| n.get("namespace"))
        .and_then(Node::as_str)
        .is_some_and(|ns| !ns.is_empty());
    if namespaced {
        r.invalid(
            at(obj, "spec.dataSourceRef.namespace"),
            Severity::Warning,
            "spec.dataSourceRef names another namespace: the API server drops it (CrossNamespaceVolumeDataSource is off), so the volume is not made from it".into(),
            "name a source of this namespace".into(),
        );
    }
    let reference_kept = reference.is_some() && !namespaced;
    let dsr = written("spec.dataSourceRef").filter(|_| reference_kept);
    let mut ds = written("spec.dataSource");
    if let (Some(n), false) = (ds, reference_kept) {
        let (group, kind) = (
            text(n, "apiGroup").unwrap_or_default(),
            text(n, "kind").unwrap_or_default(),
        );
        if !crate::model::kept_in_data_source(&group, &kind) {
            r.invalid(
                at(obj, "spec.dataSource"),
                Severity::Warning,
                format!("spec.dataSource names a {} the API server drops: only a PersistentVolumeClaim or a snapshot.storage.k8s.io VolumeSnapshot is kept there, so the claim's volume is made empty", if kind.is_empty() { "source without a kind".to_string() } else { format!("{kind}{}", if group.is_empty() { String::new() } else { format!(" of {group}") }) }),
                "name a populator's object in spec.dataSourceRef (which keeps any kind with an apiGroup), or a claim or VolumeSnapshot in spec.dataSource".into(),
            );
            ds = None;
        }
    }
    for (path, n) in [("spec.dataSource", ds), ("spec.dataSourceRef", dsr)] {
        let Some(n) = n else { continue };
        for key in ["name", "kind"] {
            if text(n, key).is_none_or(|v| v.is_empty()) {
                reject(
                    r,
                    at(obj, path),
                    format!("{path}.{key}: Required value"),
                    "name the claim or snapshot the volume is made from, and its kind",
                );
            }
        }
        let kind = text(n, "kind").unwrap_or_default();
        if text(n, "apiGroup").unwrap_or_default().is_empty()
            && !kind.is_empty()
            && kind != "PersistentVolumeClaim"
        {
            reject(
                r,
                at(obj, path),
                format!("{path}: Invalid value: \"{kind}\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
                "a VolumeSnapshot needs apiGroup: snapshot.storage.k8s.io; of the core group only a PersistentVolumeClaim can be cloned",
            );
        }
    }
    let (Some(ds), Some(dsr)) = (ds, dsr) else {
        return;
    };
    if ["apiGroup", "kind", "name"]
        .iter()
        .any(|k| text(ds, k) != text(dsr, k))
    {
        reject(
            r,
            at(obj, "spec.dataSource"),
            "spec: Invalid value: spec.dataSource: must match dataSourceRef".into(),
            "keep one of spec.dataSource and spec.dataSourceRef (the API server fills in the other), or make them name the same object",
        );
    }
}

/// `ValidateStorageClass` (reclaimPolicy and volumeBindingMode after defaulting).
pub(crate) fn storage_class(obj: &Object, _sc: &StorageClass, r: &mut Reader<'_>) {
    let root = obj.root();
    match root.get("provisioner").and_then(Node::as_str) {
        None | Some("") => reject(r, obj.whole(), "provisioner: Required value".into(), "name the provisioner (a CSI driver, or kubernetes.io/no-provisioner for static volumes)"),
        Some(p) => {
            if !is_qualified_name(&p.to_ascii_lowercase()) {
                reject(r, at(obj, "provisioner"), format!("provisioner: Invalid value: \"{p}\": must be a qualified name: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.'"), "write the driver's name as it registers itself, e.g. ebs.csi.aws.com");
            }
        }
    }
    allowed_topologies(obj, r);
    if root.get("reclaimPolicy").and_then(Node::as_str) == Some("Recycle") {
        reject(
            r,
            at(obj, "reclaimPolicy"),
            "reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"".into(),
            "a StorageClass's volumes are deleted or retained, never recycled",
        );
    }
}

/// `validateAllowedTopologies` (pkg/apis/storage/validation): each term's
/// `ValidateTopologySelectorTerm` (no key twice) and each
/// expression's `validateTopologySelectorLabelRequirement` (values required, none twice, the
/// key a label name: `ValidateLabelName`), then no two terms alike (their key → value sets
/// compared, in any order). The cases of `TestValidateAllowedTopologies` are the fixtures
/// invalid-field-value/bad-allowed-topologies.yaml and good-allowed-topologies.yaml.
fn allowed_topologies(obj: &Object, r: &mut Reader<'_>) {
    use std::collections::{BTreeMap, BTreeSet};
    let terms = obj
        .root()
        .get("allowedTopologies")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let help = "allowedTopologies lists terms of label keys (such as topology.kubernetes.io/zone) and the values a volume's node may have";
    let mut seen: Vec<BTreeMap<String, BTreeSet<String>>> = Vec::new();
    for (t, term) in terms.iter().enumerate() {
        let path = format!("allowedTopologies[{t}].matchLabelExpressions");
        let exprs = term
            .get("matchLabelExpressions")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (e, expr) in exprs.iter().enumerate() {
            let here = format!("{path}[{e}]");
            // A placeholder is an unrendered template's (reported as such), not a label key.
            if let Some(k) = expr.get("key") {
                if r.placeholder(k, &format!("{here}.key")) {
                    continue;
                }
            }
            let key = expr.get("key").and_then(Node::as_str).unwrap_or_default();
            let values = expr.strings("values");
            if values.is_empty() {
                reject(
                    r,
                    at(obj, &here),
                    format!("{here}.values: Required value"),
                    help,
                );
            }
            let mut set = BTreeSet::new();
            for (v, value) in values.iter().enumerate() {
                if !set.insert(value.to_string()) {
                    reject(
                        r,
                        at(obj, &format!("{here}.values[{v}]")),
                        format!("{here}.values[{v}]: Duplicate value: \"{value}\""),
                        help,
                    );
                }
            }
            if !is_qualified_name(key) {
                reject(
                    r,
                    at(obj, &format!("{here}.key")),
                    format!("{here}.key: Invalid value: \"{key}\": {QUALIFIED_NAME}"),
                    help,
                );
            }
            if map.insert(key.to_string(), set).is_some() {
                reject(
                    r,
                    at(obj, &format!("{here}.key")),
                    format!("{here}.key: Duplicate value: \"{key}\""),
                    help,
                );
            }
        }
        // Upstream starts its list of seen terms with one empty (nil) map per term, and
        // compares them semantically (nil equals empty): a term without expressions is a
        // duplicate too.
        if map.is_empty() || seen.contains(&map) {
            reject(
                r,
                at(obj, &format!("allowedTopologies[{t}]")),
                format!("{path}: Duplicate value: \"\""),
                help,
            );
        }
        seen.push(map);
    }
}
