//! `pvlint cluster`: audit a live cluster (or a saved state of one).

use std::path::PathBuf;
use std::str::FromStr;

use clap::ValueEnum;
use pvlint_core::{render, KubeVersion, Options, Request, Source};

pub use crate::exit::FailOn;

pub use super::{read_live, ConnectArgs};

use super::render_state;
use crate::exit::Exit;
use crate::output::{self, error, Color};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    /// wgpolicyk8s.io/v1alpha2 PolicyReport and ClusterPolicyReport objects (YAML), for kubectl apply.
    Policyreport,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Only this namespace (cluster-scoped objects that concern it are still read).
    #[arg(
        short = 'n',
        long,
        value_name = "NAMESPACE",
        conflicts_with = "all_namespaces"
    )]
    pub namespace: Option<String>,
    /// Every namespace (the default).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Also write the state that was read to FILE (a YAML List); `--cluster-state FILE` gives
    /// the same findings offline.
    #[arg(long, value_name = "FILE", conflicts_with = "cluster_state")]
    pub save: Option<PathBuf>,
    /// Audit a saved state (`--save`, or `kubectl get ... -A -o yaml`) instead of a live cluster.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["kubeconfig", "context", "namespace"])]
    pub cluster_state: Option<PathBuf>,
    /// With --cluster-state: the server's Kubernetes version, when the file's header does not say.
    #[arg(long, value_name = "VERSION", requires = "cluster_state", value_parser = KubeVersion::from_str)]
    pub kube_version: Option<KubeVersion>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit 1 when a finding is at least this severe [default: error, or failOn in .pvlint.yaml].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// The settings file (default: .pvlint.yaml or .pvlint.yml in the working directory or the
    /// nearest parent). Its `rules` (off, or a severity) and `failOn` apply; the cluster itself
    /// says its version, classes and objects, so kubeVersion, defaultClass, complete and
    /// clusterState there are not used.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

pub fn run(args: Args) -> Exit {
    let cfg = match crate::config::lookup(args.config.as_deref()) {
        Ok(c) => c,
        Err(e) => return error(e),
    };
    let options = |version| Options {
        kube_version: version,
        rules: cfg.rules.clone(),
        ..Options::default()
    };
    let (source, options, what) = match &args.cluster_state {
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return error(format!("--cluster-state {}: {e}", path.display())),
            };
            // --kube-version, else the version the saved state's header records, else the
            // settings file's kubeVersion, else pvlint's default.
            let (version, read_from_state) = match (args.kube_version, super::header_version(&text))
            {
                (Some(v), _) => (v, false),
                (None, Some(Ok(v))) => (v, true),
                (None, Some(Err(e))) => return error(format!("{}: {e}", path.display())),
                (None, None) => (cfg.kube_version.unwrap_or(KubeVersion::DEFAULT), false),
            };
            let what = format!("{} (Kubernetes {version})", path.display());
            let from_state =
                read_from_state.then(|| format!("the version {} records", path.display()));
            (
                Source::new(path.display().to_string(), text),
                options(version),
                (what, from_state),
            )
        }
        None => {
            let scan = match read_live(&args.connect, args.namespace.clone()) {
                Ok(s) => s,
                Err(e) => return error(e),
            };
            for w in &scan.warnings {
                output::warning(w);
            }
            let text = render_state(&scan);
            let name = match &args.save {
                Some(p) => {
                    if let Err(e) = std::fs::write(p, &text) {
                        return error(format!("--save {}: {e}", p.display()));
                    }
                    p.display().to_string()
                }
                None => format!("<cluster {}>", scan.context),
            };
            (
                Source::new(name, text),
                options(scan.version),
                (scan.describe(), Some("the cluster's version".to_string())),
            )
        }
    };
    // A settings file's kubeVersion is for offline runs: the cluster's (or the saved
    // state's) version decides here, and one that differs is named, not silently dropped.
    let (what, from_state) = what;
    if let (Some(v), Some(from)) = (cfg.kube_version, &from_state) {
        if v != options.kube_version {
            output::note(format_args!(
                "judging for Kubernetes {}, {from}, not kubeVersion {v} of {}",
                options.kube_version,
                cfg.path.display()
            ));
        }
    }
    let report = pvlint_core::api::lint(&Request {
        cluster: vec![source],
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
            &what,
            render::HumanOptions {
                color: args.color.enabled(),
            },
        ),
    };
    if let Err(e) = output::write(&out) {
        return error(format!("cannot write output: {e}"));
    }
    let threshold = args
        .fail_on
        .or(cfg.fail_on)
        .unwrap_or(FailOn::Error)
        .threshold();
    Exit::for_findings(report.max_severity(), threshold)
}
