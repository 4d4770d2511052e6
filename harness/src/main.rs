//! `pvlint`: the command-line adapter around pvlint-core. All I/O lives here.

use pvlint::exit::{Exit, FailOn};
use pvlint::output::{self, Color};
use pvlint::engine::{self, Answer, Engine, Print};
use pvlint::{admission, config, inputs};


use std::path::PathBuf;
use std::str::FromStr;

use clap::{Parser, Subcommand, ValueEnum};
use pvlint_core::{render, KubeVersion, Options};

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
    /// Make exported volumes and claims (`kubectl get pv,pvc -o yaml`) safe to apply to
    /// another cluster: strips server-populated fields and the source cluster's binding
    /// identity, keeps each volume pre-bound to its claim by name, sets Retain. Writes one
    /// document per object (stdout or --out DIR) and says what it changed on stderr.
    Migrate(MigrateArgs),
    /// Audit a live cluster (or a state saved with --save): what is Lost, Pending, Released,
    /// Failed or stuck attached now, and the same hazards `lint` finds, on the cluster's objects.
    Cluster(pvlint::cluster::command::Args),
    /// Show a rule's documentation.
    Explain {
        /// Rule id, e.g. stale-claim-ref-uid.
        rule: String,
    },
    /// Run the Kubewarden policy module on an admission request under a waPC host, as
    /// policy-server does. Exit status: 0 allowed, 1 denied, 2 error.
    AdmissionTest(AdmissionArgs),
    /// Kubewarden policy tools.
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
}

#[derive(clap::Args)]
struct AdmissionArgs {
    /// The policy module (.wasm), annotated with its metadata (`pvlint policy annotate`).
    #[arg(long, value_name = "FILE")]
    policy: std::path::PathBuf,
    /// An AdmissionReview as the API server sends it, or its bare AdmissionRequest (JSON or YAML).
    #[arg(long, value_name = "FILE")]
    request: std::path::PathBuf,
    /// The cluster the policy's lookups see (`kubectl get pv,pvc,storageclass,csidriver -A -o
    /// yaml`), or a kwctl replay session (`kwctl run --record-host-capabilities-interactions`).
    #[arg(long, value_name = "FILE")]
    cluster_state: Option<std::path::PathBuf>,
    /// The policy's settings (the `spec.settings` mapping), JSON or YAML.
    #[arg(long, value_name = "FILE")]
    settings: Option<std::path::PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Stop an evaluation that runs longer than this (epoch deadline).
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    timeout_ms: u64,
    /// Most memory the policy may use.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    max_memory_mib: usize,
}

#[derive(Subcommand)]
enum PolicyCommand {
    /// Write the module with its metadata in the `io.kubewarden.metadata` custom section,
    /// as `kwctl annotate` does, ready to push.
    Annotate {
        /// The policy module built for wasm32-wasip1.
        module: std::path::PathBuf,
        /// The metadata (wasm/kubewarden/metadata.yml).
        #[arg(long, value_name = "FILE")]
        metadata: std::path::PathBuf,
        /// Where to write the annotated module.
        #[arg(long, short, value_name = "FILE")]
        output: std::path::PathBuf,
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
    #[arg(long, value_name = "VERSION", value_parser = KubeVersion::from_str)]
    kube_version: Option<KubeVersion>,
    /// Settings file (default: the nearest .pvlint.yaml in the working directory or above).
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// How the manifests are applied: strict (kubectl's default: the API server rejects an
    /// object with an unknown field) or warn (kubectl --validate=warn, Helm: the field is
    /// dropped).
    #[arg(long, value_name = "MODE", value_parser = pvlint_core::FieldValidation::from_str)]
    validate: Option<pvlint_core::FieldValidation>,
    /// kube-controller-manager runs with --enable-hostpath-provisioner (local development
    /// clusters): kubernetes.io/host-path classes provision volumes.
    #[arg(long)]
    enable_hostpath_provisioner: bool,
}

#[derive(clap::Args)]
struct SimulateArgs {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Then run an operation and show the state after it (repeatable, in order):
    /// 'delete pv/NAME', 'delete pvc/NAMESPACE/NAME', 'delete pod/NAMESPACE/NAME',
    /// 'delete sts/NAMESPACE/NAME', 'scale sts/NAMESPACE/NAME REPLICAS',
    /// 'remove-claimref pv/NAME', 'remove-finalizers pv/NAME', 'apply FILE'.
    #[arg(long, value_name = "OPERATION")]
    then: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// The input holds every object that matters: names not found in it do not exist.
    #[arg(long)]
    complete: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(clap::Args)]
struct MigrateArgs {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Write one file per object into DIR (created if missing) instead of stdout.
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
    /// Print what changed and why, per object, on stdout (the YAML goes only to --out).
    #[arg(long)]
    explain: bool,
    /// Print the migration as JSON (schema pvlint-migrate/v1) instead of YAML.
    #[arg(long)]
    json: bool,
    /// Keep each volume's persistentVolumeReclaimPolicy (default: set Retain).
    #[arg(long)]
    keep_reclaim_policy: bool,
    /// Rename a StorageClass in claims and volumes (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    map_class: Vec<String>,
    /// Rename a namespace, in claims and in volumes' claimRefs (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    map_namespace: Vec<String>,
}

#[derive(clap::Args)]
struct LintArgs {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// human, json (pvlint/v1), sarif (SARIF 2.1.0) or github (workflow annotations).
    #[arg(long, value_enum, default_value_t = LintFormat::Human)]
    format: LintFormat,
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
    #[command(flatten)]
    connect: pvlint::cluster::command::ConnectArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

/// Where the lint core runs.
#[derive(clap::Args)]
struct EngineArgs {
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

impl EngineArgs {
    /// The engine asked for; Err: the line to print.
    fn open(&self) -> Result<Box<dyn Engine>, String> {
        match self.engine {
            EngineKind::Native if self.wasm_module.is_some() => {
                Err("--wasm-module is for --engine wasm".into())
            }
            EngineKind::Native => Ok(Box::new(engine::Native)),
            EngineKind::Wasm => {
                let path = engine::locate(self.wasm_module.as_deref())?;
                Ok(Box::new(engine::Wasm::open(&path)?))
            }
        }
    }
}

/// Where the lint core runs.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineKind {
    /// Compiled into this binary.
    Native,
    /// The WASI core module under wasmtime: the module browsers and other hosts run (see
    /// --wasm-module).
    Wasm,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LintFormat {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesFormat {
    Table,
    Json,
    Markdown,
}

/// glibc raises its mmap threshold to the size of every large block freed, up to 32 MiB, so
/// that later large blocks (the simulation's vectors, the JSON output) come from the heap,
/// past the freed small blocks of the YAML trees, which it cannot give back: a lint of a
/// large input then peaks 15% higher than it allocates (20,000 objects: 115.6 MB against
/// 100.7 MB with the threshold fixed at its default, 128 KiB; same speed). See
/// lint-core/benches/PROFILE.md.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator setting; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

fn main() -> Exit {
    tune_allocator();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and succeed; usage errors exit 2.
            let _ = e.print();
            return Exit::for_usage(&e);
        }
    };
    match cli.command {
        Command::Lint(args) => lint(args),
        Command::Simulate(args) => simulate(args),
        Command::Migrate(a) => pvlint::migrate_cmd::run(pvlint::migrate_cmd::Args {
            paths: a.paths,
            out: a.out,
            explain: a.explain,
            json: a.json,
            keep_reclaim_policy: a.keep_reclaim_policy,
            map_class: a.map_class,
            map_namespace: a.map_namespace,
        }),
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
            output::print(&out)
        }
        Command::AdmissionTest(a) => {
            finish(admission::cli::admission_test(&admission::cli::TestArgs {
                policy: &a.policy,
                request: &a.request,
                cluster_state: a.cluster_state.as_deref(),
                settings: a.settings.as_deref(),
                json: matches!(a.format, Format::Json),
                limits: admission::Limits {
                    timeout_ms: a.timeout_ms,
                    max_memory: a.max_memory_mib.saturating_mul(1 << 20),
                },
            }))
        }
        Command::Policy {
            command:
                PolicyCommand::Annotate {
                    module,
                    metadata,
                    output,
                },
        } => finish(admission::cli::annotate_module(&module, &metadata, &output)),
        Command::Explain { rule } => match pvlint_core::rules::find(&rule) {
            Some(r) => output::print(&render::explain(r)),
            None => {
                let ids = || pvlint_core::rules().iter().map(|r| r.id);
                let hint = ids()
                    .find(|id| rule.len() >= 4 && id.starts_with(rule.as_str()))
                    .or_else(|| pvlint_core::did_you_mean(&rule, ids()))
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                eprintln!("pvlint: unknown rule \"{rule}\"{hint}; `pvlint rules` lists them all");
                Exit::Error
            }
        },
    }
}

/// Prints a command's outcome and exits with its code.
fn finish(o: admission::cli::Outcome) -> Exit {
    eprint!("{}", o.stderr);
    output::print(&o.stdout).and(o.code)
}

impl ClusterArgs {
    /// The settings file: `--config`, else the nearest `.pvlint.yaml`.
    fn config(&self) -> Result<config::Config, String> {
        config::lookup(self.config.as_deref())
    }

    /// Flags first, then the settings file.
    fn options(&self, complete: bool, cfg: &config::Config) -> Options {
        Options {
            kube_version: self
                .kube_version
                .or(cfg.kube_version)
                .unwrap_or(KubeVersion::DEFAULT),
            complete: complete || cfg.complete == Some(true),
            rules: cfg.rules.clone(),
            default_class: if self.no_default_class {
                Some(String::new())
            } else {
                self.default_class
                    .clone()
                    .or_else(|| cfg.default_class.clone())
            },
            field_validation: self.validate.unwrap_or_default(),
            hostpath_provisioner: self.enable_hostpath_provisioner,
        }
    }

    /// The cluster-state sources, or the error line to print.
    fn state(&self, cfg: &config::Config) -> Result<Vec<pvlint_core::Source>, String> {
        let path = match (&self.cluster_state, &cfg.cluster_state) {
            (Some(p), _) => p.clone(),
            (None, Some(p)) => p.display().to_string(),
            (None, None) => return Ok(Vec::new()),
        };
        let path = &path;
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
    cfg: &config::Config,
) -> Option<(inputs::Loaded, Vec<pvlint_core::Source>)> {
    let loaded = inputs::load(paths);
    for e in &loaded.errors {
        output::error(e);
    }
    let state = match cluster.state(cfg) {
        Ok(s) => s,
        Err(e) => {
            output::error(e);
            return None;
        }
    };
    if loaded.sources.is_empty() {
        output::error("nothing to lint (no .yaml, .yml or .json files in the given paths)");
        return None;
    }
    Some((loaded, state))
}

/// The settings file, or the error printed.
fn settings(cluster: &ClusterArgs) -> Option<config::Config> {
    match cluster.config() {
        Ok(c) => Some(c),
        Err(e) => {
            output::error(e);
            None
        }
    }
}

/// Prints an error line; the run ends with exit status 2.
fn fail(e: &str) -> Exit {
    output::error(e)
}

fn simulate(args: SimulateArgs) -> Exit {
    let engine = match args.engine.open() {
        Ok(e) => e,
        Err(e) => return fail(&e),
    };
    let Some(cfg) = settings(&args.cluster) else {
        return Exit::Error;
    };
    let Some((mut loaded, state)) = load_inputs(&args.paths, &args.cluster, &cfg) else {
        return Exit::Error;
    };
    let options = args.cluster.options(args.complete, &cfg);
    let mut operations = Vec::new();
    for t in &args.then {
        match t.parse::<pvlint_core::Operation>() {
            Ok(pvlint_core::Operation::Apply { sources }) => {
                let files = inputs::load(&[sources[0].name.to_string()]);
                if let Some(e) = files.errors.first() {
                    return fail(&format!("--then '{t}': {e}"));
                }
                operations.push(pvlint_core::Operation::Apply {
                    sources: files.sources,
                });
            }
            Ok(op) => operations.push(op),
            Err(e) => return fail(&format!("--then: {e}")),
        }
    }
    let request = pvlint_core::Request {
        sources: std::mem::take(&mut loaded.sources),
        cluster: state,
        options,
        each_file: false,
        together: true,
        operations,
        audit: false,
    };
    let print = match args.format {
        Format::Json => Print::Json,
        Format::Human => Print::Plain,
    };
    let out = match engine.simulate(&request, print) {
        Ok(Answer::Json(text)) => text,
        Ok(Answer::Typed(simulation)) => match args.format {
            Format::Json => render::simulation_json(&simulation),
            Format::Human => render::simulation_table(&simulation),
        },
        Err(e) => return fail(&e),
    };
    output::print(&out).and(unread(&loaded))
}

/// Error when some path could not be read (the others were still worked on).
fn unread(loaded: &inputs::Loaded) -> Exit {
    if loaded.errors.is_empty() {
        Exit::Clean
    } else {
        Exit::Error
    }
}

fn lint(args: LintArgs) -> Exit {
    let engine = match args.engine.open() {
        Ok(e) => e,
        Err(e) => return fail(&e),
    };
    let Some(mut cfg) = settings(&args.cluster) else {
        return Exit::Error;
    };
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
    let Some((mut loaded, mut state)) = load_inputs(&args.paths, &args.cluster, &cfg) else {
        return Exit::Error;
    };
    let mut options = args.cluster.options(args.complete, &cfg);
    if args.against_cluster {
        let scan = match pvlint::cluster::command::read_live(&args.connect, None) {
            Ok(s) => s,
            Err(e) => return fail(&e),
        };
        for w in &scan.warnings {
            output::warning(w);
        }
        // The server's version decides, unless --kube-version says otherwise; a settings
        // file's kubeVersion it replaces is named, not silently dropped.
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
        }
        state = vec![pvlint_core::Source::new(
            format!("<cluster {}>", scan.context),
            pvlint::cluster::render_state(&scan),
        )];
    } else if args.connect.kubeconfig.is_some() || args.connect.context.is_some() {
        return fail("--kubeconfig and --context need --against-cluster");
    }
    let color = args.color.enabled();
    let print = match args.format {
        LintFormat::Human => Print::Excerpts,
        LintFormat::Json => Print::Json,
        LintFormat::Sarif | LintFormat::Github => Print::Plain,
    };
    // The request owns the sources (the texts, as large as the input) for the run; the human
    // view reads its excerpts from them afterwards.
    let mut request = pvlint_core::Request {
        sources: std::mem::take(&mut loaded.sources),
        cluster: state,
        options,
        each_file: args.each_file,
        together: args.together,
        operations: Vec::new(),
        audit: false,
    };
    let linted = match engine.lint(&mut request, print) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let printed = match &linted.answer {
        Answer::Json(text) => output::print(text),
        // Written as they are produced: on a large input the JSON is twice the input's size,
        // the SARIF three times.
        Answer::Typed(report) => match args.format {
            LintFormat::Json => output::print_with(|out| render::write_json(report, out)),
            LintFormat::Sarif => output::print_with(|out| render::write_sarif(report, out)),
            LintFormat::Github => output::print(&render::github(report)),
            LintFormat::Human => output::print(&render::human(
                report,
                &request.sources,
                render::HumanOptions { color },
            )),
        },
    };
    let threshold = args
        .fail_on
        .or(cfg.fail_on)
        .unwrap_or(FailOn::Error)
        .threshold();
    printed
        .and(unread(&loaded))
        .and(Exit::for_findings(linted.worst, threshold))
}
