//! `pvlint`: the command-line adapter around pvlint-core. All I/O lives in this crate; each
//! subcommand is a module of `pvlint::commands`, and this file parses the command line and
//! dispatches to them.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use pvlint::commands::{admission, cluster, explain, lint, migrate, policy, rules, simulate};
use pvlint::exit::Exit;

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
    Lint(lint::Args),
    /// List every rule.
    Rules(rules::Args),
    /// Predict what the PV controller does with the manifests: every claim's and volume's
    /// final phase, the events, and what happens to the storage.
    Simulate(simulate::Args),
    /// Make exported volumes and claims (`kubectl get pv,pvc -o yaml`) safe to apply to
    /// another cluster: strips server-populated fields and the source cluster's binding
    /// identity, keeps each volume pre-bound to its claim by name, sets Retain. Writes one
    /// document per object (stdout or --out DIR) and says what it changed on stderr.
    Migrate(migrate::Args),
    /// Audit a live cluster (or a state saved with --save): what is Lost, Pending, Released,
    /// Failed or stuck attached now, and the same hazards `lint` finds, on the cluster's objects.
    Cluster(cluster::Args),
    /// Show a rule's documentation.
    Explain(explain::Args),
    /// Run the Kubewarden policy module on an admission request under a waPC host, as
    /// policy-server does. Exit status: 0 allowed, 1 denied, 2 error.
    AdmissionTest(admission::Args),
    /// Kubewarden policy tools.
    Policy(policy::Args),
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

/// Run as `kubectl pvlint` (a `kubectl-pvlint` on PATH: krew, Homebrew, a link), the usage
/// says so.
fn command() -> clap::Command {
    let invoked = std::env::args_os().next().unwrap_or_default();
    let plugin = std::path::Path::new(&invoked)
        .file_stem()
        .is_some_and(|s| s == "kubectl-pvlint");
    let command = Cli::command();
    if plugin {
        command.bin_name("kubectl pvlint")
    } else {
        command
    }
}

fn main() -> Exit {
    tune_allocator();
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout; usage errors to stderr.
            let _ = e.print();
            return Exit::for_usage(&e);
        }
    };
    match cli.command {
        Command::Lint(args) => lint::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Migrate(args) => migrate::run(args),
        Command::Cluster(args) => cluster::run(args),
        Command::Explain(args) => explain::run(args),
        Command::AdmissionTest(args) => admission::run(args),
        Command::Policy(args) => policy::run(args),
    }
}
