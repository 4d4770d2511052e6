use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "invalid-nfs-server",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "An NFS volume's server is neither an IP address nor a DNS name",
    docs: Docs {
        what: "Checks `spec.nfs.server` of PersistentVolumes: it must be a valid IPv4 or IPv6 address or a DNS \
               name (no port, no path). An all-numeric dotted name must be a real IPv4 address, so \
               `172.16.51.58.1` is reported.",
        why: "The API server does not validate the address, so the PV is accepted and even binds. Every mount \
              then fails: pods using the volume stay in ContainerCreating (Warning `FailedMount`), and a Recycle \
              of the volume fails, leaving the PV `Failed`.",
        example: include_str!("../../tests/fixtures/invalid-nfs-server/bad.yaml"),
        fix: "Write the NFS server's IP address or host name, and put the export path in `nfs.path`.",
        fixed: include_str!("../../tests/fixtures/invalid-nfs-server/good.yaml"),
        known_problems: "A short host name (`nas01`) is accepted: pvlint cannot know whether the nodes resolve it.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a PersistentVolume's `nfs.server` is neither an IP address nor a DNS name",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Both,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    // A volume the API server rejects is never created: its only findings say why.
    for pv in ctx.index.accepted_pvs() {
        let Some(server) = pv.source.as_ref().and_then(|s| s.server.as_ref()) else {
            continue;
        };
        let Some(problem) = kube::nfs_server_problem(&server.value) else {
            continue;
        };
        sink.report(
            ctx,
            pv.obj,
            &server.field,
            format!("PersistentVolume {} has NFS server \"{}\", which is not an address", pv.name, server.value),
        )
        .consequence(Consequence::said(format!(
                "{problem}: the API server accepts it, but every mount fails (pods stay ContainerCreating with Warning FailedMount) and a Recycle of it leaves the PV Failed"
            )))
        .help("write the server's IP address (four numbers 0-255) or DNS name; the export path goes in nfs.path");
    }
}
