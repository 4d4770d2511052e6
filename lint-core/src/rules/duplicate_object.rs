use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "duplicate-object",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "The same object is defined twice in one apply set with different content; kubectl apply keeps the last, or the first if the update is refused",
    docs: Docs {
        what: "Finds objects defined more than once in the input (same API group, kind, namespace and name) with \
               different content: a warning within one file, informational across files. Identical definitions \
               (the same object in two files, or as YAML and JSON) are one object and are not reported.",
        why: "`kubectl apply` applies the definitions in order: the first creates the object and each later one \
              updates it, replacing it. An update that changes an immutable field (a claim's spec, a \
              StorageClass's parameters, provisioner, reclaimPolicy or volumeBindingMode, a volume's source, a \
              StatefulSet's volumeClaimTemplates, a workload's selector) is refused by the API server: the apply \
              fails and the earlier definition stands. pvlint analyses the definition that stands.",
        example: include_str!("../../tests/fixtures/duplicate-object/bad.yaml"),
        fix: "Keep one definition of each object, or give the copies different names.",
        fixed: include_str!("../../tests/fixtures/duplicate-object/good.yaml"),
        known_problems: "Only definitions in one apply set are compared (a directory, a kustomization root; see \
                         `--together`). Copies in two files of one directory may be alternatives no one applies \
                         together: only informational, unless the API server would refuse the second. Update \
                         validation covers PersistentVolumeClaims, PersistentVolumes, StorageClasses, StatefulSets \
                         and workload selectors.",
    },
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in &ctx.index.duplicates {
        let (u, o) = (ctx.obj(d.used), ctx.obj(d.other));
        let at = ctx.location(o, &o.whole());
        let what = match &u.namespace {
            Some(ns) => format!("{} {ns}/{}", u.kind, u.name),
            None => format!("{} {}", u.kind, u.name),
        };
        let (summary, help) = match &d.refused {
            // The later definition is an update the API server refuses: the first stands.
            Some(r) => (
                format!(
                    "kubectl apply creates it from the first definition, then fails to update it with the other (at {}:{}): the API server refuses it ({}: Forbidden: {}), the apply exits with an error and the first definition stands; pvlint analyses this one",
                    at.file, at.line, r.field, r.message
                ),
                "keep one definition of each object; an immutable field cannot change after creation",
            ),
            None => (
                format!(
                    "kubectl apply updates it with each definition in turn: the last one (this one) replaces the other (at {}:{}); pvlint analyses this one",
                    at.file, at.line
                ),
                "keep one definition of each object",
            ),
        };
        let headline = match &d.refused {
            Some(_) => format!("{what} is defined twice; the API server refuses the second"),
            None => format!("{what} is defined twice, with different content"),
        };
        // In one file it is a mistake; in two files of one apply set, maybe alternatives.
        let same_file = u.source == o.source;
        sink.report(ctx, d.used, &u.whole(), headline)
            .severity(if same_file || d.refused.is_some() {
                Severity::Warning
            } else {
                Severity::Info
            })
            .consequence(Consequence {
                summary: Str::from(summary),
                subject: None,
                phase: None,
                event: None,
                storage: None,
                assumptions: Vec::new(),
            })
            .help(help)
            .related(ctx, d.other, &o.whole(), "the other definition");
    }
}
