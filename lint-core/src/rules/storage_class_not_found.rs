use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "storage-class-not-found",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim or volumeClaimTemplate names a StorageClass that does not exist",
    docs: Docs {
        what: "Finds claims and StatefulSet volumeClaimTemplates whose storage class is neither defined in the \
               input nor used by a PersistentVolume of the input or the cluster state. Only `--complete`, or a \
               `--cluster-state` that lacks it, make the class known to be missing: the claim then stays \
               Pending. A name one edit away from a class pvlint knows is a likely typo. Otherwise the class \
               is assumed to exist, and the finding says so once per class: a StorageClass in the input does \
               not mean the input lists every class of the cluster.",
        why: "No static volume has that class and no provisioner serves it: the claim stays `Pending` with Warning \
              `ProvisioningFailed` `storageclass.storage.k8s.io \"<name>\" not found`, and the pods using it never \
              start.",
        example: include_str!("../../tests/fixtures/storage-class-not-found/bad.yaml"),
        fix: "Use the name of an existing StorageClass (check `kubectl get storageclass`), or add the StorageClass.",
        fixed: include_str!("../../tests/fixtures/storage-class-not-found/good.yaml"),
        known_problems: "Clusters come with classes of their own and operators create more at run time, so without \
                         `--cluster-state` or `--complete` a class missing from the input is assumed to exist.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the class is known to be missing: the input is the whole cluster (`--complete`), or the \
                       cluster state lacks it",
                example: "bad-complete.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the class is not in the input, and its name is one edit away from a class pvlint knows (a \
                       likely typo)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the class is not in the input and not near one pvlint knows: it is assumed to exist, and \
                       the finding says so once per class",
                example: "bad-assumed.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    let ix = ctx.index;
    let known: Vec<&str> = w
        .classes()
        .iter()
        .filter(|c| c.assumption().is_none() && c.knowledge != crate::sim::ClassKnowledge::Profile)
        .map(|c| c.name.as_str())
        .collect();
    // Infos (a class assumed to exist) come once per class: the first claim that names it,
    // with the others as related places.
    let mut assumed: Vec<(&str, Vec<&Pvc>)> = Vec::new();
    let static_classes = static_volume_classes(ctx);
    for pvc in ix.pvcs.iter().chain(&ix.claim_templates) {
        let ClaimClass::Set { name, field, .. } = &pvc.class else {
            continue;
        };
        if name.is_empty() || pvc.volume_name.is_some() || ix.is_rejected(pvc.obj) {
            continue; // pre-bound: the class is compared with the volume's, never looked up
        }
        // Defined here, or in another file of the input (applied on its own): not missing.
        if w.class(name).is_some_and(|c| {
            matches!(
                c.assumption(),
                None | Some(Assumption::DefinedElsewhere { .. })
            )
        }) || ix.pv_class_exists(name)
            || static_classes.contains(name.as_str())
        {
            continue;
        }
        let claims = ctx.claims_of_view(pvc);
        let not_found = claims
            .iter()
            .find(|&&c| matches!(w.pending_reason(c), Some(Pending::ClassNotFound { .. })));
        let near = crate::schema::suggest(name, known.iter().copied());
        let what = describe(pvc);
        if not_found.is_none() && near.is_none() {
            match assumed.iter_mut().find(|(n, _)| n == name) {
                Some((_, uses)) => uses.push(pvc),
                None => assumed.push((name, vec![pvc])),
            }
            continue;
        }
        let (sev, headline) = match not_found {
            Some(_) => (
                Severity::Error,
                format!("{what} uses StorageClass {name}, which does not exist"),
            ),
            None => (
                Severity::Warning,
                format!("{what} uses StorageClass {name}, not in the input"),
            ),
        };
        let f = sink.report(ctx, pvc.obj, field, headline);
        f.severity(sev);
        match not_found {
            Some(&c) => {
                f.consequence(ctx.claim_consequence(c));
            }
            None => {
                f.consequence(Consequence::said(format!(
                        "if the cluster has no StorageClass {name} either, the claim stays Pending (Warning ProvisioningFailed \"storageclass.storage.k8s.io \\\"{name}\\\" not found\"); pvlint assumed it exists"
                    )).assuming(vec![Str::from(Assumption::ClassExists(Str::from(name.as_str())).describe())]));
            }
        }
        f.root_cause(CauseKey::ClassNotFound(ctx.subject_of(pvc)));
        match near {
            Some(n) => f
                .help(format!("did you mean \"{n}\"? use the existing class"))
                .suggest_replace(format!("use StorageClass \"{n}\""), field.span, n),
            None if !known.is_empty() => f.help(format!(
                "classes pvlint knows: {}; check the cluster's with `kubectl get storageclass`",
                known
                    .iter()
                    .map(|k| w.class_label(k))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => f.help("check the class name with `kubectl get storageclass`"),
        };
    }
    for (name, uses) in assumed {
        let first = uses[0];
        let what = describe(first);
        let others = match uses.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more)".to_string(),
            n => format!(" (and {n} more)"),
        };
        let Some(field) = class_field(first) else {
            continue;
        };
        let f = sink.report(
            ctx,
            first.obj,
            field,
            format!("{what}{others} uses StorageClass {name}, assumed to exist"),
        );
        f.severity(Severity::Info)
            .consequence(Consequence::said(format!(
                    "StorageClass {name} is not in the input; if the cluster has none either, the claim stays Pending (Warning ProvisioningFailed \"storageclass.storage.k8s.io \\\"{name}\\\" not found\")"
                )).assuming(vec![Str::from(Assumption::ClassExists(Str::from(name)).describe())]))
            .root_cause(CauseKey::ClassNotFound(ctx.subject_of(first)));
        if known.is_empty() {
            f.help("check the class name with `kubectl get storageclass`");
        } else {
            f.help(format!(
                "classes pvlint knows: {}; check the cluster's with `kubectl get storageclass`",
                known
                    .iter()
                    .map(|k| w.class_label(k))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for other in &uses[1..] {
            if let Some(field) = class_field(other) {
                f.related(
                    ctx,
                    other.obj,
                    field,
                    format!("{} uses it too", describe(other)),
                );
            }
        }
    }
}

fn describe(pvc: &Pvc) -> String {
    match &pvc.template_of {
        Some(sts) => format!("StatefulSet {sts} (template {})", pvc.name),
        None => format!("claim {}/{}", pvc.namespace, pvc.name),
    }
}

fn class_field(pvc: &Pvc) -> Option<&Field> {
    match &pvc.class {
        ClaimClass::Set { field, .. } => Some(field),
        _ => None,
    }
}

/// The classes static volumes of the cluster state (not ones a provisioner made) use: labels
/// of static volumes there, as a PersistentVolume of the input makes them (the claims that
/// find no such volume are static-pool-shortfall's or unbindable-claim's). A volume a
/// provisioner made (pv.kubernetes.io/provisioned-by) keeps the name of the class that made
/// it, which may be gone since. Collected once: looking per claim would scan every volume.
fn static_volume_classes<'a>(ctx: &Context<'a>) -> std::collections::HashSet<&'a str> {
    ctx.sim
        .volumes()
        .filter(|(_, v)| {
            matches!(v.origin, crate::sim::Origin::Object { .. }) && v.provisioned_by.is_none()
        })
        .map(|(_, v)| v.spec.class.as_str())
        .collect()
}
