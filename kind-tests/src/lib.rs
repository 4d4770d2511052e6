//! Helpers for the kind end-to-end suite: a kind cluster that deletes itself (and exports its
//! logs when a test fails), kubectl against it, polling with deadlines, the NFS provisioner,
//! and pvlint's predictions (`lint`, `simulate`, and `pvlint cluster` on the live state).
//!
//! Opt-in: `PVLINT_KIND=1 cargo test -p pvlint-kind-tests -- --nocapture`, or
//! `cargo test -p pvlint-kind-tests -- --ignored --nocapture`. Needs docker (running), kind
//! and kubectl on PATH. See README.md.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pvlint_core::{api, Operation, Options, Report, Request, Simulation, Source};

/// Every cluster of this suite has a name with this prefix: leftovers of killed runs are
/// swept by it.
pub const CLUSTER_PREFIX: &str = "pvlint-e2e-";

/// csi-driver-nfs, pinned: its deploy manifests at this tag (as its install-driver.sh applies
/// them, without the snapshot controller the suite does not use).
pub const CSI_DRIVER_NFS: &str = "v4.13.4";

/// Writes to stderr past the test harness's capture (it takes only the print macros), so a
/// skipped check is seen under a plain `cargo test`.
macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// The suite runs when asked for: `PVLINT_KIND=1`.
pub fn opted_in() -> bool {
    std::env::var("PVLINT_KIND").is_ok_and(|v| v == "1")
}

/// The loud line a skipped test prints.
pub fn skipped(test: &str) {
    loud!(
        "\n################################################################################\n\
         ## SKIPPED kind end-to-end test `{test}`: it creates a real kind cluster.\n\
         ## Run it where docker, kind and kubectl are available:\n\
         ##   PVLINT_KIND=1 cargo test -p pvlint-kind-tests -- --nocapture\n\
         ## (or: cargo test -p pvlint-kind-tests -- --ignored --nocapture)\n\
         ################################################################################\n"
    );
}

/// Why the suite cannot run here, if it cannot.
pub fn missing_prerequisites() -> Option<String> {
    let works = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let missing: Vec<&str> = [
        ("docker", &["--version"][..]),
        ("kind", &["version"][..]),
        ("kubectl", &["version", "--client"][..]),
    ]
    .into_iter()
    .filter(|(t, a)| !works(t, a))
    .map(|(t, _)| t)
    .collect();
    if !missing.is_empty() {
        return Some(format!("{} not found on PATH", missing.join(", ")));
    }
    if !works("docker", &["info"]) {
        return Some("the Docker engine is not running (`docker info` fails)".into());
    }
    None
}

pub fn manifest(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("manifests")
        .join(name)
}

/// Runs a command; returns stdout, or an error with everything it printed.
pub fn sh(cmd: &str, args: &[&str], stdin: Option<&str>) -> Result<String, String> {
    let mut c = Command::new(cmd);
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    if stdin.is_some() {
        c.stdin(Stdio::piped());
    }
    let mut child = c.spawn().map_err(|e| format!("{cmd}: {e}"))?;
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(input.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "{cmd} {}: {}\n{stdout}{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A kind cluster, deleted on drop, on success and on failure. When the test panics, its
/// logs go to `target/kind-logs/<name>` first (`kind export logs`). Clusters left behind by
/// killed runs (Drop does not run on SIGKILL) are swept by name prefix when a new one is
/// created. `PVLINT_KIND_KEEP=1` keeps the cluster for debugging.
pub struct Cluster {
    pub name: String,
    pub kubeconfig: PathBuf,
    pub started: Instant,
}

impl Cluster {
    pub fn create() -> Result<Cluster, String> {
        if let Ok(list) = sh("kind", &["get", "clusters"], None) {
            for old in list.lines().filter(|l| l.starts_with(CLUSTER_PREFIX)) {
                eprintln!("kind-tests: deleting leftover cluster {old}");
                let _ = sh("kind", &["delete", "cluster", "--name", old], None);
            }
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let name = format!("{CLUSTER_PREFIX}{}-{stamp}", std::process::id());
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("kind-config.yaml");
        let kubeconfig = std::env::temp_dir().join(format!("{name}.kubeconfig"));
        let cluster = Cluster {
            name: name.clone(),
            kubeconfig: kubeconfig.clone(),
            started: Instant::now(),
        };
        eprintln!("kind-tests: creating cluster {name} (3 nodes)");
        sh(
            "kind",
            &[
                "create",
                "cluster",
                "--name",
                &name,
                "--config",
                config.to_str().unwrap(),
                "--kubeconfig",
                kubeconfig.to_str().unwrap(),
                "--wait",
                "5m",
            ],
            None,
        )?;
        Ok(cluster)
    }

    pub fn kubectl(&self, args: &[&str]) -> Result<String, String> {
        let mut full = vec!["--kubeconfig", self.kubeconfig.to_str().unwrap()];
        full.extend_from_slice(args);
        sh("kubectl", &full, None)
    }

    pub fn kubectl_stdin(&self, args: &[&str], input: &str) -> Result<String, String> {
        let mut full = vec!["--kubeconfig", self.kubeconfig.to_str().unwrap()];
        full.extend_from_slice(args);
        sh("kubectl", &full, Some(input))
    }

    pub fn apply(&self, file: &Path) -> Result<String, String> {
        self.kubectl(&["apply", "-f", file.to_str().unwrap()])
    }

    /// `kubectl get -o jsonpath` of one object ("" when it does not exist).
    pub fn jsonpath(&self, what: &[&str], path: &str) -> String {
        let jp = format!("jsonpath={path}");
        let mut args = vec!["get"];
        args.extend_from_slice(what);
        args.extend_from_slice(&["-o", &jp]);
        self.kubectl(&args).unwrap_or_default()
    }

    /// "Type Reason Message" lines of the events about an object.
    pub fn events_for(&self, namespace: &str, name: &str) -> String {
        self.kubectl(&[
            "get",
            "events",
            "-n",
            namespace,
            "--field-selector",
            &format!("involvedObject.name={name}"),
            "-o",
            "custom-columns=TYPE:.type,REASON:.reason,MESSAGE:.message",
            "--no-headers",
        ])
        .unwrap_or_default()
    }

    /// Waits for `kubectl rollout status` of a workload.
    pub fn rollout(&self, namespace: &str, what: &str, timeout: &str) -> Result<String, String> {
        self.kubectl(&[
            "rollout",
            "status",
            "-n",
            namespace,
            what,
            &format!("--timeout={timeout}"),
        ])
    }

    /// The live state as `pvlint cluster` reads it (kube-rs, the kubeconfig of this cluster).
    pub fn scan(&self) -> pvlint::cluster::Scan {
        let connect = pvlint::cluster::ConnectArgs {
            kubeconfig: Some(self.kubeconfig.clone()),
            context: None,
            timeout: 30,
        };
        pvlint::cluster::read_live(&connect, None).expect("pvlint reads the live cluster")
    }

    /// `pvlint cluster`: the audit of the live state.
    pub fn audit(&self) -> Report {
        let scan = self.scan();
        api::lint(&Request {
            cluster: vec![Source::new("live", pvlint::cluster::render_state(&scan))],
            options: Options {
                kube_version: scan.version,
                ..Options::default()
            },
            audit: true,
            ..Request::default()
        })
    }

    /// `pvlint lint --against-cluster FILE`: the manifests applied onto the live state.
    pub fn lint_against(&self, file: &Path) -> Report {
        api::lint(&self.request_against(file, Vec::new()))
    }

    /// `pvlint simulate --cluster-state <live> FILE --then ...`.
    pub fn simulate_against(&self, file: &Path, operations: Vec<Operation>) -> Simulation {
        api::simulate(&self.request_against(file, operations)).expect("simulate")
    }

    fn request_against(&self, file: &Path, operations: Vec<Operation>) -> Request {
        let scan = self.scan();
        Request {
            sources: vec![source(file)],
            cluster: vec![Source::new("live", pvlint::cluster::render_state(&scan))],
            options: Options {
                kube_version: scan.version,
                ..Options::default()
            },
            operations,
            ..Request::default()
        }
    }

    /// csi-driver-nfs (pinned), the in-cluster NFS server and the suite's StorageClasses.
    pub fn install_nfs(&self) -> Result<(), String> {
        for file in [
            "rbac-csi-nfs.yaml",
            "csi-nfs-driverinfo.yaml",
            "csi-nfs-controller.yaml",
            "csi-nfs-node.yaml",
        ] {
            let url = format!(
                "https://raw.githubusercontent.com/kubernetes-csi/csi-driver-nfs/{v}/deploy/{v}/{file}",
                v = CSI_DRIVER_NFS
            );
            self.kubectl(&["apply", "-f", &url])?;
        }
        self.apply(&manifest("nfs-server.yaml"))?;
        self.rollout("kube-system", "deployment/csi-nfs-controller", "240s")?;
        self.rollout("kube-system", "daemonset/csi-nfs-node", "240s")?;
        self.rollout("default", "deployment/nfs-server", "240s")?;
        self.apply(&manifest("storageclasses.yaml"))?;
        Ok(())
    }

    /// The directories at the root of the NFS export.
    pub fn export_dirs(&self) -> Vec<String> {
        self.kubectl(&[
            "exec",
            "-n",
            "default",
            "deploy/nfs-server",
            "--",
            "ls",
            "-1",
            "/exports",
        ])
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../target/kind-logs")
                .join(&self.name);
            eprintln!(
                "kind-tests: test failed; exporting logs to {}",
                dir.display()
            );
            let _ = sh(
                "kind",
                &[
                    "export",
                    "logs",
                    dir.to_str().unwrap(),
                    "--name",
                    &self.name,
                ],
                None,
            );
        }
        if std::env::var_os("PVLINT_KIND_KEEP").is_some() {
            eprintln!(
                "kind-tests: keeping cluster {} (kubeconfig {})",
                self.name,
                self.kubeconfig.display()
            );
            return;
        }
        let _ = sh("kind", &["delete", "cluster", "--name", &self.name], None);
        let _ = std::fs::remove_file(&self.kubeconfig);
        eprintln!(
            "kind-tests: deleted cluster {} after {:.0?}",
            self.name,
            self.started.elapsed()
        );
    }
}

/// Polls `f` every 2 s until it returns Some or `timeout` passes.
pub fn wait_for<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if start.elapsed() > timeout {
            return None;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

pub fn source(file: &Path) -> Source {
    let text = std::fs::read_to_string(file).expect("manifest readable");
    Source::new(file.display().to_string(), text)
}

/// pvlint's lint of manifest files alone (no cluster state).
pub fn lint(files: &[&Path]) -> Report {
    api::lint(&Request {
        sources: files.iter().map(|f| source(f)).collect(),
        ..Request::default()
    })
}

/// pvlint's simulation of manifest files alone.
pub fn simulate(files: &[&Path]) -> Simulation {
    api::simulate(&Request {
        sources: files.iter().map(|f| source(f)).collect(),
        ..Request::default()
    })
    .expect("simulate")
}
