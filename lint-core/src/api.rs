//! The one API every host uses: the CLI, the WASI module's JSON ABI, the browser bindings and
//! the admission policy. A [`Request`] (manifests, the cluster state, options, what-if
//! operations) goes in; a [`Report`] (lint) or a [`Simulation`] (simulate) comes out.
//! `lint_json` / `simulate_json` take and give JSON, byte for byte what the CLI prints.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::index::Index;
pub use crate::migrate::{
    Change, ChangeKind, MigrateOptions, MigrateRequest, MigratedObject, Migration,
};
use crate::model::ObjId;
use crate::options::Options;
use crate::sim::report::{ClaimOutcome, RefusedUpdate};
use crate::sim::{self, Located, Side, Simulation};
use crate::source::Source;
use crate::Report;

/// What every entry point takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Request {
    /// The manifests, each a named text (`{"name": "pv.yaml", "text": "..."}`).
    pub sources: Vec<Source>,
    /// The cluster's current objects (`kubectl get pv,pvc,storageclass,csidriver -A -o yaml`).
    pub cluster: Vec<Source>,
    pub options: Options,
    /// Lint each source on its own (`pvlint lint --each-file`).
    pub each_file: bool,
    /// Lint every source as one apply set (`pvlint lint --together`). By default each
    /// directory, each kustomization root and standard input is one (see [`crate::applyset`]).
    pub together: bool,
    /// Also judge the cluster state's own objects, as a live cluster (`pvlint cluster`): the
    /// cluster-only rules (claim-lost, claim-pending, volume-released, volume-failed,
    /// stale-volume-attachment) and the `lint` rules that apply to existing objects, with
    /// findings that point at the cluster's objects. `eachFile` is ignored.
    pub audit: bool,
    /// What-if operations for `simulate`, in order.
    pub operations: Vec<Operation>,
}

/// A what-if operation, as an admin would run it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "op", deny_unknown_fields)]
pub enum Operation {
    /// `kubectl delete pv NAME`.
    DeletePv { name: String },
    /// `kubectl delete pvc -n NAMESPACE NAME`.
    DeletePvc { namespace: String, name: String },
    /// `kubectl delete pod -n NAMESPACE NAME`: a Pod of the input; its claims are no longer in
    /// use (a claim deleted while the pod ran goes now).
    DeletePod { namespace: String, name: String },
    /// `kubectl scale sts -n NAMESPACE NAME --replicas=N`: a scale-down releases the claims of
    /// the ordinals it removes (and deletes them under `whenScaled: Delete`); a scale-up
    /// creates or reuses them.
    ScaleStatefulSet {
        namespace: String,
        name: String,
        replicas: i64,
    },
    /// `kubectl delete sts -n NAMESPACE NAME`: its pods go; its claims too under
    /// `whenDeleted: Delete`.
    DeleteStatefulSet { namespace: String, name: String },
    /// Remove spec.claimRef from a volume (how an admin makes a Released volume Available).
    RemoveClaimRef { name: String },
    /// Remove every finalizer from a volume (how an admin unblocks a Terminating one).
    RemoveFinalizers { name: String },
    /// `kubectl apply -f` more manifests.
    Apply { sources: Vec<Source> },
}

/// The accepted forms of an operation, for usage errors.
pub const OPERATION_FORMS: &str = "'delete pv/NAME', 'delete pvc/NAMESPACE/NAME' (or pvc/NAME in default), 'delete pod/NAMESPACE/NAME', 'delete sts/NAMESPACE/NAME', 'scale sts/NAMESPACE/NAME REPLICAS', 'remove-claimref pv/NAME', 'remove-finalizers pv/NAME', 'apply FILE'";

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operation::DeletePv { name } => write!(f, "delete pv/{name}"),
            Operation::DeletePvc { namespace, name } => write!(f, "delete pvc/{namespace}/{name}"),
            Operation::DeletePod { namespace, name } => write!(f, "delete pod/{namespace}/{name}"),
            Operation::ScaleStatefulSet {
                namespace,
                name,
                replicas,
            } => write!(f, "scale sts/{namespace}/{name} {replicas}"),
            Operation::DeleteStatefulSet { namespace, name } => {
                write!(f, "delete sts/{namespace}/{name}")
            }
            Operation::RemoveClaimRef { name } => write!(f, "remove-claimref pv/{name}"),
            Operation::RemoveFinalizers { name } => write!(f, "remove-finalizers pv/{name}"),
            Operation::Apply { sources } => {
                let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
                write!(f, "apply {}", names.join(" "))
            }
        }
    }
}

/// Parses the CLI form of an operation. `apply FILE` parses to an `Apply` with one source
/// named FILE and no text: the host reads the file and fills it in.
impl FromStr for Operation {
    type Err = String;

    fn from_str(s: &str) -> Result<Operation, String> {
        let bad = || format!("\"{s}\" is not an operation; use one of {OPERATION_FORMS}");
        let (verb, arg) = s.trim().split_once(char::is_whitespace).ok_or_else(bad)?;
        let arg = arg.trim();
        let pv = |a: &str| {
            a.strip_prefix("pv/")
                .or_else(|| a.strip_prefix("persistentvolume/"))
                .filter(|n| !n.is_empty() && !n.contains('/'))
                .map(String::from)
        };
        match verb {
            "delete" => {
                if let Some(name) = pv(arg) {
                    return Ok(Operation::DeletePv { name });
                }
                let (kind, rest) = kind_and_rest(arg).ok_or_else(bad)?;
                let (namespace, name) = namespaced(rest).ok_or_else(bad)?;
                Ok(match kind {
                    Namespaced::Pod => Operation::DeletePod { namespace, name },
                    Namespaced::Claim => Operation::DeletePvc { namespace, name },
                    Namespaced::StatefulSet => Operation::DeleteStatefulSet { namespace, name },
                })
            }
            "scale" => {
                // `scale sts/NS/NAME 3` or kubectl's `--replicas=3`.
                let (target, count) = arg.split_once(char::is_whitespace).ok_or_else(bad)?;
                let count = count.trim();
                let count = count.strip_prefix("--replicas=").unwrap_or(count);
                let replicas = count
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (0..=i64::from(i32::MAX)).contains(n))
                    .ok_or_else(|| {
                        format!("\"{s}\": replicas must be a whole number from 0 to 2147483647")
                    })?;
                match kind_and_rest(target).ok_or_else(bad)? {
                    (Namespaced::StatefulSet, rest) => {
                        let (namespace, name) = namespaced(rest).ok_or_else(bad)?;
                        Ok(Operation::ScaleStatefulSet {
                            namespace,
                            name,
                            replicas,
                        })
                    }
                    _ => Err(bad()),
                }
            }
            "remove-claimref" => Ok(Operation::RemoveClaimRef {
                name: pv(arg).ok_or_else(bad)?,
            }),
            "remove-finalizers" => Ok(Operation::RemoveFinalizers {
                name: pv(arg).ok_or_else(bad)?,
            }),
            "apply" if !arg.is_empty() => Ok(Operation::Apply {
                sources: vec![Source::new(arg, "")],
            }),
            _ => Err(bad()),
        }
    }
}

/// The namespaced kinds an operation names.
enum Namespaced {
    Pod,
    Claim,
    StatefulSet,
}

/// `pod/…`, `pvc/…`, `sts/…` (and kubectl's longer names): the kind and what follows.
fn kind_and_rest(arg: &str) -> Option<(Namespaced, &str)> {
    let (kind, rest) = arg.split_once('/')?;
    let kind = match kind {
        "pod" | "pods" | "po" => Namespaced::Pod,
        "pvc" | "persistentvolumeclaim" | "persistentvolumeclaims" => Namespaced::Claim,
        "sts" | "statefulset" | "statefulsets" | "statefulset.apps" => Namespaced::StatefulSet,
        _ => return None,
    };
    Some((kind, rest))
}

/// `NAMESPACE/NAME`, or `NAME` in the default namespace.
fn namespaced(rest: &str) -> Option<(String, String)> {
    let (namespace, name) = match rest.split_once('/') {
        Some((ns, n)) => (ns, n),
        None => ("default", rest),
    };
    (!namespace.is_empty() && !name.is_empty() && !name.contains('/'))
        .then(|| (namespace.to_string(), name.to_string()))
}

impl Request {
    /// How the request's sources are split into apply sets.
    pub fn grouping(&self) -> crate::applyset::Grouping {
        use crate::applyset::Grouping;
        match (self.each_file, self.together) {
            (true, _) => Grouping::EachFile,
            (false, true) => Grouping::Together,
            (false, false) => Grouping::Directory,
        }
    }

    pub fn new(sources: Vec<Source>) -> Request {
        Request {
            sources,
            ..Request::default()
        }
    }

    /// Parses a JSON request; the error says what is wrong.
    pub fn from_json(json: &str) -> Result<Request, String> {
        let r: Request = serde_json::from_str(json).map_err(|e| format!("invalid request: {e}"))?;
        r.options.validate()?;
        if r.each_file && r.together {
            return Err("invalid request: eachFile and together exclude each other".into());
        }
        Ok(r)
    }
}

/// Lints the request's manifests (applied onto its cluster state).
pub fn lint(req: &Request) -> Report {
    crate::lint_request(req)
}

/// Lints like [`lint`], and drops each source's text as soon as the objects are read from it,
/// before the typed views are built: for hosts that show no source lines afterwards (JSON,
/// SARIF, CI annotations). On a large input the text is an eighth of the peak memory. The
/// report is the one [`lint`] gives; the sources keep their names, their texts are empty
/// after. Requests with `each_file` or `audit` keep their texts (each file is indexed alone,
/// and Kustomize inputs are looked up across all of them).
pub fn lint_and_drop_texts(req: &mut Request) -> Report {
    crate::lint_request_dropping_texts(req)
}

/// What `simulate` does with the world after the first apply (no operation) and after each
/// operation, with the updates that operation's apply had refused.
type StepReport<'a> = dyn FnMut(&sim::World, Option<&Operation>, Vec<RefusedUpdate>) + 'a;

/// Simulates the request: the manifests applied onto the cluster state, then each operation.
/// Where timing decides (claims created together, volumes created in the same apply), the
/// outcomes other timings give are listed too (`alternatives`).
pub fn simulate(req: &Request) -> Result<Simulation, String> {
    let mut manifests = Index::build_for(&req.sources, req.options.kube_version);
    manifests.reject_unknown_fields(req.options.field_validation);
    let cluster = Index::build_for(&req.cluster, req.options.kube_version);
    manifests.check_live_updates(&crate::index::LiveObjects::of(&cluster));
    // Applied as one `kubectl apply`: in file order, unless kustomize sorts it by kind.
    let set = sim::Elsewhere {
        file_order: !req
            .sources
            .iter()
            .any(|s| crate::kustomize::is_kustomization(&s.name)),
        ..sim::Elsewhere::default()
    };
    // The manifests of each `apply` operation, read once.
    let applied: Vec<Option<Index>> = req
        .operations
        .iter()
        .map(|op| match op {
            Operation::Apply { sources } => {
                let mut more = Index::build_for(sources, req.options.kube_version);
                more.reject_unknown_fields(req.options.field_validation);
                Some(more)
            }
            _ => None,
        })
        .collect();
    let run = |timing: sim::timing::Timing, each: &mut StepReport| -> Result<sim::World, String> {
        let mut world = sim::simulate_timed(
            &cluster,
            &manifests,
            &req.options,
            !req.cluster.is_empty(),
            &set,
            timing.clone(),
        );
        each(&world, None, Vec::new());
        // Each apply's refused updates: those definitions never took effect.
        let mut refused_at: Vec<HashSet<ObjId>> = Vec::new();
        for (n, (op, more)) in req.operations.iter().zip(&applied).enumerate() {
            let mut refused = HashSet::new();
            let mut refusals = Vec::new();
            if let Some(more) = more {
                let mut earlier: Vec<(&Index, Option<&HashSet<ObjId>>)> =
                    vec![(&cluster, None), (&manifests, None)];
                for (m, prev) in applied[..n].iter().enumerate() {
                    if let Some(ix) = prev {
                        earlier.push((ix, refused_at.get(m)));
                    }
                }
                for u in updates_onto(&world, &earlier, more) {
                    if !u.refusals.is_empty() {
                        refused.insert(u.obj);
                        let o = more.object(u.obj);
                        refusals.push(RefusedUpdate {
                            kind: o.kind.to_string(),
                            namespace: o.namespace.as_ref().map(|n| n.to_string()),
                            name: o.name.to_string(),
                            causes: u.refusals.iter().map(|r| r.cause.clone()).collect(),
                        });
                    }
                }
            }
            refused_at.push(refused.clone());
            let o = match op {
                Operation::DeletePv { name } => sim::Operation::DeleteVolume(name),
                Operation::DeletePvc { namespace, name } => {
                    sim::Operation::DeleteClaim { namespace, name }
                }
                Operation::DeletePod { namespace, name } => {
                    sim::Operation::DeletePod { namespace, name }
                }
                Operation::ScaleStatefulSet {
                    namespace,
                    name,
                    replicas,
                } => sim::Operation::ScaleStatefulSet {
                    namespace,
                    name,
                    replicas: *replicas,
                },
                Operation::DeleteStatefulSet { namespace, name } => {
                    sim::Operation::DeleteStatefulSet { namespace, name }
                }
                Operation::RemoveClaimRef { name } => sim::Operation::RemoveClaimRef(name),
                Operation::RemoveFinalizers { name } => sim::Operation::RemoveFinalizers(name),
                Operation::Apply { .. } => {
                    sim::Operation::Apply(more.as_ref().expect("read above"), &refused)
                }
            };
            world.set_timing(&timing);
            world.operate(o).map_err(|e| format!("{op}: {e}"))?;
            each(&world, Some(op), refusals);
        }
        Ok(world)
    };
    let locate =
        |side: Side, obj| locate(&req.sources, &req.cluster, &manifests, &cluster, side, obj);
    let mut report: Option<Simulation> = None;
    let world = run(
        sim::timing::Timing::default(),
        &mut |w, op, refused| match op {
            None => {
                let mut r = w.report(&locate);
                if !req.operations.is_empty() {
                    r.steps.push(w.step("apply the manifests".into(), &locate));
                }
                report = Some(r);
            }
            Some(op) => {
                if let Some(r) = report.as_mut() {
                    let mut step = w.step(op.to_string(), &locate);
                    step.refused = refused;
                    r.steps.push(step);
                }
            }
        },
    )?;
    let mut report = report.expect("the first apply is reported");
    if let Some(last) = report.steps.last() {
        report.claims = last.claims.clone();
        report.volumes = last.volumes.clone();
        report.converged = world.converged();
        report.not_created = world.not_created();
    }
    report.alternatives = sim::timing::alternatives(&world, |t| run(t, &mut |_, _, _| {}).ok());
    // A claim whose outcome another timing changes depends on the order.
    let alternatives = &report.alternatives;
    let varies = |c: &ClaimOutcome| {
        let key = format!("{}/{}", c.namespace, c.name);
        alternatives
            .iter()
            .any(|a| a.bindings.iter().any(|b| b.claim == key))
    };
    let last = report.steps.last_mut().map(|s| &mut s.claims);
    for c in report.claims.iter_mut().chain(last.into_iter().flatten()) {
        if varies(c) {
            c.order_dependent = true;
        }
    }
    Ok(report)
}

/// The updates an `apply` operation makes to objects that exist by then: each judged against
/// the latest accepted definition of the object (the cluster state's, the manifests', an
/// earlier apply's), as the cluster holds it then: kubectl's last-applied record of it, and
/// for a claim what the controller and admission wrote (volumeName, the class, the phase and
/// capacity).
fn updates_onto(
    world: &sim::World,
    earlier: &[(&Index, Option<&HashSet<ObjId>>)],
    more: &Index,
) -> Vec<crate::index::LiveUpdate> {
    use crate::index::object_key;
    use serde_json::{json, Value};
    // The latest definition of each object: (index position, object).
    let mut latest: HashMap<crate::index::ObjectKey, (usize, ObjId)> = HashMap::new();
    let mut expansion: HashMap<crate::node::Str, bool> = HashMap::new();
    let mut classes_known = false;
    for (i, (ix, refused)) in earlier.iter().enumerate() {
        for (id, o) in ix.objects.iter().enumerate() {
            if o.tree_released()
                || ix.is_rejected(id)
                || ix.is_superseded(id)
                || refused.is_some_and(|r| r.contains(&id))
            {
                continue;
            }
            classes_known |= o.kind == "StorageClass";
            latest.insert(object_key(o), (i, id));
        }
        expansion.extend(ix.expansions());
    }
    expansion.extend(more.expansions());
    let live = |o: &crate::model::Object| -> Option<Value> {
        let &(i, id) = latest.get(&object_key(o))?;
        let prev = earlier[i].0.object(id);
        let mut v = crate::value::convert(prev.root());
        if i == 0 {
            return Some(v); // the cluster state's own object
        }
        // Created or updated by `kubectl apply`: it recorded what it applied.
        let applied = v.to_string();
        v["metadata"]["annotations"][crate::model::update::LAST_APPLIED] = json!(applied);
        if o.kind == "PersistentVolumeClaim" {
            let ns = prev.namespace.as_deref().unwrap_or("default");
            if let Some(c) = world.claim_named(ns, &prev.name) {
                if let Some(class) = &world.claim(c).class {
                    if v["spec"]["storageClassName"].is_null() {
                        v["spec"]["storageClassName"] = json!(class.as_str());
                    }
                }
                if let Some(vol) = world.binding_of(c) {
                    let vol = world.volume(vol);
                    v["spec"]["volumeName"] = json!(vol.name.as_str());
                    v["status"]["phase"] = json!("Bound");
                    if let Some(q) = &vol.spec.capacity {
                        v["status"]["capacity"]["storage"] = json!(q.text.as_str());
                    }
                }
            }
        }
        Some(v)
    };
    more.updates_against(&live, &|name| expansion.get(name).copied(), classes_known)
}

fn locate(
    sources: &[Source],
    cluster_sources: &[Source],
    manifests: &Index,
    cluster: &Index,
    side: Side,
    obj: crate::model::ObjId,
) -> Option<Located> {
    let (ix, srcs) = match side {
        Side::Manifest => (manifests, sources),
        Side::Cluster => (cluster, cluster_sources),
    };
    let o = ix.objects.get(obj)?;
    Some(Located {
        object: o.objref(),
        file: srcs.get(o.source)?.name.to_string(),
        line: o.whole().span.start.line,
    })
}

/// Makes exported volumes and claims safe to apply to another cluster (`pvlint migrate`):
/// one document per object, server-populated fields and stale binding identity removed,
/// Retain set; see [`crate::migrate`].
pub fn migrate(req: &MigrateRequest) -> Migration {
    crate::migrate::migrate(req)
}

/// The migration for a JSON [`MigrateRequest`], as JSON (schema `pvlint-migrate/v1`).
pub fn migrate_json(request: &str) -> String {
    match serde_json::from_str::<MigrateRequest>(request) {
        Ok(r) => crate::render::migration_json(&migrate(&r)),
        Err(e) => error_json(&format!("invalid request: {e}")),
    }
}

/// The documents of a YAML or JSON stream as JSON values, typed the way the core (and
/// Kubernetes' YAML decoder) types them: `yes` is a boolean, `"yes"` a string, merge keys
/// applied. Hosts use it to read the same files the core reads (cluster state, settings).
/// The first parse problem is the error, with its line and column.
pub fn documents_json(text: &str) -> Result<Vec<serde_json::Value>, String> {
    crate::value::documents_to_json(text)
}

/// `{"error": "..."}`, the answer to a request that cannot be served.
pub fn error_json(message: &str) -> String {
    let mut s = serde_json::json!({ "error": message }).to_string();
    s.push('\n');
    s
}

/// The lint report for a JSON request, as `pvlint lint --format json` prints it.
pub fn lint_json(request: &str) -> String {
    match Request::from_json(request) {
        Ok(r) => crate::render::json(&lint(&r)),
        Err(e) => error_json(&e),
    }
}

/// The simulation for a JSON request, as `pvlint simulate --format json` prints it.
pub fn simulate_json(request: &str) -> String {
    match Request::from_json(request).and_then(|r| simulate(&r)) {
        Ok(s) => crate::render::simulation_json(&s),
        Err(e) => error_json(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_parse_and_print() {
        for (text, op) in [
            ("delete pv/a", Operation::DeletePv { name: "a".into() }),
            (
                "delete pvc/ns/c",
                Operation::DeletePvc {
                    namespace: "ns".into(),
                    name: "c".into(),
                },
            ),
            (
                "delete pvc/c",
                Operation::DeletePvc {
                    namespace: "default".into(),
                    name: "c".into(),
                },
            ),
            (
                "remove-claimref pv/a",
                Operation::RemoveClaimRef { name: "a".into() },
            ),
            (
                "remove-finalizers pv/a",
                Operation::RemoveFinalizers { name: "a".into() },
            ),
            (
                "delete pod/app/api",
                Operation::DeletePod {
                    namespace: "app".into(),
                    name: "api".into(),
                },
            ),
            (
                "delete sts/app/web",
                Operation::DeleteStatefulSet {
                    namespace: "app".into(),
                    name: "web".into(),
                },
            ),
            (
                "scale sts/app/web 3",
                Operation::ScaleStatefulSet {
                    namespace: "app".into(),
                    name: "web".into(),
                    replicas: 3,
                },
            ),
            (
                "scale statefulset/web --replicas=0",
                Operation::ScaleStatefulSet {
                    namespace: "default".into(),
                    name: "web".into(),
                    replicas: 0,
                },
            ),
        ] {
            assert_eq!(text.parse::<Operation>().unwrap(), op);
        }
        assert_eq!(
            "delete pvc/c".parse::<Operation>().unwrap().to_string(),
            "delete pvc/default/c"
        );
        for bad in [
            "delete",
            "delete deployment/x",
            "remove-claimref pvc/x",
            "drop pv/x",
            "delete pv/",
            "scale sts/app/web",
            "scale deployment/app/web 2",
            "delete sts/",
        ] {
            let e = bad.parse::<Operation>().unwrap_err();
            assert!(e.contains("delete pv/NAME"), "{e}");
        }
        for bad in ["scale sts/app/web many", "scale sts/app/web 3000000000"] {
            let e = bad.parse::<Operation>().unwrap_err();
            assert!(e.contains("replicas must be a whole number"), "{e}");
        }
    }

    #[test]
    fn documents_as_json() {
        let docs =
            documents_json("a: yes\nb: \"yes\"\nc: 0x1F\nd: 1.5\ne: ~\n---\n[1, x]\n").unwrap();
        assert_eq!(
            docs,
            vec![
                serde_json::json!({"a": true, "b": "yes", "c": 31, "d": 1.5, "e": null}),
                serde_json::json!([1, "x"])
            ]
        );
        let e = documents_json("a: [1\n").unwrap_err();
        assert!(e.starts_with("1:") || e.starts_with("2:"), "{e}");
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        assert!(lint_json("not json").contains("\"error\":\"invalid request"));
        let e = lint_json(r#"{"sources": [], "options": {"kubeVersion": "two"}}"#);
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = lint_json(r#"{"sources": [], "bogus": 1}"#);
        assert!(e.contains("unknown field"), "{e}");
        let e = simulate_json(r#"{"sources": [{"name": "x"}]}"#);
        assert!(e.contains("missing field `text`"), "{e}");
        let e =
            simulate_json(r#"{"sources": [], "operations": [{"op": "deletePv", "name": "nope"}]}"#);
        assert!(e.contains("there is no PersistentVolume nope"), "{e}");
    }
}
