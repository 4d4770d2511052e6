//! The in-tree `PersistentVolumeSource` types of k8s.io/api core/v1, closed as the API
//! server's strict decoding treats them: a key none of them has (`storageos.secretName` for
//! its `secretRef`) is an unknown field.

use super::Shape::{self, *};
use super::{F, STR};

pub(super) const CSI_SOURCE: Shape = Map(&[
    F("driver", STR),
    F("volumeHandle", STR),
    F("readOnly", STR),
    F("fsType", STR),
    F("volumeAttributes", Any),
    F("controllerPublishSecretRef", SECRET_REF),
    F("nodeStageSecretRef", SECRET_REF),
    F("nodePublishSecretRef", SECRET_REF),
    F("controllerExpandSecretRef", SECRET_REF),
    F("nodeExpandSecretRef", SECRET_REF),
]);

/// `SecretReference`, `ObjectReference` (k8s.io/api core/v1).
pub(super) const SECRET_REF: Shape = Map(&[F("name", STR), F("namespace", STR)]);
pub(super) const OBJECT_REF: Shape = Map(&[
    F("kind", STR),
    F("namespace", STR),
    F("name", STR),
    F("uid", STR),
    F("apiVersion", STR),
    F("resourceVersion", STR),
    F("fieldPath", STR),
]);

/// `GCEPersistentDiskVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const GCE_PERSISTENT_DISK_SOURCE: Shape = Map(&[
    F("pdName", STR),
    F("fsType", STR),
    F("partition", STR),
    F("readOnly", STR),
]);

/// `AWSElasticBlockStoreVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const AWS_ELASTIC_BLOCK_STORE_SOURCE: Shape = Map(&[
    F("volumeID", STR),
    F("fsType", STR),
    F("partition", STR),
    F("readOnly", STR),
]);

/// `GlusterfsPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const GLUSTERFS_PERSISTENT_SOURCE: Shape = Map(&[
    F("endpoints", STR),
    F("path", STR),
    F("readOnly", STR),
    F("endpointsNamespace", STR),
]);

/// `RBDPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const RBD_PERSISTENT_SOURCE: Shape = Map(&[
    F("monitors", STR),
    F("image", STR),
    F("fsType", STR),
    F("pool", STR),
    F("user", STR),
    F("keyring", STR),
    F("secretRef", SECRET_REF),
    F("readOnly", STR),
]);

/// `ISCSIPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const ISCSI_PERSISTENT_SOURCE: Shape = Map(&[
    F("targetPortal", STR),
    F("iqn", STR),
    F("lun", STR),
    F("iscsiInterface", STR),
    F("fsType", STR),
    F("readOnly", STR),
    F("portals", STR),
    F("chapAuthDiscovery", STR),
    F("chapAuthSession", STR),
    F("secretRef", SECRET_REF),
    F("initiatorName", STR),
]);

/// `CinderPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const CINDER_PERSISTENT_SOURCE: Shape = Map(&[
    F("volumeID", STR),
    F("fsType", STR),
    F("readOnly", STR),
    F("secretRef", SECRET_REF),
]);

/// `CephFSPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const CEPHFS_PERSISTENT_SOURCE: Shape = Map(&[
    F("monitors", STR),
    F("path", STR),
    F("user", STR),
    F("secretFile", STR),
    F("secretRef", SECRET_REF),
    F("readOnly", STR),
]);

/// `FCVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const FC_SOURCE: Shape = Map(&[
    F("targetWWNs", STR),
    F("lun", STR),
    F("fsType", STR),
    F("readOnly", STR),
    F("wwids", STR),
]);

/// `FlockerVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const FLOCKER_SOURCE: Shape = Map(&[F("datasetName", STR), F("datasetUUID", STR)]);

/// `FlexPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const FLEX_PERSISTENT_SOURCE: Shape = Map(&[
    F("driver", STR),
    F("fsType", STR),
    F("secretRef", SECRET_REF),
    F("readOnly", STR),
    F("options", Any),
]);

/// `AzureFilePersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const AZURE_FILE_PERSISTENT_SOURCE: Shape = Map(&[
    F("secretName", STR),
    F("shareName", STR),
    F("readOnly", STR),
    F("secretNamespace", STR),
]);

/// `VsphereVirtualDiskVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const VSPHERE_VIRTUAL_DISK_SOURCE: Shape = Map(&[
    F("volumePath", STR),
    F("fsType", STR),
    F("storagePolicyName", STR),
    F("storagePolicyID", STR),
]);

/// `QuobyteVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const QUOBYTE_SOURCE: Shape = Map(&[
    F("registry", STR),
    F("volume", STR),
    F("readOnly", STR),
    F("user", STR),
    F("group", STR),
    F("tenant", STR),
]);

/// `AzureDiskVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const AZURE_DISK_SOURCE: Shape = Map(&[
    F("diskName", STR),
    F("diskURI", STR),
    F("cachingMode", STR),
    F("fsType", STR),
    F("readOnly", STR),
    F("kind", STR),
]);

/// `PhotonPersistentDiskVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const PHOTON_PERSISTENT_DISK_SOURCE: Shape = Map(&[F("pdID", STR), F("fsType", STR)]);

/// `PortworxVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const PORTWORX_SOURCE: Shape =
    Map(&[F("volumeID", STR), F("fsType", STR), F("readOnly", STR)]);

/// `ScaleIOPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const SCALEIO_PERSISTENT_SOURCE: Shape = Map(&[
    F("gateway", STR),
    F("system", STR),
    F("secretRef", SECRET_REF),
    F("sslEnabled", STR),
    F("protectionDomain", STR),
    F("storagePool", STR),
    F("storageMode", STR),
    F("volumeName", STR),
    F("fsType", STR),
    F("readOnly", STR),
]);

/// `StorageOSPersistentVolumeSource` (k8s.io/api core/v1): closed, as the API server decodes it.
pub(super) const STORAGEOS_PERSISTENT_SOURCE: Shape = Map(&[
    F("volumeName", STR),
    F("volumeNamespace", STR),
    F("fsType", STR),
    F("readOnly", STR),
    F("secretRef", OBJECT_REF),
]);
