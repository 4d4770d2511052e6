//! What a CSI driver refuses when the external-provisioner asks it for a volume: the access
//! modes and volume modes its `CreateVolume` turns away, and the controller capabilities it does
//! not report (the provisioner checks those itself before a clone or a restore). Each row cites
//! the driver's own source; a driver not listed, or a fact not read, is `None`: served, as far
//! as pvlint knows.
//!
//! The provisioner sends one CSI access mode per claim access mode (kubernetes-csi/
//! external-provisioner@0688604faa43 pkg/controller/controller.go:515-562, csi-lib-utils
//! accessmodes/access_modes.go:39-120): ReadOnlyMany as MULTI_NODE_READER_ONLY, ReadWriteMany
//! as MULTI_NODE_MULTI_WRITER, ReadWriteOnce and ReadWriteOncePod as single-node modes that every
//! driver below accepts.

use crate::kube::{AccessModes, VolumeMode};

/// The CSI name of a multi-node access mode, as the drivers print it.
fn csi_name(m: AccessModes) -> &'static str {
    if m == AccessModes::ROX {
        "MULTI_NODE_READER_ONLY"
    } else {
        "MULTI_NODE_MULTI_WRITER"
    }
}

fn invalid(desc: &str) -> String {
    format!("rpc error: code = InvalidArgument desc = {desc}")
}

/// What a driver's `CreateVolume` refuses in a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateRefusal {
    /// One of its access modes.
    AccessMode,
    /// Its volume mode (a Block claim of a file system).
    VolumeMode,
    /// ReadOnlyMany without a data source: an empty volume nobody can write.
    ReadOnlyWithoutSource,
}

/// Why `driver`'s `CreateVolume` refuses a claim of these access modes and volume mode, from
/// the driver's own source: the error the external-provisioner puts in its ProvisioningFailed
/// event (it calls CreateVolume for a Block claim too: its `SupportsBlock` leaves the check to
/// the driver). `content`: the claim has a data source (a clone or a restore). `None`: served,
/// or pvlint has not read the driver. Refusals that depend on a class parameter (GCE PD's
/// `type: hyperdisk-ml` allows ReadOnlyMany without a source; Azure disk's `maxShares` allows
/// shared Block) are left out.
pub fn refuses_capability(
    driver: &str,
    modes: AccessModes,
    mode: VolumeMode,
    content: bool,
) -> Option<(CreateRefusal, String)> {
    use CreateRefusal::{AccessMode, ReadOnlyWithoutSource, VolumeMode as Mode};
    let block = mode == VolumeMode::Block;
    let rox = modes.contains(AccessModes::ROX);
    let rwx = modes.contains(AccessModes::RWX);
    let single = modes.contains(AccessModes::RWO) || modes.contains(AccessModes::RWOP);
    let name = super::driver(driver).map_or(driver, |d| d.name);
    let access = |desc: &str| Some((AccessMode, invalid(desc)));
    let volume = |desc: &str| Some((Mode, invalid(desc)));
    match name {
        // kubernetes-sigs/aws-ebs-csi-driver pkg/driver/controller.go validateCreateVolumeRequest
        // + isValidCapability: SINGLE_NODE_WRITER, and MULTI_NODE_MULTI_WRITER for a Block
        // volume only; any other mode (ReadOnlyMany's MULTI_NODE_READER_ONLY) is refused.
        "ebs.csi.aws.com" if rox || (rwx && !block) => access("Volume capabilities not supported"),
        // kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508
        // pkg/gce-pd-csi-driver/utils.go:138-140 validateVolumeCapability, controller.go:371-374.
        "pd.csi.storage.gke.io" if rwx && !block => {
            access("VolumeCapabilities is invalid: specified multi writer with mount access type")
        }
        // kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd pkg/azureutils/azure_disk_utils.go:
        // 454-458 IsValidVolumeCapabilities (controllerserver.go:199-201): a file system on a
        // disk is never shared, whatever maxShares says. The mode named is the first of the
        // claim's list; with both, which one is not known here (the list's order is not kept).
        "disk.csi.azure.com" if !block && (rox || rwx) => access(&format!(
            "mountVolume is not supported for access mode: {}",
            if rox && rwx {
                "MULTI_NODE_READER_ONLY (or MULTI_NODE_MULTI_WRITER)".to_string()
            } else {
                csi_name(if rox { AccessModes::ROX } else { AccessModes::RWX }).to_string()
            }
        )),
        // kubernetes-sigs/vsphere-csi-driver@bf8090256717 pkg/csi/service/common/util.go:227-230,
        // wrapped at pkg/csi/service/vanilla/controller.go:1474-1478 (multi-node modes make a
        // vSAN file share, which has no block device).
        "csi.vsphere.vmware.com" if block && (rox || rwx) => access(
            "volume capability not supported. Err: block volume mode is not supported for ReadWriteMany or ReadOnlyMany volume creation",
        ),
        // digitalocean/csi-digitalocean@0711283de556 driver/controller.go:76-83, 1165-1182
        // validateCapabilities: only SINGLE_NODE_WRITER ("satisified" as the source spells it);
        // the violations are listed sorted (a string set's List).
        "dobs.csi.digitalocean.com" if rox || rwx => {
            let mut each: Vec<String> = [AccessModes::ROX, AccessModes::RWX]
                .into_iter()
                .filter(|m| modes.contains(*m))
                .map(|m| format!("unsupported access mode {}", csi_name(m)))
                .collect();
            each.sort();
            access(&format!(
                "volume capabilities cannot be satisified: {}",
                each.join("; ")
            ))
        }
        // hetznercloud/csi-driver@53ead0b2b8eb internal/driver/helper.go:45-59,
        // controller.go:75-80: single-node modes only. The index is the refused mode's place in
        // the claim's list, which is not kept here: named only for a claim of one mode.
        "csi.hetzner.cloud" if rox || rwx => {
            if modes.count() == 1 {
                access("capability at index 0 is not supported")
            } else {
                access("capability at index N is not supported (N: the place of ReadOnlyMany or ReadWriteMany in spec.accessModes)")
            }
        }
        // ceph/ceph-csi@52fcb7b00c3d internal/util/validate.go:88-99
        // CheckReadOnlyManyIsSupported (called first, from internal/rbd/controllerserver.go:
        // 102-106), then controllerserver.go:157-171: a file system is refused unless one of the
        // modes is single-node (IsFileRWO) or read-only (IsReaderOnly).
        "rbd.csi.ceph.com" | ".rbd.csi.ceph.com" if rox && !content => Some((
            ReadOnlyWithoutSource,
            invalid("readOnly accessMode is supported only with content source"),
        )),
        "rbd.csi.ceph.com" | ".rbd.csi.ceph.com" if rwx && !block && !single && !rox => {
            access("multi node access modes are only supported on rbd `block` type volumes")
        }
        // ceph/ceph-csi@52fcb7b00c3d internal/cephfs/validator.go:45-55: no block device
        // (Unimplemented, so no "infeasible" wording), then the read-only check above.
        "cephfs.csi.ceph.com" | ".cephfs.csi.ceph.com" if block => Some((
            Mode,
            "rpc error: code = Unimplemented desc = block volume not supported".into(),
        )),
        "cephfs.csi.ceph.com" | ".cephfs.csi.ceph.com" if rox && !content => Some((
            ReadOnlyWithoutSource,
            invalid("readOnly accessMode is supported only with content source"),
        )),
        // longhorn/longhorn-manager@5ddaa369fa7e csi/controller_server.go:97-103, 1651-1660.
        "driver.longhorn.io" if rox => access("access mode MULTI_NODE_READER_ONLY is not supported"),
        // kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 pkg/driver/controller.go:152-153,
        // node.go:425-451 validateVolumeCapabilities: the access modes first, then the type.
        "efs.csi.aws.com" if rox => access(
            "Volume capabilities not supported: invalid access mode: MULTI_NODE_READER_ONLY",
        ),
        "efs.csi.aws.com" if block => {
            volume("Volume capabilities not supported: only filesystem volumes are supported")
        }
        // kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 pkg/driver/controller.go:38-45,
        // 132-134, 427-445 (Block is not checked there).
        "fsx.csi.aws.com" if rox => access("Volume capabilities not supported"),
        // kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 pkg/azurefile/controllerserver.go:
        // 97-100, 1617-1618.
        "file.csi.azure.com" if block => volume(
            "CreateVolume Volume capabilities not valid: driver does not support block volumes",
        ),
        // kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 pkg/csi_driver/gcfs_driver.go:
        // 270-273.
        "filestore.csi.storage.gke.io" if block => {
            volume("driver only supports mount access type volume capability")
        }
        // kubernetes/cloud-provider-openstack@c453fb7c9bbb pkg/csi/manila/util.go:171-175.
        "manila.csi.openstack.org" if block => volume("block access type not allowed"),
        // juicedata/juicefs-csi-driver@5e5a4b3b9b82 pkg/driver/controller.go:113-115, 319-344.
        "csi.juicefs.com" if block => volume("Volume Capabilities not fully supported"),
        // kubernetes-csi/csi-driver-nfs@d3b27c00743a pkg/nfs/controllerserver.go:125-127,
        // 971-981; kubernetes-csi/csi-driver-smb@95c6968057ee pkg/smb/controllerserver.go:
        // 72-75, 574-584; kubernetes-sigs/blob-csi-driver@0744a60b3930
        // pkg/blob/controllerserver.go:83-85, 1082-1085: a file share has no block device.
        "nfs.csi.k8s.io" | "smb.csi.k8s.io" | "blob.csi.azure.com" if block => {
            volume("block volume capability not supported")
        }
        _ => None,
    }
}

/// A controller capability the external-provisioner requires before it provisions from a data
/// source (external-provisioner@0688604faa43 pkg/controller/controller.go:449-471, 649-651).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerCapability {
    /// CLONE_VOLUME, for a claim whose data source is a claim.
    CloneVolume,
    /// CREATE_DELETE_SNAPSHOT, for a claim whose data source is a VolumeSnapshot.
    CreateDeleteSnapshot,
}

impl ControllerCapability {
    /// Its name in the CSI spec.
    pub fn name(self) -> &'static str {
        match self {
            ControllerCapability::CloneVolume => "CLONE_VOLUME",
            ControllerCapability::CreateDeleteSnapshot => "CREATE_DELETE_SNAPSHOT",
        }
    }

    /// The provisioner's error (its ProvisioningFailed message) when the driver lacks it.
    pub fn missing_error(self) -> &'static str {
        match self {
            ControllerCapability::CloneVolume => "CSI driver does not support clone operations: controller CLONE_VOLUME capability is not reported",
            ControllerCapability::CreateDeleteSnapshot => "CSI driver does not support snapshot restore: controller CREATE_DELETE_SNAPSHOT capability is not reported",
        }
    }
}

/// (driver, reports CLONE_VOLUME, reports CREATE_DELETE_SNAPSHOT, source of both): each
/// driver's `ControllerGetCapabilities`.
pub(super) const CAPABILITIES: &[(&str, bool, bool, &str)] = &[
    ("pd.csi.storage.gke.io", true, true, cite!("kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508 pkg/gce-pd-csi-driver/gce-pd-driver.go:67-78")),
    ("disk.csi.azure.com", true, true, cite!("kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd pkg/azuredisk/azuredisk.go:393-401")),
    ("csi.vsphere.vmware.com", false, true, cite!("kubernetes-sigs/vsphere-csi-driver@bf8090256717 pkg/csi/service/vanilla/controller.go:2343-2349")),
    ("cinder.csi.openstack.org", true, true, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb pkg/csi/cinder/driver.go:106-117")),
    ("dobs.csi.digitalocean.com", false, true, cite!("digitalocean/csi-digitalocean@0711283de556 driver/controller.go:653-661")),
    ("csi.hetzner.cloud", false, false, cite!("hetznercloud/csi-driver@53ead0b2b8eb internal/driver/controller.go:398-439")),
    ("linodebs.csi.linode.com", true, false, cite!("linode/linode-blockstorage-csi-driver@def6be4fae64 internal/driver/capabilities.go:8-19")),
    ("rbd.csi.ceph.com", true, true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/rbd/driver/driver.go:108-113")),
    (".rbd.csi.ceph.com", true, true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/rbd/driver/driver.go:108-113")),
    ("driver.longhorn.io", true, true, cite!("longhorn/longhorn-manager@5ddaa369fa7e csi/controller_server.go:87-96")),
    ("efs.csi.aws.com", false, false, cite!("kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 pkg/driver/controller.go:80-82")),
    ("file.csi.azure.com", true, true, cite!("kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 pkg/azurefile/azurefile.go:479-487")),
    ("blob.csi.azure.com", true, false, cite!("kubernetes-sigs/blob-csi-driver@0744a60b3930 pkg/blob/blob.go:485-493")),
    ("filestore.csi.storage.gke.io", false, true, cite!("kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 pkg/csi_driver/gcfs_driver.go:197-203")),
    ("cephfs.csi.ceph.com", true, true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/cephfs/driver.go:136-142")),
    (".cephfs.csi.ceph.com", true, true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/cephfs/driver.go:136-142")),
    ("fsx.csi.aws.com", false, false, cite!("kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 pkg/driver/controller.go:48-51")),
    ("manila.csi.openstack.org", false, true, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb pkg/csi/manila/driver.go:159-163")),
    ("csi.juicefs.com", false, true, cite!("juicedata/juicefs-csi-driver@5e5a4b3b9b82 pkg/driver/controller.go:40-45")),
    ("nfs.csi.k8s.io", true, true, cite!("kubernetes-csi/csi-driver-nfs@d3b27c00743a pkg/nfs/nfs.go:106-112")),
    ("smb.csi.k8s.io", true, false, cite!("kubernetes-csi/csi-driver-smb@95c6968057ee pkg/smb/smb.go:186-192")),
];

/// Whether `driver` reports `cap`: `Some(false)` when its source shows it does not, `None`
/// when pvlint has not read the driver.
pub fn reports(driver: &str, cap: ControllerCapability) -> Option<bool> {
    let name = super::driver(driver).map_or(driver, |d| d.name);
    CAPABILITIES
        .iter()
        .find(|row| row.0 == name)
        .map(|&(_, clone, snapshot, _)| match cap {
            ControllerCapability::CloneVolume => clone,
            ControllerCapability::CreateDeleteSnapshot => snapshot,
        })
}

/// The drivers whose `CreateVolume` pvlint read (for the tests and docs/drivers.md).
#[cfg(test)]
pub(super) const DRIVER_NAMES: &[&str] = &[
    "ebs.csi.aws.com",
    "pd.csi.storage.gke.io",
    "disk.csi.azure.com",
    "csi.vsphere.vmware.com",
    "dobs.csi.digitalocean.com",
    "csi.hetzner.cloud",
    "rbd.csi.ceph.com",
    "cephfs.csi.ceph.com",
    "driver.longhorn.io",
    "efs.csi.aws.com",
    "fsx.csi.aws.com",
    "file.csi.azure.com",
    "filestore.csi.storage.gke.io",
    "manila.csi.openstack.org",
    "csi.juicefs.com",
    "nfs.csi.k8s.io",
    "smb.csi.k8s.io",
    "blob.csi.azure.com",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::VolumeMode::*;

    fn both(a: AccessModes, b: AccessModes) -> AccessModes {
        let mut m = a;
        m.insert(b);
        m
    }

    /// The drivers' CreateVolume checks (see [`refuses_capability`]).
    #[test]
    fn what_a_driver_refuses_to_create() {
        let refuses = |d, m, v| refuses_capability(d, m, v, false).map(|(_, e)| e);
        let ebs = |m, v| refuses("ebs.csi.aws.com", m, v);
        assert!(ebs(AccessModes::RWX, Filesystem).is_some());
        assert!(ebs(AccessModes::ROX, Block).is_some());
        assert_eq!(ebs(AccessModes::RWX, Block), None);
        assert_eq!(ebs(AccessModes::RWO, Filesystem), None);
        assert!(refuses("nfs.csi.k8s.io", AccessModes::RWX, Block).is_some());
        assert_eq!(
            refuses("nfs.csi.k8s.io", AccessModes::RWX, Filesystem),
            None
        );
        assert_eq!(
            refuses("example.com/csi", AccessModes::RWX, Filesystem),
            None
        );
        // ReadWriteOncePod reaches every driver as a single-node mode.
        for d in DRIVER_NAMES {
            assert_eq!(refuses(d, AccessModes::RWOP, Filesystem), None, "{d}");
            assert_eq!(refuses(d, AccessModes::RWO, Filesystem), None, "{d}");
        }
        assert_eq!(
            refuses("disk.csi.azure.com", AccessModes::RWX, Filesystem).as_deref(),
            Some("rpc error: code = InvalidArgument desc = mountVolume is not supported for access mode: MULTI_NODE_MULTI_WRITER")
        );
        // A shared Azure disk depends on maxShares: not judged.
        assert_eq!(refuses("disk.csi.azure.com", AccessModes::RWX, Block), None);
        assert_eq!(
            refuses("dobs.csi.digitalocean.com", both(AccessModes::ROX, AccessModes::RWX), Block).as_deref(),
            Some("rpc error: code = InvalidArgument desc = volume capabilities cannot be satisified: unsupported access mode MULTI_NODE_MULTI_WRITER; unsupported access mode MULTI_NODE_READER_ONLY")
        );
        assert_eq!(
            refuses("csi.hetzner.cloud", AccessModes::RWX, Filesystem).as_deref(),
            Some("rpc error: code = InvalidArgument desc = capability at index 0 is not supported")
        );
        // ceph-csi under Rook, by suffix; a read-only clone or restore is served.
        let rbd = "rook-ceph.rbd.csi.ceph.com";
        assert!(refuses(rbd, AccessModes::ROX, Block).is_some());
        assert_eq!(refuses_capability(rbd, AccessModes::ROX, Block, true), None);
        // ceph-csi serves a file system shared by many nodes beside a single-node mode, or
        // read-only from a source (IsFileRWO, IsReaderOnly).
        assert_eq!(
            refuses(rbd, both(AccessModes::RWO, AccessModes::RWX), Filesystem),
            None
        );
        assert_eq!(
            refuses_capability(
                rbd,
                both(AccessModes::ROX, AccessModes::RWX),
                Filesystem,
                true
            ),
            None
        );
        assert_eq!(
            refuses_capability(rbd, AccessModes::ROX, Filesystem, false).map(|(r, _)| r),
            Some(CreateRefusal::ReadOnlyWithoutSource)
        );
        assert_eq!(
            refuses_capability("efs.csi.aws.com", AccessModes::RWX, Block, false).map(|(r, _)| r),
            Some(CreateRefusal::VolumeMode)
        );
        assert!(refuses(rbd, AccessModes::RWX, Filesystem).is_some());
        assert_eq!(refuses(rbd, AccessModes::RWX, Block), None);
        assert_eq!(
            refuses("cephfs.csi.ceph.com", AccessModes::RWX, Block).as_deref(),
            Some("rpc error: code = Unimplemented desc = block volume not supported")
        );
        // EFS checks the access modes before the volume mode.
        assert_eq!(
            refuses("efs.csi.aws.com", AccessModes::ROX, Block).as_deref(),
            Some("rpc error: code = InvalidArgument desc = Volume capabilities not supported: invalid access mode: MULTI_NODE_READER_ONLY")
        );
    }

    /// Every capability row names a driver of the table, and says where it comes from.
    #[test]
    fn capability_rows_are_known_drivers_and_cited() {
        for (name, _, _, source) in CAPABILITIES {
            assert!(
                super::super::DRIVERS.iter().any(|d| d.name == *name),
                "{name}"
            );
            assert!(source.contains('@'), "{name}");
        }
        assert_eq!(
            reports(
                "rook-ceph.cephfs.csi.ceph.com",
                ControllerCapability::CloneVolume
            ),
            Some(true)
        );
        assert_eq!(
            reports("efs.csi.aws.com", ControllerCapability::CloneVolume),
            Some(false)
        );
        assert_eq!(
            reports("ebs.csi.aws.com", ControllerCapability::CloneVolume),
            None
        );
    }
}
