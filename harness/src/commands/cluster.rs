//! `pvlint cluster`: audit a live cluster (or a saved state of one).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use pvlint_core::profile::{Given, Key};
use pvlint_core::{render, KubeVersion, Options, Request, Source};

use crate::cluster::{header_version, read_live, render_state, ConnectArgs};
use crate::config::{self, Config};
use crate::exit::{Exit, FailOn};
use crate::output::{self, ColorFlag};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Only this namespace (cluster-scoped objects that concern it are still read).
    #[arg(
        short = 'n',
        long,
        value_name = "NAMESPACE",
        conflicts_with = "all_namespaces"
    )]
    namespace: Option<String>,
    /// Every namespace (the default).
    #[arg(short = 'A', long)]
    all_namespaces: bool,
    /// Also write the state that was read to FILE (a YAML List); `--cluster-state FILE` gives
    /// the same findings offline.
    #[arg(long, value_name = "FILE", conflicts_with = "cluster_state")]
    save: Option<PathBuf>,
    /// Audit a saved state (`--save`, or `kubectl get ... -A -o yaml`) instead of a live cluster.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["kubeconfig", "context", "namespace"])]
    cluster_state: Option<PathBuf>,
    /// With --cluster-state: the server's Kubernetes version, when the file's header does not say.
    #[arg(long, value_name = "VERSION", requires = "cluster_state", value_parser = KubeVersion::from_str)]
    kube_version: Option<KubeVersion>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit 1 when a finding is at least this severe [default: error, or failOn in .pvlint.yaml].
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// The settings file (default: .pvlint.yaml or .pvlint.yml in the working directory or the
    /// nearest parent). Its `rules` (off, or a severity) and `failOn` apply; the cluster itself
    /// says its version, classes and objects, so kubeVersion, defaultClass, complete and
    /// clusterState there are not used.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    rules: super::manifests::RuleArgs,
    #[command(flatten)]
    color: ColorFlag,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    /// wgpolicyk8s.io/v1alpha2 PolicyReport and ClusterPolicyReport objects (YAML), for kubectl apply.
    Policyreport,
}

/// The state to audit, how to name it, and its Kubernetes version.
struct Audited {
    source: Source,
    version: KubeVersion,
    /// What the human view's heading names.
    what: String,
    /// Where the version came from, when the state itself says it (the cluster, a saved
    /// state's header): a settings file's kubeVersion that differs is then named.
    version_from: Option<String>,
}

pub fn run(args: Args) -> Exit {
    audit(args).unwrap_or_else(|failed| failed)
}

/// Err: the run failed, its error printed.
fn audit(args: Args) -> Result<Exit, Exit> {
    let cfg = config::lookup(args.config.as_deref()).map_err(output::error)?;
    let audited = match &args.cluster_state {
        Some(path) => saved(path, args.kube_version, &cfg),
        None => live(&args),
    }
    .map_err(output::error)?;
    // A settings file's kubeVersion is for offline runs: the cluster's (or the saved
    // state's) version decides here, and one that differs is named, not silently dropped.
    if let (Some(v), Some(from)) = (cfg.kube_version, &audited.version_from) {
        if v != audited.version {
            output::note(format_args!(
                "judging for Kubernetes {}, {from}, not kubeVersion {v} of {}",
                audited.version,
                cfg.path.display()
            ));
        }
    }
    let mut options = Options {
        kube_version: audited.version,
        rules: cfg.rules.clone(),
        ..Options::default()
    };
    args.rules.apply(&mut options.rules);
    // The profile: the cluster's own Nodes, CSIDrivers and default class (read from its
    // state), its version from where it came; the settings file's feature gates, which the
    // API does not show.
    let from = match &audited.version_from {
        Some(_) => Given::ClusterState(audited.source.name.to_string()),
        None if args.kube_version.is_some() => Given::Flag("--kube-version".into()),
        None if cfg.kube_version.is_some() => cfg.given(),
        None => Given::Default,
    };
    if from != Given::Default {
        options.cluster.from.insert(Key::KubeVersion, from);
    }
    let mut from_settings = Options::default();
    cfg.apply_cluster(&mut from_settings);
    if !from_settings.cluster.feature_gates.is_empty() {
        options.cluster.feature_gates = from_settings.cluster.feature_gates;
        options.cluster.from.insert(Key::FeatureGates, cfg.given());
    }
    let report = pvlint_core::api::lint(&Request {
        cluster: vec![audited.source],
        options,
        audit: true,
        ..Request::default()
    });
    let out = match args.format {
        Format::Json => render::json(&report),
        Format::Policyreport => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            render::yaml(&render::policy_reports(&report, now))
        }
        Format::Human => render::human_cluster(
            &report,
            &audited.what,
            render::HumanOptions {
                color: args.color.enabled(),
                width: output::width(),
            },
        ),
    };
    if let Err(e) = output::write(&out) {
        return Err(output::cannot_write(e));
    }
    let threshold = args
        .fail_on
        .or(cfg.fail_on)
        .unwrap_or(FailOn::Error)
        .threshold();
    Ok(Exit::for_findings(report.max_severity(), threshold))
}

/// `--cluster-state FILE`: its version is --kube-version, else the one its header records,
/// else the settings file's kubeVersion, else pvlint's default.
fn saved(path: &Path, flag: Option<KubeVersion>, cfg: &Config) -> Result<Audited, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--cluster-state {}: {e}", path.display()))?;
    let (version, read_from_state) = match (flag, header_version(&text)) {
        (Some(v), _) => (v, false),
        (None, Some(Ok(v))) => (v, true),
        (None, Some(Err(e))) => return Err(format!("{}: {e}", path.display())),
        (None, None) => (cfg.kube_version.unwrap_or(KubeVersion::DEFAULT), false),
    };
    Ok(Audited {
        what: format!("{} (Kubernetes {version})", path.display()),
        version_from: read_from_state.then(|| format!("the version {} records", path.display())),
        source: Source::new(path.display().to_string(), text),
        version,
    })
}

/// The live cluster (saved with `--save FILE`); its warnings printed.
fn live(args: &Args) -> Result<Audited, String> {
    let scan = read_live(&args.connect, args.namespace.clone())?;
    for w in &scan.warnings {
        output::warning(w);
    }
    let text = render_state(&scan);
    let name = match &args.save {
        Some(p) => {
            std::fs::write(p, &text).map_err(|e| format!("--save {}: {e}", p.display()))?;
            p.display().to_string()
        }
        None => format!("<cluster {}>", scan.context),
    };
    Ok(Audited {
        source: Source::new(name, text),
        version: scan.version,
        what: scan.describe(),
        version_from: Some("the cluster's version".to_string()),
    })
}
