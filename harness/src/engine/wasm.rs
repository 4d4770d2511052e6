//! `--engine wasm`: requests to the WASI module as JSON (its ABI, wasm/src/abi.rs), and its
//! answers.

use std::path::Path;

use pvlint_core::{Report, Request, Severity, Simulation, Summary};
use serde::de::{DeserializeOwned, IgnoredAny};

use super::{Answer, Engine, Linted, Print, WasmCore};

/// The WASI module, loaded.
pub struct Wasm(WasmCore);

impl Wasm {
    /// Loads the module at `path` (see [`WasmCore::open`]).
    pub fn open(path: &Path) -> Result<Wasm, String> {
        WasmCore::open(path).map(Wasm)
    }

    /// Runs `request` through `export`; returns the module's JSON answer, exactly as it is.
    fn call(&self, export: &str, request: &Request) -> Result<String, String> {
        let json = serde_json::to_string(request)
            .map_err(|e| format!("cannot encode the request: {e}"))?;
        self.0.call(export, &json)
    }
}

impl Engine for Wasm {
    fn lint(&self, request: &mut Request, print: Print) -> Result<Linted, String> {
        let answer = self.call("pvlint_lint", request)?;
        if print == Print::Json {
            // The module's JSON is the output: only its summary is read.
            return Ok(Linted {
                worst: worst_in_json(&answer)?,
                answer: Answer::Json(answer),
            });
        }
        let report: Report = parse_answer(&answer)?;
        Ok(Linted {
            worst: report.max_severity(),
            answer: Answer::Typed(report),
        })
    }

    fn simulate(&self, request: &Request, print: Print) -> Result<Answer<Simulation>, String> {
        let answer = self.call("pvlint_simulate", request)?;
        if print == Print::Json {
            parse_answer::<IgnoredAny>(&answer)?;
            return Ok(Answer::Json(answer));
        }
        parse_answer(&answer).map(Answer::Typed)
    }
}

/// Reads the module's answer as `T`, or says why it is not one (`{"error": ...}`).
fn parse_answer<T: DeserializeOwned>(answer: &str) -> Result<T, String> {
    serde_json::from_str(answer).map_err(|e| {
        #[derive(serde::Deserialize)]
        struct Refusal {
            error: String,
        }
        match serde_json::from_str::<Refusal>(answer) {
            Ok(r) => format!("the WASI module refused the request: {}", r.error),
            Err(_) => format!("unexpected answer from the WASI module: {e}"),
        }
    })
}

/// The worst severity in a JSON report, from its summary (the findings are not decoded).
fn worst_in_json(answer: &str) -> Result<Option<Severity>, String> {
    #[derive(serde::Deserialize)]
    struct Counts {
        summary: Summary,
    }
    let s = parse_answer::<Counts>(answer)?.summary;
    Ok([
        (s.errors, Severity::Error),
        (s.warnings, Severity::Warning),
        (s.infos, Severity::Info),
    ]
    .into_iter()
    .find(|(n, _)| *n > 0)
    .map(|(_, sev)| sev))
}
