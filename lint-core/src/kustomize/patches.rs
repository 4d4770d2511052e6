//! What a kustomization's patches change: the sources they may reach, and the objects they
//! name (sigs.k8s.io/kustomize/api/types Kustomization.Patches, PatchesStrategicMerge,
//! PatchesJson6902).

use super::{join, normalize, parent, Kustomizations};
use crate::node::Node;
use crate::yaml;

impl Kustomizations<'_> {
    /// The sources whose objects a kustomization in `sources` may patch (`patches`,
    /// `patchesStrategicMerge`, `patchesJson6902`): a container's volume mounts, volumes and
    /// image as written are not necessarily what reaches the API server (a base's Deployment
    /// mounting a volume each overlay's patch declares).
    pub fn patched(&self) -> std::collections::HashSet<usize> {
        let mut out = std::collections::HashSet::new();
        for &k in &self.ids {
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let patches = ["patches", "patchesStrategicMerge", "patchesJson6902"]
                .iter()
                .any(|key| {
                    root.get(key)
                        .and_then(Node::as_seq)
                        .is_some_and(|s| !s.is_empty())
                });
            if patches {
                out.extend(self.reach(k).0);
            }
        }
        out
    }

    /// The objects a kustomization's patches name through a `target:` (a JSON 6902 patch, or
    /// any patch given a target) or inside an inline patch (a strategic-merge patch names its
    /// object): what reaches the API server from them is not what they say as written. A
    /// target by label or annotation selector only is left out (pvlint does not resolve it);
    /// strategic-merge patch files are matched by the index, which reads them. A patch file
    /// the input lacks, or one kustomize fetches (a URL), names every object (kind and name
    /// `None`). kustomize reads a target's kind and name as anchored regular expressions
    /// (api/resource `OrgId` matching, `regexp.MatchString("^"+name+"$")`): one with a
    /// metacharacter other than `.` names every object of its kind. A component's patches
    /// apply to the resources of whatever includes it: their sources are the set's.
    /// Listed by kustomization, ascending (as `ids` is).
    pub fn patch_targets(&self) -> Vec<PatchTarget> {
        let mut out = Vec::new();
        for &k in &self.ids {
            let Some(root) = self.roots.get(&k) else {
                continue;
            };
            let mut named: Vec<(Option<String>, Option<String>)> = Vec::new();
            let dir = parent(&normalize(&self.sources[k].name));
            let unseen = |path: &str| {
                path.contains("://") || !self.by_path.contains_key(&normalize(&join(&dir, path)))
            };
            let s = |n: Option<&Node>, path: &str| {
                n.and_then(|n| n.at(path))
                    .and_then(Node::as_str)
                    .filter(|v| !v.is_empty())
                    .map(String::from)
            };
            // An inline strategic-merge patch names its objects.
            let inline = |text: &str, named: &mut Vec<_>| {
                let (docs, _) = yaml::parse_stream(text);
                for d in docs.into_iter().filter_map(|d| d.root) {
                    let (kind, name) = (s(Some(&d), "kind"), s(Some(&d), "metadata.name"));
                    if kind.is_some() && name.is_some() {
                        named.push((kind, name));
                    }
                }
            };
            for key in ["patches", "patchesJson6902", "patchesStrategicMerge"] {
                for entry in root.get(key).and_then(Node::as_seq).unwrap_or_default() {
                    // A string is a file name, or (with a line break) an inline patch.
                    if let Some(text) = entry.as_str() {
                        if text.contains('\n') {
                            inline(text, &mut named);
                        } else if unseen(text) {
                            named.push((None, None));
                        }
                        continue;
                    }
                    if entry.get("path").and_then(Node::as_str).is_some_and(unseen) {
                        named.push((None, None));
                        continue;
                    }
                    let target = entry.get("target");
                    let (kind, name) = (s(target, "kind"), s(target, "name"));
                    if kind.is_some() || name.is_some() {
                        named.push((kind.filter(|k| literal(k)), name.filter(|n| literal(n))));
                        continue;
                    }
                    if let Some(text) = entry.get("patch").and_then(Node::as_str) {
                        inline(text, &mut named);
                    }
                }
            }
            if named.is_empty() {
                continue;
            }
            let sources = if root.get("kind").and_then(Node::as_str) == Some("Component") {
                None
            } else {
                let mut sources = self.reach(k).0;
                sources.sort_unstable();
                Some(sources)
            };
            out.extend(named.into_iter().map(|(kind, name)| PatchTarget {
                kustomization: k,
                sources: sources.clone(),
                kind,
                name,
            }));
        }
        out
    }
}

/// A target's kind or name kustomize matches as the text itself: no regular-expression
/// metacharacter but `.` (which object names hold, and which also matches itself).
fn literal(pattern: &str) -> bool {
    !pattern.contains(|c: char| "*+?[](){}|^$\\".contains(c))
}

/// An object a kustomization's patch names (by kind, name or both), among the sources the
/// kustomization reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchTarget {
    /// The kustomization whose patch it is (`patch_targets` lists them in its order).
    pub kustomization: usize,
    /// The sources the kustomization reaches, ascending; None for a component's patch, which
    /// applies to what includes it (the apply set).
    pub sources: Option<Vec<usize>>,
    pub kind: Option<String>,
    pub name: Option<String>,
}

impl PatchTarget {
    pub fn selects(&self, source: usize, kind: &str, name: &str) -> bool {
        self.sources
            .as_ref()
            .is_none_or(|s| s.binary_search(&source).is_ok())
            && self.kind.as_deref().is_none_or(|k| k == kind)
            && self.name.as_deref().is_none_or(|n| n == name)
    }
}
