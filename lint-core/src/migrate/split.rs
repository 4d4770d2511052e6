//! The input split into one text per object (List items too), each read as a tree.

use super::edit::Lines;
use super::MigrateError;
use crate::node::Node;
use crate::source::Source;
use crate::yaml;
use crate::yaml::write::write as emit;

pub(super) struct Piece {
    pub(super) file: String,
    /// Line of the input where the object starts.
    pub(super) line: u32,
    pub(super) text: String,
}

pub(super) struct Parsed {
    pub(super) file: String,
    pub(super) line: u32,
    pub(super) text: String,
    pub(super) root: Node,
}

pub(super) fn split_objects(src: &Source, out: &mut Vec<Piece>, errors: &mut Vec<MigrateError>) {
    for chunk in yaml::split_documents(&src.text) {
        if yaml::is_blank(chunk.text) {
            continue;
        }
        let offset = chunk.first_line - 1;
        let (docs, issues) = yaml::parse_stream(chunk.text);
        if !issues.is_empty() {
            for i in issues {
                errors.push(MigrateError {
                    file: src.name.to_string(),
                    line: i.span.start.line + offset,
                    column: i.span.start.column,
                    message: i.message,
                });
            }
            continue;
        }
        let Some(root) = docs.into_iter().next().and_then(|d| d.root) else {
            continue;
        };
        let lines = Lines::new(chunk.text);
        collect_objects(src, chunk.text, &lines, offset, &root, out, errors);
    }
}

pub(super) fn is_list(root: &Node) -> bool {
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    (kind == "List" || kind.ends_with("List")) && root.get("items").and_then(Node::as_seq).is_some()
}

pub(super) fn collect_objects(
    src: &Source,
    text: &str,
    lines: &Lines,
    offset: u32,
    root: &Node,
    out: &mut Vec<Piece>,
    errors: &mut Vec<MigrateError>,
) {
    let error = |errors: &mut Vec<MigrateError>, node: &Node, message: String| {
        errors.push(MigrateError {
            file: src.name.to_string(),
            line: node.span.start.line + offset,
            column: node.span.start.column,
            message,
        })
    };
    let Some(map) = root.as_map() else {
        if !root.is_null() {
            error(
                errors,
                root,
                format!(
                    "this document is a {}, not a Kubernetes object",
                    root.type_name()
                ),
            );
        }
        return;
    };
    let has_str = |k: &str| map.iter().any(|e| e.key == k && e.value.as_str().is_some());
    if !has_str("kind") || !has_str("apiVersion") {
        error(
            errors,
            root,
            "this document has no string apiVersion and kind: it is not a Kubernetes object".into(),
        );
        return;
    }
    if is_list(root) {
        let items = root.get("items").and_then(Node::as_seq).unwrap_or_default();
        let ends: Vec<u32> = items
            .iter()
            .skip(1)
            .map(|n| n.span.start.line)
            .chain(std::iter::once(u32::MAX))
            .collect();
        // The List's own leading comments go with its first item.
        let mut leading: String = (1..root.span.start.line)
            .map(|n| lines.line(n))
            .filter(|l| l.trim_start().starts_with('#'))
            .map(|l| format!("{}\n", l.trim_start()))
            .collect();
        for (item, next) in items.iter().zip(ends) {
            if item.as_map().is_none() {
                error(
                    errors,
                    item,
                    format!(
                        "a List item is a {}, not a Kubernetes object",
                        item.type_name()
                    ),
                );
                continue;
            }
            let mut text = if lines.char_at(item.span.start) == Some('{') {
                emit(item)
            } else {
                // The item's own lines keep its comments and layout; if they do not read back
                // as exactly the item (a layout the cut does not know), it is written out anew.
                let cut = lines.cut_item(item.span.start, next);
                if reads_as(&cut, item) {
                    cut
                } else {
                    emit(item)
                }
            };
            text.insert_str(0, &std::mem::take(&mut leading));
            out.push(Piece {
                file: src.name.to_string(),
                line: item.span.start.line + offset,
                text,
            });
        }
        return;
    }
    let text = if lines.char_at(root.span.start) == Some('{')
        || lines.char_at(root.span.start) == Some('[')
    {
        emit(root)
    } else {
        strip_markers(text)
    };
    out.push(Piece {
        file: src.name.to_string(),
        line: root.span.start.line + offset,
        text,
    });
}

/// A document's text without its `---` / `...` marker lines, ending in a newline.
pub(super) fn strip_markers(text: &str) -> String {
    let mut out = String::new();
    for l in text.split_inclusive('\n') {
        let content = l.trim_end_matches(['\n', '\r']);
        if yaml::is_marker(content, "...") {
            continue;
        }
        if yaml::is_marker(content, "---") {
            // `--- {a: 1}` or `--- # comment`: keep what follows the marker.
            let rest = content[3..].trim_start();
            if !rest.is_empty() {
                out.push_str(rest);
                out.push('\n');
            }
            continue;
        }
        out.push_str(l);
    }
    let trimmed = out.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    out.truncate(trimmed);
    out.push('\n');
    out
}

/// Whether `text` is one YAML document with the same content as `item`.
pub(super) fn reads_as(text: &str, item: &Node) -> bool {
    let (docs, issues) = crate::yaml::parse_stream(text);
    issues.is_empty()
        && docs.len() == 1
        && docs[0]
            .root
            .as_ref()
            .is_some_and(|r| crate::node::same_content(r, item))
}

pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}
