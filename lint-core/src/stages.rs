//! The pipeline's stages one at a time, for the benchmarks and the profiling driver in
//! `benches/` only: not a stable API (hosts use [`crate::api`]).

use crate::index::Index;
use crate::options::Options;
use crate::source::Source;

/// An object index, opaque outside the core.
#[derive(Default)]
pub struct Indexed(Index);

impl Indexed {
    /// How many objects it holds.
    pub fn objects(&self) -> usize {
        self.0.objects.len()
    }
}

/// The YAML stage alone: how many documents the text holds.
pub fn parse(text: &str) -> usize {
    crate::yaml::parse_stream(text).0.len()
}

/// Parse, object index and typed views.
pub fn index(sources: &[Source]) -> Indexed {
    Indexed(Index::build(sources))
}

/// What pvlint reads from one file, in kubectl's terms, for the differential test against
/// the real kubectl (`harness/tests/kubectl_parity.rs`): the objects kubectl's decoder
/// reads, as JSON (typed as pvlint types YAML), in order, up to the first document that is
/// not valid YAML/JSON, and whether there is one. A document with a `kind` but no
/// `apiVersion` is one such object (kubectl decodes it, and only the apply fails); pvlint
/// reports it and reads no object.
pub fn decoded(name: &str, text: &str) -> (Vec<serde_json::Value>, bool) {
    use crate::node::Node;
    let sources = [Source::new(name, text)];
    let (docs, issues) = crate::yaml::parse_stream(text);
    let broken = issues
        .iter()
        .filter(|i| i.kind.fails())
        .map(|i| i.document)
        .min();
    let before = |doc: usize| broken.is_none_or(|b| doc < b);
    let ix = Index::load(&sources);
    let mut objects: Vec<(usize, serde_json::Value)> = ix
        .objects
        .iter()
        .filter(|o| before(o.document))
        .map(|o| (o.document, crate::value::convert(o.root())))
        .collect();
    for d in docs.iter().filter(|d| before(d.index)) {
        let Some(root) = &d.root else { continue };
        if root.get("kind").and_then(Node::as_str).is_some()
            && root.get("apiVersion").and_then(Node::as_str).is_none()
        {
            objects.push((d.index, crate::value::convert(root)));
        }
    }
    // Stable: the objects of one document (a List's items) keep their order.
    objects.sort_by_key(|(doc, _)| *doc);
    (
        objects.into_iter().map(|(_, o)| o).collect(),
        broken.is_some(),
    )
}

/// The simulation of the manifests on an unknown cluster, run to its fixed point.
pub fn simulate(manifests: &Indexed, options: &Options) {
    std::hint::black_box(crate::sim::simulate(
        &Index::default(),
        &manifests.0,
        options,
        false,
    ));
}
