//! Where a rendered object came from: `helm template` writes `# Source: CHART/templates/FILE`
//! before each document; `kubectl kustomize` with `buildMetadata: [originAnnotations]` writes
//! the annotation `config.kubernetes.io/origin` (`path: base/pvc.yaml`, plus `repo`/`ref` for
//! remote bases, or `configuredIn` for generated objects). Findings keep their position in the
//! rendered stream and name that file in `location.origin`.

use std::collections::HashMap;

pub use crate::finding::Origin;
use crate::finding::{Finding, ObjectRef};
use crate::model::Object;
use crate::node::Node;
use crate::source::Source;

pub const KUSTOMIZE_ORIGIN: &str = "config.kubernetes.io/origin";

/// Helm's `# Source:` comment in the comment lines just above a document's first line.
fn helm_source(src: &Source, first_line: u32) -> Option<String> {
    let mut n = first_line;
    while n > 1 {
        n -= 1;
        let l = src.line(n)?.trim();
        if let Some(rest) = l.strip_prefix("# Source:") {
            let f = rest.trim();
            return (!f.is_empty()).then(|| f.to_string());
        }
        if !(l.is_empty() || l.starts_with('#')) {
            return None;
        }
    }
    None
}

/// Kustomize's origin annotation: its `path` (with `repo` and `ref` when remote), or the
/// kustomization that generated the object.
fn kustomize_origin(root: &Node) -> Option<String> {
    let text = root
        .at("metadata.annotations")?
        .get(KUSTOMIZE_ORIGIN)?
        .as_str()?;
    let (docs, issues) = crate::yaml::parse_stream(text);
    if !issues.is_empty() {
        return None;
    }
    let o = docs.into_iter().next()?.root?;
    let s = |k: &str| o.get(k).and_then(Node::as_str).map(String::from);
    if let Some(path) = s("path") {
        return Some(match (s("repo"), s("ref")) {
            (Some(repo), Some(r)) => format!("{repo}//{path}?ref={r}"),
            (Some(repo), None) => format!("{repo}//{path}"),
            _ => path,
        });
    }
    s("configuredIn")
}

/// Where the objects of rendered input came from, read from the objects as written (before
/// their trees are released). Empty for input no tool rendered.
#[derive(Debug, Clone, Default)]
pub(crate) struct Origins {
    by_doc: HashMap<(usize, usize), Origin>,
    by_obj: HashMap<(usize, ObjectRef), Origin>,
}

/// The origins of `objects`, read from `sources`.
pub(crate) fn collect(sources: &[Source], objects: &[Object]) -> Origins {
    let mut by_doc: HashMap<(usize, usize), Origin> = HashMap::new();
    let mut by_obj: HashMap<(usize, ObjectRef), Origin> = HashMap::new();
    for o in objects {
        let Some(src) = sources.get(o.source) else {
            continue;
        };
        if let Some(file) = kustomize_origin(o.root()) {
            by_obj.insert(
                (o.source, o.objref()),
                Origin {
                    file,
                    tool: "kustomize".into(),
                    path: None,
                    line: None,
                    column: None,
                },
            );
        }
        if let std::collections::hash_map::Entry::Vacant(e) = by_doc.entry((o.source, o.document)) {
            if let Some(file) = helm_source(src, o.root().span.start.line) {
                e.insert(Origin {
                    file,
                    tool: "helm".into(),
                    path: None,
                    line: None,
                    column: None,
                });
            }
        }
    }
    Origins { by_doc, by_obj }
}

impl Origins {
    /// Sets `location.origin` (and that of related locations) on findings.
    pub(crate) fn annotate<F: AsMut<Finding>>(&self, findings: &mut [F]) {
        if self.by_doc.is_empty() && self.by_obj.is_empty() {
            return;
        }
        let lookup = |source: usize, document: usize, obj: Option<&ObjectRef>| {
            obj.and_then(|o| self.by_obj.get(&(source, o.clone())))
                .or_else(|| self.by_doc.get(&(source, document)))
                .map(|o| Box::new(o.clone()))
        };
        for f in findings.iter_mut().map(AsMut::as_mut) {
            f.location.origin = lookup(f.location.source, f.location.document, f.object.as_ref());
            for r in &mut f.related {
                r.location.origin = lookup(r.location.source, r.location.document, None);
            }
        }
    }
}

/// Where a finding's field is in the file its object came from (a Helm template, a Kustomize
/// base): the line and column (1-based) of the deepest key of `path` (`spec.volumes[0].name`)
/// found in the document of `object`, else of that document's `kind:` line. Read from the text
/// as written, template directives and all, by indentation: the host reads the file, this finds
/// the place. None when the file holds no document of the object's kind.
pub fn position_in_source(text: &str, object: &ObjectRef, path: &str) -> Option<(u32, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let doc = document_of(&lines, object)?;
    let mut scope = doc.clone();
    let mut found = lines[doc.clone()]
        .iter()
        .position(|l| key_of(l).is_some_and(|(i, k)| i == 0 && k == "kind"))
        .map(|n| (doc.start + n, 0));
    let mut segments: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
    while !segments.is_empty() {
        // The longest run of segments that is one key (annotation keys hold dots).
        let mut matched = None;
        for take in (1..=segments.len()).rev() {
            let joined = segments[..take].join(".");
            let (key, index) = match joined.split_once('[') {
                Some((k, rest)) if take == 1 => (
                    k.to_string(),
                    rest.trim_end_matches(']').parse::<usize>().ok(),
                ),
                _ => (joined.clone(), None),
            };
            if let Some(at) = child(&lines, &scope, &key) {
                matched = Some((take, at, index));
                break;
            }
        }
        let Some((take, (line, indent), index)) = matched else {
            break;
        };
        segments.drain(..take);
        found = Some((line, indent));
        scope = (line + 1)..block_end(&lines, line + 1, scope.end, indent);
        if let Some(n) = index {
            let Some((item, item_indent)) = nth_item(&lines, &scope, n) else {
                break;
            };
            found = Some((item, item_indent));
            // The item's own keys start after its `- `; it ends where a line is indented less.
            let end = (item + 1..scope.end)
                .find(|&n| {
                    let t = lines[n].trim_start();
                    !(t.is_empty() || t.starts_with('#') || t.starts_with("{{"))
                        && lines[n].len() - t.len() < item_indent
                })
                .unwrap_or(scope.end);
            scope = item..end;
        }
    }
    found.map(|(line, indent)| (line as u32 + 1, indent as u32 + 1))
}

/// The lines of the document of `object`: the one with its `kind:` (and its name, when more
/// than one has the kind), or the only document.
fn document_of(lines: &[&str], object: &ObjectRef) -> Option<std::ops::Range<usize>> {
    let mut docs = Vec::new();
    let mut start = 0;
    for (n, l) in lines.iter().enumerate() {
        if l.trim_end() == "---" || l.starts_with("--- ") {
            docs.push(start..n);
            start = n + 1;
        }
    }
    docs.push(start..lines.len());
    let kind_is = |d: &std::ops::Range<usize>| {
        lines[d.clone()]
            .iter()
            .any(|l| key_of(l) == Some((0, "kind")) && scalar_of(l) == object.kind.as_str())
    };
    let of_kind: Vec<_> = docs.iter().filter(|d| kind_is(d)).cloned().collect();
    match of_kind.len() {
        0 => None,
        1 => of_kind.into_iter().next(),
        _ => {
            let named = of_kind.iter().find(|d| {
                lines[(*d).clone()].iter().any(|l| {
                    key_of(l).is_some_and(|(_, k)| k == "name")
                        && scalar_of(l) == object.name.as_str()
                })
            });
            named.or(of_kind.first()).cloned()
        }
    }
}

/// A key line's indentation and key (`  name: x` → (2, "name"); `- name: x` → the key after
/// the dash). Comments, template directives and sequence scalars are no keys.
fn key_of(line: &str) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let mut rest = &line[indent..];
    let mut at = indent;
    if let Some(r) = rest.strip_prefix("- ") {
        at += 2 + (r.len() - r.trim_start().len());
        rest = r.trim_start();
    }
    if rest.is_empty() || rest.starts_with('#') || rest.starts_with("{{") {
        return None;
    }
    let colon = rest
        .find(": ")
        .or_else(|| rest.strip_suffix(':').map(|r| r.len()))?;
    let key = rest[..colon].trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty() && !key.contains("{{")).then_some((at, key))
}

/// The value after a key line's `key:`, unquoted.
fn scalar_of(line: &str) -> &str {
    line.split_once(": ").map_or("", |(_, v)| {
        v.trim().trim_matches(|c| c == '"' || c == '\'')
    })
}

/// The line and indentation of `key` among the direct children of `scope` (its key lines of
/// least indentation).
fn child(lines: &[&str], scope: &std::ops::Range<usize>, key: &str) -> Option<(usize, usize)> {
    let keys: Vec<(usize, usize, &str)> = scope
        .clone()
        .filter_map(|n| key_of(lines[n]).map(|(i, k)| (n, i, k)))
        .collect();
    let least = keys.iter().map(|&(_, i, _)| i).min()?;
    keys.into_iter()
        .find(|&(_, i, k)| i == least && k == key)
        .map(|(n, i, _)| (n, i))
}

/// Where the block that starts at `from` (under a key of indentation `indent`) ends: the first
/// content line at that indentation or less (a sequence's `- ` at the key's own indentation
/// belongs to it, as kubectl writes them).
fn block_end(lines: &[&str], from: usize, end: usize, indent: usize) -> usize {
    (from..end)
        .find(|&n| {
            let l = lines[n];
            let t = l.trim_start();
            let i = l.len() - t.len();
            !(t.is_empty() || t.starts_with('#') || t.starts_with("{{"))
                && (i < indent || (i == indent && !t.starts_with("- ")))
        })
        .unwrap_or(end)
}

/// The `n`th item (`- `) among the least indented ones of `scope`: its line and the
/// indentation of its content.
fn nth_item(lines: &[&str], scope: &std::ops::Range<usize>, n: usize) -> Option<(usize, usize)> {
    let dashes: Vec<(usize, usize)> = scope
        .clone()
        .filter_map(|i| {
            let l = lines[i];
            let t = l.trim_start();
            t.starts_with("- ").then(|| (i, l.len() - t.len()))
        })
        .collect();
    let least = dashes.iter().map(|&(_, i)| i).min()?;
    let (line, indent) = dashes.into_iter().filter(|&(_, i)| i == least).nth(n)?;
    Some((line, indent + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, kind: &str, name: &str, path: &str) -> Option<(u32, u32)> {
        let o = ObjectRef {
            api_version: "v1".into(),
            kind: kind.into(),
            namespace: None,
            name: name.into(),
        };
        position_in_source(text, &o, path)
    }

    /// A Helm template, directives and all: the field's line is found by its keys.
    #[test]
    fn fields_are_found_in_templates() {
        let t = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  template:\n    metadata:\n      labels:\n        app: x\n      {{- with .Values.podAnnotations }}\n      annotations:\n        {{- toYaml . | nindent 8 }}\n      {{- end }}\n    spec:\n      containers:\n      - name: db\n        image: postgres:16\n      volumes:\n      - name: cache\n        emptyDir: {}\n      - name: data\n        persistentVolumeClaim:\n          claimName: {{ .Release.Name }}-data\n";
        let claim = "spec.template.spec.volumes[1].persistentVolumeClaim.claimName";
        assert_eq!(at(t, "Deployment", "r", claim), Some((23, 11)));
        assert_eq!(
            at(t, "Deployment", "r", "spec.template.spec.volumes[0]"),
            Some((19, 9))
        );
        // A path only partly there: its deepest key.
        assert_eq!(
            at(t, "Deployment", "r", "spec.strategy.rollingUpdate"),
            Some((5, 1))
        );
        // No path: the kind line.
        assert_eq!(at(t, "Deployment", "r", ""), Some((2, 1)));
        assert_eq!(at(t, "StatefulSet", "r", "spec"), None);
    }

    /// A file of several documents: the object's own, by kind and then name; annotation keys
    /// with dots are one key.
    #[test]
    fn the_objects_document_is_found() {
        let t = "kind: PersistentVolume\nmetadata:\n  name: a\n---\nkind: PersistentVolume\nmetadata:\n  name: b\n  annotations:\n    pv.kubernetes.io/bound-by-controller: \"yes\"\nspec:\n  claimRef:\n    uid: x\n";
        assert_eq!(
            at(t, "PersistentVolume", "b", "spec.claimRef.uid"),
            Some((12, 5))
        );
        assert_eq!(
            at(t, "PersistentVolume", "a", "spec.claimRef.uid"),
            Some((1, 1))
        );
        assert_eq!(
            at(
                t,
                "PersistentVolume",
                "b",
                "metadata.annotations.pv.kubernetes.io/bound-by-controller"
            ),
            Some((9, 5))
        );
    }
}
