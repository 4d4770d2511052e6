//! The DefaultStorageClass admission plugin (setdefault/admission.go, CREATE only) and the
//! controller's retroactive assignment (`assignDefaultStorageClass`): both ask
//! `GetDefaultClass` ([`crate::binding::class::default_class`]).

use super::state::{Claim, ClassKnowledge, Origin, Side};
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

    /// The default class DefaultStorageClass admission gives a claim when it is created: in a
    /// set applied in file order (`kubectl apply -f`), a StorageClass of the input written
    /// after the claim does not exist yet (RetroactiveDefaultStorageClass may give it later,
    /// to a claim no volume matched).
    pub(crate) fn default_class_at_creation(
        &self,
        claim: &Claim,
    ) -> Result<Option<String>, AdmissionError> {
        let at = match claim.origin {
            Origin::Object {
                side: Side::Manifest,
                obj,
            } if self.file_order => Some(obj),
            _ => None,
        };
        let candidates = self
            .classes
            .iter()
            .filter(|c| c.is_default)
            .filter(|c| {
                !matches!((at, &c.knowledge), (Some(a), ClassKnowledge::Defined(Side::Manifest, o)) if *o > a)
            })
            .map(|c| DefaultCandidate {
                name: &c.name,
                created: &c.created,
            });
        class::default_class(candidates, self.options.kube_version).map(|d| d.map(String::from))
    }

    /// RetroactiveDefaultStorageClass: beta (on) from 1.26, GA 1.28.
    pub(crate) fn retroactive_default_enabled(&self) -> bool {
        self.options
            .feature(crate::version::Feature::RetroactiveDefaultStorageClass)
    }
}
