//! `provisionClaim` (pv_controller.go): the class's provisioner creates a volume for the
//! claim. External provisioners (CSI drivers, and the in-tree names CSI migration serves) are
//! assumed to run; an in-tree `kubernetes.io/*` name kube-controller-manager does not serve
//! gives Warning ProvisioningFailed; a missing class gives "storageclass ... not found".

use super::events;
use super::reclaim::{honor_reclaim_policy, migrated_driver};
use super::state::*;
use super::World;
use crate::binding::attach::provisioned_source;
use crate::binding::VolumeSpec;
use crate::kube::{self, ReclaimPolicy};
use crate::string::Str;

/// Why kube-controller-manager cannot provision for an in-tree `kubernetes.io/*` provisioner
/// that CSI migration does not serve (`findProvisionablePlugin`): the ProvisioningFailed
/// message. None when it can (rbd before 1.31, glusterfs before 1.26).
pub fn unserved_in_tree(provisioner: &str, version: crate::options::KubeVersion) -> Option<String> {
    Some(match provisioner {
        "kubernetes.io/host-path" => "Failed to create provisioner: provisioning in volume plugin \"kubernetes.io/host-path\" is disabled".to_string(),
        "kubernetes.io/nfs" => "no provisionable volume plugin matched".to_string(),
        "kubernetes.io/local-volume" | "kubernetes.io/csi" if !version.at_least(31) => {
            "no provisionable volume plugin matched".to_string()
        }
        "kubernetes.io/rbd" if !version.at_least(31) => return None,
        "kubernetes.io/glusterfs" if !version.at_least(26) => return None,
        other => format!("no volume plugin matched name: {other}"),
    })
}

impl World {
    /// A StorageClass whose in-tree provisioner kube-controller-manager does not serve at this
    /// version: the ProvisioningFailed message its claims get.
    pub fn unserved_provisioner(&self, class: &Class) -> Option<String> {
        let p = class.provisioner.as_deref()?;
        if !p.starts_with("kubernetes.io/") || migrated_driver(p, self.options.target()).is_some() {
            return None;
        }
        if p == "kubernetes.io/host-path" && self.options.hostpath_provisioner {
            return None;
        }
        unserved_in_tree(p, self.options.kube_version)
    }

    /// The ExternalProvisioning event for `provisioner`, its text shared with every other
    /// claim waiting for the same provisioner.
    fn external_provisioning(&mut self, provisioner: &str) -> Event {
        if let Some(e) = self.provisioning_events.get(provisioner) {
            return e.clone();
        }
        let mut e = events::external_provisioning(provisioner);
        e.message = e.message.shared();
        self.provisioning_events
            .insert(Str::from(provisioner), e.clone());
        e
    }

    pub(crate) fn provision_claim(&mut self, id: ClaimId) -> bool {
        let class_name = self.claim(id).class_name().to_string();
        let Some(class) = self.class(&class_name).cloned() else {
            let assumption = self.missing_class_assumption(&class_name);
            return self.pend_claim(
                id,
                Pending::ClassNotFound {
                    class: Str::from(class_name),
                    assumption,
                },
            );
        };
        let version = self.options.target();
        let (provisioner, event) = match class.provisioner.as_deref() {
            // An assumed class: its provisioner is unknown, and assumed to work.
            None => ("<unknown>".to_string(), None),
            Some(p) if p.starts_with("kubernetes.io/") => {
                if let Some(driver) = migrated_driver(p, version) {
                    (driver.to_string(), Some(self.external_provisioning(driver)))
                } else {
                    let served =
                        p == "kubernetes.io/host-path" && self.options.hostpath_provisioner;
                    // pv_controller.go provisionClaimOperation: a Block claim of a plugin
                    // without block support ("%s does not support block volume
                    // provisioning"); the host-path plugin has none (oracle case 34).
                    let block =
                        served && self.claim(id).spec.volume_mode == crate::kube::VolumeMode::Block;
                    let refused = block.then(|| {
                        format!("Failed to provision volume with StorageClass \"{class_name}\": {p} does not support block volume provisioning")
                    });
                    let Some(error) = refused
                        .or_else(|| unserved_in_tree(p, version.version).filter(|_| !served))
                    else {
                        return self.provision(id, &class, p.to_string(), None);
                    };
                    return self.pend_claim(
                        id,
                        Pending::ProvisionerUnavailable {
                            class: Str::from(class_name),
                            provisioner: Str::from(p),
                            error: Str::from(error),
                            waiting_pods: Vec::new(),
                        },
                    );
                }
            }
            Some("") => {
                return self.pend_claim(
                    id,
                    Pending::ProvisionerUnavailable {
                        class: Str::from(class_name),
                        provisioner: Str::default(),
                        error: "no volume plugin matched name: ".into(),
                        waiting_pods: Vec::new(),
                    },
                )
            }
            Some(p) => (p.to_string(), Some(self.external_provisioning(p))),
        };
        // An assumed class's provisioner is unknown: whether it refuses a claim is as much an
        // assumption as for any provisioner pvlint does not know.
        let refuser = match class.provisioner {
            Some(_) => format!("provisioner {provisioner}"),
            None => format!("the provisioner of {}", self.class_label(&class.name)),
        };
        if let Some((why, error, assumption)) = self.refusal(id, &provisioner, &refuser) {
            // provisionClaimOperationExternal: the controller hands the claim to the external
            // provisioner (Normal ExternalProvisioning) before that one refuses (oracle case 37).
            if let Some(e) = event {
                super::push_once(&mut self.claims[id.idx()].events, e);
            }
            return self.pend_claim(
                id,
                Pending::ProvisionerRefuses {
                    why,
                    class: Str::from(class_name),
                    // The provisioner's name, or what stands for an unknown one.
                    provisioner: Str::from(match class.provisioner {
                        Some(_) => provisioner,
                        None => refuser,
                    }),
                    error: Str::from(error),
                    assumption,
                },
            );
        }
        self.provision(id, &class, provisioner, event)
    }

    /// What the external provisioner refuses to provision, in the order its
    /// `prepareProvision` checks (kubernetes-csi/external-provisioner@0688604faa43 pkg/controller/
    /// controller.go): a data source of another kind is left to a volume populator (627-635:
    /// the provisioner ignores the claim); a data source the driver has no capability for
    /// (449-471, 649-651); a claim with a selector ("claim Selector is not supported", 654);
    /// what `getPVCSource` finds wrong with a clone's source (1198-1285: smaller, another
    /// driver's volume, another volume mode); then the driver's own CreateVolume
    /// ([`crate::drivers::refuses_capability`]). Certain for CSI drivers (the sidecar checks)
    /// but for a capability, which a later driver release may add (an assumption); for another
    /// provisioner, the selector is an assumption (most refuse it, each in its own code) and a
    /// data source is not judged. `refuser` names the provisioner in what is assumed of it.
    fn refusal(
        &self,
        id: ClaimId,
        provisioner: &str,
        refuser: &str,
    ) -> Option<(ProvisionRefusal, String, Option<Assumption>)> {
        use crate::drivers::ControllerCapability;
        let c = self.claim(id);
        let csi = crate::drivers::driver(provisioner)
            .is_some_and(|d| d.attach != crate::drivers::Attach::NotCsi);
        let source = c.data_source.as_deref().filter(|_| csi);
        let needs = match source.map(|(kind, _)| kind.as_str()) {
            Some("PersistentVolumeClaim") => Some(ControllerCapability::CloneVolume),
            Some("VolumeSnapshot") => Some(ControllerCapability::CreateDeleteSnapshot),
            // A populator's kind: the provisioner leaves the claim alone.
            Some(_) => return None,
            None => None,
        };
        if let Some(cap) =
            needs.filter(|cap| crate::drivers::reports(provisioner, *cap) == Some(false))
        {
            let why = match cap {
                ControllerCapability::CloneVolume => ProvisionRefusal::NoCloning,
                ControllerCapability::CreateDeleteSnapshot => ProvisionRefusal::NoRestore,
            };
            let assumption = Assumption::DriverWithout {
                driver: Str::from(provisioner),
                capability: Str::from_static(cap.name()),
            };
            return Some((why, cap.missing_error().into(), Some(assumption)));
        }
        // getSnapshotSource (controller.go): the snapshot is read from the API server first; one
        // the manifests define only at an unserved version does not exist.
        if let Some((_, name)) =
            source.filter(|_| needs == Some(ControllerCapability::CreateDeleteSnapshot))
        {
            if self
                .unserved_snapshots
                .contains(&(c.key.namespace.clone(), name.clone()))
            {
                let assumption = self
                    .options
                    .cluster
                    .snapshotter
                    .is_none()
                    .then_some(Assumption::SnapshotterWithoutV1beta1);
                return Some((
                    ProvisionRefusal::SnapshotNotServed,
                    format!("error getting handle for DataSource Type VolumeSnapshot by Name {name}: error getting snapshot {name} from api server: volumesnapshots.snapshot.storage.k8s.io \"{name}\" not found"),
                    assumption,
                ));
            }
        }
        if c.spec.selector.is_some() {
            let assumption = (!csi).then(|| Assumption::ProvisionerLikeCsi(Str::from(refuser)));
            return Some((
                ProvisionRefusal::Selector,
                "claim Selector is not supported".into(),
                assumption,
            ));
        }
        if let Some((_, name)) = source.filter(|_| needs == Some(ControllerCapability::CloneVolume))
        {
            if let Some((why, error)) = self.clone_source(id, provisioner, name.as_str()) {
                return Some((
                    why,
                    format!("error getting handle for DataSource Type PersistentVolumeClaim by Name {name}: {error}"),
                    None,
                ));
            }
        }
        // The driver's own CreateVolume, after the sidecar's checks.
        crate::drivers::refuses_capability(
            provisioner,
            c.spec.modes,
            c.spec.volume_mode,
            needs.is_some(),
        )
        .map(|(what, error)| (ProvisionRefusal::Capability(what), error, None))
    }

    /// What `getPVCSource` refuses in a clone's source claim of the same namespace, in its
    /// order: a request smaller than the source's; a source volume that is not the class's
    /// driver's ("claim in dataSource not bound or invalid": a volume of another CSI driver or
    /// none); a source of the other volume mode. A source the input does not hold, or whose
    /// driver is not known, is not judged.
    fn clone_source(
        &self,
        id: ClaimId,
        provisioner: &str,
        source: &str,
    ) -> Option<(ProvisionRefusal, String)> {
        use crate::binding::SourceKind;
        use crate::kube::VolumeMode;
        let c = self.claim(id);
        let src_id = self.claim_named(&c.key.namespace, source)?;
        let src = self.claim(src_id);
        if let (Some(want), Some(have)) = (c.spec.request.as_ref(), src.spec.request.as_ref()) {
            if want < have {
                return Some((
                    ProvisionRefusal::SmallerClone,
                    format!(
                        "error, new PVC request must be greater than or equal in size to the specified PVC data source, requested {} but source is {}",
                        want.bytes_text(),
                        have.bytes_text()
                    ),
                ));
            }
        }
        // The source's volume: the one it is bound to, else what its class provisions. A
        // volume the input does not hold is not judged.
        let bound = match src.volume_name.as_deref() {
            Some(n) => Some(self.volume(self.volume_named(n)?)),
            None => None,
        };
        let (driver, mode) = match bound {
            Some(v) => (
                match &v.spec.source {
                    SourceKind::Csi { driver } => Some(driver.to_string()),
                    // getPVCSource refuses a source volume that is not CSI, but a migrated
                    // in-tree class's volumes are recorded here as CSI: not judged.
                    SourceKind::InTree(_) | SourceKind::Unknown => None,
                },
                v.spec.volume_mode,
            ),
            None => (
                self.class(src.class_name())
                    .filter(|k| k.is_defined())
                    .and_then(|k| k.provisioner.as_deref())
                    .filter(|p| {
                        crate::drivers::driver(p)
                            .is_some_and(|d| d.attach != crate::drivers::Attach::NotCsi)
                    })
                    .map(str::to_string),
                src.spec.volume_mode,
            ),
        };
        if driver.is_some_and(|d| d != provisioner) {
            return Some((
                ProvisionRefusal::CloneOfOtherDriver,
                "claim in dataSource not bound or invalid".into(),
            ));
        }
        let text = |m: VolumeMode| match m {
            VolumeMode::Block => "Block",
            VolumeMode::Filesystem => "Filesystem",
        };
        (mode != c.spec.volume_mode).then(|| {
            (
                ProvisionRefusal::CloneVolumeMode,
                format!(
                    "the source PVC and destination PVCs must have the same volume mode for cloning.  Source is {}, but new PVC requested {}",
                    text(mode),
                    text(c.spec.volume_mode)
                ),
            )
        })
    }

    fn pend_claim(&mut self, id: ClaimId, p: Pending) -> bool {
        let e = p.event(self);
        self.set_claim(id, ClaimState::Pending(p), e)
    }

    /// Creates the volume `pvc-<claim uid>` and binds it.
    fn provision(
        &mut self,
        id: ClaimId,
        class: &Class,
        provisioner: String,
        event: Option<Event>,
    ) -> bool {
        let version = self.options.target();
        let c = self.claim(id);
        // Shared: the volume, the name index and the claim's volumeName all hold it.
        let name = Str::from(format!("pvc-{}", c.uid)).shared();
        if let Some(existing) = self.volume_named(&name) {
            return self.bind(
                existing,
                id,
                BindHow::Provisioned {
                    provisioner: Str::from(provisioner),
                },
            );
        }
        let in_tree = class.provisioner.as_deref().is_some_and(|p| {
            p.starts_with("kubernetes.io/") && migrated_driver(p, version).is_none()
        });
        // The external-provisioner's finalizer (its HonorPVReclaimPolicy, on by default with
        // the 1.31 generation) or kube-controller-manager's for in-tree provisioned volumes.
        let mut finalizers = Vec::with_capacity(2);
        finalizers.push(Str::from_static(kube::FINALIZER_PV_PROTECTION));
        if class.reclaim == ReclaimPolicy::Delete
            && honor_reclaim_policy(version)
            && class.provisioner.is_some()
        {
            finalizers.push(if in_tree {
                Str::from_static(kube::FINALIZER_PV_CONTROLLER)
            } else {
                Str::from_static(kube::FINALIZER_EXTERNAL_PROVISIONER)
            });
        }
        let source = if class.provisioner.is_none() {
            crate::binding::SourceKind::Unknown
        } else {
            provisioned_source(&provisioner)
        };
        let uid = self.fresh_uid();
        let c = self.claim(id);
        let spec = VolumeSpec {
            class: class.name.clone(),
            capacity: c.spec.request.clone(),
            modes: c.spec.modes,
            volume_mode: c.spec.volume_mode,
            labels: Default::default(),
            attributes_class: c.spec.attributes_class.clone(),
            deleting: false,
            reclaim: class.reclaim,
            source,
            node_affinity: false,
        };
        let shown = if class.provisioner.is_none() {
            format!(
                "the provisioner of StorageClass {}",
                self.class_display(class)
            )
        } else {
            provisioner.clone()
        };
        let (shown, backing) = match self.provisioned_texts.get_key_value(shown.as_str()) {
            Some((shown, backing)) => (shown.clone(), backing.clone()),
            None => {
                let backing = Str::from(format!("the volume {shown} creates for it")).shared();
                let shown = Str::from(shown).shared();
                self.provisioned_texts
                    .insert(shown.clone(), backing.clone());
                (shown, backing)
            }
        };
        // pkg/volume/hostpath (hostPathProvisioner.Provision): `/tmp/hostpath_pv/<uuid>`, which
        // its deleter accepts.
        let host_path = (class.provisioner.as_deref() == Some("kubernetes.io/host-path"))
            .then(|| Str::from(format!("/tmp/hostpath_pv/{uid}")));
        let v = Volume {
            name: name.clone(),
            uid,
            origin: Origin::Provisioned { claim: id },
            spec,
            claim_ref: None,
            provisioned_by: Some(
                class
                    .provisioner
                    .clone()
                    .unwrap_or_else(|| Str::from(&provisioner)),
            ),
            migrated_to: class
                .provisioner
                .as_deref()
                .and_then(|p| migrated_driver(p, version))
                .map(Str::from),
            bound_by_controller: true,
            applied: Applied::default(),
            finalizers,
            deleting: false,
            backing,
            host_path,
            handle: None,
            nfs_server_problem: None,
            phase: VolumePhase::Available,
            release: None,
            storage: Storage::Provisioned {
                provisioner: shown.clone(),
            },
            events: Vec::new(),
            skipped_by_reserved_claim: None,
            exists: true,
        };
        let vid = VolumeId(self.volumes.len() as u32);
        self.volumes.push(v);
        self.volume_by_name
            .insert(name.as_str(), vid, super::volume_key(&self.volumes));
        // provisionClaimOperation: kube-controller-manager's own plugin reports on the claim.
        let event = event.or_else(|| {
            in_tree.then(|| {
                Event::normal(
                    Reason::ProvisioningSucceeded,
                    format!("Successfully provisioned volume {name} using {provisioner}"),
                )
            })
        });
        if let Some(e) = event {
            super::push_once(&mut self.claims[id.idx()].events, e);
        }
        self.bind(vid, id, BindHow::Provisioned { provisioner: shown })
    }
}

/// Why a provisioner refuses a claim (see [`Pending::ProvisionerRefuses`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionRefusal {
    /// The claim has a selector.
    Selector,
    /// A clone requests less than its source claim.
    SmallerClone,
    /// A clone of a claim whose volume another driver (or no CSI driver) serves.
    CloneOfOtherDriver,
    /// A clone of a claim of the other volume mode.
    CloneVolumeMode,
    /// A clone, and the driver does not report CLONE_VOLUME.
    NoCloning,
    /// A restore from a VolumeSnapshot, and the driver does not report CREATE_DELETE_SNAPSHOT.
    NoRestore,
    /// A restore from a VolumeSnapshot the manifests define only at an API version the
    /// cluster's external-snapshotter does not serve: it never exists.
    SnapshotNotServed,
    /// The driver's CreateVolume refuses the claim (what of it, from the driver's source).
    Capability(crate::drivers::CreateRefusal),
}

impl ProvisionRefusal {
    /// What to do about a claim refused so; `source` names its data source's claim when known.
    pub fn help(self, source: Option<&str>) -> String {
        use crate::drivers::CreateRefusal;
        let source = source.map_or("its source claim".to_string(), |s| format!("claim {s}"));
        match self {
            ProvisionRefusal::Selector => {
                "a selector only picks existing volumes: drop it, or create a volume it selects"
                    .into()
            }
            ProvisionRefusal::SmallerClone => format!(
                "a clone must request at least its source's size: request as much as {source} does"
            ),
            ProvisionRefusal::CloneOfOtherDriver => "a driver clones only its own volumes".into(),
            ProvisionRefusal::CloneVolumeMode => {
                format!("a clone keeps its source's volume mode: set volumeMode as {source} has it")
            }
            ProvisionRefusal::NoCloning => {
                "its driver does not clone: copy the data another way".into()
            }
            ProvisionRefusal::NoRestore => {
                "restore into a class of the driver that took the snapshot".into()
            }
            ProvisionRefusal::SnapshotNotServed => {
                "write the VolumeSnapshot as snapshot.storage.k8s.io/v1".into()
            }
            ProvisionRefusal::Capability(CreateRefusal::AccessMode) => {
                "use access modes the driver serves, or another class".into()
            }
            ProvisionRefusal::Capability(CreateRefusal::VolumeMode) => {
                "drop volumeMode: Block, or use a block storage class".into()
            }
            ProvisionRefusal::Capability(CreateRefusal::ReadOnlyWithoutSource) => {
                "give a ReadOnlyMany claim a dataSource, or a writable access mode".into()
            }
        }
    }
}
