//! What `lint` and `simulate` share: the simulated cluster's settings (flags over
//! `.pvlint.yaml`), the engine choice, and reading the manifests and the cluster state.

use std::path::PathBuf;
use std::str::FromStr;

use std::collections::BTreeMap;

use pvlint_core::profile::{Given, Key, Nodes, Snapshotter};
use pvlint_core::version::Feature;
use pvlint_core::{FieldValidation, KubeVersion, Options, Source};

use crate::config::{self, Config};
use crate::engine::{self, Engine};
use crate::exit::Exit;
use crate::inputs::{self, Loaded};
use crate::output;

/// Settings of the simulated cluster, shared by `lint` and `simulate`.
#[derive(clap::Args)]
pub struct ClusterArgs {
    /// The cluster's current objects: `kubectl get pv,pvc,storageclass,csidriver -A -o yaml`.
    #[arg(long, value_name = "FILE")]
    cluster_state: Option<String>,
    /// The cluster's default StorageClass, when the input defines none.
    #[arg(long, value_name = "NAME", conflicts_with = "no_default_class")]
    default_class: Option<String>,
    /// The cluster has no default StorageClass (claims without storageClassName stay unset).
    #[arg(long)]
    no_default_class: bool,
    /// Kubernetes version of the target cluster (e.g. 1.31). Default: a current release.
    #[arg(long, value_name = "VERSION", value_parser = KubeVersion::from_str)]
    pub(super) kube_version: Option<KubeVersion>,
    /// Settings file (default: the nearest .pvlint.yaml in the working directory or above).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// How the manifests are applied: strict (kubectl's default: the API server rejects an
    /// object with an unknown field) or warn (kubectl --validate=warn, Helm: the field is
    /// dropped).
    #[arg(long, value_name = "MODE", value_parser = FieldValidation::from_str)]
    validate: Option<FieldValidation>,
    /// kube-controller-manager runs with --enable-hostpath-provisioner (local development
    /// clusters): kubernetes.io/host-path classes provision volumes.
    #[arg(long)]
    enable_hostpath_provisioner: bool,
    /// The target cluster's nodes: one (kind, k3d, minikube), several (the default profile's)
    /// or zones (several nodes in several zones).
    #[arg(long, value_name = "LAYOUT", value_parser = ["one", "several", "zones"])]
    nodes: Option<String>,
    /// Every apply set of the input goes to this one cluster: classes, CSIDrivers and volumes
    /// one directory defines are there when another is applied (a GitOps repository of one
    /// cluster). By default sets applied apart never meet.
    #[arg(long)]
    same_cluster: bool,
    /// Feature gates set other than the Kubernetes version's default, as the components take
    /// them: NAME=true|false, comma-separated (HonorPVReclaimPolicy=false).
    #[arg(long, value_name = "GATES", value_parser = parse_gates)]
    feature_gates: Option<BTreeMap<Feature, bool>>,
    /// The release of the cluster's CSI external-snapshotter (8.2): from 6.0 it serves
    /// snapshot.storage.k8s.io/v1 only.
    #[arg(long, value_name = "VERSION", value_parser = Snapshotter::from_str)]
    snapshotter: Option<Snapshotter>,
}

/// `--feature-gates A=true,B=false`, through the settings reader's words.
fn parse_gates(s: &str) -> Result<BTreeMap<Feature, bool>, String> {
    let mut map = serde_json::Map::new();
    for pair in s.split(',').filter(|p| !p.trim().is_empty()) {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("\"{pair}\": write NAME=true or NAME=false"))?;
        let on: bool = value
            .trim()
            .parse()
            .map_err(|_| format!("\"{pair}\": write NAME=true or NAME=false"))?;
        map.insert(name.trim().to_string(), serde_json::Value::Bool(on));
    }
    let value = serde_json::Value::Object(map);
    pvlint_core::settings::Setting {
        key: "--feature-gates",
        value: &value,
    }
    .feature_gates()
}

impl ClusterArgs {
    /// The settings file: `--config`, else the nearest `.pvlint.yaml`; Err: printed.
    pub fn settings(&self) -> Result<Config, Exit> {
        config::lookup(self.config.as_deref()).map_err(output::error)
    }

    /// Flags first, then the settings file; each value of the cluster profile records where
    /// it came from.
    pub fn options(&self, complete: bool, cfg: &Config) -> Options {
        let mut o = Options {
            rules: cfg.rules.clone(),
            field_validation: self.validate.unwrap_or_default(),
            hostpath_provisioner: self.enable_hostpath_provisioner,
            ..Options::default()
        };
        cfg.apply_cluster(&mut o);
        let flag = |o: &mut Options, key: Key, name: &str| {
            o.cluster.from.insert(key, Given::Flag(name.to_string()));
        };
        if let Some(v) = self.kube_version {
            o.kube_version = v;
            flag(&mut o, Key::KubeVersion, "--kube-version");
        }
        if complete {
            o.complete = true;
            flag(&mut o, Key::Complete, "--complete");
        }
        if self.no_default_class {
            o.default_class = Some(String::new());
            o.cluster.default_provisioner = None;
            flag(&mut o, Key::DefaultClass, "--no-default-class");
        } else if let Some(c) = &self.default_class {
            o.default_class = Some(c.clone());
            o.cluster.default_provisioner = None;
            flag(&mut o, Key::DefaultClass, "--default-class");
        }
        if let Some(n) = self.nodes.as_deref().and_then(Nodes::parse) {
            o.cluster.nodes = Some(n);
            flag(&mut o, Key::Nodes, "--nodes");
        }
        if self.same_cluster {
            o.cluster.same_cluster = true;
            flag(&mut o, Key::SameCluster, "--same-cluster");
        }
        if let Some(s) = self.snapshotter {
            o.cluster.snapshotter = Some(s);
            flag(&mut o, Key::Snapshotter, "--snapshotter");
        }
        if let Some(gates) = &self.feature_gates {
            o.cluster
                .feature_gates
                .extend(gates.iter().map(|(&f, &on)| (f, on)));
            flag(&mut o, Key::FeatureGates, "--feature-gates");
        }
        o
    }

    /// The cluster-state sources (`--cluster-state`, else the settings file's), or the error
    /// line to print.
    fn state(&self, cfg: &Config) -> Result<Vec<Source>, String> {
        let path = match (&self.cluster_state, &cfg.cluster_state) {
            (Some(p), _) => p.clone(),
            (None, Some(p)) => p.display().to_string(),
            (None, None) => return Ok(Vec::new()),
        };
        let loaded = inputs::load(std::slice::from_ref(&path));
        match loaded.errors.first() {
            Some(e) => Err(format!("--cluster-state {e}")),
            None => Ok(loaded.sources),
        }
    }
}

/// Where the lint core runs.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// Run the lint core natively or as the WASI module under wasmtime (same output).
    #[arg(long, value_enum, default_value_t = EngineKind::Native)]
    engine: EngineKind,
    /// The WASI module for --engine wasm (default: $PVLINT_WASM_MODULE, else found beside pvlint)
    ///
    /// Looked for in this order: this option; $PVLINT_WASM_MODULE (or the older
    /// $PVLINT_WASI_MODULE); pvlint_wasm.wasm in the pvlint executable's directory;
    /// target/wasm32-wasip1/wasi-release/pvlint_wasm.wasm in the source tree pvlint was built
    /// from.
    ///
    /// Build it with `rustup target add wasm32-wasip1`, then
    /// `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`.
    ///
    /// It is compiled for this machine on first use (a few hundred milliseconds) and cached in
    /// $PVLINT_CACHE_DIR, else $XDG_CACHE_HOME/pvlint, else ~/.cache/pvlint.
    #[arg(long, value_name = "FILE")]
    wasm_module: Option<PathBuf>,
}

/// Where the lint core runs.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EngineKind {
    /// Compiled into this binary.
    Native,
    /// The WASI core module under wasmtime: the module browsers and other hosts run (see
    /// --wasm-module).
    Wasm,
}

impl EngineArgs {
    /// The engine asked for; Err: printed.
    pub fn open(&self) -> Result<Box<dyn Engine>, Exit> {
        let opened: Result<Box<dyn Engine>, String> = match self.engine {
            EngineKind::Native if self.wasm_module.is_some() => {
                Err("--wasm-module is for --engine wasm".into())
            }
            EngineKind::Native => Ok(Box::new(engine::Native)),
            #[cfg(feature = "wasm-engine")]
            EngineKind::Wasm => engine::locate(self.wasm_module.as_deref())
                .and_then(|path| engine::Wasm::open(&path))
                .map(|wasm| Box::new(wasm) as Box<dyn Engine>),
            #[cfg(not(feature = "wasm-engine"))]
            EngineKind::Wasm => Err(engine::NOT_BUILT.into()),
        };
        opened.map_err(output::error)
    }
}

/// `--enable RULE` and `--disable RULE`: rules on or off for this run, over the settings file.
#[derive(clap::Args)]
pub struct RuleArgs {
    /// Turn a rule off for this run (repeat, or separate with commas).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = rule_id)]
    disable: Vec<String>,
    /// Turn a rule on that the settings file turns off (repeat, or separate with commas).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = rule_id)]
    enable: Vec<String>,
}

/// A rule id that exists; else what was meant.
fn rule_id(s: &str) -> Result<String, String> {
    match pvlint_core::rules::find(s) {
        Some(r) => Ok(r.id.to_string()),
        None => Err(format!(
            "no rule \"{s}\"{}; `pvlint rules` lists them",
            pvlint_core::settings::hint(s, pvlint_core::rules().iter().map(|r| r.id))
        )),
    }
}

impl RuleArgs {
    /// The flags over the settings file's `rules`: `--disable` turns a rule off, `--enable`
    /// back on at its own severity (or the severity the file gives it).
    pub fn apply(&self, rules: &mut BTreeMap<String, pvlint_core::RuleLevel>) {
        for id in &self.enable {
            if rules.get(id) == Some(&pvlint_core::RuleLevel::Off) {
                rules.remove(id);
            }
        }
        for id in &self.disable {
            rules.insert(id.clone(), pvlint_core::RuleLevel::Off);
        }
    }
}

/// `--allow-empty`: an input without a single document is not an error.
#[derive(clap::Args)]
pub struct EmptyArgs {
    /// Accept an input that holds no YAML or JSON document at all (by default it is an error,
    /// exit 2: a `helm template` or `kustomize build` that failed leaves an empty pipe).
    #[arg(long)]
    pub allow_empty: bool,
}

/// Reads the paths and the cluster state, printing errors. Err: nothing to work on (exit 2):
/// no file, or (unless `allow_empty`) not a single document in the files.
pub fn load(
    paths: &[String],
    cluster: &ClusterArgs,
    cfg: &Config,
    empty: &EmptyArgs,
) -> Result<(Loaded, Vec<Source>), Exit> {
    let loaded = inputs::load(paths);
    for e in &loaded.errors {
        output::error(e);
    }
    let state = cluster.state(cfg).map_err(output::error)?;
    if loaded.sources.is_empty() {
        return Err(output::error(
            "nothing to lint (no .yaml, .yml or .json files in the given paths)",
        ));
    }
    if !empty.allow_empty
        && loaded.errors.is_empty()
        && loaded.sources.iter().all(pvlint_core::api::is_blank)
    {
        let names: Vec<&str> = loaded.sources.iter().map(|s| s.name.as_str()).collect();
        return Err(output::error(format_args!(
            "the input is empty: no YAML or JSON document in {}. If a renderer wrote it (`helm template ... | pvlint lint -`), it probably failed: run the pipeline with `set -o pipefail`. Pass --allow-empty if an empty input is fine",
            names.join(", ")
        )));
    }
    Ok((loaded, state))
}

/// Exit 2 when some path could not be read (the others were still worked on).
pub fn unread(loaded: &Loaded) -> Exit {
    if loaded.errors.is_empty() {
        Exit::Clean
    } else {
        Exit::Error
    }
}
