//! The subcommands, one module each: its clap arguments (`Args`) and `run(args) -> Exit`.
//! `main.rs` parses the command line and dispatches here.

pub mod admission;
pub mod cluster;
pub mod explain;
pub mod lint;
mod manifests;
pub mod migrate;
pub mod policy;
pub mod rules;
pub mod simulate;

/// `--format` of the commands that print either a human view or JSON.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}
