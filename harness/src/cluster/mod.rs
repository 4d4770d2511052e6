//! Reading a live cluster: `pvlint cluster` and `pvlint lint --against-cluster`.
//!
//! Layered as kube-runtime's watcher is: `connect` (the kubeconfig, the client), `pager`
//! (one resource, page by page: `limit`/`continue`, 500 a page; an expired continue token
//! falls back to one full list, as client-go's pager does), `scan` (the server's version and
//! every resource of the table in `resources`, listed concurrently). Read-only: get and list,
//! never Secrets. `state` writes the scan as one YAML `kind: List` (what `--save` writes),
//! which the lint core reads as the cluster state: the same text gives the same findings
//! offline.

mod connect;
#[cfg(feature = "cluster")]
mod pager;
#[cfg(feature = "cluster")]
mod resources;
#[cfg(feature = "cluster")]
mod scan;
mod state;

#[cfg(feature = "cluster")]
use std::io::{IsTerminal, Write};
#[cfg(feature = "cluster")]
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(feature = "cluster")]
use std::sync::Arc;
#[cfg(feature = "cluster")]
use std::time::Duration;

use pvlint_core::KubeVersion;

#[cfg(feature = "cluster")]
pub use connect::{connect, Connection};
pub use connect::{ConnectArgs, Target};
#[cfg(feature = "cluster")]
pub use pager::PAGE;
#[cfg(feature = "cluster")]
pub use resources::{Need, Resource, RESOURCES};
#[cfg(feature = "cluster")]
pub use scan::scan;
pub use state::{header_version, render_state};

/// What was read.
#[derive(Debug)]
pub struct Scan {
    pub context: String,
    pub server: String,
    /// The server's gitVersion (`v1.34.1`).
    pub git_version: String,
    pub version: KubeVersion,
    pub namespace: Option<String>,
    /// Each resource's objects, in the order of [`RESOURCES`].
    pub objects: Vec<(&'static str, Vec<serde_json::Value>)>,
    /// One line each: an optional resource that could not be read.
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

/// Why a scan failed: one line for the user (exit code 2).
#[derive(Debug)]
pub struct ScanError(pub String);

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Progress of a scan: objects read so far, resources finished.
#[cfg(feature = "cluster")]
#[derive(Debug, Default)]
pub struct Progress {
    pub objects: AtomicUsize,
    pub kinds: AtomicUsize,
}

/// Reads a live cluster, with a progress line on stderr when it is a terminal.
#[cfg(feature = "cluster")]
pub fn read_live(connect: &ConnectArgs, namespace: Option<String>) -> Result<Scan, String> {
    let target = connect.target(namespace);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let progress = Arc::new(Progress::default());
    let tty = std::io::stderr().is_terminal();
    rt.block_on(async {
        let ticker = tty.then(|| {
            let p = progress.clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(150)).await;
                    eprint!(
                        "\rpvlint: reading the cluster: {} objects, {}/{} kinds ",
                        p.objects.load(Ordering::Relaxed),
                        p.kinds.load(Ordering::Relaxed),
                        RESOURCES.len()
                    );
                    let _ = std::io::stderr().flush();
                }
            })
        });
        let r = scan(&target, progress.clone()).await;
        if let Some(t) = ticker {
            t.abort();
            eprint!("\r\x1b[2K");
        }
        r.map_err(|e| e.to_string())
    })
}

/// Without the `cluster` feature (`cargo install --no-default-features`): no Kubernetes client
/// is built in, and a live cluster cannot be read.
#[cfg(not(feature = "cluster"))]
pub fn read_live(_connect: &ConnectArgs, _namespace: Option<String>) -> Result<Scan, String> {
    Err(NOT_BUILT.into())
}

/// What a build without the `cluster` feature says when asked to read a live cluster.
pub const NOT_BUILT: &str = "this pvlint was built without the `cluster` feature, so it cannot read a live cluster: install it with default features (cargo install pvlint), or save the cluster's state (kubectl get pv,pvc,storageclass,csidriver -A -o yaml > state.yaml) and pass --cluster-state state.yaml";
