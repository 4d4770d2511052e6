//! Typed views of the workloads that mount claims.

use super::placement::{placement, Placement};
use super::{Field, ObjId, Object, Reader, Spanned};
use crate::finding::Severity;
use crate::kube::IntOrPercent;
use crate::node::{Node, ScalarKind};
use crate::options::Target;
use crate::string::Str;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkloadKind {
    Deployment,
    StatefulSet,
    DaemonSet,
    ReplicaSet,
    Job,
    CronJob,
    Pod,
}

crate::string::named!(WorkloadKind {
    Deployment => "Deployment",
    StatefulSet => "StatefulSet",
    DaemonSet => "DaemonSet",
    ReplicaSet => "ReplicaSet",
    Job => "Job",
    CronJob => "CronJob",
    Pod => "Pod",
});

impl WorkloadKind {
    pub fn parse(kind: &str) -> Option<Self> {
        Some(match kind {
            "Deployment" => Self::Deployment,
            "StatefulSet" => Self::StatefulSet,
            "DaemonSet" => Self::DaemonSet,
            "ReplicaSet" => Self::ReplicaSet,
            "Job" => Self::Job,
            "CronJob" => Self::CronJob,
            "Pod" => Self::Pod,
            _ => return None,
        })
    }

    /// Where the pod spec sits in the object.
    pub fn pod_spec_path(self) -> &'static str {
        match self {
            Self::Pod => "spec",
            Self::CronJob => "spec.jobTemplate.spec.template.spec",
            _ => "spec.template.spec",
        }
    }
}

/// How many pods of the workload run at the same time.
#[derive(Debug, Clone, PartialEq)]
pub enum PodCount {
    /// replicas (default 1), Job parallelism (default 1), a bare Pod (1).
    Fixed { count: i64, field: Option<Field> },
    /// A DaemonSet: one per eligible node.
    PerNode,
}

#[derive(Debug, Clone)]
pub enum Strategy {
    Recreate,
    RollingUpdate {
        max_surge: Spanned<IntOrPercent>,
        max_unavailable: Spanned<IntOrPercent>,
        /// The `strategy` field, or the whole object when it is left to defaults.
        field: Field,
        defaulted: bool,
    },
}

/// CronJobs: what the controller does when a run is due while the last one is still active
/// (cronjob_controllerv2.go syncCronJob; SetDefaults_CronJob makes it Allow when unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concurrency {
    /// Start another Job: the runs overlap.
    Allow,
    /// Skip the run while one is active.
    Forbid,
    /// Delete the active Job (in the background), then start the new one.
    Replace,
}

/// What the StatefulSet controller does with the claims of its templates
/// (`spec.persistentVolumeClaimRetentionPolicy`, GA in 1.32): `Retain` leaves them; `Delete`
/// makes them owned (stateful_set_utils.go `updateClaimOwnerRefForSetAndPod`) so that the
/// garbage collector deletes them with their pod on a scale-down (`whenScaled`) or with the
/// StatefulSet (`whenDeleted`). SetDefaults_StatefulSet: Retain when unset or "".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClaimRetention {
    #[default]
    Retain,
    Delete,
}

/// A StatefulSet's retention policy, each value with the field that set it (None: defaulted).
#[derive(Debug, Clone, Default)]
pub struct Retention {
    pub when_deleted: (ClaimRetention, Option<Field>),
    pub when_scaled: (ClaimRetention, Option<Field>),
}

impl Retention {
    pub fn when_deleted(&self) -> ClaimRetention {
        self.when_deleted.0
    }

    pub fn when_scaled(&self) -> ClaimRetention {
        self.when_scaled.0
    }
}

/// A pod volume that mounts a claim.
#[derive(Debug, Clone)]
pub struct ClaimUse {
    pub claim: Spanned<Str>,
}

#[derive(Debug, Clone)]
pub struct Workload {
    pub obj: ObjId,
    pub kind: WorkloadKind,
    pub name: Str,
    pub namespace: Str,
    pub pods: PodCount,
    /// Deployments only.
    pub strategy: Option<Strategy>,
    pub claims: Vec<ClaimUse>,
    /// StatefulSets: spec.ordinals.start (default 0), the first ordinal.
    pub ordinals_start: i64,
    /// StatefulSets: spec.podManagementPolicy is Parallel (default OrderedReady).
    pub parallel_pods: bool,
    /// StatefulSets: spec.persistentVolumeClaimRetentionPolicy (Retain, Retain for the rest).
    pub retention: Retention,
    /// CronJobs: spec.concurrencyPolicy and its field (None when left to the default, Allow).
    pub concurrency: Option<(Concurrency, Option<Field>)>,
    /// CronJobs: spec.suspend is true (no run starts).
    pub suspended: bool,
    /// Where the scheduler may put the workload's pods, as far as the pod template says.
    pub placement: Placement,
}

/// `spec.persistentVolumeClaimRetentionPolicy` after SetDefaults_StatefulSet ("" and unset are
/// Retain), checked as ValidatePersistentVolumeClaimRetentionPolicyType checks each value.
/// Before 1.27 the StatefulSetAutoDeletePVC gate is off by default: the API server drops the
/// field (dropStatefulSetDisabledFields) and the controller keeps every claim.
fn retention(r: &mut Reader<'_>, version: Target) -> Retention {
    if !version.feature(crate::version::Feature::StatefulSetAutoDeletePVC) {
        return Retention::default();
    }
    const CHOICES: &[(&str, ClaimRetention)] = &[
        ("Retain", ClaimRetention::Retain),
        ("Delete", ClaimRetention::Delete),
    ];
    let help = "use Retain (the default) or Delete";
    Retention {
        when_deleted: r.defaulted_enum(
            "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
            CHOICES,
            help,
        ),
        when_scaled: r.defaulted_enum(
            "spec.persistentVolumeClaimRetentionPolicy.whenScaled",
            CHOICES,
            help,
        ),
    }
}

fn int_or_percent(r: &mut Reader<'_>, node: &Node, path: &str) -> Option<IntOrPercent> {
    let s = node.as_scalar()?;
    let field = Field {
        path: Str::from(path),
        span: node.span,
    };
    match s.kind {
        ScalarKind::Int => super::parse_int(&s.text)
            .map(IntOrPercent::Int)
            .or_else(|| {
                r.invalid(
                    field,
                    Severity::Error,
                    format!("{path}: the integer {} is out of range", s.text),
                    "use a small non-negative integer or a percentage".into(),
                );
                None
            }),
        ScalarKind::Str => {
            // IsValidPercent: `^[0-9]+%$`.
            if let Some(p) = super::validation::valid_percent(&s.text) {
                return Some(IntOrPercent::Percent(p));
            }
            let hint = if s.text.parse::<i64>().is_ok() {
                format!(
                    "write {} without quotes, or \"{}%\" for a percentage",
                    s.text, s.text
                )
            } else {
                "use an integer (1) or a percentage (\"25%\")".to_string()
            };
            r.invalid(
                field,
                Severity::Error,
                format!(
                    "{path}: Invalid value: \"{}\": {}; the API server rejects this {}",
                    s.text,
                    super::validation::INVALID_PERCENT,
                    r.obj.kind
                ),
                hint,
            );
            None
        }
        _ => {
            r.invalid(
                field,
                Severity::Error,
                format!(
                    "{path} must be an integer or a percentage string, found {}",
                    node.type_name()
                ),
                "use an integer (1) or a percentage (\"25%\")".into(),
            );
            None
        }
    }
}

fn strategy(obj: &Object, r: &mut Reader<'_>) -> Option<Strategy> {
    let ty = r.string("spec.strategy.type");
    let rolling = r.map("spec.strategy.rollingUpdate");
    let kind = ty
        .as_ref()
        .map_or("RollingUpdate".to_string(), |t| t.value.to_string());
    match kind.as_str() {
        "Recreate" => {
            if rolling.is_some() {
                r.invalid(
                    obj.key_field("spec.strategy.rollingUpdate"),
                    Severity::Error,
                    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'; the API server rejects this Deployment".into(),
                    "remove spec.strategy.rollingUpdate".into(),
                );
            }
            Some(Strategy::Recreate)
        }
        "RollingUpdate" => {
            let default = |path: &str| Spanned {
                value: IntOrPercent::Percent(25),
                field: obj
                    .field("spec.strategy")
                    .unwrap_or_else(|| obj.whole())
                    .with_path(path),
            };
            let mut get = |key: &str| -> Spanned<IntOrPercent> {
                let path = format!("spec.strategy.rollingUpdate.{key}");
                match rolling.and_then(|n| n.get(key)).filter(|n| !n.is_null()) {
                    Some(n) => match int_or_percent(r, n, &path) {
                        Some(v) => Spanned {
                            value: v,
                            field: Field {
                                path: Str::from(path),
                                span: n.span,
                            },
                        },
                        None => default(&path),
                    },
                    None => default(&path),
                }
            };
            let max_surge = get("maxSurge");
            // Both 0 is rejected (validation::deployment_rolling_update).
            let max_unavailable = get("maxUnavailable");
            let defaulted = obj.root().at("spec.strategy").is_none();
            Some(Strategy::RollingUpdate {
                max_surge,
                max_unavailable,
                field: if defaulted {
                    obj.whole()
                } else {
                    obj.key_field("spec.strategy")
                },
                defaulted,
            })
        }
        other => {
            let t = ty.expect("type present");
            r.invalid(
                t.field,
                Severity::Error,
                format!("spec.strategy.type: Unsupported value: \"{other}\": supported values: \"Recreate\", \"RollingUpdate\"; the API server rejects this Deployment"),
                "use RollingUpdate or Recreate".into(),
            );
            None
        }
    }
}

fn job_pods(r: &mut Reader<'_>, spec: &str) -> PodCount {
    let nonneg = |r: &mut Reader<'_>, path: String| {
        let v = r.int(&path);
        if let Some(v) = &v {
            if v.value < 0 {
                r.invalid(
                    v.field.clone(),
                    Severity::Error,
                    format!("{path}: Invalid value: {}: must be greater than or equal to 0; the API server rejects this object", v.value),
                    "use a non-negative number".into(),
                );
            }
        }
        v
    };
    let parallelism = nonneg(r, format!("{spec}.parallelism"));
    let completions = nonneg(r, format!("{spec}.completions"));
    let p = parallelism.as_ref().map_or(1, |v| v.value.max(0));
    let count = match &completions {
        Some(c) => p.min(c.value.max(0)),
        None => p,
    };
    PodCount::Fixed {
        count,
        field: parallelism
            .map(|v| v.field)
            .or(completions.map(|v| v.field)),
    }
}

pub(crate) fn read_workload(
    obj: &Object,
    id: ObjId,
    kind: WorkloadKind,
    r: &mut Reader<'_>,
    version: Target,
) -> Workload {
    let fixed = |r: &mut Reader<'_>, path: &str| {
        let v = r.int(path);
        if let Some(v) = &v {
            if v.value < 0 {
                r.invalid(
                    v.field.clone(),
                    Severity::Error,
                    format!("{path}: Invalid value: {}: must be greater than or equal to 0; the API server rejects this object", v.value),
                    "use a non-negative number".into(),
                );
            }
        }
        PodCount::Fixed {
            count: v.as_ref().map_or(1, |v| v.value.max(0)),
            field: v.map(|v| v.field),
        }
    };
    let pods = match kind {
        WorkloadKind::Deployment | WorkloadKind::StatefulSet | WorkloadKind::ReplicaSet => {
            fixed(r, "spec.replicas")
        }
        // manageJob: active pods = min(parallelism, completions); completions unset means a
        // work queue (parallelism pods). SetDefaults_Job: parallelism 1 when unset.
        WorkloadKind::Job => job_pods(r, "spec"),
        WorkloadKind::CronJob => job_pods(r, "spec.jobTemplate.spec"),
        WorkloadKind::DaemonSet => PodCount::PerNode,
        WorkloadKind::Pod => PodCount::Fixed {
            count: 1,
            field: None,
        },
    };
    let strategy = if kind == WorkloadKind::Deployment {
        strategy(obj, r)
    } else {
        None
    };
    let vol_path = format!("{}.volumes", kind.pod_spec_path());
    // stateful_set_utils.go updateStorage: a pod volume named like a claim template is
    // replaced by the ordinal's claim.
    let template_names: Vec<String> = if kind == WorkloadKind::StatefulSet {
        obj.root()
            .at("spec.volumeClaimTemplates")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(|t| t.get("metadata")?.get("name")?.as_str().map(String::from))
            .collect()
    } else {
        Vec::new()
    };
    let mut claims = Vec::new();
    if let Some(vols) = r.seq(&vol_path) {
        for (i, v) in vols.iter().enumerate() {
            let base = format!("{vol_path}[{i}]");
            if v.get("name")
                .and_then(Node::as_str)
                .is_some_and(|n| template_names.iter().any(|t| t == n))
            {
                continue;
            }
            let Some(pvc) = v.get("persistentVolumeClaim").filter(|n| !n.is_null()) else {
                continue;
            };
            let pvc_path = format!("{base}.persistentVolumeClaim");
            let Some(claim) = r.string_in(pvc, &pvc_path, "claimName") else {
                continue;
            };
            claims.push(ClaimUse { claim });
        }
    }
    // Most workloads use one or two claims: not the room for four the first push makes.
    claims.shrink_to_fit();
    let (ordinals_start, parallel_pods) = if kind == WorkloadKind::StatefulSet {
        let start = r.int("spec.ordinals.start");
        if let Some(s) = &start {
            if s.value < 0 {
                r.invalid(
                    s.field.clone(),
                    Severity::Error,
                    format!("spec.ordinals.start: Invalid value: {}: must be greater than or equal to 0; the API server rejects this object", s.value),
                    "start ordinals at 0 or above".into(),
                );
            }
        }
        // SetDefaults_StatefulSet: unset or "" is OrderedReady.
        let (parallel, _) = r.defaulted_enum(
            "spec.podManagementPolicy",
            &[("OrderedReady", false), ("Parallel", true)],
            "use OrderedReady (the default) or Parallel",
        );
        (start.map_or(0, |s| s.value.max(0)), parallel)
    } else {
        (0, false)
    };
    let retention = if kind == WorkloadKind::StatefulSet {
        retention(r, version)
    } else {
        Retention::default()
    };
    let concurrency = (kind == WorkloadKind::CronJob).then(|| {
        // ValidateCronJobSpec -> validateConcurrencyPolicy; SetDefaults_CronJob: unset or ""
        // is Allow.
        r.defaulted_enum(
            "spec.concurrencyPolicy",
            &[
                ("Allow", Concurrency::Allow),
                ("Forbid", Concurrency::Forbid),
                ("Replace", Concurrency::Replace),
            ],
            "use Allow (the default), Forbid or Replace",
        )
    });
    let suspended =
        kind == WorkloadKind::CronJob && r.bool("spec.suspend").is_some_and(|b| b.value);
    let pod = kind.pod_spec_path();
    let template_labels = match pod.strip_suffix(".spec") {
        Some(template) => super::meta::read_labels(r, &format!("{template}.metadata.labels")),
        None => super::meta::read_labels(r, "metadata.labels"),
    };
    let placement = placement(r, pod, &template_labels);
    Workload {
        obj: id,
        kind,
        name: obj.name.clone(),
        namespace: obj.namespace.clone().unwrap_or_else(|| "default".into()),
        pods,
        strategy,
        claims,
        ordinals_start,
        parallel_pods,
        retention,
        concurrency,
        suspended,
        placement,
    }
}
