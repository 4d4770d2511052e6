//! What the API server rejects, for the kinds pvlint reads: the checks of
//! pkg/apis/core/validation (`ValidatePersistentVolumeSpec`, `ValidatePersistentVolumeClaimSpec`,
//! `ValidateVolumes`), pkg/apis/storage/validation (`ValidateStorageClass`) and
//! pkg/apis/apps/validation (`ValidateDeploymentSpec`, `ValidateRollingUpdateDeployment`,
//! `ValidateRollingUpdateDaemonSet`, selectors), after the API server's defaults
//! (pkg/apis/*/v1/defaults.go) are applied. Messages follow `field.Error`: `<path>: <type>[:
//! <value>][: <detail>]`. An object with such an error never exists: it takes no part in the
//! simulation (see [`super::Diag::rejects`]).

use super::{Field, Object, Pv, Pvc, Reader, StorageClass};
use crate::finding::Severity;
use crate::node::{Node, ScalarKind};

fn reject(r: &mut Reader<'_>, field: Field, error: String, help: &str) {
    let kind = r.obj.kind.clone();
    r.invalid(
        field,
        Severity::Error,
        format!("{error}; the API server rejects this {kind}"),
        help.to_string(),
    );
}

fn at(obj: &Object, path: &str) -> Field {
    obj.field(path).unwrap_or_else(|| obj.key_field(path))
}

/// The Ceph sources' `monitors` list (validateRBDPersistentVolumeSource,
/// validateCephFSPersistentVolumeSource): required and not empty.
fn require_monitors(obj: &Object, r: &mut Reader<'_>, source: &str) {
    let monitors = obj.root().at(&format!("spec.{source}.monitors"));
    if monitors.and_then(Node::as_seq).is_none_or(|s| s.is_empty()) {
        reject(
            r,
            at(obj, &format!("spec.{source}")),
            format!("spec.{source}.monitors: Required value"),
            "list the Ceph monitors",
        );
    }
}

/// `IsDNS1123Subdomain`.
pub fn is_dns_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|l| {
            !l.is_empty()
                && l.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

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
}

/// `ValidateStorageClass` (reclaimPolicy and volumeBindingMode after defaulting).
pub(crate) fn storage_class(obj: &Object, _sc: &StorageClass, r: &mut Reader<'_>) {
    let root = obj.root();
    match root.get("provisioner").and_then(Node::as_str) {
        None | Some("") => reject(r, obj.whole(), "provisioner: Required value".into(), "name the provisioner (a CSI driver, or kubernetes.io/no-provisioner for static volumes)"),
        Some(p) => {
            let lower = p.to_ascii_lowercase();
            let (prefix, name) = match lower.split_once('/') {
                Some((a, b)) => (Some(a), b),
                None => (None, lower.as_str()),
            };
            let name_ok = !name.is_empty()
                && name.len() <= 63
                && !name.contains('/')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                && name.starts_with(|c: char| c.is_ascii_alphanumeric())
                && name.ends_with(|c: char| c.is_ascii_alphanumeric());
            if !name_ok || prefix.is_some_and(|x| !is_dns_subdomain(x)) {
                reject(r, at(obj, "provisioner"), format!("provisioner: Invalid value: \"{p}\": must be a qualified name: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.'"), "write the driver's name as it registers itself, e.g. ebs.csi.aws.com");
            }
        }
    }
    if root.get("reclaimPolicy").and_then(Node::as_str) == Some("Recycle") {
        reject(
            r,
            at(obj, "reclaimPolicy"),
            "reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"".into(),
            "a StorageClass's volumes are deleted or retained, never recycled",
        );
    }
}

/// apimachinery's `IsValidPercent` message (pkg/util/validation), as the API server words it.
pub(crate) const INVALID_PERCENT: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// `IsValidPercent`: `^[0-9]+%$`, and its number.
pub(crate) fn valid_percent(s: &str) -> Option<i64> {
    s.strip_suffix('%')
        .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
}

/// An IntOrString as written: (is a valid percentage, its value). An invalid string counts
/// as `IntValue()` does: the number it parses as, else 0 (`getIntOrPercentValue`).
fn int_or_percent(n: &Node) -> Option<(bool, i64)> {
    let s = n.as_scalar()?;
    match s.kind {
        ScalarKind::Int => super::parse_int(&s.text).map(|v| (false, v)),
        ScalarKind::Str => Some(match valid_percent(&s.text) {
            Some(v) => (true, v),
            None => (false, s.text.parse().unwrap_or(0)),
        }),
        _ => None,
    }
}

/// A value as the API server shows it after `Invalid value: ` (field.Invalid): strings
/// quoted, numbers and booleans bare, maps and lists as JSON.
pub(crate) fn shown(n: &Node) -> String {
    crate::value::convert(n).to_string()
}

/// `ValidatePositiveIntOrPercent` (integers; strings are the typed reader's), and
/// `IsNotMoreThan100Percent`.
fn rolling_value(r: &mut Reader<'_>, path: &str, at_most_100: bool) {
    let obj = r.obj;
    let Some(n) = obj.root().at(path).filter(|n| !n.is_null()) else {
        return;
    };
    let Some((pct, v)) = int_or_percent(n) else {
        return;
    };
    let field = at(obj, path);
    if !pct && v < 0 && n.as_scalar().is_some_and(|s| s.kind == ScalarKind::Int) {
        reject(
            r,
            field.clone(),
            format!("{path}: Invalid value: {v}: must be greater than or equal to 0"),
            "use 0 or more",
        );
    }
    if at_most_100 && pct && v > 100 {
        reject(
            r,
            field,
            format!(
                "{path}: Invalid value: {}: must not be greater than 100%",
                shown(n)
            ),
            "use at most 100%",
        );
    }
}

fn is_zero(n: Option<&Node>, default_zero: bool) -> bool {
    match n.filter(|n| !n.is_null()).and_then(int_or_percent) {
        Some((_, v)) => v == 0,
        None => default_zero,
    }
}

/// `ValidateRollingUpdateDeployment`: both values may not be 0 (SetDefaults_Deployment makes
/// an unset one 25%; an invalid string counts as 0).
fn deployment_rolling_update(r: &mut Reader<'_>) {
    let obj = r.obj;
    let root = obj.root();
    let ty = root.at("spec.strategy.type").and_then(Node::as_str);
    if ty.is_some_and(|t| t != "RollingUpdate") {
        return;
    }
    rolling_value(r, "spec.strategy.rollingUpdate.maxUnavailable", true);
    rolling_value(r, "spec.strategy.rollingUpdate.maxSurge", false);
    let ru = root.at("spec.strategy.rollingUpdate");
    let unavailable = ru
        .and_then(|n| n.get("maxUnavailable"))
        .filter(|n| !n.is_null());
    let surge = ru.and_then(|n| n.get("maxSurge")).filter(|n| !n.is_null());
    if let Some(u) = unavailable {
        if is_zero(Some(u), false) && is_zero(surge, false) {
            let path = "spec.strategy.rollingUpdate.maxUnavailable";
            reject(
                r,
                at(obj, path),
                format!(
                    "{path}: Invalid value: {}: may not be 0 when `maxSurge` is 0",
                    shown(u)
                ),
                "set maxUnavailable: 1 (old pod stops first) or use strategy type Recreate",
            );
        }
    }
}

/// Workloads: selectors, rolling-update values, pod volumes.
pub(crate) fn workload(obj: &Object, kind: super::WorkloadKind, r: &mut Reader<'_>) {
    use super::WorkloadKind as K;
    let root = obj.root();
    match kind {
        K::Deployment => deployment_rolling_update(r),
        K::DaemonSet => {
            let ty = root
                .at("spec.updateStrategy.type")
                .and_then(Node::as_str)
                .unwrap_or("RollingUpdate");
            if ty == "RollingUpdate" {
                // ValidateRollingUpdateDaemonSet: both are checked against 100%.
                rolling_value(r, "spec.updateStrategy.rollingUpdate.maxSurge", true);
                rolling_value(r, "spec.updateStrategy.rollingUpdate.maxUnavailable", true);
                let ru = root.at("spec.updateStrategy.rollingUpdate");
                // Defaults: maxUnavailable 1, maxSurge 0; exactly one may be non-zero, so
                // writing only maxSurge is rejected.
                let surge_zero = is_zero(ru.and_then(|n| n.get("maxSurge")), true);
                let unavailable_zero = is_zero(ru.and_then(|n| n.get("maxUnavailable")), false);
                if !surge_zero && !unavailable_zero {
                    reject(r, at(obj, "spec.updateStrategy.rollingUpdate.maxSurge"), "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: may not be set when maxUnavailable is non-zero (maxUnavailable defaults to 1)".into(), "with maxSurge, set maxUnavailable: 0");
                }
                if surge_zero && unavailable_zero {
                    reject(r, at(obj, "spec.updateStrategy.rollingUpdate"), "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0".into(), "set maxUnavailable: 1 (the default) or maxSurge: 1");
                }
            }
        }
        K::StatefulSet => {
            // ValidateStatefulSetName: a DNS-1123 label (no dots, at most 63 characters).
            let n = obj.name.as_str();
            let label = !n.is_empty() && n.len() <= 63 && is_dns_subdomain(n) && !n.contains('.');
            if !n.is_empty() && !label {
                reject(r, at(obj, "metadata.name"), format!("metadata.name: Invalid value: \"{n}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"), "StatefulSet names are DNS labels: no dots, at most 63 characters");
            }
        }
        _ => {}
    }
    // restartPolicy of pod templates.
    let rp_path = format!("{}.restartPolicy", kind.pod_spec_path());
    let rp = root.at(&rp_path).and_then(Node::as_str);
    match kind {
        K::Job | K::CronJob if rp.is_none_or(|p| p == "Always") => {
            reject(
                r,
                at(obj, &rp_path),
                format!("{rp_path}: Required value: valid values: \"OnFailure\", \"Never\""),
                "a Job's pods need restartPolicy: OnFailure or Never",
            );
        }
        K::Deployment | K::StatefulSet | K::DaemonSet | K::ReplicaSet => {
            if let Some(p) = rp.filter(|p| *p != "Always") {
                reject(
                    r,
                    at(obj, &rp_path),
                    format!("{rp_path}: Unsupported value: \"{p}\": supported values: \"Always\""),
                    "remove restartPolicy (it defaults to Always)",
                );
            }
        }
        _ => {}
    }
    // Selector required and matching the template's labels (apps/v1 kinds).
    if matches!(
        kind,
        K::Deployment | K::StatefulSet | K::DaemonSet | K::ReplicaSet
    ) {
        // extensions/v1beta1 and apps/v1beta1 default a missing selector to the template's
        // labels (their SetDefaults_*); apps/v1beta2 and apps/v1 require it.
        // A kustomization's commonLabels complete the selector and the template's labels.
        let defaults_selector = matches!(
            obj.api_version.as_str(),
            "extensions/v1beta1" | "apps/v1beta1"
        ) || obj.selector_from_kustomize;
        // field.Invalid shows the template's labels as JSON (`{"app":"api"}`).
        let template_labels = root
            .at("spec.template.metadata.labels")
            .map_or_else(|| "null".to_string(), shown);
        match root.at("spec.selector").filter(|n| !n.is_null()) {
            None if defaults_selector => {}
            // A DaemonSet's nil selector is not "required" but matches nothing.
            None if kind == K::DaemonSet => reject(r, at(obj, "spec.template.metadata.labels"), format!("spec.template.metadata.labels: Invalid value: {template_labels}: `selector` does not match template `labels`"), "add spec.selector.matchLabels matching the template's labels"),
            None => reject(r, at(obj, "spec"), "spec.selector: Required value".into(), "add spec.selector.matchLabels matching the template's labels"),
            Some(sel) => {
                let labels: crate::binding::Labels = root
                    .at("spec.template.metadata.labels")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
                    .collect();
                let empty = sel.get("matchLabels").and_then(Node::as_map).is_none_or(|m| m.is_empty())
                    && sel.get("matchExpressions").and_then(Node::as_seq).is_none_or(|m| m.is_empty());
                if empty && !obj.selector_from_kustomize {
                    reject(r, at(obj, "spec.selector"), format!("spec.selector: Invalid value: empty selector is invalid for {}", obj.kind.to_ascii_lowercase()), "select the template's labels");
                } else if let Some(s) = super::meta::read_selector(r, "spec.selector") {
                    if !s.value.matches(&labels) && !obj.selector_from_kustomize {
                        reject(r, at(obj, "spec.template.metadata.labels"), format!("spec.template.metadata.labels: Invalid value: {template_labels}: `selector` does not match template `labels`"), "make spec.selector match spec.template.metadata.labels");
                    }
                }
            }
        }
    }
    // Pod volumes: claimName required, names unique (ValidateVolumes). Not for a StatefulSet:
    // ValidatePodTemplateSpecForStatefulSet leaves its PodSpec unvalidated ("TODO: Add
    // validation for PodSpec, currently this will check volumes, which we know will fail"),
    // and the controller replaces a volume named like a claim template with that claim.
    if kind == K::StatefulSet {
        return;
    }
    let vol_path = format!("{}.volumes", kind.pod_spec_path());
    let mut names = std::collections::HashSet::new();
    for (i, v) in root
        .at(&vol_path)
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let base = format!("{vol_path}[{i}]");
        if let Some(name) = v.get("name").and_then(Node::as_str) {
            if !names.insert(name.to_string()) {
                reject(
                    r,
                    at(obj, &format!("{base}.name")),
                    format!("{base}.name: Duplicate value: \"{name}\""),
                    "give every volume its own name",
                );
            }
        }
        if let Some(pvc) = v.get("persistentVolumeClaim").filter(|n| !n.is_null()) {
            if pvc
                .get("claimName")
                .and_then(Node::as_str)
                .is_none_or(str::is_empty)
            {
                reject(
                    r,
                    at(obj, &format!("{base}.persistentVolumeClaim")),
                    format!("{base}.persistentVolumeClaim.claimName: Required value"),
                    "name the claim the pod mounts",
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_subdomains() {
        for ok in ["gp3", "fast-ssd", "a.b-c", "nfs-csi"] {
            assert!(is_dns_subdomain(ok), "{ok}");
        }
        for bad in ["", "Fast", "a_b", "-a", "a-", "a..b"] {
            assert!(!is_dns_subdomain(bad), "{bad}");
        }
    }
}
