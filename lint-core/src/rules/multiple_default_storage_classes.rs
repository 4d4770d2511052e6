use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "multiple-default-storage-classes",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "More than one StorageClass is marked default",
    docs: Docs {
        what: "Finds StorageClasses annotated `storageclass.kubernetes.io/is-default-class: \"true\"` (or the beta \
               form) when another one is too: in the input, or in the cluster state the input is applied to \
               (`--cluster-state`, the cluster the admission policy reads).",
        why: "Claims without `storageClassName` get the default class at admission. Before Kubernetes 1.26 the \
              DefaultStorageClass admission plugin rejects such claims when several defaults exist; since 1.26 \
              the newest default (by creationTimestamp, then name) wins, so which class new claims get depends \
              on the order the classes were created in.",
        example: include_str!("../../tests/fixtures/multiple-default-storage-classes/bad.yaml"),
        fix: "Keep the annotation on one class; set it to \"false\" (or remove it) on the others.",
        fixed: include_str!("../../tests/fixtures/multiple-default-storage-classes/good.yaml"),
        known_problems: "Which class is newest depends on creation times pvlint sees only in a cluster state; classes applied \
                         together share one second, and the name decides.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the target Kubernetes is older than 1.26 (`--kube-version`)",
                example: "bad-before-1-26.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the target Kubernetes is 1.26 or later (the newest default class wins)",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let defaults = ctx.index.default_classes();
    // Applied onto a known cluster (`--cluster-state`, admission): the cluster's own default
    // classes count too (a class of the input with the same name replaces the cluster's).
    let live: Vec<&str> = if ctx.side == Side::Manifest {
        ctx.sim
            .classes()
            .iter()
            .filter(|c| {
                c.is_default
                    && matches!(
                        c.knowledge,
                        crate::sim::ClassKnowledge::Defined(Side::Cluster, _)
                    )
                    // The input's own definition replaces the cluster's object of that name:
                    // one object, one default (as admission counts StorageClass objects).
                    && !ctx
                        .index
                        .classes
                        .iter()
                        .any(|i| i.name == c.name && !ctx.index.is_rejected(i.obj))
            })
            .map(|c| c.name.as_str())
            .collect()
    } else {
        Vec::new()
    };
    if defaults.is_empty() || defaults.len() + live.len() < 2 {
        return;
    }
    let mut names: Vec<String> = defaults.iter().map(|c| c.name.to_string()).collect();
    names.extend(live.iter().map(|n| format!("{n} (in the cluster)")));
    // With only one default in the input, it is the one that makes a second.
    let reported = if defaults.len() == 1 {
        &defaults[..]
    } else {
        &defaults[1..]
    };
    let old = !ctx.options.kube_version.at_least(26);
    let chosen = ctx.sim.default_class().ok().flatten();
    for c in reported {
        let field = c
            .is_default
            .clone()
            .expect("default classes have the annotation");
        let summary = if old {
            format!(
                "on Kubernetes {} the DefaultStorageClass admission plugin refuses every claim without storageClassName (\"{} default StorageClasses were found\")",
                ctx.options.kube_version,
                names.len()
            )
        } else {
            format!(
                "claims without storageClassName get the newest of them, then the first by name: {}",
                chosen.as_deref().map(|n| format!("\"{n}\"")).unwrap_or_else(|| "?".into())
            )
        };
        let first = defaults[0];
        let f = sink
            .report(
                ctx,
                c.obj,
                &field,
                format!("StorageClasses {} are all marked default", names.join(", ")),
            )
            .severity(if old {
                Severity::Error
            } else {
                Severity::Warning
            })
            .consequence(Consequence::said(summary))
            .help("keep exactly one default StorageClass")
            .suggest(
                format!("mark only one class default; on {} write", c.name),
                Some(format!("{}: \"false\"", kube::ANN_DEFAULT_CLASS)),
            );
        if first.obj != c.obj {
            f.related(
                ctx,
                first.obj,
                first.is_default.as_ref().expect("default"),
                format!("{} is marked default too", first.name),
            );
        }
    }
}
