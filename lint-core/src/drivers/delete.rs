//! What deleters do with the storage of a released volume with reclaimPolicy Delete: a CSI
//! driver's `DeleteVolume` given a handle, an external provisioner's `Delete` reading its
//! StorageClass's parameters. Each fact cites the deleter's own source.

use crate::node::Node;
use crate::string::Str;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
