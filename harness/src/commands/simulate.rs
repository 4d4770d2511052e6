//! `pvlint simulate`: what the PV controller does with the manifests, then after each `--then`
//! operation.

use pvlint_core::{render, Operation, Request};

use super::manifests::{self, ClusterArgs, EmptyArgs, EngineArgs};
use super::Format;
use crate::engine::{Answer, Print};
use crate::exit::Exit;
use crate::{inputs, output};

#[derive(clap::Args)]
pub struct Args {
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
    #[command(flatten)]
    empty: EmptyArgs,
}

pub fn run(args: Args) -> Exit {
    simulate(args).unwrap_or_else(|failed| failed)
}

/// Err: the run failed, its error printed.
fn simulate(args: Args) -> Result<Exit, Exit> {
    let engine = args.engine.open()?;
    let cfg = args.cluster.settings()?;
    let (mut loaded, state) = manifests::load(&args.paths, &args.cluster, &cfg, &args.empty)?;
    let options = args.cluster.options(args.complete, &cfg);
    let operations = operations(&args.then).map_err(output::error)?;
    let request = Request {
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
    let out = match engine.simulate(&request, print).map_err(output::error)? {
        Answer::Json(text) => text,
        Answer::Typed(simulation) => match args.format {
            Format::Json => render::simulation_json(&simulation),
            Format::Human => render::simulation_table(&simulation),
        },
    };
    Ok(output::print(&out).and(manifests::unread(&loaded)))
}

/// The `--then` operations, each `apply FILE` with its file read; Err: the line to print.
fn operations(then: &[String]) -> Result<Vec<Operation>, String> {
    let mut operations = Vec::new();
    for t in then {
        match t.parse::<Operation>() {
            Ok(Operation::Apply { sources }) => {
                let files = inputs::load(&[sources[0].name.to_string()]);
                if let Some(e) = files.errors.first() {
                    return Err(format!("--then '{t}': {e}"));
                }
                operations.push(Operation::Apply {
                    sources: files.sources,
                });
            }
            Ok(op) => operations.push(op),
            Err(e) => return Err(format!("--then: {e}")),
        }
    }
    Ok(operations)
}
