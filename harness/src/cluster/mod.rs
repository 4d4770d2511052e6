//! Reading a live cluster: `pvlint cluster` and `pvlint lint --against-cluster`.
//!
//! With the user's kubeconfig (kube-rs), every kind the analysis needs is listed concurrently,
//! page by page (`limit`/`continue`, 500 a page; an expired continue token falls back to one
//! full list, as client-go's pager does), plus the server's version. Read-only: get and list,
//! never Secrets. The state becomes one YAML `kind: List` (what `--save` writes), which the
//! lint core reads as the cluster state: the same text gives the same findings offline.

pub mod command;
mod state;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Node, PersistentVolume, PersistentVolumeClaim, Pod};
use k8s_openapi::api::storage::v1::{CSIDriver, StorageClass, VolumeAttachment};
use kube::api::{Api, ListParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use pvlint_core::KubeVersion;
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use state::{header_version, render_state};

/// Objects per page (`limit`), as `kubectl get --chunk-size` defaults to.
pub const PAGE: u32 = 500;

/// Which cluster, and how.
#[derive(Debug, Clone, Default)]
pub struct Target {
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    /// None: all namespaces.
    pub namespace: Option<String>,
    /// For each request.
    pub timeout: Duration,
}

/// What was read.
#[derive(Debug)]
pub struct Scan {
    pub context: String,
    pub server: String,
    /// The server's gitVersion (`v1.34.1`).
    pub git_version: String,
    pub version: KubeVersion,
    pub namespace: Option<String>,
    /// Each kind's objects, in the order of [`KINDS`].
    pub objects: Vec<(&'static str, Vec<serde_json::Value>)>,
    /// One line each: an optional kind that could not be read.
    pub warnings: Vec<String>,
}

impl Scan {
    pub fn count(&self) -> usize {
        self.objects.iter().map(|(_, v)| v.len()).sum()
    }

    /// "context kind-dev (https://127.0.0.1:6443), Kubernetes v1.34.1".
    pub fn describe(&self) -> String {
        let scope = match &self.namespace {
            Some(ns) => format!(", namespace {ns}"),
            None => String::new(),
        };
        format!(
            "context {} ({}), Kubernetes {}{scope}",
            self.context, self.server, self.git_version
        )
    }
}

/// The resources pvlint reads, as `resource.group` (what RBAC names), whether they are
/// namespaced, and whether pvlint can do without them (a warning instead of an error).
pub const KINDS: &[(&str, bool, bool)] = &[
    ("persistentvolumes", false, false),
    ("persistentvolumeclaims", true, false),
    ("storageclasses.storage.k8s.io", false, false),
    ("csidrivers.storage.k8s.io", false, false),
    ("volumeattachments.storage.k8s.io", false, true),
    ("pods", true, false),
    ("deployments.apps", true, false),
    ("statefulsets.apps", true, false),
    ("daemonsets.apps", true, false),
    ("replicasets.apps", true, false),
    ("jobs.batch", true, false),
    ("cronjobs.batch", true, false),
    ("nodes", false, true),
    ("events", true, true),
];

/// What a rule loses when an optional kind cannot be read.
fn degraded(resource: &str) -> &'static str {
    match resource {
        "volumeattachments.storage.k8s.io" => "stale-volume-attachment is skipped",
        "nodes" => "stale-volume-attachment cannot say whether the old node is Ready or still has the volume mounted",
        "events" => "findings show what pvlint predicts, not the events the cluster recorded",
        _ => "",
    }
}

/// Why a scan failed: one line for the user (exit code 2).
#[derive(Debug)]
pub struct ScanError(pub String);

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The client for a target, and the context's name and server URL.
pub async fn connect(t: &Target) -> Result<(Client, String, String), ScanError> {
    let kubeconfig = match &t.kubeconfig {
        Some(p) => Kubeconfig::read_from(p).map_err(|e| {
            ScanError(format!(
                "cannot read kubeconfig {}: {}",
                p.display(),
                one_line(&e)
            ))
        })?,
        None => match Kubeconfig::read() {
            Ok(k) => k,
            Err(e) => {
                // In a pod: the service account.
                if t.context.is_none() {
                    if let Ok(c) = Config::incluster() {
                        let server = c.cluster_url.to_string();
                        let client = client(c, t)?;
                        return Ok((client, "in-cluster".into(), server));
                    }
                }
                let default =
                    std::env::var("KUBECONFIG").unwrap_or_else(|_| "~/.kube/config".into());
                return Err(ScanError(format!(
                    "no kubeconfig: cannot read {default} ({}); pass --kubeconfig FILE or set KUBECONFIG",
                    one_line(&e)
                )));
            }
        },
    };
    let context = t
        .context
        .clone()
        .or_else(|| kubeconfig.current_context.clone())
        .unwrap_or_default();
    if let Some(c) = &t.context {
        if !kubeconfig.contexts.iter().any(|n| &n.name == c) {
            let known: Vec<&str> = kubeconfig
                .contexts
                .iter()
                .map(|n| n.name.as_str())
                .collect();
            return Err(ScanError(format!(
                "no context \"{c}\" in the kubeconfig (it has: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    let opts = KubeConfigOptions {
        context: t.context.clone(),
        ..Default::default()
    };
    let config = Config::from_custom_kubeconfig(kubeconfig, &opts)
        .await
        .map_err(|e| {
            ScanError(format!(
                "kubeconfig context \"{context}\": {}",
                one_line(&e)
            ))
        })?;
    let server = config.cluster_url.to_string();
    Ok((client(config, t)?, context, server))
}

fn client(mut config: Config, t: &Target) -> Result<Client, ScanError> {
    config.connect_timeout = Some(t.timeout);
    config.read_timeout = Some(t.timeout);
    config.write_timeout = Some(t.timeout);
    Client::try_from(config)
        .map_err(|e| ScanError(format!("cannot create a client: {}", one_line(&e))))
}

/// An error's chain of causes on one line.
fn one_line(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        src = c.source();
    }
    s.replace('\n', " ")
}

/// Progress of a scan: objects read so far, kinds finished.
#[derive(Debug, Default)]
pub struct Progress {
    pub objects: AtomicUsize,
    pub kinds: AtomicUsize,
}

/// Reads the cluster.
pub async fn scan(t: &Target, progress: Arc<Progress>) -> Result<Scan, ScanError> {
    let (client, context, server) = connect(t).await?;
    let version = {
        let c = client.clone();
        let v = tokio::time::timeout(t.timeout, c.apiserver_version());
        match v.await {
            Err(_) => return Err(timeout_error(&server, t.timeout, "/version")),
            Ok(Err(e)) => {
                return Err(request_error(
                    e,
                    &server,
                    &context,
                    t.timeout,
                    "the server version (/version)",
                ))
            }
            Ok(Ok(info)) => info,
        }
    };
    let kube_version: KubeVersion = version.git_version.parse().map_err(|e: String| {
        ScanError(format!(
            "the server at {server} reports version \"{}\": {e}",
            version.git_version
        ))
    })?;
    let ns = t.namespace.as_deref();
    // `before`: a signal the list waits for before it starts; `after`: one it gives when done.
    macro_rules! list {
        ($ty:ty, $idx:expr, $api:expr) => {
            list!($ty, $idx, $api, before: None, after: None)
        };
        ($ty:ty, $idx:expr, $api:expr, before: $before:expr, after: $after:expr) => {{
            let client = client.clone();
            let progress = progress.clone();
            let timeout = t.timeout;
            let ns = ns.map(String::from);
            let before: Option<futures::channel::oneshot::Receiver<()>> = $before;
            let after: Option<futures::channel::oneshot::Sender<()>> = $after;
            tokio::spawn(async move {
                if let Some(b) = before {
                    let _ = b.await;
                }
                let make: fn(Client, Option<&str>) -> Api<$ty> = $api;
                let api = make(client, ns.as_deref());
                let r = list_all(&api, timeout, &progress).await;
                progress.kinds.fetch_add(1, Ordering::Relaxed);
                if let Some(a) = after {
                    let _ = a.send(());
                }
                r
            })
        }};
    }
    fn all<K: kube::Resource<Scope = k8s_openapi::ClusterResourceScope>>(
        c: Client,
        _: Option<&str>,
    ) -> Api<K>
    where
        K::DynamicType: Default,
    {
        Api::all(c)
    }
    fn in_ns<K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>>(
        c: Client,
        ns: Option<&str>,
    ) -> Api<K>
    where
        K::DynamicType: Default,
    {
        match ns {
            Some(ns) => Api::namespaced(c, ns),
            None => Api::all(c),
        }
    }
    // Claims are listed before volumes, not beside them: each list is its own moment, and a
    // claim bound (or a volume provisioned) between two concurrent lists would read as a claim
    // whose volume is missing (Lost). Read in this order, anything that happens in between
    // shows a state the controller is about to reach anyway (a volume whose claimRef names a
    // claim still Pending), never a missing volume. The PV controller re-reads the claim before
    // releasing a volume for the same reason (syncVolume).
    let (claims_listed, after_claims) = futures::channel::oneshot::channel();
    let handles = vec![
        list!(PersistentVolume, 0, all, before: Some(after_claims), after: None),
        list!(PersistentVolumeClaim, 1, in_ns, before: None, after: Some(claims_listed)),
        list!(StorageClass, 2, all),
        list!(CSIDriver, 3, all),
        list!(VolumeAttachment, 4, all),
        list!(Pod, 5, in_ns),
        list!(Deployment, 6, in_ns),
        list!(StatefulSet, 7, in_ns),
        list!(DaemonSet, 8, in_ns),
        list!(ReplicaSet, 9, in_ns),
        list!(Job, 10, in_ns),
        list!(CronJob, 11, in_ns),
        list!(Node, 12, all),
        list!(Event, 13, in_ns),
    ];
    let mut objects = Vec::new();
    let mut warnings = Vec::new();
    let mut first_error = None;
    for (i, h) in handles.into_iter().enumerate() {
        let (resource, _, optional) = KINDS[i];
        let r = h
            .await
            .map_err(|e| ScanError(format!("listing {resource}: {e}")))?;
        match r {
            // Only events about claims and volumes are kept (and saved with --save).
            Ok(mut items) if resource == "events" => {
                items.retain(|e| {
                    matches!(
                        e.pointer("/involvedObject/kind")
                            .and_then(serde_json::Value::as_str),
                        Some("PersistentVolumeClaim" | "PersistentVolume")
                    )
                });
                objects.push((resource, items));
            }
            Ok(items) => objects.push((resource, items)),
            Err(Failure::Timeout) => {
                first_error.get_or_insert_with(|| timeout_error(&server, t.timeout, resource));
            }
            Err(Failure::Kube(e)) => {
                let forbidden = matches!(&e, kube::Error::Api(s) if s.code == 403);
                let missing = matches!(&e, kube::Error::Api(s) if s.code == 404);
                if optional && (forbidden || missing) {
                    let what = if forbidden {
                        format!("cannot list {resource} (forbidden: the ClusterRole in harness/deploy/pvlint-clusterrole.yaml grants list on it)")
                    } else {
                        format!("the server does not serve {resource}")
                    };
                    warnings.push(format!("{what}; {}", degraded(resource)));
                    objects.push((resource, Vec::new()));
                } else {
                    first_error.get_or_insert_with(|| {
                        request_error(e, &server, &context, t.timeout, resource)
                    });
                }
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    recheck_claims(&client, &mut objects, t.namespace.as_deref(), t.timeout).await;
    let mut scan = Scan {
        context,
        server,
        git_version: version.git_version,
        version: kube_version,
        namespace: t.namespace.clone(),
        objects,
        warnings,
    };
    if let Some(ns) = &t.namespace {
        state::keep_namespace(&mut scan, ns);
    }
    Ok(scan)
}

/// Most claims read again one by one after the lists (each a GET).
const MAX_RECHECKS: usize = 500;

/// A volume whose claimRef names a claim the claim list did not show: the claim may have been
/// created (and the volume provisioned for it) after claims were listed. Each such claim is
/// read once more, as syncVolume re-reads a claim from the API server before it releases a
/// volume ("to make sure we will not reclaim a PV wrongly"); one that exists joins the state.
/// With `-n NAMESPACE`, claims elsewhere were not listed on purpose and are not read.
async fn recheck_claims(
    client: &Client,
    objects: &mut [(&'static str, Vec<serde_json::Value>)],
    scope: Option<&str>,
    timeout: Duration,
) {
    let str_at = |v: &serde_json::Value, path: &[&str]| -> Option<String> {
        path.iter()
            .try_fold(v, |v, k| v.get(k))
            .and_then(|v| v.as_str())
            .map(String::from)
    };
    let Some(pvcs) = objects
        .iter()
        .position(|(r, _)| *r == "persistentvolumeclaims")
    else {
        return;
    };
    let listed: std::collections::HashSet<(String, String)> = objects[pvcs]
        .1
        .iter()
        .filter_map(|c| {
            Some((
                str_at(c, &["metadata", "namespace"])?,
                str_at(c, &["metadata", "name"])?,
            ))
        })
        .collect();
    let mut missing: Vec<(String, String)> = objects
        .iter()
        .filter(|(r, _)| *r == "persistentvolumes")
        .flat_map(|(_, pvs)| pvs)
        .filter_map(|pv| {
            Some((
                str_at(pv, &["spec", "claimRef", "namespace"])?,
                str_at(pv, &["spec", "claimRef", "name"])?,
            ))
        })
        .filter(|k| !listed.contains(k) && scope.is_none_or(|ns| ns == k.0))
        .collect();
    missing.sort();
    missing.dedup();
    let mut found = Vec::new();
    for (ns, name) in missing.into_iter().take(MAX_RECHECKS) {
        let api: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), &ns);
        if let Ok(Ok(Some(c))) = tokio::time::timeout(timeout, api.get_opt(&name)).await {
            if let Ok(mut v) = serde_json::to_value(&c) {
                if let Some(m) = v.as_object_mut() {
                    m.insert("apiVersion".into(), "v1".into());
                    m.insert("kind".into(), "PersistentVolumeClaim".into());
                }
                found.push(v);
            }
        }
    }
    objects[pvcs].1.extend(found);
}

enum Failure {
    Kube(kube::Error),
    Timeout,
}

async fn list_all<K>(
    api: &Api<K>,
    timeout: Duration,
    progress: &Progress,
) -> Result<Vec<serde_json::Value>, Failure>
where
    K: kube::Resource + Clone + DeserializeOwned + Serialize + std::fmt::Debug,
{
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut lp = ListParams::default().limit(PAGE);
        if let Some(t) = &token {
            lp = lp.continue_token(t);
        }
        let page = match tokio::time::timeout(timeout, api.list(&lp)).await {
            Err(_) => return Err(Failure::Timeout),
            Ok(Ok(p)) => p,
            // 410 Gone (reason Expired): the continue token is too old. client-go's pager
            // (FullListIfExpired) then lists everything in one request; so does pvlint.
            Ok(Err(kube::Error::Api(s))) if s.code == 410 && token.is_some() => {
                out.clear();
                let all = tokio::time::timeout(timeout, api.list(&ListParams::default()))
                    .await
                    .map_err(|_| Failure::Timeout)?
                    .map_err(Failure::Kube)?;
                for item in all.items {
                    out.push(to_value(&item));
                }
                progress.objects.fetch_add(out.len(), Ordering::Relaxed);
                return Ok(out);
            }
            Ok(Err(e)) => return Err(Failure::Kube(e)),
        };
        progress
            .objects
            .fetch_add(page.items.len(), Ordering::Relaxed);
        for item in &page.items {
            out.push(to_value(item));
        }
        match page.metadata.continue_ {
            Some(t) if !t.is_empty() => token = Some(t),
            _ => break,
        }
    }
    Ok(out)
}

/// An object as JSON (k8s-openapi writes apiVersion and kind), without managedFields (bulky,
/// never read).
fn to_value<K: Serialize>(item: &K) -> serde_json::Value {
    let mut v = serde_json::to_value(item).unwrap_or(serde_json::Value::Null);
    if let Some(m) = v.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        m.remove("managedFields");
    }
    v
}

fn timeout_error(server: &str, timeout: Duration, what: &str) -> ScanError {
    ScanError(format!(
        "timed out after {}s waiting for the API server at {server} ({what}); check the network, or raise --timeout",
        timeout.as_secs_f64()
    ))
}

fn request_error(
    e: kube::Error,
    server: &str,
    context: &str,
    timeout: Duration,
    what: &str,
) -> ScanError {
    match e {
        kube::Error::Api(s) => match s.code {
            401 => ScanError(format!(
                "the API server at {server} rejected the credentials of context \"{context}\" (401 Unauthorized): log in again or fix the user in the kubeconfig"
            )),
            403 => ScanError(format!(
                "forbidden (403): {}; pvlint needs get and list on {what}: bind the ClusterRole in harness/deploy/pvlint-clusterrole.yaml",
                s.message
            )),
            code => ScanError(format!(
                "the API server at {server} answered {code} {} reading {what}: {}",
                s.reason, s.message
            )),
        },
        other => {
            let text = one_line(&other);
            if text.contains("timed out") || text.contains("deadline") || text.contains("Elapsed") {
                timeout_error(server, timeout, what)
            } else {
                ScanError(format!(
                    "cannot reach the API server at {server} (context \"{context}\"): {text}"
                ))
            }
        }
    }
}
