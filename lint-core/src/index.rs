//! The object index: every object of every source, typed views of the storage-related
//! ones, and lookups by name.

use std::collections::HashMap;

use crate::finding::{Severity, Suggestion};
use crate::model::{
    self, known_kind, CsiDriver, Diag, DiagKind, Field, KindClass, ObjId, Object, Pv, Pvc, Reader,
    StorageClass, Workload, WorkloadKind,
};
use crate::node::{Node, Str, Value};
use crate::source::{Source, SourceId, Span};
use crate::yaml::{self, IssueKind};

#[derive(Debug, Default)]
pub struct Index {
    pub objects: Vec<Object>,
    pub pvs: Vec<Pv>,
    /// PersistentVolumeClaim objects.
    pub pvcs: Vec<Pvc>,
    /// StatefulSet volumeClaimTemplates.
    pub claim_templates: Vec<Pvc>,
    pub classes: Vec<StorageClass>,
    pub csi_drivers: Vec<CsiDriver>,
    pub workloads: Vec<Workload>,
    pub diags: Vec<Diag>,
    pub documents: usize,
    pv_by_name: HashMap<Str, usize>,
    pvc_by_key: HashMap<(Str, Str), usize>,
    pvc_by_obj: HashMap<ObjId, usize>,
    templates_by_obj: HashMap<ObjId, Vec<usize>>,
    pv_classes: std::collections::HashSet<Str>,
    /// Objects the API server rejects (an invalid value): they never exist in the cluster.
    rejected: std::collections::HashSet<ObjId>,
    /// Strategic-merge patch documents, resolved once every source is loaded.
    patches: Vec<(SourceId, usize, Node)>,
    /// Earlier definitions of an object defined again later (see `find_duplicates`).
    superseded: std::collections::HashSet<ObjId>,
    /// Objects defined twice in the input with different content.
    pub duplicates: Vec<Duplicate>,
    /// Manifests that update an object the cluster state holds (see
    /// [`Index::check_live_updates`]).
    pub live_updates: Vec<LiveUpdate>,
    /// The files rendered objects came from: read with the texts and the trees, which may both
    /// be released before the rules run.
    pub(crate) origins: crate::origin::Origins,
    /// Documents of the source being loaded that are no Kubernetes object, reported only if
    /// the source holds objects (see `not_an_object`).
    strays: Vec<Diag>,
    /// A document of the source being loaded looks like a Kubernetes object that is broken.
    manifest_like: bool,
    /// Documents with a template placeholder where pvlint reads a value, and sources whose
    /// template syntax breaks YAML: unrendered templates.
    pub(crate) template_docs: std::collections::HashSet<(SourceId, usize)>,
    pub(crate) template_files: std::collections::HashSet<SourceId>,
    /// Files with a claim that asks for no class explicitly (`storageClassName: ""`), in any
    /// of its definitions: where the author binds class-less volumes that way.
    pub explicit_no_class: std::collections::HashSet<SourceId>,
    /// Documents whose object has `metadata.generateName` and no name: `kubectl create`
    /// makes a new one each time, `kubectl apply` refuses it.
    pub generate_named: std::collections::HashSet<(SourceId, usize)>,
    /// The Kubernetes release the input is applied to: it decides which API versions exist.
    pub(crate) version: crate::options::KubeVersion,
    /// Objects of an API version that release no longer serves: never created, nothing else
    /// is read of them.
    pub removed: Vec<(ObjId, &'static crate::apiversions::Removed)>,
}

/// An object defined twice with different content: which definition stands, as
/// `kubectl apply` of the input leaves it.
#[derive(Debug, Clone)]
pub struct Duplicate {
    /// The definition that takes effect.
    pub used: ObjId,
    /// The other one.
    pub other: ObjId,
    /// Set when the later definition is an update the API server refuses (an immutable field
    /// changed): the earlier one stands.
    pub refused: Option<model::update::Refusal>,
}

/// An object's identity: API group, kind, namespace, name.
pub(crate) type ObjectKey = (String, Str, Option<Str>, Str);

pub(crate) fn object_key(o: &Object) -> ObjectKey {
    (
        o.api_version
            .rsplit_once('/')
            .map_or("", |(g, _)| g)
            .to_string(),
        o.kind.clone(),
        o.namespace.clone(),
        o.name.clone(),
    )
}

/// The cluster state's objects by identity, read once for every apply set judged against it.
pub(crate) struct LiveObjects<'a> {
    cluster: &'a Index,
    by_key: HashMap<ObjectKey, ObjId>,
    /// `allowVolumeExpansion` by StorageClass.
    expansion: HashMap<Str, bool>,
    /// The cluster state lists StorageClasses: a class missing from it does not exist.
    classes_known: bool,
}

impl<'a> LiveObjects<'a> {
    pub(crate) fn of(cluster: &'a Index) -> LiveObjects<'a> {
        let by_key = cluster
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| !o.tree_released())
            .map(|(id, o)| (object_key(o), id))
            .collect();
        LiveObjects {
            cluster,
            by_key,
            expansion: cluster.expansions(),
            classes_known: cluster.objects.iter().any(|o| o.kind == "StorageClass"),
        }
    }
}

/// A manifest that updates an object of the cluster state.
#[derive(Debug, Clone)]
pub struct LiveUpdate {
    /// The manifest.
    pub obj: ObjId,
    /// How the tool merges it into the live object.
    pub model: model::update::ApplyModel,
    /// Why the API server refuses the update (empty: accepted).
    pub refusals: Vec<model::update::Refusal>,
    /// The cluster state lists StorageClasses: a class missing from it does not exist.
    pub classes_known: bool,
}

/// Whether a `kind` looks like a Kubernetes kind (`PersistentVolumeClaim`, `Deployment`).
fn kind_like(kind: &str) -> bool {
    let mut c = kind.chars();
    c.next().is_some_and(|f| f.is_ascii_uppercase()) && c.all(|c| c.is_ascii_alphanumeric())
}

/// Whether an `apiVersion` looks like a Kubernetes API version (`v1`, `apps/v1`,
/// `example.com/v1beta2`).
fn api_version_like(api: &str) -> bool {
    let version = api.rsplit_once('/').map_or(api, |(_, v)| v);
    let Some(rest) = version.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let tail = &rest[digits..];
    digits > 0
        && (tail.is_empty()
            || ["alpha", "beta"].iter().any(|s| {
                tail.strip_prefix(s)
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            }))
}

/// Gives a list item without apiVersion and kind those of its list, as kubectl does.
fn set_type(root: &mut Node, api_version: &str, kind: &str) {
    let at = Span::point(root.span.start);
    let scalar = |text: &str| Node {
        value: Value::Scalar(crate::node::Scalar {
            text: Str::from(text),
            kind: crate::node::ScalarKind::Str,
        }),
        span: at,
    };
    if let Value::Map(entries) = &mut root.value {
        let mut all = std::mem::take(entries).into_vec();
        for (key, value) in [("apiVersion", api_version), ("kind", kind)] {
            all.push(crate::node::Entry {
                key: Str::from_static(key),
                key_span: at,
                value: scalar(value),
            });
        }
        *entries = all.into_boxed_slice();
    }
}

impl Index {
    /// Indexes the sources `ids` of `sources` (one apply set), keeping their positions as their
    /// ids. A file some kustomization in `sources` uses as a patch is one wherever it is.
    pub fn build_set(
        sources: &[Source],
        ids: &[SourceId],
        version: crate::options::KubeVersion,
    ) -> Index {
        let mut ix = Index {
            version,
            ..Index::default()
        };
        let kustomize = crate::kustomize::non_resources(sources);
        let beside = crate::kustomize::unreached_beside(sources);
        for &id in ids {
            ix.load_source(id, &sources[id], kustomize.get(&id));
            if beside.contains(&id) {
                ix.patch_like_source(id);
            }
        }
        ix.mark_kustomize_labels(sources);
        ix.mark_kustomize_replacements(sources);
        ix.finish_load(sources);
        ix.build_views();
        ix
    }

    /// Indexes `sources` for the default Kubernetes release.
    pub fn build(sources: &[Source]) -> Index {
        Index::build_for(sources, crate::options::KubeVersion::DEFAULT)
    }

    /// Indexes `sources` for Kubernetes `version`.
    pub fn build_for(sources: &[Source], version: crate::options::KubeVersion) -> Index {
        Index::load(sources).with_views(version)
    }

    /// Reads every object of `sources`, and the files rendered ones came from, but builds no
    /// typed views yet: after this, nothing reads the sources' texts (see
    /// [`crate::api::lint_and_drop_texts`]). [`Index::with_views`] completes the index.
    pub(crate) fn load(sources: &[Source]) -> Index {
        let mut ix = Index::default();
        let kustomize = crate::kustomize::non_resources(sources);
        let beside = crate::kustomize::unreached_beside(sources);
        for (sid, src) in sources.iter().enumerate() {
            ix.load_source(sid, src, kustomize.get(&sid));
            if beside.contains(&sid) {
                ix.patch_like_source(sid);
            }
        }
        ix.mark_kustomize_labels(sources);
        ix.finish_load(sources);
        ix
    }

    /// Marks the objects whose selectors a kustomization in `sources` labels.
    fn mark_kustomize_labels(&mut self, sources: &[Source]) {
        let labelled = crate::kustomize::selector_labelled(sources);
        if labelled.is_empty() {
            return;
        }
        for o in &mut self.objects {
            o.selector_from_kustomize = labelled.contains(&o.source);
        }
    }

    /// Marks the fields a kustomization's `replacements` overwrite.
    fn mark_kustomize_replacements(&mut self, sources: &[Source]) {
        let targets = crate::kustomize::replacement_targets(sources);
        if targets.is_empty() {
            return;
        }
        for o in &mut self.objects {
            let mut spans: Vec<Span> = Vec::new();
            for t in targets.iter().filter(|t| {
                t.sources.contains(&o.source) && t.selects(&o.kind, &o.name, o.namespace.as_deref())
            }) {
                for p in &t.field_paths {
                    spans.extend(
                        crate::kustomize::resolve_field_path(o.root(), p)
                            .into_iter()
                            .map(|n| n.span),
                    );
                }
            }
            if !spans.is_empty() {
                o.replaced = Some(spans.into_boxed_slice());
            }
        }
    }

    /// After the sources are loaded: the patches whose targets are missing, then the files
    /// rendered objects came from (the last read of the texts).
    fn finish_load(&mut self, sources: &[Source]) {
        self.resolve_patches();
        self.origins = crate::origin::collect(sources, self);
    }

    /// Builds the typed views of a [loaded](Index::load) index, for Kubernetes `version`.
    pub(crate) fn with_views(mut self, version: crate::options::KubeVersion) -> Index {
        self.version = version;
        self.build_views();
        self
    }

    /// An informational note about a whole file (a template, a Kustomize input), at `at`.
    fn file_note(&mut self, sid: SourceId, kind: DiagKind, at: crate::source::Pos) {
        self.diags.push(Diag {
            kind,
            severity: Severity::Info,
            source: sid,
            document: 0,
            object: None,
            obj: None,
            field: Field {
                path: Str::default(),
                span: Span { start: at, end: at },
            },
            message: Str::default(),
            help: Str::default(),
            suggestion: None,
        });
    }
    fn load_source(
        &mut self,
        sid: SourceId,
        src: &Source,
        kustomize: Option<&crate::kustomize::UsedBy>,
    ) {
        let (docs, mut issues) = yaml::parse_stream(&src.text);
        self.documents += docs.len();
        // A kustomization in the input uses this file as a patch or generator input: it is
        // never applied as written (one note says so). A strategic-merge patch's objects are
        // kept aside until every source is loaded (see `resolve_patches`).
        if let Some(used) = kustomize {
            if used.field == "patches" || used.field == "patchesStrategicMerge" {
                for doc in docs {
                    if let Some(root) = doc.root {
                        self.patches.push((sid, doc.index, root));
                    }
                }
            }
            self.file_note(
                sid,
                DiagKind::KustomizeInput {
                    kustomization: used.kustomization,
                    field: used.field,
                    at: used.at,
                },
                crate::source::Pos { line: 1, column: 1 },
            );
            return;
        }
        // A ytt file is a template whatever it parses to: one note, nothing else on it.
        if let Some((line, column)) = crate::template::ytt_annotation(&src.text) {
            issues.clear();
            self.file_note(
                sid,
                DiagKind::Template(crate::template::Kind::Ytt),
                crate::source::Pos { line, column },
            );
        }
        // Template syntax is not YAML: one note on how to render the file, not a storm of
        // parse errors (the documents that did parse are still read).
        if !issues.is_empty() {
            if let Some((kind, line, column)) = crate::template::in_text(&src.text) {
                issues.clear();
                self.file_note(
                    sid,
                    DiagKind::Template(kind),
                    crate::source::Pos { line, column },
                );
            }
        }
        let manifest_text = src.text.contains("apiVersion")
            || src.text.contains("kind:")
            || src.text.contains("\"kind\"");
        for i in issues {
            let (severity, help) = match i.kind {
                IssueKind::Syntax => (
                    Severity::Error,
                    "fix the YAML/JSON syntax at this position; the other documents were still checked",
                ),
                IssueKind::Limit => (
                    Severity::Error,
                    "write the document out without deeply nested or repeatedly expanded aliases",
                ),
                IssueKind::DuplicateKey => (
                    Severity::Warning,
                    "keep one of the two keys: the value kubectl ignores is easy to mistake for the one it applies",
                ),
                IssueKind::ComplexKey => (
                    Severity::Error,
                    "use a plain string as the key; kubectl cannot read the document, and pvlint skipped it",
                ),
                IssueKind::Ignored => (
                    Severity::Warning,
                    "put a `---` line before it if it is meant to be applied, or delete it",
                ),
            };
            let kind = match i.kind {
                IssueKind::DuplicateKey | IssueKind::Ignored => DiagKind::Ignored,
                _ => DiagKind::Parse,
            };
            // Content kubectl drops matters only in a manifest: a repeated key in a Helm
            // values file is reported with the strays, once the file turns out to hold objects.
            // A file that cannot be read and shows no sign of a manifest (no `apiVersion`,
            // no `kind`: a tsconfig.json, a cloud config, a tool's settings) is not one: its
            // syntax errors are kept with the strays, reported only if it turns out to hold
            // objects. A document over the parser's limits (an alias bomb, deep nesting) is
            // reported wherever it is: it is a hazard for every tool that reads the file.
            let deferred =
                kind == DiagKind::Ignored || (!manifest_text && i.kind != IssueKind::Limit);
            let to = if deferred {
                &mut self.strays
            } else {
                &mut self.diags
            };
            to.push(Diag {
                kind,
                severity,
                source: sid,
                document: i.document,
                object: None,
                obj: None,
                field: Field {
                    path: Str::default(),
                    span: i.span,
                },
                message: Str::from(i.message),
                help: help.into(),
                suggestion: None,
            });
        }
        let before = self.objects.len();
        for doc in docs {
            let Some(root) = doc.root else { continue };
            self.load_object(sid, doc.index, root);
        }
        // A strategic-merge directive makes a document a patch, whoever applies it.
        if self.objects[before..]
            .iter()
            .any(|o| has_directive(o.root()))
        {
            self.move_to_patches(sid, true);
        }
        // A file with no object at all is not a manifest (an Ansible playbook, a Helm
        // Chart.yaml, a CI workflow): its documents are not reported, unless one looks like
        // an object that lost its kind or apiVersion (reported at once).
        let strays = std::mem::take(&mut self.strays);
        if self.objects.len() > before || std::mem::take(&mut self.manifest_like) {
            self.diags.extend(strays);
        }
    }

    /// Strategic-merge patches: kustomize merges each into the object it names. When that
    /// object is in the input, pvlint reads the object as written and leaves the patch out;
    /// when it is not (a remote or unlisted base), the patch is read as the object, and left
    /// out if it is partial (the API server would reject it as written; see `build_views`).
    fn resolve_patches(&mut self) {
        for (sid, document, root) in std::mem::take(&mut self.patches) {
            let s = |path: &str| root.at(path).and_then(Node::as_str).unwrap_or("");
            let (kind, name, namespace) = (s("kind"), s("metadata.name"), s("metadata.namespace"));
            let target_loaded = self.objects.iter().any(|o| {
                o.kind == kind
                    && o.name == name
                    && (namespace.is_empty() || o.namespace.as_deref() == Some(namespace))
            });
            if kind.is_empty() || target_loaded {
                continue;
            }
            let before = self.objects.len();
            self.load_object(sid, document, root);
            for o in &mut self.objects[before..] {
                o.from_patch = true;
            }
        }
    }

    /// The objects of a source that may be a patch (see
    /// [`crate::kustomize::unreached_beside`]) are taken out and kept aside as patches are.
    fn patch_like_source(&mut self, sid: SourceId) {
        self.move_to_patches(sid, false);
    }

    /// Moves a source's objects to the patches: all of them, or (`directives_only`) those
    /// that carry a strategic-merge directive (`$patch: delete`, `$setElementOrder/...`,
    /// `$retainKeys`, `$deleteFromPrimitiveList/...`), which only a patch can hold.
    fn move_to_patches(&mut self, sid: SourceId, directives_only: bool) {
        let mut i = 0;
        while i < self.objects.len() {
            let o = &self.objects[i];
            if o.source == sid && !o.from_patch && (!directives_only || has_directive(o.root())) {
                let o = self.objects.remove(i);
                let document = o.document;
                self.patches.push((sid, document, o.into_root()));
            } else {
                i += 1;
            }
        }
    }

    fn load_object(&mut self, sid: SourceId, document: usize, root: Node) {
        self.load_item(sid, document, root, None);
    }

    /// Reads one document (or one item of a list) as kubectl's decoder does
    /// (apimachinery's unstructured JSON scheme). `list` is the apiVersion and item kind of the
    /// typed list an item comes from (`PersistentVolumeList` → `PersistentVolume`): an item
    /// with neither apiVersion nor kind gets them from it (`decodeToList`).
    fn load_item(
        &mut self,
        sid: SourceId,
        document: usize,
        mut root: Node,
        list: Option<(&str, &str)>,
    ) {
        let Some(map) = root.as_map() else {
            if !root.is_null() {
                self.not_an_object(sid, document, root.span, Some(&root));
            }
            return;
        };
        let get_str = |k: &str| {
            map.iter()
                .find(|e| e.key == k)
                .and_then(|e| e.value.as_str())
                .map(String::from)
        };
        let (mut kind, mut api_version) = (get_str("kind"), get_str("apiVersion"));
        let has = |k: &str| map.iter().any(|e| e.key == k);
        let untyped = !has("kind") && !has("apiVersion");
        let first_key = map.first().map_or(root.span, |e| e.key_span);
        if let (Some((list_api, item_kind)), true) = (list, untyped) {
            kind = Some(item_kind.to_string()).filter(|k| !k.is_empty());
            api_version = Some(list_api.to_string());
            set_type(&mut root, list_api, item_kind);
        }
        // Any object with `items` is a list to kubectl (the decoder's detector does not look
        // at the kind), and its items are applied one by one: `kind: List` and the typed lists
        // (`PersistentVolumeList`, ...) of `kubectl get -o yaml`.
        if let Some(Value::Seq(_)) = root.get("items").map(|n| &n.value) {
            let list_api = api_version.clone().unwrap_or_default();
            let item_kind = kind
                .as_deref()
                .and_then(|k| k.strip_suffix("List"))
                .unwrap_or("")
                .to_string();
            let Value::Map(entries) = root.value else {
                unreachable!()
            };
            let items = entries
                .into_vec()
                .into_iter()
                .find(|e| e.key == "items")
                .map(|e| e.value);
            if let Some(Node {
                value: Value::Seq(items),
                ..
            }) = items
            {
                for it in items.into_vec() {
                    self.load_item(sid, document, it, Some((&list_api, &item_kind)));
                }
            }
            return;
        }
        let (Some(kind), Some(api_version)) = (kind, api_version) else {
            self.not_an_object(sid, document, first_key, Some(&root));
            return;
        };
        let (_, namespaced) = known_kind(&api_version, &kind).unwrap_or((KindClass::Other, true));
        let name = root
            .at("metadata.name")
            .and_then(Node::as_str)
            .or_else(|| root.at("metadata.generateName").and_then(Node::as_str))
            .unwrap_or("")
            .to_string();
        let namespace = if namespaced {
            Some(
                root.at("metadata.namespace")
                    .and_then(Node::as_str)
                    .filter(|s| !s.is_empty())
                    .unwrap_or("default")
                    .to_string(),
            )
        } else {
            None
        };
        self.objects.push(Object::new(
            sid,
            document,
            Str::from(api_version),
            Str::from(kind),
            Str::from(name),
            namespace.map(Str::from),
            root,
        ));
    }

    /// A document (or list item) kubectl cannot decode into an object: a list or a scalar
    /// (`root` is `None`), or a map without a string `kind` or `apiVersion`. One that looks like
    /// an object (a Kubernetes-like kind or apiVersion, and metadata) is reported; any other is
    /// reported only if its file holds objects (see `load_source`).
    fn not_an_object(&mut self, sid: SourceId, document: usize, span: Span, root: Option<&Node>) {
        if root.is_none_or(|r| r.as_map().is_none()) {
            if let Some(items) = root.and_then(Node::as_seq) {
                // A bare list of objects (a List without its `items:`).
                self.manifest_like |= items.iter().any(|it| {
                    it.get("kind").and_then(Node::as_str).is_some_and(kind_like)
                        && it.get("apiVersion").and_then(Node::as_str).is_some()
                });
            }
            let what = root.map_or("value", |r| match &r.value {
                Value::Seq(_) => "list",
                _ => "scalar",
            });
            self.strays.push(parse_diag(
                sid,
                document,
                span,
                format!("this {what} is no Kubernetes object: kubectl cannot decode it (\"Object 'Kind' is missing\")"),
                "a document must be one object (a map with apiVersion and kind); wrap several in a kind: List. kubectl applies the file's other objects and fails",
            ));
            return;
        }
        let Some(root) = root else { return };
        // A document with template placeholders is a template, whatever it lacks.
        if let Some((kind, at)) = placeholder_in(root) {
            self.file_note(sid, DiagKind::Template(kind), at.start);
            return;
        }
        let s = |k: &str| root.get(k).and_then(Node::as_str);
        let (kind, api) = (s("kind"), s("apiVersion"));
        let has_meta = root.get("metadata").and_then(Node::as_map).is_some();
        // A kind Kubernetes serves, or an apiVersion: a manifest that lost the other. Another
        // kind without an apiVersion (operator-sdk's `Configuration`, a book's imaginary
        // `Website`) is some tool's document, reported only in a file of objects.
        let looks = has_meta
            && (kind.is_some_and(|k| kind_like(k) && model::BUILTIN_KINDS.contains(&k))
                || api.is_some_and(api_version_like));
        let (message, help) = match (kind, api) {
            (Some(kind), None) => (
                format!("{kind} has no apiVersion: kubectl cannot map it to a resource and skips it"),
                "set apiVersion, e.g. apiVersion: v1 for a PersistentVolumeClaim, apps/v1 for a Deployment",
            ),
            _ => (
                "this object has no kind: kubectl cannot decode it (\"Object 'Kind' is missing\")".into(),
                "set both apiVersion and kind, e.g. apiVersion: v1 / kind: PersistentVolumeClaim",
            ),
        };
        self.manifest_like |= looks;
        self.strays
            .push(parse_diag(sid, document, span, message, help));
    }
}

fn parse_diag(sid: SourceId, document: usize, span: Span, message: String, help: &str) -> Diag {
    Diag {
        kind: DiagKind::Parse,
        severity: Severity::Error,
        source: sid,
        document,
        object: None,
        obj: None,
        field: Field {
            path: Str::default(),
            span,
        },
        message: Str::from(message),
        help: help.into(),
        suggestion: None,
    }
}

/// An object some apply set defines at an API version the cluster serves: what
/// `removed-api-version` compares a removed version's definition with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    pub kind: Str,
    pub namespace: Option<Str>,
    pub name: Str,
    pub api_version: Str,
    pub source: SourceId,
}

impl Index {
    /// The objects this index defines at a served API version.
    pub fn served(&self) -> impl Iterator<Item = Served> + '_ {
        self.objects
            .iter()
            .enumerate()
            .filter(|&(id, _)| !self.removed.iter().any(|&(r, _)| r == id))
            .map(|(_, o)| Served {
                kind: o.kind.clone(),
                namespace: o.namespace.clone(),
                name: o.name.clone(),
                api_version: o.api_version.clone(),
                source: o.source,
            })
    }
}

impl Index {
    /// Objects defined more than once (same group, kind, namespace and name), resolved as
    /// `kubectl apply` resolves them: the first definition creates the object, each later one
    /// updates it and replaces it, unless the API server refuses the update (an immutable
    /// field changed, see [`model::update`]), and then the object stays as it was. The
    /// definitions that do not take effect are superseded. Definitions with the same content
    /// are one object; different content is recorded for `duplicate-object`.
    fn find_duplicates(&mut self) {
        let group = |o: &Object| {
            o.api_version
                .rsplit_once('/')
                .map_or("", |(g, _)| g)
                .to_string()
        };
        // The definition that stands so far, by object.
        let mut standing: HashMap<(String, Str, Option<Str>, Str), ObjId> = HashMap::new();
        for (id, o) in self.objects.iter().enumerate() {
            if o.root()
                .at("metadata.name")
                .and_then(Node::as_str)
                .is_none_or(str::is_empty)
            {
                continue; // generateName: a new object every time
            }
            if crate::apiversions::removed(&o.api_version, &o.kind, self.version).is_some() {
                continue; // never sent: kubectl finds no resource for it
            }
            let key = (
                group(o),
                o.kind.clone(),
                o.namespace.clone(),
                o.name.clone(),
            );
            let Some(&prev) = standing.get(&key) else {
                standing.insert(key, id);
                continue;
            };
            let old = &self.objects[prev];
            if crate::node::same_content(old.root(), o.root()) {
                self.superseded.insert(prev);
                standing.insert(key, id);
                continue;
            }
            let live = crate::value::convert(old.root());
            let merged = model::update::merged(
                &live,
                &crate::value::convert(o.root()),
                &model::update::ApplyModel::SameApply,
            );
            let env = model::update::Env {
                version: self.version,
                // A claim just created is not Bound: no resize is judged.
                expansion: &|_| None,
            };
            match model::update::refusals(&o.api_version, &o.kind, &o.name, &live, &merged, &env)
                .into_iter()
                .next()
            {
                Some(refused) => {
                    self.superseded.insert(id);
                    self.duplicates.push(Duplicate {
                        used: prev,
                        other: id,
                        refused: Some(refused),
                    });
                }
                None => {
                    self.superseded.insert(prev);
                    standing.insert(key, id);
                    self.duplicates.push(Duplicate {
                        used: id,
                        other: prev,
                        refused: None,
                    });
                }
            }
        }
        // Report each pair against the definition that finally stands.
        let objects = &self.objects;
        for d in self.duplicates.iter_mut() {
            let o = &objects[d.used];
            let key = (
                group(o),
                o.kind.clone(),
                o.namespace.clone(),
                o.name.clone(),
            );
            if let Some(&s) = standing.get(&key) {
                d.used = s;
            }
        }
    }

    /// Sizes the object vector and the views' vectors to what they will hold. Grown by
    /// doubling instead, they would hold up to twice that while every YAML tree is still
    /// alive: the index's own peak (on the benchmark corpus, 12.6 MB of its 85 MB).
    fn reserve_views(&mut self) {
        self.objects.shrink_to_fit();
        let (mut pvs, mut pvcs, mut templates, mut workloads) = (0, 0, 0, 0);
        for (id, obj) in self.objects.iter().enumerate() {
            if !model::reaches_api_server(&obj.api_version, &obj.kind)
                || self.superseded.contains(&id)
            {
                continue;
            }
            match known_kind(&obj.api_version, &obj.kind).map(|(class, _)| class) {
                Some(KindClass::PersistentVolume) => pvs += 1,
                Some(KindClass::PersistentVolumeClaim) => pvcs += 1,
                Some(KindClass::Workload) => {
                    workloads += 1;
                    templates += obj
                        .root()
                        .at("spec.volumeClaimTemplates")
                        .and_then(Node::as_seq)
                        .map_or(0, <[Node]>::len);
                }
                _ => {}
            }
        }
        self.pvs.reserve_exact(pvs);
        self.pvcs.reserve_exact(pvcs);
        self.claim_templates.reserve_exact(templates);
        self.workloads.reserve_exact(workloads);
    }

    /// Definitions that a later one of the same object replaces.
    /// kubectl's default field validation (`--validate=strict`, the API server's
    /// `fieldValidation=Strict`): an object with a field the API does not know is rejected
    /// ("strict decoding error: unknown field") and never exists. With `warn` (Helm,
    /// client-go, `--validate=warn`) the field is dropped and the object created.
    pub(crate) fn reject_unknown_fields(&mut self, validation: crate::options::FieldValidation) {
        if !validation.is_strict() {
            return;
        }
        for (id, obj) in self.objects.iter().enumerate() {
            if obj.from_patch
                || self.superseded.contains(&id)
                || !model::reaches_api_server(&obj.api_version, &obj.kind)
                || !matches!(model::known_kind(&obj.api_version, &obj.kind), Some((c, _)) if c != model::KindClass::Other)
            {
                continue;
            }
            if !crate::schema::unknown_fields(&obj.kind, obj.root(), false).is_empty() {
                self.rejected.insert(id);
            }
        }
    }

    /// Manifests of objects the cluster state holds are updates: merged into the live object
    /// as the tool merges ([`model::update::ApplyModel`]), judged by the API server's update
    /// validation and the resize admission plugin. A refused update leaves the live object as
    /// it is: the manifest takes no part in the simulation.
    pub(crate) fn check_live_updates(&mut self, live: &LiveObjects<'_>) {
        if live.by_key.is_empty() {
            return;
        }
        // allowVolumeExpansion by class: this apply's accepted classes, else the cluster's.
        let own = self.expansions();
        let found = self.updates_against(
            &|o| {
                live.by_key
                    .get(&object_key(o))
                    .map(|&id| crate::value::convert(live.cluster.objects[id].root()))
            },
            &|name| own.get(name).or_else(|| live.expansion.get(name)).copied(),
            live.classes_known,
        );
        for u in &found {
            if !u.refusals.is_empty() {
                self.rejected.insert(u.obj);
            }
        }
        self.live_updates = found;
    }

    /// `allowVolumeExpansion` of each StorageClass this index defines and the API server
    /// accepts.
    pub(crate) fn expansions(&self) -> HashMap<Str, bool> {
        let mut out = HashMap::new();
        for (id, o) in self.objects.iter().enumerate() {
            if o.kind != "StorageClass"
                || o.tree_released()
                || self.rejected.contains(&id)
                || self.superseded.contains(&id)
            {
                continue;
            }
            let allowed = o
                .root()
                .get("allowVolumeExpansion")
                .and_then(Node::as_scalar)
                .is_some_and(|s| s.kind == crate::node::ScalarKind::Bool(true));
            out.insert(o.name.clone(), allowed);
        }
        out
    }

    /// This index's manifests that update a live object (`live` gives it, as JSON), judged
    /// as the API server judges the update.
    pub(crate) fn updates_against(
        &self,
        live: &dyn Fn(&Object) -> Option<serde_json::Value>,
        expansion: &dyn Fn(&str) -> Option<bool>,
        classes_known: bool,
    ) -> Vec<LiveUpdate> {
        use model::update;
        let env = update::Env {
            version: self.version,
            expansion,
        };
        let mut found = Vec::new();
        for (id, o) in self.objects.iter().enumerate() {
            if o.from_patch
                || o.tree_released()
                || self.superseded.contains(&id)
                || self.rejected.contains(&id)
                || !model::reaches_api_server(&o.api_version, &o.kind)
            {
                continue;
            }
            // Not what reaches the API server as written: template placeholders, values a
            // kustomization replaces, selectors it completes.
            if self.template_files.contains(&o.source)
                || self.template_docs.contains(&(o.source, o.document))
                || o.replaced.is_some()
            {
                continue;
            }
            let Some(mut live) = live(o) else {
                continue;
            };
            let model = update::ApplyModel::of_live(&live);
            let mut merged = update::merged(&live, &crate::value::convert(o.root()), &model);
            if o.selector_from_kustomize {
                for v in [&mut live, &mut merged] {
                    if let Some(spec) = v.get_mut("spec").and_then(|s| s.as_object_mut()) {
                        spec.remove("selector");
                    }
                }
            }
            let refusals = update::refusals(&o.api_version, &o.kind, &o.name, &live, &merged, &env);
            found.push(LiveUpdate {
                obj: id,
                model,
                refusals,
                classes_known,
            });
        }
        found
    }

    pub fn is_superseded(&self, obj: ObjId) -> bool {
        self.superseded.contains(&obj)
    }

    fn build_views(&mut self) {
        for o in &self.objects {
            if o.kind == "PersistentVolumeClaim"
                && o.root().at("spec.storageClassName").and_then(Node::as_str) == Some("")
            {
                self.explicit_no_class.insert(o.source);
            }
            if o.root().at("metadata.name").is_none()
                && o.root().at("metadata.generateName").is_some()
            {
                self.generate_named.insert((o.source, o.document));
            }
        }
        self.find_duplicates();
        self.reserve_views();
        let mut diags = std::mem::take(&mut self.diags);
        for (id, obj) in self.objects.iter().enumerate() {
            if !model::reaches_api_server(&obj.api_version, &obj.kind)
                || self.superseded.contains(&id)
            {
                continue;
            }
            // A version the release no longer serves: the object never exists.
            if let Some(r) = crate::apiversions::removed(&obj.api_version, &obj.kind, self.version)
            {
                // A patch at a removed version is left out with the rest of the patch.
                if !obj.from_patch {
                    self.removed.push((id, r));
                }
                self.rejected.insert(id);
                continue;
            }
            let mut r = Reader::new(obj, id, &mut diags);
            check_metadata(&mut r);
            r.placeholders_in_integers();
            r.placeholders_in_keys();
            let Some((class, _)) = known_kind(&obj.api_version, &obj.kind) else {
                continue;
            };
            match class {
                KindClass::PersistentVolume => {
                    let pv = model::read_pv(obj, id, &mut r);
                    model::validation::pv(obj, &pv, &mut r);
                    self.pv_classes.insert(pv.class.clone());
                    self.pv_by_name.insert(obj.name.clone(), self.pvs.len());
                    self.pvs.push(pv);
                }
                KindClass::PersistentVolumeClaim => {
                    let pvc = model::read_claim(obj, id, &mut r, "", obj.name.clone(), None);
                    model::validation::claim(obj, &pvc, &mut r);
                    self.pvc_by_obj.insert(id, self.pvcs.len());
                    self.pvc_by_key
                        .insert((pvc.namespace.clone(), pvc.name.clone()), self.pvcs.len());
                    self.pvcs.push(pvc);
                }
                KindClass::StorageClass => {
                    let sc = model::read_storage_class(obj, id, &mut r);
                    model::validation::storage_class(obj, &sc, &mut r);
                    self.classes.push(sc);
                }
                KindClass::CsiDriver => {
                    self.csi_drivers
                        .push(model::read_csi_driver(obj, id, &mut r));
                }
                KindClass::Workload => {
                    let Some(kind) = WorkloadKind::parse(&obj.kind) else {
                        continue;
                    };
                    if kind == WorkloadKind::StatefulSet {
                        if let Some(templates) = r.seq("spec.volumeClaimTemplates") {
                            for (i, t) in templates.iter().enumerate() {
                                let Some(tname) = t.at("metadata.name").and_then(Node::as_str)
                                else {
                                    continue;
                                };
                                let prefix = format!("spec.volumeClaimTemplates[{i}].");
                                let claim = model::read_claim(
                                    obj,
                                    id,
                                    &mut r,
                                    &prefix,
                                    Str::from(tname),
                                    Some(obj.name.to_string()),
                                );
                                self.templates_by_obj
                                    .entry(id)
                                    .or_default()
                                    .push(self.claim_templates.len());
                                self.claim_templates.push(claim);
                            }
                        }
                    }
                    model::validation::workload(obj, kind, &mut r);
                    self.workloads
                        .push(model::read_workload(obj, id, kind, &mut r, self.version));
                }
                KindClass::Other => {}
            }
        }
        // Objects that never exist as written: the API server rejects them, or they are
        // unrendered templates (what they become is unknown).
        self.rejected.extend(
            diags
                .iter()
                .filter(|d| d.rejects() || d.kind.unrendered())
                .filter_map(|d| d.obj),
        );
        // Documents and files that are templates (before one note per source is kept).
        for d in diags
            .iter()
            .filter(|d| matches!(d.kind, DiagKind::Template(_)))
        {
            match d.obj {
                Some(_) => self.template_docs.insert((d.source, d.document)),
                None => self.template_files.insert(d.source),
            };
        }
        // A partial patch is not wrong: kustomize completes it from a base pvlint does not
        // see. It is left out, without the API server's complaints.
        let (objects, rejected) = (&self.objects, &self.rejected);
        diags.retain(|d| {
            d.obj
                .is_none_or(|o| !(objects[o].from_patch && rejected.contains(&o)))
        });
        // One template note per source: the first place it shows.
        let mut seen = std::collections::HashSet::new();
        diags.retain(|d| !d.kind.unrendered() || seen.insert(d.source));
        self.diags = diags;
        // The views live as long as the index, through the simulation and the rules: give
        // back what the vectors grew beyond their length (up to half of each).
        self.objects.shrink_to_fit();
        self.pvs.shrink_to_fit();
        self.pvcs.shrink_to_fit();
        self.claim_templates.shrink_to_fit();
        self.workloads.shrink_to_fit();
    }

    /// Gives back the memory of every object's YAML tree (on a large input, as much as the
    /// simulation takes). Everything after this reads the views, the names and
    /// [`Object::whole`]: the rules that walk the trees, and the tables of suppressions and
    /// origins, are computed before it (see `lint::run_rules`).
    pub(crate) fn release_trees(&mut self) {
        for o in &mut self.objects {
            o.release_tree();
        }
    }

    /// The object never exists as written: the API server rejects it (see [`Diag::rejects`]),
    /// or it is an unrendered template. It takes no part in the simulation.
    pub fn is_rejected(&self, obj: ObjId) -> bool {
        self.rejected.contains(&obj)
    }

    pub fn pv(&self, name: &str) -> Option<&Pv> {
        self.pv_by_name.get(name).map(|&i| &self.pvs[i])
    }

    pub fn pvc(&self, namespace: &str, name: &str) -> Option<&Pvc> {
        self.pvc_by_key
            .get(&(Str::from(namespace), Str::from(name)))
            .map(|&i| &self.pvcs[i])
    }

    /// The claim view of a PersistentVolumeClaim object.
    pub fn pvc_of(&self, obj: ObjId) -> Option<&Pvc> {
        self.pvc_by_obj.get(&obj).map(|&i| &self.pvcs[i])
    }

    /// The `n`th volumeClaimTemplate of a StatefulSet object.
    pub fn template_of(&self, obj: ObjId, n: usize) -> Option<&Pvc> {
        self.templates_by_obj
            .get(&obj)?
            .get(n)
            .map(|&i| &self.claim_templates[i])
    }

    /// Does any PersistentVolume in the input have this class?
    pub fn pv_class_exists(&self, class: &str) -> bool {
        self.pv_classes.contains(class)
    }

    pub fn object(&self, id: ObjId) -> &Object {
        &self.objects[id]
    }

    /// StorageClasses marked default in the input.
    pub fn default_classes(&self) -> Vec<&StorageClass> {
        self.classes
            .iter()
            .filter(|c| c.is_default.is_some())
            .collect()
    }

    /// Is this PV/claim pair's object the last definition of that name (the one `kubectl apply` leaves)?
    pub fn is_current_pv(&self, pv: &Pv) -> bool {
        self.pv(&pv.name).is_some_and(|p| p.obj == pv.obj)
    }
}

/// The first template placeholder among a tree's scalars (keys included), if any.
fn placeholder_in(n: &Node) -> Option<(crate::template::Kind, Span)> {
    match &n.value {
        crate::node::Value::Scalar(s) => crate::template::in_value(&s.text).map(|k| (k, n.span)),
        crate::node::Value::Map(entries) => entries.iter().find_map(|e| {
            crate::template::in_value(&e.key)
                .map(|k| (k, e.key_span))
                .or_else(|| placeholder_in(&e.value))
        }),
        crate::node::Value::Seq(items) => items.iter().find_map(placeholder_in),
    }
}

/// Whether a tree holds a strategic-merge patch directive key (apimachinery's
/// strategicpatch: `$patch`, `$retainKeys`, `$setElementOrder/<field>`,
/// `$deleteFromPrimitiveList/<field>`).
fn has_directive(n: &Node) -> bool {
    match &n.value {
        crate::node::Value::Map(entries) => entries.iter().any(|e| {
            let k = e.key.as_str();
            k == "$patch"
                || k == "$retainKeys"
                || k.starts_with("$setElementOrder/")
                || k.starts_with("$deleteFromPrimitiveList/")
                || has_directive(&e.value)
        }),
        crate::node::Value::Seq(items) => items.iter().any(has_directive),
        _ => false,
    }
}

/// `metadata` checks every object gets: type of name/namespace/labels/annotations.
fn check_metadata(r: &mut Reader<'_>) {
    let obj = r.obj;
    let Some(meta) = r.map("metadata") else {
        // A custom group's document without metadata at all is a tool's config file
        // (nodeadm's NodeConfig, a controller's ControllerManagerConfig, istioctl's
        // IstioOperator profile): read by that tool, never applied, so not judged as an object.
        let builtin = model::BUILTIN_GROUPS.contains(&model::group_of(&obj.api_version));
        if obj.root().get("metadata").is_none() && builtin {
            r.invalid(
                obj.whole(),
                Severity::Error,
                format!("{} has no metadata: Required value: name or generateName is required; the API server rejects it", obj.kind),
                "add metadata.name".into(),
            );
        }
        return;
    };
    if meta.get("name").is_none() && meta.get("generateName").is_none() {
        r.invalid(
            obj.key_field("metadata"),
            Severity::Error,
            "metadata.name: Required value: name or generateName is required; the API server rejects this object".into(),
            "add metadata.name".into(),
        );
    }
    r.string("metadata.name");
    r.string("metadata.namespace");
    for map_key in ["labels", "annotations"] {
        let path = format!("metadata.{map_key}");
        let Some(m) = r.map(&path) else { continue };
        for e in m.as_map().unwrap_or_default() {
            // A null value is an empty string to kubectl and the API server (JSON null into
            // a Go string leaves it empty).
            if e.value.as_str().is_none() && !e.value.is_null() {
                let quoted = e.value.as_scalar().map(|s| s.text.clone());
                let mut d_help =
                    "annotation and label values are strings: quote the value".to_string();
                if let Some(q) = &quoted {
                    d_help = format!("quote the value: {}: \"{}\"", e.key, q);
                }
                let field = Field {
                    path: Str::from(format!("{path}.{}", e.key)),
                    span: e.value.span,
                };
                r.invalid(
                    field,
                    Severity::Error,
                    format!(
                        "{path}.{} must be a string, found {} (YAML reads unquoted yes/no/true/numbers as non-strings): the API server rejects this object",
                        e.key,
                        e.value.type_name()
                    ),
                    d_help.clone(),
                );
                if let (Some(d), Some(q)) = (r.diags.last_mut(), quoted) {
                    d.suggestion = Some(Suggestion {
                        description: "quote the value".into(),
                        snippet: Some(Str::from(format!("{}: \"{}\"", e.key, q))),
                        applicability: crate::finding::Applicability::Exact,
                        edits: vec![crate::finding::Edit {
                            line: e.value.span.start.line,
                            column: e.value.span.start.column,
                            end_line: e.value.span.end.line,
                            end_column: e.value.span.end.column,
                            replacement: Str::from(format!("\"{q}\"")),
                        }],
                    });
                }
            }
        }
    }
}
