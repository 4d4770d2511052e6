//! [`Lookup`] through the Kubewarden host: `get_resource`, `list_resources_all` and
//! `list_resources_by_namespace` of kubewarden-policy-sdk, typed with k8s-openapi.
//!
//! A missing object comes back from policy-server as an error ("Cannot find v1/... named
//! '...'"): that is "does not exist", not a failure.

use k8s_openapi::api::core::v1::{PersistentVolume, PersistentVolumeClaim};
use k8s_openapi::api::storage::v1::{CSIDriver, StorageClass};
use kubewarden_policy_sdk::host_capabilities::kubernetes::{
    get_resource, list_all_resources, list_resources_by_namespace, GetResourceRequest,
    ListAllResourcesRequest, ListResourcesByNamespaceRequest,
};
use serde_json::Value;

use crate::context::Lookup;

pub struct HostLookup;

/// What policy-server answers for an object that does not exist.
pub fn is_not_found(host_error: &str) -> bool {
    host_error.contains("Cannot find ") && host_error.contains(" named '")
}

fn to_values<T: serde::Serialize>(items: Vec<T>) -> Result<Vec<Value>, String> {
    items
        .into_iter()
        .map(|i| serde_json::to_value(i).map_err(|e| e.to_string()))
        .collect()
}

fn get_typed<T>(req: &GetResourceRequest) -> Result<Option<Value>, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize + Clone,
{
    match get_resource::<T>(req) {
        Ok(o) => serde_json::to_value(o).map(Some).map_err(|e| e.to_string()),
        Err(e) => {
            let e = e.to_string();
            if is_not_found(&e) {
                Ok(None)
            } else {
                Err(e)
            }
        }
    }
}

fn unsupported(api_version: &str, kind: &str) -> String {
    format!("pvlint does not read {api_version}/{kind}")
}

impl Lookup for HostLookup {
    fn get(
        &self,
        api_version: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Option<Value>, String> {
        let req = GetResourceRequest {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            namespace: namespace.map(String::from),
            disable_cache: false,
            field_masks: None,
        };
        match kind {
            "PersistentVolume" => get_typed::<PersistentVolume>(&req),
            "PersistentVolumeClaim" => get_typed::<PersistentVolumeClaim>(&req),
            "StorageClass" => get_typed::<StorageClass>(&req),
            "CSIDriver" => get_typed::<CSIDriver>(&req),
            _ => Err(unsupported(api_version, kind)),
        }
    }

    fn list_all(&self, api_version: &str, kind: &str) -> Result<Vec<Value>, String> {
        let req = ListAllResourcesRequest {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            label_selector: None,
            field_selector: None,
            field_masks: None,
        };
        let e = |e: kubewarden_policy_sdk::error::Error| e.to_string();
        match kind {
            "PersistentVolume" => to_values(
                list_all_resources::<PersistentVolume>(&req)
                    .map_err(e)?
                    .items,
            ),
            "PersistentVolumeClaim" => to_values(
                list_all_resources::<PersistentVolumeClaim>(&req)
                    .map_err(e)?
                    .items,
            ),
            "StorageClass" => to_values(list_all_resources::<StorageClass>(&req).map_err(e)?.items),
            "CSIDriver" => to_values(list_all_resources::<CSIDriver>(&req).map_err(e)?.items),
            _ => Err(unsupported(api_version, kind)),
        }
    }

    fn list_namespaced(
        &self,
        api_version: &str,
        kind: &str,
        namespace: &str,
    ) -> Result<Vec<Value>, String> {
        let req = ListResourcesByNamespaceRequest {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: namespace.to_string(),
            label_selector: None,
            field_selector: None,
            field_masks: None,
        };
        match kind {
            "PersistentVolumeClaim" => to_values(
                list_resources_by_namespace::<PersistentVolumeClaim>(&req)
                    .map_err(|e| e.to_string())?
                    .items,
            ),
            _ => Err(unsupported(api_version, kind)),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn policy_server_not_found_text_is_recognised() {
        // policy-evaluator's kubernetes client: `Cannot find {api_version}/{kind} named
        // '{name}' inside of namespace '{namespace:?}'`, wrapped by the callback handler.
        assert!(super::is_not_found(
            "error invoking host capability kubernetes.get_resource: Host error: Callback evaluation failure: Cannot find v1/PersistentVolumeClaim named 'data' inside of namespace 'Some(\"test\")'"
        ));
        assert!(!super::is_not_found("Policy has not been granted access to Kubernetes v1/PersistentVolume resources. The violation has been reported."));
    }
}
