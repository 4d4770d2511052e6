//! What a rule reports. The JSON form of these types is a public, versioned schema
//! (see docs/json-schema.md); field names never change within a schema version.

use serde::{Deserialize, Serialize};

use crate::source::{Pos, Span};
use crate::string::Str;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// The Kubernetes object a finding is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    pub api_version: Str,
    pub kind: Str,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Str>,
    pub name: Str,
}

impl ObjectRef {
    /// `PersistentVolumeClaim test/data` or `PersistentVolume pv1`.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {}/{}", self.kind, ns, self.name),
            None => format!("{} {}", self.kind, self.name),
        }
    }
}

/// Where a finding points: a file, the document in it, and a range of lines/columns.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// The source's position in the input (for ordering; not serialised).
    #[serde(skip)]
    pub(crate) source: usize,
    pub file: Str,
    /// 0-based index of the YAML document in the file.
    pub document: usize,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// The template or source file a rendered document came from (Helm's `# Source:`,
    /// Kustomize's origin annotation); line and column stay those of the rendered stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Box<Origin>>,
}

impl Location {
    pub(crate) fn new(source: usize, file: &Str, document: usize, span: Span) -> Location {
        let end = if span.end > span.start {
            span.end
        } else {
            Pos {
                line: span.start.line,
                column: span.start.column + 1,
            }
        };
        Location {
            source,
            file: file.clone(),
            document,
            line: span.start.line,
            column: span.start.column,
            end_line: end.line,
            end_column: end.column,
            origin: None,
        }
    }
}

/// The file a rendered document came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// The template or source file, as the tool names it.
    pub file: String,
    /// `helm` or `kustomize`.
    pub tool: String,
    /// That file in the repository, when the host found it (`--source-root`), and where the
    /// finding's field is in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

/// Whether a suggestion can be applied as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// `edits` fix the finding exactly as they are.
    Exact,
    /// The snippet shows the shape of the fix; adapt it.
    #[default]
    Illustration,
}

/// A text replacement in the finding's file: lines and columns 1-based, end exclusive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Edit {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub replacement: Str,
}

/// A change that fixes the finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    /// What to do, in one sentence.
    pub description: Str,
    /// YAML to put in place of (or next to) the reported field, when one snippet says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<Str>,
    #[serde(default)]
    pub applicability: Applicability,
    /// For exact suggestions: the edits that apply it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<Edit>,
}

/// The phase a consequence predicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Pending,
    Bound,
    Lost,
    Available,
    Released,
    Failed,
}

crate::string::named!(Phase {
    Pending => "Pending",
    Bound => "Bound",
    Lost => "Lost",
    Available => "Available",
    Released => "Released",
    Failed => "Failed",
});

/// An event the cluster emits, as `kubectl describe` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventText {
    #[serde(rename = "type")]
    pub kind: Str,
    pub reason: Str,
    pub message: Str,
}

/// An event a live cluster recorded, as `kubectl get events` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedEvent {
    #[serde(rename = "type")]
    pub kind: Str,
    pub reason: Str,
    pub message: Str,
    /// How many times (the server's count).
    pub count: u32,
}

/// What happens to the storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StorageFate {
    Deleted,
    Leaked,
    Kept,
}

/// What the cluster does about a finding: the object it acts on, the phase it ends in, the
/// event it emits, what happens to the storage, and the assumptions the prediction rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Consequence {
    /// In a sentence.
    pub summary: Str,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<ObjectRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventText>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<StorageFate>,
    /// What pvlint assumed about the cluster to predict this.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<Str>,
}

impl Consequence {
    /// A consequence told in a sentence only: no subject, phase, event or storage fate.
    pub fn said(summary: impl crate::string::IntoStr) -> Consequence {
        Consequence {
            summary: summary.into_str(),
            subject: None,
            phase: None,
            event: None,
            storage: None,
            assumptions: Vec::new(),
        }
    }

    /// The same, resting on these assumptions about the cluster.
    pub fn assuming(mut self, assumptions: Vec<Str>) -> Consequence {
        self.assumptions = assumptions;
        self
    }

    /// The same, ending in `phase`.
    pub fn with_phase(mut self, phase: Phase) -> Consequence {
        self.phase = Some(phase);
        self
    }

    /// The same, with the event the cluster emits (if any).
    pub fn with_event(mut self, event: Option<EventText>) -> Consequence {
        self.event = event;
        self
    }

    /// The same, with what happens to the storage.
    pub fn with_storage(mut self, storage: StorageFate) -> Consequence {
        self.storage = Some(storage);
        self
    }
}

/// A second place that explains the finding (the other half of a conflict, say).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Related {
    pub message: Str,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub rule: Str,
    pub family: Str,
    pub severity: Severity,
    /// The headline: what is wrong, on which object.
    pub message: Str,
    /// What the cluster does about it. Boxed: it would be a third of a finding's size, and
    /// many findings have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consequence: Option<Box<Consequence>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    /// Dotted field path inside the object (`spec.claimRef.uid`), empty for whole documents.
    pub path: Str,
    pub location: Location,
    pub help: Str,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Suggestion>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// Live clusters: the events the cluster recorded about the object (read when the
    /// credentials may list events), oldest first. Predictions are in `consequence`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded: Vec<RecordedEvent>,
    /// The apply set the finding is about (a position in the report's `applySets`), when the
    /// input is more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_set: Option<u32>,
}

impl Finding {
    /// Whether what the finding predicts rests on something pvlint assumed about the cluster.
    pub fn rests_on_assumptions(&self) -> bool {
        self.consequence
            .as_ref()
            .is_some_and(|c| !c.assumptions.is_empty())
    }
}
