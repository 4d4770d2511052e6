//! A replay Kubernetes API server for tests: it serves a scenario's objects in the exact
//! shapes kube-apiserver sends (what `kubectl get --raw` prints), over HTTP on 127.0.0.1:0.
//!
//! - `/version` (version.Info), discovery: `/api` (APIVersions), `/apis` (APIGroupList),
//!   `/api/v1` and `/apis/GROUP/VERSION` (APIResourceList), as client-go's legacy discovery
//!   reads them (an `application/json` answer to its aggregated-discovery Accept header makes
//!   it fall back to these);
//! - lists (`/api/v1/persistentvolumes`, `/apis/apps/v1/namespaces/NS/deployments`, ...) as
//!   `<Kind>List` objects with `metadata.resourceVersion`, `limit`/`continue` paging (the
//!   token is base64url JSON like the real one; `remainingItemCount`), items without
//!   apiVersion/kind as the API server sends them; gets of single objects;
//! - errors as `Status` objects: 401 Unauthorized, 403 Forbidden (with the authorizer's
//!   message), 404 NotFound, 410 Expired (a continue token that is too old), 500 InternalError.
//!
//! It is not a client mock: pvlint's kube client and the real kubectl talk HTTP to it.

#![allow(dead_code)]

pub mod scenarios;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::{json, Value};

/// A resource the server serves.
#[derive(Debug, Clone, Copy)]
pub struct Res {
    pub group: &'static str,
    pub version: &'static str,
    pub plural: &'static str,
    pub singular: &'static str,
    pub kind: &'static str,
    pub namespaced: bool,
    pub short: &'static [&'static str],
}

pub const RESOURCES: &[Res] = &[
    Res {
        group: "",
        version: "v1",
        plural: "events",
        singular: "event",
        kind: "Event",
        namespaced: true,
        short: &["ev"],
    },
    Res {
        group: "",
        version: "v1",
        plural: "namespaces",
        singular: "namespace",
        kind: "Namespace",
        namespaced: false,
        short: &["ns"],
    },
    Res {
        group: "",
        version: "v1",
        plural: "nodes",
        singular: "node",
        kind: "Node",
        namespaced: false,
        short: &["no"],
    },
    Res {
        group: "",
        version: "v1",
        plural: "persistentvolumeclaims",
        singular: "persistentvolumeclaim",
        kind: "PersistentVolumeClaim",
        namespaced: true,
        short: &["pvc"],
    },
    Res {
        group: "",
        version: "v1",
        plural: "persistentvolumes",
        singular: "persistentvolume",
        kind: "PersistentVolume",
        namespaced: false,
        short: &["pv"],
    },
    Res {
        group: "",
        version: "v1",
        plural: "pods",
        singular: "pod",
        kind: "Pod",
        namespaced: true,
        short: &["po"],
    },
    Res {
        group: "apps",
        version: "v1",
        plural: "daemonsets",
        singular: "daemonset",
        kind: "DaemonSet",
        namespaced: true,
        short: &["ds"],
    },
    Res {
        group: "apps",
        version: "v1",
        plural: "deployments",
        singular: "deployment",
        kind: "Deployment",
        namespaced: true,
        short: &["deploy"],
    },
    Res {
        group: "apps",
        version: "v1",
        plural: "replicasets",
        singular: "replicaset",
        kind: "ReplicaSet",
        namespaced: true,
        short: &["rs"],
    },
    Res {
        group: "apps",
        version: "v1",
        plural: "statefulsets",
        singular: "statefulset",
        kind: "StatefulSet",
        namespaced: true,
        short: &["sts"],
    },
    Res {
        group: "batch",
        version: "v1",
        plural: "cronjobs",
        singular: "cronjob",
        kind: "CronJob",
        namespaced: true,
        short: &["cj"],
    },
    Res {
        group: "batch",
        version: "v1",
        plural: "jobs",
        singular: "job",
        kind: "Job",
        namespaced: true,
        short: &[],
    },
    Res {
        group: "storage.k8s.io",
        version: "v1",
        plural: "csidrivers",
        singular: "csidriver",
        kind: "CSIDriver",
        namespaced: false,
        short: &[],
    },
    Res {
        group: "storage.k8s.io",
        version: "v1",
        plural: "storageclasses",
        singular: "storageclass",
        kind: "StorageClass",
        namespaced: false,
        short: &["sc"],
    },
    Res {
        group: "storage.k8s.io",
        version: "v1",
        plural: "volumeattachments",
        singular: "volumeattachment",
        kind: "VolumeAttachment",
        namespaced: false,
        short: &[],
    },
    Res {
        group: "wgpolicyk8s.io",
        version: "v1alpha2",
        plural: "clusterpolicyreports",
        singular: "clusterpolicyreport",
        kind: "ClusterPolicyReport",
        namespaced: false,
        short: &["cpolr"],
    },
    Res {
        group: "wgpolicyk8s.io",
        version: "v1alpha2",
        plural: "policyreports",
        singular: "policyreport",
        kind: "PolicyReport",
        namespaced: true,
        short: &["polr"],
    },
];

fn res_of_kind(kind: &str) -> Option<&'static Res> {
    RESOURCES.iter().find(|r| r.kind == kind)
}

fn group_version(r: &Res) -> String {
    if r.group.is_empty() {
        r.version.to_string()
    } else {
        format!("{}/{}", r.group, r.version)
    }
}

/// What the server holds and how it misbehaves.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The server's gitVersion.
    pub git_version: String,
    /// Objects (with apiVersion and kind), served by their resource.
    pub objects: Vec<Value>,
    /// Required bearer token (401 otherwise); None: anonymous requests are served (the real
    /// kubectl sends no credentials over plain HTTP).
    pub token: Option<String>,
    /// Plurals whose list is forbidden (403).
    pub forbidden: HashSet<&'static str>,
    /// Plurals whose list fails with 500.
    pub broken: HashSet<&'static str>,
    /// The first continue token of each list is answered 410 Expired.
    pub expire_continue: bool,
    /// Every request waits this long first.
    pub delay: Option<Duration>,
    /// Objects created after the lists ran: a GET of one finds it, no list shows it.
    pub late: Vec<Value>,
    /// Answers recorded from a real API server, served byte for byte before anything else.
    pub raw: Vec<Raw>,
}

/// A response recorded from a real kube-apiserver (`kubectl get --raw`), served as it was.
#[derive(Debug, Clone)]
pub struct Raw {
    /// The request path (`/api/v1/persistentvolumes`).
    pub path: String,
    /// The `continue` token the request carries (None: a first page or a whole list).
    pub continue_token: Option<String>,
    pub status: u16,
    pub body: String,
}

impl Scenario {
    pub fn new(objects: Vec<Value>) -> Scenario {
        Scenario {
            git_version: "v1.34.1".into(),
            objects,
            token: Some("replay-token".into()),
            forbidden: HashSet::new(),
            broken: HashSet::new(),
            expire_continue: false,
            delay: None,
            late: Vec::new(),
            raw: Vec::new(),
        }
    }
}

struct Stored {
    /// Shown by lists (false: created after them, see `Scenario::late`).
    listed: bool,
    res: &'static Res,
    namespace: Option<String>,
    name: String,
    object: Value,
}

struct Inner {
    scenario: Scenario,
    /// By plural, sorted by namespace/name (etcd key order).
    store: HashMap<&'static str, Vec<Stored>>,
    resource_version: u64,
    /// Every request, "METHOD path?query".
    log: Mutex<Vec<String>>,
    expired: Mutex<HashSet<String>>,
}

/// A running replay server; stops when dropped.
pub struct Replay {
    pub url: String,
    inner: Arc<Inner>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Replay {
    pub fn start(scenario: Scenario) -> Replay {
        let mut store: HashMap<&'static str, Vec<Stored>> = HashMap::new();
        let mut rv = 1000u64;
        let mut namespaces: std::collections::BTreeSet<String> = Default::default();
        let mut objects = scenario.objects.clone();
        for o in &objects {
            if let Some(ns) = o.pointer("/metadata/namespace").and_then(Value::as_str) {
                namespaces.insert(ns.to_string());
            }
        }
        for ns in namespaces {
            objects.push(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}));
        }
        let listed = objects.len();
        objects.extend(scenario.late.iter().cloned());
        for (i, mut o) in objects.into_iter().enumerate() {
            let kind = o["kind"].as_str().unwrap_or_default().to_string();
            let res =
                res_of_kind(&kind).unwrap_or_else(|| panic!("replay: no resource for kind {kind}"));
            rv += 1;
            let meta = o["metadata"]
                .as_object_mut()
                .expect("objects have metadata");
            meta.entry("resourceVersion")
                .or_insert(json!(rv.to_string()));
            meta.entry("uid")
                .or_insert(json!(format!("00000000-0000-4000-9000-{i:012x}")));
            meta.entry("creationTimestamp")
                .or_insert(json!("2025-06-01T08:00:00Z"));
            let name = o["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let namespace = if res.namespaced {
                Some(
                    o["metadata"]["namespace"]
                        .as_str()
                        .unwrap_or("default")
                        .to_string(),
                )
            } else {
                None
            };
            store.entry(res.plural).or_default().push(Stored {
                listed: i < listed,
                res,
                namespace,
                name,
                object: o,
            });
        }
        for list in store.values_mut() {
            list.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        }
        let inner = Arc::new(Inner {
            scenario,
            store,
            resource_version: rv,
            log: Mutex::new(Vec::new()),
            expired: Mutex::new(HashSet::new()),
        });
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        std_listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", std_listener.local_addr().unwrap());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let state = inner.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
                let app = Router::new().fallback(handle).with_state(state);
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Replay {
            url,
            inner,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// Requests served so far.
    pub fn log(&self) -> Vec<String> {
        self.inner.log.lock().unwrap().clone()
    }

    /// A kubeconfig for this server (context `replay`), written to `path`.
    pub fn kubeconfig(&self, path: &std::path::Path) {
        self.kubeconfig_with_token(path, self.inner.scenario.token.clone().as_deref());
    }

    pub fn kubeconfig_with_token(&self, path: &std::path::Path, token: Option<&str>) {
        let user = match token {
            Some(t) => format!("    token: {t}\n"),
            None => "    username: anonymous\n".to_string(),
        };
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: replay\n  cluster:\n    server: {}\ncontexts:\n- name: replay\n  context:\n    cluster: replay\n    user: replay\n    namespace: default\ncurrent-context: replay\nusers:\n- name: replay\n  user:\n{user}",
            self.url
        );
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn json_response(code: StatusCode, v: &Value) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_string(v).unwrap(),
    )
        .into_response()
}

/// A metav1.Status failure, as the API server writes it.
fn status(code: u16, reason: &str, message: &str, details: Option<Value>) -> Response {
    let mut s = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    });
    if let Some(d) = details {
        s["details"] = d;
    }
    json_response(StatusCode::from_u16(code).unwrap(), &s)
}

fn not_found_path() -> Response {
    status(
        404,
        "NotFound",
        "the server could not find the requested resource",
        Some(json!({})),
    )
}

async fn handle(State(s): State<Arc<Inner>>, req: Request<Body>) -> Response {
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    s.log
        .lock()
        .unwrap()
        .push(format!("{} {path}?{query}", req.method()));
    if let Some(d) = s.scenario.delay {
        tokio::time::sleep(d).await;
    }
    let authorized = s.scenario.token.as_ref().is_none_or(|t| {
        req.headers()
            .get(header::AUTHORIZATION)
            .and_then(|h| h.to_str().ok())
            == Some(&format!("Bearer {t}"))
    });
    if !authorized {
        return status(401, "Unauthorized", "Unauthorized", None);
    }
    if req.method() != axum::http::Method::GET {
        return status(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource (this replay server is read-only)",
            Some(json!({})),
        );
    }
    let params: HashMap<String, String> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), percent_decode(v))
        })
        .collect();
    let token = params.get("continue").filter(|t| !t.is_empty()).cloned();
    if let Some(r) = s
        .scenario
        .raw
        .iter()
        .find(|r| r.path == path && r.continue_token == token)
    {
        return Response::builder()
            .status(r.status)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r.body.clone()))
            .expect("a response");
    }
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match parts.as_slice() {
        ["version"] => json_response(StatusCode::OK, &version(&s.scenario.git_version)),
        ["api"] => json_response(
            StatusCode::OK,
            &json!({
                "kind": "APIVersions",
                "versions": ["v1"],
                "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}],
            }),
        ),
        ["apis"] => json_response(StatusCode::OK, &api_groups()),
        ["api", "v1"] => json_response(StatusCode::OK, &resource_list("", "v1")),
        ["apis", group, version] => {
            if RESOURCES
                .iter()
                .any(|r| r.group == *group && r.version == *version)
            {
                json_response(StatusCode::OK, &resource_list(group, version))
            } else {
                not_found_path()
            }
        }
        ["api", "v1", rest @ ..] => serve(&s, "", "v1", rest, &params),
        ["apis", group, version, rest @ ..] => serve(&s, group, version, rest, &params),
        _ => not_found_path(),
    }
}

fn version(git: &str) -> Value {
    let v = git.trim_start_matches('v');
    let mut it = v.split('.');
    let major = it.next().unwrap_or("1");
    let minor = it.next().unwrap_or("0");
    json!({
        "major": major,
        "minor": minor,
        "emulationMajor": major,
        "emulationMinor": minor,
        "minCompatibilityMajor": major,
        "minCompatibilityMinor": "33",
        "gitVersion": git,
        "gitCommit": "0000000000000000000000000000000000000000",
        "gitTreeState": "clean",
        "buildDate": "2025-09-09T19:44:50Z",
        "goVersion": "go1.24.6",
        "compiler": "gc",
        "platform": "linux/amd64",
    })
}

fn api_groups() -> Value {
    let mut groups: BTreeMap<&str, &str> = BTreeMap::new();
    for r in RESOURCES.iter().filter(|r| !r.group.is_empty()) {
        groups.insert(r.group, r.version);
    }
    let groups: Vec<Value> = groups
        .into_iter()
        .map(|(g, v)| {
            let gv = json!({"groupVersion": format!("{g}/{v}"), "version": v});
            json!({"name": g, "versions": [gv.clone()], "preferredVersion": gv})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

fn resource_list(group: &str, version: &str) -> Value {
    let mut resources = Vec::new();
    for r in RESOURCES
        .iter()
        .filter(|r| r.group == group && r.version == version)
    {
        let mut e = json!({
            "name": r.plural,
            "singularName": r.singular,
            "namespaced": r.namespaced,
            "kind": r.kind,
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
        });
        if !r.short.is_empty() {
            e["shortNames"] = json!(r.short);
        }
        if matches!(
            r.kind,
            "Pod" | "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet" | "Job" | "CronJob"
        ) {
            e["categories"] = json!(["all"]);
        }
        resources.push(e);
        if !matches!(
            r.kind,
            "CSIDriver" | "StorageClass" | "PolicyReport" | "ClusterPolicyReport"
        ) {
            resources.push(json!({
                "name": format!("{}/status", r.plural),
                "singularName": "",
                "namespaced": r.namespaced,
                "kind": r.kind,
                "verbs": ["get", "patch", "update"],
            }));
        }
    }
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": if group.is_empty() { version.to_string() } else { format!("{group}/{version}") },
        "resources": resources,
    })
}

/// `<plural>`, `<plural>/<name>`, `namespaces/<ns>/<plural>`, `namespaces/<ns>/<plural>/<name>`.
fn serve(
    s: &Inner,
    group: &str,
    version: &str,
    rest: &[&str],
    params: &HashMap<String, String>,
) -> Response {
    let (ns, plural, name) = match rest {
        [plural] => (None, *plural, None),
        ["namespaces", ns, plural] => (Some(*ns), *plural, None),
        ["namespaces", ns, plural, name] => (Some(*ns), *plural, Some(*name)),
        [plural, name] => (None, *plural, Some(*name)),
        _ => return not_found_path(),
    };
    let Some(res) = RESOURCES
        .iter()
        .find(|r| r.group == group && r.version == version && r.plural == plural)
    else {
        return not_found_path();
    };
    if ns.is_some() && !res.namespaced {
        return not_found_path();
    }
    let gr = if group.is_empty() {
        plural.to_string()
    } else {
        format!("{plural}.{group}")
    };
    let verb = if name.is_some() { "get" } else { "list" };
    if s.scenario.forbidden.contains(plural) {
        let scope = match ns {
            Some(n) => format!("in the namespace \"{n}\""),
            None => "at the cluster scope".to_string(),
        };
        return status(
            403,
            "Forbidden",
            &format!("{gr} is forbidden: User \"system:serviceaccount:pvlint:pvlint\" cannot {verb} resource \"{plural}\" in API group \"{group}\" {scope}"),
            Some(json!({"group": group, "kind": plural})),
        );
    }
    if s.scenario.broken.contains(plural) {
        return status(
            500,
            "InternalError",
            "Internal error occurred: etcdserver: request timed out",
            Some(json!({"causes": [{"message": "etcdserver: request timed out"}]})),
        );
    }
    let empty = Vec::new();
    let all = s.store.get(plural).unwrap_or(&empty);
    let in_scope = |o: &&Stored| ns.is_none() || o.namespace.as_deref() == ns;
    if let Some(name) = name {
        return match all.iter().filter(in_scope).find(|o| o.name == name) {
            Some(o) => json_response(StatusCode::OK, &o.object),
            None => status(
                404,
                "NotFound",
                &format!("{gr} \"{name}\" not found"),
                Some(json!({"name": name, "group": group, "kind": plural})),
            ),
        };
    }
    let items: Vec<&Stored> = all.iter().filter(in_scope).filter(|o| o.listed).collect();
    // The etcd key below the list's own prefix: `/ns/name` across namespaces, `/name` within
    // one (as the real continue tokens show: tests/oracle/30 `"start":"/cache\u0000"`).
    let key = |o: &Stored| {
        if ns.is_some() {
            format!("/{}", o.name)
        } else {
            key(o)
        }
    };
    let rv = s.resource_version.to_string();
    let start = match params.get("continue").filter(|c| !c.is_empty()) {
        None => 0,
        Some(token) => {
            if s.scenario.expire_continue && s.expired.lock().unwrap().insert(plural.to_string()) {
                return status(
                    410,
                    "Expired",
                    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
                    None,
                );
            }
            match decode_continue(token) {
                Some(start_key) => items
                    .iter()
                    .position(|o| key(o) >= start_key)
                    .unwrap_or(items.len()),
                None => {
                    return status(
                        400,
                        "BadRequest",
                        "continue key is not valid: illegal base64 data",
                        None,
                    )
                }
            }
        }
    };
    let limit = params
        .get("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|l| *l > 0);
    let end = limit.map_or(items.len(), |l| (start + l).min(items.len()));
    let page: Vec<Value> = items[start..end]
        .iter()
        .map(|o| {
            let mut v = o.object.clone();
            // Items of a typed list carry no apiVersion/kind on the wire.
            if let Some(m) = v.as_object_mut() {
                m.remove("apiVersion");
                m.remove("kind");
            }
            v
        })
        .collect();
    let mut metadata = json!({"resourceVersion": rv});
    if end < items.len() {
        metadata["continue"] = json!(encode_continue(&rv, &key(items[end])));
        metadata["remainingItemCount"] = json!(items.len() - end);
    }
    json_response(
        StatusCode::OK,
        &json!({
            "kind": format!("{}List", res.kind),
            "apiVersion": group_version(res),
            "metadata": metadata,
            "items": page,
        }),
    )
}

fn key(o: &Stored) -> String {
    match &o.namespace {
        Some(ns) => format!("/{ns}/{}", o.name),
        None => format!("/{}", o.name),
    }
}

/// The API server's continue token: base64url (no padding) of
/// `{"v":"meta.k8s.io/v1","rv":RV,"start":"KEY\u0000"}`.
pub fn encode_continue(rv: &str, start: &str) -> String {
    let j = json!({"v": "meta.k8s.io/v1", "rv": rv.parse::<u64>().unwrap_or(0), "start": format!("{start}\u{0}")});
    b64(serde_json::to_string(&j).unwrap().as_bytes())
}

pub fn decode_continue(token: &str) -> Option<String> {
    let bytes = unb64(token)?;
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    if v["v"] != "meta.k8s.io/v1" {
        return None;
    }
    Some(v["start"].as_str()?.trim_end_matches('\u{0}').to_string())
}

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64(data: &[u8]) -> String {
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unb64(s: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in s.bytes() {
        let v = B64.iter().position(|&x| x == c)? as u32;
        bits = (bits << 6) | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
            bits &= (1 << n) - 1;
        }
    }
    Some(out)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
