//! Parsed documents → Kubernetes objects → typed, span-carrying views.
//!
//! Loading never fails: anything ill-typed becomes a [`Diag`] (reported by the
//! `parse-error` and `invalid-field-value` rules) and the field is treated as absent.

pub mod live;
mod meta;
mod storage;
pub(crate) mod update;
pub(crate) mod validation;
mod workload;

pub use storage::*;
pub use workload::*;

use crate::finding::{ObjectRef, Severity, Suggestion};
use crate::node::Str;
use crate::node::{Node, ScalarKind, Value};
use crate::quantity::Quantity;
use crate::source::{SourceId, Span};

pub type ObjId = usize;

/// A field of an object: where it is and its dotted path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub path: Str,
    pub span: Span,
}

impl Field {
    pub fn with_path(mut self, path: &str) -> Field {
        self.path = Str::from(path);
        self
    }
}

/// A typed value together with the field it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub field: Field,
}

/// One Kubernetes object found in the input.
#[derive(Debug, Clone)]
pub struct Object {
    pub source: SourceId,
    pub document: usize,

    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    /// Effective namespace (`default` when a namespaced object has none); None when cluster-scoped.
    pub namespace: Option<Str>,
    /// The object as written. Read through [`Object::root`]: a linted index releases it
    /// before the simulation (see [`crate::index::Index::release_trees`]).
    tree: Node,
    /// The tree was released: only what was read into the views (and [`Object::whole`]) is left.
    released: bool,
    /// See [`Object::whole`]; kept apart from the tree, which may be released.
    whole: Span,
    /// Read from a Kustomize strategic-merge patch whose target is not in the input: taken for
    /// that object if it is complete, left out if the API server would reject it as written.
    pub from_patch: bool,
    /// A kustomization in the input writes labels into this object's selectors
    /// (`commonLabels`): its selector as written is not what reaches the API server.
    pub selector_from_kustomize: bool,
    /// Where a kustomization's `replacements` overwrite this object's fields: the values
    /// written there are placeholders (see [`crate::kustomize::replacement_targets`]).
    pub replaced: Option<Box<[Span]>>,
}

impl Object {
    pub fn new(
        source: SourceId,
        document: usize,
        api_version: Str,
        kind: Str,
        name: Str,
        namespace: Option<Str>,
        root: Node,
    ) -> Object {
        // The object as a whole: its `kind:` line.
        let whole = root
            .entry("kind")
            .map(|e| e.key_span.join(e.value.span))
            .unwrap_or(root.span);
        Object {
            source,
            document,
            api_version,
            kind,
            name,
            namespace,
            tree: root,
            released: false,
            whole,
            from_patch: false,
            selector_from_kustomize: false,
            replaced: None,
        }
    }

    /// The object as written. Not after [`Object::release_tree`]: the rules that read the
    /// trees run before it (see `lint::run_rules`).
    /// The tree, for an object that is taken back out of the index (a patch).
    pub(crate) fn into_root(self) -> Node {
        debug_assert!(!self.released, "the tree of {} was released", self.name);
        self.tree
    }

    pub fn root(&self) -> &Node {
        debug_assert!(
            !self.released,
            "{} {}: the YAML tree was read after it was released",
            self.kind, self.name
        );
        &self.tree
    }

    /// [`Object::release_tree`] was called.
    pub(crate) fn tree_released(&self) -> bool {
        self.released
    }

    /// Gives back the memory of the YAML tree: from now on only the views, the names and
    /// [`Object::whole`] are left.
    pub(crate) fn release_tree(&mut self) {
        self.tree = Node {
            value: Value::Map(Box::default()),
            span: self.tree.span,
        };
        self.released = true;
    }

    pub fn objref(&self) -> ObjectRef {
        ObjectRef {
            api_version: Str::from(&self.api_version),
            kind: Str::from(&self.kind),
            namespace: self.namespace.clone(),
            name: Str::from(&self.name),
        }
    }

    /// The field at a dotted path, if present.
    pub fn field(&self, path: &str) -> Option<Field> {
        self.root().at(path).map(|n| Field {
            path: Str::from(path),
            span: n.span,
        })
    }

    /// The span of the key of the entry at a dotted path (`spec.claimRef`) or, failing
    /// that, of the object itself.
    pub fn key_field(&self, path: &str) -> Field {
        let (parent, key) = match path.rsplit_once('.') {
            Some((p, k)) => (self.root().at(p), k),
            None => (Some(self.root()), path),
        };
        match parent.and_then(|p| p.entry(key)) {
            Some(e) => Field {
                path: Str::from(path),
                span: e.key_span.join(e.value.span),
            },
            None => self.whole(),
        }
    }

    /// The object as a whole: points at its `kind:` line.
    pub fn whole(&self) -> Field {
        Field {
            path: Str::default(),
            span: self.whole,
        }
    }

    pub fn annotation(&self, key: &str) -> Option<&Node> {
        self.root().at("metadata.annotations")?.get(key)
    }

    pub fn annotation_str(&self, key: &str) -> Option<&str> {
        self.annotation(key)?.as_str()
    }

    /// The entry for an annotation: its key and value spans.
    pub fn annotation_field(&self, key: &str) -> Option<Field> {
        let e = self.root().at("metadata.annotations")?.entry(key)?;
        Some(Field {
            path: Str::from(format!("metadata.annotations.{key}")),
            span: e.key_span.join(e.value.span),
        })
    }

    pub fn finalizers(&self) -> Vec<String> {
        self.root()
            .at("metadata.finalizers")
            .and_then(Node::as_seq)
            .map(|s| {
                s.iter()
                    .filter_map(|n| n.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A problem found while reading the input, before any rule ran.
#[derive(Debug, Clone)]
pub struct Diag {
    pub kind: DiagKind,
    pub severity: Severity,
    pub source: SourceId,
    pub document: usize,
    pub object: Option<ObjectRef>,
    /// The object the diagnostic is about, when it is one.
    pub obj: Option<ObjId>,
    pub field: Field,
    pub message: Str,
    pub help: Str,
    pub suggestion: Option<Suggestion>,
}

impl Diag {
    /// The API server rejects the object: it never exists in the cluster.
    pub fn rejects(&self) -> bool {
        self.kind == DiagKind::InvalidValue && self.severity == Severity::Error
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagKind {
    /// Reported by `parse-error`.
    Parse,
    /// Text kubectl reads and drops (a repeated key's first value, lines after `...`):
    /// reported by `ignored-content`.
    Ignored,
    /// Reported by `invalid-field-value`.
    InvalidValue,
    /// An unrendered template (reported once per source by `unrendered-template`).
    Template(crate::template::Kind),
    /// A kustomization in the input uses the file as a patch or generator input (reported by
    /// `unrendered-template`): it is never applied as written.
    KustomizeInput {
        kustomization: crate::source::SourceId,
        field: &'static str,
        at: crate::source::Span,
    },
}

impl DiagKind {
    /// The source is not what reaches the API server: objects it holds take no part.
    pub fn unrendered(self) -> bool {
        matches!(
            self,
            DiagKind::Template(_) | DiagKind::KustomizeInput { .. }
        )
    }
}

/// Reads typed fields of one object, recording type errors.
pub struct Reader<'a> {
    pub obj: &'a Object,
    pub id: ObjId,
    pub diags: &'a mut Vec<Diag>,
}

impl<'a> Reader<'a> {
    pub fn new(obj: &'a Object, id: ObjId, diags: &'a mut Vec<Diag>) -> Self {
        Reader { obj, id, diags }
    }

    /// A string field of a fixed set of values whose default the API server fills in when it
    /// is unset or "" (SetDefaults_*: `if len(x) == 0`), then validates (`field.NotSupported`).
    /// `choices[0]` is the default. Returns the value and the field that wrote it (None when
    /// defaulted, or invalid: the object is rejected).
    pub fn defaulted_enum<T: Copy>(
        &mut self,
        path: &str,
        choices: &[(&str, T)],
        help: &str,
    ) -> (T, Option<Field>) {
        let default = choices[0].1;
        let Some(v) = self.string(path).filter(|v| !v.value.is_empty()) else {
            return (default, None);
        };
        if let Some((_, t)) = choices.iter().find(|(name, _)| *name == v.value.as_str()) {
            return (*t, Some(v.field));
        }
        let supported = choices
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect::<Vec<_>>()
            .join(", ");
        self.invalid(
            v.field,
            Severity::Error,
            format!(
                "{path}: Unsupported value: \"{}\": supported values: {supported}; the API server rejects this object",
                v.value
            ),
            help.to_string(),
        );
        (default, None)
    }

    pub fn invalid(&mut self, field: Field, severity: Severity, message: String, help: String) {
        self.diags.push(Diag {
            kind: DiagKind::InvalidValue,
            severity,
            source: self.obj.source,
            document: self.obj.document,
            object: Some(self.obj.objref()),
            obj: Some(self.id),
            field,
            message: Str::from(message),
            help: Str::from(help),
            suggestion: None,
        });
    }

    fn wrong_type(&mut self, node: &Node, path: &str, expected: &str) {
        // A word where a number belongs (`replicas: REPLICAS`): a placeholder, not a mistake.
        if (expected.starts_with("an integer") || expected.starts_with("a quantity"))
            && plain_placeholder(node)
        {
            self.record_placeholder(node, path, crate::template::Kind::Word);
            return;
        }
        let found = match &node.value {
            Value::Scalar(s) => format!("{} {}", node.type_name(), quote(&s.text)),
            _ => format!("a {}", node.type_name()),
        };
        let hint = match &node.value {
            Value::Scalar(s) if expected == "a string" && s.kind != ScalarKind::Str => {
                format!(
                    " (YAML reads it as {}; quote it: \"{}\")",
                    node.type_name(),
                    s.text
                )
            }
            Value::Scalar(s) if expected.contains("integer") && s.kind == ScalarKind::Str => {
                " (quoted numbers are strings in YAML; write the number without quotes)".to_string()
            }
            _ => String::new(),
        };
        self.invalid(
            Field {
                path: Str::from(path),
                span: node.span,
            },
            Severity::Error,
            format!(
                "{path} must be {expected}, found {found}{hint}: the API server rejects this object (kubectl apply fails with \"cannot unmarshal\")"
            ),
            format!("write {path} as {expected}"),
        );
    }

    /// A node at a path; a `null` value counts as absent (as in Kubernetes' JSON decoding),
    /// and so does an unrendered template placeholder (recorded, not judged).
    pub fn node(&mut self, path: &str) -> Option<&'a Node> {
        let n = self.obj.root().at(path)?;
        if self.placeholder(n, path) {
            return None;
        }
        (!n.is_null()).then_some(n)
    }

    /// Records a scalar that is an unrendered template placeholder, or a field a
    /// kustomization's `replacements` overwrite.
    fn placeholder(&mut self, n: &Node, path: &str) -> bool {
        let replaced = self
            .obj
            .replaced
            .as_deref()
            .is_some_and(|spans| spans.contains(&n.span));
        let Some(kind) = n
            .as_scalar()
            .and_then(|s| crate::template::in_value(&s.text))
            .or(replaced.then_some(crate::template::Kind::Replacement))
        else {
            return false;
        };
        self.record_placeholder(n, path, kind);
        true
    }

    fn record_placeholder(&mut self, n: &Node, path: &str, kind: crate::template::Kind) {
        self.diags.push(Diag {
            kind: DiagKind::Template(kind),
            severity: Severity::Info,
            source: self.obj.source,
            document: self.obj.document,
            object: Some(self.obj.objref()),
            obj: Some(self.id),
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
            message: Str::default(),
            help: Str::default(),
            suggestion: None,
        });
    }

    /// Records a template placeholder written in a key (`${COMMENT}namespace:`): keys are
    /// never shell text, so one there makes the document a template.
    pub fn placeholders_in_keys(&mut self) {
        fn find(n: &Node, path: &str) -> Option<(crate::template::Kind, Span, String)> {
            match &n.value {
                Value::Map(entries) => entries.iter().find_map(|e| {
                    let p = join(path, &e.key);
                    crate::template::in_value(&e.key)
                        .map(|k| (k, e.key_span, p.clone()))
                        .or_else(|| find(&e.value, &p))
                }),
                Value::Seq(items) => items
                    .iter()
                    .enumerate()
                    .find_map(|(i, it)| find(it, &format!("{path}[{i}]"))),
                Value::Scalar(_) => None,
            }
        }
        if let Some((kind, span, path)) = find(self.obj.root(), "") {
            let at = Node {
                value: Value::Scalar(crate::node::Scalar {
                    text: Str::default(),
                    kind: ScalarKind::Str,
                }),
                span,
            };
            self.record_placeholder(&at, &path, kind);
        }
    }

    /// Records the template placeholders (`$UID`, `${PORT}`, `{{ .Values.port }}`) that stand
    /// where every built-in type wants an integer (`runAsUser: $ID`): such an object cannot be
    /// decoded as written ("cannot unmarshal string into Go struct field ... of type int64"),
    /// so it is a template a script fills in, whatever fields pvlint itself reads.
    pub fn placeholders_in_integers(&mut self) {
        if !BUILTIN_GROUPS.contains(&group_of(&self.obj.api_version)) {
            return; // a custom resource's schema is not known
        }
        let mut found = Vec::new();
        walk_integers(self.obj.root(), "", &mut found);
        for (n, path) in found {
            self.placeholder(n, &path);
        }
    }

    pub fn string_in(&mut self, base: &Node, base_path: &str, key: &str) -> Option<Spanned<Str>> {
        let n = base.get(key)?;
        let path = join(base_path, key);
        string_of(self, n, &path)
    }

    pub fn string(&mut self, path: &str) -> Option<Spanned<Str>> {
        let n = self.node(path)?;
        string_of(self, n, path)
    }

    pub fn int(&mut self, path: &str) -> Option<Spanned<i64>> {
        let n = self.node(path)?;
        let field = Field {
            path: Str::from(path),
            span: n.span,
        };
        match n.as_scalar() {
            Some(s) if s.kind == ScalarKind::Int => match parse_int(&s.text) {
                Some(v) => Some(Spanned { value: v, field }),
                None => {
                    self.wrong_type(n, path, "an integer (it is out of range)");
                    None
                }
            },
            _ => {
                self.wrong_type(n, path, "an integer");
                None
            }
        }
    }

    pub fn bool(&mut self, path: &str) -> Option<Spanned<bool>> {
        let n = self.node(path)?;
        match n.as_scalar().map(|s| s.kind) {
            Some(ScalarKind::Bool(b)) => Some(Spanned {
                value: b,
                field: Field {
                    path: Str::from(path),
                    span: n.span,
                },
            }),
            _ => {
                self.wrong_type(n, path, "a boolean (true or false)");
                None
            }
        }
    }

    pub fn quantity(&mut self, path: &str) -> Option<Spanned<Quantity>> {
        let n = self.node(path)?;
        let field = Field {
            path: Str::from(path),
            span: n.span,
        };
        let text = match n.as_scalar() {
            Some(s)
                if matches!(
                    s.kind,
                    ScalarKind::Str | ScalarKind::Int | ScalarKind::Float
                ) =>
            {
                s.text.clone()
            }
            _ => {
                self.wrong_type(n, path, "a quantity such as 10Gi");
                return None;
            }
        };
        match Quantity::parse(&text) {
            Ok(q) => Some(Spanned { value: q, field }),
            // A word where a size belongs: a placeholder (recorded, not judged).
            Err(_) if plain_placeholder(n) => {
                self.record_placeholder(n, path, crate::template::Kind::Word);
                None
            }
            Err(e) => {
                self.invalid(
                    field,
                    Severity::Error,
                    format!("{path}: {e}: the API server rejects this object"),
                    "write the size with a Kubernetes suffix: Ki, Mi, Gi, Ti (powers of 1024) or k, M, G, T (powers of 1000)".into(),
                );
                None
            }
        }
    }

    /// A list of strings; wrong-typed entries are reported and skipped.
    pub fn strings(&mut self, path: &str) -> Option<Spanned<Vec<Spanned<Str>>>> {
        let n = self.node(path)?;
        let Some(items) = n.as_seq() else {
            self.wrong_type(n, path, "a list");
            return None;
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = format!("{path}[{i}]");
            if let Some(s) = string_of(self, item, &p) {
                out.push(s);
            }
        }
        Some(Spanned {
            value: out,
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
        })
    }

    /// A map (or absent); anything else is reported.
    pub fn map(&mut self, path: &str) -> Option<&'a Node> {
        let n = self.node(path)?;
        if n.as_map().is_some() {
            Some(n)
        } else {
            self.wrong_type(n, path, "a map");
            None
        }
    }

    /// A list (or absent); anything else is reported.
    pub fn seq(&mut self, path: &str) -> Option<&'a [Node]> {
        let n = self.node(path)?;
        match n.as_seq() {
            Some(s) => Some(s),
            None => {
                self.wrong_type(n, path, "a list");
                None
            }
        }
    }
}

fn string_of(r: &mut Reader<'_>, n: &Node, path: &str) -> Option<Spanned<Str>> {
    if n.is_null() || r.placeholder(n, path) {
        return None;
    }
    match n.as_str() {
        Some(s) => Some(Spanned {
            value: Str::from(s),
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
        }),
        None => {
            r.wrong_type(n, path, "a string");
            None
        }
    }
}

/// Fields that are integers in every built-in type that has them (not `port`, an IntOrString
/// in probes, nor `targetPort`).
const INTEGER_FIELDS: &[&str] = &[
    "activeDeadlineSeconds",
    "backoffLimit",
    "completions",
    "containerPort",
    "defaultMode",
    "failureThreshold",
    "fsGroup",
    "hostPort",
    "initialDelaySeconds",
    "minReadySeconds",
    "nodePort",
    "parallelism",
    "periodSeconds",
    "progressDeadlineSeconds",
    "replicas",
    "revisionHistoryLimit",
    "runAsGroup",
    "runAsUser",
    "successThreshold",
    "terminationGracePeriodSeconds",
    "timeoutSeconds",
];

fn walk_integers<'a>(node: &'a Node, path: &str, found: &mut Vec<(&'a Node, String)>) {
    match &node.value {
        Value::Map(entries) => {
            for e in entries.iter() {
                let (key, v) = (e.key.as_str(), &e.value);
                let p = join(path, key);
                match &v.value {
                    Value::Scalar(s)
                        if s.kind == ScalarKind::Str
                            && INTEGER_FIELDS.contains(&key)
                            && crate::template::in_value(&s.text).is_some() =>
                    {
                        found.push((v, p));
                    }
                    _ => walk_integers(v, &p, found),
                }
            }
        }
        Value::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                walk_integers(v, &format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}

pub fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

fn quote(s: &str) -> String {
    format!("{s:?}")
}

/// A plain (unquoted) scalar that is a placeholder word (see
/// [`crate::template::placeholder_word`]).
fn plain_placeholder(node: &Node) -> bool {
    node.as_scalar().is_some_and(|s| {
        s.kind == ScalarKind::Str
            && node.span.start.column < node.span.end.column
            && crate::template::placeholder_word(&s.text)
            && node.span.end.column - node.span.start.column == s.text.chars().count() as u32
    })
}

/// The value of an integer scalar (YAML 1.1 as kubectl reads it: `0644` is octal), when it
/// fits an i64.
pub(crate) fn parse_int(t: &str) -> Option<i64> {
    crate::scalar::int_value(t).and_then(|v| i64::try_from(v).ok())
}

/// The kinds the built-in API groups serve (current and removed versions alike).
pub const BUILTIN_KINDS: &[&str] = &[
    "APIService",
    "Binding",
    "CSIDriver",
    "CSINode",
    "CSIStorageCapacity",
    "CertificateSigningRequest",
    "ClusterRole",
    "ClusterRoleBinding",
    "ComponentStatus",
    "ConfigMap",
    "ControllerRevision",
    "CronJob",
    "CustomResourceDefinition",
    "DaemonSet",
    "Deployment",
    "EndpointSlice",
    "Endpoints",
    "Event",
    "FlowSchema",
    "HorizontalPodAutoscaler",
    "Ingress",
    "IngressClass",
    "Job",
    "Lease",
    "LimitRange",
    "List",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "NetworkPolicy",
    "Node",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Pod",
    "PodDisruptionBudget",
    "PodSecurityPolicy",
    "PodTemplate",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "ReplicaSet",
    "ReplicationController",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ResourceQuota",
    "ResourceSlice",
    "Role",
    "RoleBinding",
    "RuntimeClass",
    "Secret",
    "Service",
    "ServiceAccount",
    "StatefulSet",
    "StorageClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// The API groups Kubernetes itself serves (no CustomResourceDefinition needed).
pub const BUILTIN_GROUPS: &[&str] = &[
    "",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "extensions",
    "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
];

/// The API group of an apiVersion (`apps/v1` → `apps`, `v1` → the core group "").
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Whether an object of this apiVersion and kind is ever sent to an API server. Tool
/// configuration shaped like an object is not, and gets no metadata findings: Kustomizations,
/// kind's Cluster, component configs in `*.config.k8s.io`, kpt/kustomize function configs,
/// kube-apiserver's audit policy (`audit.k8s.io`), kubeconfig files (`v1` `Config`), and any
/// group with no dot in it that Kubernetes does not serve (an API group of a
/// CustomResourceDefinition is a DNS subdomain with a dot; `skaffold/v4beta6` is not one).
pub fn reaches_api_server(api_version: &str, kind: &str) -> bool {
    let group = group_of(api_version);
    let tool = group.ends_with("config.k8s.io")
        || matches!(
            group,
            "config.kubernetes.io"
                | "kind.x-k8s.io"
                | "kubeadm.k8s.io"
                | "kpt.dev"
                | "k3d.io"
                | "audit.k8s.io"
        )
        || (api_version == "v1" && kind == "Config")
        || (!group.contains('.') && !BUILTIN_GROUPS.contains(&group));
    !tool
}

/// Object kinds pvlint indexes, with the API groups they live in.
pub fn known_kind(api_version: &str, kind: &str) -> Option<(KindClass, bool)> {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    use KindClass::*;
    let (class, namespaced, groups): (KindClass, bool, &[&str]) = match kind {
        "PersistentVolume" => (PersistentVolume, false, &[""]),
        "PersistentVolumeClaim" => (PersistentVolumeClaim, true, &[""]),
        "StorageClass" => (StorageClass, false, &["storage.k8s.io"]),
        "CSIDriver" => (CsiDriver, false, &["storage.k8s.io"]),
        "Deployment" => (Workload, true, &["apps", "extensions"]),
        "StatefulSet" | "DaemonSet" | "ReplicaSet" => (Workload, true, &["apps", "extensions"]),
        "Job" | "CronJob" => (Workload, true, &["batch"]),
        "Pod" => (Workload, true, &[""]),
        "Namespace"
        | "Node"
        | "ClusterRole"
        | "ClusterRoleBinding"
        | "CustomResourceDefinition"
        | "PriorityClass"
        | "VolumeAttachment"
        | "StorageVersionMigration"
        | "APIService"
        | "MutatingWebhookConfiguration"
        | "ValidatingWebhookConfiguration" => (Other, false, &[]),
        _ => (Other, true, &[]),
    };
    if class != Other && !groups.contains(&group) {
        return Some((Other, namespaced));
    }
    Some((class, namespaced))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindClass {
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    CsiDriver,
    Workload,
    Other,
}
