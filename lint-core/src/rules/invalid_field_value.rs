use super::prelude::*;
use crate::model::DiagKind;

pub const RULE: Rule = Rule {
    id: "invalid-field-value",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "A field has the wrong type or a value the API server rejects",
    docs: Docs {
        what: "Checks the fields pvlint reads: quantities (`storage: 30GG`), integers (`replicas: \"three\"`), \
               strings that YAML reads as booleans or numbers (unquoted `yes` in an annotation), access modes, \
               volume modes, reclaim policies, binding modes, rolling-update values, a missing `metadata.name`, \
               `metadata.ownerReferences` (apimachinery `ValidateOwnerReferences`: a version, kind, name and uid \
               in each, no Event as owner, at most one `controller: true`), containers of pod templates \
               (an image, and mounts and devices that name a volume of the pod: `validateContainerCommon`, \
               `ValidateVolumeMounts`), and a Job's selector and controller-uid labels on create \
               (batch `ValidateGeneratedSelector`: an exported Job carries its old uid), and a claim's \
               `dataSource` / `dataSourceRef` (`ValidatePersistentVolumeClaimSpec`: a name and a kind, only a \
               PersistentVolumeClaim from the core group, the two naming the same object; a `dataSource` \
               that is neither a claim nor a VolumeSnapshot is dropped on create, a warning: \
               `EnforceDataSourceBackwardsCompatibility`).",
        why: "The API server rejects the object, so `kubectl apply` fails for it. Where the value is accepted \
              but means something else (an `is-default-class` annotation that is not exactly \"true\"), \
              the cluster silently does something other than intended.",
        example: include_str!("../../tests/fixtures/invalid-field-value/bad.yaml"),
        fix: "Write the value in the form the message gives: quantities with Kubernetes suffixes (Ki, Mi, Gi, k, M, G), \
              numbers without quotes, annotation values in quotes.",
        fixed: include_str!("../../tests/fixtures/invalid-field-value/good.yaml"),
        known_problems: "pvlint checks the fields it reads; other fields of a workload are left to `kubectl apply --dry-run=server`.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the API server rejects the object: a value of the wrong type, an unsupported or malformed \
                       value, a required field missing",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the API server accepts the value, but it means something else: an `is-default-class` \
                       annotation that is not exactly \"true\" does not make the class the default; a claim's \
                       `dataSource` of a kind the API server drops, so the volume is made empty",
                example: "bad-default-class-not-true.yaml",
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
        .filter(|d| d.kind == DiagKind::InvalidValue)
    {
        sink.report_diag(ctx.sources, d);
    }
}
