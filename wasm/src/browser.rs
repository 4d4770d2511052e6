//! JavaScript bindings (wasm-bindgen). Every function takes and returns plain JS objects in
//! the JSON schema of `pvlint lint --format json`; the TypeScript types are below.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use pvlint_core::api::{self, Request};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface Source { name: string; text: string }
export interface Options {
  /** Target Kubernetes version, e.g. "1.31" (default: a current release). */
  kubeVersion?: string;
  /** The input holds every object that matters. */
  complete?: boolean;
  /** The cluster's default StorageClass: unset = an unnamed default, "" = none. */
  defaultClass?: string;
}
export type Operation =
  | { op: "deletePv"; name: string }
  | { op: "deletePvc"; namespace: string; name: string }
  | { op: "removeClaimRef"; name: string }
  | { op: "removeFinalizers"; name: string }
  | { op: "apply"; sources: Source[] };
export interface LintInput { sources: Source[]; cluster?: Source[]; options?: Options; eachFile?: boolean; operations?: Operation[]; audit?: boolean }
export type Severity = "error" | "warning" | "info";
export interface Location { file: string; document: number; line: number; column: number; endLine: number; endColumn: number }
export interface ObjectRef { apiVersion: string; kind: string; namespace?: string; name: string }
export interface Edit { line: number; column: number; endLine: number; endColumn: number; replacement: string }
export interface Suggestion { description: string; snippet?: string; applicability: "exact" | "illustration"; edits?: Edit[] }
export interface Related { message: string; location: Location }
export interface KubeEvent { type: "Normal" | "Warning"; reason: string; message: string }
export interface Consequence {
  summary: string; subject?: ObjectRef; phase?: "Pending" | "Bound" | "Lost" | "Available" | "Released" | "Failed";
  event?: KubeEvent; storage?: "deleted" | "leaked" | "kept"; assumptions?: string[];
}
export interface Finding {
  rule: string; family: string; severity: Severity; message: string; consequence?: Consequence; object?: ObjectRef;
  path: string; location: Location; help: string; suggestion?: Suggestion; related?: Related[];
}
export interface Summary { errors: number; warnings: number; infos: number; sources: number; documents: number; objects: number }
export interface Report { schema: "pvlint/v1"; version: string; options: Options; findings: Finding[]; summary: Summary }
export interface Origin { kind: "cluster" | "manifest" | "statefulset" | "provisioned"; object?: ObjectRef; file?: string; line?: number; ordinal?: number }
export interface ClaimOutcome {
  namespace: string; name: string; origin: Origin; phase: "Pending" | "Bound" | "Lost" | "Rejected";
  volume: string | null; class: string | null; classSource: "written" | "admission" | "retroactive" | "none";
  events: KubeEvent[]; why: string; orderDependent: boolean;
}
export interface VolumeOutcome {
  name: string; origin: Origin; phase: "Available" | "Bound" | "Released" | "Failed"; gone: boolean; claim: string | null;
  storage: { fate: "kept" | "provisioned" | "deleted" | "leftToProvisioner" | "recycled" | "deleteFailed" | "recycleFailed" | "leaked"; by?: string; error?: string };
  backing: string; events: KubeEvent[]; why: string;
}
export interface Step { operation: string; claims: ClaimOutcome[]; volumes: VolumeOutcome[] }
export interface Simulation {
  schema: "pvlint-simulation/v1"; converged: boolean; assumptions: string[];
  claims: ClaimOutcome[]; volumes: VolumeOutcome[]; steps?: Step[];
}
export interface RuleDocs { what: string; why: string; example: string; fix: string; fixed: string; knownProblems: string }
export interface RuleInfo { id: string; family: string; severity: Severity; summary: string; docs: RuleDocs }
"#;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn request(sources: JsValue, options: JsValue) -> Result<Request, JsError> {
    let mut r: Request = if options.is_undefined() || options.is_null() {
        Request::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| JsError::new(&format!("options: {e}")))?
    };
    r.sources = serde_wasm_bindgen::from_value(sources)
        .map_err(|e| JsError::new(&format!("sources: {e}")))?;
    Ok(r)
}

/// Lints manifests. `options` may carry `{cluster, options, eachFile}` as in `LintInput`.
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
