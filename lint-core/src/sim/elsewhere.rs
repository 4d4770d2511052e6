//! What the input says of its cluster besides the manifests of the apply set: the classes and
//! drivers other apply sets define, and hints of a local cluster.

use std::collections::HashMap;

use crate::binding::VolumeSpec;
use crate::index::Index;
use crate::string::Str;

/// What the input's other apply sets define cluster-wide: StorageClasses and CSIDrivers. A
/// repository that installs its storage in one directory (`infra/`) and its apps in others
/// applies them apart, onto the same cluster: for a set that names a class it does not define,
/// the definition elsewhere in the input is the best knowledge of that class, and stays an
/// assumption ([`super::Assumption::DefinedElsewhere`]). Used only when the cluster is not given
/// (`--cluster-state`, `--complete` know better); names defined differently in two places are
/// left out.
#[derive(Debug, Default, Clone)]
pub struct Elsewhere {
    pub(crate) classes: Vec<ElsewhereClass>,
    pub(crate) drivers: Vec<(Str, bool)>,
    /// The PersistentVolumes each apply set defines, by class: shared by every set's view
    /// (one copy, however many sets), each set reading only the others' ([`Self::volumes`]).
    pub(crate) volumes: std::sync::Arc<HashMap<Str, Vec<ElsewhereVolume>>>,
    /// The apply set this view is for (its own volumes are not elsewhere).
    pub(crate) own_set: Option<usize>,
    /// What the input says of the cluster it is written for, wherever it says it.
    pub(crate) hints: ClusterHints,
    /// The set's objects are created in the order they are written (`kubectl apply -f`: file
    /// by file, document by document), not sorted by kind as kustomize and Helm sort them
    /// (StorageClasses first): a claim is admitted before a StorageClass written after it.
    pub(crate) file_order: bool,
}

/// What an input says of the cluster it is written for, without a cluster state: a local
/// cluster tool's config (kind's `Cluster`, k3d's `Simple`: that tool's default class), or a
/// hostPath volume without nodeAffinity (a directory on whichever node a pod lands on: written
/// for a cluster of one node). Hints, never certainties: what rests on them is an assumption.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ClusterHints {
    /// The local cluster tool a config of the input is for, and that file.
    pub tool: Option<(LocalCluster, Str)>,
    /// A hostPath volume without nodeAffinity, and its file.
    pub one_node: Option<(Str, Str)>,
}

/// A local cluster tool whose config the input carries, with the default StorageClass its
/// clusters come with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalCluster {
    /// kind (`kind.x-k8s.io` `Cluster`): class `standard`, rancher.io/local-path,
    /// WaitForFirstConsumer (kubernetes-sigs/kind pkg/cluster/internal/create/actions/
    /// installstorage/storage.go).
    Kind,
    /// k3d (`k3d.io` `Simple`), a k3s cluster: class `local-path`, rancher.io/local-path,
    /// WaitForFirstConsumer (k3s-io/k3s manifests/local-storage.yaml).
    K3d,
}

impl LocalCluster {
    pub fn name(self) -> &'static str {
        match self {
            LocalCluster::Kind => "kind",
            LocalCluster::K3d => "k3d",
        }
    }

    /// The default class its clusters come with.
    pub fn default_class(self) -> &'static str {
        match self {
            LocalCluster::Kind => "standard",
            LocalCluster::K3d => "local-path",
        }
    }
}

impl ClusterHints {
    /// The hints in one index.
    pub(crate) fn of(ix: &Index, sources: &[crate::source::Source]) -> ClusterHints {
        let file =
            |obj: crate::model::ObjId| Str::from(sources[ix.object(obj).source].name.as_str());
        let tool = ix.objects.iter().enumerate().find_map(|(id, o)| {
            let t = if o.api_version.starts_with("kind.x-k8s.io/") && o.kind == "Cluster" {
                LocalCluster::Kind
            } else if o.api_version.starts_with("k3d.io/") && o.kind == "Simple" {
                LocalCluster::K3d
            } else {
                return None;
            };
            Some((t, file(id)))
        });
        let one_node = ix
            .pvs
            .iter()
            .find(|pv| {
                !pv.has_node_affinity
                    && pv.source.as_ref().is_some_and(|s| s.kind == "hostPath")
                    && !ix.is_rejected(pv.obj)
            })
            .map(|pv| (pv.name.clone(), file(pv.obj)));
        ClusterHints { tool, one_node }
    }

    /// The first of each hint.
    pub(crate) fn or(self, other: &ClusterHints) -> ClusterHints {
        ClusterHints {
            tool: self.tool.or_else(|| other.tool.clone()),
            one_node: self.one_node.or_else(|| other.one_node.clone()),
        }
    }
}

/// A StorageClass another apply set defines.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ElsewhereClass {
    pub name: Str,
    pub provisioner: Str,
    pub reclaim: crate::kube::ReclaimPolicy,
    pub wait_for_first_consumer: bool,
    pub is_default: bool,
    pub delete_params: crate::drivers::DeleteParams,
    /// The file that defines it.
    pub file: Str,
    /// The apply set that defines it.
    pub set: usize,
}

/// A PersistentVolume another apply set defines: a static pool the cluster holds when that set
/// is applied, as its classes are (the same assumption, [`super::Assumption::DefinedElsewhere`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ElsewhereVolume {
    pub name: Str,
    pub spec: VolumeSpec,
    /// spec.claimRef's namespace and name: reserved for that claim only.
    pub reserved_for: Option<(Str, Str)>,
    /// The file that defines it.
    pub file: Str,
    /// The apply set that defines it.
    pub set: usize,
}

impl Elsewhere {
    /// Collects the classes, drivers and volumes each apply set's index defines.
    pub(crate) fn collect(sets: &[&Index], sources: &[crate::source::Source]) -> Elsewhere {
        let mut out = Elsewhere::default();
        let mut volumes: HashMap<Str, Vec<ElsewhereVolume>> = HashMap::new();
        for (set, ix) in sets.iter().enumerate() {
            for pv in ix.accepted_pvs() {
                volumes
                    .entry(pv.class.clone())
                    .or_default()
                    .push(ElsewhereVolume {
                        name: pv.name.clone(),
                        spec: super::load::volume_spec(pv),
                        reserved_for: pv
                            .claim_ref
                            .as_ref()
                            .map(|r| (r.namespace.clone(), r.name.clone())),
                        file: Str::from(sources[ix.object(pv.obj).source].name.as_str()),
                        set,
                    });
            }
            for sc in ix.accepted_classes() {
                out.classes.push(ElsewhereClass {
                    name: sc.name.clone(),
                    provisioner: sc
                        .provisioner
                        .as_ref()
                        .map(|p| p.value.clone())
                        .unwrap_or_default(),
                    reclaim: sc
                        .reclaim
                        .as_ref()
                        .map_or(crate::kube::ReclaimPolicy::Delete, |r| r.value),
                    wait_for_first_consumer: sc.wait_for_first_consumer,
                    is_default: sc.is_default.is_some(),
                    delete_params: sc.delete_params.clone(),
                    file: Str::from(sources[ix.object(sc.obj).source].name.as_str()),
                    set,
                });
            }
            for d in &ix.csi_drivers {
                out.drivers.push((d.name.clone(), d.attach_required));
            }
            out.hints = std::mem::take(&mut out.hints).or(&ClusterHints::of(ix, sources));
        }
        out.volumes = std::sync::Arc::new(volumes);
        out
    }

    /// The volumes of class `class` the other apply sets define.
    pub(crate) fn volumes<'a>(&'a self, class: &str) -> impl Iterator<Item = &'a ElsewhereVolume> {
        let own = self.own_set;
        self.volumes
            .get(class)
            .into_iter()
            .flatten()
            .filter(move |v| Some(v.set) != own)
    }

    /// What apply set `set` may assume from the others: each class defined the same way
    /// wherever it is defined; at most one default.
    pub(crate) fn for_set(&self, set: usize) -> Elsewhere {
        let mut classes: Vec<ElsewhereClass> = Vec::new();
        let mut conflicting = std::collections::HashSet::new();
        for c in self.classes.iter().filter(|c| c.set != set) {
            match classes.iter().find(|k| k.name == c.name) {
                Some(k) => {
                    let same = (
                        &k.provisioner,
                        k.reclaim,
                        k.wait_for_first_consumer,
                        k.is_default,
                    ) == (
                        &c.provisioner,
                        c.reclaim,
                        c.wait_for_first_consumer,
                        c.is_default,
                    );
                    if !same {
                        conflicting.insert(c.name.clone());
                    }
                }
                None => classes.push(c.clone()),
            }
        }
        classes.retain(|c| !conflicting.contains(&c.name));
        if classes.iter().filter(|c| c.is_default).count() > 1 {
            classes.iter_mut().for_each(|c| c.is_default = false);
        }
        Elsewhere {
            classes,
            drivers: self.drivers.clone(),
            volumes: std::sync::Arc::clone(&self.volumes),
            own_set: Some(set),
            hints: self.hints.clone(),
            file_order: self.file_order,
        }
    }
}
