use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "server-populated-fields",
    family: Family::StaleIdentity,
    severity: Severity::Warning,
    summary: "A manifest carries fields the API server sets (uid, resourceVersion, status, ...): it was exported from a cluster",
    docs: Docs {
        what: "Finds objects whose manifest carries `metadata.uid`, `resourceVersion`, `creationTimestamp`, \
               `selfLink`, `generation`, `managedFields`, `deletionTimestamp` or `status` — the marks of \
               `kubectl get -o yaml` output. One finding per object, listing every such field.",
        why: "These fields belong to the cluster the object was read from. `kubectl apply` (and `create`) \
              clears `metadata.resourceVersion` before it creates an object (cli-runtime's `Helper.Create`), \
              and the API server sets its own `uid` and `creationTimestamp` and drops `status`; but once the \
              object exists, applying the file again sends the stale resourceVersion with the patch and fails \
              with a Conflict (\"the object has been modified; please apply your changes to the latest \
              version\"). Their presence means the rest of the manifest may carry identity that breaks here too \
              (see stale-claim-ref-uid, stale-owner-reference, bind-completed-without-volume).",
        example: include_str!("../../tests/fixtures/server-populated-fields/bad.yaml"),
        fix: "Strip server-populated fields before applying, e.g. \
              `yq 'del(.metadata.uid, .metadata.resourceVersion, .metadata.creationTimestamp, .metadata.selfLink, .metadata.generation, .metadata.managedFields, .status)'`.",
        fixed: include_str!("../../tests/fixtures/server-populated-fields/good.yaml"),
        known_problems: "`status: {}`, `status: {loadBalancer: {}}`, controller-gen's empty CRD status and \
                         `creationTimestamp: null`, which `kubectl create --dry-run -o yaml`, kompose and \
                         controller-gen write, are not marks of an export and are not reported; nor is the status of \
                         a custom resource whose CustomResourceDefinition (with a status subresource) is not in the \
                         input, which is user data.",
        grades: &[
            Grade {
                severity: Severity::Warning,
                when: "the manifest carries `metadata.resourceVersion` (every re-apply fails), or it is a \
                       PersistentVolume or claim that carries another server's metadata",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "any other object with server fields, and a status alone: the API server replaces or drops \
                       them on create",
                example: "bad-status-only.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Written,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let status_subresources = status_subresources(ctx);
    for (id, obj) in ctx.index.current_objects() {
        if !crate::model::reaches_api_server(&obj.api_version, &obj.kind) {
            continue;
        }
        let mut found: Vec<(String, Field)> = Vec::new();
        let meta = obj
            .root()
            .get("metadata")
            .and_then(crate::node::Node::as_map)
            .unwrap_or_default();
        for e in meta {
            if kube::SERVER_POPULATED_METADATA.contains(&e.key.as_str()) && !e.value.is_null() {
                let path = format!("metadata.{}", e.key);
                found.push((path.clone(), obj.key_field(&path)));
            }
        }
        // Point at the most telling field first: uid, then resourceVersion, ...
        found.sort_by_key(|(p, _)| {
            kube::SERVER_POPULATED_METADATA
                .iter()
                .position(|f| p.ends_with(f))
        });
        // `status: {}` (kubectl create --dry-run, kompose) is not a mark of an export. Nor is
        // `status: {loadBalancer: {}}` (kompose), or controller-gen's CRD stanza
        // (`acceptedNames: {kind: "", plural: ""}, conditions: [], storedVersions: []`):
        // only a status with a value in it. And a custom resource's status is the server's
        // only when its CRD (in the input) has a status subresource; otherwise it is user
        // input like the rest of the object.
        let server_owns_status = crate::model::BUILTIN_GROUPS
            .contains(&crate::model::group_of(&obj.api_version))
            || status_subresources
                .contains(&(crate::model::group_of(&obj.api_version), obj.kind.as_str()));
        let status = obj
            .root()
            .get("status")
            .filter(|n| server_owns_status && has_value(n));
        if status.is_some() {
            found.push(("status".into(), obj.key_field("status")));
        }
        let Some((_, first)) = found.first() else {
            continue;
        };
        let names: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        // A Node is the one built-in kind whose status the API server keeps on create
        // (pkg/registry/core/node strategy.go, nodeStrategy.PrepareForCreate: "Nodes allow
        // *all* fields, including status, to be set on create"); the others reset it.
        let keeps_status =
            obj.kind == "Node" && crate::model::group_of(&obj.api_version).is_empty();
        let status_fate = "keeps the status, which stands until the node controller marks the Node Unknown (no kubelet heartbeat)";
        let summary = if names.contains(&"metadata.resourceVersion") {
            format!("it carries {}: kubectl apply creates it (it clears resourceVersion; the API server sets its own uid and {} status), but every later apply of this file sends the stale resourceVersion and fails with a Conflict (\"the object has been modified\")", names.join(", "), if keeps_status && names.contains(&"status") { "keeps" } else { "drops" })
        } else if keeps_status && names.contains(&"status") {
            let meta: Vec<&str> = names.iter().copied().filter(|n| *n != "status").collect();
            if meta.is_empty() {
                format!("it carries status: the API server {status_fate}")
            } else {
                format!(
                    "it carries {}: the API server replaces {} on create and {status_fate}",
                    names.join(", "),
                    meta.join(", ")
                )
            }
        } else {
            format!("it carries {}: the API server replaces or drops them on create, but identity copied with them may break binding", names.join(", "))
        };
        let del: Vec<String> = names.iter().map(|n| format!(".{n}")).collect();
        // A resourceVersion makes every re-apply fail, on any kind. Otherwise the fields are
        // replaced or dropped: a concern where identity binds storage (a volume, a claim),
        // only a sign of an export elsewhere.
        let storage = matches!(
            crate::model::known_kind(&obj.api_version, &obj.kind).map(|(c, _)| c),
            Some(
                crate::model::KindClass::PersistentVolume
                    | crate::model::KindClass::PersistentVolumeClaim
            )
        );
        // A status alone is dropped on create and carries no identity (a hand-written PV with
        // `status: {phase: Available}`): a sign of an export at most.
        let identity = names.iter().any(|n| n.starts_with("metadata."));
        let severity = if names.contains(&"metadata.resourceVersion") || (storage && identity) {
            Severity::Warning
        } else {
            Severity::Info
        };
        sink.report(ctx, id, first, format!("{} {} carries server-populated fields", obj.kind, obj.name))
            .severity(severity)
            .consequence(Consequence::said(summary))
            .help("strip the server fields before applying to another cluster (pvlint migrate does it for PVs and claims)")
            .suggest(
                format!("remove {}", names.join(", ")),
                Some(format!("yq -i 'del({})' <file>", del.join(", "))),
            );
    }
}

/// The (group, kind) of the custom resources whose CustomResourceDefinition in the input has
/// a status subresource (`spec.versions[].subresources.status`, or v1beta1's
/// `spec.subresources.status`): their status is the server's.
fn status_subresources<'a>(ctx: &Context<'a>) -> std::collections::HashSet<(&'a str, &'a str)> {
    use crate::node::Node;
    let mut out = std::collections::HashSet::new();
    for obj in ctx
        .index
        .objects
        .iter()
        .filter(|o| o.kind == "CustomResourceDefinition")
    {
        let root = obj.root();
        let s = |p: &str| root.at(p).and_then(Node::as_str);
        let (Some(group), Some(kind)) = (s("spec.group"), s("spec.names.kind")) else {
            continue;
        };
        let versions = root
            .at("spec.versions")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        if root.at("spec.subresources.status").is_some()
            || versions
                .iter()
                .any(|v| v.at("subresources.status").is_some())
        {
            out.insert((group, kind));
        }
    }
    out
}

/// A node with at least one value in it that is not a zero value (null, "", 0, false).
fn has_value(n: &crate::node::Node) -> bool {
    use crate::node::ScalarKind;
    match &n.value {
        crate::node::Value::Scalar(s) => match s.kind {
            ScalarKind::Null | ScalarKind::Bool(false) => false,
            ScalarKind::Str => !s.text.is_empty(),
            ScalarKind::Int | ScalarKind::Float => !s
                .text
                .chars()
                .all(|c| matches!(c, '0' | '.' | '-' | '+' | '_')),
            ScalarKind::Bool(true) => true,
        },
        crate::node::Value::Seq(items) => items.iter().any(has_value),
        crate::node::Value::Map(entries) => entries.iter().any(|e| has_value(&e.value)),
    }
}
