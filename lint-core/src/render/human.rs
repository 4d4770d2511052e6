//! rustc-style output: severity and rule, message, file:line:col, the source line with a
//! caret under the field, the object, a help line and a suggested snippet.

use std::collections::HashMap;
use std::fmt::Write;

use crate::finding::{Finding, Location, Severity};
use crate::report::Report;
use crate::source::Source;

#[derive(Debug, Clone, Copy, Default)]
pub struct HumanOptions {
    /// ANSI colours (the CLI turns this on for terminals only).
    pub color: bool,
    /// Wrap the notes, help and the like at this many columns (the CLI sets a terminal's
    /// width); None: one line each, as pipes and CI logs want them.
    pub width: Option<usize>,
}

struct Paint {
    on: bool,
    width: Option<usize>,
}

impl Paint {
    /// `{pad} = {label} {text}`: wrapped at the width, if any, with the continuation lines
    /// under the text.
    fn labelled(&self, out: &mut String, pad: &str, label: &str, text: &str) {
        let head = format!("{pad} {} {} ", self.blue("="), self.bold(label));
        let indent = pad.chars().count() + 3 + label.chars().count() + 1;
        match self.width.filter(|&w| w > indent + 20) {
            None => {
                let _ = writeln!(out, "{head}{text}");
            }
            Some(width) => {
                out.push_str(&head);
                let mut col = indent;
                let mut first = true;
                for word in text.split(' ') {
                    let n = word.chars().count();
                    if !first && col + 1 + n > width {
                        out.push('\n');
                        out.push_str(&" ".repeat(indent));
                        col = indent;
                        first = true;
                    }
                    if !first {
                        out.push(' ');
                        col += 1;
                    }
                    out.push_str(word);
                    col += n;
                    first = false;
                }
                out.push('\n');
            }
        }
    }
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn sev(&self, s: Severity) -> String {
        let code = match s {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;36",
        };
        self.wrap(code, s.as_str())
    }
    fn blue(&self, s: &str) -> String {
        self.wrap("1;34", s)
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn green(&self, s: &str) -> String {
        self.wrap("32", s)
    }
}

type Sources<'a> = std::collections::HashMap<&'a str, &'a Source>;

fn source_of<'a>(sources: &Sources<'a>, loc: &Location) -> Option<&'a Source> {
    sources.get(loc.file.as_str()).copied()
}

/// The widest excerpt line shown, in characters.
const EXCERPT_WIDTH: u32 = 160;

fn snippet(
    out: &mut String,
    p: &Paint,
    src: Option<&Source>,
    loc: &Location,
    gutter: usize,
    caret_code: &str,
) {
    let pad = " ".repeat(gutter);
    let Some(text) = src.and_then(|s| s.line(loc.line)) else {
        return;
    };
    let shown: String = text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let width = shown.chars().count() as u32;
    let start = loc.column.max(1);
    let end = if loc.end_line == loc.line {
        loc.end_column
    } else {
        width + 1
    };
    let mut len = end
        .saturating_sub(start)
        .max(1)
        .min(width.saturating_sub(start - 1).max(1));
    // A line wider than a terminal (minified JSON, a flow collection on one line) is shown
    // as a window around the column, marked with `…` where it is cut.
    let (shown, start) = if width > EXCERPT_WIDTH {
        let from = (start - 1)
            .saturating_sub(EXCERPT_WIDTH / 4)
            .min(width - EXCERPT_WIDTH);
        let to = from + EXCERPT_WIDTH;
        len = len.min(to.saturating_sub(start - 1)).max(1);
        let mut window = String::new();
        if from > 0 {
            window.push('…');
        }
        window.extend(
            shown
                .chars()
                .skip(from as usize)
                .take(EXCERPT_WIDTH as usize),
        );
        if to < width {
            window.push('…');
        }
        (window, start - from + u32::from(from > 0))
    } else {
        (shown, start)
    };
    let _ = writeln!(out, "{pad} {}", p.blue("|"));
    let _ = writeln!(
        out,
        "{} {} {}",
        p.blue(&format!("{:>gutter$}", loc.line)),
        p.blue("|"),
        shown
    );
    let _ = writeln!(
        out,
        "{pad} {} {}{}",
        p.blue("|"),
        " ".repeat(start as usize - 1),
        p.wrap(caret_code, &"^".repeat(len as usize))
    );
}

/// `objects`: point at the object (kind, namespace/name, field) instead of a file position
/// and snippet: the findings of `pvlint cluster` are about live objects.
/// `set`: the apply set to name, for a finding on a file that is in more than one.
fn finding(
    out: &mut String,
    p: &Paint,
    sources: &Sources<'_>,
    f: &Finding,
    objects: bool,
    set: Option<&str>,
) {
    let gutter = std::iter::once(f.location.line)
        .chain(f.related.iter().map(|r| r.location.line))
        .max()
        .unwrap_or(1)
        .to_string()
        .len();
    let pad = " ".repeat(gutter);
    let caret = match f.severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Info => "1;36",
    };
    let _ = writeln!(
        out,
        "{}{}: {}",
        p.sev(f.severity),
        p.bold(&format!("[{}]", f.rule)),
        p.bold(&f.message)
    );
    let l = &f.location;
    let at = |f: &Finding| {
        if f.path.is_empty() {
            String::new()
        } else {
            format!(", field {}", f.path)
        }
    };
    match (&f.object, objects) {
        (Some(o), true) => {
            let _ = writeln!(out, "{pad}{} {}{}", p.blue("-->"), o.display(), at(f));
        }
        _ => {
            let from = l
                .origin
                .as_ref()
                .map(|o| match (&o.path, o.line) {
                    (Some(path), Some(line)) => {
                        format!(" (from {path}:{line}, rendered by {})", o.tool)
                    }
                    (Some(path), None) => format!(" (from {path}, rendered by {})", o.tool),
                    _ => format!(" (from {}, rendered by {})", o.file, o.tool),
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{pad}{} {}:{}:{}{from}",
                p.blue("-->"),
                l.file,
                l.line,
                l.column
            );
            snippet(out, p, source_of(sources, l), l, gutter, caret);
        }
    }
    if let Some(o) = f.object.as_ref().filter(|_| !objects) {
        let at = if f.path.is_empty() {
            String::new()
        } else {
            format!(", field {}", f.path)
        };
        let _ = writeln!(out, "{pad} {} object: {}{at}", p.blue("="), o.display());
    }
    if let Some(set) = set {
        let _ = writeln!(
            out,
            "{pad} {} {} {set}",
            p.blue("="),
            p.bold("applied with:")
        );
    }
    if let Some(c) = &f.consequence {
        if !c.summary.is_empty() {
            p.labelled(out, &pad, "note:", &c.summary);
        }
        if let Some(e) = &c.event {
            let event = format!("{} {} \"{}\"", e.kind, e.reason, e.message);
            p.labelled(out, &pad, "event:", &event);
        }
        for a in &c.assumptions {
            p.labelled(out, &pad, "assumed:", a);
        }
    }
    for e in &f.recorded {
        let times = if e.count > 1 {
            format!(" ({} times)", e.count)
        } else {
            String::new()
        };
        let recorded = format!("{} {} \"{}\"{times}", e.kind, e.reason, e.message);
        p.labelled(out, &pad, "recorded:", &recorded);
    }
    if !f.help.is_empty() {
        p.labelled(out, &pad, "help:", &f.help);
    }
    if let Some(s) = &f.suggestion {
        let label = match s.applicability {
            crate::finding::Applicability::Exact => "fix:",
            crate::finding::Applicability::Illustration => "fix (example):",
        };
        p.labelled(out, &pad, label, &s.description);
        if let Some(snip) = &s.snippet {
            for line in snip.lines() {
                let _ = writeln!(out, "{pad} {}     {}", p.blue("|"), p.green(line));
            }
        }
    }
    for r in &f.related {
        let rl = &r.location;
        if objects {
            p.labelled(out, &pad, "see:", &r.message);
            continue;
        }
        p.labelled(out, &pad, "see:", &r.message);
        let _ = writeln!(
            out,
            "{pad}{} {}:{}:{}",
            p.blue("-->"),
            rl.file,
            rl.line,
            rl.column
        );
        snippet(out, p, source_of(sources, rl), rl, gutter, "1;34");
    }
    out.push('\n');
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Renders every finding, then a one-line summary.
pub fn human(report: &Report, sources: &[Source], opts: HumanOptions) -> String {
    let p = Paint {
        on: opts.color,
        width: opts.width,
    };
    let mut out = String::new();
    let by_name: Sources<'_> = sources.iter().map(|s| (s.name.as_str(), s)).collect();
    // Files in more than one apply set (a base two overlays share): their findings say which.
    let mut sets_of: HashMap<&str, usize> = HashMap::new();
    for set in &report.apply_sets {
        for file in &set.files {
            *sets_of.entry(file.as_str()).or_default() += 1;
        }
    }
    profile_line(&mut out, &p, report);
    for f in by_severity_within_files(&report.findings) {
        let set = f
            .apply_set
            .filter(|_| {
                sets_of
                    .get(f.location.file.as_str())
                    .is_some_and(|&n| n > 1)
            })
            .and_then(|n| report.apply_sets.get(n as usize))
            .map(|s| s.name.as_str());
        finding(&mut out, &p, &by_name, f, false, set);
    }
    let s = &report.summary;
    let mut counts = format!(
        "{}, {}, {}",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    );
    if s.suppressed > 0 {
        counts.push_str(&format!(
            " ({} suppressed by pvlint.io/ignore)",
            s.suppressed
        ));
    }
    let sets = match report.apply_sets.len() {
        0 | 1 => String::new(),
        n => format!(", {n} apply sets"),
    };
    let _ = writeln!(
        out,
        "{}: {counts} in {}{sets} ({}, {})",
        p.bold("pvlint"),
        plural(s.sources, "source", "sources"),
        plural(s.documents, "document", "documents"),
        plural(s.objects, "object", "objects"),
    );
    skipped_line(&mut out, &report.skipped);
    out
}

/// The sources no apply set holds, said once after the summary: as ripgrep says what it
/// ignores.
fn skipped_line(out: &mut String, skipped: &[crate::applyset::Skipped]) {
    let Some(first) = skipped.first() else {
        return;
    };
    let files = match skipped.len() {
        1 => first.file.clone(),
        n => format!("{} and {} more", first.file, n - 1),
    };
    let mut reasons: Vec<&str> = skipped.iter().map(|s| s.why.describe()).collect();
    reasons.sort_unstable();
    reasons.dedup();
    let _ = writeln!(
        out,
        "skipped: {} (not applied: {}): {files}",
        plural(skipped.len(), "test-suite file", "test-suite files"),
        reasons.join("; ")
    );
}

/// One line per finding, `FILE:LINE:COL: SEVERITY[RULE] HEADLINE` (what editors' error formats
/// and grep read), most severe first within a file, then the summary line.
pub fn concise(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "cluster: {}", report.profile.describe());
    for f in by_severity_within_files(&report.findings) {
        let l = &f.location;
        let _ = writeln!(
            out,
            "{}:{}:{}: {}[{}] {}",
            l.file,
            l.line,
            l.column,
            f.severity.as_str(),
            f.rule,
            f.message
        );
    }
    let s = &report.summary;
    let _ = writeln!(
        out,
        "pvlint: {}, {}, {}",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    );
    out
}

/// The cluster the findings are judged for, once, above them: "cluster: several nodes, ...".
fn profile_line(out: &mut String, p: &Paint, report: &Report) {
    let _ = writeln!(
        out,
        "{}: {}\n",
        p.bold("cluster"),
        report.profile.describe()
    );
}

/// The findings file by file (in the report's order of files), the most severe first within a
/// file, each severity in the report's order (by line).
fn by_severity_within_files(findings: &[crate::finding::Finding]) -> Vec<&crate::finding::Finding> {
    let mut first_of_file: HashMap<&str, usize> = HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        first_of_file.entry(f.location.file.as_str()).or_insert(i);
    }
    let mut out: Vec<&crate::finding::Finding> = findings.iter().collect();
    out.sort_by_key(|f| {
        (
            first_of_file[f.location.file.as_str()],
            std::cmp::Reverse(f.severity),
        )
    });
    out
}

/// The findings of `pvlint cluster`: each points at a live object (kind, namespace/name,
/// field) rather than at a file, then a summary naming the cluster (`what`, e.g. "context
/// kind-dev, Kubernetes 1.34").
pub fn human_cluster(report: &Report, what: &str, opts: HumanOptions) -> String {
    let p = Paint {
        on: opts.color,
        width: opts.width,
    };
    let mut out = String::new();
    let none = Sources::new();
    profile_line(&mut out, &p, report);
    for f in by_severity_within_files(&report.findings) {
        finding(&mut out, &p, &none, f, true, None);
    }
    let s = &report.summary;
    let counts = format!(
        "{}, {}, {}",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    );
    let _ = writeln!(
        out,
        "{}: {counts} in {} of {what}",
        p.bold("pvlint"),
        plural(s.objects, "object", "objects"),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal's width wraps the notes and help under their text; without one (a pipe,
    /// a CI log), each stays one line.
    #[test]
    fn notes_wrap_at_the_width() {
        let long = "the volume's claimRef reserves it for a claim of another cluster, and the claim here gets a new UID";
        for width in [None, Some(60)] {
            let p = Paint { on: false, width };
            let mut out = String::new();
            p.labelled(&mut out, "  ", "note:", long);
            match width {
                None => assert_eq!(out, format!("   = note: {long}\n")),
                Some(w) => {
                    assert!(out.lines().count() > 1, "{out}");
                    assert!(out.lines().all(|l| l.chars().count() <= w), "{out}");
                    assert!(out.lines().skip(1).all(|l| l.starts_with(&" ".repeat(11))));
                    let words: Vec<&str> = out.split_whitespace().skip(2).collect();
                    assert_eq!(words.join(" "), long);
                }
            }
        }
    }
}
