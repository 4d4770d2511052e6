//! Why a claim or a volume ends as it does, in words: the explanations of the simulation's
//! reasons and assumptions.

use super::state::*;
use super::World;
use crate::binding::fit::Mismatch;

impl Assumption {
    /// The assumption in words.
    pub fn describe(&self) -> String {
        match self {
            Assumption::MeantFor { claim, volume } => format!("claim {claim} is meant for volume {volume}, which has no class and fits it, though neither names the other"),
            Assumption::ClaimExists(c) => format!("PersistentVolumeClaim {c}, which the input does not define, exists in the cluster or another tool creates it (pass --cluster-state or --complete to check)"),
            Assumption::ClassExists(c) => match crate::drivers::platform_class(c) {
                Some(pc) => format!("StorageClass {c}, which the input does not define, exists in the cluster and is, by its name, {} (provisioner {}) (pass --cluster-state or --complete to check)", pc.installed_by, pc.provisioner),
                None => format!("StorageClass {c}, which the input does not define, exists in the cluster and provisions volumes (pass --cluster-state or --complete to check)"),
            },
            Assumption::ClassReclaimsDelete(c) => format!("{c} gives the volumes it provisions reclaimPolicy Delete, the default (a class with reclaimPolicy: Retain keeps them; pass --cluster-state to check)"),
            Assumption::RejectedClassOnly(c) => format!("no StorageClass {c} exists besides the one in the input, which the API server rejects (pass --cluster-state or --complete to make this certain)"),
            Assumption::StaticClassOnly(c) => format!("no StorageClass {c} exists: the input uses \"{c}\" only as a label on its static volumes (pass --cluster-state or --complete to make this certain)"),
            Assumption::NoOtherVolumes => "the cluster has no PersistentVolume that matches it besides those in the input (pass --cluster-state or --complete to check)".into(),
            Assumption::OwnerAbsent(o) => format!("no {o} exists in the cluster: the UID is one of the cluster the manifest was read from (re-applied to that cluster, where the owner still lives, nothing is deleted)"),
            Assumption::OwnerKindServed(k) => format!("the cluster serves {k} (its CustomResourceDefinition is installed); until it does, the garbage collector cannot look the owner up and deletes nothing"),
            Assumption::NoStaticProvisioner => "no static provisioner (such as sig-storage-local-static-provisioner, which creates local volumes from the disks it finds) creates volumes of this kubernetes.io/no-provisioner class in the cluster".into(),
            Assumption::SeveralNodesThoughOneNodeVolume { volume, file } => format!("the pods land on different nodes of a cluster of several nodes (the default profile), although hostPath volume {volume} ({file}) has no nodeAffinity, as only a cluster of one node allows (--nodes one, or nodes: one in .pvlint.yaml's cluster section, says the cluster has one node)"),
            Assumption::LocalClusterDefault { tool, file } => format!("the cluster is a {} cluster, as {file} (its config) says, and its default StorageClass {} (rancher.io/local-path) is the one {} installs", tool.name(), tool.default_class(), tool.name()),
            Assumption::DeleterRuns(p) => format!("{p} runs in this cluster and deletes the storage of the volumes it serves (no StorageClass or CSIDriver of the input or the cluster state shows it)"),
            Assumption::DriverDeletesHandle { driver, handle } => format!("{driver}'s DeleteVolume deletes what the volumeHandle \"{handle}\" names, as the CSI spec says (pvlint has not read how this driver treats a handle it did not create)"),
            Assumption::ProvisionerRuns(p) => format!("{p}, which made the volume, runs in this cluster too and deletes its storage (no StorageClass or CSIDriver of the input or the cluster state shows it)"),
            Assumption::DriverWithout { driver, capability } => format!("the cluster's {driver} does not report {capability}, as the release pvlint read does not (a later release may)"),
            Assumption::ProvisionerLikeCsi(p) => format!("{p} refuses, as the CSI external-provisioner and most provisioners do, to provision a claim with a selector"),
            Assumption::DriverAttaches(why) => format!("the volume attaches to one node at a time ({why}); a CSIDriver object in the input, or --cluster-state, says for sure"),
            Assumption::SnapshotterWithoutV1beta1 => "the cluster's CSI external-snapshotter is 6.0 or later (May 2022 on), whose CRDs serve snapshot.storage.k8s.io/v1 only; `snapshotter:` in the profile's cluster section (or --snapshotter) says its release".into(),
            Assumption::AppliedTogether { file, other } => format!("{file} and {other} are applied together, as pvlint groups a directory's files by default (`kubectl apply -f DIR`); --together says so for sure"),
            Assumption::DefinedElsewhere { class, file, default: false } => format!("StorageClass {class} is installed in the cluster as {file} defines it (another file of the input, applied on its own)"),
            Assumption::DefinedElsewhere { class, file, default: true } => format!("StorageClass {class} is installed in the cluster as {file} defines it (another file of the input, applied on its own), and is the cluster's only default class: claims without a storageClassName get it (of several default classes, the newest wins)"),
        }
    }
}

impl World {
    /// A class name for messages.
    pub fn class_label(&self, name: &str) -> String {
        if name == super::load::ASSUMED_DEFAULT {
            "the cluster's default class".into()
        } else {
            format!("\"{name}\"")
        }
    }

    /// Why a claim ends in its state, in one sentence (no trailing period).
    pub fn claim_why(&self, id: ClaimId) -> String {
        let c = self.claim(id);
        let vname = |v: &VolumeId| self.volume(*v).name.clone();
        let mut why = match &c.state {
            ClaimState::Bound { volume, how } => {
                let v = vname(volume);
                match how {
                    BindHow::BestMatch { tied, .. } if tied.is_empty() => {
                        format!("the controller binds the smallest matching volume, {v}")
                    }
                    BindHow::BestMatch { tied, more } => format!(
                        "the controller binds a smallest matching volume: {v} (or {}{}, equally good: which one is chosen at random)",
                        tied.iter().map(vname).collect::<Vec<_>>().join(", "),
                        if *more { " and others" } else { "" }
                    ),
                    BindHow::ReservedByClaimRef { unchecked } if unchecked.is_empty() => {
                        format!("volume {v}'s claimRef reserves it for this claim")
                    }
                    BindHow::ReservedByClaimRef { unchecked } => format!(
                        "volume {v}'s claimRef reserves it for this claim, so it binds without the {} check, although {}",
                        unchecked[0].check(),
                        unchecked[0].detail()
                    ),
                    BindHow::NamedVolume => format!("it names volume {v}, which satisfies it"),
                    BindHow::NamedEachOther { unchecked } if unchecked.is_empty() => {
                        format!("it and volume {v} name each other")
                    }
                    BindHow::NamedEachOther { unchecked } => format!(
                        "it and volume {v} name each other, so they bind without checks, although {}",
                        unchecked[0].detail()
                    ),
                    BindHow::Provisioned { provisioner } => {
                        format!("no existing volume matches it, so {provisioner} provisions {v}")
                    }
                    BindHow::AlreadyBound => format!("it is bound to {v} (the volume's claimRef carries its UID)"),
                    BindHow::Rebound => format!("it is marked bound and volume {v} has no claimRef: the controller binds them again"),
                }
            }
            ClaimState::Pending(p) => p.why(self, c.class_name()),
            ClaimState::Lost(l) => l.why(self, c),
            ClaimState::Rejected(crate::binding::class::AdmissionError::SeveralDefaults { count }) => format!(
                "admission refuses it: {count} default StorageClasses were found, and Kubernetes {} allows one",
                self.options.kube_version
            ),
        };
        match c.class_source {
            ClassSource::Admission => {
                why = format!(
                    "no storageClassName, so admission gives it {}; {why}",
                    self.default_label(c.class_name())
                )
            }
            ClassSource::Retroactive => {
                why = format!(
                    "no volume without class matched, so the controller gives it {}; {why}",
                    self.default_label(c.class_name())
                )
            }
            _ => {}
        }
        if let Some(r) = &c.race {
            why.push_str(&format!(
                "; claim {} took volume {} first: which claim gets it depends on the order the controller sees them",
                self.claim(r.winner).key,
                vname(&r.volume)
            ));
        }
        why
    }

    fn default_label(&self, name: &str) -> String {
        if name == super::load::ASSUMED_DEFAULT {
            "the cluster's default class (assumed to exist)".into()
        } else {
            format!("the default class \"{name}\"")
        }
    }

    /// Why a volume ends in its state, and what happens to its storage.
    pub fn volume_why(&self, id: VolumeId) -> String {
        let v = self.volume(id);
        let claim = |cr: &ClaimRef| cr.key.to_string();
        let state = match (v.phase, &v.claim_ref, &v.release) {
            (_, _, Some(Release::ClaimMissing)) => format!(
                "its claim {} does not exist, so the controller releases it",
                v.claim_ref.as_ref().map(claim).unwrap_or_default()
            ),
            (_, _, Some(Release::UidMismatch)) => format!(
                "its claimRef.uid is not the UID of claim {}, so the controller treats that claim as deleted",
                v.claim_ref.as_ref().map(claim).unwrap_or_default()
            ),
            (_, _, Some(Release::ClaimBoundElsewhere { other })) => {
                format!("its claim is bound to volume {other} and it was provisioned with Delete")
            }
            (VolumePhase::Bound, Some(cr), _) => format!("bound to {}", claim(cr)),
            (_, Some(cr), _) if cr.uid.is_empty() => match v.skipped_by_reserved_claim.as_deref() {
                Some((_, m)) => format!(
                    "reserved for {} by claimRef, but that claim skips it: {}",
                    claim(cr),
                    m.first().map(Mismatch::detail).unwrap_or_default()
                ),
                None => format!("reserved for {} by claimRef", claim(cr)),
            },
            (VolumePhase::Available, None, _) => "no claim binds it".into(),
            _ => String::new(),
        };
        let fate = v.storage.why(self, v);
        match (state.is_empty(), fate.is_empty()) {
            (true, _) => fate,
            (_, true) => state,
            _ => format!("{state}; {fate}"),
        }
    }

    /// The assumptions the run rests on.
    pub fn assumptions(&self) -> Vec<Assumption> {
        // Only assumptions some claim rests on.
        let used: std::collections::HashSet<&str> =
            self.claims().map(|(_, c)| c.class_name()).collect();
        let mut out: Vec<Assumption> = self
            .classes
            .iter()
            .filter(|c| used.contains(c.name.as_str()))
            .filter_map(|c| c.assumption().cloned())
            .collect();
        out.extend(self.static_only.values().cloned());
        out
    }
}
