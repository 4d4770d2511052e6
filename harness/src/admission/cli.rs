//! The `pvlint admission-test` and `pvlint policy annotate` commands.

use std::path::Path;

use serde_json::Value;

use super::{annotate, review, Answers, Limits, Policy};

/// Everything `admission-test` is given.
pub struct TestArgs<'a> {
    pub policy: &'a Path,
    pub request: &'a Path,
    pub cluster_state: Option<&'a Path>,
    pub settings: Option<&'a Path>,
    pub json: bool,
    pub limits: Limits,
}

/// What a command prints and how it exits.
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    /// Allowed: clean; denied: findings (exit 1); an error: exit 2.
    pub code: crate::exit::Exit,
}

impl Outcome {
    fn error(e: String) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: format!("pvlint: error: {e}\n"),
            code: crate::exit::Exit::Error,
        }
    }
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{what} {}: {e}", path.display()))
}

fn read_text(path: &Path, what: &str) -> Result<String, String> {
    String::from_utf8(read(path, what)?)
        .map_err(|_| format!("{what} {}: not UTF-8 text", path.display()))
}

/// One document of a YAML/JSON file.
fn one_document(path: &Path, what: &str) -> Result<Value, String> {
    let text = read_text(path, what)?;
    let mut docs = pvlint_core::api::documents_json(&text)
        .map_err(|e| format!("{what} {}:{e}", path.display()))?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        0 => Err(format!("{what} {} is empty", path.display())),
        n => Err(format!(
            "{what} {} holds {n} documents; give one",
            path.display()
        )),
    }
}

/// `pvlint admission-test`.
pub fn admission_test(a: &TestArgs<'_>) -> Outcome {
    match run(a) {
        Ok(o) => o,
        Err(e) => Outcome::error(e),
    }
}

fn run(a: &TestArgs<'_>) -> Result<Outcome, String> {
    let module = read(a.policy, "--policy")?;
    let policy = Policy::load(&module, a.limits)
        .map_err(|e| format!("--policy {}: {e}", a.policy.display()))?;
    let mut stderr = String::new();
    if policy.metadata.is_none() {
        stderr.push_str(
            "pvlint: note: the module carries no Kubewarden metadata (run `pvlint policy annotate`); \
             it is granted no context-aware resources\n",
        );
    }
    let request = review::admission_request(&one_document(a.request, "--request")?)
        .map_err(|e| format!("--request {}: {e}", a.request.display()))?;
    let settings = match a.settings {
        Some(p) => one_document(p, "--settings")?,
        None => Value::Object(Default::default()),
    };
    let answers = match a.cluster_state {
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
    let stdout = if a.json {
        let mut s = serde_json::to_string_pretty(&decision.review_json()).unwrap_or_default();
        s.push('\n');
        s
    } else {
        decision.human()
    };
    Ok(Outcome {
        stdout,
        stderr,
        code: if decision.allowed {
            crate::exit::Exit::Clean
        } else {
            crate::exit::Exit::Findings
        },
    })
}

/// `pvlint policy annotate`: the module with `metadata.yml` in its metadata section.
pub fn annotate_module(module: &Path, metadata: &Path, output: &Path) -> Outcome {
    let run = || -> Result<String, String> {
        let bytes = read(module, "module")?;
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
    };
    match run() {
        Ok(s) => Outcome {
            stdout: s,
            stderr: String::new(),
            code: crate::exit::Exit::Clean,
        },
        Err(e) => Outcome::error(e),
    }
}

/// Annotates module bytes: checks the metadata, asks the module for its protocol version
/// (as kwctl does), writes the section.
pub fn annotate_bytes(module: &[u8], metadata: Value) -> Result<Vec<u8>, String> {
    let policy = Policy::load(module, Limits::default())?;
    let mut ev = policy.evaluator(Answers::empty(Default::default()))?;
    let version = ev.protocol_version()?;
    let md = annotate::prepare_metadata(metadata, &version)?;
    annotate::write_metadata(module, &md)
}
