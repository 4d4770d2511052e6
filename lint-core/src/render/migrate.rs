//! `pvlint migrate`'s account of what it changed: per object, each change (with the reason
//! when explaining) and each warning.

use std::fmt::Write;

use crate::migrate::{Change, ChangeKind, Migration};

fn change_line(c: &Change) -> String {
    match c.action {
        ChangeKind::Removed => format!("removed {}", c.path),
        ChangeKind::Set => format!(
            "set {}: {} → {}",
            c.path,
            c.from.as_deref().unwrap_or(""),
            c.to.as_deref().unwrap_or("")
        ),
        ChangeKind::Added => format!("added {}: {}", c.path, c.to.as_deref().unwrap_or("")),
    }
}

/// What changed, object by object. `explain` gives the reason for every change; without
/// it, removals are listed on one line.
pub fn migration_summary(m: &Migration, explain: bool) -> String {
    let mut out = String::new();
    for o in &m.objects {
        if o.changes.is_empty() && o.warnings.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{} ({}:{})", o.object.display(), o.file, o.line);
        if explain {
            for c in &o.changes {
                let _ = writeln!(out, "  - {}: {}", change_line(c), c.why);
            }
        } else {
            let removed: Vec<&str> = o
                .changes
                .iter()
                .filter(|c| c.action == ChangeKind::Removed)
                .map(|c| c.path.as_str())
                .collect();
            if !removed.is_empty() {
                let _ = writeln!(out, "  removed {}", removed.join(", "));
            }
            for c in o.changes.iter().filter(|c| c.action != ChangeKind::Removed) {
                let _ = writeln!(out, "  {}", change_line(c));
            }
        }
        for w in &o.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
    }
    let changed = m.objects.iter().filter(|o| !o.changes.is_empty()).count();
    let _ = writeln!(
        out,
        "migrated {} object{}: {changed} changed, {} warning{}",
        m.objects.len(),
        if m.objects.len() == 1 { "" } else { "s" },
        m.warning_count(),
        if m.warning_count() == 1 { "" } else { "s" }
    );
    out
}

/// The migration as JSON (schema `pvlint-migrate/v1`), with a final newline.
pub fn migration_json(m: &Migration) -> String {
    let mut s = serde_json::to_string_pretty(m).expect("a migration always serialises");
    s.push('\n');
    s
}
