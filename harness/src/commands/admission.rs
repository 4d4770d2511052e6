//! `pvlint admission-test`: the Kubewarden policy module on one admission request, under the
//! waPC host of [`crate::admission`], as policy-server runs it.

use std::path::PathBuf;

#[cfg(feature = "admission")]
use serde_json::Value;

use super::Format;
#[cfg(feature = "admission")]
use crate::admission::{review, Answers, Limits, Policy};
use crate::exit::Exit;
#[cfg(feature = "admission")]
use crate::inputs::{one_document, read_bytes, read_text};
use crate::output;

/// What a build without the `admission` feature says when asked to run the policy.
pub const NOT_BUILT: &str = "this pvlint was built without the `admission` feature, so it cannot run the Kubewarden policy: install it with default features (cargo install pvlint)";

#[derive(clap::Args)]
#[cfg_attr(not(feature = "admission"), allow(dead_code))]
pub struct Args {
    /// The policy module (.wasm), annotated with its metadata (`pvlint policy annotate`).
    #[arg(long, value_name = "FILE")]
    policy: PathBuf,
    /// An AdmissionReview as the API server sends it, or its bare AdmissionRequest (JSON or YAML).
    #[arg(long, value_name = "FILE")]
    request: PathBuf,
    /// The cluster the policy's lookups see (`kubectl get pv,pvc,storageclass,csidriver -A -o
    /// yaml`), or a kwctl replay session (`kwctl run --record-host-capabilities-interactions`).
    #[arg(long, value_name = "FILE")]
    cluster_state: Option<PathBuf>,
    /// The policy's settings (the `spec.settings` mapping), JSON or YAML.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Stop an evaluation that runs longer than this (epoch deadline).
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    timeout_ms: u64,
    /// Most memory the policy may use.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    max_memory_mib: usize,
}

/// A decision: exit 0 allowed, 1 denied; 2 when the policy cannot be run.
pub fn run(args: Args) -> Exit {
    match evaluate(&args) {
        Ok(done) => {
            if done.unannotated {
                output::note(
                    "the module carries no Kubewarden metadata (run `pvlint policy annotate`); \
                     it is granted no context-aware resources",
                );
            }
            output::print(&done.stdout).and(done.exit)
        }
        Err(e) => output::error(e),
    }
}

/// What an evaluation prints and how it exits.
struct Done {
    stdout: String,
    /// The module has no metadata (a note, printed only when the run succeeds).
    unannotated: bool,
    exit: Exit,
}

#[cfg(not(feature = "admission"))]
fn evaluate(_: &Args) -> Result<Done, String> {
    Err(NOT_BUILT.into())
}

#[cfg(feature = "admission")]
fn evaluate(a: &Args) -> Result<Done, String> {
    let limits = Limits {
        timeout_ms: a.timeout_ms,
        max_memory: a.max_memory_mib.saturating_mul(1 << 20),
    };
    let module = read_bytes(&a.policy, "--policy")?;
    let policy = Policy::load(&module, limits)
        .map_err(|e| format!("--policy {}: {e}", a.policy.display()))?;
    let request = review::admission_request(&one_document(&a.request, "--request")?)
        .map_err(|e| format!("--request {}: {e}", a.request.display()))?;
    let settings = match &a.settings {
        Some(p) => one_document(p, "--settings")?,
        None => Value::Object(Default::default()),
    };
    let answers = match &a.cluster_state {
        Some(p) => Answers::load(&read_text(p, "--cluster-state")?, policy.grants())
            .map_err(|e| format!("--cluster-state {}:{e}", p.display()))?,
        None => Answers::empty(policy.grants()),
    };
    let mut ev = policy.evaluator(answers)?;
    let version = ev.protocol_version()?;
    if version != "v1" {
        return Err(format!(
            "the policy speaks protocol {version}, this host speaks v1"
        ));
    }
    let verdict = ev.validate_settings(&settings);
    if !verdict.valid {
        return Err(format!(
            "the policy refused the settings: {}",
            verdict.message.unwrap_or_default()
        ));
    }
    let decision = ev.validate(&request, &settings);
    let stdout = match a.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&decision.review_json()).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Human => decision.human(),
    };
    Ok(Done {
        stdout,
        unannotated: policy.metadata.is_none(),
        exit: if decision.allowed {
            Exit::Clean
        } else {
            Exit::Findings
        },
    })
}
