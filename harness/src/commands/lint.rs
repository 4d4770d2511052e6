//! `pvlint lint`: the findings of manifests, offline or against a live cluster's state.

use pvlint_core::{render, Options, Request, Source};

use super::manifests::{self, ClusterArgs, EmptyArgs, EngineArgs, RuleArgs};
use crate::cluster::{self, ConnectArgs};
use crate::config::Config;
use crate::engine::{Answer, Print};
use crate::exit::{Exit, FailOn};
use crate::output::{self, ColorFlag};

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories or - (stdin). Default: the working directory.
    #[arg(value_name = "PATH")]
    paths: Vec<String>,
    /// human, concise (a line per finding), json (pvlint/v1), sarif (SARIF 2.1.0), github
    /// (workflow annotations), junit (JUnit XML test report) or gitlab (GitLab Code Quality).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    rules: RuleArgs,
    /// Exit 1 when a finding is at least this severe (default: error, or failOn in .pvlint.yaml).
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// The input holds every object that matters: names not found in it do not exist.
    #[arg(long)]
    complete: bool,
    /// Lint every file on its own: objects in one file do not see objects in another.
    #[arg(long)]
    each_file: bool,
    /// Lint all inputs as one apply set. By default each directory's files, each
    /// kustomization root and standard input are applied (and linted) apart, as with
    /// `kubectl apply -f DIR` / `-k DIR`.
    #[arg(long, conflicts_with = "each_file")]
    together: bool,
    /// Read the cluster's current state live (kubeconfig, --context) and predict what applying
    /// the manifests to it does; its server version decides unless --kube-version is given.
    #[arg(long, conflicts_with_all = ["cluster_state", "each_file"])]
    against_cluster: bool,
    /// Where the files of rendered input (Helm's `# Source:`, Kustomize's origin annotation) are
    /// relative to: findings then name the file in the repository and the line of the field in
    /// it (SARIF, GitHub annotations). Default: the working directory, the charts and the
    /// kustomizations below it.
    #[arg(long, value_name = "DIR")]
    source_root: Option<std::path::PathBuf>,
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    empty: EmptyArgs,
    #[command(flatten)]
    color: ColorFlag,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Sarif,
    Github,
    Junit,
    Gitlab,
    /// One line per finding: FILE:LINE:COL: SEVERITY[RULE] HEADLINE.
    Concise,
}

pub fn run(args: Args) -> Exit {
    lint(args).unwrap_or_else(|failed| failed)
}

/// Err: the run failed, its error printed.
fn lint(args: Args) -> Result<Exit, Exit> {
    let mut progress = crate::progress::Progress::start("reading the input");
    let engine = args.engine.open()?;
    let mut cfg = args.cluster.settings()?;
    if args.against_cluster {
        // The live cluster is the cluster state: the settings file's is not read.
        if let Some(p) = cfg.cluster_state.take() {
            output::note(format_args!(
                "--against-cluster reads the live cluster instead of clusterState {} (from {})",
                p.display(),
                cfg.path.display()
            ));
        }
    }
    let (mut loaded, mut state) = manifests::load(&args.paths, &args.cluster, &cfg, &args.empty)?;
    let mut options = args.cluster.options(args.complete, &cfg);
    args.rules.apply(&mut options.rules);
    if args.against_cluster {
        state = live_state(&args, &cfg, &mut options)?;
    } else if args.connect.kubeconfig.is_some() || args.connect.context.is_some() {
        return Err(output::error(
            "--kubeconfig and --context need --against-cluster",
        ));
    }
    let color = args.color.enabled();
    let print = match args.format {
        Format::Human => Print::Excerpts,
        Format::Json => Print::Json,
        Format::Sarif | Format::Github | Format::Junit | Format::Gitlab | Format::Concise => {
            Print::Plain
        }
    };
    // The request owns the sources (the texts, as large as the input) for the run; the human
    // view reads its excerpts from them afterwards.
    let mut request = Request {
        sources: std::mem::take(&mut loaded.sources),
        cluster: state,
        options,
        each_file: args.each_file,
        together: args.together,
        operations: Vec::new(),
        audit: false,
    };
    progress.stage(format!(
        "linting {} file{}",
        request.sources.len(),
        if request.sources.len() == 1 { "" } else { "s" }
    ));
    let linted = engine.lint(&mut request, print);
    progress.finish();
    let mut linted = linted.map_err(output::error)?;
    // Rendered input: its findings on the repository's files.
    if let Answer::Json(text) = &linted.answer {
        if text.contains("\"origin\"") {
            let report: pvlint_core::Report = serde_json::from_str(text)
                .map_err(|e| output::error(format_args!("the engine's answer: {e}")))?;
            linted.answer = Answer::Typed(report);
        }
    }
    if let Answer::Typed(report) = &mut linted.answer {
        crate::origins::resolve(report, args.source_root.as_deref());
    }
    let printed = match &linted.answer {
        Answer::Json(text) => output::print(text),
        // Written as they are produced: on a large input the JSON is twice the input's size,
        // the SARIF three times.
        Answer::Typed(report) => match args.format {
            Format::Json => output::print_with(|out| render::write_json(report, out)),
            Format::Sarif => output::print_with(|out| render::write_sarif(report, out)),
            Format::Github => output::print(&render::github(report)),
            Format::Junit => output::print(&render::junit(report)),
            Format::Gitlab => output::print(&render::gitlab(report)),
            Format::Concise => output::print(&render::concise(report)),
            Format::Human => output::print(&render::human(
                report,
                &request.sources,
                render::HumanOptions {
                    color,
                    width: output::width(),
                },
            )),
        },
    };
    if let Some(note) = loaded.hidden_note() {
        output::note(note);
    }
    let threshold = args
        .fail_on
        .or(cfg.fail_on)
        .unwrap_or(FailOn::Error)
        .threshold();
    Ok(printed
        .and(manifests::unread(&loaded))
        .and(Exit::for_findings(linted.worst, threshold)))
}

/// `--against-cluster`: the live state as the cluster state, and the server's version unless
/// `--kube-version` says otherwise. Err: printed.
fn live_state(args: &Args, cfg: &Config, options: &mut Options) -> Result<Vec<Source>, Exit> {
    let scan = cluster::read_live(&args.connect, None).map_err(output::error)?;
    for w in &scan.warnings {
        output::warning(w);
    }
    // A settings file's kubeVersion that the server's replaces is named, not silently dropped.
    if args.cluster.kube_version.is_none() {
        if let Some(v) = cfg.kube_version.filter(|&v| v != scan.version) {
            output::note(format_args!(
                "judging for the cluster's Kubernetes {}, not kubeVersion {} of {} (--kube-version overrides)",
                scan.version,
                v,
                cfg.path.display()
            ));
        }
        options.kube_version = scan.version;
        options.cluster.from.insert(
            pvlint_core::profile::Key::KubeVersion,
            pvlint_core::profile::Given::ClusterState(format!("<cluster {}>", scan.context)),
        );
    }
    Ok(vec![Source::new(
        format!("<cluster {}>", scan.context),
        cluster::render_state(&scan),
    )])
}
