use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "duplicate-object",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "The same object is defined twice with different content: only the last definition takes effect",
    docs: Docs {
        what: "Finds objects defined more than once in the input (same API group, kind, namespace and name) with \
               different content: a warning within one file, informational across files. Identical definitions \
               (the same object in two files, or as YAML and JSON) are one object and are not reported.",
        why: "`kubectl apply` applies the definitions in order: the last one wins and the others are overwritten \
              (or, for immutable fields, the apply fails). Which copy takes effect depends on file order. pvlint \
              analyses the last one, as the cluster would keep it.",
        example: include_str!("../../tests/fixtures/duplicate-object/bad.yaml"),
        fix: "Keep one definition of each object, or give the copies different names.",
        fixed: include_str!("../../tests/fixtures/duplicate-object/good.yaml"),
        known_problems: "Copies in different files may belong to different apply sets (examples, overlays, \
                         environments): they are only informational. Kustomize bases and overlays are duplicates only \
                         when linted unrendered; lint the rendered output (`kubectl kustomize DIR | pvlint lint -`).",
    },
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for &(used, other) in &ctx.index.duplicates {
        let (u, o) = (ctx.obj(used), ctx.obj(other));
        let at = ctx.location(o, &o.whole());
        let what = match &u.namespace {
            Some(ns) => format!("{} {ns}/{}", u.kind, u.name),
            None => format!("{} {}", u.kind, u.name),
        };
        // In one file it is a mistake; in two files they may be separate apply sets.
        let same_file = u.source == o.source;
        sink.report(ctx, used, &u.whole(), format!("{what} is defined twice, with different content"))
            .severity(if same_file { Severity::Warning } else { Severity::Info })
            .consequence(Consequence {
                summary: Str::from(format!(
                    "kubectl apply keeps the last definition: this one (the other, at {}:{}, is overwritten); pvlint analyses this one",
                    at.file, at.line
                )),
                subject: None,
                phase: None,
                event: None,
                storage: None,
                assumptions: Vec::new(),
            })
            .help("keep one definition of each object")
            .related(ctx, other, &o.whole(), "the other definition");
    }
}
