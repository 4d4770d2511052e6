//! `pvlint`: the command-line adapter around pvlint-core. All I/O lives here.

use pvlint::{engine, inputs};

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use pvlint_core::{render, KubeVersion, Options, Severity};

#[derive(Parser)]
#[command(
    name = "pvlint",
    version,
    about = "Catches the Kubernetes storage mistakes that lose data or hang rollouts, and says what the cluster would do",
    after_help = "Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage or I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lint manifests: files, directories (recursive: .yaml, .yml, .json) or - for stdin.
    Lint(LintArgs),
    /// List every rule.
    Rules {
        #[arg(long, value_enum, default_value_t = RulesFormat::Table)]
        format: RulesFormat,
    },
    /// Predict what the PV controller does with the manifests: every claim's and volume's
    /// final phase, the events, and what happens to the storage.
    Simulate(SimulateArgs),
    /// Audit a live cluster (or a state saved with --save): what is Lost, Pending, Released,
    /// Failed or stuck attached now, and the same hazards `lint` finds, on the cluster's objects.
    Cluster(pvlint::cluster::command::Args),
    /// Show a rule's documentation.
    Explain {
        /// Rule id, e.g. stale-claim-ref-uid.
        rule: String,
    },
}

/// Settings of the simulated cluster, shared by `lint` and `simulate`.
#[derive(clap::Args)]
struct ClusterArgs {
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
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    kube_version: Option<KubeVersion>,
}

#[derive(clap::Args)]
struct SimulateArgs {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Then run an operation and show the state after it (repeatable, in order):
    /// 'delete pv/NAME', 'delete pvc/NAMESPACE/NAME', 'remove-claimref pv/NAME',
    /// 'remove-finalizers pv/NAME', 'apply FILE'.
    #[arg(long, value_name = "OPERATION")]
    then: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// Run the lint core natively or as the WASI module under wasmtime.
    #[arg(long, value_enum, default_value_t = EngineKind::Native)]
    engine: EngineKind,
}

#[derive(clap::Args)]
struct LintArgs {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit 1 when a finding is at least this severe.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// The input holds every object that matters: names not found in it do not exist.
    #[arg(long)]
    complete: bool,
    /// Lint every file on its own: objects in one file do not see objects in another.
    #[arg(long)]
    each_file: bool,
    /// Read the cluster's current state live (kubeconfig, --context) and predict what applying
    /// the manifests to it does; its server version decides unless --kube-version is given.
    #[arg(long, conflicts_with_all = ["cluster_state", "each_file"])]
    against_cluster: bool,
    #[command(flatten)]
    connect: pvlint::cluster::command::ConnectArgs,
    /// Run the lint core natively or as the WASI module under wasmtime.
    #[arg(long, value_enum, default_value_t = EngineKind::Native)]
    engine: EngineKind,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

fn parse_version(s: &str) -> Result<KubeVersion, String> {
    s.parse()
}

/// Where the lint core runs.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineKind {
    /// Compiled into this binary.
    Native,
    /// The WASI core module, under wasmtime (the same module browsers and other hosts run).
    Wasm,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesFormat {
    Table,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Lint(args) => lint(args),
        Command::Simulate(args) => simulate(args),
        Command::Cluster(args) => pvlint::cluster::command::run(args),
        Command::Rules { format } => {
            let out = match format {
                RulesFormat::Table => render::rules_table(),
                RulesFormat::Markdown => render::rules_markdown(),
                RulesFormat::Json => {
                    let mut s = render::rules_json(pvlint_core::rules());
                    s.push('\n');
                    s
                }
            };
            print(&out)
        }
        Command::Explain { rule } => match pvlint_core::rules::find(&rule) {
            Some(r) => print(&render::explain(r)),
            None => {
                let ids = || pvlint_core::rules().iter().map(|r| r.id);
                let hint = ids()
                    .find(|id| rule.len() >= 4 && id.starts_with(rule.as_str()))
                    .or_else(|| pvlint_core::did_you_mean(&rule, ids()))
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                eprintln!("pvlint: unknown rule \"{rule}\"{hint}; `pvlint rules` lists them all");
                ExitCode::from(2)
            }
        },
    }
}

/// Writes to stdout; a closed pipe (`pvlint ... | head`) is not an error.
fn print(s: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pvlint: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}

impl ClusterArgs {
    fn options(&self, complete: bool) -> Options {
        Options {
            kube_version: self.kube_version.unwrap_or(KubeVersion::DEFAULT),
            complete,
            default_class: if self.no_default_class {
                Some(String::new())
            } else {
                self.default_class.clone()
            },
        }
    }

    /// The cluster-state sources, or the error line to print.
    fn state(&self) -> Result<Vec<pvlint_core::Source>, String> {
        let Some(path) = &self.cluster_state else {
            return Ok(Vec::new());
        };
        let loaded = inputs::load(std::slice::from_ref(path));
        match loaded.errors.first() {
            Some(e) => Err(format!("--cluster-state {e}")),
            None => Ok(loaded.sources),
        }
    }
}

/// Loads paths and cluster state, printing errors. None: nothing to work on (exit 2).
fn load_inputs(
    paths: &[String],
    cluster: &ClusterArgs,
) -> Option<(inputs::Loaded, Vec<pvlint_core::Source>)> {
    let loaded = inputs::load(paths);
    for e in &loaded.errors {
        eprintln!("pvlint: error: {e}");
    }
    let state = match cluster.state() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pvlint: error: {e}");
            return None;
        }
    };
    if loaded.sources.is_empty() {
        eprintln!(
            "pvlint: error: nothing to lint (no .yaml, .yml or .json files in the given paths)"
        );
        return None;
    }
    Some((loaded, state))
}

/// Runs a request through the WASI module; returns the parsed answer and its exact JSON text.
fn in_wasm<T: serde::de::DeserializeOwned>(
    export: &str,
    sources: &[pvlint_core::Source],
    cluster: &[pvlint_core::Source],
    options: &Options,
    each_file: bool,
    operations: &[pvlint_core::Operation],
) -> Result<(T, String), String> {
    let named = |list: &[pvlint_core::Source]| -> Vec<serde_json::Value> {
        list.iter()
            .map(|s| serde_json::json!({"name": s.name, "text": s.text}))
            .collect()
    };
    let request = serde_json::json!({
        "sources": named(sources),
        "cluster": named(cluster),
        "options": options,
        "eachFile": each_file,
        "operations": operations,
    })
    .to_string();
    let answer = engine::WasmCore::get()?.call(export, &request)?;
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(&answer) {
        if let Some(e) = m.get("error").and_then(|e| e.as_str()) {
            return Err(format!("the WASI module refused the request: {e}"));
        }
    }
    let parsed = serde_json::from_str(&answer)
        .map_err(|e| format!("unexpected answer from the WASI module: {e}"))?;
    Ok((parsed, answer))
}

fn simulate(args: SimulateArgs) -> ExitCode {
    let Some((loaded, state)) = load_inputs(&args.paths, &args.cluster) else {
        return ExitCode::from(2);
    };
    let options = args.cluster.options(false);
    let mut operations = Vec::new();
    for t in &args.then {
        match t.parse::<pvlint_core::Operation>() {
            Ok(pvlint_core::Operation::Apply { sources }) => {
                let files = inputs::load(&[sources[0].name.clone()]);
                if let Some(e) = files.errors.first() {
                    eprintln!("pvlint: error: --then '{t}': {e}");
                    return ExitCode::from(2);
                }
                operations.push(pvlint_core::Operation::Apply {
                    sources: files.sources,
                });
            }
            Ok(op) => operations.push(op),
            Err(e) => {
                eprintln!("pvlint: error: --then: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let (report, json) = if args.engine == EngineKind::Wasm {
        match in_wasm(
            "pvlint_simulate",
            &loaded.sources,
            &state,
            &options,
            false,
            &operations,
        ) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("pvlint: error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        let request = pvlint_core::Request {
            sources: loaded.sources.clone(),
            cluster: state,
            options,
            each_file: false,
            operations,
            audit: false,
        };
        match pvlint_core::api::simulate(&request) {
            Ok(r) => {
                let j = render::simulation_json(&r);
                (r, j)
            }
            Err(e) => {
                eprintln!("pvlint: error: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let out = match args.format {
        Format::Json => json,
        Format::Human => render::simulation_table(&report),
    };
    let written = print(&out);
    if written != ExitCode::SUCCESS || !loaded.errors.is_empty() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

fn lint(args: LintArgs) -> ExitCode {
    let Some((loaded, mut state)) = load_inputs(&args.paths, &args.cluster) else {
        return ExitCode::from(2);
    };
    let mut options = args.cluster.options(args.complete);
    if args.against_cluster {
        let scan = match pvlint::cluster::command::read_live(&args.connect, None) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("pvlint: error: {e}");
                return ExitCode::from(2);
            }
        };
        for w in &scan.warnings {
            eprintln!("pvlint: warning: {w}");
        }
        if args.cluster.kube_version.is_none() {
            options.kube_version = scan.version;
        }
        state = vec![pvlint_core::Source::new(
            format!("<cluster {}>", scan.context),
            pvlint::cluster::render_state(&scan),
        )];
    } else if args.connect.kubeconfig.is_some() || args.connect.context.is_some() {
        eprintln!("pvlint: error: --kubeconfig and --context need --against-cluster");
        return ExitCode::from(2);
    }
    let (report, json) = if args.engine == EngineKind::Wasm {
        match in_wasm(
            "pvlint_lint",
            &loaded.sources,
            &state,
            &options,
            args.each_file,
            &[],
        ) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("pvlint: error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        let r = pvlint_core::api::lint(&pvlint_core::Request {
            sources: loaded.sources.clone(),
            cluster: state,
            options,
            each_file: args.each_file,
            operations: Vec::new(),
            audit: false,
        });
        let j = render::json(&r);
        (r, j)
    };
    let out = match args.format {
        Format::Json => json,
        Format::Human => {
            let color = match args.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            render::human(&report, &loaded.sources, render::HumanOptions { color })
        }
    };
    let written = print(&out);
    if written != ExitCode::SUCCESS || !loaded.errors.is_empty() {
        return ExitCode::from(2);
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    match (threshold, report.max_severity()) {
        (Some(t), Some(m)) if m >= t => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
