//! The settings files hosts read — the CLI's `.pvlint.yaml`, the Kubewarden policy's
//! `spec.settings` — through one reader: a map of known keys, each value read as what the host
//! expects, with errors that name the key, say what was expected and what was found, and what
//! was meant ("did you mean").

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::finding::Severity;
use crate::options::{KubeVersion, Options, RuleLevel};
use crate::profile::{DriverFact, Given, Key, Nodes};
pub use crate::schema::{did_you_mean, hint};
use crate::version::Feature;

/// The keys of a `cluster:` section (the cluster profile, [`crate::profile`]).
pub const CLUSTER_KEYS: &[&str] = &[
    "nodes",
    "defaultClass",
    "drivers",
    "kubeVersion",
    "featureGates",
    "snapshotter",
    "complete",
    "sameCluster",
];

/// Reads a settings file's `cluster:` section (the CLI's `.pvlint.yaml`, the Kubewarden
/// policy's settings, the JavaScript API's `cluster` option: one reader for all) into
/// `options`, recording `from` as where each value came from. `null` says nothing.
///
/// ```yaml
/// cluster:
///   nodes: one                # one, several (the default) or zones
///   defaultClass: standard    # a name, {name, provisioner}, or "" for none
///   drivers:                  # CSI drivers and their CSIDriver's attachRequired
///   - {name: nfs.csi.k8s.io, attachRequired: false}
///   kubeVersion: "1.31"
///   featureGates: {HonorPVReclaimPolicy: false}
///   snapshotter: "8.2"        # the CSI external-snapshotter's release
///   complete: false           # the input holds every object that matters
///   sameCluster: true         # every apply set of the input goes to this one cluster
/// ```
pub fn cluster_section(value: &Value, from: &Given, options: &mut Options) -> Result<(), String> {
    let section = Settings::read(value, CLUSTER_KEYS).map_err(|e| format!("cluster: {e}"))?;
    for setting in section.each() {
        let s = setting.map_err(|e| format!("cluster: {e}"))?;
        let key = match s.key {
            "nodes" => {
                let v = s.string("one, several or zones")?;
                options.cluster.nodes = Some(Nodes::parse(v).ok_or_else(|| {
                    format!(
                        "cluster.nodes: \"{v}\" is not a node layout{}; use one, several or zones",
                        hint(v, Nodes::CHOICES.iter().copied())
                    )
                })?);
                Key::Nodes
            }
            "defaultClass" => {
                let (name, provisioner) = s.default_class()?;
                options.default_class = Some(name);
                options.cluster.default_provisioner = provisioner;
                Key::DefaultClass
            }
            "drivers" => {
                options.cluster.drivers = s.drivers()?;
                Key::Drivers
            }
            "kubeVersion" => {
                options.kube_version = s.kube_version()?;
                Key::KubeVersion
            }
            "featureGates" => {
                options.cluster.feature_gates = s.feature_gates()?;
                Key::FeatureGates
            }
            "snapshotter" => {
                let v = s.string("a release like \"8.2\"")?;
                options.cluster.snapshotter =
                    Some(v.parse().map_err(|e| format!("cluster.snapshotter: {e}"))?);
                Key::Snapshotter
            }
            "complete" => {
                options.complete = s.boolean()?;
                Key::Complete
            }
            "sameCluster" => {
                options.cluster.same_cluster = s.boolean()?;
                Key::SameCluster
            }
            // `each` yields only the keys of CLUSTER_KEYS.
            _ => continue,
        };
        options.cluster.from.insert(key, from.clone());
    }
    Ok(())
}

/// A map of settings whose keys are among `known`.
pub struct Settings<'v> {
    map: Option<&'v Map<String, Value>>,
    known: &'static [&'static str],
}

impl<'v> Settings<'v> {
    /// `value` as a map of settings with the keys `known`; `null` (no settings at all) is an
    /// empty map.
    pub fn read(value: &'v Value, known: &'static [&'static str]) -> Result<Settings<'v>, String> {
        match value {
            Value::Null => Ok(Settings { map: None, known }),
            Value::Object(m) => Ok(Settings {
                map: Some(m),
                known,
            }),
            other => Err(format!(
                "expected a map of settings ({}), found {}",
                known.join(", "),
                type_name(other)
            )),
        }
    }

    /// Each setting, in order; a key that is not known is an error that says what was meant.
    pub fn each(&self) -> impl Iterator<Item = Result<Setting<'v>, String>> + '_ {
        self.map.into_iter().flatten().map(|(key, value)| {
            if self.known.contains(&key.as_str()) {
                Ok(Setting { key, value })
            } else {
                Err(format!(
                    "unknown setting \"{key}\"{}; the settings are {}",
                    hint(key, self.known.iter().copied()),
                    self.known.join(", ")
                ))
            }
        })
    }
}

/// One setting: its key and value.
#[derive(Debug, Clone, Copy)]
pub struct Setting<'v> {
    pub key: &'v str,
    pub value: &'v Value,
}

impl<'v> Setting<'v> {
    /// "KEY: expected WHAT, found a list".
    pub fn wrong(&self, expected: &str) -> String {
        format!(
            "{}: expected {expected}, found {}",
            self.key,
            type_name(self.value)
        )
    }

    pub fn boolean(&self) -> Result<bool, String> {
        self.value
            .as_bool()
            .ok_or_else(|| self.wrong("true or false"))
    }

    /// A string; `what` says what it names, for the error.
    pub fn string(&self, what: &str) -> Result<&'v str, String> {
        self.value.as_str().ok_or_else(|| self.wrong(what))
    }

    /// A list of strings.
    pub fn strings(&self) -> Result<Vec<&'v str>, String> {
        let Value::Array(items) = self.value else {
            return Err(self.wrong("a list of strings"));
        };
        items
            .iter()
            .map(|i| {
                i.as_str().ok_or_else(|| {
                    format!(
                        "{}: expected a list of strings, found {} in it",
                        self.key,
                        type_name(i)
                    )
                })
            })
            .collect()
    }

    /// A Kubernetes version, written as a string (`"1.31"`): an unquoted `1.30` is the number
    /// 1.3 in YAML, refused rather than misread.
    pub fn kube_version(&self) -> Result<KubeVersion, String> {
        match self.value {
            Value::String(s) => s.parse().map_err(|e| format!("{}: {e}", self.key)),
            Value::Number(n) => Err(format!(
                "{}: found the number {n}; write the version quoted, e.g. \"1.31\" (unquoted, YAML reads 1.30 as 1.3)",
                self.key
            )),
            _ => Err(self.wrong("a version like \"1.31\"")),
        }
    }

    /// A default StorageClass: its name (`""`: none), or `{name, provisioner}`.
    pub fn default_class(&self) -> Result<(String, Option<String>), String> {
        const KEYS: &[&str] = &["name", "provisioner"];
        match self.value {
            Value::String(name) => Ok((name.clone(), None)),
            Value::Object(_) => {
                let (mut name, mut provisioner) = (None, None);
                for s in Settings::read(self.value, KEYS)?.each() {
                    let s = s.map_err(|e| format!("{}: {e}", self.key))?;
                    let text = s.string("a name")?.to_string();
                    match s.key {
                        "name" => name = Some(text),
                        _ => provisioner = Some(text),
                    }
                }
                let name = name.ok_or_else(|| format!("{}: needs a name", self.key))?;
                Ok((name, provisioner.filter(|p| !p.is_empty())))
            }
            _ => Err(self.wrong("a StorageClass name (\"\" for none) or {name, provisioner}")),
        }
    }

    /// CSI drivers: a list of `{name, attachRequired}` (attachRequired defaults to true, as
    /// the CSIDriver's does).
    pub fn drivers(&self) -> Result<Vec<DriverFact>, String> {
        const KEYS: &[&str] = &["name", "attachRequired"];
        let Value::Array(items) = self.value else {
            return Err(self.wrong("a list of {name, attachRequired}"));
        };
        let mut out = Vec::new();
        for item in items {
            let (mut name, mut attach_required) = (None, true);
            for s in Settings::read(item, KEYS)
                .map_err(|e| format!("{}: {e}", self.key))?
                .each()
            {
                let s = s.map_err(|e| format!("{}: {e}", self.key))?;
                match s.key {
                    "name" => name = Some(s.string("a CSI driver's name")?.to_string()),
                    _ => attach_required = s.boolean()?,
                }
            }
            let name = name.ok_or_else(|| format!("{}: a driver needs a name", self.key))?;
            out.push(DriverFact {
                name,
                attach_required,
            });
        }
        Ok(out)
    }

    /// Feature gates: a map of gate names pvlint models to true or false.
    pub fn feature_gates(&self) -> Result<BTreeMap<Feature, bool>, String> {
        let Value::Object(gates) = self.value else {
            return Err(self.wrong("a map of feature gates to true or false"));
        };
        let mut out = BTreeMap::new();
        for (name, on) in gates {
            let feature = Feature::named(name).ok_or_else(|| {
                format!(
                    "{}: {name} is not a feature gate pvlint models{}; it knows {}",
                    self.key,
                    hint(name, Feature::names()),
                    Feature::names().collect::<Vec<_>>().join(", ")
                )
            })?;
            let on = on
                .as_bool()
                .ok_or_else(|| format!("{}.{name}: expected true or false", self.key))?;
            out.insert(feature, on);
        }
        Ok(out)
    }

    /// A severity: `error`, `warning` or `info`.
    pub fn severity(&self) -> Result<Severity, String> {
        const SEVERITIES: &[&str] = &["error", "warning", "info"];
        let s = self.string("error, warning or info")?;
        Severity::parse(s).ok_or_else(|| {
            format!(
                "{}: \"{s}\" is not a severity{}; use one of {}",
                self.key,
                hint(s, SEVERITIES.iter().copied()),
                SEVERITIES.join(", ")
            )
        })
    }

    /// A list of rule ids, each one that exists.
    pub fn rule_ids(&self) -> Result<BTreeSet<String>, String> {
        let mut out = BTreeSet::new();
        for id in self.strings()? {
            if crate::rules::find(id).is_none() {
                return Err(crate::rules::unknown_rule(self.key, id));
            }
            out.insert(id.to_string());
        }
        Ok(out)
    }

    /// A map of rule ids to `off`, `on`, `info`, `warning` or `error` (YAML 1.1 reads a plain
    /// `off` as the boolean false and `on` as true); `on` leaves the rule as it is.
    pub fn rule_levels(&self) -> Result<BTreeMap<String, RuleLevel>, String> {
        let Value::Object(rules) = self.value else {
            return Err(self.wrong("a map of rule ids to off, info, warning or error"));
        };
        let mut out = BTreeMap::new();
        for (id, level) in rules {
            if crate::rules::find(id).is_none() {
                return Err(crate::rules::unknown_rule(self.key, id));
            }
            let level = match level {
                Value::Bool(false) => RuleLevel::Off,
                Value::Bool(true) => continue,
                Value::String(s) if s == "on" => continue,
                Value::String(s) => s.parse().map_err(|e| format!("{}.{id}: {e}", self.key))?,
                other => {
                    return Err(format!(
                        "{}.{id}: expected off, on, info, warning or error, found {other}",
                        self.key
                    ))
                }
            };
            out.insert(id.clone(), level);
        }
        Ok(out)
    }
}

/// What a JSON value is, in words ("a list").
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::did_you_mean;
    use serde_json::json;

    const KEYS: &[&str] = &["kubeVersion", "rules", "warnRules", "complete"];

    fn one(v: Value) -> Result<Setting<'static>, String> {
        let v: &'static Value = Box::leak(Box::new(v));
        Settings::read(v, KEYS)?.each().next().expect("one setting")
    }

    #[test]
    fn every_mistake_says_what_was_meant() {
        let e = one(json!({"kubeVersio": "1.31"})).unwrap_err();
        assert!(
            e.starts_with("unknown setting \"kubeVersio\" (did you mean kubeVersion?)"),
            "{e}"
        );
        let e = Settings::read(&json!(["x"]), KEYS).err().unwrap();
        assert!(e.contains("expected a map of settings"), "{e}");
        let s = one(json!({"kubeVersion": 1.3})).unwrap();
        assert!(s
            .kube_version()
            .unwrap_err()
            .contains("found the number 1.3; write the version quoted"),);
        let s = one(json!({"warnRules": ["rwo-rolling-surg"]})).unwrap();
        let e = s.rule_ids().unwrap_err();
        assert!(e.contains("did you mean rwo-rolling-surge?"), "{e}");
        let s = one(json!({"warnRules": "rwo-rolling-surge"})).unwrap();
        assert_eq!(
            s.rule_ids().unwrap_err(),
            "warnRules: expected a list of strings, found a string"
        );
        let s = one(json!({"rules": {"invalid-nfs-server": "loud"}})).unwrap();
        assert!(s
            .rule_levels()
            .unwrap_err()
            .contains("\"loud\" is not a rule setting"));
        let s = one(json!({"rules": {"invalid-nfs-server": false, "claim-lost": "on"}})).unwrap();
        assert_eq!(
            s.rule_levels().unwrap(),
            BTreeMap::from([("invalid-nfs-server".to_string(), RuleLevel::Off)])
        );
        assert!(Settings::read(&Value::Null, KEYS)
            .unwrap()
            .each()
            .next()
            .is_none());
    }

    #[test]
    fn did_you_mean_takes_prefixes_and_typos() {
        let ids = ["stale-claim-ref-uid", "claim-lost", "claim-pending"];
        assert_eq!(
            did_you_mean("stale", ids.iter().copied()),
            Some("stale-claim-ref-uid")
        );
        assert_eq!(
            did_you_mean("claim-lots", ids.iter().copied()),
            Some("claim-lost")
        );
        assert_eq!(did_you_mean("cl", ids.iter().copied()), None);
        // A typo in a prefix.
        assert_eq!(
            did_you_mean("stale-clam", ids.iter().copied()),
            Some("stale-claim-ref-uid")
        );
        assert_eq!(did_you_mean("nothing-like-it", ids.iter().copied()), None);
    }
}
