//! A scanned cluster as one YAML `kind: List` (what `pvlint cluster --save` writes and
//! `--cluster-state` reads back), and the version line of its header.

use pvlint_core::KubeVersion;
use serde_json::{json, Value};

use super::Scan;

/// The header line that carries the server's version: `# pvlint: --kube-version 1.34`, in the
/// words of the fixtures' headers, so the saved state reproduces version-dependent verdicts.
const VERSION_PREFIX: &str = "# pvlint: --kube-version ";

/// The state as text: a comment naming the cluster, the version line, then the List.
pub fn render_state(scan: &Scan) -> String {
    let items: Vec<Value> = scan
        .objects
        .iter()
        .flat_map(|(_, objs)| objs.iter().cloned())
        .collect();
    let list = json!({
        "apiVersion": "v1",
        "kind": "List",
        "metadata": {"resourceVersion": ""},
        "items": items,
    });
    let mut out = format!(
        "# The state of {} as pvlint read it: {} objects.\n",
        scan.describe(),
        scan.count()
    );
    for w in &scan.warnings {
        out.push_str(&format!("# Incomplete: {w}\n"));
    }
    if let Some(ns) = &scan.namespace {
        out.push_str(&format!(
            "# Namespace {ns} only: volumes bound to claims of other namespaces are left out.\n"
        ));
    }
    out.push_str(&format!("{VERSION_PREFIX}{}\n", scan.version));
    out.push_str(&pvlint_core::render::yaml(&list));
    out
}

/// The server version a saved state's header records, if any.
pub fn header_version(text: &str) -> Option<Result<KubeVersion, String>> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix(VERSION_PREFIX))
        .map(|v| v.trim().parse())
}

/// With `--namespace`: the cluster-scoped objects that concern the namespace. A volume bound
/// to a claim of another namespace is left out (its claim was not read, and the simulation
/// would otherwise take it for deleted); so is an attachment of a left-out volume.
#[cfg(feature = "cluster")]
pub(super) fn keep_namespace(scan: &mut Scan, ns: &str) {
    let claim_ns = |pv: &Value| {
        pv.pointer("/spec/claimRef/namespace")
            .and_then(Value::as_str)
            .map(String::from)
    };
    let mut kept_pvs = std::collections::HashSet::new();
    for (resource, objs) in &mut scan.objects {
        if *resource == "persistentvolumes" {
            objs.retain(|pv| claim_ns(pv).is_none_or(|n| n == ns));
            for pv in objs.iter() {
                if let Some(n) = pv.pointer("/metadata/name").and_then(Value::as_str) {
                    kept_pvs.insert(n.to_string());
                }
            }
        }
    }
    for (resource, objs) in &mut scan.objects {
        if *resource == "volumeattachments.storage.k8s.io" {
            objs.retain(|va| {
                va.pointer("/spec/source/persistentVolumeName")
                    .and_then(Value::as_str)
                    .is_none_or(|n| kept_pvs.contains(n))
            });
        }
    }
}
