//! What the API server rejects, for the kinds pvlint reads: the checks of
//! pkg/apis/core/validation (`ValidatePersistentVolumeSpec`, `ValidatePersistentVolumeClaimSpec`,
//! `ValidateVolumes`), pkg/apis/storage/validation (`ValidateStorageClass`) and
//! pkg/apis/apps/validation (`ValidateDeploymentSpec`, `ValidateRollingUpdateDeployment`,
//! `ValidateRollingUpdateDaemonSet`, selectors), after the API server's defaults
//! (pkg/apis/*/v1/defaults.go) are applied. Messages follow `field.Error`: `<path>: <type>[:
//! <value>][: <detail>]`. An object with such an error never exists: it takes no part in the
//! simulation (see [`super::Diag::rejects`]).

mod storage;
mod workload;

pub(crate) use storage::{claim, pv, storage_class};
pub(crate) use workload::{valid_percent, workload, INVALID_PERCENT};

use super::{Field, Object, Reader};
use crate::finding::Severity;
use crate::node::Node;

pub(super) fn reject(r: &mut Reader<'_>, field: Field, error: String, help: &str) {
    let kind = r.obj.kind.clone();
    r.invalid(
        field,
        Severity::Error,
        format!("{error}; the API server rejects this {kind}"),
        help.to_string(),
    );
}

pub(super) fn at(obj: &Object, path: &str) -> Field {
    obj.field(path).unwrap_or_else(|| obj.key_field(path))
}

/// The Ceph sources' `monitors` list (validateRBDPersistentVolumeSource,
/// validateCephFSPersistentVolumeSource): required and not empty.
pub(super) fn require_monitors(obj: &Object, r: &mut Reader<'_>, source: &str) {
    let monitors = obj.root().at(&format!("spec.{source}.monitors"));
    if monitors.and_then(Node::as_seq).is_none_or(|s| s.is_empty()) {
        reject(
            r,
            at(obj, &format!("spec.{source}")),
            format!("spec.{source}.monitors: Required value"),
            "list the Ceph monitors",
        );
    }
}

/// `IsDNS1123Subdomain`.
pub fn is_dns_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|l| {
            !l.is_empty()
                && l.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

/// `IsQualifiedName` (a label key, a provisioner): an optional DNS subdomain prefix and `/`,
/// then a name of at most 63 letters, digits, `-`, `_` or `.` that starts and ends with a
/// letter or digit.
pub(super) fn is_qualified_name(s: &str) -> bool {
    let (prefix, name) = match s.split_once('/') {
        Some((a, b)) => (Some(a), b),
        None => (None, s),
    };
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && prefix.is_none_or(is_dns_subdomain)
}

pub(super) const QUALIFIED_NAME: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character; an optional prefix is a DNS subdomain followed by '/'";

pub(super) const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestIsQualifiedName` (apimachinery/pkg/util/validation), and the allowedTopologies keys
    /// of `TestValidateAllowedTopologies` ("/invalidkey").
    #[test]
    fn qualified_names() {
        for ok in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "topology.kubernetes.io/zone",
        ] {
            assert!(is_qualified_name(ok), "{ok}");
        }
        for bad in [
            "",
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            "/invalidkey",
            "csi-vxflexos.dellemc.com/<SYSTEM_ID>",
            &"a".repeat(64),
        ] {
            assert!(!is_qualified_name(bad), "{bad}");
        }
    }

    #[test]
    fn dns_subdomains() {
        for ok in ["gp3", "fast-ssd", "a.b-c", "nfs-csi"] {
            assert!(is_dns_subdomain(ok), "{ok}");
        }
        for bad in ["", "Fast", "a_b", "-a", "a-", "a..b"] {
            assert!(!is_dns_subdomain(bad), "{bad}");
        }
    }
}
