//! Typed views of PersistentVolumes, PersistentVolumeClaims, StorageClasses and CSIDrivers.

use super::meta::{read_meta, read_owners, read_selector, Meta, OwnerRef};
use super::{Field, ObjId, Object, Reader, Spanned};
use crate::binding::LabelSelector;
use crate::finding::Severity;
use crate::kube::{self, AccessModes, ReclaimPolicy, VolumeMode};
use crate::quantity::Quantity;
use crate::source::Span;
use crate::string::Str;

/// A volume's storage class (`GetPersistentVolumeClass`): beta annotation first, then spec.
#[derive(Debug, Clone)]
pub struct Pv {
    pub obj: ObjId,
    pub name: Str,
    pub class: Str,
    pub class_field: Option<Field>,
    pub capacity: Option<Spanned<Quantity>>,
    pub access_modes: AccessModes,
    pub volume_mode: VolumeMode,
    /// None when unset: the API server defaults a manually created PV to Retain.
    pub reclaim: Option<Spanned<ReclaimPolicy>>,
    pub claim_ref: Option<ClaimRef>,
    pub source: Option<VolumeSource>,
    pub has_node_affinity: bool,
    pub finalizers: Vec<Str>,
    pub provisioned_by: Option<Spanned<Str>>,
    /// spec.volumeAttributesClassName ("" when unset).
    pub attributes_class: Str,
    /// pv.kubernetes.io/migrated-to: a CSI driver serves this in-tree volume.
    pub migrated_to: Option<Str>,
    /// pv.kubernetes.io/bound-by-controller is set.
    pub bound_by_controller: bool,
    pub meta: Meta,
}

impl Pv {
    pub fn reclaim_policy(&self) -> ReclaimPolicy {
        self.reclaim
            .as_ref()
            .map_or(ReclaimPolicy::Retain, |r| r.value)
    }

    /// "the csi volume com.tencent.cloud.csi.cfs/cfs-3c7e956f6" and the like: what would be deleted.
    pub fn backing_storage(&self) -> String {
        match &self.source {
            None => "its backing storage".into(),
            Some(s) => match s.kind.as_str() {
                "csi" => format!(
                    "the {} volume \"{}\"",
                    s.csi_driver.as_deref().unwrap_or("CSI"),
                    s.handle.as_deref().unwrap_or("?")
                ),
                "nfs" => format!(
                    "the NFS export {}:{}",
                    s.server.as_ref().map_or("?", |x| x.value.as_str()),
                    s.path.as_deref().unwrap_or("?")
                ),
                "hostPath" | "local" => format!(
                    "the directory {} on the node",
                    s.path.as_deref().unwrap_or("?")
                ),
                other => match &s.handle {
                    Some(h) => format!("the {other} volume \"{h}\""),
                    None => format!("the {other} volume"),
                },
            },
        }
    }
}

#[derive(Debug, Clone)]
pub struct ClaimRef {
    pub field: Field,
    pub namespace: Str,
    pub name: Str,
    pub uid: Option<Spanned<Str>>,
    pub resource_version: Option<Spanned<Str>>,
}

#[derive(Debug, Clone)]
pub struct VolumeSource {
    /// The field name: `csi`, `nfs`, `hostPath`, ...
    pub kind: Str,
    pub field: Field,
    pub csi_driver: Option<Str>,
    /// volumeHandle (CSI), or the image/disk/volume id of in-tree sources.
    pub handle: Option<Str>,
    pub server: Option<Spanned<Str>>,
    pub path: Option<Str>,
    pub has_provisioner_identity: bool,
}

/// A claim, or a StatefulSet volumeClaimTemplate expanded into one.
#[derive(Debug, Clone)]
pub struct Pvc {
    pub obj: ObjId,
    pub name: Str,
    pub namespace: Str,
    /// Path prefix of the claim inside its object (`spec.volumeClaimTemplates[0].` for templates).
    pub prefix: Str,
    /// For templates: the StatefulSet's name.
    pub template_of: Option<Str>,
    pub class: ClaimClass,
    pub request: Option<Spanned<Quantity>>,
    pub access_modes: AccessModes,
    pub access_modes_field: Option<Field>,
    pub volume_mode: VolumeMode,
    pub volume_mode_field: Option<Field>,
    pub volume_name: Option<Spanned<Str>>,
    pub bind_completed: Option<Field>,
    pub selector: Option<Spanned<LabelSelector>>,
    /// spec.volumeAttributesClassName ("" when unset).
    pub attributes_class: Str,
    /// volume.kubernetes.io/selected-node is set (the scheduler chose a node).
    pub selected_node: bool,
    /// spec.dataSourceRef, else spec.dataSource (the API server copies one into the other):
    /// what the new volume is made from. Boxed: rare.
    pub data_source: Option<Box<DataSource>>,
    /// The claim's metadata (a template's own metadata for StatefulSet templates).
    pub meta: Meta,
    /// metadata.ownerReferences of a claim object (none for templates: the StatefulSet
    /// controller sets a claim's owners); empty unless every entry is complete.
    pub owners: Box<[OwnerRef]>,
    /// The `spec:` entry, key and value (None when there is none): see [`Pvc::spec_field`].
    spec_span: Option<Span>,
}

/// A claim's data source: a PersistentVolumeClaim to clone, a VolumeSnapshot to restore, or
/// a populator's custom resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSource {
    pub kind: Str,
    pub name: Str,
    /// "" for the core group (a PersistentVolumeClaim).
    pub api_group: Str,
    pub field: Field,
}

impl Pvc {
    /// The claim's `spec` entry, or its object as a whole when it has none: where a finding
    /// about a field the claim does not write points. `obj` is the claim's object.
    pub fn spec_field(&self, obj: &Object) -> Field {
        match self.spec_span {
            Some(span) => Field {
                path: Str::from(format!("{}spec", self.prefix)),
                span,
            },
            None => obj.whole(),
        }
    }
}

/// `GetPersistentVolumeClaimClass` with nil kept apart from "" (admission treats them differently).
#[derive(Debug, Clone)]
pub enum ClaimClass {
    /// storageClassName not set and no beta annotation: admission assigns the default class.
    Unset,
    Set {
        name: Str,
        field: Field,
        /// Came from the beta annotation, which wins over spec.storageClassName.
        from_annotation: bool,
    },
}

impl ClaimClass {
    pub fn field(&self) -> Option<&Field> {
        match self {
            ClaimClass::Unset => None,
            ClaimClass::Set { field, .. } => Some(field),
        }
    }
}

#[derive(Debug, Clone)]
pub struct StorageClass {
    pub obj: ObjId,
    pub name: Str,
    pub provisioner: Option<Spanned<Str>>,
    pub reclaim: Option<Spanned<ReclaimPolicy>>,
    pub wait_for_first_consumer: bool,
    /// The is-default-class annotation (GA or beta form) equals "true".
    pub is_default: Option<Field>,
    /// metadata.creationTimestamp, when the object comes from a cluster.
    pub created: Option<Str>,
    pub delete_params: crate::drivers::DeleteParams,
}

#[derive(Debug, Clone)]
pub struct CsiDriver {
    pub name: Str,
    /// `spec.attachRequired`; Kubernetes defaults it to true.
    pub attach_required: bool,
}

pub(crate) fn access_modes(r: &mut Reader<'_>, path: &str) -> (AccessModes, Option<Field>) {
    let mut modes = AccessModes::default();
    let Some(list) = r.strings(path) else {
        return (modes, None);
    };
    for m in &list.value {
        match AccessModes::parse(&m.value) {
            Some(a) => modes.insert(a),
            None => {
                let long = match m.value.as_str() {
                    "RWO" => Some("ReadWriteOnce"),
                    "RWX" => Some("ReadWriteMany"),
                    "ROX" => Some("ReadOnlyMany"),
                    "RWOP" => Some("ReadWriteOncePod"),
                    _ => None,
                };
                let help = match long {
                    Some(l) => format!("write {l}: the short forms are only what kubectl prints"),
                    None => {
                        "use ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod".into()
                    }
                };
                r.invalid(
                    m.field.clone(),
                    Severity::Error,
                    format!(
                        "{}: Unsupported value: \"{}\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"; the API server rejects this object",
                        m.field.path, m.value
                    ),
                    help,
                );
            }
        }
    }
    (modes, Some(list.field))
}

pub(crate) fn volume_mode(r: &mut Reader<'_>, path: &str) -> (VolumeMode, Option<Field>) {
    match r.string(path) {
        None => (VolumeMode::Filesystem, None),
        Some(s) => match s.value.as_str() {
            "Block" => (VolumeMode::Block, Some(s.field)),
            "Filesystem" => (VolumeMode::Filesystem, Some(s.field)),
            other => {
                r.invalid(
                    s.field.clone(),
                    Severity::Error,
                    format!("{path}: Unsupported value: \"{other}\": supported values: \"Block\", \"Filesystem\"; the API server rejects this object"),
                    "use Filesystem (the default) or Block".into(),
                );
                (VolumeMode::Filesystem, Some(s.field))
            }
        },
    }
}

fn reclaim(r: &mut Reader<'_>, path: &str) -> Option<Spanned<ReclaimPolicy>> {
    let s = r.string(path)?;
    match ReclaimPolicy::parse(&s.value) {
        Some(p) => Some(Spanned {
            value: p,
            field: s.field,
        }),
        None => {
            r.invalid(
                s.field,
                Severity::Error,
                format!("{path}: Unsupported value: \"{}\": supported values: \"Delete\", \"Recycle\", \"Retain\"; the API server rejects this object", s.value),
                "use Retain or Delete (the value is case-sensitive)".into(),
            );
            None
        }
    }
}

pub(crate) fn read_pv(obj: &Object, id: ObjId, r: &mut Reader<'_>) -> Pv {
    let beta_class = obj
        .annotation_str(kube::ANN_BETA_STORAGE_CLASS)
        .map(Str::from);
    let spec_class = r.string("spec.storageClassName");
    let (class, class_field) = match (beta_class, spec_class) {
        (Some(c), _) => (c, obj.annotation_field(kube::ANN_BETA_STORAGE_CLASS)),
        (None, Some(s)) => (s.value, Some(s.field)),
        (None, None) => (Str::default(), None),
    };
    let capacity = r.quantity("spec.capacity.storage");
    let (access_modes, _) = access_modes(r, "spec.accessModes");
    let (volume_mode, _) = volume_mode(r, "spec.volumeMode");
    let reclaim = reclaim(r, "spec.persistentVolumeReclaimPolicy");
    let claim_ref = r.map("spec.claimRef").map(|_| {
        let namespace = r
            .string("spec.claimRef.namespace")
            .map(|s| s.value)
            .unwrap_or_default();
        let name = r
            .string("spec.claimRef.name")
            .map(|s| s.value)
            .unwrap_or_default();
        ClaimRef {
            field: obj.key_field("spec.claimRef"),
            namespace,
            name,
            uid: r
                .string("spec.claimRef.uid")
                .filter(|s| !s.value.is_empty()),
            resource_version: r
                .string("spec.claimRef.resourceVersion")
                .filter(|s| !s.value.is_empty()),
        }
    });
    let source = read_source(obj, r);
    // ValidatePersistentVolumeSpec: "Local volume requires node affinity".
    if source.as_ref().is_some_and(|s| s.kind == "local")
        && obj.root().at("spec.nodeAffinity.required").is_none()
    {
        let field = source.as_ref().map(|s| s.field.clone()).expect("checked");
        r.invalid(
            field.with_path("spec.nodeAffinity"),
            Severity::Error,
            "spec.nodeAffinity: Required value: Local volume requires node affinity; the API server rejects this PersistentVolume".into(),
            "pin the volume to the node that has the disk with spec.nodeAffinity.required".into(),
        );
    }
    let provisioned_by = obj.annotation_str(kube::ANN_PROVISIONED_BY).and_then(|v| {
        Some(Spanned {
            value: Str::from(v),
            field: obj.annotation_field(kube::ANN_PROVISIONED_BY)?,
        })
    });
    Pv {
        obj: id,
        name: obj.name.clone(),
        class,
        class_field,
        capacity,
        access_modes,
        volume_mode,
        reclaim,
        claim_ref,
        source,
        has_node_affinity: obj.root().at("spec.nodeAffinity.required").is_some(),
        finalizers: obj.finalizers().into_iter().map(Str::from).collect(),
        provisioned_by,
        attributes_class: r
            .string("spec.volumeAttributesClassName")
            .map(|s| s.value)
            .unwrap_or_default(),
        migrated_to: obj.annotation_str(kube::ANN_MIGRATED_TO).map(Str::from),
        bound_by_controller: obj.annotation(kube::ANN_BOUND_BY_CONTROLLER).is_some(),
        meta: read_meta(r, ""),
    }
}

fn read_source(obj: &Object, r: &mut Reader<'_>) -> Option<VolumeSource> {
    let spec = obj.root().get("spec")?.as_map()?;
    let mut found: Vec<&str> = Vec::new();
    for e in spec {
        if e.key == "csi" || kube::in_tree_source(&e.key).is_some() {
            found.push(&e.key);
        }
    }
    if found.len() > 1 {
        r.invalid(
            obj.key_field(&format!("spec.{}", found[1])),
            Severity::Error,
            format!(
                "spec: Forbidden: may not specify more than 1 volume type (found {}); the API server rejects this object",
                found.join(", ")
            ),
            "keep exactly one volume source".into(),
        );
    }
    let kind = *found.first()?;
    let base = format!("spec.{kind}");
    let node = r.map(&base)?;
    let s = |r: &mut Reader<'_>, k: &str| r.string_in(node, &base, k).map(|x| x.value);
    let (csi_driver, handle, server, path) = match kind {
        "csi" => (s(r, "driver"), s(r, "volumeHandle"), None, None),
        "nfs" => (None, None, r.string_in(node, &base, "server"), s(r, "path")),
        "hostPath" | "local" => (None, None, None, s(r, "path")),
        "rbd" => (None, s(r, "image"), None, None),
        "awsElasticBlockStore" | "cinder" => (None, s(r, "volumeID"), None, None),
        "gcePersistentDisk" => (None, s(r, "pdName"), None, None),
        "azureDisk" => (None, s(r, "diskName"), None, None),
        "vsphereVolume" => (None, s(r, "volumePath"), None, None),
        "iscsi" => (None, s(r, "iqn"), None, None),
        "cephfs" | "glusterfs" => (None, None, None, s(r, "path")),
        _ => (None, None, None, None),
    };
    let has_provisioner_identity = node
        .at("volumeAttributes")
        .and_then(|a| a.get(kube::CSI_PROVISIONER_IDENTITY))
        .is_some();
    Some(VolumeSource {
        kind: Str::from(kind),
        field: obj.key_field(&base),
        csi_driver,
        handle,
        server,
        path,
        has_provisioner_identity,
    })
}

/// Reads a claim spec found at `prefix` (`""` for a PVC, `spec.volumeClaimTemplates[i].` for templates).
pub(crate) fn read_claim(
    obj: &Object,
    id: ObjId,
    r: &mut Reader<'_>,
    prefix: &str,
    name: Str,
    template_of: Option<String>,
) -> Pvc {
    let p = |s: &str| format!("{prefix}{s}");
    let ann_path = p("metadata.annotations");
    let ann = obj.root().at(&ann_path);
    let beta = ann.and_then(|a| a.entry(kube::ANN_BETA_STORAGE_CLASS));
    // GetPersistentVolumeClaimClass: the beta annotation wins whenever present, even as "".
    let class = match beta.and_then(|e| e.value.as_str().map(|v| (e, v))) {
        Some((e, v)) => ClaimClass::Set {
            name: Str::from(v),
            field: Field {
                path: Str::from(format!("{ann_path}.{}", kube::ANN_BETA_STORAGE_CLASS)),
                span: e.key_span.join(e.value.span),
            },
            from_annotation: true,
        },
        _ => match r.string(&p("spec.storageClassName")) {
            Some(s) => ClaimClass::Set {
                name: s.value,
                field: s.field,
                from_annotation: false,
            },
            None => ClaimClass::Unset,
        },
    };
    let request = r.quantity(&p("spec.resources.requests.storage"));
    if let Some(q) = &request {
        if q.value.is_negative() || q.value.is_zero() {
            r.invalid(
                q.field.clone(),
                Severity::Error,
                format!("{}: Invalid value: \"{}\": must be greater than zero; the API server rejects this object", q.field.path, q.value),
                "request the size the workload needs, e.g. 10Gi".into(),
            );
        }
    }
    let (access_modes, access_modes_field) = access_modes(r, &p("spec.accessModes"));
    let (volume_mode, volume_mode_field) = volume_mode(r, &p("spec.volumeMode"));
    let volume_name = r
        .string(&p("spec.volumeName"))
        .filter(|s| !s.value.is_empty());
    let bind_completed = ann
        .and_then(|a| a.entry(kube::ANN_BIND_COMPLETED))
        .map(|e| Field {
            path: Str::from(format!("{ann_path}.{}", kube::ANN_BIND_COMPLETED)),
            span: e.key_span.join(e.value.span),
        });
    let selector = read_selector(r, &p("spec.selector"));
    let attributes_class = r
        .string(&p("spec.volumeAttributesClassName"))
        .map(|s| s.value)
        .unwrap_or_default();
    // As the create path leaves them (pkg/api/persistentvolumeclaim): a dataSourceRef of
    // another namespace is dropped (its gate is alpha), and without a dataSourceRef a
    // dataSource other than a claim or a VolumeSnapshot is dropped (validation::storage says
    // so to the user).
    let data_source = ["spec.dataSourceRef", "spec.dataSource"]
        .iter()
        .find_map(|at| {
            let base = p(at);
            if r.string(&format!("{base}.namespace"))
                .is_some_and(|ns| !ns.value.is_empty())
            {
                return None;
            }
            let name = r.string(&format!("{base}.name"))?;
            let kind = r.string(&format!("{base}.kind"))?;
            let api_group = r
                .string(&format!("{base}.apiGroup"))
                .map(|g| g.value)
                .unwrap_or_default();
            let kept = *at == "spec.dataSourceRef" || kept_in_data_source(&api_group, &kind.value);
            if !kept {
                return None;
            }
            Some(Box::new(DataSource {
                kind: kind.value,
                name: name.value,
                api_group,
                field: obj.key_field(&base),
            }))
        });
    let meta = read_meta(r, prefix);
    let owners = if template_of.is_none() {
        read_owners(obj, prefix)
    } else {
        Box::default()
    };
    Pvc {
        obj: id,
        name,
        namespace: obj.namespace.clone().unwrap_or_else(|| "default".into()),
        prefix: Str::from(prefix),
        template_of: template_of.map(Str::from),
        class,
        request,
        access_modes,
        access_modes_field,
        volume_mode,
        volume_mode_field,
        volume_name,
        bind_completed,
        selector,
        attributes_class,
        selected_node: ann.and_then(|a| a.get(kube::ANN_SELECTED_NODE)).is_some(),
        data_source,
        meta,
        owners,
        spec_span: {
            let spec = obj.key_field(&p("spec"));
            (!spec.path.is_empty()).then_some(spec.span)
        },
    }
}

pub(crate) fn read_storage_class(obj: &Object, id: ObjId, r: &mut Reader<'_>) -> StorageClass {
    let provisioner = r.string("provisioner");
    let reclaim = reclaim(r, "reclaimPolicy");
    let mode = r.string("volumeBindingMode");
    if let Some(m) = &mode {
        if m.value != "Immediate" && m.value != "WaitForFirstConsumer" {
            r.invalid(
                m.field.clone(),
                Severity::Error,
                format!("volumeBindingMode: Unsupported value: \"{}\": supported values: \"Immediate\", \"WaitForFirstConsumer\"; the API server rejects this object", m.value),
                "use Immediate (the default) or WaitForFirstConsumer".into(),
            );
        }
    }
    let mut is_default = None;
    for key in [kube::ANN_DEFAULT_CLASS, kube::ANN_BETA_DEFAULT_CLASS] {
        if let Some(f) = obj.annotation_field(key) {
            let value = obj.annotation(key).expect("entry exists");
            if r.placeholder(value, &format!("metadata.annotations.{key}")) {
                continue;
            }
            // A null value is the empty string to the API server.
            let null = obj.annotation(key).is_some_and(crate::node::Node::is_null);
            match obj.annotation_str(key).or(null.then_some("")) {
                Some("true") => is_default = Some(f),
                Some("false") => {}
                Some(other) => r.invalid(
                    f,
                    Severity::Warning,
                    format!("{key} is \"{other}\", not \"true\": Kubernetes only treats the exact string \"true\" as default, so this StorageClass is NOT the default class"),
                    format!("write {key}: \"true\""),
                ),
                None => {
                    let n = obj.annotation(key).expect("entry exists");
                    r.invalid(
                        f,
                        Severity::Error,
                        format!("metadata.annotations.{key} must be a string, found {}: the API server rejects this object (annotation values are strings)", n.type_name()),
                        format!("quote the value: {key}: \"true\""),
                    );
                }
            }
        }
    }
    StorageClass {
        obj: id,
        name: obj.name.clone(),
        provisioner,
        reclaim,
        wait_for_first_consumer: mode.is_some_and(|m| m.value == "WaitForFirstConsumer"),
        is_default,
        created: r.string("metadata.creationTimestamp").map(|s| s.value),
        delete_params: crate::drivers::DeleteParams::read(obj.root().get("parameters")),
    }
}

pub(crate) fn read_csi_driver(obj: &Object, id: ObjId, r: &mut Reader<'_>) -> CsiDriver {
    let _ = id;
    CsiDriver {
        name: obj.name.clone(),
        attach_required: r.bool("spec.attachRequired").is_none_or(|b| b.value),
    }
}

/// Whether `spec.dataSource` keeps a source of this group and kind when no dataSourceRef is
/// set: only a PersistentVolumeClaim or a snapshot.storage.k8s.io VolumeSnapshot; any other is
/// dropped on create (pkg/api/persistentvolumeclaim `EnforceDataSourceBackwardsCompatibility`,
/// `dataSourceIsPvcOrSnapshot`).
pub fn kept_in_data_source(api_group: &str, kind: &str) -> bool {
    (api_group.is_empty() && kind == "PersistentVolumeClaim")
        || (api_group == "snapshot.storage.k8s.io" && kind == "VolumeSnapshot")
}
