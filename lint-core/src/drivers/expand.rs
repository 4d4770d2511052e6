//! Which CSI drivers expand volumes. kube-controller-manager's expand controller expands no
//! CSI volume itself: for a claim that asks for more than its `status.capacity` and whose
//! volume no plugin of its own expands, it emits Normal ExternalExpanding "waiting for an
//! external controller to expand this PVC" and leaves it (kubernetes/kubernetes@003e86297d18
//! pkg/controller/volume/expand/expand_controller.go:275-286). The external resizer of the
//! volume's driver, the csi-resizer sidecar, takes it only when the driver reports the
//! controller or the node EXPAND_VOLUME capability (kubernetes-csi/external-resizer@beef24d8e070
//! pkg/resizer/csi_resizer.go:64-87; with neither, "CSI driver neither supports controller
//! resize nor node resize", :41,73). Each row cites the driver's own capabilities.

/// (driver, reports the controller or the node EXPAND_VOLUME capability, source): what each
/// driver's source shows, for the tests and docs/drivers.md; the library keeps only the
/// drivers that expand nothing ([`NEVER_EXPAND`], which a test holds equal to this table's).
#[cfg(test)]
pub(super) const EXPANSION: &[(&str, bool, &str)] = &[
    ("ebs.csi.aws.com", true, cite!("kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 pkg/driver/controller.go:59; pkg/driver/node.go:73")),
    ("pd.csi.storage.gke.io", true, cite!("kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508 pkg/gce-pd-csi-driver/gce-pd-driver.go:73,82")),
    ("disk.csi.azure.com", true, cite!("kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd pkg/azuredisk/azuredisk.go:398,419")),
    ("csi.vsphere.vmware.com", true, cite!("kubernetes-sigs/vsphere-csi-driver@bf8090256717 pkg/csi/service/vanilla/controller.go:2346; pkg/csi/service/node.go:367")),
    ("cinder.csi.openstack.org", true, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb pkg/csi/cinder/driver.go:113,128")),
    ("manila.csi.openstack.org", true, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb pkg/csi/manila/driver.go:162")),
    ("dobs.csi.digitalocean.com", true, cite!("digitalocean/csi-digitalocean@0711283de556 driver/controller.go:659; driver/node.go:313")),
    ("csi.hetzner.cloud", true, cite!("hetznercloud/csi-driver@53ead0b2b8eb internal/driver/controller.go:418; internal/driver/node.go:162")),
    ("linodebs.csi.linode.com", true, cite!("linode/linode-blockstorage-csi-driver@def6be4fae64 internal/driver/capabilities.go:12,39")),
    ("rbd.csi.ceph.com", true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/rbd/driver/driver.go:112; internal/rbd/nodeserver.go:1212")),
    (".rbd.csi.ceph.com", true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/rbd/driver/driver.go:112 (under Rook)")),
    ("cephfs.csi.ceph.com", true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/cephfs/driver.go:139")),
    (".cephfs.csi.ceph.com", true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/cephfs/driver.go:139 (under Rook)")),
    ("nfs.csi.ceph.com", true, cite!("ceph/ceph-csi@52fcb7b00c3d internal/nfs/driver/driver.go:51")),
    ("driver.longhorn.io", true, cite!("longhorn/longhorn-manager@5ddaa369fa7e csi/controller_server.go:91; csi/node_server.go:96")),
    ("efs.csi.aws.com", false, cite!("kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 pkg/driver/controller.go:80-82 (CREATE_DELETE_VOLUME only); pkg/driver/driver.go:93-97 (GET_VOLUME_STATS only)")),
    ("fsx.csi.aws.com", true, cite!("kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 pkg/driver/controller.go:50")),
    ("filestore.csi.storage.gke.io", true, cite!("kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 pkg/csi_driver/gcfs_driver.go:199")),
    ("file.csi.azure.com", true, cite!("kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 pkg/azurefile/azurefile.go:483")),
    ("blob.csi.azure.com", true, cite!("kubernetes-sigs/blob-csi-driver@0744a60b3930 pkg/blob/blob.go:490")),
    ("csi.juicefs.com", true, cite!("juicedata/juicefs-csi-driver@5e5a4b3b9b82 pkg/driver/controller.go:42")),
    ("nfs.csi.k8s.io", true, cite!("kubernetes-csi/csi-driver-nfs@d3b27c00743a pkg/nfs/nfs.go:111")),
    ("smb.csi.k8s.io", true, cite!("kubernetes-csi/csi-driver-smb@95c6968057ee pkg/smb/smb.go:191")),
    ("iscsi.csi.k8s.io", false, cite!("kubernetes-csi/csi-driver-iscsi@2cd66b8e3bd9 pkg/iscsi/driver.go:59; pkg/iscsi/nodeserver.go:96 (UNKNOWN only)")),
    ("zfs.csi.openebs.io", true, cite!("openebs/zfs-localpv@d52f9a9a5731 pkg/driver/controller.go:1043; pkg/driver/agent.go:293")),
    ("local.csi.openebs.io", true, cite!("openebs/lvm-localpv@f3276f4cb264 pkg/driver/controller.go:958; pkg/driver/agent.go:391")),
    ("topolvm.io", true, cite!("topolvm/topolvm@83e3dcee2fd7 internal/driver/controller.go:586; internal/driver/node.go:536")),
    ("topolvm.cybozu.com", true, cite!("topolvm/topolvm@83e3dcee2fd7 internal/driver/controller.go:586 (the legacy name)")),
    ("carina.storage.io", true, cite!("carina-io/carina@aec3a9f09d97 pkg/csidriver/driver/controller.go:314; pkg/csidriver/driver/node.go:892")),
    ("directpv-min-io", true, cite!("minio/directpv@a9adb854cdec pkg/csi/controller/server.go:99; pkg/csi/node/server.go:123")),
    ("hostpath.csi.k8s.io", true, cite!("kubernetes-csi/csi-driver-host-path@1f2b2e64d01e pkg/hostpath/controllerserver.go:925-926; pkg/hostpath/nodeserver.go:408-415")),
    ("seaweedfs-csi-driver", true, cite!("seaweedfs/seaweedfs-csi-driver@05c90b2a9db6 pkg/driver/driver.go:96; pkg/driver/nodeserver.go:320")),
    ("ru.yandex.s3.csi", false, cite!("yandex-cloud/k8s-csi-s3@cd2d29f0e655 pkg/driver/controllerserver.go:209-215 (CREATE_DELETE_VOLUME only); pkg/driver/nodeserver.go:234 (STAGE_UNSTAGE only)")),
    ("linstor.csi.linbit.com", true, cite!("piraeusdatastore/linstor-csi@44aa98afcf28 pkg/driver/driver.go:1113,453")),
];

/// The drivers whose source shows neither EXPAND_VOLUME capability (the rows of `EXPANSION`
/// that say no).
const NEVER_EXPAND: &[&str] = &["efs.csi.aws.com", "iscsi.csi.k8s.io", "ru.yandex.s3.csi"];

/// Whether `driver` expands nothing: true when its source shows it reports neither
/// EXPAND_VOLUME capability; false when it does, or when pvlint has not read the driver.
pub fn never_expands(driver: &str) -> bool {
    let name = super::driver(driver).map_or(driver, |d| d.name);
    NEVER_EXPAND.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_drivers_expand() {
        assert!(never_expands("efs.csi.aws.com"));
        assert!(never_expands("iscsi.csi.k8s.io"));
        assert!(!never_expands("ebs.csi.aws.com"));
        // ceph-csi under Rook, by suffix.
        assert!(!never_expands("rook-ceph.rbd.csi.ceph.com"));
        assert!(!never_expands("example.com/csi"));
        let no: Vec<&str> = EXPANSION.iter().filter(|r| !r.1).map(|r| r.0).collect();
        assert_eq!(no, NEVER_EXPAND);
    }

    #[test]
    fn every_row_is_a_known_driver_and_cited() {
        for (name, _, source) in EXPANSION {
            assert!(
                super::super::DRIVERS.iter().any(|d| d.name == *name),
                "{name}"
            );
            assert!(source.contains('@'), "{name}");
        }
    }
}
