//! The object index: every object of every source, typed views of the storage-related
//! ones, and lookups by name.

use std::collections::HashMap;

use crate::model::{self, CsiDriver, Diag, ObjId, Object, Pv, Pvc, StorageClass, Workload};
use crate::node::Node;
use crate::source::{Source, SourceId};
use crate::string::Str;

mod left_out;
mod live;
mod load;
mod views;

pub(crate) use live::LiveObjects;
pub use live::LiveUpdate;

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
    /// Strategic-merge patch documents, resolved once every source is loaded, and whether a
    /// kustomization names their file as a patch (not a variant beside it that none names).
    patches: Vec<(SourceId, usize, Node, bool)>,
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
    pub(crate) version: crate::options::Target,
    /// The field validation of the apply that creates these objects: with `Strict` (kubectl's
    /// default) an object with a field the API does not know is rejected. `Warn` for objects
    /// that exist already (a cluster's state).
    pub(crate) field_validation: crate::options::FieldValidation,
    /// The objects exist already (a cluster's state): what the API server checks only when
    /// it creates an object does not apply.
    pub(crate) existing: bool,
    /// Objects of an API version that release no longer serves: never created, nothing else
    /// is read of them.
    pub removed: Vec<(ObjId, &'static crate::apiversions::Removed)>,
    /// The same objects, for lookups.
    removed_ids: std::collections::HashSet<ObjId>,
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

impl Index {
    /// Indexes the sources `ids` of `sources` (one apply set), keeping their positions as their
    /// ids. A file some kustomization in `sources` uses as a patch is one wherever it is:
    /// `kustomize` holds what the kustomizations of all of `sources` say, found once for every
    /// set ([`crate::kustomize::Facts::of`]).
    pub fn build_set(
        sources: &[Source],
        kustomize: &crate::kustomize::Facts,
        ids: &[SourceId],
        version: crate::options::Target,
        field_validation: crate::options::FieldValidation,
    ) -> Index {
        let mut ix = Index {
            version,
            field_validation,
            ..Index::default()
        };
        for &id in ids {
            ix.load_source(id, &sources[id], kustomize.non_resources.get(&id));
            if kustomize.beside.contains(&id) {
                ix.patch_like_source(id);
            }
        }
        ix.mark_kustomize_labels(kustomize);
        // A file applied without the kustomization that patches it (`--each-file`, a directory
        // of its own) reaches the API server as written.
        let kustomized = ids
            .iter()
            .any(|&id| crate::kustomize::is_kustomization(&sources[id].name));
        if !kustomized {
            for o in &mut ix.objects {
                o.patched_by_kustomize = false;
            }
        }
        ix.mark_kustomize_patch_targets(kustomize, ids);
        ix.mark_kustomize_replacements(kustomize);
        ix.finish_load(sources, kustomized);
        ix.build_views();
        ix
    }

    /// Indexes `sources` for the default Kubernetes release, as objects that exist (no field
    /// validation rejects one).
    pub fn build(sources: &[Source]) -> Index {
        Index::build_for(sources, crate::options::Target::default())
    }

    /// Indexes `sources` for Kubernetes `version`, as objects that exist: a cluster's state.
    pub fn build_for(sources: &[Source], version: crate::options::Target) -> Index {
        let mut ix = Index::load(sources);
        ix.existing = true;
        ix.with_views(version, crate::options::FieldValidation::Warn)
    }

    /// Indexes manifests that an apply with `field_validation` creates, for Kubernetes
    /// `version`.
    pub fn build_applied(
        sources: &[Source],
        version: crate::options::Target,
        field_validation: crate::options::FieldValidation,
    ) -> Index {
        Index::load(sources).with_views(version, field_validation)
    }

    /// Reads every object of `sources`, and the files rendered ones came from, but builds no
    /// typed views yet: after this, nothing reads the sources' texts (see
    /// [`crate::api::lint_and_drop_texts`]). [`Index::with_views`] completes the index.
    pub(crate) fn load(sources: &[Source]) -> Index {
        let mut ix = Index::default();
        let kustomize = crate::kustomize::Facts::of(sources);
        for (sid, src) in sources.iter().enumerate() {
            ix.load_source(sid, src, kustomize.non_resources.get(&sid));
            if kustomize.beside.contains(&sid) {
                ix.patch_like_source(sid);
            }
        }
        ix.mark_kustomize_labels(&kustomize);
        let all: Vec<SourceId> = (0..sources.len()).collect();
        ix.mark_kustomize_patch_targets(&kustomize, &all);
        let kustomized = sources
            .iter()
            .any(|s| crate::kustomize::is_kustomization(&s.name));
        ix.finish_load(sources, kustomized);
        ix
    }

    /// Builds the typed views of a [loaded](Index::load) index, for Kubernetes `version` and an
    /// apply with `field_validation`.
    pub(crate) fn with_views(
        mut self,
        version: crate::options::Target,
        field_validation: crate::options::FieldValidation,
    ) -> Index {
        self.version = version;
        self.field_validation = field_validation;
        self.build_views();
        self
    }

    /// Definitions that a later one of the same object replaces.
    pub fn is_superseded(&self, obj: ObjId) -> bool {
        self.superseded.contains(&obj)
    }

    /// The object never exists as written: the API server rejects it (see [`Diag::rejects`]),
    /// or it is an unrendered template. It takes no part in the simulation.
    pub fn is_rejected(&self, obj: ObjId) -> bool {
        self.rejected.contains(&obj)
    }

    /// The PersistentVolumes the API server accepts (a rejected one never exists).
    pub fn accepted_pvs(&self) -> impl Iterator<Item = &Pv> {
        self.pvs.iter().filter(|v| !self.is_rejected(v.obj))
    }

    /// The PersistentVolumeClaims the API server accepts.
    pub fn accepted_pvcs(&self) -> impl Iterator<Item = &Pvc> {
        self.pvcs.iter().filter(|v| !self.is_rejected(v.obj))
    }

    /// The StorageClasses the API server accepts.
    pub fn accepted_classes(&self) -> impl Iterator<Item = &StorageClass> {
        self.classes.iter().filter(|v| !self.is_rejected(v.obj))
    }

    /// The workloads the API server accepts.
    pub fn accepted_workloads(&self) -> impl Iterator<Item = &Workload> {
        self.workloads.iter().filter(|v| !self.is_rejected(v.obj))
    }

    /// Every object the API server reads as written, with its id: not the definitions a later
    /// one replaces (see [`Index::is_superseded`]), nor objects of an API version the release
    /// no longer serves (the API server answers "no matches for kind" before it reads a field:
    /// `removed-api-version` says all there is to say of them).
    pub fn current_objects(&self) -> impl Iterator<Item = (ObjId, &Object)> {
        self.objects
            .iter()
            .enumerate()
            .filter(|(id, _)| !self.is_superseded(*id) && !self.is_removed(*id))
    }

    /// The object is of an API version the release no longer serves.
    pub fn is_removed(&self, obj: ObjId) -> bool {
        self.removed_ids.contains(&obj)
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

    /// StorageClasses marked default in the input that the API server accepts (a rejected one
    /// is never created, and defaults nothing).
    pub fn default_classes(&self) -> Vec<&StorageClass> {
        self.accepted_classes()
            .filter(|c| c.is_default.is_some())
            .collect()
    }

    /// Is this PV/claim pair's object the last definition of that name (the one `kubectl apply` leaves)?
    pub fn is_current_pv(&self, pv: &Pv) -> bool {
        self.pv(&pv.name).is_some_and(|p| p.obj == pv.obj)
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
            .filter(|&(id, _)| !self.is_removed(id))
            .map(|(_, o)| Served {
                kind: o.kind.clone(),
                namespace: o.namespace.clone(),
                name: o.name.clone(),
                api_version: o.api_version.clone(),
                source: o.source,
            })
    }
}
