use super::prelude::*;
use crate::model::DiagKind;

pub const RULE: Rule = Rule {
    id: "unrendered-template",
    family: Family::Validity,
    severity: Severity::Info,
    summary: "A file is an unrendered template (Helm/Go, envsubst, @VAR@, Kustomize replacements) or a Kustomize patch: render it, then lint",
    docs: Docs {
        what: "Finds files that are templates rather than manifests: Helm and other Go templates \
               (`{{ .Values.x }}`), envsubst placeholders (`${VAR}`, `$VAR`) and `@VAR@` markers, in fields \
               pvlint reads or where they keep the file from parsing as YAML; and files that a `kustomization.yaml` \
               in the input names under `patches`, `patchesStrategicMerge`, `patchesJson6902`, a generator's \
               `files`/`envs` or `helmCharts[].valuesFile` (paths resolved from the kustomization's folder, as \
               kustomize does); fields a kustomization's `replacements` overwrite (their values as written \
               are placeholders); objects a patch of a kustomization in the same apply set changes (a \
               strategic-merge patch naming their kind and name, a patch's `target:`, or a patch file the \
               input lacks); and placeholders where every built-in type wants an integer \
               (`runAsUser: $UID`), which kubectl cannot decode as written. One note per file, and no other \
               finding on a template's documents.",
        why: "A template is not what reaches the API server: its placeholders are not values and its template \
              syntax is not YAML. pvlint reads what it can, treats placeholders as unknown, and says how to \
              lint what the cluster will really get instead of reporting them as errors.",
        example: include_str!("../../tests/fixtures/unrendered-template/bad.yaml"),
        fix: "Render the template and lint the output: `helm template RELEASE CHART | pvlint lint -`, \
              `envsubst < FILE | pvlint lint -`, or `kubectl kustomize DIR | pvlint lint -`.",
        fixed: include_str!("../../tests/fixtures/unrendered-template/good.yaml"),
        known_problems: "A `{{ }}` or `${...}` inside a value pvlint does not read (a container command, a \
                         ConfigMap's data) is not a placeholder for it and is not reported. A Kustomize patch is \
                         recognised only when its kustomization file is in the same run (lint the folder, not the \
                         patch alone).",
        grades: &[
            Grade {
                severity: Severity::Info,
                when: "a file is a template (Helm/Go, envsubst, `@VAR@`, fields a kustomization's `replacements` \
                       overwrite) or a Kustomize patch or generator input: one note per file",
                example: "bad.yaml",
            },
        ],
    },
    scope: Scope::Manifests,
    since: "0.1.0",
    check,
    reads: Reads::Simulation,
};

fn check(ctx: &Context<'_>, sink: &mut Sink<'_>) {
    for d in &ctx.index.diags {
        match d.kind {
            DiagKind::Template(crate::template::Kind::Patched) => {
                let f = sink.report_diag(ctx.sources, d);
                f.message = Str::from_static(
                    "a Kustomize patch changes this object: it is left out of the analysis",
                );
                f.help = Str::from_static(crate::template::Kind::Patched.how_to_render());
                f.consequence = Some(Box::new(Consequence::said("kubectl applies it with the patch merged in; pvlint does not merge patches, so it (and a claim of a class or volume so left out) is not judged as written")));
            }
            DiagKind::Template(kind) => {
                let f = sink.report_diag(ctx.sources, d);
                f.message = Str::from(format!(
                    "unrendered {}: lint what it renders to",
                    kind.name()
                ));
                f.help = Str::from_static(kind.how_to_render());
                f.consequence = Some(Box::new(Consequence::said("objects with placeholders in the fields pvlint reads are left out of the analysis, and template syntax is not reported as YAML errors; the rendered output is what the cluster gets")));
            }
            DiagKind::KustomizeInput {
                kustomization,
                field,
                at,
            } => {
                let k = &ctx.sources[kustomization].name;
                let f = sink.report_diag(ctx.sources, d);
                f.message = Str::from(format!(
                    "Kustomize {}: lint what the overlay renders to",
                    if field.starts_with("patches") {
                        "patch"
                    } else {
                        "generator input"
                    }
                ));
                f.help = "lint the rendered overlay, e.g. `kubectl kustomize DIR | pvlint lint -`"
                    .into();
                f.consequence = Some(Box::new(Consequence::said(
                    if field.starts_with("patches") {
                        Str::from(format!("{k} uses this file under `{field}`: kustomize merges it into the object it names and never applies it as written; pvlint reads that object as written when the input has it, else takes a complete patch for the object and leaves a partial one out"))
                    } else {
                        Str::from(format!("{k} uses this file under `{field}`: it is an input of kustomize, not an object, so pvlint does not read it as objects"))
                    },
                )));
                f.related.push(crate::finding::Related {
                    message: Str::from(format!("listed under `{field}`")),
                    location: crate::finding::Location::new(kustomization, k, 0, at),
                });
            }
            _ => {}
        }
    }
}
