//! Storage classes of claims, and the default class.
//!
//! Upstream: `GetPersistentVolumeClaimClass` and `PersistentVolumeClaimHasClass`
//! (component-helpers/storage/volume, pkg/apis/core/helper; `IsDefaultAnnotation` is read by the
//! model, exactly "true"), `GetDefaultClass` (pkg/volume/util/storageclass.go),
//! used by the DefaultStorageClass admission plugin
//! (plugin/pkg/admission/storage/storageclass/setdefault) on CREATE and by the PV
//! controller's `assignDefaultStorageClass` (RetroactiveDefaultStorageClass, GA 1.28).

use crate::options::KubeVersion;

/// A claim's class as written, with nil kept apart from "" (admission treats them differently).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrittenClass {
    /// Neither the beta annotation nor spec.storageClassName: admission assigns the default.
    Unset,
    /// The beta annotation `volume.beta.kubernetes.io/storage-class` (its presence counts,
    /// even with the value ""), else spec.storageClassName. May be "".
    Set(String),
}

impl WrittenClass {
    /// `PersistentVolumeClaimHasClass`.
    pub fn has_class(&self) -> bool {
        matches!(self, WrittenClass::Set(_))
    }
}

/// When a StorageClass was created, for the newest-first order of `GetDefaultClass`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Created {
    /// An object of the cluster state: its metadata.creationTimestamp (RFC 3339, UTC, whole
    /// seconds, as the API server writes it, so the text orders like the time). None when
    /// the export lacks it (Go's zero time: oldest).
    At(Option<String>),
    /// Applied now, with the manifests: newer than anything in the cluster. Objects applied
    /// together get the same second, so the name decides between them.
    Now,
}

/// A StorageClass marked default.
#[derive(Debug, Clone, Copy)]
pub struct DefaultCandidate<'a> {
    pub name: &'a str,
    pub created: &'a Created,
}

/// Why admission refused a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdmissionError {
    /// Before 1.26 `GetDefaultClass` failed when several classes were default.
    SeveralDefaults { count: usize },
}

/// `GetDefaultClass`: newest creationTimestamp first, then name ascending. Before 1.26
/// several defaults are an error (the admission plugin answers Forbidden).
pub fn default_class<'a>(
    candidates: impl IntoIterator<Item = DefaultCandidate<'a>>,
    version: KubeVersion,
) -> Result<Option<&'a str>, AdmissionError> {
    let mut all: Vec<DefaultCandidate<'a>> = candidates.into_iter().collect();
    if all.len() > 1 && !version.at_least(26) {
        return Err(AdmissionError::SeveralDefaults { count: all.len() });
    }
    all.sort_by(|a, b| b.created.cmp(a.created).then(a.name.cmp(b.name)));
    Ok(all.first().map(|c| c.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Created {
        Created::At(Some(s.to_string()))
    }

    /// pkg/volume/util/storageclass_test.go TestGetDefaultClass: "two defaults, newest wins"
    /// and "same timestamp: name ascending".
    #[test]
    fn newest_then_name() {
        let (old, new) = (at("2024-01-01T00:00:00Z"), at("2024-06-01T00:00:00Z"));
        let v = KubeVersion::new(1, 30);
        let c = |name, created| DefaultCandidate { name, created };
        assert_eq!(
            default_class([c("b", &old), c("a", &new)], v),
            Ok(Some("a"))
        );
        assert_eq!(
            default_class([c("a", &old), c("b", &new)], v),
            Ok(Some("b"))
        );
        assert_eq!(
            default_class([c("z", &new), c("y", &new)], v),
            Ok(Some("y"))
        );
        let now = Created::Now;
        assert_eq!(
            default_class([c("a", &new), c("m", &now)], v),
            Ok(Some("m"))
        );
        assert_eq!(default_class([], v), Ok(None));
        assert_eq!(
            default_class([c("a", &old), c("b", &new)], KubeVersion::new(1, 25)),
            Err(AdmissionError::SeveralDefaults { count: 2 })
        );
        assert_eq!(
            default_class([c("a", &old)], KubeVersion::new(1, 25)),
            Ok(Some("a"))
        );
    }

    #[test]
    fn beta_annotation_counts_even_empty() {
        assert!(WrittenClass::Set(String::new()).has_class());
        assert!(!WrittenClass::Unset.has_class());
    }
}
