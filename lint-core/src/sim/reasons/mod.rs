//! The simulation's reasons, each with everything that is said about it in one `impl`: why a
//! claim is [`Pending`](super::Pending) (`pending.rs`), why it is [`Lost`](super::Lost)
//! (`lost.rs`), and what happens to a volume's [`Storage`](super::Storage) (`storage.rs`):
//! the event the controller emits, the explanation, the root cause it stands for, and what to
//! do about it. Every `match` over a reason here is exhaustive: a new reason is one enum
//! variant, and the compiler leads to each of its facets.

mod lost;
mod pending;
mod storage;

/// What to do about a reason: a sentence, and a command or a snippet that does it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Help {
    pub text: String,
    /// (what it does, the command or YAML).
    pub fix: Option<(String, String)>,
}

impl Help {
    fn text(text: impl Into<String>) -> Help {
        Help {
            text: text.into(),
            fix: None,
        }
    }

    fn with_fix(mut self, what: impl Into<String>, how: impl Into<String>) -> Help {
        self.fix = Some((what.into(), how.into()));
        self
    }
}

/// "no class", `class "NAME"`, or the cluster's default class when it is assumed.
fn class_text(c: &str) -> String {
    if c.is_empty() {
        "no class".into()
    } else if c == crate::sim::load::ASSUMED_DEFAULT {
        "the cluster's default class".into()
    } else {
        format!("class \"{c}\"")
    }
}
