//! JavaScript bindings (wasm-bindgen). Every function takes and returns plain JS objects in
//! the JSON schema of `pvlint lint --format json`; the TypeScript types are below. A request is
//! read as the JSON `JSON.stringify` writes of it and checked key by key as the WASI module's
//! JSON is (`Request::from_value`): a malformed one is a JavaScript `TypeError` saying what is
//! wrong and what was meant (wasm/npm/README.md).

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use pvlint_core::api::{self, Request};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A named text: multi-document YAML, JSON, or `kubectl get -o yaml` output. */
export interface Source { name: string; text: string }
/** How the cluster's schedulable nodes are laid out: one node (kind, k3d, minikube), several, or several in several zones. */
export type Nodes = "one" | "several" | "zones";
/** The feature gates pvlint models. */
export type FeatureGate = "HonorPVReclaimPolicy" | "StatefulSetAutoDeletePVC" | "RetroactiveDefaultStorageClass" | "VolumeAttributesClass" | "RecoverVolumeExpansionFailure";
/** The keys of the cluster profile. */
export type ProfileKey = "nodes" | "defaultClass" | "drivers" | "kubeVersion" | "featureGates" | "snapshotter" | "complete" | "sameCluster";
/** Where a value of the cluster profile came from: nothing said (`default`), a CLI flag, a settings file, the request, the cluster state (its name), `--complete`. */
export type Given = "default" | { flag: string } | { settings: string } | "request" | { clusterState: string } | "complete";
/** A CSI driver and its CSIDriver's `spec.attachRequired` (true when not given, as the CSIDriver's default). */
export interface Driver { name: string; attachRequired?: boolean }
/** The cluster profile as a `.pvlint.yaml`'s `cluster:` section writes it (LintInput's `profile`). */
export interface ProfileInput {
  /** Default: "several". */
  nodes?: Nodes;
  /** The default StorageClass: its name, "" for none, or its name and provisioner. Default: one of unknown name. */
  defaultClass?: string | { name: string; provisioner?: string };
  drivers?: Driver[];
  /** e.g. "1.31" (a string: unquoted YAML would read 1.30 as 1.3). */
  kubeVersion?: string;
  /** Gates set other than the version's default. */
  featureGates?: Partial<Record<FeatureGate, boolean>>;
  /** The CSI external-snapshotter's release, e.g. "8.2" (from 6.0 it serves snapshot.storage.k8s.io/v1 only). */
  snapshotter?: string;
  /** The input holds every object that matters. */
  complete?: boolean;
  /** Every apply set of the input goes to this one cluster. */
  sameCluster?: boolean;
}
/** What a host says of the cluster besides its version, default class and `complete` (`Options.cluster`, echoed in `Report.options`). */
export interface ClusterSpec {
  nodes?: Nodes;
  /** The provisioner of the default class `defaultClass` names. */
  defaultProvisioner?: string;
  drivers?: Driver[];
  featureGates?: Partial<Record<FeatureGate, boolean>>;
  /** The CSI external-snapshotter's release, e.g. "8.2". */
  snapshotter?: string;
  sameCluster?: boolean;
  /** Where each value came from; a value not listed came with the request. */
  from?: Partial<Record<ProfileKey, Given>>;
}
/** Options of a request. */
export interface Options {
  /** Target Kubernetes version, e.g. "1.31" (default: a current release). */
  kubeVersion?: string;
  /** How the manifests are applied: "strict" (kubectl's default: an unknown field rejects the object) or "warn" (kubectl --validate=warn, Helm: it is dropped). */
  fieldValidation?: "strict" | "warn";
  /** The input holds every object that matters. */
  complete?: boolean;
  /** The cluster's default StorageClass: unset = an unnamed default, "" = none. */
  defaultClass?: string;
  /** Per-rule settings by rule id: "off", or the severity to report it with. */
  rules?: Record<string, "off" | "info" | "warning" | "error">;
  /** kube-controller-manager runs with --enable-hostpath-provisioner (local development clusters). */
  hostpathProvisioner?: boolean;
  /** The rest of the cluster profile (LintInput's `profile` is the simpler way to give it). */
  cluster?: ClusterSpec;
}
/** The options a report was made with. */
export interface EffectiveOptions {
  kubeVersion: string; complete: boolean; defaultClass?: string; fieldValidation?: "warn";
  rules?: Record<string, "off" | "info" | "warning" | "error">; hostpathProvisioner?: true; cluster?: ClusterSpec;
}
/** A value of the cluster profile and where it came from. */
export interface Fact<T> { value: T; from: Given }
/** The cluster's default StorageClass: one of unknown name, a named one, none, or only one the input defines (`complete`). */
export type DefaultClass = { is: "unnamed" } | { is: "named"; name: string; provisioner?: string } | { is: "none" } | { is: "inputOnly" };
/** A feature gate's state; `locked`: asked off where it is locked on, and judged on. */
export interface Gate { feature: FeatureGate; enabled: boolean; from: Given; locked?: true }
/** The target cluster the findings are judged for, each value with where it came from. */
export interface Profile {
  nodes: Fact<Nodes>; defaultClass: Fact<DefaultClass>;
  /** CSI drivers whose CSIDriver facts are known. */
  drivers?: Fact<{ name: string; attachRequired: boolean }>[];
  kubeVersion: Fact<string>; featureGates?: Gate[];
  /** The CSI external-snapshotter's release, when said ("8.2"). */
  snapshotter?: Fact<string>;
  complete: Fact<boolean>; sameCluster: Fact<boolean>;
}
/** A what-if operation for `simulate`, as an admin would run it. */
export type Operation =
  | { op: "deletePv"; name: string }
  | { op: "deletePvc"; namespace: string; name: string }
  | { op: "deletePod"; namespace: string; name: string }
  | { op: "scaleStatefulSet"; namespace: string; name: string; replicas: number }
  | { op: "deleteStatefulSet"; namespace: string; name: string }
  | { op: "removeClaimRef"; name: string }
  | { op: "removeFinalizers"; name: string }
  | { op: "apply"; sources: Source[] };
/** Everything `lint` and `simulate` take besides the manifests. `profile`: the cluster profile as `.pvlint.yaml`'s `cluster:` section (its kubeVersion, defaultClass and complete not also in `options`). `audit`: the cluster's own objects are judged too (`pvlint cluster`). */
export interface LintInput { sources: Source[]; cluster?: Source[]; options?: Options; profile?: ProfileInput; eachFile?: boolean; together?: boolean; operations?: Operation[]; audit?: boolean }
export type Severity = "error" | "warning" | "info";
export type Family = "stale-identity" | "binding" | "rwo-surge" | "reclaim" | "validity";
/** Lines and columns (Unicode characters) are 1-based; the end is exclusive. */
export interface Location {
  file: string; document: number; line: number; column: number; endLine: number; endColumn: number;
  /** Rendered input: the template (Helm) or source file (Kustomize) the document came from. */
  origin?: { file: string; tool: "helm" | "kustomize" };
}
export interface ObjectRef { apiVersion: string; kind: string; namespace?: string; name: string }
/** A text replacement in the finding's file. */
export interface Edit { line: number; column: number; endLine: number; endColumn: number; replacement: string }
/** `exact`: `edits` fix the finding as they are; `illustration`: the snippet shows the shape of the fix. */
export interface Suggestion { description: string; snippet?: string; applicability: "exact" | "illustration"; edits?: Edit[] }
export interface Related { message: string; location: Location }
export interface KubeEvent { type: "Normal" | "Warning"; reason: string; message: string }
export type ClaimPhase = "Pending" | "Bound" | "Lost" | "Rejected";
export type VolumePhase = "Available" | "Bound" | "Released" | "Failed";
/** What the cluster does about a finding. */
export interface Consequence {
  summary: string; subject?: ObjectRef; phase?: "Pending" | "Bound" | "Lost" | "Available" | "Released" | "Failed";
  event?: KubeEvent; storage?: "deleted" | "leaked" | "kept"; assumptions?: string[];
}
export interface Finding {
  rule: string; family: Family; severity: Severity;
  /** The headline: what is wrong, on which object. */
  message: string; consequence?: Consequence; object?: ObjectRef;
  /** Dotted field path inside the object, empty for whole documents. */
  path: string; location: Location; help: string; suggestion?: Suggestion; related?: Related[];
  /** Live clusters: the events the cluster recorded about the object, oldest first. */
  recorded?: RecordedEvent[];
  /** Which of the report's `applySets` it is about, when there are several. */
  applySet?: number;
}
/** An event a live cluster recorded, as `kubectl get events` shows it. */
export interface RecordedEvent { type: string; reason: string; message: string; count: number }
/** Files applied together: a directory (`kubectl apply -f DIR`), a kustomization root, one file (`eachFile`, stdin), or all (`together`). */
export interface ApplySet { kind: "directory" | "kustomization" | "file" | "all"; name: string; files: string[] }
/** `suppressed`: findings silenced by `# pvlint: ignore` comments or the config file. */
export interface Summary { errors: number; warnings: number; infos: number; sources: number; documents: number; objects: number; suppressed?: number }
/** `pvlint lint --format json` (docs/json-schema.md). */
/** A source no apply set holds: a file a test framework reads (Chainsaw, kuttl), not applied. */
export interface Skipped { file: string; why: SkipReason }
export type SkipReason = "chainsawAssertion" | "chainsawStep" | "kuttlAssertion";
export interface Report { schema: "pvlint/v1"; version: string; options: EffectiveOptions; profile: Profile; applySets: ApplySet[]; findings: Finding[]; suppressed?: Finding[]; skipped?: Skipped[]; summary: Summary }
/** Where an object of the inputs is. */
export interface Located { object: ObjectRef; file: string; line: number }
export interface Origin { kind: "cluster" | "manifest" | "statefulset" | "provisioned"; object?: ObjectRef; file?: string; line?: number; ordinal?: number }
/** The event reasons the simulation predicts. */
export type EventReason =
  | "FailedBinding" | "VolumeMismatch" | "ProvisioningFailed" | "ExternalProvisioning" | "ProvisioningSucceeded"
  | "WaitForFirstConsumer" | "WaitForPodScheduled" | "ClaimLost" | "ClaimMisbound" | "VolumeFailedDelete"
  | "VolumeFailedRecycle" | "VolumeRecycled" | "VolumeUnknownReclaimPolicy" | "ExternalExpanding";
export interface SimEvent { type: "Normal" | "Warning"; reason: EventReason; message: string; transient?: true }
/** A fit check of the PV controller. */
export type Check = "beingDeleted" | "capacity" | "storageClassName" | "volumeAttributesClassName" | "volumeMode" | "accessModes" | "selector";
/** How a claim relates to the volume it is bound to or names. */
export interface Link {
  volume: string;
  how: "bestMatch" | "claimRef" | "volumeName" | "namedEachOther" | "provisioned" | "alreadyBound" | "rebound"
     | "misbound" | "volumeMissing" | "mismatch" | "taken";
  /** Failing checks (`mismatch`), or checks binding skipped although they fail (`claimRef`, `namedEachOther`). */
  checks?: Check[];
  /** `taken`, `misbound`: the claim the volume's claimRef names, `namespace/name`. */
  holder?: string;
  /** `bestMatch`: equally good volumes. */
  tied?: string[];
}
export interface ClaimOutcome {
  namespace: string; name: string; origin: Origin; phase: ClaimPhase;
  volume: string | null; class: string | null; classSource: "written" | "admission" | "retroactive" | "none";
  events: SimEvent[]; why: string; orderDependent: boolean;
  link?: Link;
  /** The workloads whose pods mount it. */
  usedBy?: Located[];
  /** Deleted, and kept by kubernetes.io/pvc-protection while a pod uses it. */
  terminating?: true;
}
/** An outcome another timing gives (`simulate`): the claims whose volume differs. */
export interface Alternative { why: string; bindings: { claim: string; volume: string | null }[] }
export type StorageFate = "kept" | "provisioned" | "deleted" | "leftToProvisioner" | "archived" | "recycled" | "deleteFailed" | "recycleFailed" | "leaked";
export interface VolumeOutcome {
  name: string; origin: Origin; phase: VolumePhase; gone: boolean;
  /** Being deleted, and a finalizer keeps the object (pv-protection while Bound). */
  terminating?: true;
  claim: string | null;
  storage: { fate: StorageFate; by?: string; error?: string };
  backing: string; events: SimEvent[]; why: string;
}
/** An update of an `apply` step the API server refuses (causes as kubectl prints them). */
export interface RefusedUpdate { kind: string; namespace?: string; name: string; causes: string[] }
export interface Step { operation: string; claims: ClaimOutcome[]; volumes: VolumeOutcome[]; refused?: RefusedUpdate[] }
/** `pvlint simulate --format json` (docs/simulation-schema.md). */
export interface Simulation {
  schema: "pvlint-simulation/v1"; converged: boolean; assumptions: string[];
  claims: ClaimOutcome[]; volumes: VolumeOutcome[]; steps?: Step[];
  /** Outcomes other timings give; `claims` is the likely one. */
  alternatives?: Alternative[];
  /** StatefulSet claims never created (OrderedReady: an earlier pod never becomes Ready). */
  notCreated?: { claim: string; why: string }[];
}
/** A severity a rule reports, when, and the fixture (`tests/fixtures/<id>/`) that shows it. */
export interface Grade { severity: Severity; when: string; example: string }
export interface RuleDocs { what: string; why: string; example: string; fix: string; fixed: string; knownProblems: string; grades: Grade[] }
export interface RuleInfo { id: string; family: Family; severity: Severity; summary: string; docs: RuleDocs }
"#;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()).into())
}

/// A malformed request: a JavaScript `TypeError` that says what is wrong and what was meant.
fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// A JavaScript argument as the JSON `JSON.stringify` writes of it, the JSON the WASI module
/// takes: a key whose value is `undefined` (or a function) is left out, as not set.
fn json_of(what: &str, value: &JsValue) -> Result<Value, JsValue> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let bad = |why: String| type_error(&format!("invalid request: {what}: {why}"));
    let text = js_sys::JSON::stringify(value)
        .map_err(|e| bad(js_sys::Error::from(e).message().into()))?
        .as_string()
        .ok_or_else(|| {
            bad(format!(
                "expected an object, found a {}",
                value.js_typeof().as_string().unwrap_or_default()
            ))
        })?;
    serde_json::from_str(&text).map_err(|e| bad(e.to_string()))
}

/// The first argument: a list of `{name, text}`.
fn check_sources(sources: &Value) -> Result<(), String> {
    use pvlint_core::settings::{hint, type_name};
    const KEYS: &[&str] = &["name", "text"];
    let Value::Array(items) = sources else {
        return Err(format!(
            "sources (the first argument): expected a list of {{name, text}}, found {}",
            type_name(sources)
        ));
    };
    for (i, item) in items.iter().enumerate() {
        let Value::Object(m) = item else {
            return Err(format!(
                "sources[{i}]: expected {{name, text}}, found {}",
                type_name(item)
            ));
        };
        if let Some(key) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "sources[{i}]: unknown key \"{key}\"{}; a source is {{name, text}}",
                hint(key, KEYS.iter().copied())
            ));
        }
        for key in KEYS {
            match m.get(*key) {
                Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(format!(
                        "sources[{i}].{key}: expected a string, found {}",
                        type_name(other)
                    ))
                }
                None => return Err(format!("sources[{i}]: {key} is missing")),
            }
        }
    }
    Ok(())
}

/// The request of `lint(sources, options)` and `simulate(sources, options)`, checked key by
/// key as the WASI module's JSON is ([`Request::from_value`]).
fn request(sources: JsValue, options: JsValue) -> Result<Request, JsValue> {
    if sources.is_undefined() {
        return Err(type_error(
            "invalid request: sources (the first argument): expected a list of {name, text}, found undefined",
        ));
    }
    let sources = json_of("sources (the first argument)", &sources)?;
    check_sources(&sources).map_err(|e| type_error(&format!("invalid request: {e}")))?;
    let mut value = json_of("the second argument", &options)?;
    match &mut value {
        Value::Null => value = Value::Object(Default::default()),
        Value::Object(m) if m.contains_key("sources") => {
            return Err(type_error(
                "invalid request: sources are the first argument, not a key of the second",
            ))
        }
        Value::Object(_) => {}
        other => {
            let keys: Vec<&str> = api::REQUEST_KEYS
                .iter()
                .copied()
                .filter(|k| *k != "sources")
                .collect();
            return Err(type_error(&format!(
                "invalid request: the second argument: expected an object ({{{}}}, e.g. {{options: {{kubeVersion: \"1.31\"}}}}) or undefined, found {}",
                keys.join(", "),
                pvlint_core::settings::type_name(other)
            )));
        }
    }
    if let Value::Object(m) = &mut value {
        m.insert("sources".into(), sources);
    }
    Request::from_value(value).map_err(|e| type_error(&e))
}

/// Lints manifests. `options` may carry `{cluster, options, profile, eachFile, together, audit}`
/// as in `LintInput`; a malformed request throws a `TypeError` that says what was meant.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn lint(
    #[wasm_bindgen(unchecked_param_type = "Source[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Omit<LintInput, 'sources'> | undefined")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&api::lint(&request(sources, options)?))
}

/// Predicts the PV controller's outcome for manifests applied onto an optional cluster state.
#[wasm_bindgen(unchecked_return_type = "Simulation")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Source[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Omit<LintInput, 'sources'> | undefined")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let sim =
        api::simulate(&request(sources, options)?).map_err(|e| JsValue::from(JsError::new(&e)))?;
    to_js(&sim)
}

/// Every rule with its documentation.
#[wasm_bindgen(unchecked_return_type = "RuleInfo[]")]
pub fn rules() -> Result<JsValue, JsValue> {
    to_js(&pvlint_core::rules())
}

/// One rule's documentation as Markdown, or undefined for an unknown id.
#[wasm_bindgen]
pub fn explain(id: &str) -> Option<String> {
    pvlint_core::rules::find(id).map(pvlint_core::render::explain)
}

/// The version of the lint core.
#[wasm_bindgen]
pub fn version() -> String {
    pvlint_core::VERSION.to_string()
}
