use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "update-rejected",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "Applying the manifest updates a live object in a way the API server refuses (an immutable field, a resize the class does not allow, a shrink)",
    docs: Docs {
        what: "Compares each manifest with the live object of the same name in the cluster state \
               (`--cluster-state`, `--against-cluster`, an admission review's `oldObject`). The manifest is \
               merged into the live object the way the tool merges (kubectl's client-side three-way merge with \
               the live `last-applied-configuration`; server-side apply and Helm upgrades merge the manifest's \
               fields in), and the result is judged as the API server judges an update: \
               `ValidatePersistentVolumeClaimUpdate` (a claim's spec is immutable but for `resources.requests` \
               of a Bound claim, its `volumeAttributesClassName` (not removed once applied), a first `volumeName`, and a class where none was \
               set; a request may shrink only to just above `status.capacity`), the PersistentVolumeClaimResize \
               admission plugin (a bigger request needs a Bound claim whose StorageClass has \
               `allowVolumeExpansion: true`), `ValidatePersistentVolumeUpdate` (the volume source, \
               `volumeMode`, `nodeAffinity` once set, a class attribute not removed), `ValidateStorageClassUpdate` (`parameters`, \
               `provisioner`, `reclaimPolicy`, `volumeBindingMode`), `ValidateCSIDriverUpdate` \
               (`attachRequired`, `volumeLifecycleModes`), `ValidateStatefulSetUpdate` (only `replicas`, \
               `ordinals`, `template`, `updateStrategy`, `revisionHistoryLimit`, \
               `persistentVolumeClaimRetentionPolicy` and `minReadySeconds` may change) and the selectors of \
               Deployments, ReplicaSets and DaemonSets.",
        why: "Most storage incidents happen on the second apply. `kubectl apply` or `helm upgrade` fails with the \
              API server's message (`updates to statefulset spec for fields other than ... are forbidden`, `spec \
              is immutable after creation except resources.requests ...`, `only dynamically provisioned pvc can \
              be resized ...`); the live object stays as it was, so the cluster does not get what the \
              repository says, and a Helm release is left failed. The simulation keeps the live object.",
        example: include_str!("../../tests/fixtures/update-rejected/bad.yaml"),
        fix: "Keep the live value, or replace the object the way the field allows: a StatefulSet's templates by \
              `kubectl delete statefulset NAME --cascade=orphan` then apply (pods and claims stay; existing claims \
              keep their old spec); a claim's class or access modes by a new claim and a copy of the data; a \
              StorageClass's parameters by a class with a new name; a resize by `allowVolumeExpansion: true` on \
              the class.",
        fixed: include_str!("../../tests/fixtures/update-rejected/good.yaml"),
        known_problems: "Server-side apply and Helm remove the fields their last apply owned and the manifest no \
                         longer has; pvlint does not know that apply's fields (managedFields name a manager, not \
                         a file; Helm keeps its previous manifest in a Secret) and takes nothing as removed, so a \
                         refusal that only a removal causes is missed there. Kubewarden: the API server validates \
                         an update before a validating webhook sees it, so the policy never sees these \
                         (see its README).",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "the cluster state has the live object, and the merged update changes a field the API \
                       server keeps immutable",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the update grows a claim whose StorageClass does not allow expansion, or shrinks it below \
                       its capacity",
                example: "bad-resize.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "a resize is refused only if the claim's StorageClass does not exist, and the cluster \
                       state lists no StorageClasses to say whether it does",
                example: "bad-resize-classes-unknown.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Written,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for u in &ctx.index.live_updates {
        let Some(first) = u.refusals.first() else {
            continue;
        };
        let obj = ctx.obj(u.obj);
        let what = match &obj.namespace {
            Some(ns) => format!("{} {ns}/{}", obj.kind, obj.name),
            None => format!("{} {}", obj.kind, obj.name),
        };
        let field = obj.field(&first.at).unwrap_or_else(|| obj.whole());
        let changed = first.at.rsplit('.').next().unwrap_or(&first.at);
        let headline = if first.field == "spec.resources.requests.storage" {
            format!("the API server refuses this resize of {what}")
        } else if first.field == "spec.volumeAttributesClassName" {
            format!("the API server refuses this update of {what}: its attributes class cannot go")
        } else {
            format!("the API server refuses this update of {what}: {changed} cannot change")
        };
        let causes: Vec<&str> = u.refusals.iter().map(|r| r.cause.as_str()).collect();
        let mut assumptions = Vec::new();
        if let (Some(class), false) = (&first.missing_class, u.classes_known) {
            assumptions.push(Str::from(format!(
                "no StorageClass {class} exists: the cluster state lists no StorageClasses (add them to --cluster-state to make this certain)"
            )));
        }
        let summary = format!(
            "applied by {}, the update is refused: {}; the apply exits with an error and the live object stays as it is (live {}; this manifest {})",
            u.model.describe(),
            causes.join("; "),
            first.live,
            first.new,
        );
        let f = sink.report(ctx, u.obj, &field, headline);
        if !assumptions.is_empty() {
            f.severity(Severity::Warning);
        }
        f.consequence(Consequence::said(summary).assuming(assumptions))
            .help(match &obj.namespace {
                Some(ns) => first.fix.replace(
                    "statefulset NAME",
                    &format!("statefulset {} -n {ns}", obj.name),
                ),
                None => first.fix.to_string(),
            });
    }
}
