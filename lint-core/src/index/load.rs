//! Reading sources into objects as kubectl's decoder does: documents, lists, patches,
//! kustomize inputs, unrendered templates, documents that are no object.

use super::Index;
use crate::finding::Severity;
use crate::model::{self, known_kind, Diag, DiagKind, Field, KindClass, Object};
use crate::node::{Node, Value};
use crate::source::{Source, SourceId, Span};
use crate::string::Str;
use crate::yaml::{self, IssueKind};

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
    /// Marks the objects whose selectors a kustomization labels, and those it patches.
    pub(super) fn mark_kustomize_labels(&mut self, kustomize: &crate::kustomize::Facts) {
        let (labelled, patched) = (&kustomize.labelled, &kustomize.patched);
        if labelled.is_empty() && patched.is_empty() {
            return;
        }
        for o in &mut self.objects {
            o.selector_from_kustomize = labelled.contains(&o.source);
            o.patched_by_kustomize = patched.contains(&o.source);
        }
    }

    /// Marks the objects a patch of a kustomization in `set` names by its `target:` or inline.
    pub(super) fn mark_kustomize_patch_targets(
        &mut self,
        kustomize: &crate::kustomize::Facts,
        set: &[SourceId],
    ) {
        let all = &kustomize.patch_targets;
        let targets: Vec<_> = set
            .iter()
            .flat_map(|&k| {
                let at = all.partition_point(|t| t.kustomization < k);
                all[at..].iter().take_while(move |t| t.kustomization == k)
            })
            .collect();
        if targets.is_empty() {
            return;
        }
        for o in &mut self.objects {
            if targets
                .iter()
                .any(|t| t.selects(o.source, &o.kind, &o.name))
            {
                o.patch_named = true;
            }
        }
    }

    /// Marks the fields a kustomization's `replacements` overwrite.
    pub(super) fn mark_kustomize_replacements(&mut self, kustomize: &crate::kustomize::Facts) {
        if kustomize.replacements.is_empty() {
            return;
        }
        for o in &mut self.objects {
            let mut spans: Vec<Span> = Vec::new();
            let reaching = kustomize
                .replacements_by_source
                .get(&o.source)
                .map_or(&[][..], Vec::as_slice);
            for t in reaching
                .iter()
                .map(|&n| &kustomize.replacements[n])
                .filter(|t| t.selects(&o.kind, &o.name, o.namespace.as_deref()))
            {
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
    /// `kustomized`: a kustomization is among the sources, so its patches apply.
    pub(super) fn finish_load(&mut self, sources: &[Source], kustomized: bool) {
        self.resolve_patches(kustomized);
        self.origins = crate::origin::collect(sources, &self.objects);
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
    pub(super) fn load_source(
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
                        self.patches.push((sid, doc.index, root, true));
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
        // `kubectl describe` output saved as a file reads as YAML, or almost: kubectl cannot
        // apply it, and the author meant a manifest.
        let describe = kubectl_describe_output(&src.text);
        let manifest_text = src.text.contains("apiVersion")
            || src.text.contains("kind:")
            || src.text.contains("\"kind\"")
            || describe;
        let prompt = shell_prompt_first(&src.text);
        for i in issues {
            let (severity, help) = match i.kind {
                IssueKind::Syntax if describe => (Severity::Error, DESCRIBE_HELP),
                IssueKind::Syntax if prompt && i.span.start.line <= 3 => (
                    Severity::Error,
                    "the file starts with a shell prompt and command pasted above kubectl's output: delete that line",
                ),
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
        let mut strays = std::mem::take(&mut self.strays);
        if describe {
            for d in &mut strays {
                if d.kind == DiagKind::Parse {
                    d.message = Str::from("this is `kubectl describe` output, not a manifest: kubectl cannot decode it (\"Object 'Kind' is missing\")");
                    d.help = Str::from(
                        "save the object with `kubectl get <kind> <name> -o yaml` instead",
                    );
                }
            }
        }
        if self.objects.len() > before || std::mem::take(&mut self.manifest_like) || describe {
            self.diags.extend(strays);
        }
    }

    /// Strategic-merge patches: kustomize merges each into the object it names. When that
    /// object is in the input and a kustomization of the set names the patch file, the object
    /// is marked `patch_named` (left out of the analysis, see `index::left_out`) and the patch
    /// is not read; when it is not (a remote or unlisted base), the patch is read as the
    /// object, and left out if it is partial (the API server would reject it as written; see
    /// `build_views`). A variant beside a kustomization that none names changes nothing.
    fn resolve_patches(&mut self, kustomized: bool) {
        for (sid, document, root, named) in std::mem::take(&mut self.patches) {
            let s = |path: &str| root.at(path).and_then(Node::as_str).unwrap_or("");
            let (kind, name, namespace) = (s("kind"), s("metadata.name"), s("metadata.namespace"));
            let mut target_loaded = false;
            for o in &mut self.objects {
                if !kind.is_empty()
                    && o.kind == kind
                    && o.name == name
                    && (namespace.is_empty() || o.namespace.as_deref() == Some(namespace))
                {
                    target_loaded = true;
                    // kustomize merges the patch into it before kubectl applies it.
                    o.patch_named |= named && kustomized && !o.from_patch;
                }
            }
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
    /// [`crate::kustomize::Kustomizations::unreached_beside`]) are taken out and kept aside as patches are.
    pub(super) fn patch_like_source(&mut self, sid: SourceId) {
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
                self.patches.push((sid, document, o.into_root(), false));
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
        // A document with template placeholders is a template, whatever it lacks; with
        // neither kind nor apiVersion, one only in a file of objects (a Helm chart's
        // values.yaml holds templates for other files, and is no manifest).
        if let Some((kind, at)) = placeholder_in(root) {
            let manifest = root.get("kind").is_some() || root.get("apiVersion").is_some();
            self.file_note(sid, DiagKind::Template(kind), at.start);
            if !manifest {
                let note = self.diags.pop().expect("just pushed");
                self.strays.push(note);
            }
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

const DESCRIBE_HELP: &str = "this is `kubectl describe` output, which kubectl cannot apply: save the object with `kubectl get <kind> <name> -o yaml` instead";

/// `kubectl describe` output: `Name:` first, then `Labels:` and `Annotations:` at the start
/// of lines, as describe prints every object (k8s.io/kubectl pkg/describe, `printLabelsMultiline`
/// and `printAnnotationsMultiline` under `Name:`).
fn kubectl_describe_output(text: &str) -> bool {
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    lines.next().is_some_and(|l| l.starts_with("Name:"))
        && text.lines().any(|l| l.starts_with("Labels:"))
        && text.lines().any(|l| l.starts_with("Annotations:"))
}

/// The first line is a shell prompt and command (`$ kubectl get pvc -o yaml`,
/// `user@host:~$ kubectl ...`), pasted above the command's output.
fn shell_prompt_first(text: &str) -> bool {
    let Some(first) = text.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let first = first.trim_start();
    // Not `# kubectl ...`: that is a YAML comment as often as a root prompt.
    first.starts_with("$ ")
        || ["$ kubectl ", "% kubectl ", "> kubectl "]
            .iter()
            .any(|p| first.contains(p))
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

/// The first template placeholder among a tree's scalars (keys included), if any.
fn placeholder_in(n: &Node) -> Option<(crate::template::Kind, Span)> {
    match &n.value {
        crate::node::Value::Scalar(s) => crate::template::in_value(&s.text).map(|k| (k, n.span)),
        crate::node::Value::Map(entries) => entries.iter().find_map(|e| {
            crate::template::in_key(&e.key)
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
