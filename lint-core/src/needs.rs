//! What the verdict on one object depends on in the cluster: which claims, volumes and whether
//! the whole pool of volumes, read from the object's typed view as the simulation reads it. A
//! host that fetches the cluster object by object (the Kubewarden policy's context-aware
//! lookups) reads exactly these, then the needs of what it read (a claim's volume, a volume's
//! claim), instead of re-deriving pod specs, template claim names and ordinals from JSON.

use serde::Serialize;

use crate::index::Index;
use crate::model::PodCount;
use crate::source::Source;

/// When the verdict depends on every PersistentVolume of the cluster: the PV controller's
/// `findBestMatchForClaim` looks at all of them for a claim that names no volume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Pool {
    /// Never: every claim involved names its volume, or none is involved.
    #[default]
    Never,
    /// When a claim the object uses does not exist yet, or names no volume.
    IfUnbound,
    /// Always: the object is a claim that names no volume.
    Always,
}

/// The claims a StatefulSet's volumeClaimTemplates create: `<template>-<set>-<ordinal>` for
/// each ordinal (StatefulSet controller, `getPersistentVolumeClaimName`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateClaims {
    pub namespace: String,
    pub statefulset: String,
    /// The templates' names.
    pub templates: Vec<String>,
    /// The first ordinal (`spec.ordinals.start`).
    pub first: i64,
    /// How many ordinals (`spec.replicas`).
    pub count: i64,
}

impl TemplateClaims {
    /// How many claims the set has at full scale.
    pub fn len(&self) -> i64 {
        (self.templates.len() as i64).saturating_mul(self.count.max(0))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Their names, template by template, ordinal by ordinal.
    pub fn names(&self) -> impl Iterator<Item = String> + '_ {
        let ordinals = self.first..self.first.saturating_add(self.count.max(0));
        self.templates.iter().flat_map(move |t| {
            ordinals
                .clone()
                .map(move |o| format!("{t}-{}-{o}", self.statefulset))
        })
    }

    /// Whether a claim of this name (in the set's namespace) is one of them.
    pub fn owns(&self, claim: &str) -> bool {
        self.templates.iter().any(|t| {
            claim
                .strip_prefix(t.as_str())
                .and_then(|r| r.strip_prefix('-'))
                .and_then(|r| r.strip_prefix(self.statefulset.as_str()))
                .and_then(|r| r.strip_prefix('-'))
                .and_then(|n| n.parse::<i64>().ok())
                .is_some_and(|n| n >= self.first && n < self.first.saturating_add(self.count))
        })
    }
}

/// What the verdict on an object depends on, besides every StorageClass and CSIDriver
/// (admission's default class, the classes claims name, attach-required drivers), which it
/// always does.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Needs {
    /// Claims by namespace and name: a workload's mounted claims, the claim a volume's
    /// claimRef names.
    pub claims: Vec<(String, String)>,
    /// A StatefulSet's template claims.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub templates: Option<TemplateClaims>,
    /// Volumes by name: the volume a claim names.
    pub volumes: Vec<String>,
    pub pool: Pool,
}

/// What the verdict on `object` (one Kubernetes object as JSON, in `namespace` when the request
/// says so) depends on. `old` is the live object of an update: a claim's `spec.volumeName`,
/// which the controller writes, comes from it when the manifest leaves it out.
pub fn needs(
    object: &serde_json::Value,
    namespace: &str,
    old: Option<&serde_json::Value>,
) -> Needs {
    let ix = index_of(object);
    let mut n = Needs::default();
    let ns = |view_ns: &str| {
        if namespace.is_empty() {
            view_ns.to_string()
        } else {
            namespace.to_string()
        }
    };
    if let Some(pvc) = ix.pvcs.first() {
        let named = pvc
            .volume_name
            .as_ref()
            .map(|v| v.value.to_string())
            .or_else(|| {
                let live = index_of(old?);
                let v = live.pvcs.first()?.volume_name.as_ref()?;
                Some(v.value.to_string())
            })
            .filter(|v| !v.is_empty());
        match named {
            Some(v) => n.volumes.push(v),
            None => n.pool = Pool::Always,
        }
    } else if let Some(pv) = ix.pvs.first() {
        if let Some(cr) = pv
            .claim_ref
            .as_ref()
            .filter(|c| !c.namespace.is_empty() && !c.name.is_empty())
        {
            n.claims
                .push((cr.namespace.to_string(), cr.name.to_string()));
        }
    } else if let Some(w) = ix.workloads.first() {
        let namespace = ns(&w.namespace);
        let mut mounted: Vec<String> = w.claims.iter().map(|u| u.claim.value.to_string()).collect();
        mounted.sort();
        mounted.dedup();
        n.claims = mounted
            .into_iter()
            .filter(|c| !c.is_empty())
            .map(|c| (namespace.clone(), c))
            .collect();
        let templates: Vec<String> = ix
            .claim_templates
            .iter()
            .filter(|t| t.obj == w.obj)
            .map(|t| t.name.to_string())
            .collect();
        if !templates.is_empty() {
            n.templates = Some(TemplateClaims {
                namespace: namespace.clone(),
                statefulset: w.name.to_string(),
                templates,
                first: w.ordinals_start,
                count: match w.pods {
                    PodCount::Fixed { count, .. } => count,
                    PodCount::PerNode => 0,
                },
            });
        }
        if !n.claims.is_empty() || n.templates.is_some() {
            n.pool = Pool::IfUnbound;
        }
    }
    n
}

/// The index of one object given as JSON.
fn index_of(object: &serde_json::Value) -> Index {
    let text = serde_json::to_string(object).unwrap_or_default();
    Index::build(&[Source::new("object.json", text)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_each_kind_depends_on() {
        let claim = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "data", "namespace": "app"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}});
        assert_eq!(needs(&claim, "app", None).pool, Pool::Always);
        let mut live = claim.clone();
        live["spec"]["volumeName"] = json!("pv-1");
        let n = needs(&claim, "app", Some(&live));
        assert_eq!((n.volumes, n.pool), (vec!["pv-1".to_string()], Pool::Never));

        let pv = json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1"},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                     "nfs": {"server": "10.0.0.1", "path": "/x"},
                     "claimRef": {"namespace": "app", "name": "data"}}});
        assert_eq!(
            needs(&pv, "", None).claims,
            vec![("app".to_string(), "data".to_string())]
        );

        let sts = json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"name": "web", "namespace": "app"},
            "spec": {"replicas": 2, "ordinals": {"start": 3}, "serviceName": "web",
                     "selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
                        "containers": [{"name": "c", "image": "i"}],
                        "volumes": [{"name": "shared", "persistentVolumeClaim": {"claimName": "cache"}}]}},
                     "volumeClaimTemplates": [{"metadata": {"name": "www"},
                        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]}});
        let n = needs(&sts, "app", None);
        assert_eq!(n.claims, vec![("app".to_string(), "cache".to_string())]);
        let t = n.templates.unwrap();
        assert_eq!(t.names().collect::<Vec<_>>(), ["www-web-3", "www-web-4"]);
        assert!(t.owns("www-web-4") && !t.owns("www-web-5") && !t.owns("www-web-2"));
        assert_eq!(n.pool, Pool::IfUnbound);

        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
        assert_eq!(needs(&cm, "app", None), Needs::default());
    }
}
