//! `pvlint explain RULE`: a rule's documentation.

use pvlint_core::render;

use crate::exit::Exit;
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// Rule id, e.g. stale-claim-ref-uid.
    rule: String,
}

pub fn run(args: Args) -> Exit {
    let rule = args.rule;
    match pvlint_core::rules::find(&rule) {
        Some(r) => output::print(&render::explain(r)),
        None => {
            let hint =
                pvlint_core::settings::hint(&rule, pvlint_core::rules().iter().map(|r| r.id));
            eprintln!("pvlint: unknown rule \"{rule}\"{hint}; `pvlint rules` lists them all");
            Exit::Error
        }
    }
}
