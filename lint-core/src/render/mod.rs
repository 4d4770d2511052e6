//! Renderers: findings → text. Pure functions returning strings.

mod docs;
mod human;
mod migrate;
mod policyreport;
mod sarif;
mod sim;
mod yaml;

pub use docs::{explain, rules_markdown, rules_markdown_table, rules_table};
pub use human::{human, human_cluster, HumanOptions};
pub use migrate::{migration_json, migration_summary};
pub use policyreport::{policy_reports, POLICY_REPORT_API};
pub use sarif::{github, sarif, RULES_DOC};
pub use sim::{simulation_json, simulation_table};
pub use yaml::yaml;

use crate::{Report, Rule};

/// The stable JSON form of a report (docs/json-schema.md), pretty-printed, with a final newline.
pub fn json(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(report).expect("a report always serialises");
    s.push('\n');
    s
}

/// Every rule with its documentation, as JSON (what `pvlint rules --format json` prints).
pub fn rules_json(rules: &[&Rule]) -> String {
    serde_json::to_string_pretty(rules).expect("rules always serialise")
}
