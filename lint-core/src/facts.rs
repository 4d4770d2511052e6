//! Facts about the input that several rules need, computed the way the PV controller,
//! the DefaultStorageClass admission plugin and the attach/detach controller compute them.

use crate::index::Index;
use crate::kube::{self, AccessModes, VolumeMode};
use crate::model::{ClaimClass, Field, Pv, Pvc, StorageClass};
use crate::quantity::Quantity;

/// The class a claim ends up with after admission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EffectiveClass {
    /// storageClassName (or the beta annotation) is set; may be "".
    Set(String),
    /// Unset; admission assigns the default class found in the input.
    Defaulted(String),
    /// Unset, and the input holds StorageClasses of which none is default: stays unset ("").
    NoDefault,
    /// Unset, and the input holds no StorageClass: the cluster's default (if any) is assigned.
    ClusterDefault,
}

impl EffectiveClass {
    /// The class name the controller compares, when known.
    pub fn known(&self) -> Option<&str> {
        match self {
            EffectiveClass::Set(s) | EffectiveClass::Defaulted(s) => Some(s),
            EffectiveClass::NoDefault => Some(""),
            EffectiveClass::ClusterDefault => None,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            EffectiveClass::Set(s) if s.is_empty() => "storageClassName \"\" (no class)".into(),
            EffectiveClass::Set(s) => format!("class \"{s}\""),
            EffectiveClass::Defaulted(s) => {
                format!("no storageClassName, so admission gives it the default class \"{s}\"")
            }
            EffectiveClass::NoDefault => {
                "no storageClassName and no default class (so \"\")".into()
            }
            EffectiveClass::ClusterDefault => {
                "no storageClassName, so admission gives it the cluster's default class".into()
            }
        }
    }
}

/// The newest default wins since 1.26; for manifests pvlint cannot know creation order, so the
/// last one in the input stands for "the one applied last".
pub fn default_class(ix: &Index) -> Option<&StorageClass> {
    ix.default_classes().into_iter().last()
}

pub fn effective_class(ix: &Index, pvc: &Pvc) -> EffectiveClass {
    match &pvc.class {
        ClaimClass::Set { name, .. } => EffectiveClass::Set(name.clone()),
        ClaimClass::Unset => match default_class(ix) {
            Some(d) => EffectiveClass::Defaulted(d.name.clone()),
            None if !ix.classes.is_empty() => EffectiveClass::NoDefault,
            None => EffectiveClass::ClusterDefault,
        },
    }
}

/// One failed check of `checkVolumeSatisfyClaim`, in upstream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    TooSmall {
        capacity: String,
        request: String,
    },
    /// `certain` is false when the claim's class depends on the cluster's default class.
    Class {
        claim: EffectiveClass,
        pv: String,
        certain: bool,
    },
    VolumeMode {
        claim: &'static str,
        pv: &'static str,
    },
    AccessMode {
        claim: AccessModes,
        pv: AccessModes,
    },
}

impl Mismatch {
    /// The error text the PV controller puts in its VolumeMismatch event.
    pub fn upstream_error(&self) -> &'static str {
        match self {
            Mismatch::TooSmall { .. } => "requested PV is too small",
            Mismatch::Class { .. } => "storageClassName does not match",
            Mismatch::VolumeMode { .. } => "incompatible volumeMode",
            Mismatch::AccessMode { .. } => "incompatible accessMode",
        }
    }

    pub fn detail(&self) -> String {
        match self {
            Mismatch::TooSmall { capacity, request } => {
                format!("the claim requests {request} and the volume has only {capacity}")
            }
            Mismatch::Class { claim, pv, .. } => {
                let pvc = if pv.is_empty() {
                    "no class (\"\")".to_string()
                } else {
                    format!("class \"{pv}\"")
                };
                format!(
                    "the claim has {} and the volume has {pvc}",
                    claim.describe()
                )
            }
            Mismatch::VolumeMode { claim, pv } => {
                format!("the claim wants volumeMode {claim} and the volume is {pv}")
            }
            Mismatch::AccessMode { claim, pv } => {
                format!("the claim asks for {claim} and the volume offers {pv}")
            }
        }
    }
}

/// `checkVolumeSatisfyClaim` (pv_controller.go), all failures in upstream order
/// (the controller reports only the first).
pub fn check_volume_satisfy_claim(ix: &Index, pv: &Pv, pvc: &Pvc) -> Vec<Mismatch> {
    satisfy_checks(
        Side {
            capacity: pv.capacity.as_ref().map(|c| &c.value),
            volume_mode: pv.volume_mode,
            access_modes: pv.access_modes,
        },
        Side {
            capacity: pvc.request.as_ref().map(|r| &r.value),
            volume_mode: pvc.volume_mode,
            access_modes: pvc.access_modes,
        },
        class_mismatch(ix, pv, pvc),
    )
}

/// What `checkVolumeSatisfyClaim` compares of a volume (capacity) or a claim (request).
pub struct Side<'a> {
    pub capacity: Option<&'a Quantity>,
    pub volume_mode: VolumeMode,
    pub access_modes: AccessModes,
}

/// The checks of `checkVolumeSatisfyClaim` in upstream order; the class check, which depends
/// on how the claim's class is known, is computed by the caller.
pub fn satisfy_checks(pv: Side<'_>, claim: Side<'_>, class: Option<Mismatch>) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if let (Some(cap), Some(req)) = (pv.capacity, claim.capacity) {
        if cap < req {
            out.push(Mismatch::TooSmall {
                capacity: cap.to_string(),
                request: req.to_string(),
            });
        }
    }
    out.extend(class);
    if pv.volume_mode != claim.volume_mode {
        out.push(Mismatch::VolumeMode {
            claim: claim.volume_mode.as_str(),
            pv: pv.volume_mode.as_str(),
        });
    }
    if !pv.access_modes.contains(claim.access_modes) {
        out.push(Mismatch::AccessMode {
            claim: claim.access_modes,
            pv: pv.access_modes,
        });
    }
    out
}

pub fn class_mismatch(ix: &Index, pv: &Pv, pvc: &Pvc) -> Option<Mismatch> {
    let claim = effective_class(ix, pvc);
    match claim.known() {
        Some(c) if c == pv.class => None,
        Some(_) => Some(Mismatch::Class {
            claim,
            pv: pv.class.clone(),
            certain: true,
        }),
        // Unset claim, no StorageClass in the input: the cluster's default decides. A
        // class-less PV can never match a defaulted claim when the cluster has a default.
        None => Some(Mismatch::Class {
            claim,
            pv: pv.class.clone(),
            certain: false,
        }),
    }
}

/// Whether pods on different nodes using this claim's volume contend for attachment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attach {
    /// The volume is attached to a node (Multi-Attach applies). `assumed`: pvlint does not
    /// know the driver and treats it as attachable.
    Yes {
        why: String,
        assumed: bool,
    },
    No {
        why: String,
    },
}

impl Attach {
    pub fn attachable(&self) -> bool {
        matches!(self, Attach::Yes { .. })
    }

    pub fn why(&self) -> &str {
        match self {
            Attach::Yes { why, .. } | Attach::No { why } => why,
        }
    }
}

fn driver_attach(ix: &Index, driver: &str, via: &str) -> Attach {
    if let Some(d) = ix.csi_driver(driver) {
        return if d.attach_required {
            Attach::Yes {
                why: format!("{via}: the CSIDriver object {driver} requires attach"),
                assumed: false,
            }
        } else {
            Attach::No {
                why: format!("{via}: the CSIDriver object {driver} says attachRequired: false"),
            }
        };
    }
    if let Some((_, why)) = kube::NON_ATTACHABLE_DRIVERS
        .iter()
        .find(|(n, _)| *n == driver)
    {
        return Attach::No {
            why: format!("{via}: {driver} never attaches ({why})"),
        };
    }
    if kube::ATTACHABLE_DRIVERS.contains(&driver) {
        return Attach::Yes {
            why: format!("{via}: {driver} volumes attach to one node"),
            assumed: false,
        };
    }
    if let Some(src) = kube::in_tree_provisioner_source(driver) {
        return if src.attachable {
            Attach::Yes {
                why: format!(
                    "{via}: the in-tree {} volumes it creates attach to one node",
                    src.field
                ),
                assumed: false,
            }
        } else {
            Attach::No {
                why: format!(
                    "{via}: the in-tree {} volumes it creates are mounted, never attached",
                    src.field
                ),
            }
        };
    }
    Attach::Yes {
        why: format!(
            "{via}: pvlint does not know whether {driver} attaches (no CSIDriver object for it in the input), so it assumes it does"
        ),
        assumed: true,
    }
}

/// How a claim's volume is provided: its PV in the input, else its StorageClass's provisioner.
pub fn attachability(ix: &Index, pvc: &Pvc) -> Attach {
    let pv = pvc
        .volume_name
        .as_ref()
        .and_then(|v| ix.pv(&v.value))
        .or_else(|| ix.pvs_reserving(&pvc.namespace, &pvc.name).next());
    if let Some(pv) = pv {
        let via = format!("its volume {}", pv.name);
        return match &pv.source {
            Some(s) if s.kind == "csi" => {
                driver_attach(ix, s.csi_driver.as_deref().unwrap_or(""), &via)
            }
            Some(s) => match kube::in_tree_source(&s.kind) {
                Some(t) if t.attachable => Attach::Yes {
                    why: format!(
                        "{via} is an in-tree {} volume, which attaches to one node",
                        s.kind
                    ),
                    assumed: false,
                },
                _ => Attach::No {
                    why: format!(
                        "{via} is an {} volume, which is mounted, never attached",
                        s.kind
                    ),
                },
            },
            None => Attach::Yes {
                why: format!(
                    "{via} has no volume source pvlint recognises, so it assumes it attaches"
                ),
                assumed: true,
            },
        };
    }
    let class = effective_class(ix, pvc);
    match class.known() {
        Some("") => Attach::Yes {
            why: "the claim has no class and its volume is not in the input, so pvlint assumes it attaches".into(),
            assumed: true,
        },
        Some(name) => match ix.class(name) {
            Some(sc) => match &sc.provisioner {
                Some(p) => driver_attach(ix, &p.value, &format!("StorageClass {name} (provisioner {})", p.value)),
                None => Attach::Yes {
                    why: format!("StorageClass {name} names no provisioner, so pvlint assumes its volumes attach"),
                    assumed: true,
                },
            },
            None => Attach::Yes {
                why: format!(
                    "StorageClass \"{name}\" is not in the input, so pvlint cannot tell its driver and assumes its volumes attach"
                ),
                assumed: true,
            },
        },
        None => Attach::Yes {
            why: "the claim uses the cluster's default class, which is not in the input, so pvlint assumes its volumes attach".into(),
            assumed: true,
        },
    }
}

/// How a claim and a volume name each other before binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreBound {
    /// The claim's spec.volumeName names the volume; the volume has no claimRef.
    /// The controller runs checkVolumeSatisfyClaim and emits VolumeMismatch on failure.
    VolumeName,
    /// The volume's claimRef names the claim (no uid); the claim names no volume.
    /// findBestMatchForClaim returns the volume only if access modes, capacity and volumeMode fit;
    /// the class is not checked.
    ClaimRef,
    /// Both name each other: the controller binds without any check.
    Both,
}

/// Every pre-bound claim/volume pair in the input, excluding claims already marked bound
/// (the controller re-binds those without checks) and claimRefs with a uid (stale-claim-ref-uid).
pub fn prebound_pairs(ix: &Index) -> Vec<(PreBound, &Pv, &Pvc)> {
    let mut out = Vec::new();
    for pvc in &ix.pvcs {
        if pvc.bind_completed.is_some() {
            continue;
        }
        let named = pvc.volume_name.as_ref().and_then(|v| ix.pv(&v.value));
        if let Some(pv) = named {
            match &pv.claim_ref {
                None => out.push((PreBound::VolumeName, pv, pvc)),
                Some(cr)
                    if cr.name == pvc.name && cr.namespace == pvc.namespace && cr.uid.is_none() =>
                {
                    out.push((PreBound::Both, pv, pvc))
                }
                Some(_) => {}
            }
        } else if pvc.volume_name.is_none() {
            for pv in ix.pvs_reserving(&pvc.namespace, &pvc.name) {
                if pv.claim_ref.as_ref().is_some_and(|cr| cr.uid.is_none()) && ix.is_current_pv(pv)
                {
                    out.push((PreBound::ClaimRef, pv, pvc));
                }
            }
        }
    }
    out
}

/// The manifest claim (or claim template) a simulated claim came from.
pub fn claim_view<'a>(ix: &'a Index, origin: &crate::sim::Origin) -> Option<&'a Pvc> {
    match origin {
        crate::sim::Origin::Manifest { object } => ix.pvc_of(*object),
        crate::sim::Origin::Template {
            object, template, ..
        } => ix.template_of(*object, *template),
        _ => None,
    }
}

/// A key naming a claim (or a StatefulSet's claim template) in root-cause keys.
pub fn claim_key(pvc: &Pvc) -> String {
    match &pvc.template_of {
        Some(sts) => format!("{}/{sts}/{}", pvc.namespace, pvc.name),
        None => format!("{}/{}", pvc.namespace, pvc.name),
    }
}

/// The field of a claim to point at for a failed check: class, capacity, access modes,
/// volumeMode, selector — or the claim's spec.
pub fn claim_field(ix: &Index, pvc: &Pvc, check: &str) -> Field {
    let obj = ix.object(pvc.obj);
    let spec = || obj.key_field(&format!("{}spec", pvc.prefix));
    match check {
        "class" => pvc.class.field().cloned().unwrap_or_else(spec),
        "capacity" => pvc
            .request
            .as_ref()
            .map(|r| r.field.clone())
            .unwrap_or_else(spec),
        "access modes" => pvc.access_modes_field.clone().unwrap_or_else(spec),
        "volumeMode" => pvc.volume_mode_field.clone().unwrap_or_else(spec),
        "selector" => obj
            .field(&format!("{}spec.selector", pvc.prefix))
            .unwrap_or_else(spec),
        _ => spec(),
    }
}
