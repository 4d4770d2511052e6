//! A scan: the server's version, then every resource of [`RESOURCES`] listed concurrently
//! (each after the one it waits for), assembled into a [`Scan`]; errors as one line each.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::channel::oneshot;
use k8s_openapi::api::core::v1::PersistentVolumeClaim;
use kube::api::Api;
use kube::Client;
use pvlint_core::KubeVersion;
use serde_json::Value;
use tokio::task::JoinHandle;

use super::connect::{connect, one_line, Connection, Target};
use super::pager::{Failure, Pager};
use super::resources::{self, Need, RESOURCES};
use super::{state, Progress, Scan, ScanError};

/// Reads the cluster.
pub async fn scan(t: &Target, progress: Arc<Progress>) -> Result<Scan, ScanError> {
    let Connection {
        client,
        context,
        server,
    } = connect(t).await?;
    let version = {
        let v = tokio::time::timeout(t.timeout, client.apiserver_version());
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
    let lists = spawn_lists(&Pager {
        client: client.clone(),
        namespace: t.namespace.clone(),
        timeout: t.timeout,
        progress,
    });
    let mut objects = Vec::new();
    let mut warnings = Vec::new();
    let mut first_error = None;
    for (resource, list) in RESOURCES.iter().zip(lists) {
        let name = resource.name;
        let listed = list
            .await
            .map_err(|e| ScanError(format!("listing {name}: {e}")))?;
        match listed {
            Ok(mut items) => {
                if let Some(keep) = resource.keep {
                    items.retain(keep);
                }
                objects.push((name, items));
            }
            Err(Failure::Timeout) => {
                first_error.get_or_insert_with(|| timeout_error(&server, t.timeout, name));
            }
            Err(Failure::Kube(e)) => {
                let forbidden = matches!(&e, kube::Error::Api(s) if s.code == 403);
                let missing = matches!(&e, kube::Error::Api(s) if s.code == 404);
                match resource.need {
                    Need::Optional { without } if forbidden || missing => {
                        let what = if forbidden {
                            format!("cannot list {name} (forbidden: the ClusterRole in harness/deploy/pvlint-clusterrole.yaml grants list on it)")
                        } else {
                            format!("the server does not serve {name}")
                        };
                        warnings.push(format!("{what}; {without}"));
                        objects.push((name, Vec::new()));
                    }
                    _ => {
                        first_error.get_or_insert_with(|| {
                            request_error(e, &server, &context, t.timeout, name)
                        });
                    }
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

/// One task per resource, in the order of [`RESOURCES`]; a resource listed after another
/// starts when that one's list has finished.
fn spawn_lists(pager: &Pager) -> Vec<JoinHandle<Result<Vec<Value>, Failure>>> {
    let mut waits: Vec<Option<oneshot::Receiver<()>>> = RESOURCES.iter().map(|_| None).collect();
    let mut signals: Vec<Vec<oneshot::Sender<()>>> = RESOURCES.iter().map(|_| Vec::new()).collect();
    for (i, r) in RESOURCES.iter().enumerate() {
        if let Some((first, _)) = r.after.and_then(resources::find) {
            let (done, wait) = oneshot::channel();
            signals[first].push(done);
            waits[i] = Some(wait);
        }
    }
    RESOURCES
        .iter()
        .zip(waits)
        .zip(signals)
        .map(|((r, wait), done)| {
            let pager = pager.clone();
            tokio::spawn(async move {
                if let Some(w) = wait {
                    let _ = w.await;
                }
                let listed = (r.list)(pager.clone()).await;
                pager.progress.kinds.fetch_add(1, Ordering::Relaxed);
                for d in done {
                    let _ = d.send(());
                }
                listed
            })
        })
        .collect()
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
    objects: &mut [(&'static str, Vec<Value>)],
    scope: Option<&str>,
    timeout: Duration,
) {
    let str_at = |v: &Value, path: &[&str]| -> Option<String> {
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
    let listed: HashSet<(String, String)> = objects[pvcs]
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
