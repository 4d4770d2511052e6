//! Settings that change what the cluster would do (and so what pvlint says).

use std::collections::BTreeMap;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::finding::Severity;
use crate::profile::{DriverFact, Given, Key, Nodes};
pub use crate::version::{Feature, KubeVersion, Target};

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
    /// What else the host knows of the target cluster (the cluster profile; `kubeVersion`,
    /// `complete` and `defaultClass` above are part of it too).
    #[serde(skip_serializing_if = "ClusterSpec::is_empty")]
    pub cluster: ClusterSpec,
}

/// What a host says of the target cluster beyond its version, its default class and
/// `complete`: read from a settings file's `cluster:` section
/// ([`crate::settings::cluster_section`]), flags or the request. Unset values come from the
/// cluster state, else the default profile ([`crate::profile`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ClusterSpec {
    /// One node, several, or several zones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Nodes>,
    /// The provisioner of the default class `defaultClass` names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_provisioner: Option<String>,
    /// CSI drivers installed, with their CSIDriver facts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drivers: Vec<DriverFact>,
    /// Feature gates set other than the version's default.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_gates: BTreeMap<Feature, bool>,
    /// The CSI external-snapshotter's release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshotter: Option<crate::profile::Snapshotter>,
    /// Every apply set of the input goes to this one cluster.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub same_cluster: bool,
    /// Where each value came from (a flag, a settings file); a value not listed came with the
    /// request.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub from: BTreeMap<Key, Given>,
}

impl ClusterSpec {
    pub fn is_empty(&self) -> bool {
        *self == ClusterSpec::default()
    }

    /// Where the value of `key` came from: as recorded, else the request.
    pub fn given(&self, key: Key) -> Given {
        self.from.get(&key).cloned().unwrap_or(Given::Request)
    }
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
            cluster: ClusterSpec::default(),
        }
    }
}

impl Options {
    /// The Kubernetes the manifests are judged for: the version, and the profile's gates.
    pub fn target(&self) -> Target {
        self.cluster
            .feature_gates
            .iter()
            .fold(Target::of(self.kube_version), |t, (&f, &on)| t.with(f, on))
    }

    /// Whether a feature gate is on: as the profile sets it (unless locked on in the target
    /// version), else the version's default.
    pub fn feature(&self, f: Feature) -> bool {
        self.target().feature(f)
    }
}
