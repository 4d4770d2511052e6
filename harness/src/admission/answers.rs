//! The host side of Kubewarden's context-aware capabilities, as policy-server answers them
//! (policy-evaluator's `runtimes/callback.rs` and `callback_handler/kubernetes/client.rs`):
//! `kubewarden`/`kubernetes` `get_resource`, `list_resources_all`,
//! `list_resources_by_namespace`, gated by the policy's `hostCapabilities` and
//! `contextAwareResources`, with policy-server's error texts. Answers come from a cluster-state
//! file (`kubectl get ... -o yaml`) or from a kwctl replay session
//! (`kwctl run --record-host-capabilities-interactions`).

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::{json, Value};

use super::annotate::capability_allowed;

/// Who answers the guest's lookups.
pub enum Source {
    /// Objects of a cluster-state file.
    Cluster(Vec<Value>),
    /// A kwctl session, replayed in order.
    Replay(Mutex<VecDeque<Exchange>>),
}

/// One recorded request and its answer (kwctl's `Exchange`).
#[derive(Debug, Clone)]
pub struct Exchange {
    /// `CallbackRequestType` variant, e.g. `KubernetesGetResource`.
    pub variant: String,
    pub fields: Value,
    pub response: Result<String, String>,
}

/// What the policy was granted (its metadata).
#[derive(Debug, Clone, Default)]
pub struct Grants {
    /// `contextAwareResources`: (apiVersion, kind).
    pub resources: Vec<(String, String)>,
    /// `hostCapabilities`; None when the metadata does not restrict them.
    pub capabilities: Option<Vec<String>>,
}

impl Grants {
    pub fn from_metadata(md: Option<&Value>) -> Grants {
        let Some(md) = md else {
            return Grants::default();
        };
        let resources = md
            .get("contextAwareResources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|r| {
                Some((
                    r.get("apiVersion")?.as_str()?.to_string(),
                    r.get("kind")?.as_str()?.to_string(),
                ))
            })
            .collect();
        let capabilities = md
            .get("hostCapabilities")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|c| c.as_str().map(String::from))
                    .collect()
            });
        Grants {
            resources,
            capabilities,
        }
    }
}

/// The host: the policy's grants and the source of answers.
pub struct Answers {
    pub grants: Grants,
    pub source: Source,
}

type HostResult = Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>>;

fn err(msg: String) -> HostResult {
    Err(msg.into())
}

/// Kinds this host knows to be cluster-scoped (the others it answers are namespaced).
fn cluster_scoped(kind: &str) -> bool {
    matches!(
        kind,
        "PersistentVolume"
            | "StorageClass"
            | "CSIDriver"
            | "VolumeAttachment"
            | "Namespace"
            | "Node"
            | "CSINode"
            | "VolumeAttributesClass"
            | "ClusterRole"
            | "ClusterRoleBinding"
            | "CustomResourceDefinition"
            | "PriorityClass"
    )
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn meta<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get("metadata").and_then(|m| text(m, key))
}

/// Loads a cluster-state file's objects: Lists expanded, documents in order.
pub fn cluster_objects(text_: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for doc in pvlint_core::api::documents_json(text_)? {
        push_object(doc, &mut out);
    }
    Ok(out)
}

fn push_object(doc: Value, out: &mut Vec<Value>) {
    let is_list = text(&doc, "kind").is_some_and(|k| k == "List" || k.ends_with("List"))
        && doc.get("items").is_some_and(Value::is_array);
    if is_list {
        let api = text(&doc, "apiVersion").map(String::from);
        let kind = text(&doc, "kind").map(|k| k.trim_end_matches("List").to_string());
        if let Some(Value::Array(items)) = doc.get("items").cloned() {
            for mut item in items {
                // Typed lists (`PersistentVolumeList`) may leave apiVersion/kind off their items.
                if let Some(m) = item.as_object_mut() {
                    if let (Some(k), false) = (&kind, m.contains_key("kind")) {
                        if !k.is_empty() {
                            m.insert("kind".into(), Value::from(k.as_str()));
                            if let Some(a) = &api {
                                m.entry("apiVersion").or_insert(Value::from(a.as_str()));
                            }
                        }
                    }
                }
                push_object(item, out);
            }
        }
    } else if doc.is_object() {
        out.push(doc);
    }
}

/// Reads a kwctl replay session: a YAML list of `{type: Exchange, request: <YAML of a
/// CallbackRequestType>, response: {type: Success, payload} | {type: Error, message}}`.
pub fn parse_session(text_: &str) -> Result<Vec<Exchange>, String> {
    let docs = pvlint_core::api::documents_json(text_)?;
    let Some(Value::Array(items)) = docs.into_iter().next() else {
        return Err("a replay session is a YAML list of exchanges".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, e)| parse_exchange(e).map_err(|m| format!("exchange {}: {m}", i + 1)))
        .collect()
}

fn parse_exchange(e: &Value) -> Result<Exchange, String> {
    let request = text(e, "request").ok_or("no request")?;
    // serde_yaml writes an externally tagged enum as `!Variant` followed by its fields
    // (0.9), or as a one-key mapping `Variant: {...}` (0.8).
    let (variant, fields) = match request.trim_start().strip_prefix('!') {
        Some(rest) => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let fields = pvlint_core::api::documents_json(&rest[end..])?
                .into_iter()
                .next()
                .unwrap_or(Value::Null);
            (rest[..end].to_string(), fields)
        }
        None => {
            let doc = pvlint_core::api::documents_json(request)?
                .into_iter()
                .next()
                .ok_or("empty request")?;
            let m = doc.as_object().filter(|m| m.len() == 1).ok_or(
                "the request is neither `!Variant` fields nor a one-key mapping `Variant: fields`",
            )?;
            let (k, v) = m.iter().next().expect("one key");
            (k.clone(), v.clone())
        }
    };
    let response = e.get("response").ok_or("no response")?;
    let response = match text(response, "type") {
        Some("Success") => Ok(text(response, "payload").unwrap_or("").to_string()),
        Some("Error") => Err(text(response, "message").unwrap_or("").to_string()),
        other => {
            return Err(format!(
                "response type {other:?} is neither Success nor Error"
            ))
        }
    };
    Ok(Exchange {
        variant,
        fields,
        response,
    })
}

impl Answers {
    /// Loads a file of host answers: a kwctl replay session, or a cluster state.
    pub fn load(text_: &str, grants: Grants) -> Result<Answers, String> {
        let docs = pvlint_core::api::documents_json(text_)?;
        let is_session = matches!(docs.as_slice(), [Value::Array(items)]
            if !items.is_empty() && items.iter().all(|i| i.get("request").is_some() && i.get("response").is_some()));
        let source = if is_session {
            Source::Replay(Mutex::new(parse_session(text_)?.into()))
        } else {
            Source::Cluster(cluster_objects(text_)?)
        };
        Ok(Answers { grants, source })
    }

    /// An empty cluster.
    pub fn empty(grants: Grants) -> Answers {
        Answers {
            grants,
            source: Source::Cluster(Vec::new()),
        }
    }

    /// The waPC host callback.
    pub fn callback(
        &self,
        binding: &str,
        namespace: &str,
        operation: &str,
        payload: &[u8],
    ) -> HostResult {
        if binding != "kubewarden" {
            return err(format!("unknown binding: {binding}"));
        }
        if namespace == "tracing" {
            return match operation {
                "log" => Ok(Vec::new()),
                _ => err(format!("unknown operation: {operation}")),
            };
        }
        let path = format!("{namespace}/{operation}");
        if !capability_allowed(self.grants.capabilities.as_deref(), &path) {
            return err(format!(
                "Policy has not been granted access to the '{path}' host capability. The violation has been reported."
            ));
        }
        if namespace != "kubernetes" {
            return err(format!(
                "pvlint's admission host answers only kubernetes lookups, not {path}"
            ));
        }
        let req: Value = serde_json::from_slice(payload)
            .map_err(|e| format!("cannot read the {operation} request: {e}"))?;
        let (variant, fields) = match operation {
            "get_resource" => (
                "KubernetesGetResource",
                json!({
                    "api_version": req.get("api_version"), "kind": req.get("kind"), "name": req.get("name"),
                    "namespace": req.get("namespace"), "disable_cache": req.get("disable_cache").cloned().unwrap_or(Value::Bool(false)),
                }),
            ),
            "list_resources_all" => (
                "KubernetesListResourceAll",
                json!({
                    "api_version": req.get("api_version"), "kind": req.get("kind"),
                    "label_selector": req.get("label_selector"), "field_selector": req.get("field_selector"),
                }),
            ),
            "list_resources_by_namespace" => (
                "KubernetesListResourceNamespace",
                json!({
                    "api_version": req.get("api_version"), "kind": req.get("kind"), "namespace": req.get("namespace"),
                    "label_selector": req.get("label_selector"), "field_selector": req.get("field_selector"),
                }),
            ),
            "can_i" => return err("pvlint's admission host does not answer can_i".into()),
            _ => return err(format!("unknown operation: {operation}")),
        };
        let api_version = text(&req, "api_version").unwrap_or("");
        let kind = text(&req, "kind").unwrap_or("");
        if !self
            .grants
            .resources
            .iter()
            .any(|(a, k)| a == api_version && k == kind)
        {
            return err(format!(
                "Policy has not been granted access to Kubernetes {api_version}/{kind} resources. The violation has been reported."
            ));
        }
        // policy-evaluator wraps every failure of the callback handler like this.
        let failure = |e: String| err(format!("Callback evaluation failure: {e}"));
        match &self.source {
            Source::Replay(queue) => {
                let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
                let Some(next) = q.pop_front() else {
                    return failure("the list of recorded responses is empty".into());
                };
                if next.variant != variant || !same_fields(&next.fields, &fields) {
                    return failure(format!(
                        "Replay error: unexpected request. Was expecting {} {}, got {variant} {fields} instead",
                        next.variant, next.fields
                    ));
                }
                match next.response {
                    Ok(p) => Ok(p.into_bytes()),
                    Err(m) => failure(m),
                }
            }
            Source::Cluster(objects) => {
                let of_kind = |o: &&Value| {
                    text(o, "apiVersion") == Some(api_version) && text(o, "kind") == Some(kind)
                };
                match operation {
                    "get_resource" => {
                        let name = text(&req, "name").unwrap_or("");
                        let ns = text(&req, "namespace");
                        if !cluster_scoped(kind) && ns.is_none() {
                            return failure(format!(
                                "Resource {api_version}/{kind} is namespaced, but no namespace was provided"
                            ));
                        }
                        let want_ns = if cluster_scoped(kind) { None } else { ns };
                        match objects
                            .iter()
                            .filter(of_kind)
                            .find(|o| meta(o, "name") == Some(name) && meta(o, "namespace") == want_ns)
                        {
                            Some(o) => Ok(serde_json::to_vec(o)?),
                            None => failure(format!(
                                "Cannot find {api_version}/{kind} named '{name}' inside of namespace '{ns:?}'"
                            )),
                        }
                    }
                    _ => {
                        if req.get("label_selector").is_some_and(|s| !s.is_null())
                            || req.get("field_selector").is_some_and(|s| !s.is_null())
                        {
                            return failure("pvlint's admission host does not evaluate label or field selectors".into());
                        }
                        let ns = if operation == "list_resources_by_namespace" {
                            if cluster_scoped(kind) {
                                return failure(format!(
                                    "resource {api_version}/{kind} is cluster wide. Cannot search for it inside of a namespace"
                                ));
                            }
                            Some(text(&req, "namespace").unwrap_or(""))
                        } else {
                            None
                        };
                        let items: Vec<&Value> = objects
                            .iter()
                            .filter(of_kind)
                            .filter(|o| ns.is_none() || meta(o, "namespace") == ns)
                            .collect();
                        Ok(serde_json::to_vec(&json!({
                            "apiVersion": api_version,
                            "kind": format!("{kind}List"),
                            "metadata": {},
                            "items": items,
                        }))?)
                    }
                }
            }
        }
    }
}

/// Recorded and actual requests are the same when every recorded field matches (fields a
/// newer SDK adds, like `field_masks`, are compared only when recorded).
fn same_fields(recorded: &Value, actual: &Value) -> bool {
    match (recorded.as_object(), actual.as_object()) {
        (Some(r), Some(a)) => r.iter().all(|(k, v)| {
            let other = a.get(k).unwrap_or(&Value::Null);
            v == other || (k == "field_masks" && v.is_null())
        }),
        _ => recorded == actual,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants() -> Grants {
        Grants {
            resources: vec![
                ("v1".into(), "PersistentVolumeClaim".into()),
                ("v1".into(), "PersistentVolume".into()),
            ],
            capabilities: Some(vec!["kubernetes/*".into()]),
        }
    }

    fn call(a: &Answers, op: &str, req: Value) -> Result<Value, String> {
        a.callback("kubewarden", "kubernetes", op, req.to_string().as_bytes())
            .map(|b| serde_json::from_slice(&b).unwrap())
            .map_err(|e| e.to_string())
    }

    const STATE: &str = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata: {name: data, namespace: test}\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {name: pv1}\n";

    #[test]
    fn answers_from_a_cluster_state_with_policy_server_texts() {
        let a = Answers::load(STATE, grants()).unwrap();
        let got = call(&a, "get_resource", json!({"api_version": "v1", "kind": "PersistentVolumeClaim", "name": "data", "namespace": "test", "disable_cache": false})).unwrap();
        assert_eq!(got["metadata"]["name"], "data");
        let e = call(&a, "get_resource", json!({"api_version": "v1", "kind": "PersistentVolumeClaim", "name": "nope", "namespace": "test"})).unwrap_err();
        assert_eq!(e, "Callback evaluation failure: Cannot find v1/PersistentVolumeClaim named 'nope' inside of namespace 'Some(\"test\")'");
        let list = call(
            &a,
            "list_resources_all",
            json!({"api_version": "v1", "kind": "PersistentVolume"}),
        )
        .unwrap();
        assert_eq!(list["kind"], "PersistentVolumeList");
        assert_eq!(list["items"].as_array().unwrap().len(), 1);
        let e = call(
            &a,
            "list_resources_by_namespace",
            json!({"api_version": "v1", "kind": "PersistentVolume", "namespace": "x"}),
        )
        .unwrap_err();
        assert!(e.contains("is cluster wide"), "{e}");
        let e = call(
            &a,
            "get_resource",
            json!({"api_version": "v1", "kind": "Secret", "name": "s", "namespace": "x"}),
        )
        .unwrap_err();
        assert_eq!(e, "Policy has not been granted access to Kubernetes v1/Secret resources. The violation has been reported.");
        let mut g = grants();
        g.capabilities = Some(vec!["kubernetes/get_resource".into()]);
        let a = Answers::load(STATE, g).unwrap();
        let e = call(
            &a,
            "list_resources_all",
            json!({"api_version": "v1", "kind": "PersistentVolume"}),
        )
        .unwrap_err();
        assert_eq!(e, "Policy has not been granted access to the 'kubernetes/list_resources_all' host capability. The violation has been reported.");
    }

    #[test]
    fn replays_a_kwctl_session_in_order() {
        let session = r#"
- type: Exchange
  request: |
    !KubernetesGetResource
    api_version: v1
    kind: PersistentVolumeClaim
    name: data
    namespace: test
    disable_cache: false
  response:
    type: Success
    payload: '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"test"}}'
- type: Exchange
  request: |
    !KubernetesGetResource
    api_version: v1
    kind: PersistentVolume
    name: gone
    namespace: null
    disable_cache: false
  response:
    type: Error
    message: Cannot find v1/PersistentVolume named 'gone' inside of namespace 'None'
"#;
        let a = Answers::load(session, grants()).unwrap();
        assert!(matches!(a.source, Source::Replay(_)));
        let got = call(&a, "get_resource", json!({"api_version": "v1", "kind": "PersistentVolumeClaim", "name": "data", "namespace": "test", "disable_cache": false, "field_masks": null})).unwrap();
        assert_eq!(got["metadata"]["name"], "data");
        let e = call(&a, "get_resource", json!({"api_version": "v1", "kind": "PersistentVolume", "name": "other", "namespace": null, "disable_cache": false})).unwrap_err();
        assert!(
            e.starts_with("Callback evaluation failure: Replay error: unexpected request"),
            "{e}"
        );
        let e = call(&a, "get_resource", json!({"api_version": "v1", "kind": "PersistentVolume", "name": "gone", "namespace": null, "disable_cache": false})).unwrap_err();
        assert_eq!(
            e,
            "Callback evaluation failure: the list of recorded responses is empty"
        );
    }
}
