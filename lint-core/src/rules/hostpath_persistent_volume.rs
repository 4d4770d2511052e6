use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "hostpath-persistent-volume",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "A hostPath or local PersistentVolume without nodeAffinity",
    docs: Docs {
        what: "Finds `hostPath` PersistentVolumes without `spec.nodeAffinity` (warning) and `local` ones without \
               it (error).",
        why: "A hostPath volume is a directory on whichever node the pod runs on. Without node affinity the \
              scheduler may put the next pod on another node, where the directory is empty: the data seems lost, \
              and writes are scattered over nodes. A `local` volume without node affinity is rejected by the API \
              server (\"Local volume requires node affinity\").",
        example: include_str!("../../tests/fixtures/hostpath-persistent-volume/bad.yaml"),
        fix: "Pin the volume to the node that has the directory with `spec.nodeAffinity`, or use a provisioner \
              that does (local-path, a CSI driver).",
        fixed: include_str!("../../tests/fixtures/hostpath-persistent-volume/good.yaml"),
    },
    check,
};

const AFFINITY: &str = "nodeAffinity:\n  required:\n    nodeSelectorTerms:\n    - matchExpressions:\n      - key: kubernetes.io/hostname\n        operator: In\n        values: [<node-name>]";

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for pv in &ctx.index.pvs {
        let Some(src) = &pv.source else { continue };
        if pv.has_node_affinity || !(src.kind == "hostPath" || src.kind == "local") {
            continue;
        }
        let path = src.path.as_deref().unwrap_or("?");
        let (msg, sev) = if src.kind == "local" {
            (
                format!(
                    "local PersistentVolume {} has no nodeAffinity: the API server rejects it (spec.nodeAffinity: Required value: Local volume requires node affinity)",
                    pv.name
                ),
                Severity::Error,
            )
        } else {
            (
                format!(
                    "hostPath PersistentVolume {} has no nodeAffinity: {path} is a directory on whichever node the pod lands on, so a pod rescheduled to another node sees an empty directory there and the data stays behind",
                    pv.name
                ),
                Severity::Warning,
            )
        };
        sink.report(ctx, pv.obj, &src.field, msg)
            .severity(sev)
            .help("pin the volume to the node that holds the directory")
            .suggest("add spec.nodeAffinity", Some(AFFINITY.into()));
    }
}
