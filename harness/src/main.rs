//! `pvlint`: the command-line adapter around pvlint-core. All I/O lives here.

mod inputs;

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
    /// Show a rule's documentation.
    Explain {
        /// Rule id, e.g. stale-claim-ref-uid.
        rule: String,
    },
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
    /// Kubernetes version of the target cluster (e.g. 1.31). Default: a current release.
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    kube_version: Option<KubeVersion>,
    /// The input holds every object that matters: names not found in it do not exist.
    #[arg(long)]
    complete: bool,
    /// Lint every file on its own: objects in one file do not see objects in another.
    #[arg(long)]
    each_file: bool,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

fn parse_version(s: &str) -> Result<KubeVersion, String> {
    s.parse()
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
        Command::Rules { format } => {
            let out = match format {
                RulesFormat::Table => render::rules_table(),
                RulesFormat::Markdown => render::rules_markdown(),
                RulesFormat::Json => {
                    let mut s = serde_json_rules();
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
                    .or_else(|| pvlint_core::schema::suggest(&rule, ids()))
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                eprintln!("pvlint: unknown rule \"{rule}\"{hint}; `pvlint rules` lists them all");
                ExitCode::from(2)
            }
        },
    }
}

fn serde_json_rules() -> String {
    let rules: Vec<&pvlint_core::Rule> = pvlint_core::rules().to_vec();
    pvlint_core::render::rules_json(&rules)
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

fn lint(args: LintArgs) -> ExitCode {
    let loaded = inputs::load(&args.paths);
    for e in &loaded.errors {
        eprintln!("pvlint: error: {e}");
    }
    if loaded.sources.is_empty() {
        eprintln!(
            "pvlint: error: nothing to lint (no .yaml, .yml or .json files in the given paths)"
        );
        return ExitCode::from(2);
    }
    let options = Options {
        kube_version: args.kube_version.unwrap_or(KubeVersion::DEFAULT),
        complete: args.complete,
    };
    let report = if args.each_file {
        pvlint_core::lint_each(&loaded.sources, &options)
    } else {
        pvlint_core::lint(&loaded.sources, &options)
    };
    let out = match args.format {
        Format::Json => render::json(&report),
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
