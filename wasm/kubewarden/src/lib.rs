//! pvlint as a Kubewarden admission policy: a waPC guest (wasm32-wasip1) exporting
//! `validate`, `validate_settings` and `protocol_version`, built with
//! kubewarden-policy-sdk. It judges CREATE and UPDATE of PersistentVolumes, claims,
//! StorageClasses and workloads against the cluster state it reads through the host's
//! context-aware capabilities ([`host::HostLookup`]), with the rules of `pvlint_core::api`.
//!
//! - [`settings`]: the policy's settings and their validation;
//! - [`context`]: what is read from the cluster, behind the [`context::Lookup`] seam;
//! - [`decision`]: admission request → lint → rejection, warnings, audit annotations.

pub mod context;
pub mod decision;
pub mod host;
pub mod settings;

use kubewarden_policy_sdk::settings::SettingsValidationResponse;
use wapc_guest::prelude::*;

#[unsafe(no_mangle)]
pub extern "C" fn wapc_init() {
    register_function("validate", validate);
    register_function("validate_settings", validate_settings);
    register_function(
        "protocol_version",
        kubewarden_policy_sdk::protocol_version_guest,
    );
}

/// `validate`: `{"request": AdmissionRequest, "settings": {...}}` → a ValidationResponse.
pub fn validate(payload: &[u8]) -> CallResult {
    let response = decision::evaluate(payload, &host::HostLookup);
    Ok(serde_json::to_vec(&response)?)
}

/// `validate_settings`: the settings as JSON → `{"valid": bool, "message": ...}`.
pub fn validate_settings(payload: &[u8]) -> CallResult {
    Ok(serde_json::to_vec(&check_settings(payload))?)
}

pub fn check_settings(payload: &[u8]) -> SettingsValidationResponse {
    let result = serde_json::from_slice::<serde_json::Value>(payload)
        .map_err(|e| format!("the settings are not valid JSON: {e}"))
        .and_then(|v| settings::Settings::from_value(&v));
    match result {
        Ok(_) => SettingsValidationResponse {
            valid: true,
            message: None,
        },
        Err(e) => SettingsValidationResponse {
            valid: false,
            message: Some(e),
        },
    }
}
