//! Objects left out of the analysis (templates, objects a kustomize patch changes) and what
//! depends on them.

use std::collections::HashSet;

use super::Index;
use crate::model::{self, ClaimClass, ObjId, Object};
use crate::string::Str;

/// The note that leaves an object a kustomization's patch names out of the analysis, as a
/// template is (see [`crate::template::Kind::Patched`]).
pub(super) fn patched_note(obj: &Object, id: ObjId) -> model::Diag {
    model::Diag {
        kind: model::DiagKind::Template(crate::template::Kind::Patched),
        severity: crate::finding::Severity::Info,
        source: obj.source,
        document: obj.document,
        object: Some(obj.objref()),
        obj: Some(id),
        field: model::Field {
            path: Str::default(),
            span: obj.root().span,
        },
        message: Str::default(),
        help: Str::default(),
        suggestion: None,
    }
}

impl Index {
    /// What names an object left out (`left_out`: unrendered templates, patched objects) is as
    /// unknown as it: a claim (or a StatefulSet's claim template) of a StorageClass left out, or
    /// naming a PersistentVolume left out, is left out too, rather than judged against a class
    /// or a volume that "does not exist". (A claim left out is still one the input defines:
    /// missing-claim does not report the workloads that mount it.)
    pub(super) fn leave_out_dependents(&mut self, left_out: &HashSet<ObjId>) {
        // A name another definition of the input also gives (a template beside the rendered
        // file) is known through that one.
        let names = |kind: &str| -> HashSet<Str> {
            let known: HashSet<Str> = (0..self.objects.len())
                .filter(|id| !left_out.contains(id))
                .map(|id| &self.objects[id])
                .filter(|o| o.kind == kind)
                .map(|o| o.name.clone())
                .collect();
            left_out
                .iter()
                .map(|&id| &self.objects[id])
                .filter(|o| o.kind == kind && !known.contains(&o.name))
                .map(|o| o.name.clone())
                .collect()
        };
        let (classes, volumes) = (names("StorageClass"), names("PersistentVolume"));
        if classes.is_empty() && volumes.is_empty() {
            return;
        }
        let depends = |c: &crate::model::Pvc| {
            matches!(&c.class, ClaimClass::Set { name, .. } if classes.contains(name))
                || c.volume_name
                    .as_ref()
                    .is_some_and(|v| volumes.contains(&v.value))
        };
        let dependents: Vec<ObjId> = self
            .pvcs
            .iter()
            .chain(&self.claim_templates)
            .filter(|c| depends(c))
            .map(|c| c.obj)
            .collect();
        self.rejected.extend(dependents);
    }
}
