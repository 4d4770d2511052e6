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

use crate::node::Node;
use crate::string::Str;
use Attach::{NotCsi, NotRequired, Required};

/// The drivers and provisioners pvlint knows.
pub const DRIVERS: &[Driver] = &[
    // Block storage of clouds: attach, one node at a time (zonal or regional, not node-local).
    d("ebs.csi.aws.com", Required, false, false, "kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 deploy/kubernetes/base/csidriver.yaml:10"),
    d("pd.csi.storage.gke.io", Required, false, false, "kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508 deploy/kubernetes/base/controller/v1_csidriver.yaml:6"),
    d("disk.csi.azure.com", Required, false, false, "kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd deploy/csi-azuredisk-driver.yaml:10"),
    d("csi.vsphere.vmware.com", Required, false, false, "kubernetes-sigs/vsphere-csi-driver@bf8090256717 manifests/vanilla/vsphere-csi-driver.yaml:6"),
    d("cinder.csi.openstack.org", Required, false, false, "kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/cinder-csi-plugin/csi-cinder-driver.yaml:6"),
    d("dobs.csi.digitalocean.com", Required, false, false, "digitalocean/csi-digitalocean@0711283de556 deploy/kubernetes/releases/csi-digitalocean-dev/driver.yaml:25"),
    d("csi.hetzner.cloud", Required, false, false, "hetznercloud/csi-driver@53ead0b2b8eb deploy/kubernetes/hcloud-csi.yml:414"),
    d("linodebs.csi.linode.com", Required, false, false, "linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-driver-instance.yaml:6"),
    d("vpc.block.csi.ibm.io", Required, false, false, "IBM/ibm-vpc-block-csi-driver@971fb79502b6 deploy/kubernetes/driver/kubernetes/manifests/csidriver.yaml:6"),
    d("blockvolume.csi.oraclecloud.com", Required, false, false, "oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/oci-csi-node-driver.yaml:9-14 (attachRequired left out)"),
    d("diskplugin.csi.alibabacloud.com", Required, false, false, "kubernetes-sigs/alibaba-cloud-csi-driver@8aacf9009bf9 deploy/charts/alibaba-cloud-csi-driver/templates/csi-driver.yaml:7"),
    // Replicated block storage: attach, not node-local.
    d("rbd.csi.ceph.com", Required, false, false, "ceph/ceph-csi@52fcb7b00c3d deploy/rbd/kubernetes/csidriver.yaml:14"),
    d(".rbd.csi.ceph.com", Required, false, false, "rook/rook@d0c3b9ce6d64 pkg/operator/ceph/csi/config.go:50-51 (ceph-csi under Rook, prefixed by the operator namespace)"),
    d("driver.longhorn.io", Required, false, true, "longhorn/longhorn-manager@5ddaa369fa7e csi/deployment.go:640-649 (attachRequired left out); RWX through its share manager, csi/controller_server.go:102"),
    d("linstor.csi.linbit.com", Required, false, false, "piraeusdatastore/piraeus-operator@0ef32285b13b pkg/resources/cluster/csi-controller/csi-driver.yaml:7"),
    d("seaweedfs-csi-driver", Required, false, true, "seaweedfs/seaweedfs-csi-driver@05c90b2a9db6 deploy/kubernetes/seaweedfs-csi.yaml:601"),
    // Shared file systems: no attach.
    d("efs.csi.aws.com", NotRequired, false, true, "kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 deploy/kubernetes/base/csidriver.yaml:12"),
    d("fsx.csi.aws.com", NotRequired, false, true, "kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 deploy/kubernetes/base/csidriver.yaml:8"),
    d("filestore.csi.storage.gke.io", NotRequired, false, true, "kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 deploy/kubernetes/base/controller/csi_driver.yaml:6"),
    d("file.csi.azure.com", NotRequired, false, true, "kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 deploy/csi-azurefile-driver.yaml:10"),
    d("blob.csi.azure.com", NotRequired, false, true, "kubernetes-sigs/blob-csi-driver@0744a60b3930 deploy/csi-blob-driver.yaml:7"),
    d("cephfs.csi.ceph.com", NotRequired, false, true, "ceph/ceph-csi@52fcb7b00c3d deploy/cephfs/kubernetes/csidriver.yaml:14"),
    d(".cephfs.csi.ceph.com", NotRequired, false, true, "rook/rook@d0c3b9ce6d64 pkg/operator/ceph/csi/config.go:50-51 (ceph-csi under Rook)"),
    d("nfs.csi.ceph.com", NotRequired, false, true, "ceph/ceph-csi@52fcb7b00c3d deploy/nfs/kubernetes/csidriver.yaml:14"),
    d("nfs.csi.k8s.io", NotRequired, false, true, "kubernetes-csi/csi-driver-nfs@d3b27c00743a deploy/csi-nfs-driverinfo.yaml:7"),
    d("smb.csi.k8s.io", NotRequired, false, true, "kubernetes-csi/csi-driver-smb@95c6968057ee deploy/csi-smb-driver.yaml:7"),
    d("manila.csi.openstack.org", NotRequired, false, true, "kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/manila-csi-plugin/csidriver.yaml:6"),
    d("csi.juicefs.com", NotRequired, false, true, "juicedata/juicefs-csi-driver@5e5a4b3b9b82 deploy/k8s.yaml:934"),
    d("ru.yandex.s3.csi", NotRequired, false, true, "yandex-cloud/k8s-csi-s3@cd2d29f0e655 deploy/kubernetes/driver.yaml:6"),
    d("fss.csi.oraclecloud.com", NotRequired, false, true, "oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/oci-csi-node-driver.yaml:6"),
    d("pxd.portworx.com", NotRequired, false, false, "libopenstorage/operator@303cc3735024 drivers/storage/portworx/component/csi.go:893-901 (AttachRequired false)"),
    // Block storage without attach (iSCSI logs in from the node itself).
    d("iscsi.csi.k8s.io", NotRequired, false, false, "kubernetes-csi/csi-driver-iscsi@2cd66b8e3bd9 deploy/csi-iscsi-driverinfo.yaml:7"),
    // Node-local volumes: pinned to their node.
    d("zfs.csi.openebs.io", NotRequired, true, false, "openebs/zfs-localpv@d52f9a9a5731 deploy/helm/charts/templates/csidriver.yaml:8; topology openebs.io/nodeid, pkg/driver/agent.go:258-259"),
    d("local.csi.openebs.io", NotRequired, true, false, "openebs/lvm-localpv@f3276f4cb264 deploy/helm/charts/templates/csidriver.yaml:8; topology openebs.io/nodename, pkg/lvm/volume.go:50"),
    d("topolvm.io", NotRequired, true, false, "topolvm/topolvm@83e3dcee2fd7 charts/topolvm/templates/controller/csidriver.yaml:11; topology topology.topolvm.io/node, constants.go:38-40"),
    d("topolvm.cybozu.com", NotRequired, true, false, "topolvm/topolvm@83e3dcee2fd7 charts/topolvm/templates/_helpers.tpl:68 (the legacy name)"),
    d("directpv-min-io", NotRequired, true, false, "minio/directpv@a9adb854cdec resources/base/CSIDriver.yaml:13; topology directpv.min.io/node, pkg/csi/node/server.go:87-101"),
    d("hostpath.csi.k8s.io", Required, true, false, "kubernetes-csi/csi-driver-host-path@1f2b2e64d01e deploy/kubernetes-1.34/hostpath/csi-hostpath-driverinfo.yaml (attachRequired left out); topology topology.hostpath.csi/node, pkg/hostpath/nodeserver.go:36"),
    d("rancher.io/local-path", NotCsi, true, false, "rancher/local-path-provisioner@9fa2a62eda44 provisioner.go:520-545 (PV nodeAffinity on kubernetes.io/hostname)"),
    d("openebs.io/local", NotCsi, true, false, "openebs/dynamic-localpv-provisioner@2f165df9e37c cmd/provisioner-localpv/app/provisioner_hostpath.go:54-56,202 (local PV with nodeAffinity)"),
    d("microk8s.io/hostpath", NotCsi, true, false, "canonical/hostpath-provisioner@8b1ac02baa16 hostpath-provisioner.go:241-250 (PV nodeAffinity on kubernetes.io/hostname)"),
    d("k8s.canonical.com/hostpath", NotCsi, true, false, "canonical/hostpath-provisioner@87cd75898b4b (the renamed microk8s.io/hostpath)"),
    d("kubernetes.io/no-provisioner", NotCsi, true, false, "local PVs require nodeAffinity (pkg/apis/core/validation: \"Local volume requires node affinity\")"),
    // hostPath on single-node clusters, without node affinity: never attached.
    d("k8s.io/minikube-hostpath", NotCsi, false, false, "kubernetes/minikube@eb25dbc70370 pkg/storage/storage_provisioner.go:71-90 (hostPath PV)"),
    d("docker.io/hostpath", NotCsi, false, false, "Docker Desktop's built-in provisioner (hostPath; single node)"),
];

/// The driver or provisioner of this name, if pvlint knows it.
pub fn driver(name: &str) -> Option<&'static Driver> {
    DRIVERS.iter().find(|d| match d.name.strip_prefix('.') {
        Some(_) => name.ends_with(d.name) && name.len() > d.name.len(),
        None => d.name == name,
    })
}

/// The parameters of a StorageClass that tell its provisioner what to do with the storage of
/// a released volume, as written (key case kept: provisioners differ in how they match keys).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeleteParams {
    entries: Vec<(Str, Str)>,
}

impl DeleteParams {
    const KEYS: [&'static str; 3] = [
        "ondelete",
        "archiveondelete",
        "csi.storage.k8s.io/provisioner-secret-name",
    ];

    pub(crate) fn read(parameters: Option<&Node>) -> DeleteParams {
        let entries = parameters
            .and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .filter(|e| Self::KEYS.contains(&e.key.as_str().to_ascii_lowercase().as_str()))
            .map(|e| (e.key.clone(), Str::from(e.value.as_str().unwrap_or(""))))
            .collect();
        DeleteParams { entries }
    }

    /// The parameters of a StorageClass written as YAML (a test's).
    #[cfg(test)]
    pub fn parse_for_test(yaml: &str) -> DeleteParams {
        let (docs, _) = crate::yaml::parse_stream(yaml);
        let root = docs.into_iter().next().and_then(|d| d.root);
        DeleteParams::read(root.as_ref().and_then(|r| r.get("parameters")))
    }

    /// The value of `key`, matched exactly (a Go map lookup).
    pub fn exact(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key`, matched whatever its case (`strings.ToLower(k)`).
    pub fn any_case(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// What a deleter (a CSI driver's `DeleteVolume`, an external provisioner's `Delete`) does
/// with the storage of a released volume with reclaimPolicy Delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteAction {
    /// It deletes it (or pvlint has not read otherwise: the CSI spec's `DeleteVolume`
    /// deletes the volume whose ID it is given).
    Deletes,
    /// It renames the directory to `archived-<directory>`: the data stays.
    Archives,
    /// It leaves the storage, for this reason.
    Keeps(Keep),
}

/// Why a deleter leaves the storage of a released volume with Delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// aws-efs-csi-driver deletes access points only.
    NoAccessPoint,
    /// The driver cannot parse the handle and treats the volume as gone.
    UnparsableHandle,
    /// The handle's onDelete field says retain.
    HandleRetain,
    /// The class's onDelete parameter says retain.
    ClassRetain,
    /// csi-driver-smb deletes nothing without the provisioner's secret.
    NoSecret,
    /// The class's archiveOnDelete is not a boolean: Delete fails.
    BadArchiveFlag,
    /// The server field of a csi-driver-nfs handle is not a host: DeleteVolume cannot mount it.
    UnmountableServer,
}

impl Keep {
    /// Why, in words.
    pub fn why(self) -> &'static str {
        match self {
            Keep::NoAccessPoint => "aws-efs-csi-driver deletes access points only, and this handle names none (\"Failed to find access point for volume\")",
            Keep::UnparsableHandle => "csi-driver-nfs and csi-driver-smb treat a volumeHandle they cannot parse as a volume that is already gone",
            Keep::HandleRetain => "the volumeHandle's onDelete field says retain",
            Keep::ClassRetain => "the StorageClass's onDelete parameter says retain",
            Keep::NoSecret => "csi-driver-smb deletes nothing unless the StorageClass names the provisioner's secret (csi.storage.k8s.io/provisioner-secret-name)",
            Keep::BadArchiveFlag => "the StorageClass's archiveOnDelete is not a boolean, so the provisioner's Delete fails",
            Keep::UnmountableServer => "the server field of the volumeHandle (before the first #) is not a host name, so csi-driver-nfs cannot mount the share to delete from it and DeleteVolume fails",
        }
    }
}

/// nfs-subdir-external-provisioner (and nfs-client-provisioner before it), under the names its
/// deploy manifest and chart give it: `k8s-sigs.io/nfs-subdir-external-provisioner`,
/// `cluster.local/<release>-nfs-subdir-external-provisioner`, `fuseim.pri/ifs`.
pub fn is_nfs_subdir(provisioner: &str) -> bool {
    provisioner.ends_with("nfs-subdir-external-provisioner")
        || provisioner.ends_with("nfs-client-provisioner")
        || provisioner == "fuseim.pri/ifs"
}

/// pvlint has read what `deleter` does with a released volume's storage ([`delete_action`]).
pub fn delete_is_read(deleter: &str) -> bool {
    is_nfs_subdir(deleter)
        || matches!(
            deleter,
            "efs.csi.aws.com" | "nfs.csi.k8s.io" | "smb.csi.k8s.io"
        )
}

/// What `deleter` does with a released volume's storage, where its source says: `handle` is
/// the CSI volumeHandle (None for a volume pvlint provisions, whose handle the driver made from
/// the class), `class` the parameters of the volume's StorageClass when the input or the
/// cluster state defines it. None where pvlint has not read the deleter (it deletes).
pub fn delete_action(
    deleter: &str,
    handle: Option<&str>,
    class: Option<&DeleteParams>,
) -> Option<DeleteAction> {
    use DeleteAction::*;
    // kubernetes-sigs/nfs-subdir-external-provisioner@e0a5a5a8 cmd/nfs-subdir-external-provisioner/
    // provisioner.go Delete: onDelete "delete" or "retain" (exact) first; else archiveOnDelete
    // (strconv.ParseBool) false deletes, an invalid value fails, absent or true archives. It
    // reads the class named by the volume: no class, no deletion.
    if is_nfs_subdir(deleter) {
        // A class pvlint does not see: the provisioner's default, archiveOnDelete true.
        let Some(class) = class else {
            return Some(Archives);
        };
        return Some(match class.exact("onDelete") {
            Some("delete") => Deletes,
            Some("retain") => Keeps(Keep::ClassRetain),
            _ => match class.exact("archiveOnDelete") {
                None => Archives,
                Some("1" | "t" | "T" | "true" | "TRUE" | "True") => Archives,
                Some("0" | "f" | "F" | "false" | "FALSE" | "False") => Deletes,
                Some(_) => Keeps(Keep::BadArchiveFlag),
            },
        });
    }
    // The onDelete of a handle (csi-driver-nfs and csi-driver-smb write it into the handles
    // they make, from the class's onDelete; absent: the driver's default, delete).
    let on_delete = |field: Option<&str>| match field.map(str::to_ascii_lowercase).as_deref() {
        Some("retain") => Keeps(Keep::HandleRetain),
        Some("archive") => Archives,
        _ => Deletes,
    };
    let class_on_delete = || match class
        .and_then(|c| c.any_case("onDelete"))
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("retain") => Keeps(Keep::ClassRetain),
        Some("archive") => Archives,
        _ => Deletes,
    };
    match deleter {
        // kubernetes-sigs/aws-efs-csi-driver@002e07c3dae5 pkg/driver/controller.go DeleteVolume:
        // a handle without an access point (`fs-1234`, not `fs-1234::fsap-5678`) ends in
        // "Failed to find access point for volume" (NotFound): the file system stays.
        "efs.csi.aws.com" => Some(match handle {
            Some(h) if h.split("::").nth(1).is_none_or(str::is_empty) => Keeps(Keep::NoAccessPoint),
            _ => Deletes,
        }),
        // kubernetes-csi/csi-driver-nfs@09cd86f3a894 pkg/nfs/controllerserver.go getNfsVolFromID
        // + DeleteVolume: a handle of fewer than three `#` fields that is not
        // `server/base/sub` is "treated as doesn't exist"; a fifth field retain keeps the
        // directory, archive renames it to archived-<subDir>; otherwise RemoveAll of the
        // subdirectory (of the whole share when the handle names none).
        "nfs.csi.k8s.io" => Some(match handle {
            None => class_on_delete(),
            Some(h) => {
                let fields: Vec<&str> = h.split('#').collect();
                if fields.len() >= 3 {
                    // internalMount mounts "<server>:/<base>": a server with a path in it
                    // (`nfs-server/share##`) is no host.
                    if fields[0].contains('/') {
                        return Some(Keeps(Keep::UnmountableServer));
                    }
                    on_delete(fields.get(4).copied())
                } else {
                    let (server, rest) = h.split_once('/').unwrap_or(("", ""));
                    match rest.rsplit_once('/') {
                        Some((_, sub)) if !server.is_empty() && !sub.is_empty() => Deletes,
                        _ => Keeps(Keep::UnparsableHandle),
                    }
                }
            }
        }),
        // kubernetes-csi/csi-driver-smb@005e65acdedb pkg/smb/controllerserver.go getSmbVolFromID
        // + DeleteVolume: a handle of fewer than two `#` fields is "treated as doesn't exist";
        // without secrets (the class's provisioner secret) nothing is deleted; a fourth field
        // retain keeps, archive renames to archived-<subDir>.
        "smb.csi.k8s.io" => {
            if !class.is_some_and(|c| {
                c.any_case("csi.storage.k8s.io/provisioner-secret-name")
                    .is_some()
            }) {
                return class.map(|_| Keeps(Keep::NoSecret));
            }
            Some(match handle {
                None => class_on_delete(),
                Some(h) => {
                    let fields: Vec<&str> = h.split('#').collect();
                    if fields.len() < 2 {
                        Keeps(Keep::UnparsableHandle)
                    } else {
                        on_delete(fields.get(3).copied())
                    }
                }
            })
        }
        _ => None,
    }
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
    c("local-path", "rancher.io/local-path", "k3s's built-in class (also the local-path-provisioner manifest)", "k3s-io/k3s@0362e38dcde9 manifests/local-storage.yaml"),
    c("openebs-hostpath", "openebs.io/local", "OpenEBS Local PV's hostpath class", "openebs/dynamic-localpv-provisioner@2f165df9e37c deploy/helm/charts/templates/hostpath-class.yaml:5"),
    c("microk8s-hostpath", "microk8s.io/hostpath", "MicroK8s's hostpath-storage class", "canonical/microk8s-core-addons@f68981151ad1 addons/hostpath-storage/storage.yaml:46-54"),
    c("hostpath", "docker.io/hostpath", "Docker Desktop's built-in class", "Docker Desktop (kubectl get sc shows `hostpath (default) docker.io/hostpath`)"),
    c("csi-hostpath-sc", "hostpath.csi.k8s.io", "csi-driver-host-path's example class (also minikube's csi-hostpath-driver addon)", "kubernetes-csi/csi-driver-host-path@1f2b2e64d01e examples/csi-storageclass.yaml:4-7"),
    c("standard-rwo", "pd.csi.storage.gke.io", "GKE's default class (pd-balanced)", "GKE `kubectl get sc`: standard-rwo (default) pd.csi.storage.gke.io"),
    c("premium-rwo", "pd.csi.storage.gke.io", "GKE's pd-ssd class", "GKE `kubectl get sc`: premium-rwo pd.csi.storage.gke.io"),
    c("standard-rwx", "filestore.csi.storage.gke.io", "GKE's Filestore class", "GKE with the Filestore CSI driver"),
    c("premium-rwx", "filestore.csi.storage.gke.io", "GKE's Filestore premium class", "GKE with the Filestore CSI driver"),
    c("gp2", "kubernetes.io/aws-ebs", "EKS's class (kubernetes.io/aws-ebs, migrated to ebs.csi.aws.com)", "awsdocs/amazon-eks-user-guide@4d52b4d05e34 latest/ug/storage/ebs-csi-migration-faq.adoc:56,62"),
    c("ebs-csi-default-sc", "ebs.csi.aws.com", "the aws-ebs-csi-driver chart (defaultStorageClass.enabled)", "kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 charts/aws-ebs-csi-driver/templates/ebs-csi-default-sc.yaml:6-10"),
    c("managed-csi", "disk.csi.azure.com", "AKS's Azure Disk class", "MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md"),
    c("managed-csi-premium", "disk.csi.azure.com", "AKS's premium Azure Disk class", "MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md"),
    c("azurefile-csi", "file.csi.azure.com", "AKS's Azure Files class", "MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md"),
    c("azurefile-csi-premium", "file.csi.azure.com", "AKS's premium Azure Files class", "MicrosoftDocs/azure-aks-docs@074b3dae95cf articles/aks/concepts-storage.md"),
    c("do-block-storage", "dobs.csi.digitalocean.com", "DigitalOcean Kubernetes's default class", "digitalocean/csi-digitalocean@0711283de556 deploy/kubernetes/releases/csi-digitalocean-dev/driver.yaml:44-48"),
    c("hcloud-volumes", "csi.hetzner.cloud", "Hetzner Cloud's CSI driver's default class", "hetznercloud/csi-driver@53ead0b2b8eb deploy/kubernetes/hcloud-csi.yml:15-24"),
    c("linode-block-storage", "linodebs.csi.linode.com", "LKE's block storage class", "linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-storageclass.yaml"),
    c("linode-block-storage-retain", "linodebs.csi.linode.com", "LKE's default class", "linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-storageclass.yaml"),
    c("longhorn", "driver.longhorn.io", "Longhorn's default class", "longhorn/longhorn@bb2f2223a6f7 chart/templates/storageclass.yaml:13-22"),
    c("oci-bv", "blockvolume.csi.oraclecloud.com", "OKE's block volume class", "oracle/oci-cloud-controller-manager@1100ac3624ed manifests/container-storage-interface/storage-class.yaml:4-6"),
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

    /// The handles and class parameters the deleters' own source reads (see
    /// [`delete_action`]).
    #[test]
    fn what_a_deleter_does_with_the_storage() {
        use DeleteAction::*;
        let params = |kv: &[(&str, &str)]| {
            let yaml: String = kv
                .iter()
                .map(|(k, v)| format!("  {k}: \"{v}\"\n"))
                .collect();
            DeleteParams::parse_for_test(&format!("parameters:\n{yaml}"))
        };
        let none = params(&[]);
        assert_eq!(
            delete_action("efs.csi.aws.com", Some("fs-0123456789abcdef0"), None),
            Some(Keeps(Keep::NoAccessPoint))
        );
        assert_eq!(
            delete_action("efs.csi.aws.com", Some("fs-0123::fsap-0456"), None),
            Some(Deletes)
        );
        assert_eq!(
            delete_action("nfs.csi.k8s.io", Some("nas.local/media"), None),
            Some(Keeps(Keep::UnparsableHandle))
        );
        assert_eq!(
            delete_action("nfs.csi.k8s.io", Some("10.0.0.5/exports/media"), None),
            Some(Deletes)
        );
        assert_eq!(
            delete_action("nfs.csi.k8s.io", Some("nas.local#share#media"), None),
            Some(Deletes)
        );
        assert_eq!(
            delete_action(
                "nfs.csi.k8s.io",
                Some("nfs-server.default.svc.cluster.local/share##"),
                None
            ),
            Some(Keeps(Keep::UnmountableServer))
        );
        assert_eq!(
            delete_action(
                "nfs.csi.k8s.io",
                Some("nas.local#share#media#pvc-1#archive"),
                None
            ),
            Some(Archives)
        );
        assert_eq!(
            delete_action(
                "nfs.csi.k8s.io",
                Some("nas.local#share#media#pvc-1#retain"),
                None
            ),
            Some(Keeps(Keep::HandleRetain))
        );
        assert_eq!(
            delete_action(
                "nfs.csi.k8s.io",
                None,
                Some(&params(&[("onDelete", "archive")]))
            ),
            Some(Archives)
        );
        assert_eq!(
            delete_action("smb.csi.k8s.io", Some("nas/share#media#"), Some(&none)),
            Some(Keeps(Keep::NoSecret))
        );
        assert_eq!(
            delete_action("smb.csi.k8s.io", Some("nas/share#media#"), None),
            None
        );
        let secret = params(&[("csi.storage.k8s.io/provisioner-secret-name", "smbcreds")]);
        assert_eq!(
            delete_action("smb.csi.k8s.io", Some("nas/share#media#"), Some(&secret)),
            Some(Deletes)
        );
        assert_eq!(
            delete_action("smb.csi.k8s.io", Some("nas/share"), Some(&secret)),
            Some(Keeps(Keep::UnparsableHandle))
        );
        // nfs-subdir-external-provisioner: archiveOnDelete defaults to archiving.
        let subdir = "k8s-sigs.io/nfs-subdir-external-provisioner";
        assert_eq!(delete_action(subdir, None, Some(&none)), Some(Archives));
        assert_eq!(
            delete_action(subdir, None, Some(&params(&[("archiveOnDelete", "false")]))),
            Some(Deletes)
        );
        assert_eq!(
            delete_action(subdir, None, Some(&params(&[("archiveOnDelete", "no")]))),
            Some(Keeps(Keep::BadArchiveFlag))
        );
        assert_eq!(
            delete_action(
                subdir,
                None,
                Some(&params(&[
                    ("onDelete", "retain"),
                    ("archiveOnDelete", "false")
                ]))
            ),
            Some(Keeps(Keep::ClassRetain))
        );
        assert_eq!(
            delete_action(subdir, None, Some(&params(&[("onDelete", "delete")]))),
            Some(Deletes)
        );
        // The key is matched exactly there (a Go map lookup).
        assert_eq!(
            delete_action(subdir, None, Some(&params(&[("archiveondelete", "false")]))),
            Some(Archives)
        );
        assert_eq!(delete_action(subdir, None, None), Some(Archives));
        assert!(is_nfs_subdir(
            "cluster.local/nfs-subdir-external-provisioner"
        ));
        for d in [
            "efs.csi.aws.com",
            "nfs.csi.k8s.io",
            "smb.csi.k8s.io",
            subdir,
        ] {
            assert!(delete_is_read(d), "{d}");
        }
        assert_eq!(
            delete_action("ebs.csi.aws.com", Some("vol-0123"), None),
            None
        );
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
