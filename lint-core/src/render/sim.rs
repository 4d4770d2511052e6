//! `pvlint simulate` output: tables of claims and volumes, then the events in order.

use std::fmt::Write;

use crate::sim::{ClaimPhase, SimReport, Storage};

/// The simulation as JSON (schema `pvlint-simulation/v1`), with a final newline.
pub fn simulation_json(report: &SimReport) -> String {
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

/// The simulation as tables a person reads.
pub fn simulation_table(report: &SimReport) -> String {
    let mut out = String::new();
    if !report.converged {
        out.push_str("warning: the simulation did not settle after 64 rounds; the result below is its last state\n\n");
    }
    let claims: Vec<Vec<String>> = report
        .claims
        .iter()
        .map(|c| {
            let phase = match c.phase {
                ClaimPhase::Rejected => "Rejected".to_string(),
                p => format!("{p:?}"),
            };
            let class = match c.class.as_deref() {
                None => "<unset>".to_string(),
                Some("") => "\"\"".to_string(),
                Some(x) => x.to_string(),
            };
            let mut why = c.reasons.last().cloned().unwrap_or_default();
            if c.order_dependent {
                why.push_str(" (order-dependent)");
            }
            vec![
                format!("{}/{}", c.namespace, c.name),
                phase,
                c.volume.clone().unwrap_or_else(|| "-".into()),
                class,
                why,
            ]
        })
        .collect();
    out.push_str("CLAIMS\n");
    table(
        &mut out,
        &["NAME", "PHASE", "VOLUME", "CLASS", "WHY"],
        &claims,
    );
    let volumes: Vec<Vec<String>> = report
        .volumes
        .iter()
        .map(|v| {
            let storage = match &v.storage {
                Storage::Kept => format!("kept: {}", v.backing),
                Storage::Deleted => format!("DELETED: {}", v.backing),
                Storage::LeftToProvisioner { provisioner } => {
                    format!("DELETED by {provisioner}: {}", v.backing)
                }
                Storage::Recycled => format!("recycled (wiped): {}", v.backing),
                Storage::Provisioned { provisioner } => {
                    format!("new, provisioned by {provisioner}")
                }
            };
            vec![
                v.name.clone(),
                format!("{:?}", v.phase),
                v.claim.clone().unwrap_or_else(|| "-".into()),
                storage,
            ]
        })
        .collect();
    out.push_str("\nVOLUMES\n");
    table(&mut out, &["NAME", "PHASE", "CLAIM", "STORAGE"], &volumes);
    let mut events: Vec<Vec<String>> = Vec::new();
    for c in &report.claims {
        for e in &c.events {
            events.push(vec![
                format!("PersistentVolumeClaim {}/{}", c.namespace, c.name),
                e.kind.to_string(),
                e.reason.to_string(),
                e.message.clone(),
            ]);
        }
    }
    for v in &report.volumes {
        for e in &v.events {
            events.push(vec![
                format!("PersistentVolume {}", v.name),
                e.kind.to_string(),
                e.reason.to_string(),
                e.message.clone(),
            ]);
        }
    }
    out.push_str("\nEVENTS\n");
    if events.is_empty() {
        out.push_str("(none)\n");
    } else {
        table(&mut out, &["OBJECT", "TYPE", "REASON", "MESSAGE"], &events);
    }
    out
}
