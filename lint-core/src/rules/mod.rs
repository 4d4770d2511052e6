//! The rule registry. One rule per file in this folder, registered by build.rs.
//!
//! A rule file defines `pub const RULE: Rule` with its id, family, default severity and
//! documentation in four fixed sections, and a `check` function that reads the
//! [`Context`] and reports through a [`Sink`]. Its fixtures live in
//! `tests/fixtures/<rule-id>/` (`bad*.yaml` must trigger it, `good*.yaml` must not);
//! `bad.yaml` and `good.yaml` double as the documentation's example and fix.

use std::fmt;

use serde::Serialize;

use crate::finding::{Finding, Location, ObjectRef, Related, Severity, Suggestion};
use crate::index::Index;
use crate::model::{Field, ObjId, Object};
use crate::options::Options;
use crate::source::Source;

include!(concat!(env!("OUT_DIR"), "/rules_registry.rs"));

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
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub family: Family,
    pub severity: Severity,
    /// One line for the rule table.
    pub summary: &'static str,
    pub docs: Docs,
    #[serde(skip)]
    pub check: fn(&Context<'_>, &mut Sink<'_>),
}

impl fmt::Debug for Sink<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sink({})", self.rule.id)
    }
}

pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.id == id)
}

/// What a rule sees.
pub struct Context<'a> {
    pub sources: &'a [Source],
    pub index: &'a Index,
    pub options: &'a Options,
    /// The binding simulation of the input applied onto the cluster state.
    pub sim: &'a crate::sim::World,
    /// The cluster state was given (or `--complete`): objects missing from it do not exist.
    pub cluster_known: bool,
}

impl Context<'_> {
    pub fn obj(&self, id: ObjId) -> &Object {
        self.index.object(id)
    }

    pub fn location(&self, obj: &Object, field: &Field) -> Location {
        Location::new(&self.sources[obj.source].name, obj.document, field.span)
    }
}

/// Collects one rule's findings.
pub struct Sink<'a> {
    pub rule: &'static Rule,
    pub out: &'a mut Vec<Finding>,
}

impl Sink<'_> {
    /// Starts a finding of this rule, with its default severity.
    fn push(
        &mut self,
        object: Option<ObjectRef>,
        path: &str,
        location: Location,
        message: String,
    ) -> &mut Finding {
        self.out.push(Finding {
            rule: self.rule.id.to_string(),
            family: self.rule.family.as_str().to_string(),
            severity: self.rule.severity,
            message,
            object,
            path: path.to_string(),
            location,
            help: String::new(),
            suggestion: None,
            related: Vec::new(),
            cause: None,
        });
        self.out.last_mut().expect("just pushed")
    }

    /// Reports a finding at `field` of object `obj`, with the rule's default severity.
    pub fn report(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        message: impl Into<String>,
    ) -> &mut Finding {
        let o = ctx.obj(obj);
        self.push(
            Some(o.objref()),
            &field.path,
            ctx.location(o, field),
            message.into(),
        )
    }

    /// Reports a problem found while reading the input (see [`crate::model::Diag`]) in `file`.
    pub fn report_diag(&mut self, file: &str, d: &crate::model::Diag) -> &mut Finding {
        let location = Location::new(file, d.document, d.field.span);
        let f = self.push(d.object.clone(), &d.field.path, location, d.message.clone());
        f.severity = d.severity;
        f.help = d.help.clone();
        f.suggestion = d.suggestion.clone();
        f
    }
}

impl Finding {
    /// This finding is the primary report of a root cause.
    pub fn root_cause(&mut self, key: impl Into<String>) -> &mut Self {
        self.cause = Some((key.into(), true));
        self
    }

    /// This finding reports a consequence of a root cause; it is dropped when a rule reports
    /// the cause itself.
    pub fn consequence_of(&mut self, key: impl Into<String>) -> &mut Self {
        self.cause = Some((key.into(), false));
        self
    }

    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = help.into();
        self
    }

    pub fn severity(&mut self, s: Severity) -> &mut Self {
        self.severity = s;
        self
    }

    pub fn suggest(
        &mut self,
        description: impl Into<String>,
        snippet: Option<String>,
    ) -> &mut Self {
        self.suggestion = Some(Suggestion {
            description: description.into(),
            snippet,
        });
        self
    }

    pub fn related(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        message: impl Into<String>,
    ) -> &mut Self {
        let o = ctx.obj(obj);
        self.related.push(Related {
            message: message.into(),
            location: ctx.location(o, field),
        });
        self
    }
}

/// What rule files import.
#[allow(unused_imports)]
pub(crate) mod prelude {
    pub use super::{Context, Docs, Family, Rule, Sink};
    pub use crate::facts;
    pub use crate::finding::Severity;
    pub use crate::kube::{self, AccessModes, ReclaimPolicy};
    pub use crate::model::{ClaimClass, Field, Pv, Pvc, Workload};
    pub use crate::sim::{ClaimPhase, Origin, VolumePhase};
}
