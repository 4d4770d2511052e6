//! Settings that change what the cluster would do (and so what pvlint says).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use crate::finding::Severity;
use std::str::FromStr;

/// A Kubernetes minor version (`1.31`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KubeVersion {
    pub major: u32,
    pub minor: u32,
}

impl Default for KubeVersion {
    fn default() -> Self {
        KubeVersion::DEFAULT
    }
}

impl KubeVersion {
    /// The release pvlint assumes when not told (all version-dependent behaviour pvlint
    /// models is the same from 1.33 on).
    pub const DEFAULT: KubeVersion = KubeVersion {
        major: 1,
        minor: 34,
    };

    pub const fn new(major: u32, minor: u32) -> Self {
        KubeVersion { major, minor }
    }

    pub fn at_least(self, minor: u32) -> bool {
        self >= KubeVersion::new(1, minor)
    }
}

impl FromStr for KubeVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().trim_start_matches('v');
        let t = t.split(['-', '+']).next().unwrap_or("");
        let mut parts = t.split('.');
        let bad = || format!("\"{s}\" is not a Kubernetes version; write it as 1.31 (or v1.31.2)");
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        if let Some(patch) = parts.next() {
            if patch.parse::<u32>().is_err() {
                return Err(bad());
            }
        }
        if major != 1 || parts.next().is_some() {
            return Err(bad());
        }
        Ok(KubeVersion { major, minor })
    }
}

impl TryFrom<String> for KubeVersion {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<KubeVersion> for String {
    fn from(v: KubeVersion) -> String {
        v.to_string()
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Options {
    /// The version of the cluster the manifests are meant for.
    pub kube_version: KubeVersion,
    /// The input holds every object that matters: a name not found in it does not exist.
    pub complete: bool,
    /// The target cluster's default StorageClass when the input defines none: not set means
    /// "an unnamed default, as almost every cluster has"; "" means no default class; a name
    /// means a default class of that name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_class: Option<String>,
    /// Per-rule settings by rule id: `off`, or the severity to report it with.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, RuleLevel>,
    /// How the tool that applies the manifests validates fields: kubectl's default `strict`
    /// (the API server rejects an object with an unknown field), or `warn` (`kubectl apply
    /// --validate=warn`, Helm, client-go: the field is dropped with a warning).
    #[serde(skip_serializing_if = "FieldValidation::is_strict")]
    pub field_validation: FieldValidation,
    /// kube-controller-manager runs with `--enable-hostpath-provisioner` (local development
    /// clusters such as `hack/local-up-cluster.sh`): it provisions `kubernetes.io/host-path`
    /// classes under /tmp/hostpath_pv. Off by default, as in every distribution.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hostpath_provisioner: bool,
}

/// Field validation of the client that applies the manifests (kubectl `--validate`; the API
/// server's `fieldValidation` query parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldValidation {
    /// `fieldValidation=Strict` (kubectl's default since 1.27): "strict decoding error:
    /// unknown field", the object is not created.
    #[default]
    Strict,
    /// `fieldValidation=Warn` (`kubectl apply --validate=warn`, Helm, client-go): the unknown
    /// field is dropped and the object created, with a warning.
    Warn,
}

impl FieldValidation {
    pub fn is_strict(&self) -> bool {
        *self == FieldValidation::Strict
    }
}

impl FromStr for FieldValidation {
    type Err = String;
    fn from_str(s: &str) -> Result<FieldValidation, String> {
        match s {
            "strict" | "true" => Ok(FieldValidation::Strict),
            "warn" | "false" | "ignore" => Ok(FieldValidation::Warn),
            _ => Err(format!(
                "\"{s}\" is not a validation mode; use strict (kubectl's default) or warn (kubectl --validate=warn, Helm)"
            )),
        }
    }
}

/// A rule's setting: off, or on with a severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleLevel {
    Off,
    Info,
    Warning,
    Error,
}

impl RuleLevel {
    /// The severity findings of the rule get; None when it is off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            RuleLevel::Off => None,
            RuleLevel::Info => Some(Severity::Info),
            RuleLevel::Warning => Some(Severity::Warning),
            RuleLevel::Error => Some(Severity::Error),
        }
    }
}

impl FromStr for RuleLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleLevel, String> {
        match s {
            "off" => Ok(RuleLevel::Off),
            "info" => Ok(RuleLevel::Info),
            "warning" => Ok(RuleLevel::Warning),
            "error" => Ok(RuleLevel::Error),
            _ => Err(format!(
                "\"{s}\" is not a rule setting; use off, info, warning or error"
            )),
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kube_version: KubeVersion::DEFAULT,
            complete: false,
            default_class: None,
            rules: BTreeMap::new(),
            field_validation: FieldValidation::Strict,
            hostpath_provisioner: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(
            "1.31".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 31)
        );
        assert_eq!(
            "v1.29.4".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 29)
        );
        assert_eq!(
            "1.30.0-rc.1".parse::<KubeVersion>().unwrap(),
            KubeVersion::new(1, 30)
        );
        assert!("2.1".parse::<KubeVersion>().is_err());
        assert!("latest".parse::<KubeVersion>().is_err());
        assert!("1".parse::<KubeVersion>().is_err());
    }
}
