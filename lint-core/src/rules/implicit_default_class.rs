use super::prelude::*;
use crate::sim;

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
        known_problems: "Without `--cluster-state` pvlint assumes the cluster has a default StorageClass (almost all do) and \
                         says so; `--no-default-class` tells it the cluster has none.",
    },
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let w = ctx.sim;
    let version = ctx.options.kube_version;
    // Free volumes without a class (one reserved for a claim binds it whatever its class).
    let classless: Vec<VolumeId> = w
        .volumes()
        .filter(|(_, v)| {
            v.spec.class.is_empty() && v.claim_ref.is_none() && v.phase == VolumePhase::Available
        })
        .map(|(id, _)| id)
        .collect();
    if classless.is_empty() {
        return;
    }
    let mut memo = std::collections::HashMap::new();
    for (id, c) in w.claims() {
        if !matches!(
            c.class_source,
            sim::ClassSource::Admission | sim::ClassSource::Retroactive
        ) {
            continue;
        }
        let Some(view) = ctx.view_of(id) else {
            continue;
        };
        if view.volume_name.is_some() {
            continue;
        }
        if w.binding_of(id)
            .is_some_and(|v| w.volume(v).spec.class.is_empty())
        {
            continue;
        }
        // The class-less volume it was meant for: it fits but for the class (size aside), and
        // it is written beside the claim (same folder) or chosen by its selector.
        let dir = std::path::Path::new(ctx.sources[ctx.obj(view.obj).source].name.as_str())
            .parent()
            .map(|p| p.to_path_buf());
        let claim_source = ctx.obj(view.obj).source;
        let find = |dir: Option<&std::path::Path>| {
            classless.iter().copied().find(|&v| {
                let volume_source = w
                    .volume(v)
                    .origin
                    .manifest_object()
                    .map(|o| ctx.obj(o).source);
                let beside = c.spec.selector.is_some()
                    || volume_source.is_some_and(|s| {
                        std::path::Path::new(ctx.sources[s].name.as_str()).parent() == dir
                    });
                // Written in the same file, the pair is meant for each other even if the size
                // is wrong (the consequence says so); across files only a volume that fits.
                let same_file = volume_source == Some(claim_source);
                beside
                    && crate::binding::fit::match_failures(&w.volume(v).spec, &c.spec, "", version)
                        .iter()
                        .all(|m| m.check() == Check::Capacity && same_file)
            })
        };
        let intended = match c.spec.selector {
            None => *memo
                .entry((
                    c.spec.modes,
                    c.spec.volume_mode,
                    dir.clone(),
                    claim_source,
                    c.spec.request.as_ref().map(|q| q.to_string()),
                ))
                .or_insert_with(|| find(dir.as_deref())),
            Some(_) => find(dir.as_deref()),
        };
        let Some(pv_id) = intended else { continue };
        let pv = w.volume(pv_id);
        let field = view.spec_field(ctx.obj(view.obj));
        let f = sink.report(
            ctx,
            view.obj,
            &field,
            format!(
                "claim {} gets the default class, not class-less volume {}",
                c.key, pv.name
            ),
        );
        let mut cons = ctx.claim_consequence(id);
        if let (Some(cap), Some(req)) = (&pv.spec.capacity, &c.spec.request) {
            if cap < req {
                cons.summary.push_str(&format!(
                    " ({} is too small anyway: {cap} for a {req} request)",
                    pv.name
                ));
            }
        }
        if let Some(o) = pv.origin.manifest_object() {
            let po = ctx.obj(o);
            f.related(
                ctx,
                o,
                &po.whole(),
                format!("volume {} has no class", pv.name),
            );
        }
        // The default class, when the input defines it.
        if let Some(crate::sim::ClassKnowledge::Defined(Side::Manifest, o)) =
            w.class(c.class_name()).map(|k| &k.knowledge)
        {
            let co = ctx.obj(*o);
            f.related(ctx, *o, &co.whole(), "the default class");
        }
        f.consequence(cons)
            .root_cause(CauseKey::ImplicitDefault(ctx.subject_of(view)))
            .help("an explicit storageClassName: \"\" is not defaulted, and binds only volumes without a class")
            .suggest("ask for a volume without class explicitly", Some("storageClassName: \"\""));
    }
}
