//! From a waPC `validate` payload to a verdict: read the admission request, gather the cluster
//! state through a [`Lookup`], lint the object applied onto that state with
//! `pvlint_core::api`, and map the findings to rejection, warnings and audit annotations.
//! No rule logic lives here.

use std::collections::{BTreeMap, BTreeSet};

use pvlint_core::{Finding, Request, Source};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{self, Lookup};
use crate::settings::{Settings, Verdict};

/// The policy's answer, as policy-server reads it (`kubewarden_policy_sdk::response::
/// ValidationResponse`'s fields), with ordered annotations so the output is reproducible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    pub accepted: bool,
    pub message: Option<String>,
    pub code: Option<u16>,
    pub mutated_object: Option<Value>,
    pub audit_annotations: Option<BTreeMap<String, String>>,
    pub warnings: Option<Vec<String>>,
}

impl Response {
    fn accept() -> Response {
        Response {
            accepted: true,
            message: None,
            code: None,
            mutated_object: None,
            audit_annotations: None,
            warnings: None,
        }
    }

    fn reject(message: String) -> Response {
        Response {
            accepted: false,
            message: Some(message),
            ..Response::accept()
        }
    }
}

/// The kinds the policy validates: (API group, kind).
pub const KINDS: &[(&str, &str)] = &[
    ("", "PersistentVolume"),
    ("", "PersistentVolumeClaim"),
    ("storage.k8s.io", "StorageClass"),
    ("apps", "Deployment"),
    ("apps", "StatefulSet"),
    ("apps", "DaemonSet"),
    ("apps", "ReplicaSet"),
    ("batch", "Job"),
    ("batch", "CronJob"),
    ("", "Pod"),
];

/// Most warnings one response carries (the API server truncates long lists anyway).
const MAX_WARNINGS: usize = 20;

/// The object without what the API server sets before validating admission runs (uid,
/// creationTimestamp, status reset by PrepareForCreate): they are not what the user wrote, so
/// the `server-populated-fields` rule must not see them.
fn strip_server_fields(obj: &Value) -> Value {
    let mut o = obj.clone();
    strip_generated_selector(&mut o);
    if let Some(m) = o.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in pvlint_core::SERVER_POPULATED_METADATA {
            m.remove(*k);
        }
    }
    if let Some(m) = o.as_object_mut() {
        m.remove("status");
    }
    o
}

/// A Job being created went through the Job strategy's `generateSelector` before validating
/// admission: its pod template carries the new uid (`controller-uid`,
/// `batch.kubernetes.io/controller-uid`) and its selector selects it. Undone, so the Job is
/// judged as written (an exported Job's stale uid is what pvlint reports, not the new one).
fn strip_generated_selector(o: &mut Value) {
    if o["kind"] != "Job" || o["spec"]["manualSelector"] == true {
        return;
    }
    let uid = str_at(o, &["metadata", "uid"]).to_string();
    if uid.is_empty() {
        return;
    }
    let keys = pvlint_core::JOB_UID_LABELS;
    if let Some(labels) = o
        .pointer_mut("/spec/template/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        labels.retain(|k, v| !(keys.contains(&k.as_str()) && v.as_str() == Some(uid.as_str())));
    }
    let Some(spec) = o.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let mut emptied = false;
    if let Some(sel) = spec.get_mut("selector").and_then(Value::as_object_mut) {
        if let Some(ml) = sel.get_mut("matchLabels").and_then(Value::as_object_mut) {
            ml.retain(|k, v| !(keys.contains(&k.as_str()) && v.as_str() == Some(uid.as_str())));
            if ml.is_empty() {
                sel.remove("matchLabels");
            }
        }
        emptied = sel
            .get("matchExpressions")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
            && !sel.contains_key("matchLabels");
    }
    if emptied {
        spec.remove("selector");
    }
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// A controller made this object (a controller ownerReference): it is judged through its
/// owner (a ReplicaSet through its Deployment, a Pod through its StatefulSet, ...), and
/// refusing it would only stall the controller.
fn controller_owner(obj: &Value) -> Option<String> {
    obj.get("metadata")?
        .get("ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        .map(|r| format!("{} {}", str_at(r, &["kind"]), str_at(r, &["name"])))
}

/// Evaluates a `validate` payload (`{"request": AdmissionRequest, "settings": {...}}`).
/// Never fails: a request it cannot read is rejected with a message that says why.
pub fn evaluate(payload: &[u8], lookup: &dyn Lookup) -> Response {
    let v: Value = match serde_json::from_slice(payload) {
        Ok(v) => v,
        Err(e) => {
            return Response::reject(format!(
                "pvlint: the validation request is not valid JSON: {e}"
            ))
        }
    };
    let Some(request) = v.get("request").filter(|r| r.is_object()) else {
        return Response::reject(
            "pvlint: the validation request has no \"request\" object (an AdmissionRequest)".into(),
        );
    };
    let settings = match Settings::from_value(v.get("settings").unwrap_or(&Value::Null)) {
        Ok(s) => s,
        Err(e) => return Response::reject(format!("pvlint: invalid settings: {e}")),
    };
    decide(request, &settings, lookup)
}

/// The verdict on one admission request.
pub fn decide(request: &Value, settings: &Settings, lookup: &dyn Lookup) -> Response {
    let operation = str_at(request, &["operation"]);
    if operation != "CREATE" && operation != "UPDATE" {
        return Response::accept();
    }
    let group = str_at(request, &["kind", "group"]);
    let kind = str_at(request, &["kind", "kind"]);
    if !KINDS.iter().any(|&(g, k)| g == group && k == kind) {
        return Response::accept();
    }
    let Some(obj) = request.get("object").filter(|o| o.is_object()) else {
        return Response::reject(format!(
            "pvlint: the {operation} request for a {kind} carries no object"
        ));
    };
    let namespace = match str_at(request, &["namespace"]) {
        "" => str_at(obj, &["metadata", "namespace"]),
        ns => ns,
    };
    if !namespace.is_empty() && settings.skip_namespaces.contains(namespace) {
        return Response::accept();
    }
    if controller_owner(obj).is_some() {
        return Response::accept();
    }
    // Being deleted: the update only moves it towards deletion (finalizers, status).
    if obj
        .get("metadata")
        .and_then(|m| m.get("deletionTimestamp"))
        .is_some_and(|d| !d.is_null())
    {
        return Response::accept();
    }
    let old = (operation == "UPDATE")
        .then(|| request.get("oldObject").filter(|o| o.is_object()))
        .flatten();
    let mut warnings = Vec::new();
    let subject = match namespace {
        "" => format!("{kind} {}", str_at(obj, &["metadata", "name"])),
        ns => format!("{kind} {ns}/{}", str_at(obj, &["metadata", "name"])),
    };
    let (cluster, live_self) = match context::gather(kind, namespace, obj, old, lookup) {
        Ok(mut objects) => {
            let live_self = old.is_none() && live_self(kind, namespace, obj, &mut objects, lookup);
            (Some(list_source(objects)), live_self)
        }
        Err(e) => {
            warnings.push(format!(
                "pvlint: cannot read the cluster state ({e}); {subject} was judged on its own, assuming a typical cluster"
            ));
            (None, false)
        }
    };
    let options = settings.options();
    let lint = |o: &Value| {
        let mut o = strip_server_fields(o);
        if let (Some(m), false) = (
            o.get_mut("metadata").and_then(Value::as_object_mut),
            namespace.is_empty(),
        ) {
            m.entry("namespace")
                .or_insert_with(|| Value::from(namespace));
        }
        let text = serde_json::to_string(&o).unwrap_or_default();
        pvlint_core::api::lint(&Request {
            sources: vec![Source::new(format!("admission:{subject}"), text)],
            cluster: cluster.clone().into_iter().collect(),
            options: options.clone(),
            each_file: false,
            together: true,
            operations: Vec::new(),
            audit: false,
        })
    };
    let report = if live_self {
        // Kubewarden's audit scanner sends each existing object as a CREATE: the object is
        // already in the cluster (same name and UID). It is judged as `pvlint cluster` judges
        // a live object: a Retain volume whose claim was deleted is Released
        // (volume-released), not a copy carrying another cluster's claimRef.uid.
        let mut r = pvlint_core::api::lint(&Request {
            cluster: cluster.clone().into_iter().collect(),
            options: options.clone(),
            audit: true,
            ..Request::default()
        });
        let name = str_at(obj, &["metadata", "name"]);
        r.findings.retain(|f| {
            f.object.as_ref().is_some_and(|o| {
                o.kind == kind
                    && o.name == name
                    && o.namespace.as_deref().unwrap_or("") == namespace
            })
        });
        r
    } else {
        lint(obj)
    };
    // An UPDATE is refused only for what it introduces: what was already true of the live
    // object is reported as a warning.
    let before: BTreeSet<(String, String, String)> = old
        .map(|o| lint(o).findings.iter().map(key).collect())
        .unwrap_or_default();
    let mut rejected = Vec::new();
    let (mut denied_rules, mut warned_rules) = (BTreeSet::new(), BTreeSet::new());
    for f in &report.findings {
        let line = headline(f);
        match settings.verdict(&f.rule, f.severity) {
            Verdict::Ignore => {}
            Verdict::Reject if !before.contains(&key(f)) => {
                denied_rules.insert(f.rule.clone());
                rejected.push(line);
            }
            Verdict::Reject => {
                warned_rules.insert(f.rule.clone());
                warnings.push(format!("{line} (already so before this update)"));
            }
            Verdict::Warn => {
                warned_rules.insert(f.rule.clone());
                warnings.push(line);
            }
        }
    }
    if warnings.len() > MAX_WARNINGS {
        let more = warnings.len() - (MAX_WARNINGS - 1);
        warnings.truncate(MAX_WARNINGS - 1);
        warnings.push(format!(
            "pvlint: {more} more warnings; `pvlint lint` shows them all"
        ));
    }
    let mut annotations = BTreeMap::new();
    if !denied_rules.is_empty() {
        annotations.insert("pvlint-rejected".to_string(), join(&denied_rules));
    }
    if !warned_rules.is_empty() {
        annotations.insert("pvlint-warned".to_string(), join(&warned_rules));
    }
    Response {
        accepted: rejected.is_empty(),
        message: (!rejected.is_empty()).then(|| rejected.join("\n")),
        code: None,
        mutated_object: None,
        audit_annotations: (!annotations.is_empty()).then_some(annotations),
        warnings: (!warnings.is_empty()).then_some(warnings),
    }
}

fn join(s: &BTreeSet<pvlint_core::Str>) -> String {
    s.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(",")
}

/// `error[rule]: headline`, as the CLI prints it.
pub fn headline(f: &Finding) -> String {
    format!("{}[{}]: {}", f.severity.as_str(), f.rule, f.message)
}

/// What makes two findings the same hazard: the rule, the object and the field.
fn key(f: &Finding) -> (String, String, String) {
    (
        f.rule.to_string(),
        f.object.as_ref().map(|o| o.display()).unwrap_or_default(),
        f.path.to_string(),
    )
}

/// The gathered objects as one `kind: List`, the form `--cluster-state` reads.
/// The object of a CREATE is already in the cluster (Kubewarden's audit scanner): the live
/// PersistentVolume or PersistentVolumeClaim of this name has the object's metadata.uid, which
/// only the API server assigns. The live object joins the gathered state if it is not there.
fn live_self(
    kind: &str,
    namespace: &str,
    obj: &Value,
    objects: &mut Vec<Value>,
    lookup: &dyn Lookup,
) -> bool {
    let uid = str_at(obj, &["metadata", "uid"]);
    let name = str_at(obj, &["metadata", "name"]);
    if uid.is_empty() || !matches!(kind, "PersistentVolume" | "PersistentVolumeClaim") {
        return false;
    }
    let same = |v: &Value| {
        str_at(v, &["kind"]) == kind
            && str_at(v, &["metadata", "name"]) == name
            && str_at(v, &["metadata", "uid"]) == uid
    };
    if objects.iter().any(same) {
        return true;
    }
    let ns = (!namespace.is_empty()).then_some(namespace);
    match lookup.get("v1", kind, ns, name) {
        Ok(Some(v)) if same(&v) => {
            objects.push(v);
            true
        }
        _ => false,
    }
}

fn list_source(objects: Vec<Value>) -> Source {
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": objects});
    Source::new("cluster-state", list.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::tests::{pv, pvc, Fake};
    use serde_json::json;

    fn review(op: &str, kind: (&str, &str), obj: Value, old: Option<Value>) -> Value {
        let mut r = json!({"uid": "u", "operation": op,
            "kind": {"group": kind.0, "version": "v1", "kind": kind.1},
            "namespace": obj["metadata"]["namespace"].as_str().unwrap_or(""),
            "object": obj});
        if let Some(o) = old {
            r["oldObject"] = o;
        }
        r
    }

    fn payload(request: Value, settings: Value) -> Vec<u8> {
        serde_json::to_vec(&json!({"request": request, "settings": settings})).unwrap()
    }

    fn stale_pv() -> Value {
        let mut v = pv("shared", Some(("test", "data")));
        v["spec"]["claimRef"]["uid"] = json!("3d65a636-f4c3-4c49-b957-c45673f48bc6");
        v["spec"]["persistentVolumeReclaimPolicy"] = json!("Retain");
        v
    }

    fn live_claim() -> Value {
        let mut c = pvc("test", "data", Some("shared"));
        c["metadata"]["annotations"] = json!({"pv.kubernetes.io/bind-completed": "yes"});
        c
    }

    #[test]
    fn a_stale_claim_ref_uid_is_rejected_with_the_rule_id() {
        let f = Fake {
            objects: vec![live_claim()],
            ..Fake::default()
        };
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolume"), stale_pv(), None),
                json!({}),
            ),
            &f,
        );
        assert!(!r.accepted, "{r:?}");
        let m = r.message.unwrap();
        assert!(
            m.starts_with("error[stale-claim-ref-uid]: PersistentVolume shared"),
            "{m}"
        );
        assert_eq!(
            r.audit_annotations.unwrap()["pvlint-rejected"],
            "stale-claim-ref-uid"
        );
    }

    /// A claim created in the cluster with an owner that is not its controller (a tool's
    /// `SetOwnerReference`): validating admission sees the UID and creationTimestamp the API
    /// server has just set (rest.BeforeCreate runs before createValidation). That is no export
    /// from another cluster, and the owner is not in the gathered state: stale-owner-reference
    /// must say nothing.
    #[test]
    fn a_claim_created_with_an_owner_is_not_a_stale_owner() {
        let mut c = pvc("app", "cache", None);
        c["metadata"]["uid"] = json!("0b6d2f4e-5a71-4c39-9e8d-3c2b1a0f9e87");
        c["metadata"]["creationTimestamp"] = json!("2026-11-27T10:00:00Z");
        c["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "Deployment",
            "name": "web", "uid": "7c1f3a52-93d4-4d0e-b1b5-2f0a6c9e1d44"}]);
        let f = Fake {
            objects: vec![
                json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
                "metadata": {"name": "fast"}, "provisioner": "d"}),
            ],
            ..Fake::default()
        };
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolumeClaim"), c.clone(), None),
                json!({"severityThreshold": "warning"}),
            ),
            &f,
        );
        assert!(r.accepted, "{r:?}");
        let said = format!("{:?} {:?}", r.warnings, r.audit_annotations);
        assert!(!said.contains("stale-owner-reference"), "{said}");
        // The same claim as an export linted on its own is judged: the test can fail.
        let text = serde_json::to_string(&c).unwrap();
        let report = pvlint_core::api::lint(&Request {
            sources: vec![Source::new("export.json", text)],
            ..Request::default()
        });
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule == "stale-owner-reference"),
            "{:?}",
            report.findings
        );
    }

    #[test]
    fn a_rule_downgraded_to_warn_only_warns() {
        let f = Fake {
            objects: vec![live_claim()],
            ..Fake::default()
        };
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolume"), stale_pv(), None),
                json!({"warnRules": ["stale-claim-ref-uid"]}),
            ),
            &f,
        );
        assert!(r.accepted, "{r:?}");
        let w = r.warnings.unwrap();
        assert!(w[0].starts_with("error[stale-claim-ref-uid]"), "{w:?}");
        assert_eq!(
            r.audit_annotations.unwrap()["pvlint-warned"],
            "stale-claim-ref-uid"
        );
    }

    #[test]
    fn an_update_is_refused_only_for_what_it_introduces() {
        let f = Fake {
            objects: vec![],
            ..Fake::default()
        };
        // A Retain volume whose claim is gone: the live object already carries its claimRef.
        let mut old = stale_pv();
        old["metadata"]["uid"] = json!("pv-uid");
        old["status"] = json!({"phase": "Released"});
        let mut new = old.clone();
        new["metadata"]["labels"] = json!({"team": "a"});
        let r = evaluate(
            &payload(
                review("UPDATE", ("", "PersistentVolume"), new, Some(old)),
                json!({}),
            ),
            &f,
        );
        assert!(r.accepted, "{r:?}");
        let w = r.warnings.unwrap_or_default();
        assert!(
            w.iter()
                .all(|w| w.ends_with("(already so before this update)")),
            "{w:?}"
        );
    }

    /// The audit scanner's CREATE of an existing Released volume: judged as the live object.
    #[test]
    fn an_audited_released_volume_is_released_not_stale() {
        let mut live = stale_pv();
        live["metadata"]["uid"] = json!("pv-uid");
        live["status"] = json!({"phase": "Released"});
        let f = Fake {
            objects: vec![live.clone()],
            ..Fake::default()
        };
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolume"), live.clone(), None),
                json!({}),
            ),
            &f,
        );
        assert!(r.accepted, "{r:?}");
        let rules = r.audit_annotations.clone().unwrap_or_default();
        assert_eq!(
            rules.get("pvlint-warned").map(String::as_str),
            Some("volume-released"),
            "{r:?}"
        );
        // A copy of it under another UID (applied from elsewhere) is still refused.
        let mut copy = live;
        copy["metadata"]["uid"] = json!("other-uid");
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolume"), copy, None),
                json!({}),
            ),
            &f,
        );
        assert!(!r.accepted, "{r:?}");
    }

    #[test]
    fn host_errors_degrade_to_the_manifest_only_verdict_with_a_warning() {
        let f = Fake {
            fail: Some("Policy has not been granted access to Kubernetes storage.k8s.io/v1/StorageClass resources. The violation has been reported.".into()),
            ..Fake::default()
        };
        let r = evaluate(
            &payload(
                review("CREATE", ("", "PersistentVolume"), stale_pv(), None),
                json!({}),
            ),
            &f,
        );
        // Without the cluster the claimRef.uid is still identity from elsewhere.
        assert!(!r.accepted);
        let w = r.warnings.unwrap();
        assert!(
            w[0].contains("cannot read the cluster state (Policy has not been granted"),
            "{w:?}"
        );
    }

    #[test]
    fn what_is_not_ours_is_accepted() {
        let f = Fake::default();
        for (op, kind, obj) in [
            ("DELETE", ("", "PersistentVolume"), stale_pv()),
            (
                "CREATE",
                ("", "ConfigMap"),
                json!({"metadata": {"name": "x"}}),
            ),
            ("CREATE", ("", "PersistentVolume"), {
                let mut v = stale_pv();
                v["metadata"]["deletionTimestamp"] = json!("2024-01-01T00:00:00Z");
                v
            }),
        ] {
            let r = evaluate(&payload(review(op, kind, obj, None), json!({})), &f);
            assert!(r.accepted, "{op} {kind:?}: {r:?}");
        }
        assert!(f.calls.borrow().is_empty());
        let mut pod = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "kube-system"}, "spec": {}});
        let r = evaluate(
            &payload(
                review("CREATE", ("", "Pod"), pod.clone(), None),
                json!({"skipNamespaces": ["kube-system"]}),
            ),
            &f,
        );
        assert!(r.accepted);
        pod["metadata"]["namespace"] = json!("app");
        pod["metadata"]["ownerReferences"] =
            json!([{"kind": "ReplicaSet", "name": "rs", "controller": true}]);
        let r = evaluate(
            &payload(review("CREATE", ("", "Pod"), pod, None), json!({})),
            &f,
        );
        assert!(r.accepted);
        assert!(f.calls.borrow().is_empty(), "{:?}", f.calls.borrow());
    }

    #[test]
    fn malformed_requests_are_clear_rejections() {
        let f = Fake::default();
        for (p, want) in [
            (&b"{"[..], "not valid JSON"),
            (b"[]", "no \"request\" object"),
            (
                br#"{"request": {}, "settings": {"bogus": 1}}"#,
                "unknown setting \"bogus\"",
            ),
            (
                br#"{"request": {"operation": "CREATE", "kind": {"group": "", "kind": "Pod"}}}"#,
                "carries no object",
            ),
        ] {
            let r = evaluate(p, &f);
            assert!(!r.accepted);
            let m = r.message.unwrap();
            assert!(m.contains(want), "{m}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let r = evaluate(deep.as_bytes(), &f);
        assert!(r.message.unwrap().contains("recursion limit"));
    }
}
