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
                },
            );
        }
        if let std::collections::hash_map::Entry::Vacant(e) = by_doc.entry((o.source, o.document)) {
            if let Some(file) = helm_source(src, o.root().span.start.line) {
                e.insert(Origin {
                    file,
                    tool: "helm".into(),
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
