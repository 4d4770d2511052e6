//! The lint core compiled into this binary.

use pvlint_core::{api, Request, Simulation};

use super::{Answer, Engine, Linted, Print};

/// `--engine native`: calls `pvlint_core::api`.
pub struct Native;

impl Engine for Native {
    fn lint(&self, request: &mut Request, print: Print) -> Result<Linted, String> {
        // Views without source lines let the core drop the texts (as large as the input) as
        // soon as it has read the objects from them.
        let report = match print {
            Print::Excerpts => api::lint(request),
            Print::Json | Print::Plain => api::lint_and_drop_texts(request),
        };
        Ok(Linted {
            worst: report.max_severity(),
            answer: Answer::Typed(report),
        })
    }

    fn simulate(&self, request: &Request, _: Print) -> Result<Answer<Simulation>, String> {
        api::simulate(request).map(Answer::Typed)
    }
}
