//! Findings as `wgpolicyk8s.io/v1alpha2` PolicyReport and ClusterPolicyReport objects, the
//! format Kyverno and Kubewarden write and Policy Reporter shows, ready for `kubectl apply`:
//! one PolicyReport named `pvlint` per namespace with findings, one ClusterPolicyReport
//! `pvlint` for cluster-scoped objects (PersistentVolumes, StorageClasses, ...).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::finding::{Finding, Severity};
use crate::report::Report;

pub const POLICY_REPORT_API: &str = "wgpolicyk8s.io/v1alpha2";

fn result(f: &Finding, seconds: i64) -> Value {
    // The v1alpha2 CRD's enums: result pass|fail|warn|error|skip, severity high|medium|low.
    let (result, severity) = match f.severity {
        Severity::Error => ("fail", "high"),
        Severity::Warning => ("warn", "medium"),
        Severity::Info => ("warn", "low"),
    };
    let mut properties = Map::new();
    let mut prop = |k: &str, v: &str| {
        if !v.is_empty() {
            properties.insert(k.to_string(), Value::String(v.to_string()));
        }
    };
    prop("field", &f.path);
    if let Some(c) = &f.consequence {
        prop("consequence", &c.summary);
        if let Some(e) = &c.event {
            prop("event", &format!("{} {}: {}", e.kind, e.reason, e.message));
        }
        prop("assumptions", &c.assumptions.join("; "));
    }
    prop("help", &f.help);
    if let Some(s) = &f.suggestion {
        prop("fix", &s.description);
        if let Some(snip) = &s.snippet {
            prop("fixSnippet", snip);
        }
    }
    prop("pvlintSeverity", f.severity.as_str());
    let mut r = json!({
        "policy": "pvlint",
        "rule": f.rule,
        "category": f.family,
        "result": result,
        "severity": severity,
        "scored": true,
        "source": "pvlint",
        "message": f.message,
        "timestamp": {"seconds": seconds, "nanos": 0},
        "properties": properties,
    });
    if let Some(o) = &f.object {
        let mut res = json!({"apiVersion": o.api_version, "kind": o.kind, "name": o.name});
        if let Some(ns) = &o.namespace {
            res["namespace"] = json!(ns);
        }
        r["resources"] = json!([res]);
    }
    r
}

fn summary(results: &[Value]) -> Value {
    let count = |what: &str| results.iter().filter(|r| r["result"] == what).count();
    json!({"pass": 0, "fail": count("fail"), "warn": count("warn"), "error": 0, "skip": 0})
}

/// The reports for a lint report, as a `kind: List` (what `--format policyreport` prints as
/// YAML). `seconds`: the time of the scan (Unix seconds), for each result's timestamp.
pub fn policy_reports(report: &Report, seconds: i64) -> Value {
    let mut by_ns: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut cluster: Vec<Value> = Vec::new();
    for f in &report.findings {
        match f.object.as_ref().and_then(|o| o.namespace.clone()) {
            Some(ns) => by_ns
                .entry(String::from(ns))
                .or_default()
                .push(result(f, seconds)),
            None => cluster.push(result(f, seconds)),
        }
    }
    let labels = json!({"app.kubernetes.io/managed-by": "pvlint"});
    let mut items = Vec::new();
    for (ns, results) in by_ns {
        items.push(json!({
            "apiVersion": POLICY_REPORT_API,
            "kind": "PolicyReport",
            "metadata": {"name": "pvlint", "namespace": ns, "labels": labels},
            "summary": summary(&results),
            "results": results,
        }));
    }
    items.push(json!({
        "apiVersion": POLICY_REPORT_API,
        "kind": "ClusterPolicyReport",
        "metadata": {"name": "pvlint", "labels": labels},
        "summary": summary(&cluster),
        "results": cluster,
    }));
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}
