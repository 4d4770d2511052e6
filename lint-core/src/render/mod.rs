//! Renderers: findings → text. Pure functions returning strings (and [`write_json`], which
//! writes the same JSON to a writer the host gives).

mod ci;
mod docs;
mod human;
mod migrate;
mod policyreport;
mod sarif;
mod sim;
mod yaml;

pub use ci::{gitlab, junit};
pub use docs::{explain, rules_markdown, rules_markdown_table, rules_table};
pub use human::{concise, human, human_cluster, HumanOptions};
pub use migrate::{migration_json, migration_summary};
pub use policyreport::{policy_reports, POLICY_REPORT_API};
pub use sarif::{github, sarif, write_sarif, RULES_DOC};
pub use sim::{simulation_json, simulation_table};
pub use yaml::yaml;

use crate::report::Report;
use crate::rules::Rule;

/// The stable JSON form of a report (docs/json-schema.md), pretty-printed, with a final newline.
pub fn json(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(report).expect("a report always serialises");
    s.push('\n');
    s
}

/// [`json`], written to `out` as it is produced instead of built in memory (on a large input
/// the JSON is twice the size of the input).
pub fn write_json(report: &Report, mut out: impl std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut out, report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// Every rule with its documentation, as JSON (what `pvlint rules --format json` prints).
pub fn rules_json(rules: &[&Rule]) -> String {
    serde_json::to_string_pretty(rules).expect("rules always serialise")
}
