//! `pvlint simulate` output: tables of claims and volumes, then the events in order.

use std::fmt::Write;

use crate::sim::report::{ClaimOutcome, Simulation, VolumeOutcome};

/// The simulation as JSON (schema `pvlint-simulation/v1`), with a final newline.
pub fn simulation_json(report: &Simulation) -> String {
    let mut s = serde_json::to_string_pretty(report).expect("a simulation always serialises");
    s.push('\n');
    s
}

fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate().take(widths.len() - 1) {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                let _ = write!(l, "{c:<w$}  ", w = widths[i]);
            }
        }
        l.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(header.to_vec()));
    for r in rows {
        let _ = writeln!(out, "{}", line(r.iter().map(String::as_str).collect()));
    }
}

/// The events a step adds: those not already listed for the same object before it.
fn new_events<'a>(
    before: Option<&'a [crate::sim::Event]>,
    now: &'a [crate::sim::Event],
) -> impl Iterator<Item = &'a crate::sim::Event> {
    now.iter()
        .filter(move |e| before.is_none_or(|b| !b.contains(e)))
}

/// One state: claims, volumes and events. With `previous` (a timeline step after the
/// first), only the events that are new since it are listed.
fn state(
    out: &mut String,
    claims: &[ClaimOutcome],
    volumes: &[VolumeOutcome],
    previous: Option<(&[ClaimOutcome], &[VolumeOutcome])>,
) {
    let rows: Vec<Vec<String>> = claims
        .iter()
        .map(|c| {
            let class = match c.class.as_deref() {
                None => "<unset>".to_string(),
                Some("") => "\"\"".to_string(),
                Some(x) => x.to_string(),
            };
            let mut why = c.why.clone();
            if c.order_dependent {
                why.push_str(" (order-dependent)");
            }
            vec![
                format!("{}/{}", c.namespace, c.name),
                c.phase.to_string(),
                c.volume.clone().unwrap_or_else(|| "-".into()),
                class,
                why,
            ]
        })
        .collect();
    let mut rows = rows;
    if let Some((before, _)) = previous {
        for p in before {
            if !claims
                .iter()
                .any(|c| c.namespace == p.namespace && c.name == p.name)
            {
                rows.push(vec![
                    format!("{}/{}", p.namespace, p.name),
                    "- (object deleted)".into(),
                    p.volume.clone().unwrap_or_else(|| "-".into()),
                    "".into(),
                    "deleted in this step".into(),
                ]);
            }
        }
    }
    out.push_str("CLAIMS\n");
    if rows.is_empty() {
        out.push_str("(none)\n");
    } else {
        table(out, &["NAME", "PHASE", "VOLUME", "CLASS", "WHY"], &rows);
    }
    let gone_before = |v: &VolumeOutcome| {
        previous.is_some_and(|(_, vs)| {
            vs.iter()
                .any(|p| p.name == v.name && p.gone && p.origin == v.origin)
        })
    };
    let rows: Vec<Vec<String>> = volumes
        .iter()
        .filter(|v| !(v.gone && gone_before(v)))
        .map(|v| {
            let storage = match v.storage.fate.as_str() {
                "kept" => format!("kept: {}", v.backing),
                "deleted" => format!("DELETED: {}", v.backing),
                "leftToProvisioner" => format!(
                    "DELETED by {}: {}",
                    v.storage.by.as_deref().unwrap_or("the provisioner"),
                    v.backing
                ),
                "archived" => format!(
                    "archived by {} (renamed archived-<directory>): {}",
                    v.storage.by.as_deref().unwrap_or("the provisioner"),
                    v.backing
                ),
                "recycled" => format!("recycled (wiped): {}", v.backing),
                "provisioned" => format!(
                    "new, provisioned by {}",
                    v.storage.by.as_deref().unwrap_or("?")
                ),
                "leaked" => format!("LEAKED (PV gone, storage stays): {}", v.backing),
                "deleteFailed" | "recycleFailed" => format!("kept (reclaim failed): {}", v.backing),
                other => format!("{other}: {}", v.backing),
            };
            let phase = if v.gone {
                "- (object deleted)".to_string()
            } else if v.terminating {
                format!("{} (Terminating)", v.phase)
            } else {
                v.phase.to_string()
            };
            vec![
                v.name.clone(),
                phase,
                v.claim.clone().unwrap_or_else(|| "-".into()),
                storage,
            ]
        })
        .collect();
    out.push_str("\nVOLUMES\n");
    if rows.is_empty() {
        out.push_str("(none)\n");
    } else {
        table(out, &["NAME", "PHASE", "CLAIM", "STORAGE"], &rows);
    }
    let mut events: Vec<Vec<String>> = Vec::new();
    let claim_before = |c: &ClaimOutcome| {
        previous.map(|(cs, _)| {
            cs.iter()
                .find(|p| p.namespace == c.namespace && p.name == c.name)
                .map_or(&[][..], |p| p.events.as_slice())
        })
    };
    let volume_before = |v: &VolumeOutcome| {
        previous.map(|(_, vs)| {
            vs.iter()
                .rev()
                .find(|p| p.name == v.name)
                .map_or(&[][..], |p| p.events.as_slice())
        })
    };
    for c in claims {
        for e in new_events(claim_before(c), &c.events) {
            events.push(vec![
                format!("PersistentVolumeClaim {}/{}", c.namespace, c.name),
                event_type(e),
                e.reason.to_string(),
                e.message.to_string(),
            ]);
        }
    }
    for v in volumes {
        for e in new_events(volume_before(v), &v.events) {
            events.push(vec![
                format!("PersistentVolume {}", v.name),
                event_type(e),
                e.reason.to_string(),
                e.message.to_string(),
            ]);
        }
    }
    out.push_str(if previous.is_some() {
        "\nEVENTS (new in this step)\n"
    } else {
        "\nEVENTS\n"
    });
    if events.is_empty() {
        out.push_str("(none)\n");
    } else {
        table(out, &["OBJECT", "TYPE", "REASON", "MESSAGE"], &events);
    }
}

/// The TYPE column: `Normal`, `Warning`, and `(on the way)` for a transient event.
fn event_type(e: &crate::sim::Event) -> String {
    if e.transient {
        format!("{} (on the way)", e.kind)
    } else {
        e.kind.to_string()
    }
}

/// The simulation as tables a person reads; with operations, the state after each.
pub fn simulation_table(report: &Simulation) -> String {
    let mut out = String::new();
    if !report.converged {
        out.push_str("warning: the simulation did not settle after 64 rounds; the result below is its last state\n\n");
    }
    if !report.assumptions.is_empty() {
        out.push_str("ASSUMED (no cluster state given)\n");
        for a in &report.assumptions {
            let _ = writeln!(out, "- {a}");
        }
        out.push('\n');
    }
    if report.steps.is_empty() {
        state(&mut out, &report.claims, &report.volumes, None);
        not_created(&mut out, report);
        alternatives(&mut out, report);
        return out;
    }
    for (i, step) in report.steps.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "=== {}. {}", i, step.operation);
        if !step.refused.is_empty() {
            out.push_str("\nREFUSED (the API server rejects the update; the live object stays)\n");
            for r in &step.refused {
                let who = match &r.namespace {
                    Some(ns) => format!("{} {ns}/{}", r.kind, r.name),
                    None => format!("{} {}", r.kind, r.name),
                };
                let _ = writeln!(out, "- {who}: {}", r.causes.join("; "));
            }
            out.push('\n');
        }
        let previous = i.checked_sub(1).map(|p| {
            (
                report.steps[p].claims.as_slice(),
                report.steps[p].volumes.as_slice(),
            )
        });
        state(&mut out, &step.claims, &step.volumes, previous);
    }
    not_created(&mut out, report);
    alternatives(&mut out, report);
    out
}

/// StatefulSet claims that are never created (OrderedReady).
fn not_created(out: &mut String, report: &Simulation) {
    if report.not_created.is_empty() {
        return;
    }
    out.push_str("\nNOT CREATED\n");
    for n in &report.not_created {
        let _ = writeln!(out, "- {}: {}", n.claim, n.why);
    }
}

/// Outcomes other timings give: the claims whose volume differs, and the timing it takes.
fn alternatives(out: &mut String, report: &Simulation) {
    if report.alternatives.is_empty() {
        return;
    }
    out.push_str("\nCAN ALSO END (the claims above are the likely outcome; timing decides)\n");
    for a in &report.alternatives {
        let b: Vec<String> = a
            .bindings
            .iter()
            .map(|b| match &b.volume {
                Some(v) => format!("{} -> {v}", b.claim),
                None => format!("{} Pending", b.claim),
            })
            .collect();
        let _ = writeln!(out, "- {}: if {}", b.join(", "), a.why);
    }
}
