//! What every entry point takes: the manifests, the cluster state, the options and the
//! what-if operations ([`Request`], [`Operation`]), from JSON or from the CLI's words.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::options::Options;
use crate::source::Source;

/// The keys of a request's JSON form (`profile` is read apart: see [`Request::from_value`]).
pub const REQUEST_KEYS: &[&str] = &[
    "sources",
    "cluster",
    "options",
    "profile",
    "eachFile",
    "together",
    "audit",
    "operations",
];

/// The keys of `options`.
pub const OPTION_KEYS: &[&str] = &[
    "kubeVersion",
    "complete",
    "defaultClass",
    "rules",
    "fieldValidation",
    "hostpathProvisioner",
    "cluster",
];

/// What every entry point takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Request {
    /// The manifests, each a named text (`{"name": "pv.yaml", "text": "..."}`).
    pub sources: Vec<Source>,
    /// The cluster's current objects (`kubectl get pv,pvc,storageclass,csidriver -A -o yaml`).
    pub cluster: Vec<Source>,
    pub options: Options,
    /// Lint each source on its own (`pvlint lint --each-file`).
    pub each_file: bool,
    /// Lint every source as one apply set (`pvlint lint --together`). By default each
    /// directory, each kustomization root and standard input is one (see [`crate::applyset`]).
    pub together: bool,
    /// Also judge the cluster state's own objects, as a live cluster (`pvlint cluster`): the
    /// cluster-only rules (claim-lost, claim-pending, volume-released, volume-failed,
    /// stale-volume-attachment) and the `lint` rules that apply to existing objects, with
    /// findings that point at the cluster's objects. `eachFile` is ignored.
    pub audit: bool,
    /// What-if operations for `simulate`, in order.
    pub operations: Vec<Operation>,
}

/// A what-if operation, as an admin would run it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "op", deny_unknown_fields)]
pub enum Operation {
    /// `kubectl delete pv NAME`.
    DeletePv { name: String },
    /// `kubectl delete pvc -n NAMESPACE NAME`.
    DeletePvc { namespace: String, name: String },
    /// `kubectl delete pod -n NAMESPACE NAME`: a Pod of the input; its claims are no longer in
    /// use (a claim deleted while the pod ran goes now).
    DeletePod { namespace: String, name: String },
    /// `kubectl scale sts -n NAMESPACE NAME --replicas=N`: a scale-down releases the claims of
    /// the ordinals it removes (and deletes them under `whenScaled: Delete`); a scale-up
    /// creates or reuses them.
    ScaleStatefulSet {
        namespace: String,
        name: String,
        replicas: i64,
    },
    /// `kubectl delete sts -n NAMESPACE NAME`: its pods go; its claims too under
    /// `whenDeleted: Delete`.
    DeleteStatefulSet { namespace: String, name: String },
    /// Remove spec.claimRef from a volume (how an admin makes a Released volume Available).
    RemoveClaimRef { name: String },
    /// Remove every finalizer from a volume (how an admin unblocks a Terminating one).
    RemoveFinalizers { name: String },
    /// `kubectl apply -f` more manifests.
    Apply { sources: Vec<Source> },
}

/// The accepted forms of an operation, for usage errors.
pub const OPERATION_FORMS: &str = "'delete pv/NAME', 'delete pvc/NAMESPACE/NAME' (or pvc/NAME in default), 'delete pod/NAMESPACE/NAME', 'delete sts/NAMESPACE/NAME', 'scale sts/NAMESPACE/NAME REPLICAS', 'remove-claimref pv/NAME', 'remove-finalizers pv/NAME', 'apply FILE'";

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operation::DeletePv { name } => write!(f, "delete pv/{name}"),
            Operation::DeletePvc { namespace, name } => write!(f, "delete pvc/{namespace}/{name}"),
            Operation::DeletePod { namespace, name } => write!(f, "delete pod/{namespace}/{name}"),
            Operation::ScaleStatefulSet {
                namespace,
                name,
                replicas,
            } => write!(f, "scale sts/{namespace}/{name} {replicas}"),
            Operation::DeleteStatefulSet { namespace, name } => {
                write!(f, "delete sts/{namespace}/{name}")
            }
            Operation::RemoveClaimRef { name } => write!(f, "remove-claimref pv/{name}"),
            Operation::RemoveFinalizers { name } => write!(f, "remove-finalizers pv/{name}"),
            Operation::Apply { sources } => {
                let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
                write!(f, "apply {}", names.join(" "))
            }
        }
    }
}

/// Parses the CLI form of an operation. `apply FILE` parses to an `Apply` with one source
/// named FILE and no text: the host reads the file and fills it in.
impl FromStr for Operation {
    type Err = String;

    fn from_str(s: &str) -> Result<Operation, String> {
        let bad = || format!("\"{s}\" is not an operation; use one of {OPERATION_FORMS}");
        let (verb, arg) = s.trim().split_once(char::is_whitespace).ok_or_else(bad)?;
        let arg = arg.trim();
        let pv = |a: &str| {
            a.strip_prefix("pv/")
                .or_else(|| a.strip_prefix("persistentvolume/"))
                .filter(|n| !n.is_empty() && !n.contains('/'))
                .map(String::from)
        };
        match verb {
            "delete" => {
                if let Some(name) = pv(arg) {
                    return Ok(Operation::DeletePv { name });
                }
                let (kind, rest) = kind_and_rest(arg).ok_or_else(bad)?;
                let (namespace, name) = namespaced(rest).ok_or_else(bad)?;
                Ok(match kind {
                    Namespaced::Pod => Operation::DeletePod { namespace, name },
                    Namespaced::Claim => Operation::DeletePvc { namespace, name },
                    Namespaced::StatefulSet => Operation::DeleteStatefulSet { namespace, name },
                })
            }
            "scale" => {
                // `scale sts/NS/NAME 3` or kubectl's `--replicas=3`.
                let (target, count) = arg.split_once(char::is_whitespace).ok_or_else(bad)?;
                let count = count.trim();
                let count = count.strip_prefix("--replicas=").unwrap_or(count);
                let replicas = count
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (0..=i64::from(i32::MAX)).contains(n))
                    .ok_or_else(|| {
                        format!("\"{s}\": replicas must be a whole number from 0 to 2147483647")
                    })?;
                match kind_and_rest(target).ok_or_else(bad)? {
                    (Namespaced::StatefulSet, rest) => {
                        let (namespace, name) = namespaced(rest).ok_or_else(bad)?;
                        Ok(Operation::ScaleStatefulSet {
                            namespace,
                            name,
                            replicas,
                        })
                    }
                    _ => Err(bad()),
                }
            }
            "remove-claimref" => Ok(Operation::RemoveClaimRef {
                name: pv(arg).ok_or_else(bad)?,
            }),
            "remove-finalizers" => Ok(Operation::RemoveFinalizers {
                name: pv(arg).ok_or_else(bad)?,
            }),
            "apply" if !arg.is_empty() => Ok(Operation::Apply {
                sources: vec![Source::new(arg, "")],
            }),
            _ => Err(bad()),
        }
    }
}

/// The namespaced kinds an operation names.
enum Namespaced {
    Pod,
    Claim,
    StatefulSet,
}

/// `pod/…`, `pvc/…`, `sts/…` (and kubectl's longer names): the kind and what follows.
fn kind_and_rest(arg: &str) -> Option<(Namespaced, &str)> {
    let (kind, rest) = arg.split_once('/')?;
    let kind = match kind {
        "pod" | "pods" | "po" => Namespaced::Pod,
        "pvc" | "persistentvolumeclaim" | "persistentvolumeclaims" => Namespaced::Claim,
        "sts" | "statefulset" | "statefulsets" | "statefulset.apps" => Namespaced::StatefulSet,
        _ => return None,
    };
    Some((kind, rest))
}

/// `NAMESPACE/NAME`, or `NAME` in the default namespace.
fn namespaced(rest: &str) -> Option<(String, String)> {
    let (namespace, name) = match rest.split_once('/') {
        Some((ns, n)) => (ns, n),
        None => ("default", rest),
    };
    (!namespace.is_empty() && !name.is_empty() && !name.contains('/'))
        .then(|| (namespace.to_string(), name.to_string()))
}

impl Request {
    /// How the request's sources are split into apply sets.
    pub fn grouping(&self) -> crate::applyset::Grouping {
        use crate::applyset::Grouping;
        match (self.each_file, self.together) {
            (true, _) => Grouping::EachFile,
            (false, true) => Grouping::Together,
            (false, false) => Grouping::Directory,
        }
    }

    pub fn new(sources: Vec<Source>) -> Request {
        Request {
            sources,
            ..Request::default()
        }
    }

    /// Parses a JSON request; the error says what is wrong.
    pub fn from_json(json: &str) -> Result<Request, String> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("invalid request: {e}"))?;
        Request::from_value(value)
    }

    /// A request as API callers write it (the WASI module's JSON, the JavaScript API's
    /// objects): [`Request`]'s JSON form, each key checked with a "did you mean", and
    /// `profile`, the cluster profile as a settings file's `cluster:` section is written (read
    /// by the reader the CLI and the Kubewarden policy use:
    /// [`crate::settings::cluster_section`]). The error says what is wrong and where.
    pub fn from_value(mut value: serde_json::Value) -> Result<Request, String> {
        use crate::settings::{hint, type_name};
        let bad = |e: String| format!("invalid request: {e}");
        let map = match &mut value {
            serde_json::Value::Null => return Ok(Request::default()),
            serde_json::Value::Object(m) => m,
            other => {
                return Err(bad(format!(
                    "expected an object ({}), found {}",
                    REQUEST_KEYS.join(", "),
                    type_name(other)
                )))
            }
        };
        let unknown = |key: &str, known: &[&str], at: &str| {
            bad(format!(
                "unknown {at}\"{key}\"{}; the keys are {}",
                hint(key, known.iter().copied()),
                known.join(", ")
            ))
        };
        for key in map.keys() {
            if !REQUEST_KEYS.contains(&key.as_str()) {
                return Err(unknown(key, REQUEST_KEYS, "key "));
            }
        }
        // `null` is no options at all.
        if map.get("options").is_some_and(serde_json::Value::is_null) {
            map.remove("options");
        }
        if let Some(options) = map.get_mut("options") {
            match options {
                serde_json::Value::Object(o) => {
                    for key in o.keys() {
                        if !OPTION_KEYS.contains(&key.as_str()) {
                            return Err(unknown(key, OPTION_KEYS, "option "));
                        }
                    }
                    if let Some(rules) = o.get_mut("rules") {
                        // Read as the settings files read them (`on`, `false` for off), then
                        // written back as the levels the options hold.
                        let levels = crate::settings::Setting {
                            key: "options.rules",
                            value: rules,
                        }
                        .rule_levels()
                        .map_err(bad)?;
                        *rules = serde_json::to_value(levels).map_err(|e| bad(e.to_string()))?;
                    }
                }
                other => {
                    return Err(bad(format!(
                        "options: expected an object, found {}",
                        type_name(other)
                    )))
                }
            }
        }
        let profile = map.remove("profile");
        if let Some(profile) = profile.as_ref().and_then(|p| p.as_object()) {
            let in_options = |key: &str| map.get("options").is_some_and(|o| o.get(key).is_some());
            if let Some(key) = ["kubeVersion", "defaultClass", "complete"]
                .into_iter()
                .find(|k| profile.contains_key(*k) && in_options(k))
            {
                return Err(bad(format!(
                    "{key} is set twice, in options and in profile; keep the one in profile"
                )));
            }
        }
        let mut r: Request = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        if let Some(profile) = profile {
            crate::settings::cluster_section(
                &profile,
                &crate::profile::Given::Request,
                &mut r.options,
            )
            .map_err(|e| bad(format!("profile: {e}")))?;
        }
        crate::rules::check_settings(&r.options)?;
        if r.each_file && r.together {
            return Err("invalid request: eachFile and together exclude each other".into());
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an API caller gets wrong is an error that says what was meant, never ignored.
    #[test]
    fn api_requests_are_checked_key_by_key() {
        use serde_json::json;
        let err = |v: serde_json::Value| Request::from_value(v).unwrap_err();
        let e = err(json!({"options": {"compelte": true}}));
        assert!(
            e.contains("unknown option \"compelte\" (did you mean complete?)"),
            "{e}"
        );
        let e = err(json!({"eachFlie": true}));
        assert!(
            e.contains("unknown key \"eachFlie\" (did you mean eachFile?)"),
            "{e}"
        );
        let e = err(json!({"options": {"rules": {"rwo-roling-surge": "off"}}}));
        assert!(e.contains("did you mean rwo-rolling-surge?"), "{e}");
        let e = err(json!("rwo"));
        assert!(
            e.contains("expected an object") && e.contains("found a string"),
            "{e}"
        );
        let e = err(json!({"profile": {"nodes": "two"}}));
        assert!(e.contains("\"two\" is not a node layout"), "{e}");
        let e =
            err(json!({"options": {"kubeVersion": "1.31"}, "profile": {"kubeVersion": "1.30"}}));
        assert!(e.contains("kubeVersion is set twice"), "{e}");
        let r =
            Request::from_value(json!({"profile": {"nodes": "one", "defaultClass": "standard"}}))
                .unwrap();
        assert_eq!(r.options.cluster.nodes, Some(crate::profile::Nodes::One));
        assert_eq!(r.options.default_class.as_deref(), Some("standard"));
        assert_eq!(
            r.options.cluster.from.get(&crate::profile::Key::Nodes),
            Some(&crate::profile::Given::Request)
        );
        assert!(Request::from_value(serde_json::Value::Null).is_ok());
        assert!(Request::from_value(json!({"options": null})).is_ok());
        // Rule settings as the settings files write them: `on` leaves a rule as it is, `false`
        // turns it off.
        let r = Request::from_value(
            json!({"options": {"rules": {"claim-lost": "on", "invalid-nfs-server": false}}}),
        )
        .unwrap();
        assert_eq!(
            r.options.rules.get("invalid-nfs-server"),
            Some(&crate::options::RuleLevel::Off)
        );
        assert!(!r.options.rules.contains_key("claim-lost"));
    }

    #[test]
    fn operations_parse_and_print() {
        for (text, op) in [
            ("delete pv/a", Operation::DeletePv { name: "a".into() }),
            (
                "delete pvc/ns/c",
                Operation::DeletePvc {
                    namespace: "ns".into(),
                    name: "c".into(),
                },
            ),
            (
                "delete pvc/c",
                Operation::DeletePvc {
                    namespace: "default".into(),
                    name: "c".into(),
                },
            ),
            (
                "remove-claimref pv/a",
                Operation::RemoveClaimRef { name: "a".into() },
            ),
            (
                "remove-finalizers pv/a",
                Operation::RemoveFinalizers { name: "a".into() },
            ),
            (
                "delete pod/app/api",
                Operation::DeletePod {
                    namespace: "app".into(),
                    name: "api".into(),
                },
            ),
            (
                "delete sts/app/web",
                Operation::DeleteStatefulSet {
                    namespace: "app".into(),
                    name: "web".into(),
                },
            ),
            (
                "scale sts/app/web 3",
                Operation::ScaleStatefulSet {
                    namespace: "app".into(),
                    name: "web".into(),
                    replicas: 3,
                },
            ),
            (
                "scale statefulset/web --replicas=0",
                Operation::ScaleStatefulSet {
                    namespace: "default".into(),
                    name: "web".into(),
                    replicas: 0,
                },
            ),
        ] {
            assert_eq!(text.parse::<Operation>().unwrap(), op);
        }
        assert_eq!(
            "delete pvc/c".parse::<Operation>().unwrap().to_string(),
            "delete pvc/default/c"
        );
        for bad in [
            "delete",
            "delete deployment/x",
            "remove-claimref pvc/x",
            "drop pv/x",
            "delete pv/",
            "scale sts/app/web",
            "scale deployment/app/web 2",
            "delete sts/",
        ] {
            let e = bad.parse::<Operation>().unwrap_err();
            assert!(e.contains("delete pv/NAME"), "{e}");
        }
        for bad in ["scale sts/app/web many", "scale sts/app/web 3000000000"] {
            let e = bad.parse::<Operation>().unwrap_err();
            assert!(e.contains("replicas must be a whole number"), "{e}");
        }
    }
}
