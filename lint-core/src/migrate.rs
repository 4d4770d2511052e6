//! `pvlint migrate`: makes `kubectl get pv,pvc -o yaml` exports safe to apply to another cluster.
//!
//! Pure: named texts in, one YAML document per object out, edited in place in the original
//! text so field order and comments survive (a document in flow style — JSON — is written out
//! again as block YAML, since it has no comments to keep).
//!
//! What keeps each volume re-binding to its claim (pv_controller.go; see
//! syncUnboundClaim, syncBoundClaim, IsVolumeBoundToClaim): the claim is created here with a new UID, so a
//! claimRef that carries the old one never matches it. Two ways would re-bind:
//!
//! - keep `pv.kubernetes.io/bind-completed` on the claim and drop the volume's claimRef
//!   entirely: `syncBoundClaim` binds a volume without claimRef (binder_test "3-3 - bound claim
//!   with unbound volume"), but until the claim is synced the volume is Available and free:
//!   any other matching claim may take it first (order-dependent), and a claim that never
//!   comes leaves it open to anyone;
//! - drop bind-completed (and bound-by-controller) from the claim, keep its `spec.volumeName`,
//!   and keep the volume's claimRef with only name and namespace: `syncUnboundClaim` finds the
//!   named volume, `IsVolumeBoundToClaim` holds (same name and namespace, empty UID), and
//!   `bind` runs with no checks (binder_test "2-4"/"2-5", mutual pre-binding); until then
//!   `syncVolume` keeps the volume Available but reserved: `FindMatchingVolume` skips a volume
//!   whose claimRef names another claim (step 2), whatever the order.
//!
//! migrate does the second, as Velero's restore does (`resetVolumeBindingInfo`). Keeping
//! bind-completed with a claimRef stripped of its UID would be worse than either: a bound
//! claim needs the UIDs to match, and an empty one does not (binder_test "3-6"): Lost,
//! ClaimMisbound. `lint-core/tests/migrate.rs` runs all three through the simulator.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::finding::ObjectRef;
use crate::kube;
use crate::node::Str;
use crate::node::{Entry, Node, Scalar, ScalarKind, Value};
use crate::source::{Pos, Source};
use crate::yaml;

/// Schema of the JSON form of a [`Migration`].
pub const SCHEMA: &str = "pvlint-migrate/v1";

const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
const ANN_BETA_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

/// Fields the API server sets (server-populated-fields reports the same list).
const SERVER_METADATA: &[&str] = &[
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "selfLink",
    "generation",
    "managedFields",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
];

/// What to change besides identity.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MigrateOptions {
    /// Keep each volume's persistentVolumeReclaimPolicy (default: set Retain).
    pub keep_reclaim_policy: bool,
    /// StorageClass names to rename: `{"old": "new"}`.
    pub map_class: BTreeMap<String, String>,
    /// Namespaces to rename (claims, their volumes' claimRefs, every namespaced object).
    pub map_namespace: BTreeMap<String, String>,
}

/// What `api::migrate` takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MigrateRequest {
    pub sources: Vec<Source>,
    pub options: MigrateOptions,
}

/// What was done to one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Removed,
    Set,
    Added,
}

/// One change to one object, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub action: ChangeKind,
    /// Dotted field path (`spec.claimRef.uid`).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// What the target cluster would do without the change.
    pub why: String,
}

/// One object of the output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigratedObject {
    /// The object as it is named in the output (after namespace mapping).
    pub object: ObjectRef,
    /// Where it was in the input.
    pub file: String,
    pub line: u32,
    /// The migrated document, ending in a newline, without `---`.
    pub text: String,
    pub changes: Vec<Change>,
    /// What migrate could not make safe, in a sentence each.
    pub warnings: Vec<String>,
}

/// A document migrate could not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrateError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The result of a migration. With errors, hosts should not write the objects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Migration {
    pub schema: String,
    pub objects: Vec<MigratedObject>,
    pub errors: Vec<MigrateError>,
}

impl Migration {
    /// Every object as one multi-document YAML stream.
    pub fn yaml(&self) -> String {
        let mut out = String::new();
        for (i, o) in self.objects.iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
            }
            out.push_str(&o.text);
        }
        out
    }

    /// How many warnings the objects carry.
    pub fn warning_count(&self) -> usize {
        self.objects.iter().map(|o| o.warnings.len()).sum()
    }
}

/// Migrates every object of the sources.
pub fn migrate(req: &MigrateRequest) -> Migration {
    let mut errors = Vec::new();
    let mut pieces = Vec::new();
    for src in &req.sources {
        split_objects(src, &mut pieces, &mut errors);
    }
    let parsed: Vec<Parsed> = pieces
        .into_iter()
        .filter_map(|p| {
            let (docs, issues) = yaml::parse_stream(&p.text);
            if let Some(i) = issues.first() {
                // Cannot happen for text cut from a document that parsed; report it anyway.
                errors.push(MigrateError {
                    file: p.file.clone(),
                    line: p.line,
                    column: 1,
                    message: format!(
                        "this object could not be read again after splitting: {}",
                        i.message
                    ),
                });
                return None;
            }
            let root = docs.into_iter().next().and_then(|d| d.root)?;
            Some(Parsed {
                file: p.file,
                line: p.line,
                text: p.text,
                root,
            })
        })
        .collect();
    let ctx = Ctx::build(&parsed, &req.options);
    let objects = parsed
        .iter()
        .map(|p| migrate_object(p, &ctx, &req.options))
        .collect();
    Migration {
        schema: SCHEMA.into(),
        objects,
        errors,
    }
}

// ---- splitting the input into one text per object ------------------------------------

struct Piece {
    file: String,
    /// Line of the input where the object starts.
    line: u32,
    text: String,
}

struct Parsed {
    file: String,
    line: u32,
    text: String,
    root: Node,
}

fn split_objects(src: &Source, out: &mut Vec<Piece>, errors: &mut Vec<MigrateError>) {
    for chunk in yaml::split_documents(&src.text) {
        if yaml::is_blank(chunk.text) {
            continue;
        }
        let offset = chunk.first_line - 1;
        let (docs, issues) = yaml::parse_stream(chunk.text);
        if !issues.is_empty() {
            for i in issues {
                errors.push(MigrateError {
                    file: src.name.to_string(),
                    line: i.span.start.line + offset,
                    column: i.span.start.column,
                    message: i.message,
                });
            }
            continue;
        }
        let Some(root) = docs.into_iter().next().and_then(|d| d.root) else {
            continue;
        };
        let lines = Lines::new(chunk.text);
        collect_objects(src, chunk.text, &lines, offset, &root, out, errors);
    }
}

fn is_list(root: &Node) -> bool {
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    (kind == "List" || kind.ends_with("List")) && root.get("items").and_then(Node::as_seq).is_some()
}

fn collect_objects(
    src: &Source,
    text: &str,
    lines: &Lines,
    offset: u32,
    root: &Node,
    out: &mut Vec<Piece>,
    errors: &mut Vec<MigrateError>,
) {
    let error = |errors: &mut Vec<MigrateError>, node: &Node, message: String| {
        errors.push(MigrateError {
            file: src.name.to_string(),
            line: node.span.start.line + offset,
            column: node.span.start.column,
            message,
        })
    };
    let Some(map) = root.as_map() else {
        if !root.is_null() {
            error(
                errors,
                root,
                format!(
                    "this document is a {}, not a Kubernetes object",
                    root.type_name()
                ),
            );
        }
        return;
    };
    let has_str = |k: &str| map.iter().any(|e| e.key == k && e.value.as_str().is_some());
    if !has_str("kind") || !has_str("apiVersion") {
        error(
            errors,
            root,
            "this document has no string apiVersion and kind: it is not a Kubernetes object".into(),
        );
        return;
    }
    if is_list(root) {
        let items = root.get("items").and_then(Node::as_seq).unwrap_or_default();
        let ends: Vec<u32> = items
            .iter()
            .skip(1)
            .map(|n| n.span.start.line)
            .chain(std::iter::once(u32::MAX))
            .collect();
        // The List's own leading comments go with its first item.
        let mut leading: String = (1..root.span.start.line)
            .map(|n| lines.line(n))
            .filter(|l| l.trim_start().starts_with('#'))
            .map(|l| format!("{}\n", l.trim_start()))
            .collect();
        for (item, next) in items.iter().zip(ends) {
            if item.as_map().is_none() {
                error(
                    errors,
                    item,
                    format!(
                        "a List item is a {}, not a Kubernetes object",
                        item.type_name()
                    ),
                );
                continue;
            }
            let mut text = if lines.char_at(item.span.start) == Some('{') {
                emit(item)
            } else {
                // The item's own lines keep its comments and layout; if they do not read back
                // as exactly the item (a layout the cut does not know), it is written out anew.
                let cut = lines.cut_item(item.span.start, next);
                if reads_as(&cut, item) {
                    cut
                } else {
                    emit(item)
                }
            };
            text.insert_str(0, &std::mem::take(&mut leading));
            out.push(Piece {
                file: src.name.to_string(),
                line: item.span.start.line + offset,
                text,
            });
        }
        return;
    }
    let text = if lines.char_at(root.span.start) == Some('{')
        || lines.char_at(root.span.start) == Some('[')
    {
        emit(root)
    } else {
        strip_markers(text)
    };
    out.push(Piece {
        file: src.name.to_string(),
        line: root.span.start.line + offset,
        text,
    });
}

/// A document's text without its `---` / `...` marker lines, ending in a newline.
fn strip_markers(text: &str) -> String {
    let mut out = String::new();
    for l in text.split_inclusive('\n') {
        let content = l.trim_end_matches(['\n', '\r']);
        if yaml::is_marker(content, "...") {
            continue;
        }
        if yaml::is_marker(content, "---") {
            // `--- {a: 1}` or `--- # comment`: keep what follows the marker.
            let rest = content[3..].trim_start();
            if !rest.is_empty() {
                out.push_str(rest);
                out.push('\n');
            }
            continue;
        }
        out.push_str(l);
    }
    let trimmed = out.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    out.truncate(trimmed);
    out.push('\n');
    out
}

/// A text's lines, for turning positions into byte offsets.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// The 1-based line, without its line break.
    fn line(&self, n: u32) -> &'a str {
        let Some(&start) = self.starts.get(n as usize - 1) else {
            return "";
        };
        let end = self
            .starts
            .get(n as usize)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset where a 1-based line starts (the text's length past the end).
    fn line_start(&self, n: u32) -> usize {
        self.starts
            .get(n as usize - 1)
            .copied()
            .unwrap_or(self.text.len())
    }

    fn offset(&self, p: Pos) -> usize {
        let start = self.line_start(p.line);
        let line = &self.text[start..];
        line.char_indices()
            .nth(p.column as usize - 1)
            .map_or(self.text.len(), |(i, _)| start + i)
    }

    fn char_at(&self, p: Pos) -> Option<char> {
        self.text[self.offset(p)..].chars().next()
    }

    /// The lines of a block sequence item whose content starts at `start` and whose next
    /// sibling starts on line `next`, de-indented to a document of its own.
    fn cut_item(&self, start: Pos, next: u32) -> String {
        let first = self.line(start.line);
        let content_col = start.column as usize - 1;
        let mut out: Vec<String> = vec![first.chars().skip(content_col).collect()];
        let mut n = start.line + 1;
        while n <= self.count() && n < next {
            let l = self.line(n);
            let t = l.trim();
            // The item ends at the first line of content left of its own (the next `-`, or the
            // List's next key); blank and comment lines belong to it wherever they start.
            if !t.is_empty() && !t.starts_with('#') && indent(l) < content_col {
                break;
            }
            let strip = indent(l).min(content_col);
            out.push(l[strip..].to_string());
            n += 1;
        }
        while out.last().is_some_and(|l| l.trim().is_empty()) {
            out.pop();
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }
}

/// Whether `text` is one YAML document with the same content as `item`.
fn reads_as(text: &str, item: &Node) -> bool {
    let (docs, issues) = crate::yaml::parse_stream(text);
    issues.is_empty()
        && docs.len() == 1
        && docs[0]
            .root
            .as_ref()
            .is_some_and(|r| crate::node::same_content(r, item))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

// ---- what to change ------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

type Path = Vec<Seg>;

fn path(keys: &[&str]) -> Path {
    keys.iter().map(|k| Seg::Key(k.to_string())).collect()
}

fn display(p: &[Seg]) -> String {
    let mut s = String::new();
    for seg in p {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

fn node_at<'a>(root: &'a Node, p: &[Seg]) -> Option<&'a Node> {
    p.iter().try_fold(root, |n, seg| match seg {
        Seg::Key(k) => n.get(k),
        Seg::Index(i) => n.as_seq()?.get(*i),
    })
}

#[derive(Debug, Clone)]
enum Action {
    /// Remove the map entry the path names.
    Remove(Path),
    /// Replace the scalar at the path with a string.
    Set(Path, String),
    /// Add `key: value` to the map at `map`, after the entry `after`.
    Insert {
        map: Path,
        after: String,
        key: String,
        value: String,
    },
}

#[derive(Default)]
struct Plan {
    actions: Vec<Action>,
    changes: Vec<Change>,
    warnings: Vec<String>,
}

impl Plan {
    fn remove(&mut self, root: &Node, p: Path, why: &str) {
        if node_at(root, &p).is_some() {
            self.changes.push(Change {
                action: ChangeKind::Removed,
                path: display(&p),
                from: None,
                to: None,
                why: why.into(),
            });
            self.actions.push(Action::Remove(p));
        }
    }

    fn set(&mut self, root: &Node, p: Path, to: &str, why: &str) {
        let Some(n) = node_at(root, &p) else { return };
        let from = n
            .as_scalar()
            .map(|s| s.text.to_string())
            .unwrap_or_default();
        if n.as_str() == Some(to) {
            return;
        }
        self.changes.push(Change {
            action: ChangeKind::Set,
            path: display(&p),
            from: Some(from),
            to: Some(to.into()),
            why: why.into(),
        });
        self.actions.push(Action::Set(p, to.into()));
    }
}

/// What migrate knows about every object of the input (names after namespace mapping).
struct Ctx {
    /// Claims by namespace/name: their spec.volumeName.
    claims: HashMap<(String, String), Option<String>>,
    /// Volumes by name: their claimRef's namespace/name.
    volumes: HashMap<String, Option<(String, String)>>,
    /// Volumes by name: their class (GetPersistentVolumeClass: the beta annotation, then
    /// spec.storageClassName; "" for none).
    volume_classes: HashMap<String, String>,
}

fn kind_of(root: &Node) -> (&str, &str) {
    (
        root.get("apiVersion").and_then(Node::as_str).unwrap_or(""),
        root.get("kind").and_then(Node::as_str).unwrap_or(""),
    )
}

fn is_pv(root: &Node) -> bool {
    kind_of(root) == ("v1", "PersistentVolume")
}

fn is_pvc(root: &Node) -> bool {
    kind_of(root) == ("v1", "PersistentVolumeClaim")
}

fn str_at<'a>(root: &'a Node, p: &str) -> Option<&'a str> {
    root.at(p).and_then(Node::as_str)
}

/// Whether objects of this kind live in a namespace.
fn namespaced(root: &Node) -> bool {
    let (api, kind) = kind_of(root);
    crate::model::known_kind(api, kind).is_none_or(|(_, ns)| ns)
}

fn mapped<'a>(map: &'a BTreeMap<String, String>, name: &'a str) -> &'a str {
    map.get(name).map_or(name, String::as_str)
}

impl Ctx {
    fn build(objects: &[Parsed], opts: &MigrateOptions) -> Ctx {
        let mut claims = HashMap::new();
        let mut volumes = HashMap::new();
        let mut volume_classes = HashMap::new();
        for p in objects {
            let r = &p.root;
            if is_pvc(r) {
                let ns = str_at(r, "metadata.namespace").unwrap_or("default");
                let name = str_at(r, "metadata.name").unwrap_or("").to_string();
                let volume = str_at(r, "spec.volumeName")
                    .filter(|v| !v.is_empty())
                    .map(String::from);
                claims.insert((mapped(&opts.map_namespace, ns).to_string(), name), volume);
            } else if is_pv(r) {
                let name = str_at(r, "metadata.name").unwrap_or("").to_string();
                let claim = r.at("spec.claimRef").filter(|c| !c.is_null()).map(|c| {
                    let ns = c.get("namespace").and_then(Node::as_str).unwrap_or("");
                    let n = c.get("name").and_then(Node::as_str).unwrap_or("");
                    (mapped(&opts.map_namespace, ns).to_string(), n.to_string())
                });
                let class = node_at(r, &ann(ANN_BETA_CLASS))
                    .and_then(Node::as_str)
                    .or_else(|| str_at(r, "spec.storageClassName"))
                    .unwrap_or("");
                volume_classes.insert(name.clone(), class.to_string());
                volumes.insert(name, claim);
            }
        }
        Ctx {
            claims,
            volumes,
            volume_classes,
        }
    }
}

const WHY_SERVER: &str = "set by the API server of the source cluster; the target sets its own (kubectl clears resourceVersion when it creates the object, but every later apply sends the stale one and fails with a Conflict)";
const WHY_STATUS: &str = "written by the source cluster's controllers; the target computes its own";
const WHY_OWNERS: &str = "names owners by their UIDs in the source cluster: here no object has those UIDs, and the garbage collector deletes an object whose owners are all gone";
const WHY_CLAIMREF_UID: &str = "the claim gets a new UID in the target cluster: with the old one kept, the volume never matches it (syncVolume Releases it, and reclaims it by its policy)";
const WHY_CLAIMREF_RV: &str =
    "the claim's resourceVersion in the source cluster; meaningless in the target";
const WHY_PV_BBC: &str = "the volume is re-bound here as a pre-binding by name (as Velero restores it); with bound-by-controller, the controller would drop the claimRef if the claim bound elsewhere, freeing the volume for any claim";
const WHY_BIND_COMPLETED: &str = "a claim marked bound needs its volume's claimRef to carry its UID, which cannot be known before it is created: it would go Lost (ClaimMisbound); unmarked, it binds to spec.volumeName, whose claimRef names it";
const WHY_PVC_BBC: &str = "a controller's mark of the source cluster's binding; the binding here is the pre-binding by spec.volumeName";
const WHY_SELECTED_NODE: &str =
    "names a node of the source cluster; the scheduler sets it again in the target when it matters";
const WHY_RETAIN: &str = "the storage may still be used by the source cluster: with Retain, deleting the claim or the volume here can never delete it (--keep-reclaim-policy keeps the policy)";
const WHY_NAMESPACE: &str = "--map-namespace";
const WHY_CLASS: &str = "--map-class";
const WHY_NO_CLASS: &str = "the claim names no class and neither does its volume: in a cluster with a default StorageClass, admission (DefaultStorageClass) gives the claim that class; it still binds (claim and volume name each other, so no classes are compared) but then carries a class its volume does not have (storage-class-mismatch); an explicit \"\" keeps it class-less, as its volume is";

fn migrate_object(p: &Parsed, ctx: &Ctx, opts: &MigrateOptions) -> MigratedObject {
    let plan = plan(&p.root, ctx, opts);
    let text = if plan.actions.is_empty() {
        p.text.clone()
    } else {
        apply_text(&p.text, &p.root, &plan.actions)
            .filter(|t| verifies(t, ctx, opts))
            .unwrap_or_else(|| {
                let mut root = p.root.clone();
                for a in &plan.actions {
                    apply_tree(&mut root, a);
                }
                emit(&root)
            })
    };
    let (api, kind) = kind_of(&p.root);
    let name = str_at(&p.root, "metadata.name")
        .or_else(|| str_at(&p.root, "metadata.generateName"))
        .unwrap_or("")
        .to_string();
    let namespace = namespaced(&p.root).then(|| {
        mapped(
            &opts.map_namespace,
            str_at(&p.root, "metadata.namespace").unwrap_or("default"),
        )
        .to_string()
    });
    let mut warnings = plan.warnings;
    if text != p.text
        && p.text.lines().any(|l| l.trim_start().starts_with('#'))
        && !is_block_edit_of(&p.text, &text)
    {
        warnings.push("its comments could not be kept: the object is written in flow style and was written out again".into());
    }
    MigratedObject {
        object: ObjectRef {
            api_version: Str::from(api),
            kind: Str::from(kind),
            namespace: namespace.map(Str::from),
            name: Str::from(name),
        },
        file: p.file.clone(),
        line: p.line,
        text,
        changes: plan.changes,
        warnings,
    }
}

/// Whether `after` kept every comment line of `before` (the text was edited in place).
fn is_block_edit_of(before: &str, after: &str) -> bool {
    let comments = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .map(|l| l.trim().to_string())
            .collect()
    };
    let a = comments(after);
    comments(before).iter().all(|c| a.contains(c))
}

/// The edited text reads back as YAML and needs no further change.
fn verifies(text: &str, ctx: &Ctx, opts: &MigrateOptions) -> bool {
    let (docs, issues) = yaml::parse_stream(text);
    if !issues.is_empty() || docs.len() != 1 {
        return false;
    }
    match docs.into_iter().next().and_then(|d| d.root) {
        Some(root) => plan(&root, ctx, opts).actions.is_empty(),
        None => false,
    }
}

fn plan(root: &Node, ctx: &Ctx, opts: &MigrateOptions) -> Plan {
    let mut plan = Plan::default();
    for k in SERVER_METADATA {
        plan.remove(root, path(&["metadata", k]), WHY_SERVER);
    }
    plan.remove(root, path(&["metadata", "ownerReferences"]), WHY_OWNERS);
    plan.remove(root, path(&["status"]), WHY_STATUS);
    if namespaced(root) {
        match str_at(root, "metadata.namespace") {
            Some(ns) => {
                if let Some(to) = opts.map_namespace.get(ns) {
                    plan.set(root, path(&["metadata", "namespace"]), to, WHY_NAMESPACE);
                }
            }
            None => {
                if let (Some(to), Some(meta)) =
                    (opts.map_namespace.get("default"), root.get("metadata"))
                {
                    if let Some(last) = meta
                        .as_map()
                        .and_then(|m| m.iter().find(|e| e.key == "name").or(m.last()))
                    {
                        plan.changes.push(Change {
                            action: ChangeKind::Added,
                            path: "metadata.namespace".into(),
                            from: None,
                            to: Some(to.clone()),
                            why: "--map-namespace (the object had no namespace: default)".into(),
                        });
                        plan.actions.push(Action::Insert {
                            map: path(&["metadata"]),
                            after: last.key.to_string(),
                            key: "namespace".into(),
                            value: to.clone(),
                        });
                    }
                }
            }
        }
    }
    map_beta_class(root, &mut plan, opts);
    if is_pv(root) {
        plan_volume(root, ctx, opts, &mut plan);
    } else if is_pvc(root) {
        plan_claim(root, ctx, opts, &mut plan);
    } else if kind_of(root).1 == "StatefulSet" {
        if let Some(ts) = root.at("spec.volumeClaimTemplates").and_then(Node::as_seq) {
            for (i, t) in ts.iter().enumerate() {
                if let Some(c) = t.at("spec.storageClassName").and_then(Node::as_str) {
                    if let Some(to) = opts.map_class.get(c) {
                        let mut p = path(&["spec", "volumeClaimTemplates"]);
                        p.push(Seg::Index(i));
                        p.extend(path(&["spec", "storageClassName"]));
                        plan.set(root, p, to, WHY_CLASS);
                    }
                }
            }
        }
    }
    coalesce(root, &mut plan.actions);
    plan
}

fn ann(key: &str) -> Path {
    path(&["metadata", "annotations", key])
}

fn map_beta_class(root: &Node, plan: &mut Plan, opts: &MigrateOptions) {
    if !(is_pv(root) || is_pvc(root)) {
        return;
    }
    if let Some(c) = str_at(root, "spec.storageClassName") {
        if let Some(to) = opts.map_class.get(c) {
            plan.set(root, path(&["spec", "storageClassName"]), to, WHY_CLASS);
        }
    }
    let beta = ann(ANN_BETA_CLASS);
    if let Some(c) = node_at(root, &beta).and_then(Node::as_str) {
        if let Some(to) = opts.map_class.get(c) {
            plan.set(root, beta, to, WHY_CLASS);
        }
    }
}

fn plan_volume(root: &Node, ctx: &Ctx, opts: &MigrateOptions, plan: &mut Plan) {
    let name = str_at(root, "metadata.name").unwrap_or("");
    let claim_ref = root.at("spec.claimRef").filter(|c| c.as_map().is_some());
    if let Some(cr) = claim_ref {
        plan.remove(root, path(&["spec", "claimRef", "uid"]), WHY_CLAIMREF_UID);
        plan.remove(
            root,
            path(&["spec", "claimRef", "resourceVersion"]),
            WHY_CLAIMREF_RV,
        );
        let ns = cr.get("namespace").and_then(Node::as_str).unwrap_or("");
        if let Some(to) = opts.map_namespace.get(ns) {
            plan.set(
                root,
                path(&["spec", "claimRef", "namespace"]),
                to,
                WHY_NAMESPACE,
            );
        }
        let key = (
            mapped(&opts.map_namespace, ns).to_string(),
            cr.get("name")
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string(),
        );
        match ctx.claims.get(&key) {
            None => plan.warnings.push(format!(
                "its claim {}/{} is not in the input: the volume stays Available, reserved for a claim of that name (its claimRef keeps name and namespace), and binds when that claim is created",
                key.0, key.1
            )),
            Some(Some(v)) if v != name => plan.warnings.push(format!(
                "its claim {}/{} names volume {v}: this volume stays Available, reserved for that claim, and is not used",
                key.0, key.1
            )),
            _ => {}
        }
    }
    plan.remove(root, ann(kube::ANN_BOUND_BY_CONTROLLER), WHY_PV_BBC);
    let policy = path(&["spec", "persistentVolumeReclaimPolicy"]);
    if let Some(p) = node_at(root, &policy).and_then(Node::as_str) {
        if p != "Retain" {
            if opts.keep_reclaim_policy {
                if p == "Delete" {
                    plan.warnings.push("it keeps reclaimPolicy Delete (--keep-reclaim-policy): when its claim is deleted here, the target cluster deletes the storage, which the source cluster may still use".into());
                }
            } else {
                plan.set(root, policy, "Retain", WHY_RETAIN);
            }
        }
    }
}

fn plan_claim(root: &Node, ctx: &Ctx, opts: &MigrateOptions, plan: &mut Plan) {
    let ns = mapped(
        &opts.map_namespace,
        str_at(root, "metadata.namespace").unwrap_or("default"),
    )
    .to_string();
    let name = str_at(root, "metadata.name").unwrap_or("").to_string();
    let bind_completed = node_at(root, &ann(kube::ANN_BIND_COMPLETED)).is_some();
    plan.remove(root, ann(kube::ANN_BIND_COMPLETED), WHY_BIND_COMPLETED);
    plan.remove(root, ann(kube::ANN_BOUND_BY_CONTROLLER), WHY_PVC_BBC);
    plan.remove(root, ann(ANN_SELECTED_NODE), WHY_SELECTED_NODE);
    let volume = str_at(root, "spec.volumeName").filter(|v| !v.is_empty());
    // PersistentVolumeClaimHasClass: the beta annotation or spec.storageClassName (even "").
    // A null spec.storageClassName is unset (admission gives such a claim the default).
    let null_class = root.at("spec.storageClassName").is_some_and(Node::is_null);
    let has_class = node_at(root, &ann(ANN_BETA_CLASS)).is_some()
        || root
            .at("spec.storageClassName")
            .is_some_and(|n| !n.is_null());
    let classless_volume = volume
        .and_then(|v| ctx.volume_classes.get(v))
        .is_some_and(|c| c.is_empty());
    if !has_class && classless_volume && null_class {
        plan.set(root, path(&["spec", "storageClassName"]), "", WHY_NO_CLASS);
    } else if !has_class && classless_volume {
        if let Some(spec) = root.get("spec").and_then(Node::as_map) {
            if let Some(after) = spec.iter().find(|e| e.key == "resources").or(spec.last()) {
                plan.changes.push(Change {
                    action: ChangeKind::Added,
                    path: "spec.storageClassName".into(),
                    from: None,
                    to: Some(String::new()),
                    why: WHY_NO_CLASS.into(),
                });
                plan.actions.push(Action::Insert {
                    map: path(&["spec"]),
                    after: after.key.to_string(),
                    key: "storageClassName".into(),
                    value: String::new(),
                });
            }
        }
    }
    match volume {
        Some(v) => match ctx.volumes.get(v) {
            None => plan.warnings.push(format!(
                "its volume {v} is not in the input: the claim stays Pending until a PersistentVolume named {v} exists (export it too, or remove spec.volumeName to provision a new, empty volume)"
            )),
            Some(Some(holder)) if holder != &(ns.clone(), name.clone()) => plan.warnings.push(format!(
                "its volume {v} is reserved for another claim, {}/{}: this claim stays Pending (FailedBinding)",
                holder.0, holder.1
            )),
            _ => {}
        },
        None if bind_completed => plan.warnings.push(
            "it was marked bound but names no volume (Lost in the source cluster): here it binds any matching volume, or a new empty one is provisioned".into(),
        ),
        None => {}
    }
}

/// Drops actions inside removed entries, and removes a map whose entries are all removed.
fn coalesce(root: &Node, actions: &mut Vec<Action>) {
    loop {
        let removed: Vec<Path> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Remove(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        // A map all of whose entries go: remove its own entry instead.
        let mut parents: Vec<Path> = Vec::new();
        for p in &removed {
            let parent = p[..p.len() - 1].to_vec();
            if parent.is_empty()
                || parents.contains(&parent)
                || !matches!(parent.last(), Some(Seg::Key(_)))
            {
                continue;
            }
            let Some(map) = node_at(root, &parent).and_then(Node::as_map) else {
                continue;
            };
            let all = map.iter().all(|e| {
                let mut q = parent.clone();
                q.push(Seg::Key(e.key.to_string()));
                removed.contains(&q)
            });
            if all && !removed.contains(&parent) {
                parents.push(parent);
            }
        }
        let before = actions.len();
        for p in parents {
            actions.push(Action::Remove(p));
        }
        let removed: Vec<Path> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Remove(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let inside = |p: &Path| {
            removed
                .iter()
                .any(|r| r.len() < p.len() && p.starts_with(r))
        };
        actions.retain(|a| match a {
            Action::Remove(p) | Action::Set(p, _) => !inside(p),
            Action::Insert { map, .. } => !inside(map) && !removed.contains(map),
        });
        if actions.len() == before {
            break;
        }
    }
}

// ---- applying the changes to the text --------------------------------------------------

/// Edits the text in place; None when an edit touches flow-style YAML or a multi-line scalar.
fn apply_text(text: &str, root: &Node, actions: &[Action]) -> Option<String> {
    let lines = Lines::new(text);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for a in actions {
        match a {
            Action::Remove(p) => {
                let (parent, key) = p.split_at(p.len() - 1);
                let Seg::Key(key) = &key[0] else { return None };
                let pnode = node_at(root, parent)?;
                if lines.char_at(pnode.span.start) == Some('{') {
                    return None;
                }
                let entry = pnode.entry(key)?;
                let (first, last) = entry_lines(&lines, entry)?;
                edits.push((
                    lines.line_start(first),
                    lines.line_start(last + 1),
                    String::new(),
                ));
            }
            Action::Set(p, to) => {
                let n = node_at(root, p)?;
                if n.span.start.line != n.span.end.line || n.as_scalar().is_none() {
                    return None;
                }
                let (a, b) = (lines.offset(n.span.start), lines.offset(n.span.end));
                let quote = text[a..].chars().next();
                let new = match quote {
                    Some('"') => serde_json::to_string(to).ok()?,
                    Some('\'') => format!("'{}'", to.replace('\'', "''")),
                    _ => format_str(to),
                };
                edits.push((a, b, new));
            }
            Action::Insert {
                map,
                after,
                key,
                value,
            } => {
                let m = node_at(root, map)?;
                if lines.char_at(m.span.start) == Some('{') {
                    return None;
                }
                let entry = m.entry(after)?;
                let (first, last) = entry_lines(&lines, entry)?;
                let ind = indent(lines.line(first));
                let at = lines.line_start(last + 1);
                let mut line = format!(
                    "{}{}: {}\n",
                    " ".repeat(ind),
                    format_str(key),
                    format_str(value)
                );
                if at == text.len() && !text.ends_with('\n') {
                    line.insert(0, '\n');
                }
                edits.push((at, at, line));
            }
        }
    }
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    for w in edits.windows(2) {
        // Sorted from the end: the later edit must start at or after the earlier one's end.
        if w[1].1 > w[0].0 && !(w[1].0 == w[1].1 && w[1].0 == w[0].0) {
            return None;
        }
    }
    let mut out = text.to_string();
    for (a, b, s) in edits {
        out.replace_range(a..b, &s);
    }
    Some(out)
}

/// The lines a block-map entry spans: its key's line to the last line of its value
/// (more-indented lines, and `- ` items at the key's own indentation, kubectl's style).
fn entry_lines(lines: &Lines, e: &Entry) -> Option<(u32, u32)> {
    let first = e.key_span.start.line;
    let l = lines.line(first);
    let key_indent = e.key_span.start.column as usize - 1;
    // The key must start its line (not `- key:` or `{key: ...}`).
    if indent(l) != key_indent || l.len() < key_indent {
        return None;
    }
    let mut last = first;
    let mut n = first + 1;
    while n <= lines.count() {
        let t = lines.line(n);
        if t.trim().is_empty() {
            n += 1;
            continue;
        }
        let i = indent(t);
        let item = i == key_indent && (t[i..].starts_with("- ") || &t[i..] == "-");
        if i > key_indent || item {
            last = n;
            n += 1;
        } else {
            break;
        }
    }
    // The value must not run past what the parser saw (a flow collection closing later).
    let end = e.value.span.end;
    if end.line > last
        && !(end.column == 1 && end.line == last + 1)
        && !value_ends_by(lines, e, last)
    {
        return None;
    }
    Some((first, last))
}

/// A block scalar's span ends at the next token; everything up to `last` is still its own.
fn value_ends_by(lines: &Lines, e: &Entry, last: u32) -> bool {
    let end = e.value.span.end;
    (last + 1..end.line).all(|n| lines.line(n).trim().is_empty())
        && lines
            .line(end.line)
            .chars()
            .take(end.column as usize - 1)
            .all(|c| c == ' ')
}

fn apply_tree(root: &mut Node, a: &Action) {
    fn at_mut<'a>(n: &'a mut Node, p: &[Seg]) -> Option<&'a mut Node> {
        p.iter().try_fold(n, |n, seg| match (seg, &mut n.value) {
            (Seg::Key(k), Value::Map(m)) => {
                m.iter_mut().find(|e| &e.key == k).map(|e| &mut e.value)
            }
            (Seg::Index(i), Value::Seq(s)) => s.get_mut(*i),
            _ => None,
        })
    }
    match a {
        Action::Remove(p) => {
            let (parent, key) = p.split_at(p.len() - 1);
            if let (Some(n), Seg::Key(k)) = (at_mut(root, parent), &key[0]) {
                if let Value::Map(m) = &mut n.value {
                    let mut v = std::mem::take(m).into_vec();
                    v.retain(|e| &e.key != k);
                    *m = v.into_boxed_slice();
                }
            }
        }
        Action::Set(p, to) => {
            if let Some(n) = at_mut(root, p) {
                n.value = Value::Scalar(Scalar {
                    text: to.clone().into(),
                    kind: ScalarKind::Str,
                });
            }
        }
        Action::Insert {
            map,
            after,
            key,
            value,
        } => {
            if let Some(Node {
                value: Value::Map(m),
                span,
            }) = at_mut(root, map)
            {
                let at = m
                    .iter()
                    .position(|e| &e.key == after)
                    .map_or(m.len(), |i| i + 1);
                let span = *span;
                let mut v = std::mem::take(m).into_vec();
                v.insert(
                    at,
                    Entry {
                        key: key.clone().into(),
                        key_span: span,
                        value: Node {
                            value: Value::Scalar(Scalar {
                                text: value.clone().into(),
                                kind: ScalarKind::Str,
                            }),
                            span,
                        },
                    },
                );
                *m = v.into_boxed_slice();
            }
        }
    }
}

// ---- writing a tree out as block YAML ------------------------------------------------------

/// Block YAML for a node (kubectl's style: sequence items at their key's indentation).
fn emit(n: &Node) -> String {
    let mut out = String::new();
    match &n.value {
        Value::Map(m) if !m.is_empty() => emit_map(&mut out, m, 0),
        Value::Seq(s) if !s.is_empty() => emit_seq(&mut out, s, 0),
        _ => {
            out.push_str(&inline(n));
            out.push('\n');
        }
    }
    out
}

fn inline(n: &Node) -> String {
    match &n.value {
        Value::Scalar(s) => match s.kind {
            ScalarKind::Str => format_str(&s.text),
            ScalarKind::Null => "null".into(),
            _ => s.text.to_string(),
        },
        Value::Map(_) => "{}".into(),
        Value::Seq(_) => "[]".into(),
    }
}

fn emit_map(out: &mut String, m: &[Entry], ind: usize) {
    for e in m {
        out.push_str(&" ".repeat(ind));
        out.push_str(&format_str(&e.key));
        out.push(':');
        emit_value(out, &e.value, ind);
    }
}

/// After `key:` (at indentation `ind`).
fn emit_value(out: &mut String, v: &Node, ind: usize) {
    match &v.value {
        Value::Map(m) if !m.is_empty() => {
            out.push('\n');
            emit_map(out, m, ind + 2);
        }
        Value::Seq(s) if !s.is_empty() => {
            out.push('\n');
            emit_seq(out, s, ind);
        }
        _ => {
            out.push(' ');
            out.push_str(&inline(v));
            out.push('\n');
        }
    }
}

fn emit_seq(out: &mut String, s: &[Node], ind: usize) {
    for item in s {
        match &item.value {
            Value::Map(m) if !m.is_empty() => {
                // The map at ind + 2, its first line's indentation turned into `- `.
                let mut block = String::new();
                emit_map(&mut block, m, ind + 2);
                out.push_str(&" ".repeat(ind));
                out.push_str("- ");
                out.push_str(&block[ind + 2..]);
            }
            Value::Seq(inner) if !inner.is_empty() => {
                out.push_str(&" ".repeat(ind));
                out.push_str("-\n");
                emit_seq(out, inner, ind + 2);
            }
            _ => {
                out.push_str(&" ".repeat(ind));
                out.push_str("- ");
                out.push_str(&inline(item));
                out.push('\n');
            }
        }
    }
}

/// A string as a plain scalar when it reads back as the same string, else double-quoted.
fn format_str(t: &str) -> String {
    let plain = !t.is_empty()
        && crate::scalar::plain_is_same_string(t)
        && !t.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` \t".contains(c))
        && !t.ends_with([' ', ':', '\t'])
        && !t.contains(": ")
        && !t.contains(" #")
        && !t.chars().any(|c| c.is_control() || c == '\u{feff}');
    if plain {
        t.to_string()
    } else {
        serde_json::to_string(t).unwrap_or_else(|_| format!("\"{t}\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, opts: MigrateOptions) -> Migration {
        migrate(&MigrateRequest {
            sources: vec![Source::new("in.yaml", text)],
            options: opts,
        })
    }

    #[test]
    fn list_items_become_documents_with_comments() {
        let m = run(
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    # keep me\n    name: a\n    uid: x\n  spec:\n    persistentVolumeReclaimPolicy: Delete\n    capacity:\n      storage: 1Gi\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: n\n    resourceVersion: \"5\"\n  data:\n    k: |\n      line\n",
            MigrateOptions::default(),
        );
        assert!(m.errors.is_empty(), "{:?}", m.errors);
        assert_eq!(m.objects.len(), 2);
        assert_eq!(
            m.objects[0].text,
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  # keep me\n  name: a\nspec:\n  persistentVolumeReclaimPolicy: Retain\n  capacity:\n    storage: 1Gi\n"
        );
        assert_eq!(
            m.objects[1].text,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: n\ndata:\n  k: |\n    line\n"
        );
        assert_eq!(m.objects[0].line, 4);
    }

    /// Layouts of List items that once lost fields silently: a comment at column 0 inside the
    /// last item, and items whose content starts on the line after the `-`.
    #[test]
    fn list_items_keep_every_field_whatever_their_layout() {
        let pv = |name: &str| {
            format!("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {name}\nspec:\n  capacity:\n    storage: 1Gi\n  persistentVolumeReclaimPolicy: Retain\n")
        };
        let m = run(
            "kind: List\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n# the spec\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n",
            MigrateOptions::default(),
        );
        assert!(m.errors.is_empty(), "{:?}", m.errors);
        assert_eq!(m.objects.len(), 1);
        assert_eq!(m.objects[0].text.replace("# the spec\n", ""), pv("a"));
        for items in [
            "kind: List\nitems:\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n",
            "items:\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: a\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\n-\n  apiVersion: v1\n  kind: PersistentVolume\n  metadata:\n    name: b\n  spec:\n    capacity:\n      storage: 1Gi\n    persistentVolumeReclaimPolicy: Retain\nkind: List\n",
        ] {
            let m = run(&format!("apiVersion: v1\n{items}"), MigrateOptions::default());
            assert!(m.errors.is_empty(), "{:?}", m.errors);
            let texts: Vec<&str> = m.objects.iter().map(|o| o.text.as_str()).collect();
            let want = [pv("a"), pv("b")];
            assert_eq!(texts, want[..m.objects.len()].iter().map(String::as_str).collect::<Vec<_>>());
            assert_eq!(m.objects.len(), items.matches("name: ").count());
        }
    }

    #[test]
    fn emptied_maps_go_and_block_scalars_are_removed_whole() {
        let m = run(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  annotations:\n    pv.kubernetes.io/bind-completed: \"yes\"\n    pv.kubernetes.io/bound-by-controller: \"yes\"\n  managedFields:\n  - manager: x\n    fieldsV1:\n      f:a: {}\n  name: c\nspec:\n  volumeName: v\nstatus:\n  phase: Bound\n  message: |\n    two\n    lines\n\n",
            MigrateOptions::default(),
        );
        assert_eq!(
            m.objects[0].text,
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\nspec:\n  volumeName: v\n"
        );
    }

    #[test]
    fn json_is_written_out_as_block_yaml() {
        let m = run(
            r#"{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "a", "uid": "u", "labels": {"x": "yes"}}, "spec": {"accessModes": ["ReadWriteOnce"], "claimRef": {"name": "c", "namespace": "ns", "uid": "u2"}, "persistentVolumeReclaimPolicy": "Delete", "capacity": {"storage": "1Gi"}}, "status": {"phase": "Bound"}}"#,
            MigrateOptions::default(),
        );
        assert_eq!(
            m.objects[0].text,
            "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: a\n  labels:\n    x: \"yes\"\nspec:\n  accessModes:\n  - ReadWriteOnce\n  claimRef:\n    name: c\n    namespace: ns\n  persistentVolumeReclaimPolicy: Retain\n  capacity:\n    storage: 1Gi\n"
        );
    }

    /// A date or a clock time in an annotation is written quoted: a YAML 1.1 reader (PyYAML,
    /// yq) would take it for a timestamp or a sexagesimal number.
    #[test]
    fn dates_and_times_are_quoted_when_written_out() {
        let m = run(
            r#"{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "a", "annotations": {"backup/at": "2019-12-01T13:50:44-07:00", "backup/day": "2019-12-01", "window": "12:30:00"}}, "spec": {"capacity": {"storage": "1Gi"}}}"#,
            MigrateOptions::default(),
        );
        let text = &m.objects[0].text;
        for line in [
            "backup/at: \"2019-12-01T13:50:44-07:00\"",
            "backup/day: \"2019-12-01\"",
            "window: \"12:30:00\"",
        ] {
            assert!(text.contains(line), "{line}\n{text}");
        }
    }

    #[test]
    fn namespace_is_added_when_default_is_mapped() {
        let mut o = MigrateOptions::default();
        o.map_namespace.insert("default".into(), "prod".into());
        let m = run(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  labels:\n    a: b\nspec: {}\n",
            o,
        );
        assert_eq!(
            m.objects[0].text,
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  namespace: prod\n  labels:\n    a: b\nspec: {}\n"
        );
        assert_eq!(m.objects[0].object.namespace.as_deref(), Some("prod"));
    }

    #[test]
    fn emitter_round_trips() {
        for t in [
            "a:\n- b: 1\n  c:\n  - x\n  - - y\n- z\nd: {}\ne: []\nf: null\ng: \"1\"\nh: \"a: b\"\n",
            "k:\n  l:\n  - m:\n      n: o\n",
        ] {
            let (docs, issues) = yaml::parse_stream(t);
            assert!(issues.is_empty());
            let root = docs[0].root.as_ref().unwrap();
            let out = emit(root);
            let (again, issues) = yaml::parse_stream(&out);
            assert!(issues.is_empty(), "{out}");
            assert_eq!(emit(again[0].root.as_ref().unwrap()), out);
        }
    }

    #[test]
    fn broken_documents_are_errors_with_positions() {
        let m = run(
            "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: [\n---\n- a\n",
            MigrateOptions::default(),
        );
        assert_eq!(m.errors.len(), 2, "{:?}", m.errors);
        assert_eq!(m.errors[1].line, 5);
    }
}
