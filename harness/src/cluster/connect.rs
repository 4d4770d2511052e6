//! Connecting to a cluster: the flags that say which one (`--kubeconfig`, `--context`,
//! `--timeout`), the kubeconfig (or the pod's service account), and the client.

use std::path::PathBuf;
use std::time::Duration;

#[cfg(feature = "cluster")]
use kube::config::{KubeConfigOptions, Kubeconfig};
#[cfg(feature = "cluster")]
use kube::{Client, Config};

#[cfg(feature = "cluster")]
use super::ScanError;

/// How to reach a cluster (shared by `cluster` and `lint --against-cluster`).
#[derive(clap::Args, Clone)]
pub struct ConnectArgs {
    /// The kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then the pod's service account).
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context (default: its current-context).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// Seconds to wait for each request to the API server.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
}

impl ConnectArgs {
    /// The cluster these flags name; `namespace`: None for all namespaces.
    pub fn target(&self, namespace: Option<String>) -> Target {
        Target {
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            namespace,
            timeout: Duration::from_secs(self.timeout.max(1)),
        }
    }
}

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

/// A client, and what error messages name: the context and the server.
#[cfg(feature = "cluster")]
pub struct Connection {
    pub client: Client,
    /// The kubeconfig context's name (`in-cluster` for the service account).
    pub context: String,
    /// The server's URL.
    pub server: String,
}

/// Connects to the target: reads its kubeconfig and makes the client (no request yet).
#[cfg(feature = "cluster")]
pub async fn connect(t: &Target) -> Result<Connection, ScanError> {
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
                        return Ok(Connection {
                            server: c.cluster_url.to_string(),
                            client: client(c, t)?,
                            context: "in-cluster".into(),
                        });
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
    Ok(Connection {
        server: config.cluster_url.to_string(),
        client: client(config, t)?,
        context,
    })
}

#[cfg(feature = "cluster")]
fn client(mut config: Config, t: &Target) -> Result<Client, ScanError> {
    config.connect_timeout = Some(t.timeout);
    config.read_timeout = Some(t.timeout);
    config.write_timeout = Some(t.timeout);
    Client::try_from(config)
        .map_err(|e| ScanError(format!("cannot create a client: {}", one_line(&e))))
}

/// An error's chain of causes on one line.
#[cfg(feature = "cluster")]
pub(super) fn one_line(e: &dyn std::error::Error) -> String {
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
