//! The cluster profile: what pvlint takes the target cluster to be, each value with where it
//! came from. Hosts say what they know ([`crate::options::ClusterSpec`]: flags, a settings
//! file's `cluster:` section, the request); the cluster state says what it holds (its Nodes,
//! CSIDrivers and default StorageClass); what neither says is the **default profile**: a
//! production cluster of several nodes with a default StorageClass of unknown name, whose CSI
//! drivers pvlint does not know attach their volumes to one node at a time, at the default
//! Kubernetes version.
//!
//! Severity follows the profile: an error fails (or loses data) on every cluster that matches
//! the profile and the input; what neither settles is a named assumption and at most a warning.
//! The profile is printed once per report, not in every finding.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::version::{Feature, KubeVersion};

/// How the cluster's schedulable nodes are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nodes {
    /// One node runs every pod (kind, k3d, minikube, a single-node k3s).
    One,
    /// Several nodes: pods of one workload may run on different nodes.
    Several,
    /// Several nodes in several zones (for every rule so far, what several nodes are).
    Zones,
}

crate::string::named!(Nodes {
    One => "one",
    Several => "several",
    Zones => "zones",
});

impl Nodes {
    pub const CHOICES: &'static [&'static str] = &["one", "several", "zones"];

    pub fn parse(s: &str) -> Option<Nodes> {
        match s {
            "one" => Some(Nodes::One),
            "several" => Some(Nodes::Several),
            "zones" => Some(Nodes::Zones),
            _ => None,
        }
    }

    /// Pods of one workload may land on different nodes.
    pub fn several(self) -> bool {
        self != Nodes::One
    }

    fn describe(self) -> &'static str {
        match self {
            Nodes::One => "one node",
            Nodes::Several => "several nodes",
            Nodes::Zones => "several nodes in several zones",
        }
    }
}

/// Where a value of the profile came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Given {
    /// The default profile: nothing said otherwise.
    Default,
    /// A command-line flag (`--nodes`).
    Flag(String),
    /// A settings file (`.pvlint.yaml`'s `cluster:` section, the Kubewarden policy's settings).
    Settings(String),
    /// The request itself (an API caller's options, the playground's controls).
    Request,
    /// The cluster state: a file (`--cluster-state`), a live cluster (`<cluster CONTEXT>`), an
    /// admission request's cluster.
    ClusterState(String),
    /// `--complete`: the input holds every object that matters.
    Complete,
}

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Given::Default => f.write_str("default"),
            Given::Flag(flag) => f.write_str(flag),
            Given::Settings(file) => f.write_str(file),
            Given::Request => f.write_str("request"),
            Given::ClusterState(source) => write!(f, "cluster state {source}"),
            Given::Complete => f.write_str("--complete"),
        }
    }
}

/// The keys of the profile, as the settings' `cluster:` section and the JSON options name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Key {
    Nodes,
    DefaultClass,
    Drivers,
    KubeVersion,
    FeatureGates,
    Snapshotter,
    Complete,
    SameCluster,
}

/// A value of the profile and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact<T> {
    pub value: T,
    pub from: Given,
}

impl<T> Fact<T> {
    pub fn new(value: T, from: Given) -> Fact<T> {
        Fact { value, from }
    }

    /// Said by no one: the default profile's value.
    pub fn is_default(&self) -> bool {
        self.from == Given::Default
    }
}

/// The cluster's default StorageClass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "is")]
pub enum DefaultClass {
    /// A default class exists; its name and provisioner are not known.
    Unnamed,
    /// This one (its provisioner, when known).
    #[serde(rename_all = "camelCase")]
    Named {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provisioner: Option<String>,
    },
    /// None: a claim without a class keeps none.
    None,
    /// Only one the input defines (`--complete`).
    InputOnly,
}

/// A release of the CSI external-snapshotter (`6.1`): from 6.0 its CRDs serve
/// snapshot.storage.k8s.io/v1 only (CHANGELOG-6.0, "API Removal": "Remove VolumeSnapshot
/// v1beta1 APIs").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Snapshotter {
    pub major: u32,
    pub minor: u32,
}

impl Snapshotter {
    /// It serves snapshot.storage.k8s.io/v1beta1 (releases before 6.0).
    pub fn serves_v1beta1(self) -> bool {
        self.major < 6
    }
}

impl std::str::FromStr for Snapshotter {
    type Err = String;
    fn from_str(s: &str) -> Result<Snapshotter, String> {
        let bad = || {
            format!("\"{s}\" is not an external-snapshotter release; write it as 8.2 (or v8.2.0)")
        };
        let t = s.trim().trim_start_matches('v');
        let mut parts = t.split('.');
        let major = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor = parts
            .next()
            .map_or(Some(0), |p| p.parse().ok())
            .ok_or_else(bad)?;
        if parts.next().is_some_and(|p| p.parse::<u32>().is_err()) || parts.next().is_some() {
            return Err(bad());
        }
        Ok(Snapshotter { major, minor })
    }
}

impl TryFrom<String> for Snapshotter {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<Snapshotter> for String {
    fn from(s: Snapshotter) -> String {
        s.to_string()
    }
}

impl fmt::Display for Snapshotter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// What a CSIDriver says of a driver, known from the profile or the cluster state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriverFact {
    pub name: String,
    /// `spec.attachRequired` (the CSIDriver default is true).
    #[serde(default = "yes")]
    pub attach_required: bool,
}

fn yes() -> bool {
    true
}

/// A feature gate's state in the profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    pub feature: Feature,
    pub enabled: bool,
    pub from: Given,
    /// The setting asked the gate off where it is locked on: no component starts so, and
    /// pvlint judges it on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub locked: bool,
}

/// What the cluster state says of the cluster, read by the pipeline for the profile.
#[derive(Debug, Clone, Default)]
pub struct StateFacts {
    /// The cluster state's name, when one was given.
    pub source: Option<String>,
    /// Schedulable Nodes and the zones they are in, when the state lists Nodes.
    pub nodes: Option<(usize, usize)>,
    /// Its default StorageClass (name, provisioner).
    pub default_class: Option<(String, String)>,
    /// Its CSIDrivers.
    pub drivers: Vec<DriverFact>,
}

/// The target cluster, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub nodes: Fact<Nodes>,
    pub default_class: Fact<DefaultClass>,
    /// The CSI drivers whose CSIDriver facts are known, each with where from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drivers: Vec<Fact<DriverFact>>,
    pub kube_version: Fact<KubeVersion>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feature_gates: Vec<Gate>,
    /// The release of the CSI external-snapshotter (its CRDs and snapshot-controller), when
    /// said: it decides which versions of snapshot.storage.k8s.io are served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshotter: Option<Fact<Snapshotter>>,
    pub complete: Fact<bool>,
    /// Every apply set of the input goes to this one cluster: what one defines cluster-wide
    /// (StorageClasses, CSIDrivers, PersistentVolumes) the others find there.
    pub same_cluster: Fact<bool>,
}

impl Profile {
    /// Every value the default profile's, as a finding's severity assumes when nothing is said.
    pub fn is_default(&self) -> bool {
        self.nodes.is_default()
            && self.default_class.is_default()
            && self.drivers.is_empty()
            && self.kube_version.is_default()
            && self.feature_gates.is_empty()
            && self.snapshotter.is_none()
            && self.complete.is_default()
            && self.same_cluster.is_default()
    }

    /// The profile in one line for people: each value, and where it came from when someone
    /// said it ("several nodes, a default StorageClass of unknown name, ... (default profile)").
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let said = |text: String, from: &Given| match from {
            Given::Default => text,
            from => format!("{text} ({from})"),
        };
        parts.push(said(
            self.nodes.value.describe().to_string(),
            &self.nodes.from,
        ));
        let class = match &self.default_class.value {
            DefaultClass::Unnamed => "a default StorageClass of unknown name".to_string(),
            DefaultClass::Named {
                name,
                provisioner: Some(p),
            } => format!("default StorageClass {name} ({p})"),
            DefaultClass::Named {
                name,
                provisioner: None,
            } => format!("default StorageClass {name}"),
            DefaultClass::None => "no default StorageClass".to_string(),
            DefaultClass::InputOnly => "no default StorageClass but the input's".to_string(),
        };
        parts.push(said(class, &self.default_class.from));
        let mut drivers: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for d in &self.drivers {
            drivers.entry(d.from.to_string()).or_default().push(format!(
                "{} {}",
                d.value.name,
                if d.value.attach_required {
                    "attaches"
                } else {
                    "does not attach"
                }
            ));
        }
        for (from, list) in drivers {
            parts.push(format!("CSI driver {} ({from})", list.join(", ")));
        }
        parts.push("CSI drivers without a known CSIDriver attach".to_string());
        parts.push(said(
            format!("Kubernetes {}", self.kube_version.value),
            &self.kube_version.from,
        ));
        for g in &self.feature_gates {
            let state = if g.locked {
                format!(
                    "{} on (locked on in {}: it cannot be turned off)",
                    g.feature, self.kube_version.value
                )
            } else if g.enabled {
                format!("{} on", g.feature)
            } else {
                format!("{} off", g.feature)
            };
            parts.push(said(state, &g.from));
        }
        if let Some(s) = &self.snapshotter {
            parts.push(said(format!("external-snapshotter {}", s.value), &s.from));
        }
        if self.complete.value {
            parts.push(said(
                "the input holds every object that matters".to_string(),
                &self.complete.from,
            ));
        }
        if self.same_cluster.value {
            parts.push(said(
                "every apply set goes to this one cluster".to_string(),
                &self.same_cluster.from,
            ));
        }
        let mut line = parts.join(", ");
        if self.is_default() {
            line.push_str(" (the default profile)");
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshotter_releases() {
        let s = |t: &str| t.parse::<Snapshotter>();
        assert_eq!(s("8.2"), Ok(Snapshotter { major: 8, minor: 2 }));
        assert_eq!(s("v6.0.1"), Ok(Snapshotter { major: 6, minor: 0 }));
        assert_eq!(s("5"), Ok(Snapshotter { major: 5, minor: 0 }));
        assert!(s("latest").is_err());
        assert!(s("8.2.x").is_err());
        assert!(s("5.0").unwrap().serves_v1beta1());
        assert!(!s("6.0").unwrap().serves_v1beta1());
    }
}
