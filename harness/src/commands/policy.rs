//! `pvlint policy annotate`: the policy module with its Kubewarden metadata, as `kwctl
//! annotate` writes it.

use std::path::{Path, PathBuf};

#[cfg(feature = "admission")]
use crate::admission::{annotate, annotate_bytes};
use crate::exit::Exit;
#[cfg(feature = "admission")]
use crate::inputs::{one_document, read_bytes};
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Write the module with its metadata in the `io.kubewarden.metadata` custom section,
    /// as `kwctl annotate` does, ready to push.
    Annotate {
        /// The policy module built for wasm32-wasip1.
        module: PathBuf,
        /// The metadata (wasm/kubewarden/metadata.yml).
        #[arg(long, value_name = "FILE")]
        metadata: PathBuf,
        /// Where to write the annotated module.
        #[arg(long, short, value_name = "FILE")]
        output: PathBuf,
    },
}

pub fn run(args: Args) -> Exit {
    let Command::Annotate {
        module,
        metadata,
        output: into,
    } = args.command;
    match write_annotated(&module, &metadata, &into) {
        Ok(said) => output::print(&said),
        Err(e) => output::error(e),
    }
}

/// Without the `admission` feature the module cannot be asked its protocol version.
#[cfg(not(feature = "admission"))]
fn write_annotated(_: &Path, _: &Path, _: &Path) -> Result<String, String> {
    Err(super::admission::NOT_BUILT.into())
}

/// Writes the annotated module; Ok: the line to print.
#[cfg(feature = "admission")]
fn write_annotated(module: &Path, metadata: &Path, output: &Path) -> Result<String, String> {
    let bytes = read_bytes(module, "module")?;
    let md = one_document(metadata, "--metadata")?;
    let annotated =
        annotate_bytes(&bytes, md).map_err(|e| format!("{}: {e}", metadata.display()))?;
    std::fs::write(output, &annotated)
        .map_err(|e| format!("--output {}: {e}", output.display()))?;
    Ok(format!(
        "wrote {} ({} bytes, metadata in the {} section)\n",
        output.display(),
        annotated.len(),
        annotate::METADATA_SECTION
    ))
}
