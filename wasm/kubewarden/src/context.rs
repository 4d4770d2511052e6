//! The cluster state the policy judges an object against, read through the host's
//! context-aware capabilities behind the [`Lookup`] seam (the waPC host in the policy, a map
//! in native tests).
//!
//! What is read is what the core says the verdict needs (`pvlint_core::api::needs`, from the
//! object's typed view), so that it reaches the verdict `pvlint lint --cluster-state` reaches
//! with the whole cluster:
//! - every StorageClass and CSIDriver (cluster-scoped, few): admission's default class, the
//!   classes claims name, attach-required drivers;
//! - the claims an object uses (a PVC itself, the claims a workload mounts, a StatefulSet's
//!   template claims, the claim in a PV's claimRef) and the volumes they name, and the claim
//!   each such volume's claimRef names;
//! - every PersistentVolume when a claim may still bind from the static pool (a claim without
//!   `spec.volumeName`, or one a workload mounts that does not exist yet): the PV controller's
//!   `findBestMatchForClaim` looks at all of them.
//!
//! A missing object is not an error: it does not exist, as with `--cluster-state`.

use std::collections::BTreeMap;

use pvlint_core::needs::Pool;
use serde_json::Value;

pub const CORE_V1: &str = "v1";
pub const STORAGE_V1: &str = "storage.k8s.io/v1";

/// Read access to the cluster. Errors are the host's own words.
pub trait Lookup {
    /// One object; `Ok(None)` when it does not exist. `namespace` is None for cluster-scoped kinds.
    fn get(
        &self,
        api_version: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Option<Value>, String>;
    /// Every object of a kind in the cluster.
    fn list_all(&self, api_version: &str, kind: &str) -> Result<Vec<Value>, String>;
    /// Every object of a namespaced kind in one namespace.
    fn list_namespaced(
        &self,
        api_version: &str,
        kind: &str,
        namespace: &str,
    ) -> Result<Vec<Value>, String>;
}

/// The kinds the policy reads (metadata.yml's contextAwareResources).
pub const READS: &[(&str, &str)] = &[
    (CORE_V1, "PersistentVolume"),
    (CORE_V1, "PersistentVolumeClaim"),
    (STORAGE_V1, "StorageClass"),
    (STORAGE_V1, "CSIDriver"),
];

fn s<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn name_of(v: &Value) -> Option<&str> {
    s(v, &["metadata", "name"])
}

/// Up to this many template claims a StatefulSet's are read one by one; beyond, the
/// namespace's claims are listed once.
const MAX_TEMPLATE_GETS: i64 = 64;

/// What was read, keyed so that an object is there once.
#[derive(Default)]
struct Gathered {
    classes: Vec<Value>,
    drivers: Vec<Value>,
    claims: BTreeMap<(String, String), Value>,
    volumes: BTreeMap<String, Value>,
    /// Every PersistentVolume was listed: volumes not in `volumes` do not exist.
    pool: bool,
}

impl Gathered {
    fn volume(&mut self, l: &dyn Lookup, name: &str) -> Result<Option<Value>, String> {
        if let Some(v) = self.volumes.get(name) {
            return Ok(Some(v.clone()));
        }
        if self.pool {
            return Ok(None);
        }
        let v = l.get(CORE_V1, "PersistentVolume", None, name)?;
        if let Some(v) = &v {
            self.volumes.insert(name.to_string(), v.clone());
        }
        Ok(v)
    }

    fn claim(&mut self, l: &dyn Lookup, ns: &str, name: &str) -> Result<Option<Value>, String> {
        let key = (ns.to_string(), name.to_string());
        if let Some(c) = self.claims.get(&key) {
            return Ok(Some(c.clone()));
        }
        let c = l.get(CORE_V1, "PersistentVolumeClaim", Some(ns), name)?;
        if let Some(c) = &c {
            self.claims.insert(key, c.clone());
        }
        Ok(c)
    }

    fn list_pool(&mut self, l: &dyn Lookup) -> Result<(), String> {
        if !self.pool {
            for v in l.list_all(CORE_V1, "PersistentVolume")? {
                if let Some(n) = name_of(&v) {
                    self.volumes.insert(n.to_string(), v.clone());
                }
            }
            self.pool = true;
        }
        Ok(())
    }

    /// The claim a volume's claimRef names, when it is not `skip`.
    fn claim_ref_of(
        &mut self,
        l: &dyn Lookup,
        volume: &Value,
        skip: Option<(&str, &str)>,
    ) -> Result<(), String> {
        let cr = volume.get("spec").and_then(|s| s.get("claimRef"));
        let (Some(ns), Some(name)) = (
            cr.and_then(|c| s(c, &["namespace"])),
            cr.and_then(|c| s(c, &["name"])),
        ) else {
            return Ok(());
        };
        if skip != Some((ns, name)) {
            self.claim(l, ns, name)?;
        }
        Ok(())
    }
}

/// Reads the cluster state that matters for `obj` (the object under admission, of `kind`, in
/// `namespace`; `old` is the live object of an UPDATE): what the core says its verdict needs
/// ([`pvlint_core::api::needs`]), then the needs of what was read (the volume a claim names,
/// the claim a volume's claimRef names). Returns the objects, the live one included, or the
/// host's error.
pub fn gather(
    kind: &str,
    namespace: &str,
    obj: &Value,
    old: Option<&Value>,
    l: &dyn Lookup,
) -> Result<Vec<Value>, String> {
    let mut g = Gathered {
        classes: l.list_all(STORAGE_V1, "StorageClass")?,
        drivers: l.list_all(STORAGE_V1, "CSIDriver")?,
        ..Gathered::default()
    };
    let name = name_of(obj).unwrap_or_default();
    let needs = pvlint_core::api::needs(obj, namespace, old);
    let templates = needs.templates.as_ref();
    // The claims by name (a get each: the namespace may hold thousands), unless a StatefulSet
    // would need more gets than one list of the namespace costs.
    let mut found_templates = 0i64;
    if templates.is_none_or(|t| t.len() <= MAX_TEMPLATE_GETS) {
        for (ns, c) in &needs.claims {
            g.claim(l, ns, c)?;
        }
        if let Some(t) = templates {
            for n in t.names() {
                if g.claim(l, &t.namespace, &n)?.is_some() {
                    found_templates += 1;
                }
            }
        }
    } else if let Some(t) = templates {
        for c in l.list_namespaced(CORE_V1, "PersistentVolumeClaim", &t.namespace)? {
            let Some(n) = name_of(&c) else { continue };
            let mounted = needs
                .claims
                .iter()
                .any(|(ns, m)| *ns == t.namespace && m == n);
            if mounted || t.owns(n) {
                found_templates += i64::from(t.owns(n));
                g.claims
                    .insert((t.namespace.clone(), n.to_string()), c.clone());
            }
        }
    }
    // The volumes the object names, and the claims their claimRefs name.
    for v in &needs.volumes {
        if let Some(pv) = g.volume(l, v)? {
            g.claim_ref_of(l, &pv, Some((namespace, name)))?;
        }
    }
    let missing_claims = needs.claims.iter().any(|k| !g.claims.contains_key(k));
    let missing_templates = templates.is_some_and(|t| found_templates < t.len());
    let unbound = g
        .claims
        .values()
        .any(|c| s(c, &["spec", "volumeName"]).is_none());
    match needs.pool {
        Pool::Always => g.list_pool(l)?,
        Pool::IfUnbound if missing_claims || missing_templates || unbound => g.list_pool(l)?,
        Pool::IfUnbound | Pool::Never => {}
    }
    // The volumes the claims read name (not the object itself), and their claimRefs' claims.
    let named: Vec<String> = g
        .claims
        .values()
        .flat_map(|c| pvlint_core::api::needs(c, "", None).volumes)
        .filter(|v| !(kind == "PersistentVolume" && v == name))
        .collect();
    for v in named {
        if let Some(pv) = g.volume(l, &v)? {
            g.claim_ref_of(l, &pv, None)?;
        }
    }
    let mut out = Vec::with_capacity(g.classes.len() + g.drivers.len() + g.volumes.len() + 1);
    let live = old.map(|o| (kind, name_of(o).unwrap_or_default()));
    let is_live =
        |k: &str, v: &Value| live.is_some_and(|(lk, ln)| lk == k && name_of(v) == Some(ln));
    out.extend(
        g.classes
            .into_iter()
            .filter(|v| !is_live("StorageClass", v)),
    );
    out.extend(g.drivers.into_iter().filter(|v| !is_live("CSIDriver", v)));
    out.extend(
        g.volumes
            .into_values()
            .filter(|v| !is_live("PersistentVolume", v)),
    );
    out.extend(g.claims.into_iter().filter_map(|((ns, _), v)| {
        (!(is_live("PersistentVolumeClaim", &v) && ns == namespace)).then_some(v)
    }));
    // The live object of an UPDATE, as the API server sent it: fresher than any read.
    if let Some(o) = old {
        out.push(o.clone());
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;
    use std::cell::RefCell;

    /// A cluster in memory that records what was asked.
    #[derive(Default)]
    pub struct Fake {
        pub objects: Vec<Value>,
        pub calls: RefCell<Vec<String>>,
        pub fail: Option<String>,
    }

    fn matches(v: &Value, api: &str, kind: &str) -> bool {
        s(v, &["apiVersion"]) == Some(api) && s(v, &["kind"]) == Some(kind)
    }

    impl Lookup for Fake {
        fn get(
            &self,
            api: &str,
            kind: &str,
            ns: Option<&str>,
            name: &str,
        ) -> Result<Option<Value>, String> {
            self.calls
                .borrow_mut()
                .push(format!("get {kind} {}/{name}", ns.unwrap_or("")));
            if let Some(e) = &self.fail {
                return Err(e.clone());
            }
            Ok(self
                .objects
                .iter()
                .find(|v| {
                    matches(v, api, kind)
                        && name_of(v) == Some(name)
                        && s(v, &["metadata", "namespace"]) == ns
                })
                .cloned())
        }
        fn list_all(&self, api: &str, kind: &str) -> Result<Vec<Value>, String> {
            self.calls.borrow_mut().push(format!("list {kind}"));
            if let Some(e) = &self.fail {
                return Err(e.clone());
            }
            Ok(self
                .objects
                .iter()
                .filter(|v| matches(v, api, kind))
                .cloned()
                .collect())
        }
        fn list_namespaced(&self, api: &str, kind: &str, ns: &str) -> Result<Vec<Value>, String> {
            self.calls.borrow_mut().push(format!("list {kind} in {ns}"));
            Ok(self
                .objects
                .iter()
                .filter(|v| matches(v, api, kind) && s(v, &["metadata", "namespace"]) == Some(ns))
                .cloned()
                .collect())
        }
    }

    pub fn pvc(ns: &str, name: &str, volume: Option<&str>) -> Value {
        let mut c = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": ns, "uid": format!("uid-{name}")},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                     "storageClassName": "fast"}});
        if let Some(v) = volume {
            c["spec"]["volumeName"] = json!(v);
        }
        c
    }

    pub fn pv(name: &str, claim: Option<(&str, &str)>) -> Value {
        let mut v = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "metadata": {"name": name},
            "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"},
                     "storageClassName": "fast", "csi": {"driver": "d", "volumeHandle": name}}});
        if let Some((ns, c)) = claim {
            v["spec"]["claimRef"] = json!({"namespace": ns, "name": c, "uid": format!("uid-{c}")});
        }
        v
    }

    fn names(objs: &[Value]) -> Vec<String> {
        objs.iter()
            .map(|o| {
                format!(
                    "{} {}",
                    s(o, &["kind"]).unwrap_or(""),
                    name_of(o).unwrap_or("")
                )
            })
            .collect()
    }

    fn cluster() -> Fake {
        Fake {
            objects: vec![
                json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
                       "metadata": {"name": "fast"}, "provisioner": "d"}),
                pvc("app", "a", Some("pv-a")),
                pvc("app", "b", Some("pv-b")),
                pvc("app", "unrelated", Some("pv-u")),
                pvc("other", "a", Some("pv-o")),
                pv("pv-a", Some(("app", "a"))),
                pv("pv-b", Some(("app", "b"))),
                pv("pv-u", Some(("app", "unrelated"))),
                pv("pv-o", Some(("other", "a"))),
                pv("pv-free", None),
            ],
            ..Fake::default()
        }
    }

    #[test]
    fn a_deployment_reads_its_claims_and_their_volumes() {
        let f = cluster();
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "app"},
            "spec": {"template": {"spec": {"volumes": [
                {"name": "x", "persistentVolumeClaim": {"claimName": "a"}},
                {"name": "y", "persistentVolumeClaim": {"claimName": "b"}},
                {"name": "z", "emptyDir": {}}]}}}});
        let got = gather("Deployment", "app", &d, None, &f).unwrap();
        assert_eq!(
            names(&got),
            [
                "StorageClass fast",
                "PersistentVolume pv-a",
                "PersistentVolume pv-b",
                "PersistentVolumeClaim a",
                "PersistentVolumeClaim b"
            ]
        );
        assert_eq!(
            *f.calls.borrow(),
            [
                "list StorageClass",
                "list CSIDriver",
                "get PersistentVolumeClaim app/a",
                "get PersistentVolumeClaim app/b",
                "get PersistentVolume /pv-a",
                "get PersistentVolume /pv-b"
            ]
        );
    }

    #[test]
    fn a_claim_that_may_bind_from_the_pool_reads_every_volume() {
        let f = cluster();
        let c = pvc("app", "new", None);
        let got = gather("PersistentVolumeClaim", "app", &c, None, &f).unwrap();
        assert_eq!(
            got.iter()
                .filter(|o| matches(o, "v1", "PersistentVolume"))
                .count(),
            5
        );
        // A workload mounting a claim that does not exist yet lists the pool too.
        let d = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "app"},
            "spec": {"volumes": [{"name": "x", "persistentVolumeClaim": {"claimName": "nope"}}]}});
        let got = gather("Pod", "app", &d, None, &f).unwrap();
        assert!(f
            .calls
            .borrow()
            .iter()
            .any(|c| c == "list PersistentVolume"));
        assert_eq!(
            got.iter()
                .filter(|o| matches(o, "v1", "PersistentVolume"))
                .count(),
            5
        );
    }

    #[test]
    fn a_volume_reads_its_claim_and_the_volume_that_claim_names() {
        let f = cluster();
        let v = pv("pv-new", Some(("app", "a")));
        let got = gather("PersistentVolume", "", &v, None, &f).unwrap();
        assert_eq!(
            names(&got),
            [
                "StorageClass fast",
                "PersistentVolume pv-a",
                "PersistentVolumeClaim a"
            ]
        );
        // A claim that does not exist is not an error.
        let v = pv("pv-new", Some(("app", "gone")));
        let got = gather("PersistentVolume", "", &v, None, &f).unwrap();
        assert_eq!(names(&got), ["StorageClass fast"]);
    }

    #[test]
    fn statefulset_template_claims_are_found_by_name() {
        let f = Fake {
            objects: vec![
                pvc("db", "data-web-0", Some("pv-0")),
                pvc("db", "data-web-7", None),
                pv("pv-0", Some(("db", "data-web-0"))),
            ],
            ..Fake::default()
        };
        let sts = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web", "namespace": "db"},
            "spec": {"replicas": 2, "volumeClaimTemplates": [{"metadata": {"name": "data"}}]}});
        let got = gather("StatefulSet", "db", &sts, None, &f).unwrap();
        // data-web-7 is outside the ordinals; data-web-1 does not exist yet: the pool is read.
        assert_eq!(
            names(&got),
            ["PersistentVolume pv-0", "PersistentVolumeClaim data-web-0"]
        );
        assert!(f
            .calls
            .borrow()
            .iter()
            .any(|c| c == "list PersistentVolume"));
    }

    #[test]
    fn claims_are_read_by_name_and_a_large_statefulset_lists_the_namespace() {
        let f = Fake {
            objects: vec![
                pvc("db", "data-web-0", Some("pv-0")),
                pvc("db", "other", None),
                pv("pv-0", Some(("db", "data-web-0"))),
            ],
            ..Fake::default()
        };
        let sts = |replicas: i64| {
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web", "namespace": "db"},
                "spec": {"replicas": replicas, "volumeClaimTemplates": [{"metadata": {"name": "data"}}]}})
        };
        gather("StatefulSet", "db", &sts(2), None, &f).unwrap();
        let calls = f.calls.borrow().clone();
        assert!(calls.contains(&"get PersistentVolumeClaim db/data-web-1".to_string()));
        assert!(!calls
            .iter()
            .any(|c| c.starts_with("list PersistentVolumeClaim")));
        f.calls.borrow_mut().clear();
        // 100 template claims: one list of the namespace instead of 100 gets.
        let got = gather("StatefulSet", "db", &sts(100), None, &f).unwrap();
        let calls = f.calls.borrow().clone();
        assert!(calls.contains(&"list PersistentVolumeClaim in db".to_string()));
        assert!(!calls
            .iter()
            .any(|c| c.starts_with("get PersistentVolumeClaim")));
        assert!(names(&got).contains(&"PersistentVolumeClaim data-web-0".to_string()));
        assert!(!names(&got).contains(&"PersistentVolumeClaim other".to_string()));
    }

    #[test]
    fn the_live_object_of_an_update_replaces_what_was_read() {
        let f = cluster();
        let old = pvc("app", "a", Some("pv-a"));
        let mut new = old.clone();
        new["metadata"]["labels"] = json!({"x": "y"});
        let got = gather("PersistentVolumeClaim", "app", &new, Some(&old), &f).unwrap();
        assert_eq!(
            names(&got),
            [
                "StorageClass fast",
                "PersistentVolume pv-a",
                "PersistentVolumeClaim a"
            ]
        );
        assert_eq!(got.last().unwrap(), &old);
    }

    #[test]
    fn host_errors_are_returned() {
        let f = Fake {
            fail: Some("boom".into()),
            ..Fake::default()
        };
        assert_eq!(
            gather("StorageClass", "", &json!({}), None, &f).unwrap_err(),
            "boom"
        );
    }
}
