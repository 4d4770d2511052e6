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
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in ctx.index.diags.iter().filter(|d| d.kind == DiagKind::Parse) {
        sink.report_diag(&ctx.sources[d.source].name, d);
    }
}
