//! How a `pvlint` run ends. [`Exit::code`] is the one place outcomes become exit statuses.

use std::process::{ExitCode, Termination};

use pvlint_core::Severity;

/// The outcome of a run, from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Nothing at or above `--fail-on` (or a command that reports no findings succeeded).
    Clean,
    /// At least one finding at or above `--fail-on`.
    Findings,
    /// A usage error, an unreadable path, unwritable output, an engine that cannot run.
    Error,
}

impl Exit {
    /// The exit status: 0, 1 or 2.
    pub fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Findings => 1,
            Exit::Error => 2,
        }
    }

    /// The outcome of findings whose worst severity is `worst`, failing at `threshold`
    /// (`None`: `--fail-on never`).
    pub fn for_findings(worst: Option<Severity>, threshold: Option<Severity>) -> Exit {
        match (threshold, worst) {
            (Some(t), Some(w)) if w >= t => Exit::Findings,
            _ => Exit::Clean,
        }
    }

    /// A command line clap did not run: `--help` and `--version` (printed to stdout) succeed,
    /// usage errors exit 2.
    pub fn for_usage(e: &clap::Error) -> Exit {
        if e.use_stderr() {
            Exit::Error
        } else {
            Exit::Clean
        }
    }

    /// The worse of two outcomes: an error outranks findings, findings outrank a clean run.
    pub fn and(self, other: Exit) -> Exit {
        self.max(other)
    }
}

/// `--fail-on` / `failOn`: the least severe finding that fails the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    /// The severity threshold (`None`: never fail on findings).
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

impl std::str::FromStr for FailOn {
    type Err = String;
    fn from_str(s: &str) -> Result<FailOn, String> {
        match s {
            "error" => Ok(FailOn::Error),
            "warning" => Ok(FailOn::Warning),
            "info" => Ok(FailOn::Info),
            "never" => Ok(FailOn::Never),
            _ => Err(format!("expected error, warning, info or never, found {s}")),
        }
    }
}

impl Termination for Exit {
    fn report(self) -> ExitCode {
        ExitCode::from(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_precedence() {
        assert_eq!(
            [Exit::Clean, Exit::Findings, Exit::Error].map(Exit::code),
            [0, 1, 2]
        );
        assert_eq!(Exit::Findings.and(Exit::Error), Exit::Error);
        assert_eq!(Exit::Clean.and(Exit::Findings), Exit::Findings);
        let (e, w) = (Some(Severity::Error), Some(Severity::Warning));
        assert_eq!(Exit::for_findings(w, e), Exit::Clean);
        assert_eq!(Exit::for_findings(e, w), Exit::Findings);
        assert_eq!(Exit::for_findings(e, None), Exit::Clean);
        assert_eq!(Exit::for_findings(None, w), Exit::Clean);
    }
}
