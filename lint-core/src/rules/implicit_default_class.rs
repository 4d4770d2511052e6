use std::collections::HashMap;

use super::prelude::*;
use crate::sim;

pub const RULE: Rule = Rule {
    id: "implicit-default-class",
    family: Family::Binding,
    severity: Severity::Error,
    summary: "A claim without storageClassName is meant for a class-less static volume, but admission gives it the default class",
    docs: Docs {
        what: "Finds claims that leave `storageClassName` out while a volume without a class is there for them: \
               in the same file (matching access modes and volumeMode), or in the same folder with a name that \
               shares a word with the claim's (`mongodb-pv` for `mongodb-pvc`) and that fits it, or chosen by \
               the claim's selector. A class-less volume of the apply set that fits the claim whole, written \
               elsewhere under an unrelated name (a tutorial's `claim-http` for `nfs-0001`), is taken for it \
               too, as an assumption the finding names. On any cluster with a default StorageClass — almost all of them — the \
               DefaultStorageClass admission plugin fills in that class when the claim is created.",
        why: "The controller only binds a claim to a volume of the same class, and \"\" is a class of its own: the \
              defaulted claim never binds the class-less volume. It gets a new volume from the default class \
              instead (an empty disk where data was expected), or, if that class cannot provision, stays \
              `Pending`.",
        example: include_str!("../../tests/fixtures/implicit-default-class/bad.yaml"),
        fix: "Write `storageClassName: \"\"` on the claim: an explicit empty class is not defaulted.",
        fixed: include_str!("../../tests/fixtures/implicit-default-class/good.yaml"),
        known_problems: "Without `--cluster-state` pvlint takes the cluster profile's word that the cluster has a default \
                         StorageClass (almost all do); `--default-class NAME` names it, `--no-default-class` tells it \
                         the cluster has none. That a volume is meant for a claim is \
                         read from where and how they are written; a volume for another purpose that happens to \
                         share a word with a claim's name can be taken for it.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "a claim without `storageClassName` has a class-less volume meant for it, on a cluster \
                       with a default StorageClass (the default profile's, `--default-class`, or one the input \
                       or the cluster state marks default)",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "no class-less volume is written beside the claim, but one of the apply set fits it \
                       whole and stays Available: that it was meant for the claim is an assumption",
                example: "bad-unrelated-names.yaml",
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
    let version = ctx.options.target();
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
    // Where to look for the volume a claim is meant for: the volumes of its file, and those
    // whose names share a word with it (no scan of every volume for every claim).
    let source_of = |v: VolumeId| {
        w.volume(v)
            .origin
            .manifest_object()
            .map(|o| ctx.obj(o).source)
    };
    let mut by_source: HashMap<usize, Vec<VolumeId>> = HashMap::new();
    let mut by_word: HashMap<String, Vec<VolumeId>> = HashMap::new();
    for &v in &classless {
        if let Some(s) = source_of(v) {
            by_source.entry(s).or_default().push(v);
        }
        for word in name_words(&w.volume(v).name) {
            by_word.entry(word).or_default().push(v);
        }
    }
    // A StatefulSet template's claims are one finding, on the template.
    let mut templates_seen = std::collections::HashSet::new();
    // The class-less volumes of the input that fit a claim of a shape whole.
    type Shape = (AccessModes, Option<String>, kube::VolumeMode, Str);
    let mut fitting: HashMap<Shape, Vec<VolumeId>> = HashMap::new();
    for (id, c) in w.claims() {
        if !matches!(
            c.class_source,
            sim::ClassSource::Admission | sim::ClassSource::Retroactive
        ) {
            continue;
        }
        if let Some(t) = &c.template_of {
            if templates_seen.contains(&(t.statefulset.clone(), t.template.clone())) {
                continue;
            }
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
        // The class-less volume it was meant for: one written beside it (in its file, or in its
        // folder with a name that shares a word with it), or chosen by its selector, that fits
        // it but for the class. Written in the same file, the pair is meant for each other even
        // if the size is wrong (the consequence says so).
        let claim_source = ctx.obj(view.obj).source;
        let dir = |s: usize| std::path::Path::new(ctx.sources[s].name.as_str()).parent();
        let mut candidates: Vec<VolumeId> =
            match c.spec.selector {
                Some(_) => classless.clone(),
                None => {
                    let mut words = name_words(&c.key.name);
                    if let Some(t) = &c.template_of {
                        words.extend(name_words(&t.statefulset));
                    }
                    let mut found: Vec<VolumeId> =
                        by_source.get(&claim_source).cloned().unwrap_or_default();
                    for word in words {
                        found.extend(by_word.get(&word).into_iter().flatten().copied().filter(
                            |&v| source_of(v).is_some_and(|s| dir(s) == dir(claim_source)),
                        ));
                    }
                    found
                }
            };
        candidates.sort_unstable();
        candidates.dedup();
        // A folder whose claims ask for no class with `storageClassName: ""` shows how its
        // author binds class-less volumes: a claim there without one is left to the default
        // class on purpose (a dynamic-provisioning example beside a static one).
        let explicit_here = ctx
            .index
            .explicit_no_class
            .iter()
            .any(|&s| s != claim_source && dir(s) == dir(claim_source));
        let intended: Vec<VolumeId> = candidates
            .into_iter()
            .filter(|&v| {
                let same_file = source_of(v) == Some(claim_source);
                if !same_file && c.spec.selector.is_none() && explicit_here {
                    return false;
                }
                crate::binding::fit::match_failures(&w.volume(v).spec, &c.spec, "", version)
                    .iter()
                    .all(|m| m.check() == Check::Capacity && same_file)
            })
            .collect();
        // None written beside it: any class-less volume of the apply set that fits it whole
        // (what the simulation shows: the claim gets a new volume, that one stays Available).
        // That it was meant for the claim is then an assumption, named, and a warning. Found
        // once per claim shape, not by a scan of the volumes per claim.
        let (intended, unrelated) =
            if intended.is_empty() && c.spec.selector.is_none() && !explicit_here {
                let shape = (
                    c.spec.modes,
                    c.spec.request.as_ref().map(|q| q.to_string()),
                    c.spec.volume_mode,
                    c.spec.attributes_class.clone(),
                );
                let fits = fitting.entry(shape).or_insert_with(|| {
                    classless
                        .iter()
                        .copied()
                        .filter(|&v| {
                            source_of(v).is_some()
                                && crate::binding::fit::match_failures(
                                    &w.volume(v).spec,
                                    &c.spec,
                                    "",
                                    version,
                                )
                                .is_empty()
                        })
                        .collect()
                });
                (fits.clone(), true)
            } else {
                (intended, false)
            };
        let Some(&pv_id) = intended.first() else {
            continue;
        };
        let pv = w.volume(pv_id);
        let field = view.spec_field(ctx.obj(view.obj));
        let headline = match &c.template_of {
            Some(t) => {
                templates_seen.insert((t.statefulset.clone(), t.template.clone()));
                let names: Vec<&str> = intended
                    .iter()
                    .map(|&v| w.volume(v).name.as_str())
                    .collect();
                format!(
                    "StatefulSet {}'s claims ({}) get the default class, not class-less {} {}",
                    t.statefulset,
                    t.template,
                    if names.len() == 1 {
                        "volume"
                    } else {
                        "volumes"
                    },
                    match names.len() {
                        1 | 2 => names.join(" and "),
                        n => format!("{} and {} more", names[0], n - 1),
                    }
                )
            }
            None => format!(
                "claim {} gets the default class, not class-less volume {}",
                c.key, pv.name
            ),
        };
        let f = sink.report(ctx, view.obj, &field, headline);
        let mut cons = ctx.claim_consequence(id);
        if unrelated {
            f.severity(Severity::Warning);
            cons.assumptions.push(Str::from(
                Assumption::MeantFor {
                    claim: Str::from(c.key.to_string()),
                    volume: pv.name.clone(),
                }
                .describe(),
            ));
        }
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

/// The words of a name that say what it is for (`data-consul-0` → `consul`), leaving out those
/// every claim or volume has (`data`, `pv`, `volume`, ...) and numbers.
fn name_words(name: &str) -> Vec<String> {
    const GENERIC: &[&str] = &[
        "pv",
        "pvc",
        "vol",
        "volume",
        "volumes",
        "claim",
        "data",
        "storage",
        "disk",
        "persistent",
        "local",
        "nfs",
        "test",
        "example",
        "demo",
        "www",
    ];
    // Words are runs of letters or of digits (`pvc0001` is `pvc` and `0001`); a number
    // counts when it is long enough to be a label rather than an ordinal.
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut digits = false;
    for c in name.chars().chain(std::iter::once('-')) {
        let alnum = c.is_ascii_alphanumeric();
        if (!alnum || c.is_ascii_digit() != digits) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if alnum {
            digits = c.is_ascii_digit();
            word.push(c.to_ascii_lowercase());
        }
    }
    words.retain(|w| {
        let number = w.bytes().all(|b| b.is_ascii_digit());
        (if number { w.len() >= 3 } else { w.len() >= 2 }) && !GENERIC.contains(&w.as_str())
    });
    words
}

#[cfg(test)]
mod tests {
    use super::name_words;

    #[test]
    fn the_words_a_name_is_for() {
        assert_eq!(name_words("data-consul-0"), ["consul"]);
        assert_eq!(name_words("pvc0001"), ["0001"]);
        assert_eq!(name_words("mongodb-pv"), ["mongodb"]);
        assert_eq!(name_words("my-pvc-"), ["my"]);
        assert!(name_words("www-web-0").contains(&"web".to_string()));
    }
}
