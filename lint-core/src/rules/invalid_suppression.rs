use super::prelude::*;
use super::{find, ALL};
use crate::suppress;

pub const RULE: Rule = Rule {
    id: "invalid-suppression",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "A pvlint.io/ignore annotation names a rule that does not exist (did you mean ...?)",
    docs: Docs {
        what: "Checks every `pvlint.io/ignore` annotation — on an object, or on a workload's pod template — \
               for names that are neither a rule id (`pvlint rules`) nor `all`. Names are separated by commas.",
        why: "A misspelt rule name suppresses nothing: the finding it was meant to silence is still reported, \
              and once the rule is renamed or the typo copied elsewhere nobody can tell what the annotation was \
              for.",
        example: include_str!("../../tests/fixtures/invalid-suppression/bad.yaml"),
        fix: "Write the rule's id as `pvlint rules` lists it, or `all` to suppress every rule on the object.",
        fixed: include_str!("../../tests/fixtures/invalid-suppression/good.yaml"),
        known_problems: "None known.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "a `pvlint.io/ignore` annotation, on an object or a pod template, of a manifest or a live \
                       cluster, names something that is neither a rule id nor `all`",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Written,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for (id, obj) in ctx.index.objects.iter().enumerate() {
        // An object of an API version that is no longer served gets `removed-api-version` only.
        if ctx.index.is_removed(id) {
            continue;
        }
        // On a live cluster, a ReplicaSet, Job or Pod a controller owns carries a copy of its
        // owner's pod template annotations: the typo is reported once, on the owner.
        if ctx.live.is_some_and(|l| l.controlled.contains(&id)) {
            continue;
        }
        for (path, value) in suppress::annotations(obj.root()) {
            let Some(text) = value.as_str() else {
                continue;
            };
            for name in suppress::names(text) {
                if name == "all" || find(name).is_some() {
                    continue;
                }
                let hint = crate::schema::suggest(name, ALL.iter().map(|r| r.id));
                let field = Field {
                    path: Str::from(&path),
                    span: value.span,
                };
                let f = sink
                    .report(
                        ctx,
                        id,
                        &field,
                        format!("{} {} suppresses \"{name}\", which is not a rule", obj.kind, obj.name),
                    )
                    .consequence(Consequence::said(format!(
                            "nothing is suppressed for \"{name}\"{}",
                            hint.map(|h| format!("; any finding of {h} about this object is still reported"))
                                .unwrap_or_default()
                        )))
                    .help("`pvlint rules` lists every rule id; `all` suppresses every rule on the object");
                if let Some(h) = hint {
                    f.suggest(format!("did you mean {h}?"), Some(text.replace(name, h)));
                }
            }
        }
    }
}
