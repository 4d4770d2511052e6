//! pvlint's lint core: Kubernetes manifests in, storage-hazard findings out.
//!
//! Pure: no I/O, no threads, no clock. The same code runs natively, in the browser, in any
//! WebAssembly host and inside the admission policy, all through [`api`]. Data flows one way:
//! sources → `yaml` documents with spans → `index` of typed objects → `sim` (the PV
//! controller run over the manifests applied onto the cluster state) → `rules` → [`Finding`]s →
//! [`render`] (human, JSON).
//!
//! Architecture invariants:
//! - the simulator is the one place that decides what happens to claims, volumes and storage;
//!   rules read its typed outcomes and never re-derive them;
//! - every finding has a file, line and column that exist in its source;
//! - no input makes the core panic; a broken document never hides the others;
//! - lower layers know nothing of higher ones (the layer table in ARCHITECTURE.md, checked by
//!   `tests/layers.rs`); this file only declares the modules and re-exports.

pub mod api;
pub(crate) mod apiversions;
pub mod applyset;
pub(crate) mod binding;
pub(crate) mod drivers;
pub mod finding;
pub(crate) mod index;
pub(crate) mod kube;
pub(crate) mod kustomize;
pub mod migrate;
pub(crate) mod model;
pub mod needs;
pub(crate) mod node;
pub mod options;
pub mod origin;
pub(crate) mod pipeline;
pub mod profile;
pub(crate) mod quantity;
pub mod render;
pub mod report;
pub(crate) mod request;
pub mod rules;
pub(crate) mod scalar;
pub(crate) mod schema;
pub mod settings;
pub(crate) mod sim;
pub mod source;
#[doc(hidden)]
pub mod stages;
pub(crate) mod string;
mod suppress;
pub(crate) mod template;
mod value;
pub mod version;
pub(crate) mod yaml;

pub use api::{lint_sources as lint, rules, Operation, Request};
pub use finding::{
    Applicability, Consequence, Edit, EventText, Finding, Location, ObjectRef, Phase, Related,
    Severity, StorageFate, Suggestion,
};
pub use kube::{JOB_UID_LABELS, SERVER_POPULATED_METADATA};
pub use options::{FieldValidation, KubeVersion, Options, RuleLevel};
pub use report::{Report, Summary, SCHEMA, VERSION};
pub use rules::{Docs, Family, Rule};
pub use schema::did_you_mean;
pub use sim::report::{
    ClaimOutcome, Fate, LinkHow, Located, OriginKind, OriginOut, Step, StorageOut, VolumeOutcome,
};
pub use sim::{ClaimPhase, ClassSource, Event, EventType, Reason, Simulation, VolumePhase};
pub use source::{decode, DecodeError, Source};
pub use string::Str;
pub use value::yaml_to_json;
