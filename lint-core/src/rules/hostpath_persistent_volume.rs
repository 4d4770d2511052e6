use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "hostpath-persistent-volume",
    family: Family::Validity,
    severity: Severity::Info,
    summary: "A hostPath PersistentVolume without nodeAffinity",
    docs: Docs {
        what: "Finds `hostPath` PersistentVolumes without `spec.nodeAffinity`. (A `local` volume without it is \
               rejected by the API server, \"Local volume requires node affinity\": `invalid-field-value` reports that.)",
        why: "A hostPath volume is a directory on whichever node the pod runs on. Without node affinity the \
              scheduler may put the next pod on another node, where the directory is empty: the data seems lost, \
              and writes are scattered over nodes.",
        example: include_str!("../../tests/fixtures/hostpath-persistent-volume/bad.yaml"),
        fix: "Pin the volume to the node that has the directory with `spec.nodeAffinity`, or use a provisioner \
              that does (local-path, a CSI driver).",
        fixed: include_str!("../../tests/fixtures/hostpath-persistent-volume/good.yaml"),
        known_problems: "A single-node cluster (minikube, kind with one node, k3s on one machine) never moves the pod, so a \
                         hostPath volume without nodeAffinity is harmless there.",
        grades: &[
            Grade {
                severity: Severity::Info,
                when: "a hostPath PersistentVolume has no nodeAffinity (harmless on a cluster of one node)",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

const AFFINITY: &str = "nodeAffinity:\n  required:\n    nodeSelectorTerms:\n    - matchExpressions:\n      - key: kubernetes.io/hostname\n        operator: In\n        values: [<node-name>]";

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    // A volume the API server rejects is never created: its only findings say why.
    for pv in ctx.index.accepted_pvs() {
        let Some(src) = &pv.source else { continue };
        if pv.has_node_affinity || src.kind != "hostPath" {
            continue;
        }
        let path = src.path.as_deref().unwrap_or("?");
        sink.report(ctx, pv.obj, &src.field, format!("hostPath PersistentVolume {} has no nodeAffinity", pv.name))
            .consequence(Consequence::said(format!(
                    "on a cluster with more than one node, {path} is a directory on whichever node the pod lands on: a pod rescheduled to another node sees an empty directory there, and the data stays behind"
                )).assuming(vec!["the cluster has more than one node (pvlint cannot see how many)".into()]))
            .help("pin the volume to the node that holds the directory")
            .suggest("add spec.nodeAffinity", Some(AFFINITY));
    }
}
