//! Parsed documents → Kubernetes objects → typed, span-carrying views.
//!
//! Loading never fails: anything ill-typed becomes a [`Diag`] (reported by the
//! `parse-error` and `invalid-field-value` rules) and the field is treated as absent.

mod kinds;
pub mod live;
mod meta;
mod placement;
mod reader;
mod storage;
pub(crate) mod update;
pub(crate) mod validation;
mod workload;

pub use kinds::{
    group_of, known_kind, reaches_api_server, KindClass, BUILTIN_GROUPS, BUILTIN_KINDS,
};
pub use meta::OwnerRef;
pub use placement::Placement;
pub(crate) use reader::parse_int;
pub use reader::{join, Reader};
pub use storage::*;
pub use workload::*;

use crate::finding::{ObjectRef, Severity, Suggestion};
use crate::node::{Node, Value};
use crate::source::{SourceId, Span};
use crate::string::Str;

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
    /// A kustomization in the input patches this object's source: its pod template as written
    /// (volumes, mounts, images) is not necessarily what reaches the API server.
    pub patched_by_kustomize: bool,
    /// A patch of a kustomization of its apply set names it (a strategic-merge patch of its
    /// kind and name, or a patch's `target:`): what reaches the API server is the patched
    /// object, which pvlint does not render, so it is left out as a template is.
    pub patch_named: bool,
    /// Where a kustomization's `replacements` overwrite this object's fields: the values
    /// written there are placeholders (see [`crate::kustomize::Kustomizations::replacement_targets`]).
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
            patched_by_kustomize: false,
            patch_named: false,
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
