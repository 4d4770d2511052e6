//! Workload validation: rolling updates, selectors, pod templates (pkg/apis/apps).

use super::{at, is_dns_subdomain, reject};
use crate::model::{Object, Reader, WorkloadKind};
use crate::node::{Node, ScalarKind};

/// apimachinery's `IsValidPercent` message (pkg/util/validation), as the API server words it.
pub(crate) const INVALID_PERCENT: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// `IsValidPercent`: `^[0-9]+%$`, and its number.
pub(crate) fn valid_percent(s: &str) -> Option<i64> {
    s.strip_suffix('%')
        .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
}

/// An IntOrString as written: (is a valid percentage, its value). An invalid string counts
/// as `IntValue()` does: the number it parses as, else 0 (`getIntOrPercentValue`).
fn int_or_percent(n: &Node) -> Option<(bool, i64)> {
    let s = n.as_scalar()?;
    match s.kind {
        ScalarKind::Int => crate::model::parse_int(&s.text).map(|v| (false, v)),
        ScalarKind::Str => Some(match valid_percent(&s.text) {
            Some(v) => (true, v),
            None => (false, s.text.parse().unwrap_or(0)),
        }),
        _ => None,
    }
}

/// A value as the API server shows it after `Invalid value: ` (field.Invalid): strings
/// quoted, numbers and booleans bare, maps and lists as JSON.
pub(crate) fn shown(n: &Node) -> String {
    crate::value::convert(n).to_string()
}

/// `ValidatePositiveIntOrPercent` (integers; strings are the typed reader's), and
/// `IsNotMoreThan100Percent`.
fn rolling_value(r: &mut Reader<'_>, path: &str, at_most_100: bool) {
    let obj = r.obj;
    let Some(n) = obj.root().at(path).filter(|n| !n.is_null()) else {
        return;
    };
    let Some((pct, v)) = int_or_percent(n) else {
        return;
    };
    let field = at(obj, path);
    if !pct && v < 0 && n.as_scalar().is_some_and(|s| s.kind == ScalarKind::Int) {
        reject(
            r,
            field.clone(),
            format!("{path}: Invalid value: {v}: must be greater than or equal to 0"),
            "use 0 or more",
        );
    }
    if at_most_100 && pct && v > 100 {
        reject(
            r,
            field,
            format!(
                "{path}: Invalid value: {}: must not be greater than 100%",
                shown(n)
            ),
            "use at most 100%",
        );
    }
}

fn is_zero(n: Option<&Node>, default_zero: bool) -> bool {
    match n.filter(|n| !n.is_null()).and_then(int_or_percent) {
        Some((_, v)) => v == 0,
        None => default_zero,
    }
}

/// `ValidateRollingUpdateDeployment`: both values may not be 0 (SetDefaults_Deployment makes
/// an unset one 25%; an invalid string counts as 0).
fn deployment_rolling_update(r: &mut Reader<'_>) {
    let obj = r.obj;
    let root = obj.root();
    let ty = root.at("spec.strategy.type").and_then(Node::as_str);
    if ty.is_some_and(|t| t != "RollingUpdate") {
        return;
    }
    rolling_value(r, "spec.strategy.rollingUpdate.maxUnavailable", true);
    rolling_value(r, "spec.strategy.rollingUpdate.maxSurge", false);
    let ru = root.at("spec.strategy.rollingUpdate");
    let unavailable = ru
        .and_then(|n| n.get("maxUnavailable"))
        .filter(|n| !n.is_null());
    let surge = ru.and_then(|n| n.get("maxSurge")).filter(|n| !n.is_null());
    if let Some(u) = unavailable {
        if is_zero(Some(u), false) && is_zero(surge, false) {
            let path = "spec.strategy.rollingUpdate.maxUnavailable";
            reject(
                r,
                at(obj, path),
                format!(
                    "{path}: Invalid value: {}: may not be 0 when `maxSurge` is 0",
                    shown(u)
                ),
                "set maxUnavailable: 1 (old pod stops first) or use strategy type Recreate",
            );
        }
    }
}

/// Workloads: selectors, rolling-update values, pod volumes.
pub(crate) fn workload(obj: &Object, kind: WorkloadKind, creates: bool, r: &mut Reader<'_>) {
    use crate::model::WorkloadKind as K;
    let root = obj.root();
    if kind == K::Job && creates {
        generated_selector(obj, r);
    }
    match kind {
        K::Deployment => deployment_rolling_update(r),
        K::DaemonSet => {
            let ty = root
                .at("spec.updateStrategy.type")
                .and_then(Node::as_str)
                .unwrap_or("RollingUpdate");
            if ty == "RollingUpdate" {
                // ValidateRollingUpdateDaemonSet: both are checked against 100%.
                rolling_value(r, "spec.updateStrategy.rollingUpdate.maxSurge", true);
                rolling_value(r, "spec.updateStrategy.rollingUpdate.maxUnavailable", true);
                let ru = root.at("spec.updateStrategy.rollingUpdate");
                // Defaults: maxUnavailable 1, maxSurge 0; exactly one may be non-zero, so
                // writing only maxSurge is rejected.
                let surge_zero = is_zero(ru.and_then(|n| n.get("maxSurge")), true);
                let unavailable_zero = is_zero(ru.and_then(|n| n.get("maxUnavailable")), false);
                if !surge_zero && !unavailable_zero {
                    reject(r, at(obj, "spec.updateStrategy.rollingUpdate.maxSurge"), "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: may not be set when maxUnavailable is non-zero (maxUnavailable defaults to 1)".into(), "with maxSurge, set maxUnavailable: 0");
                }
                if surge_zero && unavailable_zero {
                    reject(r, at(obj, "spec.updateStrategy.rollingUpdate"), "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0".into(), "set maxUnavailable: 1 (the default) or maxSurge: 1");
                }
            }
        }
        K::StatefulSet => {
            // ValidateStatefulSetName: a DNS-1123 label (no dots, at most 63 characters).
            let n = obj.name.as_str();
            let label = !n.is_empty() && n.len() <= 63 && is_dns_subdomain(n) && !n.contains('.');
            if !n.is_empty() && !label {
                reject(r, at(obj, "metadata.name"), format!("metadata.name: Invalid value: \"{n}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"), "StatefulSet names are DNS labels: no dots, at most 63 characters");
            }
        }
        _ => {}
    }
    // restartPolicy of pod templates.
    let rp_path = format!("{}.restartPolicy", kind.pod_spec_path());
    let rp = root.at(&rp_path).and_then(Node::as_str);
    match kind {
        K::Job | K::CronJob if rp.is_none_or(|p| p == "Always") => {
            reject(
                r,
                at(obj, &rp_path),
                format!("{rp_path}: Required value: valid values: \"OnFailure\", \"Never\""),
                "a Job's pods need restartPolicy: OnFailure or Never",
            );
        }
        K::Deployment | K::StatefulSet | K::DaemonSet | K::ReplicaSet => {
            if let Some(p) = rp.filter(|p| *p != "Always") {
                reject(
                    r,
                    at(obj, &rp_path),
                    format!("{rp_path}: Unsupported value: \"{p}\": supported values: \"Always\""),
                    "remove restartPolicy (it defaults to Always)",
                );
            }
        }
        _ => {}
    }
    // Selector required and matching the template's labels (apps/v1 kinds).
    if matches!(
        kind,
        K::Deployment | K::StatefulSet | K::DaemonSet | K::ReplicaSet
    ) {
        // extensions/v1beta1 and apps/v1beta1 default a missing selector to the template's
        // labels (their SetDefaults_*); apps/v1beta2 and apps/v1 require it.
        // A kustomization's commonLabels complete the selector and the template's labels.
        let defaults_selector = matches!(
            obj.api_version.as_str(),
            "extensions/v1beta1" | "apps/v1beta1"
        ) || obj.selector_from_kustomize;
        // field.Invalid shows the template's labels as JSON (`{"app":"api"}`).
        let template_labels = root
            .at("spec.template.metadata.labels")
            .map_or_else(|| "null".to_string(), shown);
        match root.at("spec.selector").filter(|n| !n.is_null()) {
            None if defaults_selector => {}
            // A DaemonSet's nil selector is not "required" but matches nothing.
            None if kind == K::DaemonSet => reject(r, at(obj, "spec.template.metadata.labels"), format!("spec.template.metadata.labels: Invalid value: {template_labels}: `selector` does not match template `labels`"), "add spec.selector.matchLabels matching the template's labels"),
            None => reject(r, at(obj, "spec"), "spec.selector: Required value".into(), "add spec.selector.matchLabels matching the template's labels"),
            Some(sel) => {
                let labels: crate::binding::Labels = root
                    .at("spec.template.metadata.labels")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
                    .collect();
                let empty = sel.get("matchLabels").and_then(Node::as_map).is_none_or(|m| m.is_empty())
                    && sel.get("matchExpressions").and_then(Node::as_seq).is_none_or(|m| m.is_empty());
                if empty && !obj.selector_from_kustomize {
                    reject(r, at(obj, "spec.selector"), format!("spec.selector: Invalid value: empty selector is invalid for {}", obj.kind.to_ascii_lowercase()), "select the template's labels");
                } else if let Some(s) = crate::model::meta::read_selector(r, "spec.selector") {
                    if !s.value.matches(&labels) && !obj.selector_from_kustomize {
                        reject(r, at(obj, "spec.template.metadata.labels"), format!("spec.template.metadata.labels: Invalid value: {template_labels}: `selector` does not match template `labels`"), "make spec.selector match spec.template.metadata.labels");
                    }
                }
            }
        }
    }
    // Pod volumes: claimName required, names unique (ValidateVolumes). Not for a StatefulSet:
    // ValidatePodTemplateSpecForStatefulSet leaves its PodSpec unvalidated ("TODO: Add
    // validation for PodSpec, currently this will check volumes, which we know will fail"),
    // and the controller replaces a volume named like a claim template with that claim.
    if kind == K::StatefulSet {
        return;
    }
    let spec_path = kind.pod_spec_path();
    let vol_path = format!("{spec_path}.volumes");
    let mut names = std::collections::HashSet::new();
    for (i, v) in root
        .at(&vol_path)
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let base = format!("{vol_path}[{i}]");
        if let Some(name) = v.get("name").and_then(Node::as_str) {
            if !names.insert(name.to_string()) {
                reject(
                    r,
                    at(obj, &format!("{base}.name")),
                    format!("{base}.name: Duplicate value: \"{name}\""),
                    "give every volume its own name",
                );
            }
        }
        if let Some(pvc) = v.get("persistentVolumeClaim").filter(|n| !n.is_null()) {
            if pvc
                .get("claimName")
                .and_then(Node::as_str)
                .is_none_or(str::is_empty)
            {
                reject(
                    r,
                    at(obj, &format!("{base}.persistentVolumeClaim")),
                    format!("{base}.persistentVolumeClaim.claimName: Required value"),
                    "name the claim the pod mounts",
                );
            }
        }
    }
    // A kustomization's patch may add the volumes, mounts or image (a base's Deployment
    // mounting a volume each overlay declares): what reaches the API server is not known.
    if !obj.patched_by_kustomize {
        containers(obj, r, spec_path, &names);
    }
}

/// Each container of a pod spec, as `validateContainers` / `validateInitContainers` check it
/// (pkg/apis/core/validation): an image (`validateContainerCommon`: "image: Required value"),
/// and every volumeMount and volumeDevice naming a volume of the pod (`ValidateVolumeMounts`,
/// `ValidateVolumeDevices`: "name: Not found"). Not judged when the volumes are not a list of
/// named volumes (a template placeholder stands for them).
fn containers(
    obj: &Object,
    r: &mut Reader<'_>,
    spec_path: &str,
    volumes: &std::collections::HashSet<String>,
) {
    let root = obj.root();
    let vols = root.at(&format!("{spec_path}.volumes"));
    let volumes_known = match vols {
        None => true,
        Some(n) if n.is_null() => true,
        Some(n) => n.as_seq().is_some_and(|seq| {
            seq.iter()
                .all(|v| v.get("name").and_then(Node::as_str).is_some())
        }),
    };
    for list in ["containers", "initContainers"] {
        let path = format!("{spec_path}.{list}");
        let Some(seq) = root.at(&path).and_then(Node::as_seq) else {
            continue;
        };
        for (i, c) in seq.iter().enumerate() {
            if c.as_map().is_none() {
                continue;
            }
            let base = format!("{path}[{i}]");
            if c.get("image")
                .is_none_or(|n| n.is_null() || n.as_str() == Some(""))
            {
                reject(
                    r,
                    at(obj, &base),
                    format!("{base}.image: Required value"),
                    "name the container's image",
                );
            }
            if !volumes_known {
                continue;
            }
            for field in ["volumeMounts", "volumeDevices"] {
                for (j, m) in c
                    .get(field)
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    let Some(name) = m.get("name").and_then(Node::as_str) else {
                        continue;
                    };
                    if !name.is_empty() && !volumes.contains(name) {
                        let p = format!("{base}.{field}[{j}].name");
                        reject(
                            r,
                            at(obj, &p),
                            format!("{p}: Not found: \"{name}\""),
                            "add a volume of that name to the pod's volumes, or mount one it has",
                        );
                    }
                }
            }
        }
    }
}

/// pkg/apis/batch/validation `ValidateGeneratedSelector`, after the Job strategy's
/// `generateSelector` on create: without `manualSelector: true` the API server gives the new
/// Job a new uid, labels its pod template with it (`batch.kubernetes.io/controller-uid`,
/// `controller-uid`) unless they are set, adds it to the selector unless that names it, and
/// requires the labels to carry the new uid and the selector to select only the labels it
/// generates. A Job exported from a cluster (`kubectl get -o yaml`) carries the old uid in
/// both, and is rejected.
fn generated_selector(obj: &Object, r: &mut Reader<'_>) {
    const NEW_UID: &str = "<the new Job's uid>";
    let root = obj.root();
    if r.bool("spec.manualSelector").is_some_and(|b| b.value) {
        return;
    }
    let labels = root.at("spec.template.metadata.labels");
    let labels_shown = labels.map_or_else(|| "null".to_string(), shown);
    let label = |key: &str| labels.and_then(|l| l.get(key)).and_then(Node::as_str);
    // ValidateHasLabel: a uid label set before the uid exists cannot hold it.
    for key in crate::kube::JOB_UID_LABELS {
        if label(key).is_some() {
            let path = format!("spec.template.metadata.labels[{key}]");
            reject(
                r,
                at(obj, "spec.template.metadata.labels"),
                format!("{path}: Invalid value: {labels_shown}: must be '{NEW_UID}'"),
                "remove the controller-uid labels (the API server sets them), or set spec.manualSelector: true",
            );
        }
    }
    // The selector, with the uid generateSelector adds, must select the generated labels:
    // the new uid and the Job's name (batch.kubernetes.io/job-name, job-name), nothing else.
    let Some(sel) = root.at("spec.selector").filter(|n| !n.is_null()) else {
        return;
    };
    let name = obj.name.as_str();
    let expected: crate::binding::Labels = [
        (crate::kube::JOB_UID_SELECTOR_KEY, NEW_UID),
        ("batch.kubernetes.io/job-name", name),
        ("job-name", name),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let Some(s) = crate::model::meta::read_selector(r, "spec.selector") else {
        return;
    };
    use crate::binding::selector::Requirement;
    let uid_key = crate::kube::JOB_UID_SELECTOR_KEY;
    let names_uid = s
        .value
        .requirements
        .iter()
        .any(|q| matches!(q, Requirement::Equals(k, _) if k == uid_key));
    let generated = (!names_uid).then(|| Requirement::Equals(uid_key.into(), NEW_UID.into()));
    let selects = s
        .value
        .requirements
        .iter()
        .chain(generated.as_ref())
        .all(|q| q.matches(&expected));
    if !selects {
        reject(
            r,
            at(obj, "spec.selector"),
            format!(
                "spec.selector: Invalid value: {}: `selector` not auto-generated",
                shown(sel)
            ),
            "remove spec.selector (the API server generates it), or set spec.manualSelector: true",
        );
    }
}
