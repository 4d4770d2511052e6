//! `pvlint migrate`: makes `kubectl get pv,pvc -o yaml` exports safe to apply to another cluster.
//!
//! Pure: named texts in, one YAML document per object out, edited in place in the original
//! text so field order and comments survive (a document in flow style — JSON — is written out
//! again as block YAML, since it has no comments to keep).
//!
//! What keeps each volume re-binding to its claim (pv_controller.go; see
//! syncUnboundClaim, syncBoundClaim, IsVolumeBoundToClaim): the claim is created here with a new UID, so a
//! claimRef that carries the old one never matches it. Two ways would re-bind:
//!
//! - keep `pv.kubernetes.io/bind-completed` on the claim and drop the volume's claimRef
//!   entirely: `syncBoundClaim` binds a volume without claimRef (binder_test "3-3 - bound claim
//!   with unbound volume"), but until the claim is synced the volume is Available and free:
//!   any other matching claim may take it first (order-dependent), and a claim that never
//!   comes leaves it open to anyone;
//! - drop bind-completed (and bound-by-controller) from the claim, keep its `spec.volumeName`,
//!   and keep the volume's claimRef with only name and namespace: `syncUnboundClaim` finds the
//!   named volume, `IsVolumeBoundToClaim` holds (same name and namespace, empty UID), and
//!   `bind` runs with no checks (binder_test "2-4"/"2-5", mutual pre-binding); until then
//!   `syncVolume` keeps the volume Available but reserved: `FindMatchingVolume` skips a volume
//!   whose claimRef names another claim (step 2), whatever the order.
//!
//! migrate does the second, as Velero's restore does (`resetVolumeBindingInfo`). Keeping
//! bind-completed with a claimRef stripped of its UID would be worse than either: a bound
//! claim needs the UIDs to match, and an empty one does not (binder_test "3-6"): Lost,
//! ClaimMisbound. `lint-core/tests/migrate.rs` runs all three through the simulator.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::finding::ObjectRef;
use crate::source::Source;
use crate::string::Str;
use crate::yaml;

/// Schema of the JSON form of a [`Migration`].
pub const SCHEMA: &str = "pvlint-migrate/v1";

const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
const ANN_BETA_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

/// What to change besides identity.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MigrateOptions {
    /// Keep each volume's persistentVolumeReclaimPolicy (default: set Retain).
    pub keep_reclaim_policy: bool,
    /// StorageClass names to rename: `{"old": "new"}`.
    pub map_class: BTreeMap<String, String>,
    /// Namespaces to rename (claims, their volumes' claimRefs, every namespaced object).
    pub map_namespace: BTreeMap<String, String>,
}

/// What `api::migrate` takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MigrateRequest {
    pub sources: Vec<Source>,
    pub options: MigrateOptions,
}

/// What was done to one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Removed,
    Set,
    Added,
}

/// One change to one object, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub action: ChangeKind,
    /// Dotted field path (`spec.claimRef.uid`).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// What the target cluster would do without the change.
    pub why: String,
}

/// One object of the output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigratedObject {
    /// The object as it is named in the output (after namespace mapping).
    pub object: ObjectRef,
    /// Where it was in the input.
    pub file: String,
    pub line: u32,
    /// The migrated document, ending in a newline, without `---`.
    pub text: String,
    pub changes: Vec<Change>,
    /// What migrate could not make safe, in a sentence each.
    pub warnings: Vec<String>,
}

/// A document migrate could not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrateError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The result of a migration. With errors, hosts should not write the objects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Migration {
    pub schema: String,
    pub objects: Vec<MigratedObject>,
    pub errors: Vec<MigrateError>,
}

impl Migration {
    /// Every object as one multi-document YAML stream.
    pub fn yaml(&self) -> String {
        let mut out = String::new();
        for (i, o) in self.objects.iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
            }
            out.push_str(&o.text);
        }
        out
    }

    /// How many warnings the objects carry.
    pub fn warning_count(&self) -> usize {
        self.objects.iter().map(|o| o.warnings.len()).sum()
    }
}

/// Migrates every object of the sources.
pub fn migrate(req: &MigrateRequest) -> Migration {
    let mut errors = Vec::new();
    let mut pieces = Vec::new();
    for src in &req.sources {
        split_objects(src, &mut pieces, &mut errors);
    }
    let parsed: Vec<Parsed> = pieces
        .into_iter()
        .filter_map(|p| {
            let (docs, issues) = yaml::parse_stream(&p.text);
            if let Some(i) = issues.first() {
                // Cannot happen for text cut from a document that parsed; report it anyway.
                errors.push(MigrateError {
                    file: p.file.clone(),
                    line: p.line,
                    column: 1,
                    message: format!(
                        "this object could not be read again after splitting: {}",
                        i.message
                    ),
                });
                return None;
            }
            let root = docs.into_iter().next().and_then(|d| d.root)?;
            Some(Parsed {
                file: p.file,
                line: p.line,
                text: p.text,
                root,
            })
        })
        .collect();
    let ctx = Ctx::build(&parsed, &req.options);
    let objects = parsed
        .iter()
        .map(|p| migrate_object(p, &ctx, &req.options))
        .collect();
    Migration {
        schema: SCHEMA.into(),
        objects,
        errors,
    }
}

mod edit;
mod plan;
mod split;

use crate::yaml::write::write as emit;
use edit::{apply_text, apply_tree};
use plan::{kind_of, mapped, namespaced, plan, str_at, Ctx};
use split::{split_objects, Parsed};

fn migrate_object(p: &Parsed, ctx: &Ctx, opts: &MigrateOptions) -> MigratedObject {
    let plan = plan(&p.root, ctx, opts);
    let text = if plan.actions.is_empty() {
        p.text.clone()
    } else {
        apply_text(&p.text, &p.root, &plan.actions)
            .filter(|t| verifies(t, ctx, opts))
            .unwrap_or_else(|| {
                let mut root = p.root.clone();
                for a in &plan.actions {
                    apply_tree(&mut root, a);
                }
                emit(&root)
            })
    };
    let (api, kind) = kind_of(&p.root);
    let name = str_at(&p.root, "metadata.name")
        .or_else(|| str_at(&p.root, "metadata.generateName"))
        .unwrap_or("")
        .to_string();
    let namespace = namespaced(&p.root).then(|| {
        mapped(
            &opts.map_namespace,
            str_at(&p.root, "metadata.namespace").unwrap_or("default"),
        )
        .to_string()
    });
    let mut warnings = plan.warnings;
    if text != p.text
        && p.text.lines().any(|l| l.trim_start().starts_with('#'))
        && !is_block_edit_of(&p.text, &text)
    {
        warnings.push("its comments could not be kept: the object is written in flow style and was written out again".into());
    }
    MigratedObject {
        object: ObjectRef {
            api_version: Str::from(api),
            kind: Str::from(kind),
            namespace: namespace.map(Str::from),
            name: Str::from(name),
        },
        file: p.file.clone(),
        line: p.line,
        text,
        changes: plan.changes,
        warnings,
    }
}

/// Whether `after` kept every comment line of `before` (the text was edited in place).
fn is_block_edit_of(before: &str, after: &str) -> bool {
    let comments = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .map(|l| l.trim().to_string())
            .collect()
    };
    let a = comments(after);
    comments(before).iter().all(|c| a.contains(c))
}

/// The edited text reads back as YAML and needs no further change.
fn verifies(text: &str, ctx: &Ctx, opts: &MigrateOptions) -> bool {
    let (docs, issues) = yaml::parse_stream(text);
    if !issues.is_empty() || docs.len() != 1 {
        return false;
    }
    match docs.into_iter().next().and_then(|d| d.root) {
        Some(root) => plan(&root, ctx, opts).actions.is_empty(),
        None => false,
    }
}

#[cfg(test)]
mod tests;
