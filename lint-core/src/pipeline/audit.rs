//! The audit of a live cluster's own objects (`pvlint cluster`, [`Request::audit`]):
//! one simulation of the cluster state (with the manifests, if any, applied onto it), the
//! manifest rules over the manifests, and over the cluster's objects the cluster-only rules
//! plus the `lint` rules that apply to objects that already exist ([`rules::Rule::scope`]).

use super::findings::{one_per_cause, settle, sort};
use super::{enabled, Annotations, Run};
use crate::index::Index;
use crate::model::live::Live;
use crate::request::Request;
use crate::rules::{self, Context, Sink};
use crate::sim::{self, Side};

pub(crate) fn run(req: &Request, cluster: &mut Index, profile: &crate::profile::Profile) -> Run {
    let manifests = Index::build_applied(
        &req.sources,
        req.options.target(),
        req.options.field_validation,
    );
    let world = sim::simulate(cluster, &manifests, &req.options, true);
    let live = Live::read(&cluster.objects);
    // A ReplicaSet of a Deployment, a Job of a CronJob, a Pod of either: the owner is judged.
    cluster
        .workloads
        .retain(|w| !live.controlled.contains(&w.obj));
    let mut findings = Vec::new();
    if !req.sources.is_empty() {
        let ctx = Context {
            sources: &req.sources,
            index: &manifests,
            options: &req.options,
            sim: &world,
            side: Side::Manifest,
            live: None,
            served_elsewhere: &[],
            cluster: Some(cluster),
            profile,
        };
        for rule in rules::ALL.iter().filter(|r| enabled(r, &req.options)) {
            if rule.scope.on_manifests() {
                (rule.check)(&ctx, &mut Sink::new(rule, &mut findings));
            }
        }
    }
    let ctx = Context {
        sources: &req.cluster,
        index: cluster,
        options: &req.options,
        sim: &world,
        side: Side::Cluster,
        served_elsewhere: &[],
        live: Some(&live),
        cluster: None,
        profile,
    };
    let mut on_cluster = Vec::new();
    for rule in rules::ALL.iter().filter(|r| enabled(r, &req.options)) {
        if rule.scope.on_cluster() {
            (rule.check)(&ctx, &mut Sink::new(rule, &mut on_cluster));
        }
    }
    let (mut findings, mut suppressed) =
        settle(&Annotations::read(&manifests), &req.options, findings);
    let (mut on_cluster, mut on_cluster_suppressed) =
        settle(&Annotations::read(cluster), &req.options, on_cluster);
    // The cluster's sources come after the manifests in the report's order.
    for f in on_cluster.iter_mut().chain(&mut on_cluster_suppressed) {
        f.location.source += req.sources.len();
    }
    findings.extend(on_cluster);
    suppressed.extend(on_cluster_suppressed);
    sort(&mut findings);
    one_per_cause(&mut findings);
    Run {
        findings,
        suppressed,
        documents: manifests.documents + cluster.documents,
        objects: manifests.objects.len() + cluster.objects.len(),
    }
}
