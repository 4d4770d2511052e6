use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "storage-class-not-found",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim or volumeClaimTemplate names a StorageClass that does not exist",
    docs: Docs {
        what: "Finds claims and StatefulSet volumeClaimTemplates whose storage class is neither defined in the \
               input nor used by any PersistentVolume in it. Reported when the input holds StorageClasses (or \
               `--complete` is given); otherwise noted at info level, as the class may exist in the cluster.",
        why: "No static volume has that class and no provisioner serves it: the claim stays `Pending` with Warning \
              `ProvisioningFailed` `storageclass.storage.k8s.io \"<name>\" not found`, and the pods using it never \
              start.",
        example: include_str!("../../tests/fixtures/storage-class-not-found/bad.yaml"),
        fix: "Use the name of an existing StorageClass (check `kubectl get storageclass`), or add the StorageClass.",
        fixed: include_str!("../../tests/fixtures/storage-class-not-found/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let ix = ctx.index;
    let sure = ctx.options.complete || !ix.classes.is_empty();
    let known: Vec<&str> = ix.classes.iter().map(|c| c.name.as_str()).collect();
    for pvc in ix.pvcs.iter().chain(&ix.claim_templates) {
        let ClaimClass::Set { name, field, .. } = &pvc.class else { continue };
        if name.is_empty() || ix.class(name).is_some() || ix.pv_class_exists(name) {
            continue;
        }
        if pvc.volume_name.is_some() {
            continue; // pre-bound: the class is compared with the volume's, never looked up
        }
        let what = match &pvc.template_of {
            Some(sts) => format!("volumeClaimTemplate {} of StatefulSet {sts}", pvc.name),
            None => format!("claim {}/{}", pvc.namespace, pvc.name),
        };
        let near = crate::schema::suggest(name, known.iter().copied());
        let mut msg = format!("{what} uses StorageClass \"{name}\"");
        msg.push_str(if sure {
            ", which the input does not define and no volume in it has"
        } else {
            ", which is not in the input (pass --complete if the input holds every class)"
        });
        msg.push_str(&format!(
            ": {}the claim stays Pending (Warning ProvisioningFailed \"storageclass.storage.k8s.io \\\"{name}\\\" not found\")",
            if sure { "" } else { "if the cluster has no such class either, " }
        ));
        if let Some(n) = near {
            msg.push_str(&format!(" — did you mean \"{n}\"?"));
        }
        let f = sink.report(ctx, pvc.obj, field, msg);
        f.severity(if sure { Severity::Error } else { Severity::Info })
            .root_cause(format!("class-not-found:{}", facts::claim_key(pvc)));
        match near {
            Some(n) => f
                .help(format!("use the existing class \"{n}\""))
                .suggest(format!("use StorageClass \"{n}\""), Some(format!("storageClassName: {n}"))),
            None if !known.is_empty() => f.help(format!("classes in the input: {}", known.join(", "))),
            None => f.help("check the class name with `kubectl get storageclass`"),
        };
    }
}
