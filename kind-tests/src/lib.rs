//! Helpers for the kind end-to-end suite: a kind cluster that deletes itself, kubectl
//! against it, polling with a deadline, and pvlint's own prediction for a manifest.
//!
//! The suite needs docker, kind and kubectl on PATH and is opt-in: see README.md.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const CLUSTER_PREFIX: &str = "pvlint-e2e-";

/// Why the suite cannot run here, if it cannot.
pub fn missing_prerequisites() -> Option<String> {
    let missing: Vec<&str> = ["docker", "kind", "kubectl"]
        .into_iter()
        .filter(|t| {
            Command::new(t)
                .arg("version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_err()
        })
        .collect();
    if !missing.is_empty() {
        return Some(format!("{} not found on PATH", missing.join(", ")));
    }
    let docker_up = Command::new("docker")
        .arg("info")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !docker_up.is_ok_and(|s| s.success()) {
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

/// A kind cluster deleted on drop. Clusters left behind by killed runs are swept by name
/// prefix when a new one is created.
pub struct Cluster {
    pub name: String,
    kubeconfig: PathBuf,
}

impl Cluster {
    pub fn create() -> Result<Cluster, String> {
        if let Ok(list) = sh("kind", &["get", "clusters"], None) {
            for old in list.lines().filter(|l| l.starts_with(CLUSTER_PREFIX)) {
                let _ = sh("kind", &["delete", "cluster", "--name", old], None);
            }
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let name = format!("{CLUSTER_PREFIX}{}-{stamp}", std::process::id());
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("kind-config.yaml");
        sh(
            "kind",
            &[
                "create",
                "cluster",
                "--name",
                &name,
                "--config",
                config.to_str().unwrap(),
                "--wait",
                "5m",
            ],
            None,
        )?;
        let kubeconfig = std::env::temp_dir().join(format!("{name}.kubeconfig"));
        let cfg = sh("kind", &["get", "kubeconfig", "--name", &name], None)?;
        std::fs::write(&kubeconfig, cfg).map_err(|e| e.to_string())?;
        Ok(Cluster { name, kubeconfig })
    }

    pub fn kubectl(&self, args: &[&str]) -> Result<String, String> {
        let mut full = vec!["--kubeconfig", self.kubeconfig.to_str().unwrap()];
        full.extend_from_slice(args);
        sh("kubectl", &full, None)
    }

    pub fn apply(&self, file: &Path) -> Result<String, String> {
        self.kubectl(&["apply", "-f", file.to_str().unwrap()])
    }

    /// `kubectl get -o jsonpath` of one object.
    pub fn jsonpath(&self, what: &str, path: &str) -> String {
        self.kubectl(&["get", what, "-o", &format!("jsonpath={path}")])
            .unwrap_or_default()
    }

    /// Warning/Normal events about an object, as "Type Reason Message" lines.
    pub fn events_for(&self, name: &str) -> String {
        self.kubectl(&[
            "get",
            "events",
            "-A",
            "--field-selector",
            &format!("involvedObject.name={name}"),
            "-o",
            "custom-columns=TYPE:.type,REASON:.reason,MESSAGE:.message",
            "--no-headers",
        ])
        .unwrap_or_default()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::env::var_os("PVLINT_KIND_KEEP").is_none() {
            let _ = sh("kind", &["delete", "cluster", "--name", &self.name], None);
        }
        let _ = std::fs::remove_file(&self.kubeconfig);
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

/// Each finding as (rule, severity, headline + consequence + predicted event reason).
pub fn predict(file: &Path) -> Vec<(String, pvlint_core::Severity, String)> {
    let text = std::fs::read_to_string(file).expect("manifest readable");
    let src = pvlint_core::Source::new(file.display().to_string(), text);
    pvlint_core::lint(&[src], &pvlint_core::Options::default())
        .findings
        .into_iter()
        .map(|f| {
            let mut text = f.message;
            if let Some(c) = &f.consequence {
                text.push_str(" | ");
                text.push_str(&c.summary);
                if let Some(e) = &c.event {
                    text.push_str(" | ");
                    text.push_str(&e.reason);
                }
            }
            (f.rule.to_string(), f.severity, text)
        })
        .collect()
}
