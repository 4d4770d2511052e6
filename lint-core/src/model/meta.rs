//! Object metadata and label selectors, read with spans and diagnostics.

use super::{Field, Reader, Spanned};
use crate::binding::selector::{Requirement, OPERATORS};
use crate::binding::{LabelSelector, Labels};
use crate::finding::Severity;
use crate::node::Node;
use crate::string::Str;

/// The metadata the simulator needs of an object (or of a claim template, under its prefix).
#[derive(Debug, Clone, Default)]
pub struct Meta {
    pub labels: Labels,
    /// metadata.uid: set on objects exported from a cluster. Boxed, as `phase`: few manifests
    /// have them, and a view of every claim and volume carries a `Meta`.
    pub uid: Option<Box<Spanned<Str>>>,
    /// metadata.deletionTimestamp is set: the object is being deleted.
    pub deleting: bool,
    /// status.phase (exports and cluster state).
    pub phase: Option<Box<Spanned<Str>>>,
}

/// Reads `<prefix>metadata` (labels, uid, timestamps) and `<prefix>status.phase`.
pub(crate) fn read_meta(r: &mut Reader<'_>, prefix: &str) -> Meta {
    let labels = read_labels(r, &format!("{prefix}metadata.labels"));
    let uid = r
        .string(&format!("{prefix}metadata.uid"))
        .filter(|s| !s.value.is_empty())
        .map(Box::new);
    let deleting = r
        .node(&format!("{prefix}metadata.deletionTimestamp"))
        .is_some();
    let phase = r.string(&format!("{prefix}status.phase")).map(Box::new);
    Meta {
        labels,
        uid,
        deleting,
        phase,
    }
}

/// One entry of `metadata.ownerReferences`, complete (apiVersion, kind, name and uid all
/// given, as ValidateOwnerReferences requires). The garbage collector deletes an object whose
/// owners are all gone: no object of that kind and name, or one with another UID
/// (garbagecollector.go `isDangling`, `attemptToDeleteItem`).
#[derive(Debug, Clone)]
pub struct OwnerRef {
    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    pub uid: Spanned<Str>,
}

/// `<prefix>metadata.ownerReferences`, when every entry is complete. An entry without
/// apiVersion, kind, name or uid makes the API server reject the object
/// (`metadata.ownerReferences.uid: Invalid value: "": must not be empty`): then none are
/// returned, and no finding rests on them. Read as written, without diagnostics (the metadata
/// check reports what `ValidateOwnerReferences` rejects); a template placeholder in it leaves
/// the references out.
pub(crate) fn read_owners(obj: &super::Object, prefix: &str) -> Box<[OwnerRef]> {
    let path = format!("{prefix}metadata.ownerReferences");
    let Some(items) = obj.root().at(&path).and_then(Node::as_seq) else {
        return Box::default();
    };
    let mut owners = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let s = |key: &str| {
            item.get(key)
                .and_then(Node::as_str)
                .filter(|v| !v.is_empty() && crate::template::in_value(v).is_none())
        };
        let (Some(api_version), Some(kind), Some(name), Some(uid)) =
            (s("apiVersion"), s("kind"), s("name"), s("uid"))
        else {
            return Box::default();
        };
        owners.push(OwnerRef {
            api_version: Str::from(api_version),
            kind: Str::from(kind),
            name: Str::from(name),
            uid: Spanned {
                value: Str::from(uid),
                field: Field {
                    path: Str::from(format!("{path}[{i}].uid")),
                    span: item.get("uid").map_or(item.span, |n| n.span),
                },
            },
        });
    }
    owners.into_boxed_slice()
}

/// A map of string values (labels); ill-typed values are reported by the metadata check and
/// left out here.
pub(crate) fn read_labels(r: &mut Reader<'_>, path: &str) -> Labels {
    r.node(path)
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
        .collect()
}

/// A `metav1.LabelSelector` at `path`. An unknown operator, In/NotIn without values or
/// Exists/DoesNotExist with values is reported (ValidateLabelSelector: the API server rejects
/// the object) and the selector is dropped.
pub(crate) fn read_selector(r: &mut Reader<'_>, path: &str) -> Option<Spanned<LabelSelector>> {
    let node = r.map(path)?;
    let field = Field {
        path: Str::from(path),
        span: node.span,
    };
    let mut requirements = Vec::new();
    let ml = format!("{path}.matchLabels");
    if r.map(&ml).is_some() {
        for (k, v) in read_labels(r, &ml) {
            requirements.push(Requirement::Equals(k, v));
        }
    }
    let me = format!("{path}.matchExpressions");
    let mut ok = true;
    if let Some(items) = r.seq(&me) {
        for (i, item) in items.iter().enumerate() {
            let base = format!("{me}[{i}]");
            let key = r.string_in(item, &base, "key").map(|s| s.value);
            let op = r.string_in(item, &base, "operator");
            let values: Vec<String> = match item.get("values").filter(|n| !n.is_null()) {
                Some(n) => match n.as_seq() {
                    Some(vs) => vs
                        .iter()
                        .filter_map(|v| v.as_scalar().map(|s| s.text.to_string()))
                        .collect(),
                    None => {
                        r.invalid(
                            Field {
                                path: Str::from(format!("{base}.values")),
                                span: n.span,
                            },
                            Severity::Error,
                            format!("{base}.values must be a list of strings; the API server rejects this object"),
                            "write values as a list, e.g. values: [a, b]".into(),
                        );
                        ok = false;
                        continue;
                    }
                },
                None => Vec::new(),
            };
            let (Some(key), Some(op)) = (key, op) else {
                r.invalid(
                    Field {
                        path: Str::from(&base),
                        span: item.span,
                    },
                    Severity::Error,
                    format!("{base}: Required value: a selector expression needs key and operator; the API server rejects this object"),
                    "give each expression a key and an operator (In, NotIn, Exists, DoesNotExist)".into(),
                );
                ok = false;
                continue;
            };
            let req = match op.value.as_str() {
                "In" | "NotIn" if values.is_empty() => {
                    r.invalid(
                        op.field.clone(),
                        Severity::Error,
                        format!("{base}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'; the API server rejects this object"),
                        "list the values to match".into(),
                    );
                    ok = false;
                    continue;
                }
                "Exists" | "DoesNotExist" if !values.is_empty() => {
                    r.invalid(
                        op.field.clone(),
                        Severity::Error,
                        format!("{base}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'; the API server rejects this object"),
                        "remove values".into(),
                    );
                    ok = false;
                    continue;
                }
                "In" => Requirement::In(String::from(key), values),
                "NotIn" => Requirement::NotIn(String::from(key), values),
                "Exists" => Requirement::Exists(String::from(key)),
                "DoesNotExist" => Requirement::DoesNotExist(String::from(key)),
                other => {
                    let near = crate::schema::suggest(other, OPERATORS.iter().copied());
                    r.invalid(
                        op.field.clone(),
                        Severity::Error,
                        format!("{base}.operator: Invalid value: \"{other}\": not a valid selector operator; the API server rejects this object"),
                        match near {
                            Some(n) => format!("did you mean {n}? (operators: In, NotIn, Exists, DoesNotExist)"),
                            None => "use In, NotIn, Exists or DoesNotExist".into(),
                        },
                    );
                    ok = false;
                    continue;
                }
            };
            requirements.push(req);
        }
    }
    ok.then_some(Spanned {
        value: LabelSelector { requirements },
        field,
    })
}
