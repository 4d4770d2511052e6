//! Admission requests in, decisions out: an `AdmissionReview` (as the API server POSTs it) or
//! a bare `AdmissionRequest`; the policy's ValidationResponse turned into the
//! `AdmissionReview` response policy-server sends back.

use std::collections::BTreeMap;

use serde_json::{json, Value};

/// The AdmissionRequest inside a file: an `AdmissionReview`'s `request`, or the file itself.
pub fn admission_request(doc: &Value) -> Result<Value, String> {
    let Some(obj) = doc.as_object() else {
        return Err("an admission request must be a JSON/YAML mapping (an AdmissionReview or an AdmissionRequest)".into());
    };
    let request = match obj.get("kind").and_then(Value::as_str) {
        Some("AdmissionReview") => obj
            .get("request")
            .filter(|r| r.is_object())
            .ok_or("the AdmissionReview has no request")?,
        _ => doc,
    };
    for key in ["uid", "kind", "operation"] {
        if request.get(key).is_none() {
            return Err(format!(
                "the admission request has no \"{key}\": give an AdmissionReview ({{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": {{...}}}}) or its request"
            ));
        }
    }
    Ok(request.clone())
}

/// What the API server gets back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub uid: String,
    pub allowed: bool,
    pub message: Option<String>,
    pub code: Option<u16>,
    pub warnings: Vec<String>,
    pub audit_annotations: BTreeMap<String, String>,
}

impl Decision {
    /// policy-server's `AdmissionResponse::from_policy_validation_response`.
    pub fn from_policy_response(uid: &str, raw: &[u8]) -> Decision {
        let v: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) => {
                return Decision::internal_error(
                    uid,
                    format!("the policy answered something that is not a ValidationResponse: {e}"),
                )
            }
        };
        let Some(accepted) = v.get("accepted").and_then(Value::as_bool) else {
            return Decision::internal_error(uid, "the policy's answer has no \"accepted\"".into());
        };
        Decision {
            uid: uid.to_string(),
            allowed: accepted,
            message: v.get("message").and_then(Value::as_str).map(String::from),
            code: v.get("code").and_then(Value::as_u64).map(|c| c as u16),
            warnings: v
                .get("warnings")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|w| w.as_str().map(String::from))
                .collect(),
            audit_annotations: v
                .get("audit_annotations")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect(),
        }
    }

    /// policy-server's `reject_internal_server_error`: the evaluation itself failed.
    pub fn internal_error(uid: &str, message: String) -> Decision {
        Decision {
            uid: uid.to_string(),
            allowed: false,
            message: Some(message),
            code: Some(500),
            warnings: Vec::new(),
            audit_annotations: BTreeMap::new(),
        }
    }

    /// The `AdmissionReview` response, as the API server receives it.
    pub fn review_json(&self) -> Value {
        let mut response = json!({"uid": self.uid, "allowed": self.allowed});
        if self.message.is_some() || self.code.is_some() {
            let mut status = json!({});
            if let Some(m) = &self.message {
                status["message"] = json!(m);
            }
            if let Some(c) = self.code {
                status["code"] = json!(c);
            }
            response["status"] = status;
        }
        if !self.warnings.is_empty() {
            response["warnings"] = json!(self.warnings);
        }
        if !self.audit_annotations.is_empty() {
            response["auditAnnotations"] = json!(self.audit_annotations);
        }
        json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response})
    }

    /// For people.
    pub fn human(&self) -> String {
        let mut s = String::from(if self.allowed {
            "ALLOWED\n"
        } else {
            "DENIED\n"
        });
        if let Some(c) = self.code {
            s.push_str(&format!("code: {c}\n"));
        }
        if let Some(m) = &self.message {
            s.push_str("message:\n");
            for l in m.lines() {
                s.push_str(&format!("  {l}\n"));
            }
        }
        if !self.warnings.is_empty() {
            s.push_str("warnings:\n");
            for w in &self.warnings {
                s.push_str(&format!("  {w}\n"));
            }
        }
        if !self.audit_annotations.is_empty() {
            s.push_str("audit annotations:\n");
            for (k, v) in &self.audit_annotations {
                s.push_str(&format!("  {k}: {v}\n"));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reviews_and_bare_requests() {
        let req = json!({"uid": "1", "kind": {"kind": "Pod"}, "operation": "CREATE"});
        let review =
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req});
        assert_eq!(admission_request(&review).unwrap(), req);
        assert_eq!(admission_request(&req).unwrap(), req);
        assert!(admission_request(&json!({"kind": "AdmissionReview"}))
            .unwrap_err()
            .contains("no request"));
        assert!(admission_request(&json!({"uid": "1"}))
            .unwrap_err()
            .contains("no \"kind\""));
        assert!(admission_request(&json!([1]))
            .unwrap_err()
            .contains("mapping"));
    }

    #[test]
    fn policy_answers_become_admission_responses() {
        let d = Decision::from_policy_response(
            "u",
            br#"{"accepted":false,"message":"error[x]: y","code":null,"mutated_object":null,"audit_annotations":{"pvlint-rejected":"x"},"warnings":["w"]}"#,
        );
        assert_eq!(
            d.review_json(),
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {
                "uid": "u", "allowed": false, "status": {"message": "error[x]: y"},
                "warnings": ["w"], "auditAnnotations": {"pvlint-rejected": "x"}}})
        );
        let bad = Decision::from_policy_response("u", b"nope");
        assert_eq!(bad.code, Some(500));
        assert!(!bad.allowed);
    }
}
