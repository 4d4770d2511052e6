//! JavaScript bindings (wasm-bindgen). Every function takes and returns plain JS objects in
//! the JSON schema of `pvlint lint --format json`; the TypeScript types are below.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use pvlint_core::api::{self, Request};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A named text: multi-document YAML, JSON, or `kubectl get -o yaml` output. */
export interface Source { name: string; text: string }
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
}
/** The options a report was made with. */
export interface EffectiveOptions { kubeVersion: string; complete: boolean; defaultClass?: string; fieldValidation?: "warn" }
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
/** Everything `lint` and `simulate` take besides the manifests. `audit`: the cluster's own objects are judged too (`pvlint cluster`). */
export interface LintInput { sources: Source[]; cluster?: Source[]; options?: Options; eachFile?: boolean; together?: boolean; operations?: Operation[]; audit?: boolean }
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
export interface Report { schema: "pvlint/v1"; version: string; options: EffectiveOptions; applySets: ApplySet[]; findings: Finding[]; suppressed?: Finding[]; summary: Summary }
/** Where an object of the inputs is. */
export interface Located { object: ObjectRef; file: string; line: number }
export interface Origin { kind: "cluster" | "manifest" | "statefulset" | "provisioned"; object?: ObjectRef; file?: string; line?: number; ordinal?: number }
/** The event reasons the simulation predicts. */
export type EventReason =
  | "FailedBinding" | "VolumeMismatch" | "ProvisioningFailed" | "ExternalProvisioning" | "ProvisioningSucceeded"
  | "WaitForFirstConsumer" | "ClaimLost" | "ClaimMisbound" | "VolumeFailedDelete" | "VolumeFailedRecycle"
  | "VolumeRecycled" | "VolumeUnknownReclaimPolicy";
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
export type StorageFate = "kept" | "provisioned" | "deleted" | "leftToProvisioner" | "recycled" | "deleteFailed" | "recycleFailed" | "leaked";
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
export interface RuleDocs { what: string; why: string; example: string; fix: string; fixed: string; knownProblems: string }
export interface RuleInfo { id: string; family: Family; severity: Severity; summary: string; docs: RuleDocs }
"#;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// An argument that does not deserialise, as "what: why" (serde-wasm-bindgen's messages
/// carry a JavaScript "Error: " prefix).
fn bad_argument(what: &str, e: serde_wasm_bindgen::Error) -> JsError {
    let e = e.to_string();
    JsError::new(&format!(
        "{what}: {}",
        e.strip_prefix("Error: ").unwrap_or(&e)
    ))
}

fn request(sources: JsValue, options: JsValue) -> Result<Request, JsError> {
    let mut r: Request = if options.is_undefined() || options.is_null() {
        Request::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| bad_argument("options", e))?
    };
    r.sources = serde_wasm_bindgen::from_value(sources).map_err(|e| bad_argument("sources", e))?;
    Ok(r)
}

/// Lints manifests. `options` may carry `{cluster, options, eachFile, together}` as in `LintInput`.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn lint(
    #[wasm_bindgen(unchecked_param_type = "Source[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Omit<LintInput, 'sources'> | undefined")]
    options: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&api::lint(&request(sources, options)?))
}

/// Predicts the PV controller's outcome for manifests applied onto an optional cluster state.
#[wasm_bindgen(unchecked_return_type = "Simulation")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Source[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Omit<LintInput, 'sources'> | undefined")]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let sim = api::simulate(&request(sources, options)?).map_err(|e| JsError::new(&e))?;
    to_js(&sim)
}

/// Every rule with its documentation.
#[wasm_bindgen(unchecked_return_type = "RuleInfo[]")]
pub fn rules() -> Result<JsValue, JsError> {
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
