//! `reclaimVolume` (pv_controller.go) and what each plugin really does, per Kubernetes version:
//! which in-tree plugins kube-controller-manager registers (cmd/kube-controller-manager/app/
//! plugins.go: from 1.31 only host-path, nfs and portworx), `findDeletablePlugin`, the
//! hostPath deleter (pkg/volume/hostpath: unanchored `/tmp/.+`, os.RemoveAll inside the
//! controller-manager), the recyclers (nfs, hostPath), and the external provisioner for CSI.

use super::state::*;
use super::World;
use crate::binding::SourceKind;
use crate::drivers::DeleteAction;
use crate::drivers::DeleteParams;
use crate::kube::{self, ReclaimPolicy};
use crate::options::Target;
use crate::string::Str;

/// HonorPVReclaimPolicy: alpha 1.23 (off), beta 1.31 (on), GA 1.33.
pub fn honor_reclaim_policy(t: Target) -> bool {
    t.feature(crate::version::Feature::HonorPVReclaimPolicy)
}

/// What kube-controller-manager's PV controller can do with an in-tree plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plugin {
    /// Not registered in this version.
    Missing,
    /// Registered, can delete volumes.
    Deletes,
    /// Registered, cannot delete (nfs; local and csi up to 1.30).
    NoDeleter,
}

/// The PV controller's plugin for a `kubernetes.io/<name>` plugin name.
fn plugin_by_name(name: &str, v: Target) -> Plugin {
    match name {
        "kubernetes.io/host-path" => Plugin::Deletes,
        "kubernetes.io/nfs" => Plugin::NoDeleter,
        "kubernetes.io/local-volume" | "kubernetes.io/csi" if !v.at_least(31) => Plugin::NoDeleter,
        "kubernetes.io/rbd" if !v.at_least(31) => Plugin::Deletes,
        "kubernetes.io/glusterfs" if !v.at_least(26) => Plugin::Deletes,
        _ => Plugin::Missing,
    }
}

/// The PV controller's plugin for a volume source (`FindDeletablePluginBySpec`).
fn plugin_by_spec(source: &SourceKind, v: Target) -> Plugin {
    match source {
        SourceKind::InTree(s) => match s.field {
            "hostPath" => Plugin::Deletes,
            "nfs" => Plugin::NoDeleter,
            "local" if !v.at_least(31) => Plugin::NoDeleter,
            "rbd" if !v.at_least(31) => Plugin::Deletes,
            "glusterfs" if !v.at_least(26) => Plugin::Deletes,
            _ => Plugin::Missing,
        },
        SourceKind::Csi { .. } if !v.at_least(31) => Plugin::NoDeleter,
        _ => Plugin::Missing,
    }
}

/// `IsMigrationEnabledForPlugin`: the CSI driver serving an in-tree provisioner name.
pub fn migrated_driver(provisioner: &str, v: Target) -> Option<&'static str> {
    Some(match provisioner {
        "kubernetes.io/aws-ebs" => "ebs.csi.aws.com",
        "kubernetes.io/gce-pd" => "pd.csi.storage.gke.io",
        "kubernetes.io/azure-disk" => "disk.csi.azure.com",
        "kubernetes.io/azure-file" => "file.csi.azure.com",
        "kubernetes.io/cinder" => "cinder.csi.openstack.org",
        "kubernetes.io/vsphere-volume" => "csi.vsphere.vmware.com",
        // CSIMigrationPortworx: beta on from 1.31.
        "kubernetes.io/portworx-volume" if v.at_least(31) => "pxd.portworx.com",
        _ => return None,
    })
}

/// The hostPath deleter's check: `regexp.MustCompile("/tmp/.+").MatchString(path)`, unanchored.
pub fn host_path_deletable(path: &str) -> bool {
    path.match_indices("/tmp/").any(|(i, _)| path.len() > i + 5)
}

/// The outcome of `doDeleteVolume` for a volume.
enum Deletion {
    /// kube-controller-manager deleted the storage (and the PV object).
    Deleted(String),
    /// Left Released for an external deleter.
    External(String),
    /// Failed: the VolumeFailedDelete message.
    Failed(String),
}

/// What `reclaimVolume` does to a Released volume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReclaimOutcome {
    pub phase: VolumePhase,
    pub storage: Storage,
    pub event: Option<Event>,
}

/// `findDeletablePlugin` + `doDeleteVolume`.
fn deletion(vol: &Volume, version: Target) -> Deletion {
    let host_path = |path: &str| {
        if host_path_deletable(path) {
            Deletion::Deleted("kubernetes.io/host-path".into())
        } else {
            Deletion::Failed(format!(
                "host_path deleter only supports /tmp/.+ but received provided {path}"
            ))
        }
    };
    if let Some(p) = vol.provisioned_by.as_deref().filter(|p| !p.is_empty()) {
        if !p.starts_with("kubernetes.io/") {
            return Deletion::External(p.to_string());
        }
        if let Some(d) = migrated_driver(p, version) {
            return Deletion::External(d.to_string());
        }
        return match plugin_by_name(p, version) {
            Plugin::Deletes if p == "kubernetes.io/host-path" => {
                host_path(vol.host_path.as_deref().unwrap_or(""))
            }
            Plugin::Deletes => Deletion::Deleted(p.to_string()),
            Plugin::NoDeleter => Deletion::Failed("no deletable volume plugin matched".into()),
            Plugin::Missing => Deletion::Failed(format!("no volume plugin matched name: {p}")),
        };
    }
    if honor_reclaim_policy(version) {
        if let SourceKind::Csi { driver } = &vol.spec.source {
            return Deletion::External(driver.to_string());
        }
    }
    let wrap = |e: &str| {
        format!(
            "error getting deleter volume plugin for volume \"{}\": {e}",
            vol.name
        )
    };
    match plugin_by_spec(&vol.spec.source, version) {
        Plugin::Deletes if vol.spec.source.field() == "hostPath" => {
            host_path(vol.host_path.as_deref().unwrap_or(""))
        }
        Plugin::Deletes => Deletion::Deleted(format!("kubernetes.io/{}", vol.spec.source.field())),
        Plugin::NoDeleter => Deletion::Failed(wrap("no deletable volume plugin matched")),
        Plugin::Missing => Deletion::Failed(wrap("no volume plugin matched")),
    }
}

/// What the external deleter `p` does with `vol`'s storage, by its own source
/// ([`crate::drivers::delete_action`]); `class`: the parameters of the volume's StorageClass
/// when the input or the cluster state defines it.
fn left_to(p: Str, vol: &Volume, class: Option<&DeleteParams>) -> Storage {
    match crate::drivers::delete_action(&p, vol.handle.as_deref(), class) {
        None | Some(DeleteAction::Deletes) => Storage::LeftToProvisioner { provisioner: p },
        Some(DeleteAction::Archives) => Storage::Archived { provisioner: p },
        Some(DeleteAction::Keeps(why)) => Storage::KeptByProvisioner {
            provisioner: p,
            why,
        },
    }
}

/// `reclaimVolume` for a Released volume, as a pure function of the volume, the version and
/// the parameters of its StorageClass (when defined).
pub fn reclaim_outcome(
    vol: &Volume,
    version: Target,
    class: Option<&DeleteParams>,
) -> ReclaimOutcome {
    let released = |storage| ReclaimOutcome {
        phase: VolumePhase::Released,
        storage,
        event: None,
    };
    let failed = |reason, message: String, storage| ReclaimOutcome {
        phase: VolumePhase::Failed,
        storage,
        event: Some(Event::warning(reason, message)),
    };
    let has = |f: &str| vol.finalizers.iter().any(|x| x == f);
    // A volume deleted before its claim (DeletionTimestamp set). reclaim.md §4:
    // - kube-controller-manager's own deleter: with HonorPVReclaimPolicy off,
    //   deleteVolumeOperation returns at once ("Volume is already being deleted"); with it
    //   on, it deletes while its finalizer kubernetes.io/pv-controller holds the object (a
    //   volume without it is gone before the operation runs: the storage stays);
    // - an external deleter (CSI, a CSI-migrated in-tree volume): the external-provisioner
    //   deletes only while its finalizer holds the object (shouldDelete).
    let kcm_honours =
        vol.deleting && honor_reclaim_policy(version) && has(kube::FINALIZER_PV_CONTROLLER);
    let external_honours = has(kube::FINALIZER_EXTERNAL_PROVISIONER);
    if let Some(driver) = &vol.migrated_to {
        // reclaimVolume returns before looking at the policy: the CSI driver decides.
        return released(match vol.spec.reclaim {
            ReclaimPolicy::Delete if !vol.deleting || external_honours => {
                left_to(driver.clone(), vol, class)
            }
            ReclaimPolicy::Delete => Storage::Leaked,
            _ => Storage::Kept,
        });
    }
    match vol.spec.reclaim {
        ReclaimPolicy::Retain => released(Storage::Kept),
        ReclaimPolicy::Recycle => {
            let field = vol.spec.source.field();
            if field != "nfs" && field != "hostPath" {
                return failed(
                    Reason::VolumeFailedRecycle,
                    "No recycler plugin found for the volume!".into(),
                    Storage::RecycleFailed {
                        error: "no recycler plugin".into(),
                    },
                );
            }
            if let Some(problem) = &vol.nfs_server_problem {
                // The recycler pod (recycler-for-NAME) cannot mount the export: it stays
                // ContainerCreating until its activeDeadlineSeconds (NFS: at least
                // --pv-recycler-minimum-timeout-nfs, 300 s, or 30 s per GiB) and the kubelet
                // fails it; recycler_client returns the pod's status message, which
                // recycleVolumeOperation reports as "Recycle failed: ...".
                let msg = "Recycle failed: failed to recycle volume: Pod was active on the node longer than the specified deadline";
                return failed(
                    Reason::VolumeFailedRecycle,
                    msg.into(),
                    Storage::RecycleFailed {
                        error: Str::from(format!(
                            "the recycler pod cannot mount the NFS export ({problem}) and fails on its deadline (at least 300 s)"
                        )),
                    },
                );
            }
            ReclaimOutcome {
                phase: VolumePhase::Available,
                storage: Storage::Recycled,
                event: Some(Event::normal(Reason::VolumeRecycled, "Volume recycled")),
            }
        }
        ReclaimPolicy::Delete => {
            let d = deletion(vol, version);
            if vol.deleting {
                // The external-provisioner deletes what it serves (its provisioner name, or a
                // static CSI volume of its driver: library v9+) while its finalizer holds the
                // object; kube-controller-manager returns early with the gate off.
                let external = match (&d, &vol.spec.source) {
                    (Deletion::External(p), _) => Some(p.clone()),
                    (_, SourceKind::Csi { driver }) => Some(driver.to_string()),
                    _ => None,
                };
                if let (true, Some(p)) = (external_honours, external) {
                    return released(left_to(Str::from(p), vol, class));
                }
                if matches!(d, Deletion::External(_)) || !kcm_honours {
                    return released(Storage::Leaked);
                }
            }
            match d {
                Deletion::External(p) => released(left_to(Str::from(p), vol, class)),
                Deletion::Deleted(plugin) => released(Storage::Deleted {
                    plugin: Str::from(plugin),
                }),
                Deletion::Failed(error) => failed(
                    Reason::VolumeFailedDelete,
                    error.clone(),
                    Storage::DeleteFailed {
                        error: Str::from(error),
                    },
                ),
            }
        }
    }
}

impl World {
    /// `reclaimVolume`: applies [`reclaim_outcome`] to a Released volume.
    pub(crate) fn reclaim(&mut self, v: VolumeId) {
        let o = reclaim_outcome(
            &self.volumes[v.idx()],
            self.options.target(),
            self.class_params(v),
        );
        let vol = &mut self.volumes[v.idx()];
        let was = vol.phase;
        vol.storage = o.storage;
        if o.phase == VolumePhase::Available {
            // Recycled: unbindVolume keeps a user's pre-binding by name.
            if vol.bound_by_controller {
                vol.claim_ref = None;
                vol.bound_by_controller = false;
            } else if let Some(cr) = vol.claim_ref.as_mut() {
                cr.uid = Str::default();
            }
            vol.release = None;
        }
        vol.phase = o.phase;
        // deleteVolumeOperation: once the plugin deleted the storage, the controller deletes
        // the PersistentVolume object too.
        let deleted = matches!(vol.storage, Storage::Deleted { .. });
        // updateVolumePhaseWithEvent: events fire on the transition only.
        if let Some(e) = o.event {
            if was != o.phase || o.phase != VolumePhase::Failed {
                self.push_volume_event(v, e);
            }
        }
        if deleted {
            self.volumes[v.idx()].exists = false;
            let name = self.volumes[v.idx()].name.clone();
            self.volume_by_name
                .remove(name.as_str(), super::volume_key(&self.volumes));
        }
    }

    /// What would happen to a volume's storage if it were released now (its claim deleted),
    /// or deleted before its claim (`deleted_first`): the rules' what-if, with the same logic.
    pub fn if_released(&self, v: VolumeId, deleted_first: bool) -> ReclaimOutcome {
        let mut vol = self.volume(v).clone();
        vol.deleting = deleted_first;
        vol.phase = VolumePhase::Released;
        reclaim_outcome(&vol, self.options.target(), self.class_params(v))
    }

    /// The delete parameters of volume `v`'s StorageClass, when the input or the cluster state
    /// defines it (a provisioner reads them from the class when it deletes).
    fn class_params(&self, v: VolumeId) -> Option<&DeleteParams> {
        self.class(&self.volume(v).spec.class)
            .filter(|c| {
                c.is_defined()
                    || matches!(c.assumption(), Some(Assumption::DefinedElsewhere { .. }))
            })
            .map(|c| &c.delete_params)
    }
}

/// Finalizers that hold a PV object until its storage is dealt with.
pub fn protecting_finalizer(finalizers: &[Str]) -> Option<&str> {
    finalizers
        .iter()
        .map(Str::as_str)
        .find(|f| *f == kube::FINALIZER_EXTERNAL_PROVISIONER || *f == kube::FINALIZER_PV_CONTROLLER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pkg/volume/hostpath/host_path_test.go TestDeleter / TestDeleterTempDir: the regexp
    /// `/tmp/.+` is unanchored.
    #[test]
    fn host_path_regexp() {
        for (path, ok) in [
            ("/tmp", false),
            ("/tmp/", false),
            ("/nottmp", false),
            ("/tmp/scratch", true),
            ("/var/tmp/x", true),
            ("/data/tmp/a", true),
            ("/tmp/../etc", true),
            ("/x/tmp/", false),
            ("/kube", false),
        ] {
            assert_eq!(host_path_deletable(path), ok, "{path}");
        }
    }

    #[test]
    fn migration_names() {
        use crate::options::KubeVersion;
        let v = Target::of(KubeVersion::new(1, 34));
        assert_eq!(
            migrated_driver("kubernetes.io/aws-ebs", v),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(migrated_driver("kubernetes.io/rbd", v), None);
        assert_eq!(
            migrated_driver(
                "kubernetes.io/portworx-volume",
                Target::of(KubeVersion::new(1, 30))
            ),
            None
        );
    }
}
