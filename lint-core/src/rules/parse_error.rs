use super::prelude::*;
use crate::model::DiagKind;

pub const RULE: Rule = Rule {
    id: "parse-error",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "A document is not valid YAML/JSON, or not a Kubernetes object",
    docs: Docs {
        what: "Reports documents kubectl cannot read: YAML or JSON syntax errors (read as kubectl reads them: \
               go-yaml's YAML 1.1, documents split at `---` lines only), keys that are lists, maps or null, \
               `.inf`/`.nan` values, aliases that expand without bound (\"billion laughs\"), nesting deeper \
               than 256 levels, and documents of a manifest that are not objects with `apiVersion` and `kind`.",
        why: "kubectl stops reading a file at its first broken document: what comes before it is applied, \
              nothing after it is, and the command fails. pvlint reports the position and still checks every \
              other document.",
        example: include_str!("../../tests/fixtures/parse-error/bad.yaml"),
        fix: "Fix the syntax at the reported line and column.",
        fixed: include_str!("../../tests/fixtures/parse-error/good.yaml"),
        known_problems: "A file with no Kubernetes object in it (an Ansible playbook, a Helm Chart.yaml, a CI \
                         workflow) is not a manifest and is not reported, unless a document in it looks like an \
                         object that lost its `kind` or `apiVersion`. Kinds that never reach the API server \
                         (Kustomization, kind's Cluster, component configs) are not reported. `kubectl describe` \
                         output is recognised by its first line `Name:` and its `Labels:` and `Annotations:` lines; \
                         a shell prompt by a first line that starts with `$ ` or holds `$ kubectl`.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a document is not valid YAML or JSON as kubectl reads it, or goes over the parser's \
                       limits (aliases that expand without bound, deep nesting)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "a document of a manifest is not a Kubernetes object: a list, or a map without `kind` or \
                       `apiVersion`",
                example: "bad-not-an-object.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the file starts with the shell prompt and command pasted above `kubectl get -o yaml` \
                       output: go-yaml's scanner fails at the first `:` (\"mapping values are not allowed in \
                       this context\"), and `kubectl apply -f` with it",
                example: "bad-shell-prompt.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the file is `kubectl describe` output (`Name:`, then `Labels:` and `Annotations:`): \
                       kubectl cannot parse or decode it, whether or not it reads as YAML",
                example: "bad-describe-output.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in ctx.index.diags.iter().filter(|d| d.kind == DiagKind::Parse) {
        sink.report_diag(ctx.sources, d);
    }
}
