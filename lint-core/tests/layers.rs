//! Lower layers know nothing of higher ones: every `crate::` (and `super::`) path of every
//! module of `src/` is read and checked against the layer table of ARCHITECTURE.md ("Layers"):
//! a module may use its own layer and the layers below it, the modules form no cycle, and
//! `lib.rs` only declares and re-exports (a module that reaches a re-export of the crate root
//! reaches the top layer). No module is over 600 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The layer table: module → layer (1 is the lowest). The crate root is `lib`.
fn layers() -> BTreeMap<String, u32> {
    let doc = fs::read_to_string(root().join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = doc
        .find("<!-- layers -->")
        .expect("ARCHITECTURE.md marks its layer table with <!-- layers -->");
    let mut out = BTreeMap::new();
    for line in doc[start..].lines().skip(1) {
        let line = line.trim();
        if line.is_empty() && !out.is_empty() {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let Some(layer) = cells[1]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        for module in cells[2].split('`').skip(1).step_by(2) {
            let previous = out.insert(module.to_string(), layer);
            assert!(previous.is_none(), "{module} is in the layer table twice");
        }
    }
    assert!(!out.is_empty(), "no layer table found in ARCHITECTURE.md");
    out
}

/// The crate's top-level modules, as lib.rs declares them.
fn declared_modules() -> BTreeSet<String> {
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').trim().to_string())
        })
        .collect()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file: `src/sim/load.rs` → [sim, load], `src/sim/mod.rs` → [sim],
/// `src/lib.rs` → [].
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file with comments, string and character literals blanked out (newlines
/// kept, so that positions keep their line).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&b, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\''), or a lifetime ('a): left as it is.
            let lit = match (next, b.get(i + 2), b.get(i + 3)) {
                (Some('\\'), _, _) => b[i + 2..].iter().position(|&x| x == '\'').map(|p| p + 3),
                (Some(_), Some('\''), _) => Some(3),
                _ => None,
            };
            match lit {
                Some(n) => {
                    for _ in 0..n {
                        out.push(' ');
                    }
                    i += n;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The code without its `#[cfg(test)]` items: tests may reach any layer.
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let rest = &out[at..];
        // The item ends at its closing brace (a module) or at its semicolon.
        let open = rest.find('{');
        let semi = rest.find(';');
        let end = match (open, semi) {
            (Some(o), Some(s)) if s < o => s + 1,
            (Some(o), _) => {
                let mut depth = 0;
                let mut end = rest.len();
                for (k, ch) in rest[o..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => rest.len(),
        };
        let blanked: String = rest[..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..at + end, &blanked);
    }
    out
}

/// A use of another module: the top-level module it reaches, and the line.
#[derive(Debug)]
struct Arrow {
    to: String,
    line: usize,
}

/// The top-level modules a file's code reaches through `crate::` and `super::` paths (each
/// item of a `use crate::{a::X, b::Y}` group counts). `super::` is resolved against the
/// file's module and the inline modules (`mod prelude { … }`) it is in.
fn arrows(text: &str, path: &[String], modules: &BTreeSet<String>) -> Vec<Arrow> {
    let code = without_tests(&code_only(text));
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    // Inline modules: (the depth of braces at their opening, their name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut line = 1;
    let mut i = 0;
    let word_at = |i: usize, w: &str| -> bool {
        let wc: Vec<char> = w.chars().collect();
        chars.len() >= i + wc.len()
            && chars[i..i + wc.len()] == wc[..]
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => line += 1,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        if word_at(i, "mod ") {
            let rest: String = chars[i + 4..].iter().take(80).collect();
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = rest.trim_start()[name.len()..].trim_start();
            if after.starts_with('{') {
                inline.push((depth, name));
            }
        }
        let (kind, len) = if word_at(i, "crate::") {
            ("crate", 7)
        } else if word_at(i, "super::") {
            ("super", 7)
        } else {
            i += 1;
            continue;
        };
        // The module the path starts from.
        let mut base: Vec<String> = match kind {
            "crate" => Vec::new(),
            _ => {
                let mut m = path.to_vec();
                m.extend(inline.iter().map(|(_, n)| n.clone()));
                m.pop();
                m
            }
        };
        let mut j = i + len;
        // Further `super::` segments.
        while chars[j..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
            base.pop();
            j += 7;
        }
        let mut firsts = Vec::new();
        if chars.get(j) == Some(&'{') {
            // A group: the first segment of each item at the group's top level.
            let mut k = j + 1;
            let mut level = 0;
            let mut at_item = true;
            while k < chars.len() {
                match chars[k] {
                    '{' => level += 1,
                    '}' if level == 0 => break,
                    '}' => level -= 1,
                    ',' if level == 0 => at_item = true,
                    ch if at_item && (ch.is_alphanumeric() || ch == '_') => {
                        let w: String = chars[k..]
                            .iter()
                            .take_while(|c| c.is_alphanumeric() || **c == '_')
                            .collect();
                        k += w.len();
                        firsts.push(w);
                        at_item = false;
                        continue;
                    }
                    _ => {}
                }
                k += 1;
            }
        } else {
            let w: String = chars[j..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            firsts.push(w);
        }
        for first in firsts {
            let full: Vec<String> = base.iter().cloned().chain([first.clone()]).collect();
            let top = if full.len() == 1 && !modules.contains(&full[0]) {
                // `crate::Item` (or `super::Item` at the top): the crate root's re-exports.
                "lib".to_string()
            } else if first == "self" {
                base.first().cloned().unwrap_or_else(|| "lib".into())
            } else {
                full[0].clone()
            };
            out.push(Arrow { to: top, line });
        }
        i = j;
    }
    out
}

fn top_of(file: &Path) -> String {
    module_path(file)
        .first()
        .cloned()
        .unwrap_or_else(|| "lib".into())
}

#[test]
fn lower_layers_know_nothing_of_higher_ones() {
    let layers = layers();
    let modules = declared_modules();
    let mut problems = Vec::new();
    for m in &modules {
        if !layers.contains_key(m) {
            problems.push(format!(
                "module `{m}` has no layer: add it to the table in ARCHITECTURE.md"
            ));
        }
    }
    for m in layers.keys() {
        if m != "lib" && !modules.contains(m) {
            problems.push(format!(
                "the layer table names `{m}`, which lib.rs does not declare"
            ));
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&root().join("src")) {
        let from = top_of(&file);
        let rel = file.strip_prefix(root()).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        for a in arrows(&text, &module_path(&file), &modules) {
            if a.to == from {
                continue;
            }
            graph.entry(from.clone()).or_default().insert(a.to.clone());
            let (Some(&lf), Some(&lt)) = (layers.get(&from), layers.get(&a.to)) else {
                continue;
            };
            if lt > lf {
                problems.push(format!(
                    "{rel}:{}: `{from}` (layer {lf}) uses `{}` (layer {lt}), a higher layer",
                    a.line, a.to
                ));
            }
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        problems.push(format!("import cycle: {}", cycle.join(" → ")));
    }
    problems.dedup();
    assert!(
        problems.is_empty(),
        "layering (ARCHITECTURE.md, \"Layers\"):\n{}",
        problems.join("\n")
    );
}

/// A cycle of the module graph, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                0 => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
                1 => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_module_is_over_600_lines() {
    let mut long = Vec::new();
    for file in rust_files(&root().join("src")) {
        let n = fs::read_to_string(&file).unwrap().lines().count();
        if n > MAX_LINES {
            long.push(format!(
                "{}: {n} lines",
                file.strip_prefix(root()).unwrap().display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "modules over {MAX_LINES} lines (split them by job):\n{}",
        long.join("\n")
    );
}

/// The checker itself: an upward arrow, a group, `super::` from an inline module, a root
/// re-export and a cycle are found; comments, strings and tests are not arrows.
#[test]
fn the_checker_sees_arrows_and_only_arrows() {
    let text = "use crate::{sim::World, index::{Index}};\n\
         // crate::api in a comment\n\
         const S: &str = \"crate::render\";\n\
         fn f() -> crate::Report { todo!() }\n\
         mod prelude { pub(crate) use super::Sink; }\n\
         fn g<'a>(c: char) -> bool { c == '{' || c == '\\'' }\n\
         use super::super::api;\n\
         #[cfg(test)]\nmod tests { use crate::api; }\n";
    let modules: BTreeSet<String> = ["sim", "index", "rules", "api", "render"]
        .map(String::from)
        .into();
    let code = without_tests(&code_only(text));
    assert!(!code.contains("crate::api"), "{code}");
    assert!(!code.contains("crate::render"), "{code}");
    // As if it were src/rules/load.rs: `super::` is `rules`.
    let path = ["rules".to_string(), "load".to_string()];
    let found: Vec<String> = arrows(text, &path, &modules)
        .into_iter()
        .map(|a| format!("{}:{}", a.to, a.line))
        .collect();
    assert_eq!(
        found,
        ["sim:1", "index:1", "lib:4", "rules:5", "api:7"],
        "{found:?}"
    );
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(find_cycle(&g).unwrap(), ["a", "b", "a"]);
}
