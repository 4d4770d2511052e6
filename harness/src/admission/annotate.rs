//! Kubewarden policy metadata in a module, as `kwctl annotate` writes it: `metadata.yml` read,
//! checked, given the module's `protocolVersion`, and stored as JSON in the
//! `io.kubewarden.metadata` custom section (policy-evaluator's
//! `KUBEWARDEN_CUSTOM_SECTION_METADATA`, read back by `Metadata::from_contents`).

use pvlint_core::settings::hint;
use serde_json::{Map, Value};

/// The custom section Kubewarden reads a policy's metadata from.
pub const METADATA_SECTION: &str = "io.kubewarden.metadata";

const MAGIC: &[u8] = b"\0asm";
const CORE_VERSION: &[u8] = &[1, 0, 0, 0];

fn read_leb_u32(bytes: &[u8], at: &mut usize) -> Result<u32, String> {
    let mut result: u64 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes
            .get(*at)
            .ok_or("the module ends inside a section header")?;
        *at += 1;
        result |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(result).map_err(|_| "a section size overflows".to_string());
        }
    }
    Err("a section size is not a valid LEB128 number".into())
}

fn write_leb_u32(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// One section of a module: id, and where it lies (header included).
struct Section {
    id: u8,
    start: usize,
    end: usize,
    /// Custom sections: the name and where the data starts.
    custom: Option<(String, usize)>,
}

fn sections(module: &[u8]) -> Result<Vec<Section>, String> {
    if module.get(..4) != Some(MAGIC) {
        return Err("not a WebAssembly module (no \\0asm header)".into());
    }
    if module.get(4..8) != Some(CORE_VERSION) {
        return Err("not a WebAssembly core module (a component, or an unknown version)".into());
    }
    let mut out = Vec::new();
    let mut at = 8;
    while at < module.len() {
        let start = at;
        let id = module[at];
        at += 1;
        let size = read_leb_u32(module, &mut at)? as usize;
        let end = at
            .checked_add(size)
            .filter(|&e| e <= module.len())
            .ok_or_else(|| {
                format!("section {id} at byte {start} runs past the end of the module")
            })?;
        let custom = if id == 0 {
            let mut p = at;
            let len = read_leb_u32(module, &mut p)? as usize;
            let name = module
                .get(p..p + len)
                .filter(|_| p + len <= end)
                .ok_or("a custom section name runs past its section")?;
            let name = String::from_utf8(name.to_vec())
                .map_err(|_| "a custom section name is not UTF-8".to_string())?;
            Some((name, p + len))
        } else {
            None
        };
        out.push(Section {
            id,
            start,
            end,
            custom,
        });
        at = end;
    }
    Ok(out)
}

/// The metadata a module carries, if any.
pub fn read_metadata(module: &[u8]) -> Result<Option<Value>, String> {
    for s in sections(module)? {
        if let Some((name, data)) = &s.custom {
            if name == METADATA_SECTION {
                return serde_json::from_slice(&module[*data..s.end])
                    .map(Some)
                    .map_err(|e| format!("the {METADATA_SECTION} section is not JSON: {e}"));
            }
        }
    }
    Ok(None)
}

/// The module with `metadata` (JSON) in its metadata section, replacing any earlier one.
pub fn write_metadata(module: &[u8], metadata: &Value) -> Result<Vec<u8>, String> {
    let mut out = module[..8].to_vec();
    for s in sections(module)? {
        let ours = s.id == 0
            && s.custom
                .as_ref()
                .is_some_and(|(n, _)| n == METADATA_SECTION);
        if !ours {
            out.extend_from_slice(&module[s.start..s.end]);
        }
    }
    let data = serde_json::to_vec(metadata).map_err(|e| e.to_string())?;
    let mut payload = Vec::new();
    write_leb_u32(&mut payload, METADATA_SECTION.len() as u32);
    payload.extend_from_slice(METADATA_SECTION.as_bytes());
    payload.extend_from_slice(&data);
    out.push(0);
    write_leb_u32(
        &mut out,
        u32::try_from(payload.len()).map_err(|_| "metadata larger than 4 GiB")?,
    );
    out.extend_from_slice(&payload);
    Ok(out)
}

const TOP_KEYS: &[&str] = &[
    "protocolVersion",
    "rules",
    "annotations",
    "mutating",
    "backgroundAudit",
    "contextAwareResources",
    "executionMode",
    "policyType",
    "minimumKubewardenVersion",
    "hostCapabilities",
];
const EXECUTION_MODES: &[&str] = &["kubewarden-wapc", "opa", "gatekeeper", "wasi"];
const OPERATIONS: &[&str] = &["CREATE", "UPDATE", "DELETE", "CONNECT", "*"];
/// policy-evaluator's host capability tree (`host_capabilities.rs`).
const CAPABILITIES: &[&str] = &[
    "oci/v1/verify",
    "oci/v1/manifest_digest",
    "oci/v1/oci_manifest",
    "oci/v1/oci_manifest_config",
    "oci/v2/verify",
    "net/v1/dns_lookup_host",
    "crypto/v1/is_certificate_trusted",
    "kubernetes/list_resources_by_namespace",
    "kubernetes/list_resources_all",
    "kubernetes/get_resource",
    "kubernetes/can_i",
];

fn strings<'a>(v: Option<&'a Value>, what: &str) -> Result<Vec<&'a str>, String> {
    let items = v
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{what} must be a list of strings"))?;
    items
        .iter()
        .map(|i| {
            i.as_str()
                .ok_or_else(|| format!("{what} must hold strings"))
        })
        .collect()
}

/// Whether a `hostCapabilities` pattern is valid: `*`, a known path, or a known prefix + `/*`.
pub fn capability_pattern_ok(p: &str) -> bool {
    p == "*"
        || CAPABILITIES.contains(&p)
        || p.strip_suffix("/*").is_some_and(|prefix| {
            CAPABILITIES
                .iter()
                .any(|c| c.starts_with(&format!("{prefix}/")))
        })
}

/// Whether a granted `hostCapabilities` list (None: not restricted) allows `path`.
pub fn capability_allowed(granted: Option<&[String]>, path: &str) -> bool {
    granted.is_none_or(|g| {
        g.iter().any(|p| {
            p == "*"
                || p == path
                || p.strip_suffix('*')
                    .is_some_and(|prefix| prefix.ends_with('/') && path.starts_with(prefix))
        })
    })
}

/// Checks `metadata.yml` (as JSON) the way policy-evaluator's `Metadata` validates it, and
/// sets the protocol version the module reported. Errors name the field.
pub fn prepare_metadata(mut md: Value, protocol_version: &str) -> Result<Value, String> {
    let m: &mut Map<String, Value> = md.as_object_mut().ok_or("the metadata must be a mapping")?;
    for k in m.keys() {
        if !TOP_KEYS.contains(&k.as_str()) {
            return Err(format!(
                "unknown metadata field \"{k}\"{}",
                hint(k, TOP_KEYS.iter().copied())
            ));
        }
    }
    let rules = m
        .get("rules")
        .and_then(Value::as_array)
        .ok_or("rules must be a list")?;
    for (i, r) in rules.iter().enumerate() {
        for key in ["apiGroups", "apiVersions", "resources", "operations"] {
            let l = strings(r.get(key), &format!("rules[{i}].{key}"))?;
            if l.is_empty() {
                return Err(format!("rules[{i}].{key} must not be empty"));
            }
            if l.contains(&"*") && l.len() > 1 {
                return Err(format!(
                    "rules[{i}].{key}: no other elements can be defined when '*' is used"
                ));
            }
            if key == "operations" {
                if let Some(op) = l.iter().find(|o| !OPERATIONS.contains(o)) {
                    return Err(format!(
                        "rules[{i}].operations: \"{op}\" is not an operation{}",
                        hint(op, OPERATIONS.iter().copied())
                    ));
                }
            }
        }
    }
    if !m.get("mutating").is_some_and(Value::is_boolean) {
        return Err("mutating must be true or false".into());
    }
    for key in ["backgroundAudit"] {
        if m.get(key).is_some_and(|v| !v.is_boolean()) {
            return Err(format!("{key} must be true or false"));
        }
    }
    if let Some(mode) = m.get("executionMode") {
        let mode = mode.as_str().unwrap_or("");
        if !EXECUTION_MODES.contains(&mode) {
            return Err(format!(
                "executionMode \"{mode}\" is not one of {}{}",
                EXECUTION_MODES.join(", "),
                hint(mode, EXECUTION_MODES.iter().copied())
            ));
        }
    }
    if let Some(res) = m.get("contextAwareResources") {
        let res = res
            .as_array()
            .ok_or("contextAwareResources must be a list")?;
        for (i, r) in res.iter().enumerate() {
            for key in ["apiVersion", "kind"] {
                if r.get(key).and_then(Value::as_str).is_none_or(str::is_empty) {
                    return Err(format!("contextAwareResources[{i}].{key} must be set"));
                }
            }
        }
    }
    if m.contains_key("hostCapabilities") {
        for p in strings(m.get("hostCapabilities"), "hostCapabilities")? {
            if !capability_pattern_ok(p) {
                return Err(format!(
                    "hostCapabilities: \"{p}\" is not a host capability{}",
                    hint(p, CAPABILITIES.iter().copied())
                ));
            }
        }
    }
    if let Some(a) = m.get("annotations") {
        let a = a.as_object().ok_or("annotations must be a mapping")?;
        if let Some((k, _)) = a.iter().find(|(_, v)| !v.is_string()) {
            return Err(format!("annotations.{k} must be a string"));
        }
    }
    m.insert("protocolVersion".into(), Value::from(protocol_version));
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The smallest valid module: header only; then one with a type section.
    const EMPTY: &[u8] = b"\0asm\x01\0\0\0";

    #[test]
    fn metadata_round_trips_and_replaces_an_earlier_section() {
        let with_type = [EMPTY, &[1, 4, 1, 0x60, 0, 0]].concat();
        let a = write_metadata(&with_type, &json!({"mutating": false})).unwrap();
        assert_eq!(
            &a[..with_type.len()],
            &with_type[..],
            "existing sections kept"
        );
        assert_eq!(read_metadata(&a).unwrap(), Some(json!({"mutating": false})));
        let b = write_metadata(&a, &json!({"mutating": true})).unwrap();
        assert_eq!(read_metadata(&b).unwrap(), Some(json!({"mutating": true})));
        assert_eq!(
            b.windows(METADATA_SECTION.len())
                .filter(|w| *w == METADATA_SECTION.as_bytes())
                .count(),
            1
        );
        assert_eq!(read_metadata(&with_type).unwrap(), None);
    }

    #[test]
    fn bad_modules_are_errors() {
        assert!(read_metadata(b"hello")
            .unwrap_err()
            .contains("not a WebAssembly module"));
        assert!(read_metadata(b"\0asm\x0d\0\x01\0")
            .unwrap_err()
            .contains("core module"));
        let truncated = [EMPTY, &[1, 9, 1]].concat();
        assert!(read_metadata(&truncated).unwrap_err().contains("runs past"));
    }

    #[test]
    fn metadata_is_checked() {
        let ok = json!({"rules": [{"apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"],
            "operations": ["CREATE"]}], "mutating": false,
            "hostCapabilities": ["kubernetes/get_resource", "oci/*"]});
        let md = prepare_metadata(ok.clone(), "v1").unwrap();
        assert_eq!(md["protocolVersion"], "v1");
        for (change, want) in [
            (json!({"mutatng": false}), "did you mean mutating?"),
            (json!({"mutating": "no"}), "mutating must be true or false"),
            (json!({"executionMode": "wapc"}), "is not one of"),
            (
                json!({"hostCapabilities": ["kubernetes/get_resources"]}),
                "did you mean kubernetes/get_resource?",
            ),
            (
                json!({"contextAwareResources": [{"kind": "Pod"}]}),
                "apiVersion must be set",
            ),
            (
                json!({"rules": [{"apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"], "operations": ["CRATE"]}]}),
                "did you mean CREATE?",
            ),
        ] {
            let mut md = ok.clone();
            for (k, v) in change.as_object().unwrap() {
                md[k] = v.clone();
            }
            if change.get("mutatng").is_some() {
                md.as_object_mut().unwrap().remove("mutating");
            }
            let e = prepare_metadata(md, "v1").unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn capabilities_are_matched_like_policy_server() {
        let g = vec!["kubernetes/*".to_string(), "oci/v1/verify".to_string()];
        assert!(capability_allowed(Some(&g), "kubernetes/get_resource"));
        assert!(capability_allowed(Some(&g), "oci/v1/verify"));
        assert!(!capability_allowed(Some(&g), "oci/v2/verify"));
        assert!(!capability_allowed(Some(&[]), "kubernetes/get_resource"));
        assert!(capability_allowed(None, "kubernetes/get_resource"));
    }
}
