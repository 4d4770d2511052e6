//! Whether pods on different nodes contend for a volume.
//!
//! Upstream: the attach/detach controller only attaches volumes whose plugin is attachable
//! (`ProcessPodVolumes`); a CSI volume is attachable unless its CSIDriver object says
//! `attachRequired: false` (`csi_plugin.go` `skipAttach`: no CSIDriver object means attach);
//! and `util.IsMultiAttachAllowed` lets a volume attach to several nodes when the PV's access
//! modes are empty or include ReadWriteMany or ReadOnlyMany. ReadWriteOncePod is separate
//! (the scheduler's VolumeRestrictions plugin, any driver) and is not decided here.

use super::SourceKind;
use crate::kube::{self, AccessModes};

/// How a volume behaves when pods on two nodes use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attach {
    /// It attaches to one node at a time: a second node gets Multi-Attach.
    Exclusive { why: String },
    /// pvlint does not know the CSI driver (no CSIDriver object, no row of its table): the
    /// cluster profile says such drivers attach, as Kubernetes does without a CSIDriver object
    /// and as most block storage does. Not an assumption a finding names.
    Presumed { why: String },
    /// pvlint does not know what the volume is (a source it does not recognise, a class that
    /// provisions nothing); it assumes it attaches, and says so.
    Assumed { why: String },
    /// pvlint does not know the driver, and the class's name says node-local storage (see
    /// [`crate::drivers::local_by_name`]): it may attach, but most likely pins its pods to one
    /// node and never contends. A hazard resting on it is informational.
    ProbablyLocal { why: String },
    /// It never goes through attach (NFS, hostPath, local, CSI with attachRequired false).
    Never { why: String },
    /// It attaches, but the PV lists ReadWriteMany or ReadOnlyMany (or no modes), so several
    /// nodes may attach it.
    MultiNode { why: String },
    /// Its nodeAffinity pins every pod that uses it to the same node(s) (local volumes).
    Pinned { why: String },
}

impl Attach {
    /// Pods on two nodes would hit Multi-Attach (for sure or by assumption).
    pub fn contends(&self) -> bool {
        matches!(
            self,
            Attach::Exclusive { .. }
                | Attach::Presumed { .. }
                | Attach::Assumed { .. }
                | Attach::ProbablyLocal { .. }
        )
    }

    pub fn assumed(&self) -> bool {
        matches!(self, Attach::Assumed { .. } | Attach::ProbablyLocal { .. })
    }

    /// The hazard is unlikely on the cluster the input suggests: informational at most.
    pub fn unlikely(&self) -> bool {
        matches!(self, Attach::ProbablyLocal { .. })
    }

    pub fn why(&self) -> &str {
        match self {
            Attach::Exclusive { why }
            | Attach::Presumed { why }
            | Attach::Assumed { why }
            | Attach::ProbablyLocal { why }
            | Attach::Never { why }
            | Attach::MultiNode { why }
            | Attach::Pinned { why } => why,
        }
    }
}

/// Whether a CSI driver attaches: its CSIDriver object (`csi_driver(name)` answers
/// `attachRequired` for objects pvlint knows), else what [`crate::drivers`] knows of it, else
/// assumed. A node-local driver's volumes are pinned to their node.
pub fn driver(name: &str, csi_driver: impl Fn(&str) -> Option<bool>) -> Attach {
    let known = crate::drivers::driver(name);
    if known.is_some_and(|d| d.node_local) {
        return Attach::Pinned {
            why: format!("{name} volumes are local to one node, where every pod using one runs"),
        };
    }
    if let Some(required) = csi_driver(name) {
        return if required {
            Attach::Exclusive {
                why: format!("CSIDriver {name} has attachRequired: true"),
            }
        } else {
            Attach::Never {
                why: format!("CSIDriver {name} has attachRequired: false"),
            }
        };
    }
    match known.map(|d| d.attach) {
        Some(crate::drivers::Attach::Required) => Attach::Exclusive {
            why: format!("{name} volumes attach to one node"),
        },
        Some(crate::drivers::Attach::NotRequired) => Attach::Never {
            why: format!("{name}: its CSIDriver has attachRequired: false"),
        },
        Some(crate::drivers::Attach::NotCsi) => Attach::Never {
            why: format!("{name} creates hostPath volumes, which never attach"),
        },
        None => Attach::Presumed {
            why: format!(
                "no CSIDriver object for {name} is known, and without one Kubernetes attaches its volumes"
            ),
        },
    }
}

/// How a volume with this source, these access modes and this node affinity behaves.
pub fn volume(
    source: &SourceKind,
    modes: AccessModes,
    node_affinity: bool,
    csi_driver: impl Fn(&str) -> Option<bool>,
) -> Attach {
    let base = match source {
        SourceKind::Csi { driver: d } => driver(d, csi_driver),
        SourceKind::InTree(s) if s.field == "local" => Attach::Pinned {
            why: "a local volume is on one node".into(),
        },
        SourceKind::InTree(s) if s.attachable => Attach::Exclusive {
            why: format!("{} volumes attach to one node", s.field),
        },
        SourceKind::InTree(s) => Attach::Never {
            why: format!("{} volumes are mounted, never attached", s.field),
        },
        SourceKind::Unknown => Attach::Assumed {
            why: "pvlint does not recognise the volume's source".into(),
        },
    };
    if !base.contends() {
        return base;
    }
    if modes.is_empty() || modes.contains(AccessModes::RWX) || modes.contains(AccessModes::ROX) {
        return Attach::MultiNode {
            why: format!(
                "the volume lists access modes {modes}, so it may attach to several nodes"
            ),
        };
    }
    if node_affinity {
        return Attach::Pinned {
            why: "the volume's nodeAffinity keeps its pods on the node(s) it names".into(),
        };
    }
    base
}

/// The source a provisioner creates: a CSI driver, or an in-tree `kubernetes.io/*` plugin.
pub fn provisioned_source(provisioner: &str) -> SourceKind {
    match kube::in_tree_provisioner_source(provisioner) {
        Some(s) => SourceKind::InTree(s),
        None if provisioner.starts_with("kubernetes.io/") => SourceKind::Unknown,
        None => SourceKind::Csi {
            driver: crate::string::Str::from(provisioner),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<bool> {
        None
    }

    /// pkg/volume/util/util_test.go TestIsMultiAttachAllowed: RWX/ROX or no modes allow it.
    #[test]
    fn multi_attach_allowed_by_pv_modes() {
        let ebs = SourceKind::Csi {
            driver: "ebs.csi.aws.com".into(),
        };
        assert!(volume(&ebs, AccessModes::RWO, false, none).contends());
        let mut rwo_rox = AccessModes::RWO;
        rwo_rox.insert(AccessModes::ROX);
        assert!(!volume(&ebs, rwo_rox, false, none).contends());
        assert!(!volume(&ebs, AccessModes::default(), false, none).contends());
        assert!(volume(&ebs, AccessModes::RWOP, false, none).contends());
    }

    /// csi_plugin.go skipAttach: a CSIDriver object with attachRequired false skips attach;
    /// no object means attach.
    #[test]
    fn csi_driver_objects_decide() {
        let d = SourceKind::Csi {
            driver: "x.example.com".into(),
        };
        assert!(matches!(
            volume(&d, AccessModes::RWO, false, none),
            Attach::Presumed { .. }
        ));
        assert!(!volume(&d, AccessModes::RWO, false, |_| Some(false)).contends());
        assert!(matches!(
            volume(&d, AccessModes::RWO, false, |_| Some(true)),
            Attach::Exclusive { .. }
        ));
        let nfs = SourceKind::Csi {
            driver: "nfs.csi.k8s.io".into(),
        };
        assert!(!volume(&nfs, AccessModes::RWO, false, none).contends());
    }

    #[test]
    fn in_tree_sources() {
        let src = |f| SourceKind::InTree(kube::in_tree_source(f).unwrap());
        assert!(!volume(&src("nfs"), AccessModes::RWO, false, none).contends());
        assert!(!volume(&src("hostPath"), AccessModes::RWO, false, none).contends());
        assert!(volume(&src("rbd"), AccessModes::RWO, false, none).contends());
        assert!(!volume(&src("rbd"), AccessModes::RWO, true, none).contends());
        assert!(!volume(&src("local"), AccessModes::RWO, true, none).contends());
    }
}
