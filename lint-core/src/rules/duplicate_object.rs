use super::prelude::*;
use crate::index::Duplicate;
use crate::model::ObjId;

pub const RULE: Rule = Rule {
    id: "duplicate-object",
    family: Family::Validity,
    severity: Severity::Warning,
    summary: "The same object is defined twice in one apply set with different content; kubectl apply keeps the last, or the first if the update is refused",
    docs: Docs {
        what: "Finds objects defined more than once in the input (same API group, kind, namespace and name) with \
               different content, in one file or in several files of one apply set. Identical definitions \
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
                         `--together`). Copies in two files of one directory are more likely alternatives no one \
                         applies together (examples): only informational. Update validation covers \
                         PersistentVolumeClaims, PersistentVolumes, StorageClasses, StatefulSets, workload \
                         selectors and Pods (fields the API server defaults are not compared). A first \
                         definition the API server rejects is still taken as the one that creates the object; \
                         a later definition then creates it instead.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "an object is defined twice in one file with different content, and a later definition \
                       changes a field the API server keeps immutable: the update is refused and the first \
                       definition stands",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "an object is defined twice in one file with different content, and the update is allowed: \
                       the last definition replaces the others",
                example: "bad-last-wins.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    // One finding per object: the definition that stands, the others as related places.
    let mut by_object: Vec<(ObjId, Vec<&Duplicate>)> = Vec::new();
    for d in &ctx.index.duplicates {
        match by_object.iter_mut().find(|(u, _)| *u == d.used) {
            Some((_, ds)) => ds.push(d),
            None => by_object.push((d.used, vec![d])),
        }
    }
    for (used, dups) in by_object {
        let u = ctx.obj(used);
        let what = match &u.namespace {
            Some(ns) => format!("{} {ns}/{}", u.kind, u.name),
            None => format!("{} {}", u.kind, u.name),
        };
        let refused = dups.iter().find_map(|d| d.refused.as_ref());
        let others: Vec<String> = dups
            .iter()
            .map(|d| {
                let at = ctx.location(ctx.obj(d.other), &ctx.obj(d.other).whole());
                format!("{}:{}", at.file, at.line)
            })
            .collect();
        let (summary, help) = match refused {
            // A later definition is an update the API server refuses: an earlier one stands.
            Some(r) => (
                format!(
                    "kubectl apply creates it from its first definition and fails to update it with a later one ({}): the API server refuses it ({}), the apply exits with an error and this definition stands; pvlint analyses this one",
                    others.join(", "),
                    r.cause
                ),
                "keep one definition of each object; an immutable field cannot change after creation",
            ),
            None => (
                format!(
                    "kubectl apply updates it with each definition in turn: the last one (this one) replaces the others ({}); pvlint analyses this one",
                    others.join(", ")
                ),
                "keep one definition of each object",
            ),
        };
        let headline = match (refused, dups.len()) {
            (Some(_), 1) => format!("{what} is defined twice; the API server refuses the second"),
            (Some(_), n) => format!(
                "{what} is defined {} times; the API server refuses an update",
                n + 1
            ),
            (None, 1) => format!("{what} is defined twice, with different content"),
            (None, n) => format!("{what} is defined {} times, with different content", n + 1),
        };
        // In one file it is a mistake; in two files of one directory, they are more likely
        // alternatives no one applies together (examples).
        let same_file = dups.iter().any(|d| ctx.obj(d.other).source == u.source);
        let f = sink.report(ctx, used, &u.whole(), headline);
        f.severity(if same_file {
            Severity::Warning
        } else {
            Severity::Info
        })
        .consequence(Consequence::said(summary))
        .help(help);
        for d in dups.iter().take(3) {
            let o = ctx.obj(d.other);
            f.related(ctx, d.other, &o.whole(), "another definition");
        }
    }
}
