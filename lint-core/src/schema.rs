//! Known fields of the objects pvlint reads, for the `unknown-field` rule.
//!
//! `Map` is closed: every key not listed is unknown. `Open` lists only the keys pvlint
//! cares about inside a larger Kubernetes type (a pod spec, a container): an unlisted key
//! is reported only when it is a near-miss of a listed one (`volume` for `volumes`).

pub enum Shape {
    /// Not checked.
    Any,
    Map(&'static [F]),
    Open(&'static [F]),
    List(&'static Shape),
}

pub struct F(pub &'static str, pub Shape);

use Shape::*;

const STR: Shape = Any;

pub const OBJECT_META: Shape = Map(&[
    F("name", STR),
    F("generateName", STR),
    F("namespace", STR),
    F("labels", Any),
    F("annotations", Any),
    F("uid", STR),
    F("resourceVersion", STR),
    F("creationTimestamp", STR),
    F("deletionTimestamp", STR),
    F("deletionGracePeriodSeconds", STR),
    F("selfLink", STR),
    F("generation", STR),
    F("managedFields", Any),
    F("ownerReferences", Any),
    F("finalizers", Any),
]);

const CLAIM_REF: Shape = Map(&[
    F("apiVersion", STR),
    F("kind", STR),
    F("name", STR),
    F("namespace", STR),
    F("uid", STR),
    F("resourceVersion", STR),
    F("fieldPath", STR),
]);

mod sources;
use sources::*;

const PV_SPEC: Shape = Map(&[
    F("accessModes", Any),
    F("capacity", Map(&[F("storage", STR)])),
    F("claimRef", CLAIM_REF),
    F("mountOptions", Any),
    F("nodeAffinity", Map(&[F("required", Any)])),
    F("persistentVolumeReclaimPolicy", STR),
    F("storageClassName", STR),
    F("volumeMode", STR),
    F("volumeAttributesClassName", STR),
    F("csi", CSI_SOURCE),
    F(
        "nfs",
        Map(&[F("server", STR), F("path", STR), F("readOnly", STR)]),
    ),
    F("hostPath", Map(&[F("path", STR), F("type", STR)])),
    F("local", Map(&[F("path", STR), F("fsType", STR)])),
    F("awsElasticBlockStore", AWS_ELASTIC_BLOCK_STORE_SOURCE),
    F("azureDisk", AZURE_DISK_SOURCE),
    F("azureFile", AZURE_FILE_PERSISTENT_SOURCE),
    F("cephfs", CEPHFS_PERSISTENT_SOURCE),
    F("cinder", CINDER_PERSISTENT_SOURCE),
    F("fc", FC_SOURCE),
    F("flexVolume", FLEX_PERSISTENT_SOURCE),
    F("flocker", FLOCKER_SOURCE),
    F("gcePersistentDisk", GCE_PERSISTENT_DISK_SOURCE),
    F("glusterfs", GLUSTERFS_PERSISTENT_SOURCE),
    F("iscsi", ISCSI_PERSISTENT_SOURCE),
    F("photonPersistentDisk", PHOTON_PERSISTENT_DISK_SOURCE),
    F("portworxVolume", PORTWORX_SOURCE),
    F("quobyte", QUOBYTE_SOURCE),
    F("rbd", RBD_PERSISTENT_SOURCE),
    F("scaleIO", SCALEIO_PERSISTENT_SOURCE),
    F("storageos", STORAGEOS_PERSISTENT_SOURCE),
    F("vsphereVolume", VSPHERE_VIRTUAL_DISK_SOURCE),
]);

pub const PVC_SPEC: Shape = Map(&[
    F("accessModes", Any),
    F("selector", Any),
    F(
        "resources",
        Map(&[
            F("requests", Map(&[F("storage", STR)])),
            F("limits", Map(&[F("storage", STR)])),
        ]),
    ),
    F("volumeName", STR),
    F("storageClassName", STR),
    F("volumeMode", STR),
    F("dataSource", Any),
    F("dataSourceRef", Any),
    F("volumeAttributesClassName", STR),
]);

const CLAIM_TEMPLATE: Shape = Map(&[
    F("apiVersion", STR),
    F("kind", STR),
    F("metadata", OBJECT_META),
    F("spec", PVC_SPEC),
    F("status", Any),
]);

const VOLUME_MOUNT: Shape = Map(&[
    F("name", STR),
    F("mountPath", STR),
    F("subPath", STR),
    F("subPathExpr", STR),
    F("readOnly", STR),
    F("mountPropagation", STR),
    F("recursiveReadOnly", STR),
]);

const CONTAINER: Shape = Open(&[
    F("volumeMounts", List(&VOLUME_MOUNT)),
    F("volumeDevices", Any),
]);

const VOLUME: Shape = Open(&[
    F("name", STR),
    F(
        "persistentVolumeClaim",
        Map(&[F("claimName", STR), F("readOnly", STR)]),
    ),
    F(
        "ephemeral",
        Map(&[F(
            "volumeClaimTemplate",
            Map(&[F("metadata", OBJECT_META), F("spec", PVC_SPEC)]),
        )]),
    ),
]);

const POD_SPEC: Shape = Open(&[
    F("volumes", List(&VOLUME)),
    F("containers", List(&CONTAINER)),
    F("initContainers", List(&CONTAINER)),
]);

const POD_TEMPLATE: Shape = Map(&[F("metadata", OBJECT_META), F("spec", POD_SPEC)]);

const ROLLING: Shape = Map(&[F("maxSurge", STR), F("maxUnavailable", STR)]);

const JOB_SPEC: Shape = Open(&[
    F("template", POD_TEMPLATE),
    F("parallelism", STR),
    F("completions", STR),
]);

macro_rules! top {
    ($spec:expr) => {
        Map(&[
            F("apiVersion", STR),
            F("kind", STR),
            F("metadata", OBJECT_META),
            F("spec", $spec),
            F("status", Any),
        ])
    };
}

static PV: Shape = top!(PV_SPEC);
static PVC: Shape = top!(PVC_SPEC);
static POD: Shape = top!(POD_SPEC);
static DEPLOYMENT: Shape = top!(Map(&[
    F("replicas", STR),
    F("selector", Any),
    F("template", POD_TEMPLATE),
    F(
        "strategy",
        Map(&[F("type", STR), F("rollingUpdate", ROLLING)])
    ),
    F("minReadySeconds", STR),
    F("revisionHistoryLimit", STR),
    F("progressDeadlineSeconds", STR),
    F("paused", STR),
]));
static STATEFUL_SET: Shape = top!(Map(&[
    F("replicas", STR),
    F("selector", Any),
    F("template", POD_TEMPLATE),
    F("serviceName", STR),
    F("volumeClaimTemplates", List(&CLAIM_TEMPLATE)),
    F(
        "updateStrategy",
        Map(&[
            F("type", STR),
            F(
                "rollingUpdate",
                Map(&[F("partition", STR), F("maxUnavailable", STR)])
            )
        ]),
    ),
    F("podManagementPolicy", STR),
    F("revisionHistoryLimit", STR),
    F("minReadySeconds", STR),
    F(
        "persistentVolumeClaimRetentionPolicy",
        Map(&[F("whenDeleted", STR), F("whenScaled", STR)]),
    ),
    F("ordinals", Map(&[F("start", STR)])),
]));
static DAEMON_SET: Shape = top!(Map(&[
    F("selector", Any),
    F("template", POD_TEMPLATE),
    F("updateStrategy", Any),
    F("minReadySeconds", STR),
    F("revisionHistoryLimit", STR),
]));
static REPLICA_SET: Shape = top!(Map(&[
    F("replicas", STR),
    F("selector", Any),
    F("template", POD_TEMPLATE),
    F("minReadySeconds", STR),
]));
static JOB: Shape = top!(JOB_SPEC);
static CRON_JOB: Shape = top!(Open(&[F(
    "jobTemplate",
    Map(&[F("metadata", OBJECT_META), F("spec", JOB_SPEC)])
)]));
static CSI_DRIVER: Shape = top!(Open(&[F("attachRequired", STR), F("podInfoOnMount", STR)]));
static STORAGE_CLASS: Shape = Map(&[
    F("apiVersion", STR),
    F("kind", STR),
    F("metadata", OBJECT_META),
    F("provisioner", STR),
    F("parameters", Any),
    F("reclaimPolicy", STR),
    F("mountOptions", Any),
    F("allowVolumeExpansion", STR),
    F("volumeBindingMode", STR),
    F("allowedTopologies", Any),
]);

/// The schema of a whole object of `kind`, if pvlint checks that kind.
pub fn object(kind: &str) -> Option<&'static Shape> {
    Some(match kind {
        "PersistentVolume" => &PV,
        "PersistentVolumeClaim" => &PVC,
        "Pod" => &POD,
        "Deployment" => &DEPLOYMENT,
        "StatefulSet" => &STATEFUL_SET,
        "DaemonSet" => &DAEMON_SET,
        "ReplicaSet" => &REPLICA_SET,
        "Job" => &JOB,
        "CronJob" => &CRON_JOB,
        "StorageClass" => &STORAGE_CLASS,
        "CSIDriver" => &CSI_DRIVER,
        _ => return None,
    })
}

/// Known misnamings that edit distance does not catch: (wrong, right) per object kind.
pub fn alias(kind: &str, key: &str) -> Option<&'static str> {
    Some(match (kind, key) {
        ("PersistentVolume", "reclaimPolicy") => "persistentVolumeReclaimPolicy",
        ("StorageClass", "persistentVolumeReclaimPolicy") => "reclaimPolicy",
        ("StorageClass", "bindingMode") => "volumeBindingMode",
        (_, "storageClass") | (_, "storageclass") | (_, "class") => "storageClassName",
        (_, "accessMode") => "accessModes",
        _ => return None,
    })
}

/// Optimal-string-alignment distance, case-insensitive.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_ascii_lowercase().chars().collect();
    let b: Vec<char> = b.to_ascii_lowercase().chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The closest known key, when close enough to be a likely typo.
pub fn suggest<'a>(key: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = match key.chars().count() {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    let len = key.chars().count();
    known
        .filter(|k| k.chars().count().abs_diff(len) <= limit)
        .map(|k| (distance(key, k), k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, k)| (*d, *k))
        .map(|(_, k)| k)
}

/// " (did you mean X?)" for what the user most likely meant by `input` among `known` (see
/// [`did_you_mean`]), or "".
pub fn hint<'a>(input: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(input, known)
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default()
}

/// What the user most likely meant by a word they typed (a setting, a rule id, a host
/// capability): the first of `known` that starts with it (three characters or more), else the
/// closest by typos (`suggest`, which findings use alone: there a prefix is no
/// typo — a class `standard` is not `standard-rwo`).
pub fn did_you_mean<'a>(input: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let known: Vec<&'a str> = known.into_iter().collect();
    let len = input.chars().count();
    known
        .iter()
        .copied()
        .find(|k| len >= 3 && k.starts_with(input) && *k != input)
        .or_else(|| suggest(input, known.iter().copied()))
        // A typo in a prefix (`rwo-roling` for rwo-rolling-surge): the one name whose start,
        // as long as the input, is a typo away from it.
        .or_else(|| {
            let mut near = known.iter().copied().filter(|k| {
                len >= 5
                    && k.chars().count() > len + 1
                    && (len - 1..=len + 1).any(|n| {
                        let start: String = k.chars().take(n).collect();
                        distance(input, &start) <= 1
                    })
            });
            near.next().filter(|_| near.next().is_none())
        })
}

/// A field the API does not know, found by [`unknown_fields`].
pub struct Unknown<'n> {
    /// The path of the map holding it (`spec`, `spec.template.spec.volumes[0]`).
    pub parent: String,
    pub key: &'n str,
    pub key_span: crate::source::Span,
    pub value: &'n crate::node::Node,
    /// The known field it most likely means.
    pub suggestion: Option<&'static str>,
    /// The fields pvlint knows in that map.
    pub known: &'static [F],
}

/// The unknown fields of an object of a kind whose shape pvlint knows: every unknown key of a
/// map whose fields pvlint knows completely, and keys one edit away from a known field in
/// maps it knows in part (pod specs, containers). A patch's strategic-merge directives (`$...`)
/// are no fields.
pub fn unknown_fields<'n>(
    kind: &str,
    root: &'n crate::node::Node,
    patch: bool,
) -> Vec<Unknown<'n>> {
    let mut out = Vec::new();
    if let Some(shape) = object(kind) {
        walk(kind, root, shape, patch, &mut String::new(), &mut out);
    }
    out
}

fn walk<'n>(
    kind: &str,
    node: &'n crate::node::Node,
    shape: &'static Shape,
    patch: bool,
    path: &mut String,
    out: &mut Vec<Unknown<'n>>,
) {
    match shape {
        Any => {}
        List(inner) => {
            for (i, item) in node.as_seq().unwrap_or_default().iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(kind, item, inner, patch, path, out);
                path.truncate(len);
            }
        }
        Map(fields) | Open(fields) => {
            let closed = matches!(shape, Map(_));
            for e in node.as_map().unwrap_or_default() {
                if patch && e.key.starts_with('$') {
                    continue;
                }
                if let Some(f) = fields.iter().find(|f| f.0 == e.key) {
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&e.key);
                    walk(kind, &e.value, &f.1, patch, path, out);
                    path.truncate(len);
                    continue;
                }
                let names = || fields.iter().map(|f| f.0);
                let suggestion = alias(kind, &e.key)
                    .filter(|a| names().any(|n| n == *a))
                    .or_else(|| suggest(&e.key, names()));
                if !closed && suggestion.is_none() {
                    continue;
                }
                out.push(Unknown {
                    parent: path.clone(),
                    key: &e.key,
                    key_span: e.key_span,
                    value: &e.value,
                    suggestion,
                    known: fields,
                });
            }
        }
    }
}
