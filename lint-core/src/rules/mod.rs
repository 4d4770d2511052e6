//! The rule registry: one rule per file in this folder, each listed below (the test
//! `every_rule_file_is_registered` checks that none is missing).
//!
//! A rule file defines `pub const RULE: Rule` with its id, family, default severity and
//! documentation in fixed sections, and a `check` function that reads the `Context` and
//! reports through a `Sink`. Rules that talk about binding, provisioning, attachment or
//! reclaim read the simulator's outcome (`Context::sim`); none re-derives it. Fixtures live
//! in `tests/fixtures/<rule-id>/` (`bad*.yaml` must trigger the rule, `good*.yaml` must not);
//! `bad.yaml` and `good.yaml` double as the documentation's example and fix.

use std::fmt;

use serde::Serialize;

use crate::finding::Severity;
use crate::options::Options;

mod bind_completed_without_volume;
mod claim_lost;
mod claim_pending;
mod claim_ref_conflict;
mod claim_will_be_lost;
mod dangling_volume_name;
mod delete_policy_in_tree;
mod delete_policy_on_existing_storage;
mod delete_policy_on_imported_volume;
mod delete_policy_without_finalizer;
mod duplicate_object;
mod hostpath_persistent_volume;
mod ignored_content;
mod implicit_default_class;
mod invalid_field_value;
mod invalid_nfs_server;
mod invalid_suppression;
mod missing_claim;
mod multiple_default_storage_classes;
mod parse_error;
mod prebound_volume_mismatch;
mod provisioner_not_served;
mod recycle_policy_deprecated;
mod removed_api_version;
mod resize_never_done;
mod retention_deletes_data;
mod rwo_rolling_surge;
mod rwo_shared_by_replicas;
mod server_populated_fields;
mod stale_claim_ref_uid;
mod stale_owner_reference;
mod stale_volume_attachment;
mod static_pool_shortfall;
mod storage_class_mismatch;
mod storage_class_not_found;
mod unbindable_claim;
mod unknown_field;
mod unrendered_template;
mod update_rejected;
mod volume_failed;
mod volume_released;
mod volume_will_be_deleted;

/// Every rule, by id.
pub static ALL: &[&Rule] = &[
    &bind_completed_without_volume::RULE,
    &claim_lost::RULE,
    &claim_pending::RULE,
    &claim_ref_conflict::RULE,
    &claim_will_be_lost::RULE,
    &dangling_volume_name::RULE,
    &duplicate_object::RULE,
    &delete_policy_in_tree::RULE,
    &delete_policy_on_imported_volume::RULE,
    &delete_policy_on_existing_storage::RULE,
    &delete_policy_without_finalizer::RULE,
    &hostpath_persistent_volume::RULE,
    &ignored_content::RULE,
    &implicit_default_class::RULE,
    &invalid_field_value::RULE,
    &invalid_nfs_server::RULE,
    &invalid_suppression::RULE,
    &multiple_default_storage_classes::RULE,
    &parse_error::RULE,
    &prebound_volume_mismatch::RULE,
    &provisioner_not_served::RULE,
    &recycle_policy_deprecated::RULE,
    &removed_api_version::RULE,
    &resize_never_done::RULE,
    &rwo_rolling_surge::RULE,
    &rwo_shared_by_replicas::RULE,
    &server_populated_fields::RULE,
    &stale_claim_ref_uid::RULE,
    &stale_owner_reference::RULE,
    &stale_volume_attachment::RULE,
    &static_pool_shortfall::RULE,
    &storage_class_mismatch::RULE,
    &storage_class_not_found::RULE,
    &unbindable_claim::RULE,
    &unknown_field::RULE,
    &unrendered_template::RULE,
    &retention_deletes_data::RULE,
    &update_rejected::RULE,
    &volume_failed::RULE,
    &volume_released::RULE,
    &volume_will_be_deleted::RULE,
    &missing_claim::RULE,
];

/// Where a rule runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `lint`: manifests (applied onto the cluster state when one is given). The rules about
    /// applying manifests (copied identity, server-populated fields, admission, fields the API
    /// server would reject), which objects that already exist have been through.
    Manifests,
    /// An audit of a live cluster's objects only (`pvlint cluster`): the rule reads what the
    /// cluster reports (phases, pods on nodes, VolumeAttachments) and the simulation of that
    /// state. Its fixtures are cluster states (header `# pvlint: cluster --cluster-state FILE`).
    Cluster,
    /// Both: a `lint` rule that also judges a live cluster's own objects in an audit.
    Both,
}

impl Scope {
    /// The rule judges manifests (`lint`).
    pub fn on_manifests(self) -> bool {
        self != Scope::Cluster
    }

    /// The rule judges a live cluster's own objects (`pvlint cluster`).
    pub fn on_cluster(self) -> bool {
        self != Scope::Manifests
    }
}

/// The hazard family a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// UIDs, claimRef.uid, resourceVersion, bind annotations copied from another cluster.
    StaleIdentity,
    /// Claims that will not bind, or bind to the wrong volume.
    Binding,
    /// ReadWriteOnce(Pod) claims shared by pods that cannot share them.
    RwoSurge,
    /// Reclaim policies that delete or leak storage.
    Reclaim,
    /// Input that is not valid for the API server.
    Validity,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::StaleIdentity => "stale-identity",
            Family::Binding => "binding",
            Family::RwoSurge => "rwo-surge",
            Family::Reclaim => "reclaim",
            Family::Validity => "validity",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule's documentation, in fixed sections.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Docs {
    /// What it does: the pattern the rule looks for.
    pub what: &'static str,
    /// Why is this bad: what the cluster does with it.
    pub why: &'static str,
    /// A manifest that triggers the rule (its `bad.yaml` fixture).
    pub example: &'static str,
    /// How to fix it, in prose.
    pub fix: &'static str,
    /// The fixed manifest (its `good.yaml` fixture).
    pub fixed: &'static str,
    /// Where the rule can be wrong: what it assumes, what it cannot see.
    pub known_problems: &'static str,
    /// Each severity the rule reports, when, and a fixture that shows it (a file of
    /// `tests/fixtures/<id>/`, linted under its header's profile): `tests/fixtures.rs` lints
    /// each and checks the severity, so what the docs say is what the tool does.
    pub grades: &'static [Grade],
}

/// One severity a rule reports, and when.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Grade {
    pub severity: Severity,
    /// When: "a one-replica Deployment with the default strategy, on the default profile".
    pub when: &'static str,
    /// The fixture that shows it, by file name (`bad.yaml`).
    pub example: &'static str,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub family: Family,
    pub severity: Severity,
    /// One line for the rule table.
    pub summary: &'static str,
    pub docs: Docs,
    /// Where it runs: manifests, live clusters, or both.
    #[serde(skip)]
    pub scope: Scope,
    /// The pvlint release it first appeared in.
    #[serde(skip)]
    pub since: &'static str,
    #[serde(skip)]
    pub(crate) check: fn(&Context<'_>, &mut Sink<'_>),
    /// What the rule reads, which decides when it runs.
    #[serde(skip)]
    pub(crate) reads: Reads,
}

/// What a rule reads: it decides when the rule runs (see `lint::run_rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads {
    /// The typed views and the simulation's outcomes: runs after the simulation.
    Simulation,
    /// The objects as written (their YAML trees, through `Object::root`) and never the
    /// simulation: runs before it, while the trees are alive, and its context's simulation
    /// is one that has not run (nothing loaded). The trees are released before the
    /// simulation: on a large input they take as much memory as it does.
    Written,
}

pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.id == id)
}

/// Checks what serde cannot in a request's options: every rule id in `rules` exists.
pub fn check_settings(options: &Options) -> Result<(), String> {
    match options.rules.keys().find(|id| find(id).is_none()) {
        Some(id) => Err(unknown_rule("options.rules", id)),
        None => Ok(()),
    }
}

/// The error for a rule id that does not exist, written under `key` (a setting, a flag).
pub fn unknown_rule(key: &str, id: &str) -> String {
    let hint = crate::schema::hint(id, ALL.iter().map(|r| r.id));
    format!("{key}: there is no rule \"{id}\"{hint}; `pvlint rules` lists them")
}

mod context;
mod sink;

pub(crate) use context::Context;
pub(crate) use sink::{Reported, Sink};

/// What rule files import.
#[allow(unused_imports)]
pub(crate) mod prelude {
    pub(crate) use super::context::{
        claim_ref, Context, Spread, GRADE_ASSUMED_CLASS, GRADE_ONE_NODE_HINT,
    };
    pub(crate) use super::sink::Sink;
    pub(crate) use super::{Docs, Family, Grade, Reads, Rule, Scope};
    pub(crate) use crate::binding::attach::Attach;
    pub(crate) use crate::binding::fit::{Check, Mismatch};
    pub(crate) use crate::finding::{Consequence, Phase, Severity, StorageFate};
    pub(crate) use crate::kube::{self, AccessModes, ReclaimPolicy};
    pub(crate) use crate::model::{ClaimClass, Field, Pv, Pvc, Workload};
    pub(crate) use crate::sim::{
        Assumption, BindHow, CauseKey, ClaimId, ClaimPhase, ClaimState, Lost, Pending, Side,
        Storage, Subject, VolumeId, VolumePhase,
    };
    pub(crate) use crate::string::{IntoStr, Str};
}

#[cfg(test)]
mod tests {
    /// Adding a rule = one file + one line here: a file that is not listed fails this test.
    /// (Besides the rules, this folder holds the registry, what a rule sees and how it reports.)
    #[test]
    fn every_rule_file_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n.ends_with(".rs") && !["mod.rs", "context.rs", "sink.rs"].contains(&n.as_str())
            })
            .map(|n| n.trim_end_matches(".rs").replace('_', "-"))
            .collect();
        files.sort();
        let mut ids: Vec<String> = super::ALL.iter().map(|r| r.id.to_string()).collect();
        ids.sort();
        assert_eq!(files, ids, "src/rules/*.rs and rules::ALL differ");
    }
}
