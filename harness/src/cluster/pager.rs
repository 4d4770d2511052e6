//! Listing one resource page by page, as client-go's pager does: `limit`/`continue`, and one
//! full list when the continue token has expired.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use kube::api::{Api, ListParams};
use kube::Client;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::Progress;

/// Objects per page (`limit`), as `kubectl get --chunk-size` defaults to.
pub const PAGE: u32 = 500;

/// What every list of a scan shares.
#[derive(Clone)]
pub struct Pager {
    pub client: Client,
    /// None: all namespaces.
    pub namespace: Option<String>,
    /// For each request.
    pub timeout: Duration,
    pub progress: Arc<Progress>,
}

/// Why a list failed.
pub enum Failure {
    Kube(kube::Error),
    Timeout,
}

impl Pager {
    /// Every object `api` lists, as JSON.
    pub async fn list<K>(&self, api: &Api<K>) -> Result<Vec<Value>, Failure>
    where
        K: kube::Resource + Clone + DeserializeOwned + Serialize + std::fmt::Debug,
    {
        let progress = &self.progress;
        let timeout = self.timeout;
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
}

/// An object as JSON (k8s-openapi writes apiVersion and kind), without managedFields (bulky,
/// never read).
pub fn to_value<K: Serialize>(item: &K) -> Value {
    let mut v = serde_json::to_value(item).unwrap_or(Value::Null);
    if let Some(m) = v.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        m.remove("managedFields");
    }
    v
}
