//! The span-carrying document tree every later stage reads.
//!
//! Scalars keep their source text and style; their type is resolved the way
//! Kubernetes' YAML decoder (sigs.k8s.io/yaml, YAML 1.1 rules) resolves it, so
//! `yes` is a boolean and `"yes"` is a string, exactly as `kubectl apply` sees them.
//!
//! The tree is built to be small: sequences and maps are boxed slices of their final length,
//! and keys and scalar texts are [`Str`]s (16 bytes), which keep strings of up to 14 bytes
//! inline and borrow Kubernetes' longer field names from a table ([`WELL_KNOWN`]) instead of
//! allocating them one by one.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;

use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    /// Boxed slices rather than `Vec`s: the tree is never edited, and without the capacity a
    /// node is 40 bytes instead of 48.
    Seq(Box<[Node]>),
    Map(Box<[Entry]>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Str,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: Str,
    /// Plain (unquoted, untagged) scalars are typed by their text; all others are strings
    /// unless a core-schema tag says otherwise.
    pub kind: ScalarKind,
}

/// The JSON type a scalar becomes when Kubernetes converts YAML to JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    Null,
    Bool(bool),
    Int,
    Float,
    Str,
}

impl ScalarKind {
    pub fn type_name(self) -> &'static str {
        match self {
            ScalarKind::Null => "null",
            ScalarKind::Bool(_) => "boolean",
            ScalarKind::Int => "integer",
            ScalarKind::Float => "number",
            ScalarKind::Str => "string",
        }
    }
}

/// An immutable string: a key or a scalar's text of the tree, and the names, messages and
/// paths of the simulation, the views and the findings. It reads like a `&str` (`Deref`, `==`
/// with `&str`/`str`/`String`, `Display`) and serializes as a JSON string. It takes 16 bytes:
/// strings of up to 14 bytes (most names and keys of a manifest) live inside it, the longer
/// field names and values Kubernetes defines ([`WELL_KNOWN`]) are borrowed from the binary,
/// other longer ones live in one exact-size heap allocation, and compile-time texts (rule ids,
/// finalizers) are borrowed ([`Str::from_static`]). `to_string()` gives a `String`. Before it
/// replaced `String` in the simulation and the findings, their small strings were 0.38 M of
/// the 1.36 M heap blocks live at a lint's peak; at 24 bytes it was a third of the
/// simulation's and the views' bytes (benches/PROFILE.md).
pub struct Str(Repr);

const INLINE: usize = 14;

/// The parts of a `&[u8]` (a `Box<[u8]>`, an `Arc<[u8]>` or a `&'static str`) in 12 bytes, so
/// that a [`Str`] is 16: a `u32` length beside the tag, the pointer after it.
enum Repr {
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    /// Owns the `Box<[u8]>` `ptr[..len]`.
    Heap {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// Borrows the `&'static str` `ptr[..len]`.
    Static {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// One text many objects carry (an event every provisioned claim gets): cloned by count.
    /// Holds one strong count of the `Arc<[u8]>` `ptr[..len]`.
    Shared {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// A string of 4 GiB or more (never seen in a manifest; kept whole all the same).
    Big(Box<Box<str>>),
}

const _: () = assert!(std::mem::size_of::<Str>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Node>() == 40 && std::mem::size_of::<Entry>() == 72);
const _: () = assert!(std::mem::size_of::<Option<Str>>() == 16);

// SAFETY: a `Str` owns its `Heap` allocation alone, shares its `Shared` one only through the
// atomic counts of `Arc`, and never writes through any of its pointers: it is as `Send` and
// `Sync` as the `Box<str>`, `Arc<str>` and `&'static str` it stands for.
unsafe impl Send for Str {}
unsafe impl Sync for Str {}

/// Longer texts that manifests repeat thousands of times: Kubernetes' own field names, kinds,
/// annotations, provisioners and values, and the field paths pvlint's views record.
/// [`Str::new`] borrows them instead of allocating a copy. Sorted (a test checks).
pub const WELL_KNOWN: &[&str] = &[
    "/dev/termination-log",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "ExternalProvisioning",
    "FallbackToLogsOnError",
    "HorizontalPodAutoscaler",
    "MutatingWebhookConfiguration",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "PodDisruptionBudget",
    "ProvisioningFailed",
    "ProvisioningSucceeded",
    "ReadWriteOncePod",
    "ValidatingWebhookConfiguration",
    "VolumeAttributesClass",
    "VolumeSnapshotClass",
    "VolumeSnapshotContent",
    "WaitForFirstConsumer",
    "[ReadWriteOnce]",
    "additionalPrinterColumns",
    "additionalProperties",
    "admissionregistration.k8s.io/v1",
    "allowPrivilegeEscalation",
    "allowVolumeExpansion",
    "allowedTopologies",
    "apiextensions.k8s.io/v1",
    "app.kubernetes.io/component",
    "app.kubernetes.io/instance",
    "app.kubernetes.io/managed-by",
    "app.kubernetes.io/name",
    "app.kubernetes.io/part-of",
    "app.kubernetes.io/version",
    "automountServiceAccountToken",
    "cinder.csi.openstack.org",
    "controller-gen.kubebuilder.io/version",
    "creationTimestamp",
    "csi.vsphere.vmware.com",
    "default-scheduler",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "disk.csi.azure.com",
    "driver.longhorn.io",
    "ebs.csi.aws.com",
    "efs.csi.aws.com",
    "external-provisioner.volume.kubernetes.io/finalizer",
    "failureThreshold",
    "file.csi.azure.com",
    "filestore.csi.storage.gke.io",
    "hostpath.csi.k8s.io",
    "imagePullPolicy",
    "imagePullSecrets",
    "initialDelaySeconds",
    "k8s.io/minikube-hostpath",
    "kubectl.kubernetes.io/last-applied-configuration",
    "kubernetes.io/aws-ebs",
    "kubernetes.io/azure-disk",
    "kubernetes.io/azure-file",
    "kubernetes.io/cinder",
    "kubernetes.io/gce-pd",
    "kubernetes.io/host-path",
    "kubernetes.io/hostname",
    "kubernetes.io/no-provisioner",
    "kubernetes.io/portworx-volume",
    "kubernetes.io/pv-controller",
    "kubernetes.io/pv-protection",
    "kubernetes.io/pvc-protection",
    "kubernetes.io/rbd",
    "kubernetes.io/vsphere-volume",
    "lastTransitionTime",
    "linstor.csi.linbit.com",
    "matchExpressions",
    "meta.helm.sh/release-name",
    "meta.helm.sh/release-namespace",
    "metadata.annotations",
    "metadata.creationTimestamp",
    "metadata.deletionTimestamp",
    "metadata.finalizers",
    "metadata.generation",
    "metadata.namespace",
    "metadata.resourceVersion",
    "networking.k8s.io/v1",
    "node.kubernetes.io/instance-type",
    "nodePublishSecretRef",
    "nodeSelectorTerms",
    "observedGeneration",
    "openAPIV3Schema",
    "ownerReferences",
    "pd.csi.storage.gke.io",
    "persistentVolumeClaim",
    "persistentVolumeClaimRetentionPolicy",
    "persistentVolumeReclaimPolicy",
    "podAntiAffinity",
    "podManagementPolicy",
    "preferredDuringSchedulingIgnoredDuringExecution",
    "priorityClassName",
    "pv.kubernetes.io/bind-completed",
    "pv.kubernetes.io/bound-by-controller",
    "pv.kubernetes.io/migrated-to",
    "pv.kubernetes.io/provisioned-by",
    "rancher.io/local-path",
    "rbac.authorization.k8s.io",
    "rbac.authorization.k8s.io/v1",
    "readOnlyRootFilesystem",
    "requiredDuringSchedulingIgnoredDuringExecution",
    "resourceVersion",
    "revisionHistoryLimit",
    "rook-ceph.cephfs.csi.ceph.com",
    "rook-ceph.rbd.csi.ceph.com",
    "securityContext",
    "serviceAccountName",
    "snapshot.storage.k8s.io/v1",
    "spec.accessModes",
    "spec.accessModes[0]",
    "spec.capacity.storage",
    "spec.claimRef.name",
    "spec.claimRef.namespace",
    "spec.claimRef.resourceVersion",
    "spec.claimRef.uid",
    "spec.csi.driver",
    "spec.csi.volumeHandle",
    "spec.dataSource",
    "spec.dataSourceRef",
    "spec.hostPath.path",
    "spec.mountOptions",
    "spec.nfs.server",
    "spec.nodeAffinity",
    "spec.persistentVolumeReclaimPolicy",
    "spec.podManagementPolicy",
    "spec.resources.requests.storage",
    "spec.selector.matchLabels",
    "spec.storageClassName",
    "spec.strategy.rollingUpdate.maxSurge",
    "spec.strategy.rollingUpdate.maxUnavailable",
    "spec.strategy.type",
    "spec.template.metadata.labels",
    "spec.template.spec.volumes[0].persistentVolumeClaim.claimName",
    "spec.template.spec.volumes[1].persistentVolumeClaim.claimName",
    "spec.updateStrategy.rollingUpdate.maxSurge",
    "spec.updateStrategy.rollingUpdate.maxUnavailable",
    "spec.updateStrategy.type",
    "spec.volumeAttributesClassName",
    "spec.volumeClaimTemplates[0].",
    "spec.volumeClaimTemplates[0].metadata.labels",
    "spec.volumeClaimTemplates[0].metadata.name",
    "spec.volumeClaimTemplates[0].spec",
    "spec.volumeClaimTemplates[0].spec.accessModes",
    "spec.volumeClaimTemplates[0].spec.accessModes[0]",
    "spec.volumeClaimTemplates[0].spec.resources.requests.storage",
    "spec.volumeClaimTemplates[0].spec.storageClassName",
    "spec.volumeClaimTemplates[0].spec.volumeMode",
    "spec.volumeMode",
    "spec.volumeName",
    "spec.volumes[0].persistentVolumeClaim.claimName",
    "storage.k8s.io/v1",
    "storage.kubernetes.io/csiProvisionerIdentity",
    "storageClassName",
    "storageclass.kubernetes.io/is-default-class",
    "successThreshold",
    "terminationGracePeriodSeconds",
    "terminationMessagePath",
    "terminationMessagePolicy",
    "topology.kubernetes.io/region",
    "topology.kubernetes.io/zone",
    "topologySpreadConstraints",
    "volume.beta.kubernetes.io/storage-class",
    "volume.beta.kubernetes.io/storage-provisioner",
    "volume.kubernetes.io/selected-node",
    "volume.kubernetes.io/storage-provisioner",
    "volumeAttributes",
    "volumeAttributesClassName",
    "volumeBindingMode",
    "volumeClaimTemplates",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-preserve-unknown-fields",
];

impl Str {
    pub fn new(s: &str) -> Str {
        Str::without_heap(s).unwrap_or_else(|| Str::boxed(s.as_bytes().into()))
    }

    /// `s` inline, or borrowed from [`WELL_KNOWN`]; None when it needs a heap block.
    fn without_heap(s: &str) -> Option<Str> {
        if s.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            Some(Str(Repr::Inline {
                len: s.len() as u8,
                buf,
            }))
        } else {
            let i = WELL_KNOWN.binary_search(&s).ok()?;
            Some(Str::from_static(WELL_KNOWN[i]))
        }
    }

    /// Takes ownership of the UTF-8 bytes of a `Box<str>`.
    fn boxed(b: Box<[u8]>) -> Str {
        match u32::try_from(b.len()) {
            Ok(len) => {
                let ptr = Box::into_raw(b) as *mut u8;
                // SAFETY: `Box::into_raw` never returns null.
                let ptr = unsafe { NonNull::new_unchecked(ptr) };
                Str(Repr::Heap { len, ptr })
            }
            // SAFETY: the bytes come from a `str`.
            Err(_) => Str(Repr::Big(Box::new(unsafe {
                std::str::from_boxed_utf8_unchecked(b)
            }))),
        }
    }

    /// A string known at compile time: no copy, no allocation.
    pub const fn from_static(s: &'static str) -> Str {
        // 4 GiB of text in the binary: not a thing a program can hold.
        assert!(s.len() <= u32::MAX as usize);
        // SAFETY: a reference is never null.
        let ptr = unsafe { NonNull::new_unchecked(s.as_ptr() as *mut u8) };
        Str(Repr::Static {
            len: s.len() as u32,
            ptr,
        })
    }

    /// Appends `s` (copies the string: for the rare edits of a finished text).
    pub fn push_str(&mut self, s: &str) {
        let mut t = String::from(std::mem::take(self));
        t.push_str(s);
        *self = Str::from(t);
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `buf[..len]` is only ever written from a whole `&str` (in `Str::new`), so
            // it is valid UTF-8 and `len` is on a character boundary.
            Repr::Inline { len, buf } => unsafe {
                std::str::from_utf8_unchecked(&buf[..*len as usize])
            },
            // SAFETY: `ptr[..len]` is the whole of a `str` (a `Box`, an `Arc` or a `'static`
            // one) that lives as long as `self` does.
            Repr::Heap { len, ptr } | Repr::Static { len, ptr } | Repr::Shared { len, ptr } => unsafe {
                std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                    ptr.as_ptr(),
                    *len as usize,
                ))
            },
            Repr::Big(b) => b,
        }
    }

    /// It holds a heap copy of its own (cloning it copies it). Not for strings of 4 GiB or
    /// more, which are never shared.
    pub(crate) fn is_heap(&self) -> bool {
        matches!(self.0, Repr::Heap { .. })
    }

    /// The same string, with clones that share one allocation instead of copying it.
    pub fn shared(self) -> Str {
        match self.0 {
            Repr::Heap { .. } => {
                let arc: std::sync::Arc<[u8]> = self.as_str().as_bytes().into();
                let len = arc.len() as u32;
                let ptr = std::sync::Arc::into_raw(arc) as *const u8 as *mut u8;
                // SAFETY: `Arc::into_raw` never returns null.
                let ptr = unsafe { NonNull::new_unchecked(ptr) };
                Str(Repr::Shared { len, ptr })
            }
            _ => self,
        }
    }
}

impl Clone for Str {
    fn clone(&self) -> Str {
        match &self.0 {
            Repr::Inline { len, buf } => Str(Repr::Inline {
                len: *len,
                buf: *buf,
            }),
            Repr::Heap { .. } => Str::boxed(self.as_str().as_bytes().into()),
            Repr::Static { len, ptr } => Str(Repr::Static {
                len: *len,
                ptr: *ptr,
            }),
            Repr::Shared { len, ptr } => {
                // SAFETY: `self` holds a strong count of this `Arc<[u8]>`, so it is alive.
                unsafe {
                    std::sync::Arc::increment_strong_count(std::ptr::slice_from_raw_parts(
                        ptr.as_ptr() as *const u8,
                        *len as usize,
                    ))
                };
                Str(Repr::Shared {
                    len: *len,
                    ptr: *ptr,
                })
            }
            Repr::Big(b) => Str(Repr::Big(b.clone())),
        }
    }
}

impl Drop for Str {
    fn drop(&mut self) {
        match self.0 {
            // SAFETY: `ptr[..len]` came from `Box::into_raw` (in `Str::boxed`) and is owned by
            // `self` alone.
            Repr::Heap { len, ptr } => drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    ptr.as_ptr(),
                    len as usize,
                ))
            }),
            // SAFETY: `ptr[..len]` came from `Arc::into_raw` (in `Str::shared`), and `self`
            // holds one strong count of it.
            Repr::Shared { len, ptr } => drop(unsafe {
                std::sync::Arc::from_raw(std::ptr::slice_from_raw_parts(
                    ptr.as_ptr() as *const u8,
                    len as usize,
                ))
            }),
            Repr::Inline { .. } | Repr::Static { .. } | Repr::Big(_) => {}
        }
    }
}

/// A text for a [`Str`]: a literal is borrowed ([`Str::from_static`]), a built `String` moved in.
/// Rules' builder methods take it, so the fixed help and suggestion texts of thousands of
/// findings cost no allocation.
pub trait IntoStr {
    fn into_str(self) -> Str;
}

impl IntoStr for &'static str {
    fn into_str(self) -> Str {
        Str::from_static(self)
    }
}

impl IntoStr for String {
    fn into_str(self) -> Str {
        Str::from(self)
    }
}

impl IntoStr for Str {
    fn into_str(self) -> Str {
        self
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::new("")
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::without_heap(&s).unwrap_or_else(|| Str::boxed(s.into_boxed_str().into_boxed_bytes()))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::new(s)
    }
}

impl From<&Str> for Str {
    fn from(s: &Str) -> Str {
        s.clone()
    }
}

impl serde::Serialize for Str {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Str {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        String::deserialize(d).map(Str::from)
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        match s.0 {
            Repr::Heap { len, ptr } => {
                std::mem::forget(s);
                // SAFETY: `ptr[..len]` is the UTF-8 `Box<[u8]>` `s` owned (see `Str::boxed`);
                // `s` is forgotten, so it is not freed twice.
                unsafe {
                    let b = Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                        ptr.as_ptr(),
                        len as usize,
                    ));
                    String::from_utf8_unchecked(b.into_vec())
                }
            }
            _ => s.as_str().to_string(),
        }
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Str {}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        self == other.as_str()
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Node {
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The string value, only when the scalar really is a string for Kubernetes.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s) if s.kind == ScalarKind::Str => Some(&s.text),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(&self.value, Value::Scalar(s) if s.kind == ScalarKind::Null)
    }

    /// The map entry named `key`, if this is a map that has it.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        let key = key.as_bytes();
        self.as_map()?
            .iter()
            .find(|e| short_eq(e.key.as_bytes(), key))
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// Follows a dotted path of map keys with optional list indices
    /// (`spec.claimRef.uid`, `spec.volumeClaimTemplates[0].spec`).
    pub fn at(&self, path: &str) -> Option<&Node> {
        let mut n = self;
        let mut rest = path;
        loop {
            // One `.`-separated segment: a key, then `[i]` indices.
            let (seg, next) = match byte_pos(rest, b'.') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            let (key, mut idx) = match byte_pos(seg, b'[') {
                Some(i) => (&seg[..i], &seg[i..]),
                None => (seg, ""),
            };
            if !key.is_empty() {
                n = n.get(key)?;
            }
            while let Some(r) = idx.strip_prefix('[') {
                let end = byte_pos(r, b']')?;
                let i: usize = r[..end].parse().ok()?;
                n = n.as_seq()?.get(i)?;
                idx = &r[end + 1..];
            }
            match next {
                Some(r) => rest = r,
                None => return Some(n),
            }
        }
    }

    /// A JSON-ish description of the node's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Scalar(s) => s.kind.type_name(),
            Value::Seq(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// Counts this node and everything below it.
    pub fn size(&self) -> usize {
        1 + match &self.value {
            Value::Scalar(_) => 0,
            Value::Seq(s) => s.iter().map(Node::size).sum(),
            Value::Map(m) => m.iter().map(|e| 1 + e.value.size()).sum(),
        }
    }
}

/// Whether two trees hold the same content, whatever their positions, quoting or key order
/// (a manifest written as YAML and as JSON, say).
pub fn same_content(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Scalar(x), Value::Scalar(y)) => match (x.kind, y.kind) {
            (ScalarKind::Bool(p), ScalarKind::Bool(q)) => p == q,
            (ScalarKind::Null, ScalarKind::Null) => true,
            (p, q) => p == q && x.text == y.text,
        },
        (Value::Seq(x), Value::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_content(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|e| {
                    y.iter()
                        .find(|f| f.key == e.key)
                        .is_some_and(|f| same_content(&e.value, &f.value))
                })
        }
        _ => false,
    }
}

/// The first position of an ASCII byte in a short string (paths, keys: a plain loop beats
/// `str::find`'s set-up).
fn byte_pos(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|c| c == b)
}

/// Equality for short byte strings (keys), without a `memcmp` call.
fn short_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_with_indices() {
        let (docs, _) = crate::yaml::parse_stream("a:\n  - b: {c: 1}\n  - b: {c: [p, q]}\n");
        let r = docs[0].root.as_ref().unwrap();
        assert_eq!(r.at("a[1].b.c[1]").unwrap().as_str(), Some("q"));
        assert!(r.at("a[2].b").is_none());
        assert!(r.at("a[x]").is_none());
    }

    /// The forms of a `Str` (inline, heap, static, shared) are one string to every reader:
    /// equality, ordering, hashing (map lookups by `&str`), JSON, and appending across the
    /// inline limit.
    #[test]
    fn str_forms_are_one_string() {
        use std::collections::HashMap;
        let long = "pvc-0c5e7a86-5f3b-4c1e-9d3a-6f0f1b2e8a11";
        for text in [
            "",
            "ReadWriteOnce",
            "exactly-14-byte",
            "exactly-15-bytes",
            "storageClassName",
            "exactly-22-bytes-long!",
            "ünïcödé-välüé-of-twenty-nine",
            long,
        ] {
            let forms = [
                Str::new(text),
                Str::from(text.to_string()),
                Str::from_static(text),
                Str::from(text.to_string()).shared(),
            ];
            for f in &forms {
                assert_eq!(f.as_str(), text);
                assert_eq!(f, &forms[0]);
                assert_eq!(f.cmp(&forms[0]), std::cmp::Ordering::Equal);
                assert_eq!(
                    serde_json::to_string(f).unwrap(),
                    serde_json::to_string(text).unwrap()
                );
                let back: Str = serde_json::from_str(&serde_json::to_string(f).unwrap()).unwrap();
                assert_eq!(back, text);
                let map: HashMap<Str, u8> = [(f.clone(), 1)].into();
                assert_eq!(map.get(text), Some(&1));
                // Clones outlive the original, and a moved-out String is the same text.
                let clones = vec![f.clone(), f.clone().shared(), f.clone()];
                drop(f.clone());
                for c in clones {
                    assert_eq!(c, text);
                    assert_eq!(String::from(c), text);
                }
            }
        }
        let mut s = Str::new("external-provisioner"); // 20 bytes: on the heap
        s.push_str(".volume.kubernetes.io/finalizer");
        assert_eq!(s, "external-provisioner.volume.kubernetes.io/finalizer");
        let mut s = Str::from_static("a");
        s.push_str("b");
        assert_eq!(s, "ab");
    }

    /// `Str::new` finds the well-known texts by binary search: the table must be in byte
    /// order, and holds only texts too long to be inline.
    #[test]
    fn well_known_texts_are_sorted_and_borrowed() {
        assert!(
            WELL_KNOWN.windows(2).all(|w| w[0] < w[1]),
            "WELL_KNOWN out of order"
        );
        for &w in WELL_KNOWN {
            assert!(w.len() > INLINE, "{w} fits inline");
            assert!(matches!(Str::new(w).0, Repr::Static { .. }), "{w}");
            assert!(
                matches!(Str::from(w.to_string()).0, Repr::Static { .. }),
                "{w}"
            );
        }
        assert!(matches!(Str::new("storageClassNam").0, Repr::Heap { .. }));
        assert!(matches!(Str::new("storageClassN").0, Repr::Inline { .. }));
    }
}
