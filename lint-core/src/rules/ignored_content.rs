use super::prelude::*;
use crate::model::DiagKind;

pub const RULE: Rule = Rule {
    id: "ignored-content",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "Part of a file that kubectl reads and silently drops: a key's earlier value, text after `...`",
    docs: Docs {
        what: "Finds what kubectl reads without a word and then ignores: a mapping key defined twice in one map \
               (kubectl keeps the last value), and lines after a `...` document end marker up to the next `---` \
               (kubectl never reads them).",
        why: "kubectl converts YAML to JSON with go-yaml, whose maps keep the last value of a repeated key, and \
              splits a file only at `---` lines, reading one document from each piece. Neither is an error, so \
              nothing tells the author that a value, or a whole object, is not what the cluster gets: a claim \
              with `storageClassName` written twice gets the second class.",
        example: include_str!("../../tests/fixtures/ignored-content/bad.yaml"),
        fix: "Keep one of the two keys (the one you mean); start every document with a `---` line.",
        fixed: include_str!("../../tests/fixtures/ignored-content/good.yaml"),
        known_problems: "Keys are compared after YAML 1.1 typing, as kubectl compares them: `on:` and `yes:` are \
                         both the key `\"true\"`. `kubectl apply --server-side` reads the file the same way.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a key is written twice in one map: kubectl keeps the last value",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "lines follow a `...` document end marker with no `---` before them: kubectl never reads \
                       them",
                example: "bad-after-document-end.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in ctx
        .index
        .diags
        .iter()
        .filter(|d| d.kind == DiagKind::Ignored)
    {
        sink.report_diag(ctx.sources, d);
    }
}
