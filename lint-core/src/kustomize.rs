//! Files a Kustomization uses as something other than resources: patches (strategic-merge and
//! JSON 6902), generator inputs (configMapGenerator / secretGenerator `files` and `envs`) and
//! Helm values files. Such a file is never sent to the API server as written — a patch is
//! partial by design and `kustomize build` merges it into the base — so pvlint must not check
//! it as an object (a strategic-merge patch of a claim has no accessModes, and that is fine).
//!
//! Kustomize (sigs.k8s.io/kustomize/api/types/kustomization.go) resolves these paths relative to
//! the kustomization file's folder; the file is named `kustomization.yaml`,
//! `kustomization.yml` or `Kustomization` (konfig.RecognizedKustomizationFileNames).

use std::collections::HashMap;

use crate::node::Node;
use crate::source::{Source, Span};
use crate::yaml;

/// A source that a kustomization in the input uses as a patch or generator input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsedBy {
    /// The kustomization file's source id.
    pub kustomization: usize,
    /// Where the kustomization names this file.
    pub at: Span,
    /// The field that names it (`patches`, `patchesStrategicMerge`, ...).
    pub field: &'static str,
}

const NAMES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// The kustomizations among a request's sources, each parsed once, with the tables that
/// resolve the paths they name: built once per request, so that what every kustomization
/// reaches costs what it reaches, not the whole input again (a GitOps repository has a
/// thousand kustomization roots).
pub struct Kustomizations<'a> {
    sources: &'a [Source],
    /// The kustomization files' source ids, ascending.
    ids: Vec<usize>,
    /// Each kustomization's root node (its first document), by source id.
    roots: HashMap<usize, Node>,
    /// Every source by its normalized path.
    by_path: HashMap<String, usize>,
    /// The sources directly in each folder, ascending.
    by_dir: HashMap<String, Vec<usize>>,
}

impl<'a> Kustomizations<'a> {
    /// Reads the kustomizations of `sources`; with none, nothing else is read.
    pub fn of(sources: &'a [Source]) -> Self {
        let ids: Vec<usize> = (0..sources.len())
            .filter(|&i| is_kustomization(&sources[i].name))
            .collect();
        let mut k = Kustomizations {
            sources,
            ids,
            roots: HashMap::new(),
            by_path: HashMap::new(),
            by_dir: HashMap::new(),
        };
        if k.ids.is_empty() {
            return k;
        }
        for &id in &k.ids {
            let (docs, _) = yaml::parse_stream(&sources[id].text);
            if let Some(root) = docs.into_iter().find_map(|d| d.root) {
                k.roots.insert(id, root);
            }
        }
        for (i, s) in sources.iter().enumerate() {
            let path = normalize(&s.name);
            k.by_dir.entry(parent(&path)).or_default().push(i);
            k.by_path.insert(path, i);
        }
        k
    }

    /// The kustomization files' source ids, ascending.
    pub fn ids(&self) -> &[usize] {
        &self.ids
    }

    /// The sources that a kustomization among `sources` names as patches or generator inputs.
    pub fn non_resources(&self) -> HashMap<usize, UsedBy> {
        let mut out = HashMap::new();
        for &k in &self.ids {
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let dir = parent(&normalize(&self.sources[k].name));
            for (field, node) in named_files(root) {
                let Some(path) = node.as_str() else { continue };
                let target = normalize(&join(&dir, path));
                if let Some(&sid) = self.by_path.get(&target) {
                    if sid != k {
                        out.entry(sid).or_insert(UsedBy {
                            kustomization: k,
                            at: node.span,
                            field,
                        });
                    }
                }
            }
        }
        out
    }

    /// Files beside a kustomization that no kustomization of the input reaches (neither a
    /// resource nor a patch or generator input): kept in the folder but not applied by
    /// `kubectl apply -k`, they are variants and commented-out patches (`manager_auth_proxy_patch.yaml`
    /// beside a kustomization whose `patches:` line is commented out). They are read as patches
    /// are when the kustomization names them: as the object if complete, left out if partial.
    pub fn unreached_beside(&self) -> std::collections::HashSet<usize> {
        let mut out = std::collections::HashSet::new();
        if self.ids.is_empty() {
            return out;
        }
        let sources = self.sources;
        let dirs: std::collections::HashSet<String> = self
            .ids
            .iter()
            .map(|&k| parent(&normalize(&sources[k].name)))
            .collect();
        let mut reached = vec![false; sources.len()];
        for &k in &self.ids {
            for i in self.reach(k).0 {
                reached[i] = true;
            }
        }
        for i in self.non_resources().into_keys() {
            reached[i] = true;
        }
        for (i, s) in sources.iter().enumerate() {
            if !reached[i]
                && !is_kustomization(&s.name)
                && dirs.contains(&parent(&normalize(&s.name)))
            {
                out.insert(i);
            }
        }
        out
    }

    /// The sources a kustomization's `resources` (and the older `bases`, and `components`)
    /// reach, each through the kustomizations of the directories it names, and the patch and
    /// generator inputs they use: everything `kubectl apply -k` reads for it, among `sources`.
    /// A directory without a kustomization in the input stands for the sources directly in it.
    /// The kustomizations reached are returned too (they are not roots).
    pub fn reach(&self, kustomization: usize) -> (Vec<usize>, Vec<usize>) {
        let sources = self.sources;
        let mut seen = std::collections::HashSet::new();
        let mut reached = Vec::new();
        let mut nested = Vec::new();
        let mut todo = vec![kustomization];
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            reached.push(k);
            if k != kustomization {
                nested.push(k);
            }
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let dir = parent(&normalize(&sources[k].name));
            let mut targets: Vec<String> = named_files(root)
                .into_iter()
                .filter_map(|(_, n)| n.as_str().map(|p| normalize(&join(&dir, p))))
                .collect();
            for key in ["resources", "bases", "components"] {
                for r in root.get(key).and_then(Node::as_seq).unwrap_or(&[]) {
                    if let Some(p) = r.as_str().filter(|p| !p.contains("://")) {
                        targets.push(normalize(&join(&dir, p)));
                    }
                }
            }
            for t in targets {
                if let Some(&sid) = self.by_path.get(&t) {
                    if !seen.contains(&sid) {
                        if is_kustomization(&sources[sid].name) {
                            todo.push(sid);
                        } else {
                            seen.insert(sid);
                            reached.push(sid);
                        }
                    }
                    continue;
                }
                // A directory: its kustomization, or else every file directly in it.
                let members = self.by_dir.get(&t).map_or(&[][..], Vec::as_slice);
                match members
                    .iter()
                    .find(|&&m| is_kustomization(&sources[m].name))
                {
                    Some(&k) => todo.push(k),
                    None => {
                        for &m in members {
                            if seen.insert(m) {
                                reached.push(m);
                            }
                        }
                    }
                }
            }
        }
        reached.sort_unstable();
        nested.sort_unstable();
        (reached, nested)
    }

    /// The sources whose objects a kustomization in `sources` labels, selectors included:
    /// `commonLabels`, or `labels` with `includeSelectors: true` (kustomize's label transformers
    /// write the labels into `spec.selector` and the pod template too). Such an object's selector,
    /// as written, is not what reaches the API server.
    pub fn selector_labelled(&self) -> std::collections::HashSet<usize> {
        let mut out = std::collections::HashSet::new();
        for &k in &self.ids {
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let common = root
                .get("commonLabels")
                .and_then(Node::as_map)
                .is_some_and(|m| !m.is_empty());
            let labels = root
                .get("labels")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .any(|l| {
                    l.get("includeSelectors")
                        .and_then(Node::as_scalar)
                        .is_some_and(|s| s.kind == crate::node::ScalarKind::Bool(true))
                });
            if common || labels {
                out.extend(self.reach(k).0);
            }
        }
        out
    }

    /// The `replacements` targets of every kustomization in `sources`: inline, or in the files
    /// their `path:` names (a replacement, or a list of them).
    pub fn replacement_targets(&self) -> Vec<ReplacementTarget> {
        let sources = self.sources;
        let mut out = Vec::new();
        for &k in &self.ids {
            if !sources[k].text.contains("replacements") {
                continue;
            }
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let items = root
                .get("replacements")
                .and_then(Node::as_seq)
                .unwrap_or(&[]);
            if items.is_empty() {
                continue;
            }
            let reached = self.reach(k).0;
            let dir = parent(&normalize(&sources[k].name));
            let mut replacements: Vec<Node> = Vec::new();
            for item in items {
                match item.get("path").and_then(Node::as_str) {
                    Some(path) => {
                        let Some(&f) = self.by_path.get(&normalize(&join(&dir, path))) else {
                            continue;
                        };
                        let (docs, _) = yaml::parse_stream(&sources[f].text);
                        for d in docs.into_iter().filter_map(|d| d.root) {
                            match d.as_seq() {
                                Some(list) => replacements.extend(list.iter().cloned()),
                                None => replacements.push(d),
                            }
                        }
                    }
                    None => replacements.push(item.clone()),
                }
            }
            for r in &replacements {
                for t in r.get("targets").and_then(Node::as_seq).unwrap_or(&[]) {
                    let select = t.get("select");
                    let s = |key: &str| {
                        select
                            .and_then(|x| x.get(key))
                            .and_then(Node::as_str)
                            .map(str::to_string)
                    };
                    let field_paths: Vec<String> = t
                        .get("fieldPaths")
                        .and_then(Node::as_seq)
                        .unwrap_or(&[])
                        .iter()
                        .filter_map(|p| p.as_str().map(str::to_string))
                        .collect();
                    if field_paths.is_empty() {
                        continue;
                    }
                    out.push(ReplacementTarget {
                        sources: reached.clone(),
                        kind: s("kind"),
                        name: s("name"),
                        namespace: s("namespace"),
                        field_paths,
                    });
                }
            }
        }
        out
    }
}

/// What the index needs to know of the kustomizations of a request, found once for all its
/// apply sets.
#[derive(Default)]
pub struct Facts {
    /// Sources a kustomization uses as patches or generator inputs ([`Kustomizations::non_resources`]).
    pub non_resources: HashMap<usize, UsedBy>,
    /// Sources beside a kustomization that none reaches ([`Kustomizations::unreached_beside`]).
    pub beside: std::collections::HashSet<usize>,
    /// Sources whose selectors a kustomization labels ([`Kustomizations::selector_labelled`]).
    pub labelled: std::collections::HashSet<usize>,
    /// Sources whose objects a kustomization patches ([`Kustomizations::patched`]).
    pub patched: std::collections::HashSet<usize>,
    /// The objects patches name by target or inline, by kustomization, ascending
    /// ([`Kustomizations::patch_targets`]).
    pub patch_targets: Vec<PatchTarget>,
    /// Every `replacements` target ([`Kustomizations::replacement_targets`]).
    pub replacements: Vec<ReplacementTarget>,
    /// The targets that reach each source, by their position in `replacements`, ascending.
    pub replacements_by_source: HashMap<usize, Vec<usize>>,
}

impl Facts {
    /// The facts of `sources`' kustomizations.
    pub fn of(sources: &[Source]) -> Facts {
        let k = Kustomizations::of(sources);
        if k.ids.is_empty() {
            return Facts::default();
        }
        let replacements = k.replacement_targets();
        let mut replacements_by_source: HashMap<usize, Vec<usize>> = HashMap::new();
        for (n, t) in replacements.iter().enumerate() {
            for &s in &t.sources {
                let v = replacements_by_source.entry(s).or_default();
                if v.last() != Some(&n) {
                    v.push(n);
                }
            }
        }
        Facts {
            non_resources: k.non_resources(),
            beside: k.unreached_beside(),
            labelled: k.selector_labelled(),
            patched: k.patched(),
            patch_targets: k.patch_targets(),
            replacements,
            replacements_by_source,
        }
    }
}

/// Whether a source is a kustomization file, by its name.
pub fn is_kustomization(name: &str) -> bool {
    NAMES.contains(&base_name(name))
}

/// A `replacements` target of a kustomization: the objects it selects (among the sources the
/// kustomization reaches) and the fields kustomize overwrites in them. Their values as
/// written are placeholders: they never reach the API server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplacementTarget {
    pub sources: Vec<usize>,
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    /// kustomize's field paths: `spec.storageClassName`,
    /// `spec.template.spec.containers.[name=app].image`, `*` for every item.
    pub field_paths: Vec<String>,
}

impl ReplacementTarget {
    /// Whether the target's `select` picks an object of this kind, name and namespace.
    pub fn selects(&self, kind: &str, name: &str, namespace: Option<&str>) -> bool {
        self.kind.as_deref().is_none_or(|k| k == kind)
            && self.name.as_deref().is_none_or(|n| n == name)
            && self
                .namespace
                .as_deref()
                .is_none_or(|ns| Some(ns) == namespace)
    }
}

/// The nodes a kustomize field path reaches in `root`: keys split at `.` (not inside `[...]`),
/// `[key=value]` picks the list items whose `key` is `value`, `*` every item, a number one item.
pub fn resolve_field_path<'a>(root: &'a Node, path: &str) -> Vec<&'a Node> {
    let mut segments = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in path.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => {
                segments.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    segments.push(&path[start..]);
    let mut at: Vec<&Node> = vec![root];
    for seg in segments.into_iter().filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        for n in at {
            if let Some(items) = n.as_seq() {
                if seg == "*" {
                    next.extend(items.iter());
                } else if let Some(cond) = seg.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
                    match cond.split_once('=') {
                        Some((k, v)) => next.extend(
                            items
                                .iter()
                                .filter(|it| it.get(k).and_then(Node::as_str) == Some(v)),
                        ),
                        None => next.extend(cond.parse::<usize>().ok().and_then(|i| items.get(i))),
                    }
                } else if let Ok(i) = seg.parse::<usize>() {
                    next.extend(items.get(i));
                }
            } else if let Some(v) = n.get(seg) {
                next.push(v);
            }
        }
        at = next;
    }
    at
}

/// Every node of a kustomization that names a file used as a patch or generator input.
fn named_files(root: &Node) -> Vec<(&'static str, &Node)> {
    let mut out = Vec::new();
    let items = |key: &str| root.get(key).and_then(Node::as_seq).unwrap_or(&[]);
    // kustomize reads a `patches` list with a string in it as the legacy patchesStrategicMerge
    // (api/types/fix.go, FixKustomizationPreUnmarshalling and useLegacyPatch): each string is
    // a patch file or an inline patch, and the list has no `path:` entries then.
    let legacy = items("patches").iter().any(|p| p.as_str().is_some());
    for p in items("patches") {
        if legacy {
            if p.as_str().is_some_and(|s| !s.contains('\n')) {
                out.push(("patchesStrategicMerge", p));
            }
        } else if let Some(path) = p.get("path") {
            out.push(("patches", path));
        }
    }
    for p in items("patchesStrategicMerge") {
        // Each entry is a path or an inline patch; an inline patch names no file.
        if p.as_str().is_some_and(|s| !s.contains('\n')) {
            out.push(("patchesStrategicMerge", p));
        }
    }
    for p in items("patchesJson6902") {
        if let Some(path) = p.get("path") {
            out.push(("patchesJson6902", path));
        }
    }
    for key in ["configMapGenerator", "secretGenerator"] {
        for g in items(key) {
            for list in ["files", "envs"] {
                for f in g.get(list).and_then(Node::as_seq).unwrap_or(&[]) {
                    out.push((key, f));
                }
            }
            if let Some(env) = g.get("env") {
                out.push((key, env));
            }
        }
    }
    for h in items("helmCharts") {
        if let Some(v) = h.get("valuesFile") {
            out.push(("helmCharts", v));
        }
    }
    out
}

fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

pub(crate) fn parent(path: &str) -> String {
    path.rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_string())
}

/// `dir` joined with a kustomization's file reference (`key=path` for generator files).
fn join(dir: &str, reference: &str) -> String {
    let path = reference
        .split_once('=')
        .map_or(reference, |(_, p)| p)
        .trim();
    if path.starts_with('/') || dir.is_empty() {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

/// Forward slashes, no `.` segments, `..` folded where it can be.
pub(crate) fn normalize(path: &str) -> String {
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(seg),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

mod patches;
pub use patches::PatchTarget;

#[cfg(test)]
mod tests;
