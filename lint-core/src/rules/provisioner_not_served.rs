use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "provisioner-not-served",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A StorageClass names an in-tree provisioner that kube-controller-manager does not serve at this version",
    docs: Docs {
        what: "Finds StorageClasses whose provisioner is an in-tree `kubernetes.io/*` name that the PV controller \
               cannot provision with at the target version: plugins removed from Kubernetes (glusterfs from 1.26, \
               rbd from 1.31, cephfs, quobyte, storageos, scaleio, flocker), names that never provisioned \
               (`kubernetes.io/nfs`, `kubernetes.io/local-volume`, `kubernetes.io/csi`), the host-path provisioner \
               (off unless kube-controller-manager runs with `--enable-hostpath-provisioner`) and typos. Names CSI \
               migration serves (`kubernetes.io/aws-ebs`, `gce-pd`, `azure-disk`, `azure-file`, `cinder`, \
               `vsphere-volume`, `portworx-volume` from 1.31) and `kubernetes.io/no-provisioner` are not reported.",
        why: "`findProvisionablePlugin` fails for such a name, and unlike other names it is not left to an external \
              provisioner: every claim of the class that no existing volume satisfies stays `Pending` with Warning \
              `ProvisioningFailed` (\"no volume plugin matched name: kubernetes.io/rbd\"), retried forever.",
        example: include_str!("../../tests/fixtures/provisioner-not-served/bad.yaml"),
        fix: "Use the storage system's CSI driver (rbd.csi.ceph.com for Ceph RBD, cephfs.csi.ceph.com, the \
              Gluster or StorageOS CSI drivers, nfs.csi.k8s.io), or `kubernetes.io/no-provisioner` for static \
              volumes only.",
        fixed: include_str!("../../tests/fixtures/provisioner-not-served/good.yaml"),
        known_problems: "A cluster whose kube-controller-manager was built with the removed plugins, or runs with \
                         `--enable-hostpath-provisioner`, still provisions: say so with `--kube-version` if it is an \
                         older release.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "claims of the class stay Pending, and no volume outside the input can satisfy them (the \
                       input is the whole cluster: `--complete`, or a cluster state)",
                example: "bad-complete.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "claims of the class stay Pending unless the cluster holds a volume that fits them (an \
                       assumption the finding names), or the input has no claim of the class",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Info,
                when: "the provisioner is `kubernetes.io/host-path`, which provisions when \
                       kube-controller-manager runs with `--enable-hostpath-provisioner` (test clusters)",
                example: "bad-host-path.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    let version = ctx.options.kube_version;
    for sc in ctx.index.accepted_classes() {
        let Some(class) = w.class(&sc.name) else {
            continue;
        };
        let Some(error) = w.unserved_provisioner(class) else {
            continue;
        };
        let Some(p) = &sc.provisioner else { continue };
        if p.value == kube::NO_PROVISIONER {
            continue; // static volumes only, by design
        }
        let pending: Vec<ClaimId> = w
            .claims()
            .filter(|(_, c)| matches!(&c.state, ClaimState::Pending(Pending::ProvisionerUnavailable { class, .. }) if *class == sc.name))
            .map(|(id, _)| id)
            .collect();
        let mut cons = match pending.first() {
            Some(&c) => ctx.claim_consequence(c),
            None => Consequence::said(Str::default()),
        };
        let names: Vec<String> = pending
            .iter()
            .map(|&c| w.claim(c).key.to_string())
            .collect();
        cons.summary = if names.is_empty() {
            Str::from(format!("on Kubernetes {version}, a claim of this class that no existing volume satisfies stays Pending (Warning ProvisioningFailed \"{error}\")"))
        } else {
            Str::from(format!("on Kubernetes {version}, claims of this class stay Pending (Warning ProvisioningFailed \"{error}\"): {}", names.join(", ")))
        };
        // The host-path provisioner exists, but only for test clusters that turn it on.
        let host_path = p.value == "kubernetes.io/host-path";
        let headline = if host_path {
            format!(
                "StorageClass {}: kubernetes.io/host-path provisions only if turned on",
                sc.name
            )
        } else {
            format!(
                "StorageClass {}: Kubernetes {version} has no provisioner {}",
                sc.name, p.value
            )
        };
        if host_path {
            cons.assumptions.push("kube-controller-manager runs without --enable-hostpath-provisioner (its default; test clusters may turn it on)".into());
        }
        let f = sink.report(ctx, sc.obj, &p.field, headline);
        f.severity(if host_path {
            Severity::Info
        } else if names.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        })
            .consequence(cons)
            .root_cause(CauseKey::ProvisionerUnavailable { class: Str::from(&sc.name) })
            .help("use the storage system's CSI driver, or kubernetes.io/no-provisioner for static volumes only");
        if let Some(csi) = replacement(&p.value) {
            f.suggest_replace(format!("use the CSI driver {csi}"), p.field.span, csi);
        }
    }
}

/// The CSI driver that replaces a removed in-tree provisioner.
fn replacement(provisioner: &str) -> Option<&'static str> {
    Some(match provisioner {
        "kubernetes.io/rbd" => "rbd.csi.ceph.com",
        "kubernetes.io/cephfs" => "cephfs.csi.ceph.com",
        _ => return None,
    })
}
