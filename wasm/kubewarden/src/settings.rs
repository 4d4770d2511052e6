//! The policy's settings, as a ClusterAdmissionPolicy's `spec.settings` gives them, and their
//! validation (`validate_settings`): unknown keys and bad values are refused with a
//! "did you mean".

use std::collections::BTreeSet;

use pvlint_core::profile::{Given, Key};
use pvlint_core::{KubeVersion, Options, Severity};

/// How the profile names values the policy's settings give.
const SETTINGS: &str = "policy settings";
use serde_json::Value;

/// What the policy does with pvlint's findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Rules whose findings reject the request, whatever their severity.
    pub reject_rules: BTreeSet<String>,
    /// Rules whose findings never reject: they come back as admission warnings.
    pub warn_rules: BTreeSet<String>,
    /// Rules whose findings are dropped.
    pub ignore_rules: BTreeSet<String>,
    /// Other rules reject when their finding is at least this severe, and warn otherwise.
    pub severity_threshold: Severity,
    /// The cluster's Kubernetes version (version-dependent verdicts: HonorPVReclaimPolicy, ...).
    pub kube_version: KubeVersion,
    /// Requests in these namespaces are accepted without looking at them.
    pub skip_namespaces: BTreeSet<String>,
    /// The cluster profile (`cluster:`, read as the CLI reads `.pvlint.yaml`'s): what the
    /// policy cannot look up (the nodes; it lists no Nodes per request), over the default
    /// profile; checked when the settings are validated.
    pub cluster: Option<Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            reject_rules: BTreeSet::new(),
            warn_rules: BTreeSet::new(),
            ignore_rules: BTreeSet::new(),
            severity_threshold: Severity::Error,
            kube_version: KubeVersion::DEFAULT,
            skip_namespaces: BTreeSet::new(),
            cluster: None,
        }
    }
}

/// The setting keys, as written in `spec.settings`.
pub const KEYS: &[&str] = &[
    "rejectRules",
    "warnRules",
    "ignoreRules",
    "severityThreshold",
    "kubeVersion",
    "skipNamespaces",
    "cluster",
];

/// Rules whose errors at admission may be about an object of the same apply that has not
/// reached the API server yet: a workload admitted before the claim it mounts
/// (`kubectl apply -f DIR` applies deployment.yaml before pvc.yaml) waits for it, as the
/// scheduler does, and runs once it exists. Warned unless `rejectRules` names them.
pub const WARNED_AT_ADMISSION: &[&str] = &["missing-claim"];

/// What a finding becomes at admission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Reject,
    Warn,
    Ignore,
}

impl Settings {
    /// Reads and checks settings (through the core's settings reader, as the CLI reads its
    /// `.pvlint.yaml`); the error says which key is wrong and what would be right. `null` (no
    /// settings at all) is the defaults.
    pub fn from_value(v: &Value) -> Result<Settings, String> {
        let mut s = Settings::default();
        let map = pvlint_core::settings::Settings::read(v, KEYS)?;
        let mut errors = Vec::new();
        for setting in map.each() {
            let r = setting.and_then(|st| match st.key {
                "rejectRules" => st.rule_ids().map(|l| s.reject_rules = l),
                "warnRules" => st.rule_ids().map(|l| s.warn_rules = l),
                "ignoreRules" => st.rule_ids().map(|l| s.ignore_rules = l),
                "severityThreshold" => st.severity().map(|v| s.severity_threshold = v),
                "kubeVersion" => st.kube_version().map(|v| s.kube_version = v),
                "skipNamespaces" => namespaces(&st).map(|l| s.skip_namespaces = l),
                "cluster" => pvlint_core::settings::cluster_section(
                    st.value,
                    &Given::Settings(SETTINGS.into()),
                    &mut pvlint_core::Options::default(),
                )
                .map(|()| s.cluster = Some(st.value.clone())),
                // `each` yields only the keys of KEYS.
                _ => Ok(()),
            });
            if let Err(e) = r {
                errors.push(e);
            }
        }
        let top_version = v.get("kubeVersion").is_some();
        if top_version
            && s.cluster
                .as_ref()
                .is_some_and(|c| c.get("kubeVersion").is_some())
        {
            errors.push(
                "kubeVersion is set twice, at the top level and in cluster:; keep the one in cluster:"
                    .to_string(),
            );
        }
        for (a, b) in [
            ("rejectRules", "warnRules"),
            ("rejectRules", "ignoreRules"),
            ("warnRules", "ignoreRules"),
        ] {
            let (la, lb) = (s.list(a), s.list(b));
            let both: Vec<&str> = la.intersection(lb).map(String::as_str).collect();
            if !both.is_empty() {
                errors.push(format!(
                    "{} in both {a} and {b}: list each rule in one of them",
                    both.join(", ")
                ));
            }
        }
        if errors.is_empty() {
            Ok(s)
        } else {
            Err(errors.join("; "))
        }
    }

    /// The options a request is judged with: the settings' kubeVersion and cluster profile.
    pub fn options(&self) -> Options {
        let mut o = Options {
            kube_version: self.kube_version,
            ..Options::default()
        };
        let from = Given::Settings(SETTINGS.into());
        if self.kube_version != KubeVersion::DEFAULT {
            o.cluster.from.insert(Key::KubeVersion, from.clone());
        }
        if let Some(section) = &self.cluster {
            // Checked in from_value.
            let _ = pvlint_core::settings::cluster_section(section, &from, &mut o);
        }
        o
    }

    fn list(&self, key: &str) -> &BTreeSet<String> {
        match key {
            "rejectRules" => &self.reject_rules,
            "warnRules" => &self.warn_rules,
            _ => &self.ignore_rules,
        }
    }

    /// What a finding of `rule` at `severity` becomes.
    pub fn verdict(&self, rule: &str, severity: Severity) -> Verdict {
        if self.ignore_rules.contains(rule) {
            Verdict::Ignore
        } else if self.warn_rules.contains(rule) {
            Verdict::Warn
        } else if self.reject_rules.contains(rule) {
            Verdict::Reject
        } else if WARNED_AT_ADMISSION.contains(&rule) {
            Verdict::Warn
        } else if severity >= self.severity_threshold {
            Verdict::Reject
        } else {
            Verdict::Warn
        }
    }
}

/// RFC 1123 label: what a namespace name must be.
fn is_namespace_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

fn namespaces(setting: &pvlint_core::settings::Setting<'_>) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    for ns in setting.strings()? {
        if !is_namespace_name(ns) {
            return Err(format!(
                "skipNamespaces: \"{ns}\" is not a namespace name (lower-case letters, digits and '-', at most 63)"
            ));
        }
        out.insert(ns.to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_and_full_settings() {
        assert_eq!(
            Settings::from_value(&json!({})).unwrap(),
            Settings::default()
        );
        assert_eq!(
            Settings::from_value(&Value::Null).unwrap(),
            Settings::default()
        );
        let s = Settings::from_value(&json!({
            "rejectRules": ["delete-policy-without-finalizer"],
            "warnRules": ["rwo-rolling-surge"],
            "ignoreRules": ["hostpath-persistent-volume"],
            "severityThreshold": "warning",
            "kubeVersion": "v1.23.4",
            "skipNamespaces": ["kube-system"],
        }))
        .unwrap();
        assert_eq!(s.kube_version, KubeVersion::new(1, 23));
        assert_eq!(
            s.verdict("rwo-rolling-surge", Severity::Error),
            Verdict::Warn
        );
        assert_eq!(
            s.verdict("delete-policy-without-finalizer", Severity::Info),
            Verdict::Reject
        );
        assert_eq!(
            s.verdict("hostpath-persistent-volume", Severity::Error),
            Verdict::Ignore
        );
        assert_eq!(
            s.verdict("recycle-policy-deprecated", Severity::Warning),
            Verdict::Reject
        );
        assert_eq!(
            s.verdict("recycle-policy-deprecated", Severity::Info),
            Verdict::Warn
        );
    }

    /// A workload admitted before the claim it mounts (`kubectl apply -f DIR` sorts
    /// deployment.yaml before pvc.yaml) is warned, not refused: it runs once the claim exists.
    /// `rejectRules` can still refuse it.
    #[test]
    fn a_missing_claim_is_warned_at_admission_unless_rejected_by_name() {
        let s = Settings::default();
        assert_eq!(s.verdict("missing-claim", Severity::Error), Verdict::Warn);
        assert_eq!(
            s.verdict("storage-class-not-found", Severity::Error),
            Verdict::Reject
        );
        let s = Settings::from_value(&json!({"rejectRules": ["missing-claim"]})).unwrap();
        assert_eq!(s.verdict("missing-claim", Severity::Error), Verdict::Reject);
        let s = Settings::from_value(&json!({"ignoreRules": ["missing-claim"]})).unwrap();
        assert_eq!(s.verdict("missing-claim", Severity::Error), Verdict::Ignore);
    }

    /// `cluster:` is the CLI's `.pvlint.yaml` section, read by the same reader: it makes the
    /// options a request is judged with, each value from "policy settings".
    #[test]
    fn the_cluster_profile_is_the_settings_files() {
        use pvlint_core::profile::{Given, Key, Nodes};
        let s = Settings::from_value(
            &json!({"cluster": {"nodes": "one", "defaultClass": "local-path"}}),
        )
        .unwrap();
        let o = s.options();
        assert_eq!(o.cluster.nodes, Some(Nodes::One));
        assert_eq!(o.default_class.as_deref(), Some("local-path"));
        assert_eq!(
            o.cluster.from.get(&Key::Nodes),
            Some(&Given::Settings("policy settings".into()))
        );
        let e = Settings::from_value(&json!({"cluster": {"nodes": "two"}})).unwrap_err();
        assert!(e.contains("\"two\" is not a node layout"), "{e}");
        let e = Settings::from_value(&json!({"cluster": {"node": "one"}})).unwrap_err();
        assert!(e.contains("did you mean nodes?"), "{e}");
        let e = Settings::from_value(
            &json!({"kubeVersion": "1.31", "cluster": {"kubeVersion": "1.30"}}),
        )
        .unwrap_err();
        assert!(e.contains("kubeVersion is set twice"), "{e}");
    }

    #[test]
    fn bad_settings_say_what_would_be_right() {
        let e = Settings::from_value(&json!({"rejectRule": []})).unwrap_err();
        assert!(e.contains("did you mean rejectRules?"), "{e}");
        let e = Settings::from_value(&json!({"warnRules": ["rwo-rolling-surg"]})).unwrap_err();
        assert!(e.contains("did you mean rwo-rolling-surge?"), "{e}");
        let e = Settings::from_value(&json!({"severityThreshold": "warn"})).unwrap_err();
        assert!(e.contains("did you mean"), "{e}");
        let e = Settings::from_value(&json!({"kubeVersion": 1.3})).unwrap_err();
        assert!(e.contains("write the version quoted"), "{e}");
        let e = Settings::from_value(&json!({"kubeVersion": "latest"})).unwrap_err();
        assert!(e.contains("not a Kubernetes version"), "{e}");
        let e = Settings::from_value(&json!({"skipNamespaces": ["Kube_System"]})).unwrap_err();
        assert!(e.contains("not a namespace name"), "{e}");
        let e = Settings::from_value(&json!({"warnRules": "rwo-rolling-surge"})).unwrap_err();
        assert!(e.contains("expected a list of strings"), "{e}");
        let e = Settings::from_value(&json!({
            "rejectRules": ["rwo-rolling-surge"], "warnRules": ["rwo-rolling-surge"]
        }))
        .unwrap_err();
        assert!(e.contains("in both rejectRules and warnRules"), "{e}");
        let e = Settings::from_value(&json!(["x"])).unwrap_err();
        assert!(e.contains("expected a map of settings"), "{e}");
    }
}
