//! What a lint run gives: the findings, sorted, with a summary; the JSON report's root
//! (schema `pvlint/v1`, docs/json-schema.md).

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Severity};
use crate::options::Options;

/// Version of the JSON output schema (docs/json-schema.md).
pub const SCHEMA: &str = "pvlint/v1";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub sources: usize,
    pub documents: usize,
    pub objects: usize,
    /// Findings a `pvlint.io/ignore` annotation suppressed (not counted above).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub suppressed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The result of one lint run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: String,
    pub version: String,
    pub options: Options,
    /// The target cluster the findings are judged for, each value with where it came from.
    pub profile: crate::profile::Profile,
    /// What was applied together (see [`crate::applyset`]); a finding's `applySet` is a position here
    /// when there is more than one.
    #[serde(default)]
    pub apply_sets: Vec<ApplySetOut>,
    pub findings: Vec<Finding>,
    /// Findings a `pvlint.io/ignore` annotation suppressed, in the same form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<Finding>,
    /// Sources no apply set holds: files a test framework reads as expectations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<crate::applyset::Skipped>,
    pub summary: Summary,
}

impl Report {
    /// The highest severity found, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// An apply set, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplySetOut {
    pub kind: crate::applyset::SetKind,
    /// The directory, kustomization file or source; empty for `--together`.
    pub name: String,
    /// Its files, in input order.
    pub files: Vec<String>,
}
