//! `pvlint rules`: every rule, as a table, JSON or Markdown (docs/rules.md).

use pvlint_core::render;

use crate::exit::Exit;
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Table,
    Json,
    Markdown,
}

pub fn run(args: Args) -> Exit {
    let out = match args.format {
        Format::Table => render::rules_table(),
        Format::Markdown => render::rules_markdown(),
        Format::Json => {
            let mut s = render::rules_json(pvlint_core::rules());
            s.push('\n');
            s
        }
    };
    output::print(&out)
}
