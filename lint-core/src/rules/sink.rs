//! How a rule reports: a [`Sink`] collects one rule's findings ([`Reported`]: the finding and
//! the root cause it reports or follows from), built with the methods of [`Reported`].

use std::fmt;

use super::{Context, Rule};
use crate::finding::{
    Consequence, Edit, Finding, Location, ObjectRef, Related, Severity, Suggestion,
};
use crate::model::{Field, ObjId};
use crate::sim::{CauseKey, Role};
use crate::source::{Source, Span};
use crate::string::{IntoStr, Str};

/// A finding as a rule reports it, with the root cause it reports or follows from (which the
/// pipeline reads to keep one finding per cause; not part of the report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reported {
    pub finding: Finding,
    /// The root cause this finding reports, and the part it plays for it. Boxed: few findings
    /// have one, and it would be a sixth of a finding's size.
    pub cause: Option<Box<(CauseKey, Role)>>,
}

impl std::ops::Deref for Reported {
    type Target = Finding;
    fn deref(&self) -> &Finding {
        &self.finding
    }
}

impl std::ops::DerefMut for Reported {
    fn deref_mut(&mut self) -> &mut Finding {
        &mut self.finding
    }
}

impl AsRef<Finding> for Reported {
    fn as_ref(&self) -> &Finding {
        &self.finding
    }
}

impl AsMut<Finding> for Reported {
    fn as_mut(&mut self) -> &mut Finding {
        &mut self.finding
    }
}

impl From<Reported> for Finding {
    fn from(r: Reported) -> Finding {
        r.finding
    }
}

/// Collects one rule's findings.
pub(crate) struct Sink<'a> {
    pub rule: &'static Rule,
    pub out: &'a mut Vec<Reported>,
    /// The rule's texts so far: findings that say the same thing share one copy of it.
    texts: Texts,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(rule: &'static Rule, out: &'a mut Vec<Reported>) -> Sink<'a> {
        Sink {
            rule,
            out,
            texts: Texts::default(),
        }
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        if let Some(last) = self.out.last_mut() {
            self.texts.finding(last);
        }
    }
}

/// One copy of each text a rule writes into many findings (the consequence of the same
/// rollout, the same assumption, "the claim's access modes are RWO"), shared by count. Only
/// the headline, which names the object, is left alone. A finding's texts are shared once it is
/// complete: when the rule reports the next one, or is done.
#[derive(Default)]
struct Texts(std::collections::HashSet<Str>);

impl Texts {
    fn share(&mut self, s: &mut Str) {
        if !s.is_heap() {
            return;
        }
        match self.0.get(s.as_str()) {
            Some(t) => *s = t.clone(),
            None => {
                let t = std::mem::take(s).shared();
                self.0.insert(t.clone());
                *s = t;
            }
        }
    }

    fn finding(&mut self, f: &mut Finding) {
        self.share(&mut f.help);
        if let Some(c) = &mut f.consequence {
            self.share(&mut c.summary);
            c.assumptions.iter_mut().for_each(|a| self.share(a));
            if let Some(e) = &mut c.event {
                self.share(&mut e.message);
            }
        }
        if let Some(s) = &mut f.suggestion {
            self.share(&mut s.description);
            if let Some(snippet) = &mut s.snippet {
                self.share(snippet);
            }
        }
        f.related
            .iter_mut()
            .for_each(|r| self.share(&mut r.message));
    }
}

impl fmt::Debug for Sink<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sink({})", self.rule.id)
    }
}

impl Sink<'_> {
    fn push(
        &mut self,
        object: Option<ObjectRef>,
        path: &str,
        location: Location,
        message: String,
    ) -> &mut Reported {
        if let Some(last) = self.out.last_mut() {
            self.texts.finding(last);
        }
        let finding = Finding {
            rule: Str::from_static(self.rule.id),
            family: Str::from_static(self.rule.family.as_str()),
            severity: self.rule.severity,
            message: Str::from(message),
            consequence: None,
            object,
            path: Str::from(path),
            location,
            help: Str::default(),
            suggestion: None,
            related: Vec::new(),
            recorded: Vec::new(),
            apply_set: None,
        };
        self.out.push(Reported {
            finding,
            cause: None,
        });
        self.out.last_mut().expect("just pushed")
    }

    /// Reports a finding at `field` of manifest object `obj`, with the rule's default severity.
    /// `headline` says what is wrong on which object, briefly.
    pub fn report(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        headline: impl Into<String>,
    ) -> &mut Reported {
        let o = ctx.obj(obj);
        self.push(
            Some(o.objref()),
            &field.path,
            ctx.location(o, field),
            headline.into(),
        )
    }

    /// Reports a problem found while reading the input (see [`crate::model::Diag`]).
    pub fn report_diag(&mut self, sources: &[Source], d: &crate::model::Diag) -> &mut Reported {
        let location = Location::new(d.source, &sources[d.source].name, d.document, d.field.span);
        let f = self.push(
            d.object.clone(),
            &d.field.path,
            location,
            d.message.to_string(),
        );
        f.severity = d.severity;
        f.help = Str::from(&d.help);
        f.suggestion = d.suggestion.clone();
        f
    }
}

impl Reported {
    /// This finding is the specific report of a root cause.
    pub fn root_cause(&mut self, key: CauseKey) -> &mut Self {
        self.cause = Some(Box::new((key, Role::Cause)));
        self
    }

    /// This finding reports a consequence of a root cause; it is dropped when a rule reports
    /// the cause itself.
    pub fn consequence_of(&mut self, key: CauseKey) -> &mut Self {
        self.cause = Some(Box::new((key, Role::Consequence)));
        self
    }

    pub fn consequence(&mut self, c: Consequence) -> &mut Self {
        self.consequence = Some(Box::new(c));
        self
    }

    /// Live clusters: the events the cluster recorded about `kind` `namespace/name`.
    pub fn recorded(
        &mut self,
        live: &crate::model::live::Live,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> &mut Self {
        self.recorded = live
            .events_about(kind, namespace, name)
            .map(|e| crate::finding::RecordedEvent {
                kind: e.kind.clone(),
                reason: e.reason.clone(),
                message: e.message.clone(),
                count: e.count,
            })
            .collect();
        self
    }

    pub fn help(&mut self, help: impl IntoStr) -> &mut Self {
        self.help = help.into_str();
        self
    }

    pub fn severity(&mut self, s: Severity) -> &mut Self {
        self.severity = s;
        self
    }

    /// A suggestion whose snippet shows the shape of the fix.
    pub fn suggest(
        &mut self,
        description: impl IntoStr,
        snippet: Option<impl IntoStr>,
    ) -> &mut Self {
        self.suggestion = Some(Suggestion {
            description: description.into_str(),
            snippet: snippet.map(IntoStr::into_str),
            applicability: crate::finding::Applicability::Illustration,
            edits: Vec::new(),
        });
        self
    }

    /// A suggestion that replaces the text at `span` with `replacement`, exactly.
    pub fn suggest_replace(
        &mut self,
        description: impl IntoStr,
        span: Span,
        replacement: impl Into<String>,
    ) -> &mut Self {
        let replacement = replacement.into();
        self.suggestion = Some(Suggestion {
            description: description.into_str(),
            snippet: Some(Str::from(&replacement)),
            applicability: crate::finding::Applicability::Exact,
            edits: vec![Edit {
                line: span.start.line,
                column: span.start.column,
                end_line: span.end.line,
                end_column: span.end.column,
                replacement: Str::from(replacement),
            }],
        });
        self
    }

    pub(crate) fn related(
        &mut self,
        ctx: &Context<'_>,
        obj: ObjId,
        field: &Field,
        message: impl IntoStr,
    ) -> &mut Self {
        let o = ctx.obj(obj);
        if self.related.is_empty() {
            // Most findings point at one or two other places: not the default room for four.
            self.related.reserve_exact(2);
        }
        self.related.push(Related {
            message: message.into_str(),
            location: ctx.location(o, field),
        });
        self
    }
}
