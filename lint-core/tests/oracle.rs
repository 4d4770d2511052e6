//! pvlint against outcomes **recorded on a real Kubernetes v1.34.9 control plane**
//! (`tests/oracle/`, one folder per case; its README says what stood in for the kubelet and
//! the CSI drivers). Each case's steps run through `simulate` (the first apply, then each
//! later step as an operation) and each step's recorded state is the expectation:
//!
//! - which claims and volumes exist, their phases, bindings and classes after admission;
//! - the events the controllers recorded on claims and volumes: every one is predicted (final
//!   or transient), and a predicted event's message is the cluster's, word for word;
//! - objects the API server rejected: `lint` reports an error on them that quotes the server;
//! - cases where timing decides (repeated runs, a tally): the outcome pvlint calls likely is
//!   the one seen most, and every outcome seen is one pvlint names as possible.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pvlint_core::api::{self, Operation};
use pvlint_core::{Options, Request, Source};
use serde_json::Value;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle")
}

/// One line of steps.txt.
#[derive(Debug)]
enum Step {
    Apply(String),
    Delete {
        kind: String,
        namespace: Option<String>,
        name: String,
    },
    RemoveFinalizers(String),
    /// `kubectl patch statefulset/NS/NAME {"spec":{"replicas":N}}`: what `kubectl scale` sends.
    Scale {
        namespace: String,
        name: String,
        replicas: i64,
    },
}

struct Case {
    name: String,
    dir: PathBuf,
    env: BTreeMap<String, String>,
    steps: Vec<Step>,
    /// The single run, or every run of a repeated case.
    runs: Vec<Value>,
    tally: Option<BTreeMap<String, u64>>,
}

fn load(name: &str) -> Case {
    let dir = cases_dir().join(name);
    let text = std::fs::read_to_string(dir.join("steps.txt")).unwrap();
    let (mut env, mut steps) = (BTreeMap::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (verb, rest) = line.split_once(' ').unwrap();
        match verb {
            "env" => {
                let (k, v) = rest.split_once('=').unwrap();
                env.insert(k.to_string(), v.to_string());
            }
            "apply" => steps.push(Step::Apply(rest.to_string())),
            "delete" => {
                let parts: Vec<&str> = rest.split('/').collect();
                let (kind, namespace, name) = match parts.as_slice() {
                    [k, n] => (k, None, n),
                    [k, ns, n] => (k, Some(ns.to_string()), n),
                    _ => panic!("{name}: {line}"),
                };
                steps.push(Step::Delete {
                    kind: kind.to_string(),
                    namespace,
                    name: name.to_string(),
                });
            }
            "patch" => {
                let (target, patch) = rest.split_once(' ').unwrap();
                let patch: Value = serde_json::from_str(patch).unwrap();
                let replicas = patch["spec"]["replicas"].as_i64();
                let (kind, path) = target.split_once('/').unwrap();
                let (namespace, object) = path.split_once('/').unwrap();
                assert!(
                    kind == "statefulset"
                        && patch == serde_json::json!({"spec": {"replicas": replicas}}),
                    "{name}: only a StatefulSet's replicas are patched: {line}"
                );
                steps.push(Step::Scale {
                    namespace: namespace.into(),
                    name: object.into(),
                    replicas: replicas.unwrap(),
                });
            }
            "remove-finalizers" => steps.push(Step::RemoveFinalizers(
                rest.trim_start_matches("pv/").into(),
            )),
            _ => panic!("{name}: unknown step {line}"),
        }
    }
    let outcome: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("outcome.json")).unwrap()).unwrap();
    let server = outcome
        .get("server")
        .or_else(|| outcome["runs"][0].get("server"));
    // Cases 01-31 were recorded on v1.34.9, the later 32-38 on v1.34.2: one minor release.
    assert!(
        server
            .and_then(Value::as_str)
            .is_some_and(|s| s.starts_with("v1.34.")),
        "{name}: {server:?}"
    );
    let (runs, tally) = match outcome.get("runs") {
        Some(runs) => (
            runs.as_array().unwrap().clone(),
            Some(
                outcome["tally"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                    .collect(),
            ),
        ),
        None => {
            // The later recordings keep each run of a repeated case in its own file:
            // `outcome.json`, `outcome-r1.json`, ...; the tally is theirs.
            let mut runs = vec![outcome];
            for n in 1.. {
                let Ok(text) = std::fs::read_to_string(dir.join(format!("outcome-r{n}.json")))
                else {
                    break;
                };
                runs.push(serde_json::from_str(&text).unwrap());
            }
            let tally = (runs.len() > 1).then(|| {
                let mut t = BTreeMap::new();
                for r in &runs {
                    *t.entry(mapping(r)).or_insert(0) += 1;
                }
                t
            });
            (runs, tally)
        }
    };
    Case {
        name: name.to_string(),
        dir,
        env,
        steps,
        runs,
        tally,
    }
}

fn source(dir: &Path, file: &str) -> Source {
    Source::new(file, std::fs::read_to_string(dir.join(file)).unwrap())
}

/// The options the case's environment stands for. Every run started from an empty cluster
/// (no StorageClass, no default class): the input is all there is (`--complete`).
fn options(case: &Case) -> Options {
    // kube-controller-manager ran with --enable-hostpath-provisioner (the README).
    let mut o = Options {
        complete: true,
        hostpath_provisioner: true,
        ..Options::default()
    };
    if case.env.get("ORACLE_VALIDATE").map(String::as_str) == Some("warn") {
        o.field_validation = pvlint_core::FieldValidation::Warn;
    }
    o
}

/// The request that runs the case's steps: the first apply, then the rest as operations.
fn request(case: &Case) -> Request {
    let mut req = Request {
        options: options(case),
        ..Request::default()
    };
    for (i, step) in case.steps.iter().enumerate() {
        match step {
            Step::Apply(file) if i == 0 => req.sources = vec![source(&case.dir, file)],
            Step::Apply(file) => req.operations.push(Operation::Apply {
                sources: vec![source(&case.dir, file)],
            }),
            Step::Delete {
                kind,
                namespace,
                name,
            } => req.operations.push(match kind.as_str() {
                "pv" => Operation::DeletePv { name: name.clone() },
                "pvc" => Operation::DeletePvc {
                    namespace: namespace.clone().unwrap_or_else(|| "default".into()),
                    name: name.clone(),
                },
                "pod" => Operation::DeletePod {
                    namespace: namespace.clone().unwrap_or_else(|| "default".into()),
                    name: name.clone(),
                },
                "statefulset" => Operation::DeleteStatefulSet {
                    namespace: namespace.clone().unwrap_or_else(|| "default".into()),
                    name: name.clone(),
                },
                k => panic!("{}: delete {k} is not an operation", case.name),
            }),
            Step::Scale {
                namespace,
                name,
                replicas,
            } => req.operations.push(Operation::ScaleStatefulSet {
                namespace: namespace.clone(),
                name: name.clone(),
                replicas: *replicas,
            }),
            Step::RemoveFinalizers(name) => req
                .operations
                .push(Operation::RemoveFinalizers { name: name.clone() }),
        }
    }
    req
}

/// A provisioned volume's name (`pvc-<uid>`) differs from run to run, and pvlint's is made up.
fn vol_name(name: &str) -> String {
    let uid = name.strip_prefix("pvc-").unwrap_or("");
    if uid.len() == 36 && uid.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        "<provisioned>".into()
    } else {
        name.to_string()
    }
}

fn s(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// A state as lines that compare: `claim ns/name Phase volume class`, `volume name Phase
/// ns/claim`.
fn recorded_state(state: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (k, c) in state["claims"].as_object().unwrap() {
        out.insert(format!(
            "claim {k} {} {} class={}",
            s(&c["phase"]),
            vol_name(&s(&c["volumeName"])),
            s(&c["storageClassName"])
        ));
    }
    for (k, v) in state["volumes"].as_object().unwrap() {
        out.insert(format!(
            "volume {} {} {}",
            vol_name(k),
            s(&v["phase"]),
            s(&v["claimRef"])
        ));
    }
    out
}

fn predicted_state(step: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in step["claims"].as_array().unwrap() {
        if c["phase"] == "Rejected" {
            continue;
        }
        out.insert(format!(
            "claim {}/{} {} {} class={}",
            s(&c["namespace"]),
            s(&c["name"]),
            s(&c["phase"]),
            vol_name(&s(&c["volume"])),
            s(&c["class"])
        ));
    }
    for v in step["volumes"].as_array().unwrap() {
        if v["gone"] == true {
            continue;
        }
        out.insert(format!(
            "volume {} {} {}",
            vol_name(&s(&v["name"])),
            s(&v["phase"]),
            s(&v["claim"])
        ));
    }
    out
}

/// Recorded events on claims and volumes: (object, reason) → message.
fn recorded_events(events: &Value) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for e in events.as_array().unwrap() {
        let object = match e["kind"].as_str().unwrap() {
            "PersistentVolumeClaim" => format!("claim {}/{}", s(&e["namespace"]), s(&e["name"])),
            "PersistentVolume" => format!("volume {}", vol_name(&s(&e["name"]))),
            _ => continue,
        };
        out.insert((object, s(&e["reason"])), vol_names_in(&s(&e["message"])));
    }
    out
}

fn vol_names_in(message: &str) -> String {
    message
        .split(' ')
        .map(|w| {
            let bare = w.trim_matches(|c: char| c == '"' || c == '\'' || c == '.');
            if vol_name(bare) != bare {
                w.replace(bare, "<provisioned>")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Predicted events: (object, reason) → (message, transient).
fn predicted_events(step: &Value) -> BTreeMap<(String, String), (String, bool)> {
    let mut out = BTreeMap::new();
    let mut add = |object: String, events: &Value| {
        for e in events.as_array().into_iter().flatten() {
            out.insert(
                (object.clone(), s(&e["reason"])),
                (vol_names_in(&s(&e["message"])), e["transient"] == true),
            );
        }
    };
    for c in step["claims"].as_array().unwrap() {
        add(
            format!("claim {}/{}", s(&c["namespace"]), s(&c["name"])),
            &c["events"],
        );
    }
    for v in step["volumes"].as_array().unwrap() {
        add(format!("volume {}", vol_name(&s(&v["name"]))), &v["events"]);
    }
    out
}

/// The simulation as JSON, and its steps: one per step of the case.
fn simulate(case: &Case) -> (Value, Vec<Value>) {
    let sim = api::simulate(&request(case)).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let v: Value = serde_json::from_str(&pvlint_core::render::simulation_json(&sim)).unwrap();
    let steps = v["steps"].as_array().cloned().unwrap_or_default();
    if steps.is_empty() {
        (v.clone(), vec![v])
    } else {
        (v, steps)
    }
}

/// Compares one recorded run with the simulation, step by step; the differences.
fn compare_run(case: &Case, run: &Value, predicted: &[Value]) -> Vec<String> {
    let mut diffs = Vec::new();
    let recorded = run["steps"].as_array().unwrap();
    assert_eq!(recorded.len(), predicted.len(), "{}: steps", case.name);
    for (i, (rec, pred)) in recorded.iter().zip(predicted).enumerate() {
        let step = s(&rec["step"]);
        let (want, got) = (recorded_state(&rec["state"]), predicted_state(pred));
        for missing in want.difference(&got) {
            diffs.push(format!("step {i} ({step}): the cluster had   {missing}"));
        }
        for extra in got.difference(&want) {
            diffs.push(format!("step {i} ({step}): pvlint predicts  {extra}"));
        }
        // Every event the controllers recorded on a claim or volume is predicted, with the
        // cluster's message.
        let events = predicted_events(pred);
        // The later recordings (cases 32-38) keep every event of the run in `events`, not the
        // step's own in `new_events`: for a case of one step they are the same.
        let step_events = match &rec["state"]["new_events"] {
            Value::Null => &rec["state"]["events"],
            new => new,
        };
        for ((object, reason), message) in recorded_events(step_events) {
            match events.get(&(object.clone(), reason.clone())) {
                None => diffs.push(format!(
                    "step {i} ({step}): event {reason} on {object} not predicted: {message}"
                )),
                Some((m, _)) if *m != message => diffs.push(format!(
                    "step {i} ({step}): event {reason} on {object}: pvlint says {m:?}, the cluster {message:?}"
                )),
                Some(_) => {}
            }
        }
        // An event pvlint calls final is one the cluster recorded (by this step).
        let all = recorded_events(&rec["state"]["events"]);
        for ((object, reason), (message, transient)) in &events {
            if !transient && !all.contains_key(&(object.clone(), reason.clone())) {
                diffs.push(format!(
                    "step {i} ({step}): pvlint predicts event {reason} on {object} ({message}); the cluster recorded none"
                ));
            }
        }
    }
    diffs
}

/// Objects the API server rejected in an apply step: `lint` reports an error on each, whose
/// words include the server's.
fn compare_rejections(case: &Case, run: &Value, predicted: &[Value]) -> Vec<String> {
    let mut diffs = Vec::new();
    for (i, (step, rec)) in case
        .steps
        .iter()
        .zip(run["steps"].as_array().unwrap())
        .enumerate()
    {
        let Step::Apply(file) = step else { continue };
        if i > 0 {
            diffs.extend(compare_refused_updates(file, rec, &predicted[i]));
            continue;
        }
        let req = Request {
            sources: vec![source(&case.dir, file)],
            options: options(case),
            ..Request::default()
        };
        let report: Value =
            serde_json::from_str(&pvlint_core::render::json(&api::lint(&req))).unwrap();
        let findings = report["findings"].as_array().unwrap();
        for a in rec["result"]["apply"].as_array().into_iter().flatten() {
            let o = &a["objects"][0];
            let who = format!("{} {}", s(&o["kind"]), s(&o["name"]));
            let on_it: Vec<&Value> = findings
                .iter()
                .filter(|f| {
                    f["severity"] == "error"
                        && f["object"]["kind"] == o["kind"]
                        && f["object"]["name"] == o["name"]
                })
                .collect();
            let text = |f: &Value| {
                let mut t = s(&f["message"]);
                t.push('\n');
                t.push_str(&s(&f["consequence"]["summary"]));
                for n in f["notes"].as_array().into_iter().flatten() {
                    t.push('\n');
                    t.push_str(&s(n));
                }
                t
            };
            if a["rc"] == 0 {
                // Accepted by the server: no finding says it is rejected.
                for f in &on_it {
                    if text(f).contains("rejects") {
                        diffs.push(format!("{file}: {who} was accepted; pvlint: {}", text(f)));
                    }
                }
                continue;
            }
            for err in a["errors"].as_array().unwrap() {
                for cause in causes(&s(err)) {
                    if !on_it.iter().any(|f| text(f).contains(cause)) {
                        diffs.push(format!(
                            "{file}: {who} rejected with {cause:?}; pvlint's errors on it: {:?}",
                            on_it.iter().map(|f| text(f)).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
    }
    diffs
}

/// An apply after the first updates live objects: the objects the API server refused are the
/// ones `simulate` lists as refused in that step, each with the server's causes; the others
/// are not listed.
fn compare_refused_updates(file: &str, rec: &Value, predicted: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let refused = predicted["refused"].as_array().cloned().unwrap_or_default();
    for a in rec["result"]["apply"].as_array().into_iter().flatten() {
        let o = &a["objects"][0];
        let who = format!("{} {}", s(&o["kind"]), s(&o["name"]));
        let mine = refused
            .iter()
            .find(|r| r["kind"] == o["kind"] && r["name"] == o["name"]);
        match (a["rc"] == 0, mine) {
            (true, None) => {}
            (true, Some(r)) => diffs.push(format!(
                "{file}: {who} was accepted; pvlint says the update is refused: {}",
                r["causes"]
            )),
            (false, None) => diffs.push(format!(
                "{file}: {who} was refused ({}); pvlint accepts the update",
                a["errors"]
            )),
            (false, Some(r)) => {
                let text = r["causes"].to_string();
                for err in a["errors"].as_array().unwrap() {
                    for cause in causes(&s(err)) {
                        if !r["causes"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|c| s(c) == cause)
                        {
                            diffs.push(format!(
                                "{file}: {who} refused with {cause:?}; pvlint says {text}"
                            ));
                        }
                    }
                }
            }
        }
    }
    diffs
}

/// The causes in kubectl's report of a rejection: `The Deployment "api" is invalid: \n* a\n* b`
/// (several) or `...: a` (one), and `Error from server (BadRequest): error when creating
/// "f": CAUSE` for a request the server could not decode.
fn causes(err: &str) -> Vec<&str> {
    // An update's refusal: `... error when patching "f": CAUSE` (an admission plugin's).
    if let Some((_, rest)) = err.split_once("error when patching \"") {
        if let Some((_, cause)) = rest.split_once("\": ") {
            return vec![cause.trim()];
        }
    }
    // The first line of each cause: validation appends a diff of the spec after it.
    if let Some((_, list)) = err.split_once(" is invalid: ") {
        return match list.strip_prefix("\n* ") {
            Some(list) => list
                .split("\n* ")
                .map(|c| c.lines().next().unwrap_or("").trim())
                .collect(),
            None => vec![list.lines().next().unwrap_or("").trim()],
        };
    }
    if let Some(rest) = err.strip_prefix("Error from server (BadRequest): error when creating \"") {
        if let Some((_, cause)) = rest.split_once("\": ") {
            return vec![cause.trim()];
        }
    }
    vec![err.trim()]
}

fn run_case(name: &str) {
    let case = load(name);
    let (sim, predicted) = simulate(&case);
    let mut diffs = Vec::new();
    match &case.tally {
        None => {
            diffs.extend(compare_run(&case, &case.runs[0], &predicted));
            diffs.extend(compare_rejections(&case, &case.runs[0], &predicted));
        }
        Some(tally) => {
            // Every outcome seen is one pvlint names as possible; the one it calls likely was
            // seen, and is the one seen in most runs when one was (4 of 5 or more).
            let likely = likely_mapping(predicted.last().unwrap());
            let possible = possible_mappings(&likely, &sim);
            for seen in tally.keys() {
                if !possible.contains(seen) {
                    diffs.push(format!(
                        "outcome {seen:?} occurred; pvlint names as possible only {possible:?}"
                    ));
                }
            }
            let runs: u64 = tally.values().sum();
            let (top, n) = tally.iter().max_by_key(|(_, n)| **n).unwrap();
            if n * 5 >= runs * 4 && *top != likely {
                diffs.push(format!(
                    "{top:?} occurred in {n} of {runs} runs; pvlint calls {likely:?} likely"
                ));
            }
            match case.runs.iter().find(|r| mapping(r) == likely) {
                Some(run) => diffs.extend(compare_run(&case, run, &predicted)),
                // No outcome dominates and pvlint's was not among the few runs: every claim
                // whose outcome varied must be called order-dependent.
                None if n * 5 < runs * 4 => {
                    let outcomes: Vec<BTreeMap<String, String>> = case
                        .runs
                        .iter()
                        .map(|r| parse_mapping(&mapping(r)))
                        .collect();
                    let last = predicted.last().unwrap();
                    for c in last["claims"].as_array().unwrap() {
                        let key = format!("{}/{}", s(&c["namespace"]), s(&c["name"]));
                        let varied = outcomes
                            .iter()
                            .any(|o| o.get(&key) != outcomes[0].get(&key));
                        if varied && c["orderDependent"] != true {
                            diffs.push(format!(
                                "{key}'s outcome varied between runs; pvlint does not call it order-dependent"
                            ));
                        }
                    }
                }
                None => diffs.push(format!("pvlint's likely outcome {likely:?} never occurred")),
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{name} (recorded on a real v1.34 control plane) disagrees with pvlint:\n  {}",
        diffs.join("\n  ")
    );
}

/// A mapping as the tally writes it: `ns/claim -> volume` (or `-> Pending`), by claim.
fn show(m: &BTreeMap<String, String>) -> String {
    m.iter()
        .map(|(c, v)| format!("{c} -> {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn parse_mapping(m: &str) -> BTreeMap<String, String> {
    m.split(", ")
        .filter_map(|p| p.split_once(" -> "))
        .map(|(c, v)| (c.to_string(), v.to_string()))
        .collect()
}

fn bound_to(v: &Value) -> String {
    match v {
        Value::String(s) => vol_name(s),
        _ => "Pending".into(),
    }
}

/// A run's final claim → volume mapping, as the tally writes it.
fn mapping(run: &Value) -> String {
    let state = &run["steps"].as_array().unwrap().last().unwrap()["state"];
    show(
        &state["claims"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, c)| (k.clone(), bound_to(&c["volumeName"])))
            .collect(),
    )
}

fn likely_map(step: &Value) -> BTreeMap<String, String> {
    step["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["phase"] != "Rejected")
        .map(|c| {
            (
                format!("{}/{}", s(&c["namespace"]), s(&c["name"])),
                bound_to(&c["volume"]),
            )
        })
        .collect()
}

fn likely_mapping(step: &Value) -> String {
    show(&likely_map(step))
}

/// The mappings the simulation names as possible: the likely one and each alternative.
fn possible_mappings(likely: &str, sim: &Value) -> BTreeSet<String> {
    let _ = likely;
    let steps = sim["steps"].as_array().cloned().unwrap_or_default();
    let last = steps.last().unwrap_or(sim);
    let base = likely_map(last);
    let mut out = BTreeSet::from([show(&base)]);
    for alt in sim["alternatives"].as_array().into_iter().flatten() {
        let mut m = base.clone();
        for b in alt["bindings"].as_array().into_iter().flatten() {
            m.insert(s(&b["claim"]), bound_to(&b["volume"]));
        }
        out.insert(show(&m));
    }
    out
}

macro_rules! cases {
    ($($test:ident => $dir:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_case($dir);
            }
        )*

        #[test]
        fn every_case_folder_is_tested() {
            let tested: BTreeSet<&str> = [$($dir),*].into_iter().collect();
            for e in std::fs::read_dir(cases_dir()).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_dir() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    assert!(tested.contains(name.as_str()), "tests/oracle/{name} has no test");
                }
            }
        }
    };
}

cases! {
    race_one_apply_volumes_first => "01-race-one-apply-volumes-first",
    race_one_apply_many_volumes => "01b-race-one-apply-many-volumes",
    race_one_apply_claim_first => "02-race-one-apply-claim-first",
    two_step_smallest_wins => "03-two-step-smallest-wins",
    two_step_two_claims_one_small => "04-two-step-two-claims-one-small",
    sts_orderedready_pool_short => "05-sts-orderedready-pool-short",
    sts_parallel_pool_short => "06-sts-parallel-pool-short",
    sts_missing_class => "07-sts-missing-class",
    sts_whenscaled_delete => "08-sts-whenscaled-delete",
    sts_whenscaled_retain => "09-sts-whenscaled-retain",
    sts_whendeleted_delete_retain_volumes => "10-sts-whendeleted-delete-retain-volumes",
    sts_whendeleted_delete_delete_volumes => "11-sts-whendeleted-delete-delete-volumes",
    wffc_no_consumer => "12-wffc-no-consumer",
    wffc_deployment_replicas_zero => "13-wffc-deployment-replicas-zero",
    wffc_deployment_rejected => "14-wffc-deployment-rejected",
    wffc_pod_csi_provisioned => "15-wffc-pod-csi-provisioned",
    wffc_pod_static_local => "16-wffc-pod-static-local",
    delete_claim_of_hostpath_delete_pv => "23-delete-claim-of-hostpath-delete-pv",
    delete_claim_in_use_pvc_protection => "24-delete-claim-in-use-pvc-protection",
    delete_bound_pv_pv_protection => "25-delete-bound-pv-pv-protection",
    validate_strict_unknown_field_class => "26-validate-strict-unknown-field-class",
    validate_warn_unknown_field_class => "27-validate-warn-unknown-field-class",
    validate_strict_maxsurge_negative => "28-validate-strict-maxsurge-negative",
    validate_warn_maxsurge_negative => "29-validate-warn-maxsurge-negative",
    wire_cluster_state => "30-wire-cluster-state",
    update_claim_class => "17-update-claim-class",
    update_claim_resize_no_expansion => "18-update-claim-resize-no-expansion",
    update_claim_resize_expansion => "19-update-claim-resize-expansion",
    update_class_fields => "20-update-class-fields",
    update_sts_templates => "21-update-sts-templates",
    update_pv_source_capacity => "22-update-pv-source-capacity",
    reapply_migrated_over_broken => "31-reapply-migrated-over-broken",
    wffc_no_provisioner_pod_waits => "32-wffc-no-provisioner-pod-waits",
    claim_before_its_class => "33-claim-before-its-class",
    hostpath_block_refused => "34-hostpath-block-refused",
    prebound_smaller_volume_expanding => "35-prebound-smaller-volume-expanding",
    claim_before_matching_pv_race => "36-claim-before-matching-pv-race",
    selector_external_provisioner => "37-selector-external-provisioner",
    claim_before_reserving_pv_race => "38-claim-before-reserving-pv-race",
}

/// Re-applying manifests onto the live objects they made is no update: case 30's cluster
/// state is the real API server's output (defaults, controller-written fields, the
/// last-applied record) for its manifest.
#[test]
fn reapplying_onto_the_objects_it_made_is_accepted() {
    let dir = cases_dir().join("30-wire-cluster-state");
    let req = Request {
        sources: vec![source(&dir, "manifest.yaml")],
        cluster: vec![source(&dir, "cluster-state.yaml")],
        ..Request::default()
    };
    let report: Value = serde_json::from_str(&pvlint_core::render::json(&api::lint(&req))).unwrap();
    let refused: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "update-rejected")
        .collect();
    assert!(refused.is_empty(), "{refused:#?}");
    // The same objects with one immutable change are refused.
    let changed = std::fs::read_to_string(dir.join("manifest.yaml"))
        .unwrap()
        .replacen("path: /data/cache", "path: /data/cache-v2", 1);
    assert_ne!(
        changed,
        std::fs::read_to_string(dir.join("manifest.yaml")).unwrap()
    );
    let req = Request {
        sources: vec![Source::new("manifest.yaml", changed)],
        ..req
    };
    let report: Value = serde_json::from_str(&pvlint_core::render::json(&api::lint(&req))).unwrap();
    let refused: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "update-rejected")
        .map(|f| s(&f["message"]))
        .collect();
    assert_eq!(
        refused,
        ["the API server refuses this update of PersistentVolume pv-cache: hostPath cannot change"]
    );
}

/// Case 31 as `lint --cluster-state` (and `--against-cluster`) sees it: the live objects after
/// the raw export was applied, built from exported.yaml as the API server keeps them (kubectl's
/// last-applied record of the file, the claim's new UID, the phases recorded after step 0),
/// with migrated.yaml as the manifests. kubectl's three-way merge removes the bind annotations
/// and claimRef.uid the export wrote, and the claim binds again (recorded on a real v1.34.9
/// control plane): no finding says it stays Lost. Applying the raw export again repairs
/// nothing: it stays Lost.
#[test]
fn the_migrated_export_applied_over_the_broken_state_binds() {
    let dir = cases_dir().join("31-reapply-migrated-over-broken");
    let outcome: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("outcome.json")).unwrap()).unwrap();
    let after_export = &outcome["steps"][0]["state"];
    let after_repair = &outcome["steps"][1]["state"];
    let exported = std::fs::read_to_string(dir.join("exported.yaml")).unwrap();
    let mut items = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(&exported) {
        let mut v: Value = serde::Deserialize::deserialize(doc).unwrap();
        let applied = v.to_string();
        v["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
            Value::from(applied);
        let name = s(&v["metadata"]["name"]);
        if v["kind"] == "PersistentVolumeClaim" {
            let key = format!("{}/{name}", s(&v["metadata"]["namespace"]));
            // The UID the cluster gave the claim: the volume's claimRef names it once re-bound.
            let volume = &after_repair["volumes"][s(&v["spec"]["volumeName"])];
            v["metadata"]["uid"] = volume["claimRefUID"].clone();
            v["status"]["phase"] = after_export["claims"][&key]["phase"].clone();
        } else {
            v["status"]["phase"] = after_export["volumes"][&name]["phase"].clone();
        }
        items.push(v);
    }
    let cluster = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let run = |file: &str| {
        let req = Request {
            sources: vec![source(&dir, file)],
            cluster: vec![Source::new("cluster-state.json", cluster.to_string())],
            ..Request::default()
        };
        let report: Value =
            serde_json::from_str(&pvlint_core::render::json(&api::lint(&req))).unwrap();
        let sim = api::simulate(&req).unwrap();
        let sim: Value = serde_json::from_str(&pvlint_core::render::simulation_json(&sim)).unwrap();
        let lost: Vec<String> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error" && s(&f["message"]).contains("Lost"))
            .map(|f| s(&f["message"]))
            .collect();
        let phases: Vec<String> = sim["claims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| s(&c["phase"]))
            .collect();
        (lost, phases)
    };
    let (lost, phases) = run("migrated.yaml");
    assert!(lost.is_empty(), "{lost:?}");
    assert_eq!(phases, ["Bound"]);
    let (lost, phases) = run("exported.yaml");
    assert!(
        !lost.is_empty(),
        "the raw export again: no error says the claim stays Lost"
    );
    assert_eq!(phases, ["Lost"]);
}
