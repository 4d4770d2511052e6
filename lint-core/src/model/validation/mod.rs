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

pub(super) const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

#[cfg(test)]
mod tests {
    use super::*;

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
