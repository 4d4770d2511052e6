//! Manifests judged against a live cluster: the cluster state's objects by identity, and each
//! manifest of an object it holds judged as an update.

use std::collections::HashMap;

use super::{object_key, Index, ObjectKey};
use crate::model::{self, ObjId, Object};
use crate::node::Node;
use crate::string::Str;

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

impl Index {
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
}
