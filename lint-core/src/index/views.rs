//! The typed views of a loaded index: duplicates resolved as `kubectl apply` resolves them,
//! every object read through its view, unknown fields rejected; then the trees released.

use std::collections::HashMap;

use super::{Duplicate, Index};
use crate::finding::{Severity, Suggestion};
use crate::model::{
    self, known_kind, DiagKind, Field, KindClass, ObjId, Object, Reader, WorkloadKind,
};
use crate::node::Node;
use crate::string::Str;

impl Index {
    /// Objects defined more than once (same group, kind, namespace and name), resolved as
    /// `kubectl apply` resolves them: the first definition creates the object, each later one
    /// updates it and replaces it, unless the API server refuses the update (an immutable
    /// field changed, see [`model::update`]), and then the object stays as it was. The
    /// definitions that do not take effect are superseded. Definitions with the same content
    /// are one object; different content is recorded for `duplicate-object`.
    pub(super) fn find_duplicates(&mut self) {
        let group = |o: &Object| {
            o.api_version
                .rsplit_once('/')
                .map_or("", |(g, _)| g)
                .to_string()
        };
        // The definition that stands so far, by object.
        let mut standing: HashMap<(String, Str, Option<Str>, Str), ObjId> = HashMap::new();
        for (id, o) in self.objects.iter().enumerate() {
            if o.root()
                .at("metadata.name")
                .and_then(Node::as_str)
                .is_none_or(str::is_empty)
            {
                continue; // generateName: a new object every time
            }
            if crate::apiversions::removed(&o.api_version, &o.kind, self.version.version).is_some()
            {
                continue; // never sent: kubectl finds no resource for it
            }
            let key = (
                group(o),
                o.kind.clone(),
                o.namespace.clone(),
                o.name.clone(),
            );
            let Some(&prev) = standing.get(&key) else {
                standing.insert(key, id);
                continue;
            };
            // A definition the API server rejects on create never existed: the next one
            // creates the object (both are read, each with its own findings).
            if self.rejected_on_create(prev) {
                standing.insert(key, id);
                continue;
            }
            let old = &self.objects[prev];
            if crate::node::same_content(old.root(), o.root()) {
                self.superseded.insert(prev);
                standing.insert(key, id);
                continue;
            }
            // A later definition the API server rejects as written (its own fields invalid)
            // is refused as the update it is: the object stays as it was, and the definition
            // is read with its own findings.
            if self.rejected_on_create(id) {
                continue;
            }
            // The object as the first definition created it: the API server drops a status
            // written in a manifest on create (the strategies' PrepareForCreate, as
            // persistentvolumeclaim's), so a copied `phase: Bound` does not make it Bound.
            let mut live = crate::value::convert(old.root());
            if let Some(m) = live.as_object_mut() {
                m.remove("status");
            }
            let merged = model::update::merged(
                &live,
                &crate::value::convert(o.root()),
                &model::update::ApplyModel::SameApply,
            );
            let env = model::update::Env {
                version: self.version,
                // A claim just created is not Bound: no resize is judged.
                expansion: &|_| None,
            };
            match model::update::refusals(&o.api_version, &o.kind, &o.name, &live, &merged, &env)
                .into_iter()
                .next()
            {
                Some(refused) => {
                    self.superseded.insert(id);
                    self.duplicates.push(Duplicate {
                        used: prev,
                        other: id,
                        refused: Some(refused),
                    });
                }
                None => {
                    self.superseded.insert(prev);
                    standing.insert(key, id);
                    self.duplicates.push(Duplicate {
                        used: id,
                        other: prev,
                        refused: None,
                    });
                }
            }
        }
        // Report each pair against the definition that finally stands.
        let objects = &self.objects;
        for d in self.duplicates.iter_mut() {
            let o = &objects[d.used];
            let key = (
                group(o),
                o.kind.clone(),
                o.namespace.clone(),
                o.name.clone(),
            );
            if let Some(&s) = standing.get(&key) {
                d.used = s;
            }
        }
    }

    /// Whether the API server rejects object `id` as written (what [`Index::is_rejected`]
    /// says of it once the views are built): its view read on its own, its diagnostics
    /// thrown away (the view loop reads it again, and keeps them).
    fn rejected_on_create(&self, id: ObjId) -> bool {
        let obj = &self.objects[id];
        if !model::reaches_api_server(&obj.api_version, &obj.kind) {
            return false;
        }
        if self.rejected_for_unknown_fields(id) {
            return true;
        }
        let mut diags = Vec::new();
        let mut r = Reader::new(obj, id, &mut diags);
        let _ = read_object(obj, id, self.version, !self.existing, &mut r);
        diags.iter().any(|d| d.rejects() || d.kind.unrendered())
    }

    /// Sizes the object vector and the views' vectors to what they will hold. Grown by
    /// doubling instead, they would hold up to twice that while every YAML tree is still
    /// alive: the index's own peak (on the benchmark corpus, 12.6 MB of its 85 MB).
    pub(super) fn reserve_views(&mut self) {
        self.objects.shrink_to_fit();
        let (mut pvs, mut pvcs, mut templates, mut workloads) = (0, 0, 0, 0);
        for (id, obj) in self.objects.iter().enumerate() {
            if !model::reaches_api_server(&obj.api_version, &obj.kind)
                || self.superseded.contains(&id)
            {
                continue;
            }
            match known_kind(&obj.api_version, &obj.kind).map(|(class, _)| class) {
                Some(KindClass::PersistentVolume) => pvs += 1,
                Some(KindClass::PersistentVolumeClaim) => pvcs += 1,
                Some(KindClass::Workload) => {
                    workloads += 1;
                    templates += obj
                        .root()
                        .at("spec.volumeClaimTemplates")
                        .and_then(Node::as_seq)
                        .map_or(0, <[Node]>::len);
                }
                _ => {}
            }
        }
        self.pvs.reserve_exact(pvs);
        self.pvcs.reserve_exact(pvcs);
        self.claim_templates.reserve_exact(templates);
        self.workloads.reserve_exact(workloads);
    }

    /// Whether the apply's field validation rejects object `id`: kubectl's default
    /// (`--validate=strict`, the API server's `fieldValidation=Strict`) rejects an object with a
    /// field the API does not know ("strict decoding error: unknown field"), and it never
    /// exists. With `warn` (Helm, client-go, `--validate=warn`) the field is dropped and the
    /// object created; a cluster's own objects exist already.
    fn rejected_for_unknown_fields(&self, id: ObjId) -> bool {
        let obj = &self.objects[id];
        self.field_validation.is_strict()
            && !obj.from_patch
            && model::reaches_api_server(&obj.api_version, &obj.kind)
            && matches!(model::known_kind(&obj.api_version, &obj.kind), Some((c, _)) if c != model::KindClass::Other)
            && !crate::schema::unknown_fields(&obj.kind, obj.root(), false).is_empty()
    }

    pub(super) fn build_views(&mut self) {
        for o in &self.objects {
            if o.kind == "PersistentVolumeClaim"
                && o.root().at("spec.storageClassName").and_then(Node::as_str) == Some("")
            {
                self.explicit_no_class.insert(o.source);
            }
            if o.root().at("metadata.name").is_none()
                && o.root().at("metadata.generateName").is_some()
            {
                self.generate_named.insert((o.source, o.document));
            }
        }
        self.find_duplicates();
        self.reserve_views();
        let mut diags = std::mem::take(&mut self.diags);
        let mut strict_rejected = Vec::new();
        for (id, obj) in self.objects.iter().enumerate() {
            if !model::reaches_api_server(&obj.api_version, &obj.kind)
                || self.superseded.contains(&id)
            {
                continue;
            }
            // A version the release no longer serves: the object never exists.
            if let Some(r) =
                crate::apiversions::removed(&obj.api_version, &obj.kind, self.version.version)
            {
                // A patch at a removed version is left out with the rest of the patch.
                if !obj.from_patch {
                    self.removed.push((id, r));
                    self.removed_ids.insert(id);
                }
                self.rejected.insert(id);
                continue;
            }
            let before = diags.len();
            if obj.patch_named {
                diags.push(super::left_out::patched_note(obj, id));
            }
            let mut r = Reader::new(obj, id, &mut diags);
            let read = read_object(obj, id, self.version, !self.existing, &mut r);
            // Two definitions of one object are both read when one of them is rejected
            // (`find_duplicates`): a lookup by name finds the one that exists.
            let unknown_fields = self.rejected_for_unknown_fields(id);
            if unknown_fields {
                strict_rejected.push(id);
            }
            let rejected = unknown_fields
                || diags[before..]
                    .iter()
                    .any(|d| d.rejects() || d.kind.unrendered());
            match read {
                Read::Pv(pv) => {
                    self.pv_classes.insert(pv.class.clone());
                    let at = self.pvs.len();
                    let by_name = self.pv_by_name.entry(obj.name.clone()).or_insert(at);
                    if !rejected {
                        *by_name = at;
                    }
                    self.pvs.push(pv);
                }
                Read::Claim(pvc) => {
                    self.pvc_by_obj.insert(id, self.pvcs.len());
                    let at = self.pvcs.len();
                    let by_key = self
                        .pvc_by_key
                        .entry((pvc.namespace.clone(), pvc.name.clone()))
                        .or_insert(at);
                    if !rejected {
                        *by_key = at;
                    }
                    self.pvcs.push(pvc);
                }
                Read::Class(sc) => self.classes.push(sc),
                Read::Driver(d) => self.csi_drivers.push(d),
                Read::Workload(w, templates) => {
                    for claim in templates {
                        self.templates_by_obj
                            .entry(id)
                            .or_default()
                            .push(self.claim_templates.len());
                        self.claim_templates.push(claim);
                    }
                    self.workloads.push(w);
                }
                Read::Other => {}
            }
        }
        // Objects that never exist as written: the API server rejects them (their fields, or a
        // field it does not know), or they are unrendered templates (what they become is
        // unknown).
        self.rejected.extend(strict_rejected);
        self.rejected
            .extend(diags.iter().filter(|d| d.rejects()).filter_map(|d| d.obj));
        let left_out: std::collections::HashSet<ObjId> = diags
            .iter()
            .filter(|d| d.kind.unrendered())
            .filter_map(|d| d.obj)
            .collect();
        self.rejected.extend(left_out.iter().copied());
        self.leave_out_dependents(&left_out);
        // Documents and files that are templates (before one note per source is kept).
        for d in diags
            .iter()
            .filter(|d| matches!(d.kind, DiagKind::Template(_)))
        {
            match d.obj {
                Some(_) => self.template_docs.insert((d.source, d.document)),
                None => self.template_files.insert(d.source),
            };
        }
        // A partial patch is not wrong: kustomize completes it from a base pvlint does not
        // see. It is left out, without the API server's complaints.
        let (objects, rejected) = (&self.objects, &self.rejected);
        diags.retain(|d| {
            d.obj
                .is_none_or(|o| !(objects[o].from_patch && rejected.contains(&o)))
        });
        // One template note per source: the first place it shows.
        let mut seen = std::collections::HashSet::new();
        diags.retain(|d| !d.kind.unrendered() || seen.insert(d.source));
        self.diags = diags;
        // The views live as long as the index, through the simulation and the rules: give
        // back what the vectors grew beyond their length (up to half of each).
        self.objects.shrink_to_fit();
        self.pvs.shrink_to_fit();
        self.pvcs.shrink_to_fit();
        self.claim_templates.shrink_to_fit();
        self.workloads.shrink_to_fit();
    }

    /// Gives back the memory of every object's YAML tree (on a large input, as much as the
    /// simulation takes). Everything after this reads the views, the names and
    /// [`Object::whole`]: the rules that walk the trees, and the tables of suppressions and
    /// origins, are computed before it (see `lint::run_rules`).
    pub(crate) fn release_trees(&mut self) {
        for o in &mut self.objects {
            o.release_tree();
        }
    }
}

/// One object read through its view, with what reading it found in the reader's diagnostics.
enum Read {
    Pv(model::Pv),
    Claim(model::Pvc),
    Class(model::StorageClass),
    Driver(model::CsiDriver),
    /// A workload, and a StatefulSet's claim templates.
    Workload(model::Workload, Vec<model::Pvc>),
    Other,
}

/// Reads and validates one object (its metadata, placeholders, its kind's fields) as the API
/// server validates it on create; with `creates` false (a cluster's state: it exists), what
/// only a create checks is left out.
fn read_object(
    obj: &Object,
    id: ObjId,
    version: crate::options::Target,
    creates: bool,
    r: &mut Reader<'_>,
) -> Read {
    check_metadata(r);
    r.placeholders_in_integers();
    r.placeholders_in_keys();
    let Some((class, _)) = known_kind(&obj.api_version, &obj.kind) else {
        return Read::Other;
    };
    match class {
        KindClass::PersistentVolume => {
            let pv = model::read_pv(obj, id, r);
            model::validation::pv(obj, &pv, r);
            Read::Pv(pv)
        }
        KindClass::PersistentVolumeClaim => {
            let pvc = model::read_claim(obj, id, r, "", obj.name.clone(), None);
            model::validation::claim(obj, &pvc, r);
            Read::Claim(pvc)
        }
        KindClass::StorageClass => {
            let sc = model::read_storage_class(obj, id, r);
            model::validation::storage_class(obj, &sc, r);
            Read::Class(sc)
        }
        KindClass::CsiDriver => Read::Driver(model::read_csi_driver(obj, id, r)),
        KindClass::Workload => {
            let Some(kind) = WorkloadKind::parse(&obj.kind) else {
                return Read::Other;
            };
            let mut templates = Vec::new();
            if kind == WorkloadKind::StatefulSet {
                if let Some(seq) = r.seq("spec.volumeClaimTemplates") {
                    for (i, t) in seq.iter().enumerate() {
                        let Some(tname) = t.at("metadata.name").and_then(Node::as_str) else {
                            continue;
                        };
                        let prefix = format!("spec.volumeClaimTemplates[{i}].");
                        templates.push(model::read_claim(
                            obj,
                            id,
                            r,
                            &prefix,
                            Str::from(tname),
                            Some(obj.name.to_string()),
                        ));
                    }
                }
            }
            model::validation::workload(obj, kind, creates, r);
            Read::Workload(model::read_workload(obj, id, kind, r, version), templates)
        }
        KindClass::Other => Read::Other,
    }
}

/// apimachinery `ValidateOwnerReferences` (pkg/api/validation/objectmeta.go), which every
/// object's metadata goes through: each reference names a version, a kind, a name and a uid
/// (`validateOwnerReference`; the path is the list's, not the entry's), no Event owns
/// anything (`BannedOwners`), and at most one reference has `controller: true`. An entry or
/// value that is a template placeholder is left alone.
fn check_owner_references(r: &mut Reader<'_>) {
    let obj = r.obj;
    let path = "metadata.ownerReferences";
    let Some(items) = r.seq(path) else { return };
    let kind = obj.kind.clone();
    let reject = |r: &mut Reader<'_>, field: Field, message: String, help: &str| {
        r.invalid(
            field,
            Severity::Error,
            format!("{message}; the API server rejects this {kind}"),
            help.to_string(),
        );
    };
    let mut first_controller: Option<String> = None;
    for (i, item) in items.iter().enumerate() {
        if item.as_map().is_none() {
            continue;
        }
        let text = |key: &str| item.get(key).and_then(Node::as_str).unwrap_or("");
        if ["apiVersion", "kind", "name", "uid"]
            .iter()
            .any(|k| crate::template::in_value(text(k)).is_some())
        {
            continue;
        }
        let entry = Field {
            path: Str::from(format!("{path}[{i}]")),
            span: item.span,
        };
        let at = |key: &str| Field {
            path: Str::from(format!("{path}[{i}].{key}")),
            span: item.get(key).map_or(item.span, |n| n.span),
        };
        // schema.FromAPIVersionAndKind: "group/version" or "version"; anything else parses
        // to no version.
        let api = text("apiVersion");
        let version = match api.split('/').collect::<Vec<_>>().as_slice() {
            [v] => *v,
            [_, v] => *v,
            _ => "",
        };
        let help = "an owner reference names the owner's apiVersion, kind, name and uid, as the owner's own metadata gives them";
        if version.is_empty() {
            reject(
                r,
                at("apiVersion"),
                format!("{path}.apiVersion: Invalid value: \"{api}\": version must not be empty"),
                help,
            );
        }
        for key in ["kind", "name", "uid"] {
            if text(key).is_empty() {
                reject(
                    r,
                    at(key),
                    format!("{path}.{key}: Invalid value: \"\": must not be empty"),
                    help,
                );
            }
        }
        if version == "v1" && !api.contains('/') && text("kind") == "Event" {
            reject(r, entry.clone(), format!("{path}: Invalid value: an Event: /v1, Kind=Event is disallowed from being an owner"), "an Event cannot own objects: remove the reference");
        }
        if item
            .get("controller")
            .and_then(|n| n.as_scalar())
            .is_some_and(|s| s.kind == crate::node::ScalarKind::Bool(true))
        {
            let name = format!("{}/{}", text("kind"), text("name"));
            match &first_controller {
                Some(first) => reject(
                    r,
                    entry,
                    format!("{path}: Invalid value: {} references: Only one reference can have Controller set to true. Found \"true\" in references for {first} and {name}", items.len()),
                    "keep `controller: true` on the one owner that manages this object",
                ),
                None => first_controller = Some(name),
            }
        }
    }
}

/// `metadata` checks every object gets: type of name/namespace/labels/annotations.
fn check_metadata(r: &mut Reader<'_>) {
    let obj = r.obj;
    let Some(meta) = r.map("metadata") else {
        // A custom group's document without metadata at all is a tool's config file
        // (nodeadm's NodeConfig, a controller's ControllerManagerConfig, istioctl's
        // IstioOperator profile): read by that tool, never applied, so not judged as an object.
        let builtin = model::BUILTIN_GROUPS.contains(&model::group_of(&obj.api_version));
        if obj.root().get("metadata").is_none() && builtin {
            r.invalid(
                obj.whole(),
                Severity::Error,
                format!("{} has no metadata: Required value: name or generateName is required; the API server rejects it", obj.kind),
                "add metadata.name".into(),
            );
        }
        return;
    };
    if meta.get("name").is_none() && meta.get("generateName").is_none() {
        r.invalid(
            obj.key_field("metadata"),
            Severity::Error,
            "metadata.name: Required value: name or generateName is required; the API server rejects this object".into(),
            "add metadata.name".into(),
        );
    }
    r.string("metadata.name");
    r.string("metadata.namespace");
    check_owner_references(r);
    for map_key in ["labels", "annotations"] {
        let path = format!("metadata.{map_key}");
        let Some(m) = r.map(&path) else { continue };
        for e in m.as_map().unwrap_or_default() {
            // A null value is an empty string to kubectl and the API server (JSON null into
            // a Go string leaves it empty).
            if e.value.as_str().is_none() && !e.value.is_null() {
                let quoted = e.value.as_scalar().map(|s| s.text.clone());
                let mut d_help =
                    "annotation and label values are strings: quote the value".to_string();
                if let Some(q) = &quoted {
                    d_help = format!("quote the value: {}: \"{}\"", e.key, q);
                }
                let field = Field {
                    path: Str::from(format!("{path}.{}", e.key)),
                    span: e.value.span,
                };
                r.invalid(
                    field,
                    Severity::Error,
                    format!(
                        "{path}.{} must be a string, found {} (YAML reads unquoted yes/no/true/numbers as non-strings): the API server rejects this object",
                        e.key,
                        e.value.type_name()
                    ),
                    d_help.clone(),
                );
                if let (Some(d), Some(q)) = (r.diags.last_mut(), quoted) {
                    d.suggestion = Some(Suggestion {
                        description: "quote the value".into(),
                        snippet: Some(Str::from(format!("{}: \"{}\"", e.key, q))),
                        applicability: crate::finding::Applicability::Exact,
                        edits: vec![crate::finding::Edit {
                            line: e.value.span.start.line,
                            column: e.value.span.start.column,
                            end_line: e.value.span.end.line,
                            end_column: e.value.span.end.column,
                            replacement: Str::from(format!("\"{q}\"")),
                        }],
                    });
                }
            }
        }
    }
}
