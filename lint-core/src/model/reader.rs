//! [`Reader`]: typed fields of one object, each ill-typed value recorded as a [`Diag`].

use super::kinds::{group_of, BUILTIN_GROUPS};
use super::{Diag, DiagKind, Field, ObjId, Object, Spanned};
use crate::finding::Severity;
use crate::node::{Node, ScalarKind, Value};
use crate::quantity::Quantity;
use crate::source::Span;
use crate::string::Str;

/// Reads typed fields of one object, recording type errors.
pub struct Reader<'a> {
    pub obj: &'a Object,
    pub id: ObjId,
    pub diags: &'a mut Vec<Diag>,
}

impl<'a> Reader<'a> {
    pub fn new(obj: &'a Object, id: ObjId, diags: &'a mut Vec<Diag>) -> Self {
        Reader { obj, id, diags }
    }

    /// A string field of a fixed set of values whose default the API server fills in when it
    /// is unset or "" (SetDefaults_*: `if len(x) == 0`), then validates (`field.NotSupported`).
    /// `choices[0]` is the default. Returns the value and the field that wrote it (None when
    /// defaulted, or invalid: the object is rejected).
    pub fn defaulted_enum<T: Copy>(
        &mut self,
        path: &str,
        choices: &[(&str, T)],
        help: &str,
    ) -> (T, Option<Field>) {
        let default = choices[0].1;
        let Some(v) = self.string(path).filter(|v| !v.value.is_empty()) else {
            return (default, None);
        };
        if let Some((_, t)) = choices.iter().find(|(name, _)| *name == v.value.as_str()) {
            return (*t, Some(v.field));
        }
        let supported = choices
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect::<Vec<_>>()
            .join(", ");
        self.invalid(
            v.field,
            Severity::Error,
            format!(
                "{path}: Unsupported value: \"{}\": supported values: {supported}; the API server rejects this object",
                v.value
            ),
            help.to_string(),
        );
        (default, None)
    }

    pub fn invalid(&mut self, field: Field, severity: Severity, message: String, help: String) {
        self.diags.push(Diag {
            kind: DiagKind::InvalidValue,
            severity,
            source: self.obj.source,
            document: self.obj.document,
            object: Some(self.obj.objref()),
            obj: Some(self.id),
            field,
            message: Str::from(message),
            help: Str::from(help),
            suggestion: None,
        });
    }

    fn wrong_type(&mut self, node: &Node, path: &str, expected: &str) {
        // A word where a number belongs (`replicas: REPLICAS`): a placeholder, not a mistake.
        if (expected.starts_with("an integer") || expected.starts_with("a quantity"))
            && plain_placeholder(node)
        {
            self.record_placeholder(node, path, crate::template::Kind::Word);
            return;
        }
        let found = match &node.value {
            Value::Scalar(s) => format!("{} {}", node.type_name(), quote(&s.text)),
            _ => format!("a {}", node.type_name()),
        };
        let hint = match &node.value {
            Value::Scalar(s) if expected == "a string" && s.kind != ScalarKind::Str => {
                format!(
                    " (YAML reads it as {}; quote it: \"{}\")",
                    node.type_name(),
                    s.text
                )
            }
            Value::Scalar(s) if expected.contains("integer") && s.kind == ScalarKind::Str => {
                " (quoted numbers are strings in YAML; write the number without quotes)".to_string()
            }
            _ => String::new(),
        };
        self.invalid(
            Field {
                path: Str::from(path),
                span: node.span,
            },
            Severity::Error,
            format!(
                "{path} must be {expected}, found {found}{hint}: the API server rejects this object (kubectl apply fails with \"cannot unmarshal\")"
            ),
            format!("write {path} as {expected}"),
        );
    }

    /// A node at a path; a `null` value counts as absent (as in Kubernetes' JSON decoding),
    /// and so does an unrendered template placeholder (recorded, not judged).
    pub fn node(&mut self, path: &str) -> Option<&'a Node> {
        let n = self.obj.root().at(path)?;
        if self.placeholder(n, path) {
            return None;
        }
        (!n.is_null()).then_some(n)
    }

    /// Records a scalar that is an unrendered template placeholder, or a field a
    /// kustomization's `replacements` overwrite.
    pub(crate) fn placeholder(&mut self, n: &Node, path: &str) -> bool {
        let replaced = self
            .obj
            .replaced
            .as_deref()
            .is_some_and(|spans| spans.contains(&n.span));
        let Some(kind) = n
            .as_scalar()
            .and_then(|s| crate::template::in_value(&s.text))
            .or(replaced.then_some(crate::template::Kind::Replacement))
        else {
            return false;
        };
        self.record_placeholder(n, path, kind);
        true
    }

    fn record_placeholder(&mut self, n: &Node, path: &str, kind: crate::template::Kind) {
        self.diags.push(Diag {
            kind: DiagKind::Template(kind),
            severity: Severity::Info,
            source: self.obj.source,
            document: self.obj.document,
            object: Some(self.obj.objref()),
            obj: Some(self.id),
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
            message: Str::default(),
            help: Str::default(),
            suggestion: None,
        });
    }

    /// Records a template placeholder written in a key (`${COMMENT}namespace:`): keys are
    /// never shell text, so one there makes the document a template.
    pub fn placeholders_in_keys(&mut self) {
        fn find<'a>(
            n: &'a Node,
            at: &mut Vec<Step<'a>>,
        ) -> Option<(crate::template::Kind, Span, String)> {
            match &n.value {
                Value::Map(entries) => entries.iter().find_map(|e| {
                    at.push(Step::Key(&e.key));
                    let found = match crate::template::in_key(&e.key) {
                        Some(k) => Some((k, e.key_span, path_of(at))),
                        None => find(&e.value, at),
                    };
                    at.pop();
                    found
                }),
                Value::Seq(items) => items.iter().enumerate().find_map(|(i, it)| {
                    at.push(Step::Index(i));
                    let found = find(it, at);
                    at.pop();
                    found
                }),
                Value::Scalar(_) => None,
            }
        }
        if let Some((kind, span, path)) = find(self.obj.root(), &mut Vec::new()) {
            let at = Node {
                value: Value::Scalar(crate::node::Scalar {
                    text: Str::default(),
                    kind: ScalarKind::Str,
                }),
                span,
            };
            self.record_placeholder(&at, &path, kind);
        }
    }

    /// Records the template placeholders (`$UID`, `${PORT}`, `{{ .Values.port }}`) that stand
    /// where every built-in type wants an integer (`runAsUser: $ID`): such an object cannot be
    /// decoded as written ("cannot unmarshal string into Go struct field ... of type int64"),
    /// so it is a template a script fills in, whatever fields pvlint itself reads.
    pub fn placeholders_in_integers(&mut self) {
        if !BUILTIN_GROUPS.contains(&group_of(&self.obj.api_version)) {
            return; // a custom resource's schema is not known
        }
        let mut found = Vec::new();
        walk_integers(self.obj.root(), &mut Vec::new(), &mut found);
        for (n, path) in found {
            self.placeholder(n, &path);
        }
    }

    pub fn string_in(&mut self, base: &Node, base_path: &str, key: &str) -> Option<Spanned<Str>> {
        let n = base.get(key)?;
        let path = join(base_path, key);
        string_of(self, n, &path)
    }

    pub fn string(&mut self, path: &str) -> Option<Spanned<Str>> {
        let n = self.node(path)?;
        string_of(self, n, path)
    }

    pub fn int(&mut self, path: &str) -> Option<Spanned<i64>> {
        let n = self.node(path)?;
        let field = Field {
            path: Str::from(path),
            span: n.span,
        };
        match n.as_scalar() {
            Some(s) if s.kind == ScalarKind::Int => match parse_int(&s.text) {
                Some(v) => Some(Spanned { value: v, field }),
                None => {
                    self.wrong_type(n, path, "an integer (it is out of range)");
                    None
                }
            },
            _ => {
                self.wrong_type(n, path, "an integer");
                None
            }
        }
    }

    pub fn bool(&mut self, path: &str) -> Option<Spanned<bool>> {
        let n = self.node(path)?;
        match n.as_scalar().map(|s| s.kind) {
            Some(ScalarKind::Bool(b)) => Some(Spanned {
                value: b,
                field: Field {
                    path: Str::from(path),
                    span: n.span,
                },
            }),
            _ => {
                self.wrong_type(n, path, "a boolean (true or false)");
                None
            }
        }
    }

    pub fn quantity(&mut self, path: &str) -> Option<Spanned<Quantity>> {
        let n = self.node(path)?;
        let field = Field {
            path: Str::from(path),
            span: n.span,
        };
        let text = match n.as_scalar() {
            Some(s)
                if matches!(
                    s.kind,
                    ScalarKind::Str | ScalarKind::Int | ScalarKind::Float
                ) =>
            {
                s.text.clone()
            }
            _ => {
                self.wrong_type(n, path, "a quantity such as 10Gi");
                return None;
            }
        };
        match Quantity::parse(&text) {
            Ok(q) => Some(Spanned { value: q, field }),
            // A word where a size belongs: a placeholder (recorded, not judged).
            Err(_) if plain_placeholder(n) => {
                self.record_placeholder(n, path, crate::template::Kind::Word);
                None
            }
            Err(e) => {
                self.invalid(
                    field,
                    Severity::Error,
                    format!("{path}: {e}: the API server rejects this object"),
                    "write the size with a Kubernetes suffix: Ki, Mi, Gi, Ti (powers of 1024) or k, M, G, T (powers of 1000)".into(),
                );
                None
            }
        }
    }

    /// A list of strings; wrong-typed entries are reported and skipped.
    pub fn strings(&mut self, path: &str) -> Option<Spanned<Vec<Spanned<Str>>>> {
        let n = self.node(path)?;
        let Some(items) = n.as_seq() else {
            self.wrong_type(n, path, "a list");
            return None;
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = format!("{path}[{i}]");
            if let Some(s) = string_of(self, item, &p) {
                out.push(s);
            }
        }
        Some(Spanned {
            value: out,
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
        })
    }

    /// A map (or absent); anything else is reported.
    pub fn map(&mut self, path: &str) -> Option<&'a Node> {
        let n = self.node(path)?;
        if n.as_map().is_some() {
            Some(n)
        } else {
            self.wrong_type(n, path, "a map");
            None
        }
    }

    /// A list (or absent); anything else is reported.
    pub fn seq(&mut self, path: &str) -> Option<&'a [Node]> {
        let n = self.node(path)?;
        match n.as_seq() {
            Some(s) => Some(s),
            None => {
                self.wrong_type(n, path, "a list");
                None
            }
        }
    }
}

fn string_of(r: &mut Reader<'_>, n: &Node, path: &str) -> Option<Spanned<Str>> {
    if n.is_null() || r.placeholder(n, path) {
        return None;
    }
    match n.as_str() {
        Some(s) => Some(Spanned {
            value: Str::from(s),
            field: Field {
                path: Str::from(path),
                span: n.span,
            },
        }),
        None => {
            r.wrong_type(n, path, "a string");
            None
        }
    }
}

/// Fields that are integers in every built-in type that has them (not `port`, an IntOrString
/// in probes, nor `targetPort`).
const INTEGER_FIELDS: &[&str] = &[
    "activeDeadlineSeconds",
    "backoffLimit",
    "completions",
    "containerPort",
    "defaultMode",
    "failureThreshold",
    "fsGroup",
    "hostPort",
    "initialDelaySeconds",
    "minReadySeconds",
    "nodePort",
    "parallelism",
    "periodSeconds",
    "progressDeadlineSeconds",
    "replicas",
    "revisionHistoryLimit",
    "runAsGroup",
    "runAsUser",
    "successThreshold",
    "terminationGracePeriodSeconds",
    "timeoutSeconds",
];

/// One step of a path from an object's root, kept while walking and written out
/// (`spec.containers[0].name`, as [`join`] writes it) only for what is found.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_of(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => {
                use std::fmt::Write;
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

fn walk_integers<'a>(node: &'a Node, at: &mut Vec<Step<'a>>, found: &mut Vec<(&'a Node, String)>) {
    match &node.value {
        Value::Map(entries) => {
            for e in entries.iter() {
                let (key, v) = (e.key.as_str(), &e.value);
                at.push(Step::Key(key));
                match &v.value {
                    Value::Scalar(s)
                        if s.kind == ScalarKind::Str
                            && INTEGER_FIELDS.contains(&key)
                            && crate::template::in_value(&s.text).is_some() =>
                    {
                        found.push((v, path_of(at)));
                    }
                    _ => walk_integers(v, at, found),
                }
                at.pop();
            }
        }
        Value::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Step::Index(i));
                walk_integers(v, at, found);
                at.pop();
            }
        }
        _ => {}
    }
}

pub fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

fn quote(s: &str) -> String {
    format!("{s:?}")
}

/// A plain (unquoted) scalar that is a placeholder word (see
/// [`crate::template::placeholder_word`]).
fn plain_placeholder(node: &Node) -> bool {
    node.as_scalar().is_some_and(|s| {
        s.kind == ScalarKind::Str
            && node.span.start.column < node.span.end.column
            && crate::template::placeholder_word(&s.text)
            && node.span.end.column - node.span.start.column == s.text.chars().count() as u32
    })
}

/// The value of an integer scalar (YAML 1.1 as kubectl reads it: `0644` is octal), when it
/// fits an i64.
pub(crate) fn parse_int(t: &str) -> Option<i64> {
    crate::scalar::int_value(t).and_then(|v| i64::try_from(v).ok())
}
