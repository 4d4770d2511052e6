use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "claim-pending",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "Live cluster: a claim is Pending and stays so, and why (from the simulation)",
    docs: Docs {
        what: "Runs on a live cluster's objects (`pvlint cluster`). Simulates the PV controller over the cluster's \
               state and reports every claim that is `Pending` and stays `Pending`: the class does not exist, \
               its provisioner is not served, the volume it names does not exist, does not fit or is taken, or no \
               volume matches and nothing provisions one. It names the closest volume and the first check it \
               fails. A claim waiting for its first consumer, or one a running provisioner will satisfy, is not \
               reported.",
        why: "Pods using a Pending claim stay Pending (\"pod has unbound immediate PersistentVolumeClaims\") and \
              nothing changes until someone adds a volume that fits or a StorageClass that provisions one.",
        example: include_str!("../../tests/fixtures/claim-pending/bad.yaml"),
        fix: "Do what the reason says: create the StorageClass, fix the claim's class, size, access modes or \
              volumeMode to fit a volume (claims are immutable: re-create it), or add a volume that fits.",
        fixed: include_str!("../../tests/fixtures/claim-pending/good.yaml"),
        known_problems: "pvlint assumes a StorageClass's provisioner is running: a claim Pending because the external \
                         provisioner is down or failing (Normal ExternalProvisioning, Warning ProvisioningFailed from \
                         the driver) is predicted Bound and not reported.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim of the live cluster is Pending and stays so: its class does not exist, its \
                       provisioner is not served, the volume it names is missing, does not fit or is taken, or \
                       no volume matches and nothing provisions one",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Cluster,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(live_state) = ctx.live else {
        return;
    };
    let w = ctx.sim;
    for pvc in &ctx.index.pvcs {
        // Only claims the cluster reports Pending (a Bound or Lost claim is not re-judged here).
        let live = pvc.meta.phase.as_ref().map(|p| p.value.as_str());
        if live.is_some_and(|p| p != "Pending") {
            continue;
        }
        let Some(id) = ctx.claim_of(pvc.obj) else {
            continue;
        };
        let c = w.claim(id);
        let ClaimState::Pending(p) = &c.state else {
            continue;
        };
        if matches!(p, Pending::New | Pending::WaitForFirstConsumer { .. }) {
            continue;
        }
        let (field, candidate) = match w.closest_volume(id) {
            Some((v, fails)) => (
                ctx.claim_field(pvc, fails[0].check()),
                Some(format!(
                    "the closest volume, {}, fails the {} check: {}",
                    w.volume(v).name,
                    fails[0].check(),
                    fails[0].detail()
                )),
            ),
            None => (ctx.claim_field(pvc, Check::Class), None),
        };
        let mut cons = ctx.claim_consequence(id);
        if let Some(cand) = candidate {
            cons.summary = Str::from(format!("{}; {cand}", cons.summary));
        }
        let users: Vec<String> = ctx
            .live
            .map(|l| {
                l.pods_using(&c.key.namespace, &c.key.name)
                    .filter(|p| !p.phase.finished())
                    .map(|p| p.name.to_string())
                    .collect()
            })
            .unwrap_or_default();
        let headline = format!("claim {} stays Pending", c.key);
        let f = sink.report(ctx, pvc.obj, &field, headline);
        f.consequence(cons).recorded(
            live_state,
            "PersistentVolumeClaim",
            &c.key.namespace,
            &c.key.name,
        );
        if let Some(key) = w.cause_of_claim(id) {
            f.consequence_of(key);
        }
        let mut help = p.help(w).text;
        if !users.is_empty() {
            help.push_str(&format!("; pods waiting for it: {}", users.join(", ")));
        }
        f.help(help);
    }
}
