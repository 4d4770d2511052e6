//! `simulate`: the manifests applied onto the cluster state, then each what-if operation, with
//! the outcomes other timings give.

use std::collections::{HashMap, HashSet};

use crate::index::Index;
use crate::model::ObjId;
use crate::request::{Operation, Request};
use crate::sim::report::{ClaimOutcome, RefusedUpdate};
use crate::sim::{self, Located, Side, Simulation};
use crate::source::Source;

/// What `simulate` does with the world after the first apply (no operation) and after each
/// operation, with the updates that operation's apply had refused.
type StepReport<'a> = dyn FnMut(&sim::World, Option<&Operation>, Vec<RefusedUpdate>) + 'a;

/// Simulates the request: the manifests applied onto the cluster state, then each operation.
/// Where timing decides (claims created together, volumes created in the same apply), the
/// outcomes other timings give are listed too (`alternatives`).
pub(crate) fn simulate(req: &Request) -> Result<Simulation, String> {
    let mut manifests = Index::build_applied(
        &req.sources,
        req.options.target(),
        req.options.field_validation,
    );
    let cluster = Index::build_for(&req.cluster, req.options.target());
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
            Operation::Apply { sources } => Some(Index::build_applied(
                sources,
                req.options.target(),
                req.options.field_validation,
            )),
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
    let mut expansion: HashMap<crate::string::Str, bool> = HashMap::new();
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
