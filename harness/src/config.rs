//! `.pvlint.yaml`: settings for `pvlint lint` and `pvlint simulate`, found upward from the
//! working directory (or named by `--config`). Command-line flags win over it.
//!
//! ```yaml
//! cluster:                    # the target cluster (the cluster profile)
//!   nodes: one                # one, several (the default) or zones
//!   defaultClass: standard    # "" : the cluster has no default StorageClass
//!   kubeVersion: "1.31"
//!   complete: true
//! clusterState: cluster.yaml  # relative to this file
//! failOn: warning
//! rules:
//!   hostpath-persistent-volume: off
//!   delete-policy-in-tree: error
//! ```
//!
//! `kubeVersion`, `defaultClass` and `complete` may also stand at the top level, as before the
//! `cluster:` section, but not in both places. Unknown keys, rule ids and values are errors
//! that say what was meant.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pvlint_core::profile::Given;
use pvlint_core::settings::Settings;
use pvlint_core::{KubeVersion, Options, RuleLevel};

/// The file names looked for, in order, in each directory.
pub const NAMES: &[&str] = &[".pvlint.yaml", ".pvlint.yml"];

const KEYS: &[&str] = &[
    "cluster",
    "kubeVersion",
    "defaultClass",
    "complete",
    "clusterState",
    "failOn",
    "rules",
];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    pub kube_version: Option<KubeVersion>,
    /// `Some("")`: no default class.
    pub default_class: Option<String>,
    pub complete: Option<bool>,
    /// Resolved against the config file's directory.
    pub cluster_state: Option<PathBuf>,
    pub fail_on: Option<crate::exit::FailOn>,
    pub rules: BTreeMap<String, RuleLevel>,
    /// The `cluster:` section, checked; applied onto the options by [`Config::apply_cluster`].
    pub cluster: Option<serde_json::Value>,
}

impl Config {
    /// Where its values came from, as the profile names them.
    pub fn given(&self) -> Given {
        Given::Settings(self.path.display().to_string())
    }

    /// Its cluster profile (the top-level keys and the `cluster:` section) onto `options`.
    pub fn apply_cluster(&self, options: &mut Options) {
        use pvlint_core::profile::Key;
        let from = self.given();
        if let Some(v) = self.kube_version {
            options.kube_version = v;
            options.cluster.from.insert(Key::KubeVersion, from.clone());
        }
        if let Some(c) = &self.default_class {
            options.default_class = Some(c.clone());
            options.cluster.from.insert(Key::DefaultClass, from.clone());
        }
        if let Some(c) = self.complete {
            options.complete = c;
            options.cluster.from.insert(Key::Complete, from.clone());
        }
        if let Some(section) = &self.cluster {
            // Checked when the file was read.
            let _ = pvlint_core::settings::cluster_section(section, &from, options);
        }
    }
}

/// The nearest `.pvlint.yaml` in `start` or a directory above it.
pub fn find(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find_map(|d| NAMES.iter().map(|n| d.join(n)).find(|p| p.is_file()))
}

/// The settings: the file `flag` names (`--config`), else the nearest `.pvlint.yaml` above the
/// working directory, else none (the defaults).
pub fn lookup(flag: Option<&Path>) -> Result<Config, String> {
    match flag {
        Some(p) => load(p),
        None => {
            let cwd = std::env::current_dir().map_err(|e| format!("working directory: {e}"))?;
            find(&cwd).map_or(Ok(Config::default()), |p| load(&p))
        }
    }
}

/// Reads and checks a config file.
pub fn load(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    parse(&text, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a config's text; `path` locates relative paths. Read through the core's settings
/// reader, as the Kubewarden policy reads its settings: the same words for the same mistakes.
pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
    let value = pvlint_core::yaml_to_json(text)?;
    let mut c = Config {
        path: path.to_path_buf(),
        ..Config::default()
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    for setting in Settings::read(&value, KEYS)?.each() {
        let s = setting?;
        match s.key {
            "kubeVersion" => c.kube_version = Some(s.kube_version()?),
            "defaultClass" => {
                c.default_class = Some(s.string("a StorageClass name (\"\" for none)")?.into())
            }
            "complete" => c.complete = Some(s.boolean()?),
            "clusterState" => c.cluster_state = Some(dir.join(s.string("a file name")?)),
            "failOn" => {
                let v = s.string("error, warning, info or never")?;
                c.fail_on = Some(v.parse().map_err(|e| format!("{}: {e}", s.key))?);
            }
            "rules" => c.rules = s.rule_levels()?,
            "cluster" => {
                pvlint_core::settings::cluster_section(
                    s.value,
                    &Given::Default,
                    &mut Options::default(),
                )?;
                c.cluster = Some(s.value.clone());
            }
            // `each` yields only the keys of KEYS.
            _ => {}
        }
    }
    // A value set at the top level and in the cluster section: which one was meant?
    if let Some(section) = c.cluster.as_ref().and_then(|v| v.as_object()) {
        for (key, set) in [
            ("kubeVersion", c.kube_version.is_some()),
            ("defaultClass", c.default_class.is_some()),
            ("complete", c.complete.is_some()),
        ] {
            if set && section.contains_key(key) {
                return Err(format!(
                    "{key} is set twice, at the top level and in cluster:; keep the one in cluster:"
                ));
            }
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Config, String> {
        parse(text, Path::new("/repo/.pvlint.yaml"))
    }

    #[test]
    fn settings() {
        let c = p("kubeVersion: \"1.31\"\ndefaultClass: \"\"\ncomplete: true\nclusterState: state/c.yaml\nfailOn: warning\nrules:\n  hostpath-persistent-volume: off\n  delete-policy-in-tree: error\n  invalid-nfs-server: on\n").unwrap();
        assert_eq!(c.kube_version, Some(KubeVersion::new(1, 31)));
        assert_eq!(c.default_class.as_deref(), Some(""));
        assert_eq!(c.complete, Some(true));
        assert_eq!(c.cluster_state, Some(PathBuf::from("/repo/state/c.yaml")));
        assert_eq!(c.rules["hostpath-persistent-volume"], RuleLevel::Off);
        assert_eq!(c.rules["delete-policy-in-tree"], RuleLevel::Error);
        assert!(!c.rules.contains_key("invalid-nfs-server"));
        assert_eq!(p("").unwrap().rules.len(), 0);
    }

    #[test]
    fn mistakes_say_what_was_meant() {
        let e = p("kubeVersio: 1.31\n").unwrap_err();
        assert!(
            e.contains("unknown setting \"kubeVersio\" (did you mean kubeVersion?)"),
            "{e}"
        );
        let e = p("rules:\n  hostpath-persistent-volum: off\n").unwrap_err();
        assert!(
            e.contains("did you mean hostpath-persistent-volume?"),
            "{e}"
        );
        let e = p("rules:\n  invalid-nfs-server: loud\n").unwrap_err();
        assert!(e.contains("\"loud\" is not a rule setting"), "{e}");
        let e = p("kubeVersion: 1.30\n").unwrap_err();
        assert!(
            e.contains("found the number 1.3; write the version quoted"),
            "{e}"
        );
        let e = p("kubeVersion: two\n").unwrap_err();
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = p("complete: [x\n").unwrap_err();
        assert!(e.starts_with("1:"), "{e}");
        let e = p("- a\n").unwrap_err();
        assert!(e.contains("expected a map"), "{e}");
    }
}
