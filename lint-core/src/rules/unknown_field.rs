use super::prelude::*;
use crate::model::{join, known_kind, KindClass, Object};
use crate::node::Node;
use crate::schema;

pub const RULE: Rule = Rule {
    id: "unknown-field",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A misspelt or unknown field in a storage object or a workload's volumes (did you mean ...?)",
    docs: Docs {
        what: "Checks field names in PersistentVolumes, PersistentVolumeClaims, StorageClasses, CSIDrivers, \
               object metadata, and the volume-related parts of workloads (strategy, replicas, \
               volumeClaimTemplates, pod volumes, volumeMounts) against the Kubernetes API, and suggests the \
               closest known name. Inside pod specs and containers only near-misses of volume fields are reported.",
        why: "kubectl's strict field validation rejects the object (`unknown field \"metadata.annotation\"`). Where \
              validation is off (`--validate=false`, older clients, some controllers) the field is dropped \
              silently, and whatever it carried has no effect: a StorageClass whose `is-default-class` annotation \
              sits under `metadata.annotation` is not the default class; a claim with `storageclassName` gets \
              the default class.",
        example: include_str!("../../tests/fixtures/unknown-field/bad.yaml"),
        fix: "Rename the field to the one suggested.",
        fixed: include_str!("../../tests/fixtures/unknown-field/good.yaml"),
        known_problems: "Inside pod specs and containers pvlint knows only the fields it reads: an unknown key there \
                         is reported only when it is one edit away from a known one.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a field name the API does not know, in a storage object, object metadata or the volume \
                       parts of a workload (inside pod specs and containers, a near miss of a volume field): \
                       strict validation rejects the object",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "the same, applied with `--validate warn` (or by Helm): the API server drops the field, \
                       and what it carried has no effect",
                example: "bad-validate-warn.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Written,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let strict = ctx.options.field_validation.is_strict();
    for (id, obj) in ctx
        .index
        .current_objects()
        // A partial patch is left out (kustomize completes it); its fields are not judged.
        .filter(|(id, o)| !(o.from_patch && ctx.index.is_rejected(*id)))
    {
        if !matches!(known_kind(&obj.api_version, &obj.kind), Some((c, _)) if c != KindClass::Other)
        {
            continue;
        }
        for u in schema::unknown_fields(&obj.kind, obj.root(), obj.from_patch) {
            report(ctx, sink, id, obj, &u, strict);
        }
    }
}

/// The API server's words for a request it cannot decode strictly (apimachinery's
/// serializer: `strict decoding error: unknown field "spec.x"`), as kubectl prints them.
fn strict_error(obj: &Object, full: &str) -> String {
    let version = obj.api_version.rsplit('/').next().unwrap_or("");
    format!(
        "{kind} in version \"{version}\" cannot be handled as a {kind}: strict decoding error: unknown field \"{full}\"",
        kind = obj.kind
    )
}

fn report(
    ctx: &Context<'_>,
    sink: &mut Sink<'_>,
    id: usize,
    obj: &Object,
    u: &schema::Unknown<'_>,
    strict: bool,
) {
    let full = join(&u.parent, u.key);
    let msg = match u.suggestion {
        Some(s) => format!(
            "unknown field \"{}\" in {}: did you mean \"{s}\"?",
            u.key, obj.name
        ),
        None => format!("unknown field \"{}\" in {} {}", u.key, obj.kind, obj.name),
    };
    let dropped = consequence(obj, &u.parent, u.suggestion, u.value);
    let summary = if strict {
        format!(
            "kubectl (default --validate=strict) sends it and the API server rejects the object: {}; with --validate=warn or Helm the field is dropped with a warning{dropped}",
            strict_error(obj, &full)
        )
    } else {
        format!(
            "applied with --validate=warn (or by Helm, client-go) the field is dropped with Warning: unknown field \"{full}\"{dropped}"
        )
    };
    let field = Field {
        path: Str::from(&full),
        span: u.key_span,
    };
    let f = sink.report(ctx, id, &field, msg);
    f.consequence(Consequence::said(summary));
    match u.suggestion {
        Some(s) => {
            f.help(format!("rename \"{}\" to \"{s}\"", u.key))
                .suggest_replace(format!("rename the key to {s}"), u.key_span, s);
        }
        None => {
            let known: Vec<&str> = u.known.iter().map(|f| f.0).collect();
            f.help(format!(
                "remove it; known fields here: {}",
                known.join(", ")
            ));
        }
    }
}

/// What is lost when the field is dropped.
fn consequence(obj: &Object, path: &str, suggestion: Option<&str>, value: &Node) -> String {
    match suggestion {
        Some("annotations")
            if value.get(kube::ANN_DEFAULT_CLASS).is_some()
                || value.get(kube::ANN_BETA_DEFAULT_CLASS).is_some() =>
        {
            format!(
                ", so the {} annotation inside it is ignored and this StorageClass is NOT the default class: claims without storageClassName get another default or none",
                kube::ANN_DEFAULT_CLASS
            )
        }
        Some("annotations") => ", so none of the annotations inside it take effect".into(),
        Some("labels") => ", so none of the labels inside it are set".into(),
        Some("storageClassName") if path.ends_with("spec") && obj.kind != "PersistentVolume" => {
            let v = value.as_str().unwrap_or("?");
            format!(", so the claim gets the cluster's default class instead of \"{v}\"")
        }
        Some("storageClassName") => {
            ", so the volume has no class and only binds claims with storageClassName \"\"".into()
        }
        Some("persistentVolumeReclaimPolicy") => {
            ", so the volume gets the default reclaim policy for a manually created PV: Retain"
                .into()
        }
        Some("reclaimPolicy") if obj.kind == "StorageClass" => {
            ", so volumes of this class get the default reclaim policy Delete".into()
        }
        Some("accessModes") => ", and a claim or volume without access modes is rejected".into(),
        Some("volumeMounts") | Some("volumes") => ", so the volume is not mounted".into(),
        Some("volumeClaimTemplates") => ", so the StatefulSet's pods get no claims".into(),
        Some("strategy") | Some("rollingUpdate") | Some("maxSurge") | Some("maxUnavailable") => {
            ", so the rollout uses the defaults (RollingUpdate, maxSurge 25%, maxUnavailable 25%)"
                .into()
        }
        _ => String::new(),
    }
}
