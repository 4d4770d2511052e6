//! What pvlint knows about real CSI drivers, external provisioners and the StorageClasses
//! platforms install: the one place for such facts. Each row cites the driver's own deploy
//! manifest, chart or source (`owner/repo@commit path:line`), or the platform's documentation.
//!
//! Kubernetes attaches a CSI volume unless the driver's CSIDriver object says
//! `attachRequired: false`; no CSIDriver object, or the field left out, means attach
//! (k8s.io/api storage/v1 types.go, CSIDriverSpec.AttachRequired; kubernetes-csi docs
//! "Skip Kubernetes Attach and Detach"). A node-local driver's volumes carry node affinity (a
//! topology key, or `nodeAffinity` on the PV it creates), so every pod using one runs on its
//! node: ReadWriteOnce, which is per node, is never contended there.
//!
//! A driver or class not listed here stays unknown, and what depends on it is an assumption.

/// Whether a driver's volumes go through attach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attach {
    /// Its CSIDriver says `attachRequired: true`, or leaves it out.
    Required,
    /// Its CSIDriver says `attachRequired: false`.
    NotRequired,
    /// Not CSI: it creates hostPath or local volumes, which never attach.
    NotCsi,
}

/// A driver or provisioner pvlint knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Driver {
    /// The provisioner / CSIDriver name; one starting with `.` matches by suffix (Rook names
    /// ceph-csi's drivers `<operator-namespace>.rbd.csi.ceph.com`).
    pub name: &'static str,
    pub attach: Attach,
    /// Its volumes are pinned to one node.
    pub node_local: bool,
    /// It serves ReadWriteMany (a shared file system).
    pub shared: bool,
    /// Where the facts come from.
    pub source: &'static str,
}

const fn d(
    name: &'static str,
    attach: Attach,
    node_local: bool,
    shared: bool,
    source: &'static str,
) -> Driver {
    Driver {
        name,
        attach,
        node_local,
        shared,
        source,
    }
}

use Attach::{NotCsi, NotRequired, Required};

/// A row's citation (`owner/repo@commit path:line`): kept in the source, where the unit tests
/// check every row has one, and left out of the built library, which shows it to no one (the
/// browser module stays small).
macro_rules! cite {
    ($s:literal) => {
        if cfg!(test) {
            $s
        } else {
            ""
        }
    };
}

mod create;
mod delete;
mod expand;
#[cfg(test)]
mod facts;
pub use create::*;
pub use delete::*;
pub use expand::*;

/// The drivers and provisioners pvlint knows.
pub const DRIVERS: &[Driver] = &[
    // Block storage of clouds: attach, one node at a time (zonal or regional, not node-local).
    d("ebs.csi.aws.com", Required, false, false, cite!("kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 deploy/kubernetes/base/csidriver.yaml:10")),
    d("pd.csi.storage.gke.io", Required, false, false, cite!("kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508 deploy/kubernetes/base/controller/v1_csidriver.yaml:6")),
    d("disk.csi.azure.com", Required, false, false, cite!("kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd deploy/csi-azuredisk-driver.yaml:10")),
    d("csi.vsphere.vmware.com", Required, false, false, cite!("kubernetes-sigs/vsphere-csi-driver@bf8090256717 manifests/vanilla/vsphere-csi-driver.yaml:6")),
    d("cinder.csi.openstack.org", Required, false, false, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/cinder-csi-plugin/csi-cinder-driver.yaml:6")),
    d("dobs.csi.digitalocean.com", Required, false, false, cite!("digitalocean/csi-digitalocean@0711283de556 deploy/kubernetes/releases/csi-digitalocean-dev/driver.yaml:25")),
    d("csi.hetzner.cloud", Required, false, false, cite!("hetznercloud/csi-driver@53ead0b2b8eb deploy/kubernetes/hcloud-csi.yml:414")),
    d("linodebs.csi.linode.com", Required, false, false, cite!("linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-driver-instance.yaml:6")),
    d("vpc.block.csi.ibm.io", Required, false, false, cite!("IBM/ibm-vpc-block-csi-driver@971fb79502b6 deploy/kubernetes/driver/kubernetes/manifests/csidriver.yaml:6")),
    d("blockvolume.csi.oraclecloud.com", Required, false, false, cite!("oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/oci-csi-node-driver.yaml:9-14 (attachRequired left out)")),
    d("diskplugin.csi.alibabacloud.com", Required, false, false, cite!("kubernetes-sigs/alibaba-cloud-csi-driver@8aacf9009bf9 deploy/charts/alibaba-cloud-csi-driver/templates/csi-driver.yaml:7")),
    // Replicated block storage: attach, not node-local.
    d("rbd.csi.ceph.com", Required, false, false, cite!("ceph/ceph-csi@52fcb7b00c3d deploy/rbd/kubernetes/csidriver.yaml:14")),
    d(".rbd.csi.ceph.com", Required, false, false, cite!("rook/rook@d0c3b9ce6d64 pkg/operator/ceph/csi/config.go:50-51 (ceph-csi under Rook, prefixed by the operator namespace)")),
    d("driver.longhorn.io", Required, false, true, cite!("longhorn/longhorn-manager@5ddaa369fa7e csi/deployment.go:640-649 (attachRequired left out); RWX through its share manager, csi/controller_server.go:102")),
    d("linstor.csi.linbit.com", Required, false, false, cite!("piraeusdatastore/piraeus-operator@0ef32285b13b pkg/resources/cluster/csi-controller/csi-driver.yaml:7")),
    d("seaweedfs-csi-driver", Required, false, true, cite!("seaweedfs/seaweedfs-csi-driver@05c90b2a9db6 deploy/kubernetes/seaweedfs-csi.yaml:601")),
    // Shared file systems: no attach.
    d("efs.csi.aws.com", NotRequired, false, true, cite!("kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 deploy/kubernetes/base/csidriver.yaml:12")),
    d("fsx.csi.aws.com", NotRequired, false, true, cite!("kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 deploy/kubernetes/base/csidriver.yaml:8")),
    d("filestore.csi.storage.gke.io", NotRequired, false, true, cite!("kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 deploy/kubernetes/base/controller/csi_driver.yaml:6")),
    d("file.csi.azure.com", NotRequired, false, true, cite!("kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 deploy/csi-azurefile-driver.yaml:10")),
    d("blob.csi.azure.com", NotRequired, false, true, cite!("kubernetes-sigs/blob-csi-driver@0744a60b3930 deploy/csi-blob-driver.yaml:7")),
    d("cephfs.csi.ceph.com", NotRequired, false, true, cite!("ceph/ceph-csi@52fcb7b00c3d deploy/cephfs/kubernetes/csidriver.yaml:14")),
    d(".cephfs.csi.ceph.com", NotRequired, false, true, cite!("rook/rook@d0c3b9ce6d64 pkg/operator/ceph/csi/config.go:50-51 (ceph-csi under Rook)")),
    d("nfs.csi.ceph.com", NotRequired, false, true, cite!("ceph/ceph-csi@52fcb7b00c3d deploy/nfs/kubernetes/csidriver.yaml:14")),
    d("nfs.csi.k8s.io", NotRequired, false, true, cite!("kubernetes-csi/csi-driver-nfs@d3b27c00743a deploy/csi-nfs-driverinfo.yaml:7")),
    d("smb.csi.k8s.io", NotRequired, false, true, cite!("kubernetes-csi/csi-driver-smb@95c6968057ee deploy/csi-smb-driver.yaml:7")),
    d("manila.csi.openstack.org", NotRequired, false, true, cite!("kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/manila-csi-plugin/csidriver.yaml:6")),
    d("csi.juicefs.com", NotRequired, false, true, cite!("juicedata/juicefs-csi-driver@5e5a4b3b9b82 deploy/k8s.yaml:934")),
    d("ru.yandex.s3.csi", NotRequired, false, true, cite!("yandex-cloud/k8s-csi-s3@cd2d29f0e655 deploy/kubernetes/driver.yaml:6")),
    d("fss.csi.oraclecloud.com", NotRequired, false, true, cite!("oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/oci-csi-node-driver.yaml:6")),
    d("pxd.portworx.com", NotRequired, false, false, cite!("libopenstorage/operator@303cc3735024 drivers/storage/portworx/component/csi.go:893-901 (AttachRequired false)")),
    // Block storage without attach (iSCSI logs in from the node itself).
    d("iscsi.csi.k8s.io", NotRequired, false, false, cite!("kubernetes-csi/csi-driver-iscsi@2cd66b8e3bd9 deploy/csi-iscsi-driverinfo.yaml:7")),
    // Node-local volumes: pinned to their node.
    d("zfs.csi.openebs.io", NotRequired, true, false, cite!("openebs/zfs-localpv@d52f9a9a5731 deploy/helm/charts/templates/csidriver.yaml:8; topology openebs.io/nodeid, pkg/driver/agent.go:258-259")),
    d("local.csi.openebs.io", NotRequired, true, false, cite!("openebs/lvm-localpv@f3276f4cb264 deploy/helm/charts/templates/csidriver.yaml:8; topology openebs.io/nodename, pkg/lvm/volume.go:50")),
    d("topolvm.io", NotRequired, true, false, cite!("topolvm/topolvm@83e3dcee2fd7 charts/topolvm/templates/controller/csidriver.yaml:11; topology topology.topolvm.io/node, constants.go:38-40")),
    d("topolvm.cybozu.com", NotRequired, true, false, cite!("topolvm/topolvm@83e3dcee2fd7 charts/topolvm/templates/_helpers.tpl:68 (the legacy name)")),
    d("carina.storage.io", NotRequired, true, false, cite!("carina-io/carina@aec3a9f09d97 deploy/kubernetes/csi-node-rbac.yaml:54-60; topology topology.carina.storage.io/node, constants.go:73, pkg/csidriver/driver/controller.go:215-217")),
    d("directpv-min-io", NotRequired, true, false, cite!("minio/directpv@a9adb854cdec resources/base/CSIDriver.yaml:13; topology directpv.min.io/node, pkg/csi/node/server.go:87-101")),
    d("hostpath.csi.k8s.io", Required, true, false, cite!("kubernetes-csi/csi-driver-host-path@1f2b2e64d01e deploy/kubernetes-1.34/hostpath/csi-hostpath-driverinfo.yaml (attachRequired left out); topology topology.hostpath.csi/node, pkg/hostpath/nodeserver.go:36")),
    d("rancher.io/local-path", NotCsi, true, false, cite!("rancher/local-path-provisioner@9fa2a62eda44 provisioner.go:520-545 (PV nodeAffinity on kubernetes.io/hostname)")),
    d("openebs.io/local", NotCsi, true, false, cite!("openebs/dynamic-localpv-provisioner@2f165df9e37c cmd/provisioner-localpv/app/provisioner_hostpath.go:54-56,202 (local PV with nodeAffinity)")),
    d("microk8s.io/hostpath", NotCsi, true, false, cite!("canonical/hostpath-provisioner@8b1ac02baa16 hostpath-provisioner.go:241-250 (PV nodeAffinity on kubernetes.io/hostname)")),
    d("k8s.canonical.com/hostpath", NotCsi, true, false, cite!("canonical/hostpath-provisioner@87cd75898b4b (the renamed microk8s.io/hostpath)")),
    d("kubernetes.io/no-provisioner", NotCsi, true, false, cite!("local PVs require nodeAffinity (pkg/apis/core/validation: \"Local volume requires node affinity\")")),
    // hostPath on single-node clusters, without node affinity: never attached.
    d("k8s.io/minikube-hostpath", NotCsi, false, false, cite!("kubernetes/minikube@eb25dbc70370 pkg/storage/storage_provisioner.go:71-90 (hostPath PV)")),
    d("docker.io/hostpath", NotCsi, false, false, cite!("Docker Desktop's built-in provisioner (hostPath; single node)")),
];

/// The driver or provisioner of this name, if pvlint knows it.
pub fn driver(name: &str) -> Option<&'static Driver> {
    DRIVERS.iter().find(|d| match d.name.strip_prefix('.') {
        Some(_) => name.ends_with(d.name) && name.len() > d.name.len(),
        None => d.name == name,
    })
}

/// A StorageClass a platform or distribution installs by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlatformClass {
    pub name: &'static str,
    pub provisioner: &'static str,
    /// Who installs it.
    pub installed_by: &'static str,
    pub source: &'static str,
}

const fn c(
    name: &'static str,
    provisioner: &'static str,
    installed_by: &'static str,
    source: &'static str,
) -> PlatformClass {
    PlatformClass {
        name,
        provisioner,
        installed_by,
        source,
    }
}

/// Class names that mean one thing wherever they exist. A name platforms use for different
/// storage is not here: `standard` is a GCE PD on GKE (attaches), local-path on kind
/// (node-local) and a hostPath on minikube; `default` is AKS's, and too common a word.
pub const CLASSES: &[PlatformClass] = &[
    c("local-path", "rancher.io/local-path", "k3s's built-in class (also the local-path-provisioner manifest)", cite!("k3s-io/k3s@0362e38dcde9 manifests/local-storage.yaml")),
    c("openebs-hostpath", "openebs.io/local", "OpenEBS Local PV's hostpath class", cite!("openebs/dynamic-localpv-provisioner@2f165df9e37c deploy/helm/charts/templates/hostpath-class.yaml:5")),
    c("microk8s-hostpath", "microk8s.io/hostpath", "MicroK8s's hostpath-storage class", cite!("canonical/microk8s-core-addons@f68981151ad1 addons/hostpath-storage/storage.yaml:46-54")),
    c("hostpath", "docker.io/hostpath", "Docker Desktop's built-in class", cite!("Docker Desktop (kubectl get sc shows `hostpath (default) docker.io/hostpath`)")),
    c("csi-hostpath-sc", "hostpath.csi.k8s.io", "csi-driver-host-path's example class (also minikube's csi-hostpath-driver addon)", cite!("kubernetes-csi/csi-driver-host-path@1f2b2e64d01e examples/csi-storageclass.yaml:4-7")),
    c("standard-rwo", "pd.csi.storage.gke.io", "GKE's default class (pd-balanced)", cite!("GKE `kubectl get sc`: standard-rwo (default) pd.csi.storage.gke.io")),
    c("premium-rwo", "pd.csi.storage.gke.io", "GKE's pd-ssd class", cite!("GKE `kubectl get sc`: premium-rwo pd.csi.storage.gke.io")),
    c("standard-rwx", "filestore.csi.storage.gke.io", "GKE's Filestore class", cite!("GKE with the Filestore CSI driver")),
    c("premium-rwx", "filestore.csi.storage.gke.io", "GKE's Filestore premium class", cite!("GKE with the Filestore CSI driver")),
    c("gp2", "kubernetes.io/aws-ebs", "EKS's class (kubernetes.io/aws-ebs, migrated to ebs.csi.aws.com)", cite!("awsdocs/amazon-eks-user-guide@4d52b4d05e34 latest/ug/storage/ebs-csi-migration-faq.adoc:56,62")),
    c("ebs-csi-default-sc", "ebs.csi.aws.com", "the aws-ebs-csi-driver chart (defaultStorageClass.enabled)", cite!("kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 charts/aws-ebs-csi-driver/templates/ebs-csi-default-sc.yaml:6-10")),
    c("managed-csi", "disk.csi.azure.com", "AKS's Azure Disk class", cite!("MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md")),
    c("managed-csi-premium", "disk.csi.azure.com", "AKS's premium Azure Disk class", cite!("MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md")),
    c("azurefile-csi", "file.csi.azure.com", "AKS's Azure Files class", cite!("MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md")),
    c("azurefile-csi-premium", "file.csi.azure.com", "AKS's premium Azure Files class", cite!("MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md")),
    c("do-block-storage", "dobs.csi.digitalocean.com", "DigitalOcean Kubernetes's default class", cite!("digitalocean/csi-digitalocean@0711283de556 deploy/kubernetes/releases/csi-digitalocean-dev/driver.yaml:44-48")),
    c("hcloud-volumes", "csi.hetzner.cloud", "Hetzner Cloud's CSI driver's default class", cite!("hetznercloud/csi-driver@53ead0b2b8eb deploy/kubernetes/hcloud-csi.yml:15-24")),
    c("linode-block-storage", "linodebs.csi.linode.com", "LKE's block storage class", cite!("linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-storageclass.yaml")),
    c("linode-block-storage-retain", "linodebs.csi.linode.com", "LKE's default class", cite!("linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-storageclass.yaml")),
    c("longhorn", "driver.longhorn.io", "Longhorn's default class", cite!("longhorn/longhorn@bb2f2223a6f7 chart/templates/storageclass.yaml:13-22")),
    c("oci-bv", "blockvolume.csi.oraclecloud.com", "OKE's block volume class", cite!("oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/storage-class.yaml:4-6")),
];

/// The platform class of this name, if it is one of [`CLASSES`].
pub fn platform_class(name: &str) -> Option<&'static PlatformClass> {
    CLASSES.iter().find(|c| c.name == name)
}

/// Class names whose storage depends on the platform, with what each means: said where
/// pvlint assumes what such a class does.
pub fn ambiguous_class(name: &str) -> Option<&'static str> {
    match name {
        "standard" => Some("a GCE persistent disk on GKE (attaches to one node), local-path on kind (node-local), a hostPath on minikube"),
        _ => None,
    }
}

/// What a class name says of storage pvlint does not otherwise know: the kind of node-local
/// storage one of its words names (`openebs-lvmsc`, `zfspv-custom`, `local-storage`,
/// `csi-hostpath-fast`), as the node-local drivers' documented classes are named. Only a hint:
/// a finding resting on it is informational.
pub fn local_by_name(class: &str) -> Option<&'static str> {
    let lower = class.to_ascii_lowercase();
    lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|word| match word {
            "local" | "localpv" | "localpath" | "localstorage" => Some("local"),
            w if w.starts_with("hostpath") => Some("hostPath"),
            w if w.starts_with("zfs") => Some("ZFS"),
            w if w.starts_with("lvm") || w == "topolvm" => Some("LVM"),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_that_say_node_local() {
        assert_eq!(local_by_name("openebs-lvmsc"), Some("LVM"));
        assert_eq!(local_by_name("zfspv-custom-topology"), Some("ZFS"));
        assert_eq!(local_by_name("local-storage"), Some("local"));
        assert_eq!(local_by_name("csi-hostpath-fast"), Some("hostPath"));
        assert_eq!(local_by_name("topolvm-provisioner"), Some("LVM"));
        // Words that only contain the letters are not the storage's name.
        assert_eq!(local_by_name("localized-ssd"), None);
        assert_eq!(local_by_name("fast"), None);
        assert_eq!(local_by_name("gp3"), None);
    }

    #[test]
    fn rook_prefixed_ceph_drivers_match_by_suffix() {
        assert_eq!(
            driver("rook-ceph.rbd.csi.ceph.com").map(|d| d.attach),
            Some(Attach::Required)
        );
        assert_eq!(
            driver("rook-ceph.cephfs.csi.ceph.com").map(|d| d.shared),
            Some(true)
        );
        assert!(driver(".rbd.csi.ceph.com").is_none());
        assert!(driver("example.com/unknown").is_none());
    }

    /// Every platform class's provisioner is a driver pvlint knows (or an in-tree name), and
    /// every row says where it comes from.
    #[test]
    fn the_tables_are_consistent_and_cited() {
        for c in CLASSES {
            assert!(
                driver(c.provisioner).is_some() || c.provisioner.starts_with("kubernetes.io/"),
                "{}",
                c.name
            );
            assert!(!c.source.is_empty());
        }
        for d in DRIVERS {
            assert!(!d.source.is_empty(), "{}", d.name);
            assert!(!(d.node_local && d.shared), "{}", d.name);
        }
    }
}
