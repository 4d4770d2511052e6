//! docs/drivers.md: every fact pvlint holds about each driver, with the source of each, and
//! two facts no rule reads yet but a reviewer of a driver's claims asks for: the CSIDriver
//! object's `fsGroupPolicy` (whether the kubelet applies a pod's `fsGroup` to the volume:
//! `ReadWriteOnceWithFSType`, the default when left out, only for a single-node volume with an
//! fsType) and the topology keys the driver publishes on its nodes (NodeGetInfo's
//! AccessibleTopology: what a class's `allowedTopologies` and a provisioned volume's node
//! affinity can name). Kept in the tests only: the page is generated from these tables and
//! checked against the committed one, so the two cannot drift.

use super::create::{refuses_capability, CAPABILITIES, DRIVER_NAMES};
use super::expand::EXPANSION;
use super::{Attach, DRIVERS};
use crate::kube::{AccessModes, VolumeMode};

/// (driver, fsGroupPolicy of its own CSIDriver manifest, its source, topology keys, their source).
const FACTS: &[(&str, &str, &str, &str, &str)] = &[
    ("ebs.csi.aws.com", "File", "kubernetes-sigs/aws-ebs-csi-driver@429e202e5897 deploy/kubernetes/base/csidriver.yaml:13", "topology.kubernetes.io/zone, topology.ebs.csi.aws.com/zone (deprecated), kubernetes.io/os", "pkg/driver/node.go:615-629"),
    ("pd.csi.storage.gke.io", "left out", "kubernetes-sigs/gcp-compute-persistent-disk-csi-driver@b560165c3508 deploy/kubernetes/base/controller/v1_csidriver.yaml:1-7", "topology.gke.io/zone", "pkg/gce-pd-csi-driver/node.go:743-759"),
    ("disk.csi.azure.com", "File", "kubernetes-sigs/azuredisk-csi-driver@d983d613b6dd deploy/csi-azuredisk-driver.yaml:12", "topology.disk.csi.azure.com/zone, topology.kubernetes.io/zone (zonal)", "pkg/azuredisk/nodeserver.go:355,385-386"),
    ("csi.vsphere.vmware.com", "left out", "kubernetes-sigs/vsphere-csi-driver@bf8090256717 manifests/vanilla/vsphere-csi-driver.yaml:1-7", "topology.csi.vmware.com/CATEGORY when topology is configured", "pkg/csi/service/node.go:479-499"),
    ("cinder.csi.openstack.org", "left out", "kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/cinder-csi-plugin/csi-cinder-driver.yaml:1-10", "topology.cinder.csi.openstack.org/zone (withTopology)", "pkg/csi/cinder/nodeserver.go:300-313"),
    ("manila.csi.openstack.org", "left out", "kubernetes/cloud-provider-openstack@c453fb7c9bbb manifests/manila-csi-plugin/csidriver.yaml:1-7", "topology.manila.csi.openstack.org/zone (withTopology)", "pkg/csi/manila/nodeserver.go:329-339"),
    ("dobs.csi.digitalocean.com", "left out", "digitalocean/csi-digitalocean@0711283de556 deploy/kubernetes/releases/csi-digitalocean-dev/driver.yaml:20-26", "region", "driver/node.go:346-349"),
    ("csi.hetzner.cloud", "File", "hetznercloud/csi-driver@53ead0b2b8eb deploy/kubernetes/hcloud-csi.yml:415", "csi.hetzner.cloud/location", "internal/driver/node.go:183-189"),
    ("linodebs.csi.linode.com", "left out", "linode/linode-blockstorage-csi-driver@def6be4fae64 deploy/kubernetes/base/csi-driver-instance.yaml:1-7", "topology.linode.com/region", "internal/driver/nodeserver.go:486"),
    ("rbd.csi.ceph.com", "File", "ceph/ceph-csi@52fcb7b00c3d deploy/rbd/kubernetes/csidriver.yaml:17", "none (topology.rbd.csi.ceph.com/LABEL with --domainlabels)", "internal/util/topology.go:42-47,107"),
    (".rbd.csi.ceph.com", "File", "rook/rook@d0c3b9ce6d64 (ceph-csi's RBD driver under Rook) ceph/ceph-csi@52fcb7b00c3d deploy/rbd/kubernetes/csidriver.yaml:17", "none (topology.rbd.csi.ceph.com/LABEL with --domainlabels)", "internal/util/topology.go:42-47,107"),
    ("cephfs.csi.ceph.com", "File", "ceph/ceph-csi@52fcb7b00c3d deploy/cephfs/kubernetes/csidriver.yaml:16", "none (topology.cephfs.csi.ceph.com/LABEL with --domainlabels)", "internal/cephfs/driver.go:160,177"),
    (".cephfs.csi.ceph.com", "File", "rook/rook@d0c3b9ce6d64 (ceph-csi's CephFS driver under Rook) ceph/ceph-csi@52fcb7b00c3d deploy/cephfs/kubernetes/csidriver.yaml:16", "none (topology.cephfs.csi.ceph.com/LABEL with --domainlabels)", "internal/cephfs/driver.go:160,177"),
    ("nfs.csi.ceph.com", "File", "ceph/ceph-csi@52fcb7b00c3d deploy/nfs/kubernetes/csidriver.yaml:15", "none", "internal/nfs/nodeserver/nodeserver.go:57"),
    ("driver.longhorn.io", "left out", "longhorn/longhorn-manager@5ddaa369fa7e csi/deployment.go:640-649", "kubernetes.io/hostname, topology.kubernetes.io/zone, topology.kubernetes.io/region (when the node has them)", "csi/node_server.go:1017-1031"),
    ("efs.csi.aws.com", "left out", "kubernetes-sigs/aws-efs-csi-driver@a4fc67600be6 deploy/kubernetes/base/csidriver.yaml:4-12", "topology.kubernetes.io/zone", "pkg/driver/node.go:401"),
    ("fsx.csi.aws.com", "ReadWriteOnceWithFSType", "kubernetes-sigs/aws-fsx-csi-driver@5b227125add7 deploy/kubernetes/base/csidriver.yaml:9", "none", "pkg/driver/node.go:248-264"),
    ("filestore.csi.storage.gke.io", "left out (File in the stable overlays)", "kubernetes-sigs/gcp-filestore-csi-driver@2edb466bc7a0 deploy/kubernetes/base/controller/csi_driver.yaml:1-7; deploy/kubernetes/overlays/stable-master/fsgrouppolicy.yaml:1-3", "topology.gke.io/zone", "pkg/csi_driver/node.go:211"),
    ("file.csi.azure.com", "ReadWriteOnceWithFSType", "kubernetes-sigs/azurefile-csi-driver@7b5ae18e74f0 deploy/csi-azurefile-driver.yaml:15", "none", "pkg/azurefile/nodeserver.go:822-826"),
    ("blob.csi.azure.com", "ReadWriteOnceWithFSType", "kubernetes-sigs/blob-csi-driver@0744a60b3930 deploy/csi-blob-driver.yaml:9", "none", "pkg/blob/nodeserver.go:711-718"),
    ("csi.juicefs.com", "left out", "juicedata/juicefs-csi-driver@5e5a4b3b9b82 deploy/k8s.yaml:925-935", "none", "pkg/driver/node.go:339-346"),
    ("nfs.csi.k8s.io", "File", "kubernetes-csi/csi-driver-nfs@d3b27c00743a deploy/csi-nfs-driverinfo.yaml:10", "none", "pkg/nfs/nodeserver.go:217-221"),
    ("smb.csi.k8s.io", "left out", "kubernetes-csi/csi-driver-smb@95c6968057ee deploy/csi-smb-driver.yaml:1-11", "none", "pkg/smb/nodeserver.go:443-447"),
    ("iscsi.csi.k8s.io", "left out", "kubernetes-csi/csi-driver-iscsi@2cd66b8e3bd9 deploy/csi-iscsi-driverinfo.yaml:1-10", "none", "pkg/iscsi/nodeserver.go:84-88"),
    ("zfs.csi.openebs.io", "left out", "openebs/zfs-localpv@d52f9a9a5731 deploy/helm/charts/templates/csidriver.yaml:1-10", "openebs.io/nodeid, openebs.io/nodename (and labels named in ALLOWED_TOPOLOGIES)", "pkg/driver/agent.go:241-262"),
    ("local.csi.openebs.io", "left out", "openebs/lvm-localpv@f3276f4cb264 deploy/helm/charts/templates/csidriver.yaml:1-10", "openebs.io/nodename (and labels named in ALLOWED_TOPOLOGIES)", "pkg/driver/agent.go:346-360"),
    ("topolvm.io", "left out", "topolvm/topolvm@83e3dcee2fd7 charts/topolvm/templates/controller/csidriver.yaml:1-14", "topology.topolvm.io/node", "internal/driver/node.go:561"),
    ("carina.storage.io", "left out", "carina-io/carina@aec3a9f09d97 deploy/kubernetes/csi-node-rbac.yaml:54-63", "topology.carina.storage.io/node", "constants.go:73; pkg/csidriver/driver/node.go:915-917"),
    ("directpv-min-io", "left out", "minio/directpv@a9adb854cdec resources/base/CSIDriver.yaml:12-17", "directpv.min.io/identity, /rack, /zone, /region, /node", "pkg/csi/node/server.go:88-96"),
    ("hostpath.csi.k8s.io", "File", "kubernetes-csi/csi-driver-host-path@1f2b2e64d01e deploy/kubernetes-1.34/hostpath/csi-hostpath-driverinfo.yaml:20", "topology.hostpath.csi/node", "pkg/hostpath/nodeserver.go:36,359-362"),
    ("seaweedfs-csi-driver", "left out", "seaweedfs/seaweedfs-csi-driver@05c90b2a9db6 deploy/kubernetes/seaweedfs-csi.yaml:597-602", "none", "pkg/driver/nodeserver.go:297-303"),
    ("ru.yandex.s3.csi", "left out (File in the Helm chart)", "yandex-cloud/k8s-csi-s3@cd2d29f0e655 deploy/kubernetes/driver.yaml:1-7; deploy/helm/csi-s3/templates/driver.yaml:8", "none", "pkg/driver/nodeserver.go:250-254"),
    ("linstor.csi.linbit.com", "ReadWriteOnceWithFSType", "piraeusdatastore/piraeus-operator@0ef32285b13b pkg/resources/cluster/csi-controller/csi-driver.yaml:8", "linbit.com/hostname, linbit.com/sp-POOL", "piraeusdatastore/linstor-csi@44aa98afcf28 pkg/topology/topology.go:50,54"),
    ("pxd.portworx.com", "File", "libopenstorage/operator@303cc3735024 drivers/storage/portworx/component/csi.go:906-907", "the node's scheduler topology labels", "libopenstorage/openstorage@033255168c21 csi/node.go:58-64"),
];

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "**no**"
    }
}

/// The page, from the tables.
fn page() -> String {
    let mut out = String::from(
        "# What pvlint knows about CSI drivers and provisioners\n\n\
         Generated from the tables in `lint-core/src/drivers/` by the test \
         `drivers::facts::tests::the_drivers_page_is_current` (`PVLINT_WRITE_DOCS=1 cargo test -p pvlint-core \
         --lib drivers::facts` writes it). Every fact comes from the driver's own source or deploy manifest, \
         cited below; a driver or a fact not listed is unknown to pvlint, and what depends on it is an \
         assumption. A fact that rests on a driver's release (a capability it does not report) makes a \
         finding a warning at most: a later release may differ.\n\n\
         - **attach**: whether Kubernetes attaches its volumes (its CSIDriver's `attachRequired`): \
         Multi-Attach then applies to ReadWriteOnce (rwo-rolling-surge, rwo-shared-by-replicas).\n\
         - **node-local**: its volumes are pinned to one node.\n\
         - **RWX fs / RWX block / ROX**: whether its `CreateVolume` serves ReadWriteMany on a file system, \
         ReadWriteMany on a block device, and ReadOnlyMany without a data source \
         (unbindable-claim predicts ProvisioningFailed with the driver's error otherwise; \"?\" where \
         pvlint has not read its CreateVolume).\n\
         - **clone / snapshot / expand**: CLONE_VOLUME, CREATE_DELETE_SNAPSHOT (unbindable-claim), \
         EXPAND_VOLUME on the controller or the node (resize-never-done).\n\
         - **fsGroupPolicy**: its CSIDriver manifest's; `ReadWriteOnceWithFSType` (the default when \
         left out) applies a pod's `fsGroup` only to a single-node volume with an fsType.\n\
         - **topology keys**: what it publishes on its nodes (NodeGetInfo).\n\n\
         | driver | attach | node-local | RWX fs | RWX block | ROX | clone | snapshot | expand | fsGroupPolicy | topology keys |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let read = |name: &str| {
        DRIVER_NAMES
            .iter()
            .any(|d| *d == name.trim_start_matches('.'))
    };
    let serves = |name: &str, modes: AccessModes, mode: VolumeMode| {
        if super::driver(name).is_some_and(|d| d.attach == Attach::NotCsi) {
            return "—";
        }
        if !read(name) {
            return "?";
        }
        let probe = if name.starts_with('.') {
            format!("rook-ceph{name}")
        } else {
            name.to_string()
        };
        yes(refuses_capability(&probe, modes, mode, false).is_none())
    };
    let mut sources = Vec::new();
    for d in DRIVERS {
        let caps = CAPABILITIES.iter().find(|c| c.0 == d.name);
        let expand = EXPANSION.iter().find(|c| c.0 == d.name);
        let facts = FACTS.iter().find(|f| f.0 == d.name);
        let csi = d.attach != Attach::NotCsi;
        let cell = |v: Option<bool>| match v {
            _ if !csi => "—",
            Some(b) => yes(b),
            None => "?",
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            d.name,
            match d.attach {
                Attach::Required => "yes",
                Attach::NotRequired => "no",
                Attach::NotCsi => "no (not CSI)",
            },
            if d.node_local { "yes" } else { "no" },
            serves(d.name, AccessModes::RWX, VolumeMode::Filesystem),
            serves(d.name, AccessModes::RWX, VolumeMode::Block),
            serves(d.name, AccessModes::ROX, VolumeMode::Filesystem),
            cell(caps.map(|c| c.1)),
            cell(caps.map(|c| c.2)),
            if csi {
                cell(expand.map(|c| c.1))
            } else {
                "**no** (hostPath or local volumes)"
            },
            if csi {
                facts.map_or("?", |f| f.1)
            } else {
                "—"
            },
            if csi {
                facts.map_or("?", |f| f.3)
            } else {
                "—"
            },
        ));
        let mut cites = vec![format!("attach, node-local: {}", d.source)];
        if let Some(c) = caps {
            cites.push(format!("clone, snapshot: {}", c.3));
        }
        if let Some(e) = expand {
            cites.push(format!("expand: {}", e.2));
        }
        if let Some(f) = facts {
            cites.push(format!("fsGroupPolicy: {}", f.2));
            cites.push(format!("topology: {}", f.4));
        }
        sources.push(format!("- `{}`: {}\n", d.name, cites.join("; ")));
    }
    out.push_str(
        "\nWhat each driver's `CreateVolume` refuses, and the error it returns, is cited beside each \
         case in `lint-core/src/drivers/create.rs`.\n\n## Sources\n\n",
    );
    for s in sources {
        out.push_str(&s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_row_is_a_known_driver_and_cited() {
        for (name, _, fs, _, topo) in FACTS {
            assert!(DRIVERS.iter().any(|d| d.name == *name), "{name}");
            assert!(fs.contains('@') && !topo.is_empty(), "{name}");
        }
    }

    /// docs/drivers.md is the page these tables make.
    #[test]
    fn the_drivers_page_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/drivers.md");
        let page = page();
        if std::env::var_os("PVLINT_WRITE_DOCS").is_some() {
            std::fs::write(&path, &page).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == page,
            "docs/drivers.md is stale: run `PVLINT_WRITE_DOCS=1 cargo test -p pvlint-core --lib drivers::facts`"
        );
    }
}
