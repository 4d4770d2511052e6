//! The DefaultStorageClass admission plugin (setdefault/admission.go, CREATE only) and the
//! controller's retroactive assignment (`assignDefaultStorageClass`): both ask
//! `GetDefaultClass` ([`crate::binding::class::default_class`]).

use super::World;
use crate::binding::class::{self, AdmissionError, DefaultCandidate};

impl World {
    /// The default class a new claim gets now, or the admission error.
    pub(crate) fn default_class(&self) -> Result<Option<String>, AdmissionError> {
        let candidates = self
            .classes
            .iter()
            .filter(|c| c.is_default)
            .map(|c| DefaultCandidate {
                name: &c.name,
                created: &c.created,
            });
        class::default_class(candidates, self.options.kube_version).map(|d| d.map(String::from))
    }

    /// RetroactiveDefaultStorageClass: beta (on) from 1.26, GA 1.28.
    pub(crate) fn retroactive_default_enabled(&self) -> bool {
        self.options.kube_version.at_least(26)
    }
}
