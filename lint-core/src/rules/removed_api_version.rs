use super::prelude::*;

pub const RULE: Rule = Rule {
    id: "removed-api-version",
    family: Family::Validity,
    severity: Severity::Error,
    summary: "An object uses an API version the Kubernetes release no longer serves (extensions/v1beta1, apps/v1beta1, ...)",
    docs: Docs {
        what: "Finds objects whose `apiVersion` the release given by `--kube-version` (default 1.34) no longer \
               serves, from the Kubernetes deprecated API migration guide: the workloads of `extensions/v1beta1`, \
               `apps/v1beta1` and `apps/v1beta2` (removed in 1.16), `storage.k8s.io/v1beta1` StorageClasses and \
               CSIDrivers (1.22), `batch/v1beta1` CronJobs and `policy/v1beta1` (1.25), and the others of the \
               guide. One finding per object, and nothing else about it. The add-on API \
               `snapshot.storage.k8s.io/v1beta1` (VolumeSnapshot, VolumeSnapshotClass, VolumeSnapshotContent) is \
               judged by the cluster's CSI external-snapshotter release instead, which removed it in 6.0.",
        why: "The API server has no such resource: `kubectl apply` fails for the object (\"resource mapping not \
              found ... no matches for kind \\\"Deployment\\\" in version \\\"extensions/v1beta1\\\"\") and it never \
              exists. What the old version allowed (a Deployment without `selector`, defaulted from its labels) \
              and what the new one requires differ, so the object needs rewriting, not only a new apiVersion.",
        example: include_str!("../../tests/fixtures/removed-api-version/bad.yaml"),
        fix: "Use the replacement version the finding names and adapt the object to it (apps/v1 requires \
              `spec.selector` matching the template's labels).",
        fixed: include_str!("../../tests/fixtures/removed-api-version/good.yaml"),
        known_problems: "Judged for `--kube-version`: an older cluster may still serve the version. When another file \
                         of the input (another apply set) defines the same object at a served version, the file is \
                         taken for a variant kept for older clusters and the finding is informational.",
        grades: &[
            Grade {
                severity: Severity::Error,
                when: "an object's apiVersion is one the target Kubernetes (`--kube-version`, default 1.34) no \
                       longer serves",
                example: "bad.yaml",
            },
            Grade {
                severity: Severity::Error,
                when: "a snapshot.storage.k8s.io/v1beta1 VolumeSnapshot, VolumeSnapshotClass or \
                       VolumeSnapshotContent, on a cluster whose profile says external-snapshotter 6.0 or \
                       later (`snapshotter:`)",
                example: "bad-snapshot-v1beta1-known.yaml",
            },
            Grade {
                severity: Severity::Warning,
                when: "the same where the profile does not say the snapshotter's release: a current one \
                       (6.0 and later) is assumed, and the finding says so",
                example: "bad-snapshot-v1beta1.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Written,
};

/// The kinds of snapshot.storage.k8s.io whose v1beta1 the external-snapshotter stopped serving
/// in 6.0 (its CRDs: client/config/crd).
const SNAPSHOT_KINDS: &[&str] = &[
    "VolumeSnapshot",
    "VolumeSnapshotClass",
    "VolumeSnapshotContent",
];

/// snapshot.storage.k8s.io/v1beta1 objects: an add-on's API, served or not by the cluster's
/// external-snapshotter release (6.0 removed it), which the profile says or pvlint assumes.
fn snapshot_v1beta1(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    let snapshotter = ctx.profile.snapshotter.as_ref().map(|s| s.value);
    if snapshotter.is_some_and(|s| s.serves_v1beta1()) {
        return;
    }
    for (id, o) in ctx.index.objects.iter().enumerate() {
        if o.api_version != "snapshot.storage.k8s.io/v1beta1"
            || !SNAPSHOT_KINDS.contains(&o.kind.as_str())
        {
            continue;
        }
        let by = match snapshotter {
            Some(s) => format!("snapshotter {s} lacks it"),
            None => "gone since snapshotter 6.0".to_string(),
        };
        let mut consequence = Consequence::said(format!(
            "kubectl apply fails for it (no matches for kind \"{}\" in version \"{}\") and the object is never created: a claim whose dataSource names it is not restored from it",
            o.kind, o.api_version
        ));
        if snapshotter.is_none() {
            consequence = consequence.assuming(vec![Str::from(
                Assumption::SnapshotterWithoutV1beta1.describe(),
            )]);
        }
        sink.report(
            ctx,
            id,
            &o.key_field("apiVersion"),
            format!("{} {} uses {} ({by})", o.kind, o.name, o.api_version),
        )
        .consequence(consequence)
        .help("use apiVersion snapshot.storage.k8s.io/v1 (external-snapshotter 4.0 and later serve it; 6.0 removed v1beta1)");
    }
}

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    snapshot_v1beta1(ctx, sink);
    for &(id, removed) in &ctx.index.removed {
        let o = ctx.obj(id);
        let headline = format!(
            "{} {} uses {}, which Kubernetes {} no longer serves",
            o.kind, o.name, o.api_version, removed.removed_in
        );
        let field = o.key_field("apiVersion");
        // The input also defines the object at a served version (another file, applied on
        // its own): this one is a variant kept for older clusters.
        let variant = ctx
            .index
            .served()
            .find(|s| {
                s.kind == o.kind
                    && s.name == o.name
                    && s.namespace == o.namespace
                    && s.source != o.source
            })
            .or_else(|| {
                ctx.served_elsewhere
                    .iter()
                    .find(|s| {
                        s.kind == o.kind
                            && s.name == o.name
                            && s.namespace == o.namespace
                            && s.source != o.source
                    })
                    .cloned()
            });
        let mut summary = format!(
            "kubectl apply fails for it (no matches for kind \"{}\" in version \"{}\") and the object is never created; it is left out of the analysis",
            o.kind, o.api_version
        );
        if let Some(s) = &variant {
            summary.push_str(&format!(
                "; {} defines it with {}, so this file looks like a variant for clusters older than {} (--kube-version says which cluster pvlint checks for)",
                ctx.sources[s.source].name, s.api_version, removed.removed_in
            ));
        }
        let f = sink.report(ctx, id, &field, headline);
        if variant.is_some() {
            f.severity(Severity::Info);
        }
        f.consequence(Consequence::said(summary))
            .help(format!(
                "use apiVersion {} (removed in Kubernetes {}; see the Kubernetes deprecated API migration guide)",
                removed.replacement, removed.removed_in
            ));
    }
}
