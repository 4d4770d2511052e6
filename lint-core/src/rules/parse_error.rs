use super::prelude::*;
use crate::model::DiagKind;

pub const RULE: Rule = Rule {
    id: "parse-error",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "A document is not valid YAML/JSON, or not a Kubernetes object",
    docs: Docs {
        what: "Reports documents that cannot be read: YAML or JSON syntax errors, duplicate keys, \
               aliases that expand without bound (\"billion laughs\"), nesting deeper than 256 levels, \
               and documents that are not objects with `apiVersion` and `kind`.",
        why: "kubectl refuses the whole file when one document is broken, so nothing in it is applied. \
              pvlint reports the position and still checks every other document.",
        example: include_str!("../../tests/fixtures/parse-error/bad.yaml"),
        fix: "Fix the syntax at the reported line and column.",
        fixed: include_str!("../../tests/fixtures/parse-error/good.yaml"),
        known_problems: "A document that is valid YAML but not a Kubernetes object is skipped with this finding; kinds that \
                         never reach the API server (Kustomization, kind's Cluster, component configs) are not reported.",
    },
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in ctx.index.diags.iter().filter(|d| d.kind == DiagKind::Parse) {
        sink.report_diag(ctx.sources, d);
    }
}
