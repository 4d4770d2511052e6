use super::prelude::*;
use crate::facts::claim_view;
use crate::sim::SimPv;

pub const RULE: Rule = Rule {
    id: "implicit-default-class",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim without storageClassName is meant for a class-less static volume, but admission gives it the default class",
    docs: Docs {
        what: "Finds claims that leave `storageClassName` out while a volume without a class is there for them \
               (matching access modes and volumeMode). On any cluster with a default StorageClass — almost all of \
               them — the DefaultStorageClass admission plugin fills in that class when the claim is created.",
        why: "The controller only binds a claim to a volume of the same class, and \"\" is a class of its own: the \
              defaulted claim never binds the class-less volume. It gets a new volume from the default class \
              instead (an empty disk where data was expected), or, if that class cannot provision, stays \
              `Pending`.",
        example: include_str!("../../tests/fixtures/implicit-default-class/bad.yaml"),
        fix: "Write `storageClassName: \"\"` on the claim: an explicit empty class is not defaulted.",
        fixed: include_str!("../../tests/fixtures/implicit-default-class/good.yaml"),
    },
    check,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
        let w = ctx.sim;
    // Free volumes without a class (one reserved for a claim binds it whatever its class).
    let classless: Vec<&SimPv> = w.pvs.iter().filter(|p| p.class.is_empty() && p.claim_ref.is_none()).collect();
    let mut memo = std::collections::HashMap::new();
    for c in &w.claims {
        if !c.class_defaulted
            || c.volume_name.as_ref().is_some_and(|v| c.phase != ClaimPhase::Bound || w.pv(v).is_some_and(|p| p.class.is_empty()))
        {
            continue;
        }
        let Some(view) = claim_view(ctx.index, &c.origin) else { continue };
        if !matches!(view.class, ClaimClass::Unset) || view.volume_name.is_some() {
            continue;
        }
                let find = || {
            classless.iter().copied().find(|p| {
                p.modes.contains(c.modes)
                    && p.volume_mode == c.volume_mode
                    && c.selector.as_ref().is_none_or(|s| s.matches(&p.labels))
            })
        };
        let intended = match c.selector {
            None => *memo.entry((c.modes, c.volume_mode)).or_insert_with(find),
            Some(_) => find(),
        };
        let Some(pv) = intended else { continue };
        let default = c.class.clone().unwrap_or_default();
        let default_desc = if default == crate::sim::ASSUMED_DEFAULT {
            "the cluster's default class".to_string()
        } else {
            format!("the default class \"{default}\"")
        };
        let outcome = match (c.phase, c.volume_name.as_ref()) {
            (ClaimPhase::Bound, Some(v)) if w.pv(v).is_some_and(|p| p.origin == Origin::Provisioned) => {
                if ctx.index.class(&default).is_some() {
                    format!("it gets a newly provisioned, empty volume from that class instead of {}", pv.name)
                } else {
                    format!(
                        "it never binds {}: it gets a newly provisioned, empty volume from that class instead (or stays Pending, if that class provisions nothing)",
                        pv.name
                    )
                }
            }
            (ClaimPhase::Bound, Some(v)) => format!("it binds {v} from that class instead of {}", pv.name),
            _ => format!("it never binds {}, and stays Pending", pv.name),
        };
        let mut msg = format!(
            "claim {}/{} has no storageClassName and the volume {} has no class: admission gives the claim {default_desc}, so {outcome}",
            c.namespace, c.name, pv.name
        );
        if let (Some(cap), Some(req)) = (&pv.capacity, &c.request) {
            if cap < req {
                msg.push_str(&format!(" (and {} is too small anyway: {cap} for a {req} request)", pv.name));
            }
        }
        let field = ctx.obj(view.obj).key_field(&format!("{}spec", view.prefix));
        sink.report(ctx, view.obj, &field, msg)
            .root_cause(format!("implicit-default:{}", facts::claim_key(view)))
            .help("an explicit storageClassName: \"\" is not defaulted, and binds only volumes without a class")
            .suggest("ask for a volume without class explicitly", Some("storageClassName: \"\"".into()));
    }
}
